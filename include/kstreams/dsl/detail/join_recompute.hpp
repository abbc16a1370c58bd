// A stream-stream join recovered by recomputation (stream_joined::with_recovery(recovery::recompute)):
// what its four processors keep to hold input offsets and to judge replayed records.
// - Each side's KSTREAM-WINDOWED holds a record it put in its buffer until the buffer can no
//   longer show it (its store's stream time passed t + before + after + grace), and, for a
//   left/outer join, until the join emitted its records without partner up to then: a record
//   waiting for a partner at the commit then finds after a restart every partner it found the
//   first time. Replayed records go into the buffer as they did the first time (judged from the
//   store's stream time noted with the earliest held record), never one the store had dropped.
// - Each join processor of a left/outer join holds a record it parked without partner until it is
//   emitted, and marks it (offset_hold::mark) while it waits: the commit names the records waiting
//   then. Replayed records re-emit the joins they find (at-least-once) but never a result without
//   partner: those named as waiting are parked again, the others went out before the commit (at
//   once, or once their window closed) or were matched. This does not depend on the join's stream
//   time or its buffers' contents during the replay, so on the order the replay takes the two
//   streams' records in (which a restart may not take as the first run did). A commit with more
//   waiting records on a partition than its metadata names leaves the others unknown: parked
//   again unless their window had closed by the commit's last emission (a result without partner
//   perhaps emitted twice, never lost).
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <kstreams/detail/offset_hold.hpp>

namespace kstreams::dsl_detail {

/// Shared by a task's join processors (in the join's time tracker).
struct join_recovery {
    kstreams::detail::offset_hold* holds[2] = {nullptr, nullptr};  ///< this side's, the other's join processor
    bool started = false;
    std::int64_t commit_stream_time = -1;  ///< the join's stream time at the commit resumed from
    std::int64_t commit_emitted = -1;      ///< the stream time of its last emission of records without partner
    bool caught_up = false;  ///< a record past the replay came: stream time is the commit's again

    std::optional<std::int64_t> commit_min_time;  ///< the join's time tracker's min time at the commit

    /// Before the first record after the task started: what the commit resumed from noted.
    void start() {
        if (started) return;
        started = true;
        for (auto* h : holds)
            if (h && h->recovered_note()) commit_min_time = h->recovered_note();
        for (auto* h : holds) {
            if (!h) continue;
            // Until the replay is over, commits note what the commit resumed from noted.
            if (commit_min_time) h->note(*commit_min_time);
            commit_stream_time = std::max(commit_stream_time, h->recovered_stream_time());
            commit_emitted = std::max(commit_emitted, h->recovered_watermark());
        }
    }
    /// Past the replay, before each commit: the tracker's min time, so that a restart looks for
    /// records to emit exactly when the first run would have.
    void note(std::int64_t min_time) {
        if (!caught_up) return;
        for (auto* h : holds)
            if (h) h->note(min_time);
    }
    /// Where the records waiting for a partner were read (by outer store key), to unmark them
    /// once emitted or matched.
    std::map<std::string, std::vector<kstreams::detail::held_origin>> waiting;
    /// The keys of replayed records the commit named as waiting: no replayed record matches them
    /// (none had matched them by the commit).
    std::set<std::string> named;
    /// The record being processed was parked under `key` (`named`: replayed, the commit named it
    /// as waiting): marked as waiting (until `release`).
    void parked(const std::string& key, kstreams::detail::offset_hold& hold, std::int64_t release, bool was_named) {
        if (was_named) named.insert(key);
        const auto origin = hold.origin();
        if (!origin) return;  // no source record: not processed again
        hold.mark(*origin, release);
        waiting[key].push_back(*origin);
    }
    /// The records parked under `key` (the left side's if `left`) were emitted or matched.
    void gone(const std::string& key, bool left) {
        named.erase(key);
        const auto it = waiting.find(key);
        if (it == waiting.end()) return;
        for (const auto& origin : it->second)
            if (auto* h = holds[left ? 0 : 1]) h->unmark(origin);
        waiting.erase(it);
    }
    /// Both join processors' holds: stream time `stream_time`, records emitted up to `emitted`.
    void advance(std::int64_t stream_time, std::int64_t emitted) {
        for (auto* h : holds)
            if (h) h->advance(stream_time, emitted);
    }
};

/// A buffer's clock as its window store keeps it (observed stream time; a put at or below it
/// minus the retention is dropped), so that replayed records are put or dropped as the first time.
class join_buffer_clock {
public:
    explicit join_buffer_clock(std::int64_t retention) : retention_(retention) {}
    /// Advances the clock to `t` (after a restart, first to the noted time); whether the store
    /// keeps a record at `t`.
    bool admit(kstreams::detail::offset_hold& hold, std::int64_t t) {
        if (!started_) {
            started_ = true;
            const std::int64_t replay = hold.recovered_replay_stream_time();
            // Nothing of this buffer held: every replayed record was out of retention at the commit.
            time_ = replay >= 0 ? replay : hold.recovered_stream_time();
        }
        if (!caught_up_ && !hold.replaying()) {
            caught_up_ = true;
            time_ = std::max(time_, hold.recovered_stream_time());
        }
        time_ = std::max(time_, t);
        return time_ < INT64_MIN + retention_ || t > time_ - retention_;
    }
    std::int64_t time() const { return time_; }
    /// The release of a record at `t`: once the store's stream time passes t + retention.
    std::int64_t release(std::int64_t t) const { return t >= INT64_MAX - retention_ ? INT64_MAX : t + retention_ + 1; }

private:
    std::int64_t retention_;
    std::int64_t time_ = -1;
    bool started_ = false;
    bool caught_up_ = false;
};

}  // namespace kstreams::dsl_detail
