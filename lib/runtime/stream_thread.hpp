// A stream thread (Kafka Streams' StreamThread): one consumer in the group, one producer, one record
// cache, and the tasks of its assigned partitions. It is not an OS thread of its own: its loop is a
// coroutine on a strand of the app's executor (num.stream.threads OS threads shared by all stream
// threads), and each of its tasks runs on a strand of its own on the same executor.
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <boost/asio/any_io_executor.hpp>

#include <kstreams/metrics.hpp>
#include <kstreams/streams.hpp>

#include "lib/observe/snapshot.hpp"
#include "lib/runtime/app_context.hpp"

namespace kstreams::detail {

class stream_thread {
public:
    /// `executor`: the app's thread pool. `on_exit` runs on it when the thread ends: with the
    /// exception that killed it, or null.
    stream_thread(app_context& ctx, int index, boost::asio::any_io_executor executor,
                  std::function<void(stream_thread&, std::exception_ptr)> on_exit);
    ~stream_thread();

    void start();
    /// Asks the thread to finish: commit, close its tasks and leave. Thread-safe. Its shutdown
    /// (waiting for async records, producer flushes) is bounded by `deadline` (the earliest asked).
    /// `leave_group` false: its consumer stays a member of the group until the session times out
    /// (close_options::leave_group); any stop asked with true leaves.
    void request_stop(std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max(),
                      bool leave_group = true);
    /// Waits for the thread until `deadline`; true if it ended.
    bool join_until(std::chrono::steady_clock::time_point deadline);
    /// Wakes the loop up to look at the app's state again (kafka_streams::resume()). Thread-safe.
    void wake();
    /// Whether it has ended.
    bool finished() const { return finished_.load(); }
    const std::string& name() const { return name_; }
    int index() const { return index_; }
    /// Counters as of the last publication (every few milliseconds while busy).
    kstreams::metrics metrics() const;
    /// Its stores restoring, as of the last publication.
    std::vector<store_restoration> restoration() const;
    /// Counters, tasks and restorations as of the last publication (metrics and status page).
    thread_snapshot snapshot() const;

private:
    struct state;
    void finish(std::exception_ptr error);

    app_context& ctx_;
    int index_;
    std::string name_;
    boost::asio::any_io_executor executor_;
    std::function<void(stream_thread&, std::exception_ptr)> on_exit_;
    /// Shared with the handlers it has pending on the executor, which may outlive the thread.
    std::shared_ptr<state> state_;
    bool started_ = false;
    std::atomic<bool> stop_requested_{false};
    std::atomic<std::chrono::steady_clock::time_point> stop_deadline_{std::chrono::steady_clock::time_point::max()};
    std::atomic<bool> stay_in_group_{false};  ///< close_options::leave_group false
    std::atomic<bool> finished_{false};
    std::mutex finished_mutex_;
    std::condition_variable finished_cv_;
    mutable std::mutex metrics_mutex_;
    kstreams::metrics published_metrics_;
    std::vector<store_restoration> published_restoration_;
    std::vector<task_snapshot> published_tasks_;
};

}  // namespace kstreams::detail
