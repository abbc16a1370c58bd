// Scheduled callbacks (punctuations) and the handle that cancels them.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

namespace kstreams {

/// What drives a punctuation: the task's stream time (advanced by record timestamps) or the
/// wall-clock time of the machine (or of the test driver's manual clock).
enum class punctuation_type { stream_time, wall_clock_time };

using punctuator = std::function<void(std::int64_t timestamp_ms)>;

/// Returned by schedule(); cancel() stops further calls. Dropping the handle does not cancel.
class cancellable {
public:
    cancellable() = default;
    explicit cancellable(std::shared_ptr<bool> cancelled) : cancelled_(std::move(cancelled)) {}
    void cancel() {
        if (cancelled_) *cancelled_ = true;
    }

private:
    std::shared_ptr<bool> cancelled_;
};

}  // namespace kstreams
