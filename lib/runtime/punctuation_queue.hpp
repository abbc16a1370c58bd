// Scheduled punctuations of one task and one time kind, fired in time order (Kafka Streams'
// PunctuationQueue): a schedule that fell behind skips the missed intervals instead of firing a
// burst.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include <kstreams/punctuation.hpp>

namespace kstreams::detail {

class node;

class punctuation_queue {
public:
    cancellable schedule(node& owner, std::int64_t first, std::int64_t interval, punctuator callback);
    /// Fires every schedule due at `now`, in order of due time; `fire` runs one callback (the task
    /// uses it to set the current node and catch errors). Returns whether any fired.
    template <class Fire>
    bool maybe_punctuate(std::int64_t now, Fire&& fire);
    bool empty() const { return entries_.empty(); }
    /// No schedule is due before this time: `now < no_earlier_than()` answers "nothing due"
    /// without a call (schedule() lowers it at once; a cancelled schedule's time may linger).
    std::int64_t no_earlier_than() const { return earliest_; }
    /// When the next schedule is due; INT64_MAX if none (the Kafka runtime sleeps until then).
    std::int64_t next_due() const {
        std::int64_t next = INT64_MAX;
        for (const auto& e : entries_)
            if (!*e.cancelled && e.due < next) next = e.due;
        return next;
    }

private:
    struct entry {
        node* owner;
        std::int64_t due;
        std::int64_t interval;
        punctuator callback;
        std::shared_ptr<bool> cancelled;
    };
    std::vector<entry> entries_;
    /// No schedule is due before this (it may be earlier than the next due time: a cancelled
    /// schedule's time stays until the next look), so "nothing due" is one comparison per record.
    std::int64_t earliest_ = INT64_MAX;
};

template <class Fire>
bool punctuation_queue::maybe_punctuate(std::int64_t now, Fire&& fire) {
    if (now < earliest_) return false;
    bool fired = false;
    for (;;) {
        std::erase_if(entries_, [](const entry& e) { return *e.cancelled; });
        entry* next = nullptr;
        earliest_ = INT64_MAX;
        for (auto& e : entries_) {
            if (e.due <= now && (!next || e.due < next->due)) next = &e;
            if (e.due < earliest_) earliest_ = e.due;
        }
        if (!next) return fired;
        std::int64_t due = next->due + next->interval;
        if (now >= due) due = next->due + ((now - next->due) / next->interval + 1) * next->interval;
        next->due = due;
        earliest_ = std::min(earliest_, due);
        // Copy: the callback may schedule more punctuations and move entries_.
        punctuator cb = next->callback;
        node* owner = next->owner;
        auto cancelled = next->cancelled;
        fire(*owner, cb, now, *cancelled);
        fired = true;
    }
}

}  // namespace kstreams::detail
