// Session windows for kgrouped_stream::windowed_by (Kafka's SessionWindows): a key's records
// closer than the inactivity gap to each other form one session [first, last] (both inclusive);
// a record between two sessions merges them. A session takes records while stream time <=
// its end + gap + grace.
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>

namespace kstreams {

class session_windows {
public:
    /// Sessions split at `gap` of inactivity, with no grace.
    static session_windows of_inactivity_gap_with_no_grace(std::chrono::milliseconds gap) {
        return of_inactivity_gap_and_grace(gap, std::chrono::milliseconds(0));
    }
    /// Sessions split at `gap` of inactivity, taking out-of-order records for `grace` after they close.
    static session_windows of_inactivity_gap_and_grace(std::chrono::milliseconds gap, std::chrono::milliseconds grace) {
        if (gap.count() < 0) throw std::invalid_argument("session_windows: the inactivity gap must not be negative");
        if (grace.count() < 0) throw std::invalid_argument("session_windows: the grace period must not be negative");
        return {gap.count(), grace.count()};
    }

    std::int64_t inactivity_gap() const { return gap_; }
    std::int64_t grace() const { return grace_; }

private:
    session_windows(std::int64_t gap, std::int64_t grace) : gap_(gap), grace_(grace) {}

    std::int64_t gap_;
    std::int64_t grace_;
};

}  // namespace kstreams
