// Kafka's UnlimitedWindows for kgrouped_stream::windowed_by (and a cogroup's),
// unlimited_windows::of() or of().start_on(t): one window per key from a start time (0 by default) to the largest time, [start, INT64_MAX), taking every record at
// or after the start and never closing (no grace; a record before the start falls in no window and
// is dropped silently). The results are keyed windowed<K> with that window, and the store keeps
// them as long as the largest time allows. Emitting on window close is refused, as Kafka refuses
// it. Converts to the time_windows that windowed_by takes. Included by <kstreams/dsl.hpp>.
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>

#include <kstreams/dsl/time_windows.hpp>

namespace kstreams {

class unlimited_windows {
public:
    /// The window starting at 0 (Kafka's UnlimitedWindows.of()).
    static unlimited_windows of() { return unlimited_windows(0); }
    /// The window starting at `start` ms since the epoch instead (Kafka's
    /// UnlimitedWindows.of().startOn(instant)); not negative.
    unlimited_windows start_on(std::chrono::milliseconds start) const {
        if (start.count() < 0)
            throw std::invalid_argument("unlimited_windows: the window start time cannot be negative");
        return unlimited_windows(start.count());
    }
    template <class Clock, class Duration>
    unlimited_windows start_on(std::chrono::time_point<Clock, Duration> start) {
        return start_on(std::chrono::duration_cast<std::chrono::milliseconds>(start.time_since_epoch()));
    }

    std::int64_t start() const { return start_; }
    std::int64_t size() const { return INT64_MAX; }
    std::int64_t grace() const { return 0; }

    operator time_windows() const {  // NOLINT(google-explicit-constructor): windowed_by takes it
        time_windows w(INT64_MAX, 0);
        w.start_ = start_;
        w.unlimited_ = true;
        return w;
    }

private:
    explicit unlimited_windows(std::int64_t start) : start_(start) {}
    std::int64_t start_;
};

}  // namespace kstreams
