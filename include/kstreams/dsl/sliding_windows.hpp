// Sliding windows for kgrouped_stream::windowed_by (Kafka's SlidingWindows): windows of a fixed
// time difference whose bounds are both inclusive, [start, start + difference], created where
// records are (a record's left window ends at it, its right window starts 1 ms after it) rather
// than aligned to the epoch. A window takes records while stream time <= its end + grace.
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>

namespace kstreams {

class sliding_windows {
public:
    /// Windows `difference` wide with no grace: a record is late once stream time passes its end.
    static sliding_windows of_time_difference_with_no_grace(std::chrono::milliseconds difference) {
        return of_time_difference_and_grace(difference, std::chrono::milliseconds(0));
    }
    /// Windows `difference` wide taking out-of-order records for `grace` after they end.
    static sliding_windows of_time_difference_and_grace(std::chrono::milliseconds difference, std::chrono::milliseconds grace) {
        if (difference.count() < 0) throw std::invalid_argument("sliding_windows: the time difference must not be negative");
        if (grace.count() < 0) throw std::invalid_argument("sliding_windows: the grace period must not be negative");
        return {difference.count(), grace.count()};
    }

    std::int64_t time_difference() const { return difference_; }
    std::int64_t grace() const { return grace_; }

private:
    sliding_windows(std::int64_t difference, std::int64_t grace) : difference_(difference), grace_(grace) {}

    std::int64_t difference_;
    std::int64_t grace_;
};

}  // namespace kstreams
