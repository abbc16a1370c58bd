// A stream thread (Kafka Streams' StreamThread): one consumer in the group, one producer, the tasks
// of its assigned partitions, all driven by one Asio io_context on one OS thread. librdkafka's
// queue event fd wakes it; timers wake it for commits, punctuations and task idling.
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include <kstreams/metrics.hpp>

#include "lib/runtime/app_context.hpp"

namespace kstreams::detail {

class stream_thread {
public:
    /// `on_exit` runs on the thread when it ends: with the exception that killed it, or null.
    stream_thread(app_context& ctx, int index, std::function<void(stream_thread&, std::exception_ptr)> on_exit);
    ~stream_thread();

    void start();
    /// Asks the thread to finish: commit, close its tasks and leave. Thread-safe.
    void request_stop();
    /// Waits for the thread until `deadline`; true if it ended.
    bool join_until(std::chrono::steady_clock::time_point deadline);
    int index() const { return index_; }
    /// Counters as of the last commit.
    kstreams::metrics metrics() const;

private:
    struct state;
    void body();

    app_context& ctx_;
    int index_;
    std::function<void(stream_thread&, std::exception_ptr)> on_exit_;
    std::unique_ptr<state> state_;
    std::thread thread_;
    std::atomic<bool> stop_requested_{false};
    std::atomic<bool> finished_{false};
    std::mutex finished_mutex_;
    std::condition_variable finished_cv_;
    mutable std::mutex metrics_mutex_;
    kstreams::metrics published_metrics_;
};

}  // namespace kstreams::detail
