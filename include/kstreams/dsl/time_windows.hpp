// Tumbling and hopping windows for kgrouped_stream::windowed_by (Kafka's TimeWindows): windows of
// `size` ms starting every `advance` ms, aligned to the epoch, [start, end) (end exclusive). A
// window takes records while stream time < end + grace; later records for it are dropped.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <kstreams/state/window_store.hpp>

namespace kstreams {

class unlimited_windows;

class time_windows {
public:
    /// Tumbling windows of `size`, no grace: a record is late once stream time reaches its window's end.
    static time_windows of_size_with_no_grace(std::chrono::milliseconds size) { return {check_size(size), 0}; }
    /// Tumbling windows of `size` taking out-of-order records for `grace` after they end.
    static time_windows of_size_and_grace(std::chrono::milliseconds size, std::chrono::milliseconds grace) {
        if (grace.count() < 0) throw std::invalid_argument("time_windows: the grace period must not be negative");
        return {check_size(size), grace.count()};
    }
    /// Hopping windows: a new window every `advance` (0 < advance <= size).
    time_windows advance_by(std::chrono::milliseconds advance) const {
        if (advance.count() <= 0 || advance.count() > size_)
            throw std::invalid_argument("time_windows: the advance must be more than zero and at most the window size (" +
                                        std::to_string(size_) + " ms), got " + std::to_string(advance.count()) + " ms");
        time_windows w = *this;
        w.advance_ = advance.count();
        return w;
    }

    /// Kafka's UnlimitedWindows (what unlimited_windows converts to): one window [start, the
    /// largest time) that takes every record at or after its start; size the largest time, no
    /// grace. Records before the start fall in no window (dropped silently, as Kafka's).
    bool unlimited() const { return unlimited_; }
    std::int64_t size() const { return size_; }
    std::int64_t advance() const { return advance_; }
    std::int64_t grace() const { return grace_; }

    /// Calls `fn(window)` for each window a record at `ts` falls in, by ascending start: every window with
    /// start <= ts < start + size (none start before 0, as Kafka's). No allocation: this is per record.
    /// Throws std::invalid_argument, before any call, when the last of them would end past the largest
    /// timestamp (Kafka's TimeWindow refuses an end before its start, as the overflowed end is).
    template <class Fn>
    void for_each_window(std::int64_t ts, Fn&& fn) const {
        if (unlimited_) {
            if (ts >= start_) fn(window{start_, INT64_MAX});
            return;
        }
        const std::int64_t last_start = ts - ts % advance_;
        if (last_start > INT64_MAX - size_) throw_end_overflow(ts, last_start);
        for (std::int64_t start = std::max<std::int64_t>(0, ts - size_ + advance_) / advance_ * advance_; start <= ts;
             start += advance_)
            fn(window{start, start + size_});
    }
    /// The same windows as a list (for tests and the once-per-emission checks).
    std::vector<window> windows_for(std::int64_t ts) const {
        std::vector<window> out;
        for_each_window(ts, [&](const window& w) { out.push_back(w); });
        return out;
    }

private:
    friend class unlimited_windows;
    time_windows(std::int64_t size, std::int64_t grace) : size_(size), advance_(size), grace_(grace) {}
    [[noreturn]] void throw_end_overflow(std::int64_t ts, std::int64_t start) const {
        throw std::invalid_argument("time_windows: a record at " + std::to_string(ts) + " falls in the window starting at " +
                                    std::to_string(start) + ", whose end (" + std::to_string(size_) +
                                    " ms later) is past the largest timestamp");
    }
    static std::int64_t check_size(std::chrono::milliseconds size) {
        if (size.count() <= 0) throw std::invalid_argument("time_windows: the window size must be larger than zero");
        return size.count();
    }

    std::int64_t size_;
    std::int64_t advance_;
    std::int64_t grace_;
    std::int64_t start_ = 0;  ///< unlimited windows: the one window's start
    bool unlimited_ = false;
};

}  // namespace kstreams
