// The global stream thread (Kafka's GlobalStreamThread): one per instance when the topology has
// global stores. Its consumer is assigned every partition of every global topic (no group). At
// start it restores each global store to its topic's end offsets, from the global checkpoint
// (`<state.dir>/<application.id>/global/.checkpoint`) or the beginning, writing the raw records
// into the store (the update processor does not run, as in Kafka); start() waits for that
// (Kafka's KafkaStreams.start() does too), then the thread follows the topics, each record going
// through the store's source and update processor. The topic is the store's changelog: nothing is
// logged. The checkpoint is written after the restore, on close, and every commit.interval.ms once
// the stores moved 10,000 records past it (Kafka 4.4's rules).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include <kstreams/metrics.hpp>
#include <kstreams/state/state_store.hpp>
#include <kstreams/streams.hpp>

#include "lib/runtime/app_context.hpp"

namespace kstreams::detail {

class global_thread {
public:
    /// `on_death` runs on the thread when it dies of an error after its bootstrap.
    global_thread(app_context& ctx, std::function<void(std::exception_ptr)> on_death);
    ~global_thread();
    global_thread(const global_thread&) = delete;
    global_thread& operator=(const global_thread&) = delete;

    /// Starts the thread and returns once every global store is restored; throws what made the
    /// restore fail (the thread has ended then).
    void start();
    /// Asks the thread to finish (checkpoint, close the stores). Thread-safe.
    void request_stop();
    bool join_until(std::chrono::steady_clock::time_point deadline);
    kstreams::metrics metrics() const;
    /// The global store partition restoring now (task -1_-1), or nothing. Thread-safe.
    std::vector<store_restoration> restoration() const;
    /// Global store `name`, or nullptr; read it under lock(), which the thread holds while it
    /// writes the stores.
    state_store* find_store(std::string_view name);
    std::recursive_mutex& lock();

private:
    struct state;
    void run();

    std::shared_ptr<state> state_;
    std::thread thread_;
};

}  // namespace kstreams::detail
