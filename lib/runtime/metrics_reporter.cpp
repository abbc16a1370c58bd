#include "lib/runtime/metrics_reporter.hpp"

#include <exception>
#include <string>

#include "lib/core/log.hpp"

namespace kstreams::detail {

metrics_reporter::metrics_reporter(listener l, source s, std::chrono::milliseconds interval)
    : listener_(std::move(l)), source_(std::move(s)), interval_(interval), thread_([this] { run(); }) {}

metrics_reporter::~metrics_reporter() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void metrics_reporter::run() {
    std::unique_lock lock(mutex_);
    while (!stop_) {
        if (wake_.wait_for(lock, interval_, [this] { return stop_; })) break;
        lock.unlock();
        report();
        lock.lock();
    }
    lock.unlock();
    report();  // the final counters, after the threads stopped
}

void metrics_reporter::report() {
    // A listener's exception must not end the reports or the app: it is logged and the next
    // interval reports again.
    try {
        listener_(source_());
    } catch (const std::exception& e) {
        KSTREAMS_LOG(error, std::string("the metrics listener threw: ") + e.what());
    } catch (...) {
        KSTREAMS_LOG(error, "the metrics listener threw a non-standard exception");
    }
}

}  // namespace kstreams::detail
