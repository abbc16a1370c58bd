// Tells a user's metrics listener the app's counters every interval, from a thread of its own, and
// once more when it stops: progress is visible between commits without polling metrics().
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include <kstreams/metrics.hpp>

namespace kstreams::detail {

class metrics_reporter {
public:
    using listener = std::function<void(const kstreams::metrics&)>;
    using source = std::function<kstreams::metrics()>;

    metrics_reporter(listener l, source s, std::chrono::milliseconds interval);
    /// Stops the thread after a last report.
    ~metrics_reporter();
    metrics_reporter(const metrics_reporter&) = delete;
    metrics_reporter& operator=(const metrics_reporter&) = delete;

private:
    void run();
    void report();

    listener listener_;
    source source_;
    std::chrono::milliseconds interval_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace kstreams::detail
