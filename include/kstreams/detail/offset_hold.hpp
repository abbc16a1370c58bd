// Offset holding for recovery by recomputation (recovery::recompute): a processor writing a store
// that has no changelog tells its task, per record, until when the record still belongs to open
// state; the task commits each input partition no further than its earliest such record, so that
// after a failure (or a move to another instance) processing that partition again from the
// committed offset rebuilds the open state exactly. What the processor noted (its stream time and
// how far it emitted) goes into the commit's metadata and comes back to the processor that takes
// over, so that records of windows closed before the commit are not counted again and finals
// already emitted are not emitted again.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include <kstreams/detail/task_context.hpp>

namespace kstreams::detail {

class node;

/// Where a record was read from, as an owner noted it to hold it again later (a session's first
/// record, held again each time the session grows).
struct held_origin {
    std::size_t partition_slot = 0;  ///< the task's index of the input partition
    std::int64_t offset = -1;
    std::int64_t stream_time = -1;  ///< the owner's stream time once it had processed the record
};

class offset_hold {
public:
    virtual ~offset_hold() = default;
    /// The record being processed belongs to open state until the owner's watermark reaches
    /// `release` (a record whose windows are all closed already is not held).
    virtual void hold(std::int64_t release) = 0;
    /// The record being processed, to hold later with hold_at (nullopt: it has no source record,
    /// e.g. forwarded by a punctuation, and cannot be read again).
    virtual std::optional<held_origin> origin() = 0;
    /// Holds an earlier record (`origin`, noted while it was processed) until `release`: records
    /// held longer than the ones after them (a session's first record while the session grows).
    virtual void hold_at(const held_origin& origin, std::int64_t release) = 0;
    /// Whether the record being processed is replayed: it was processed before the commit the
    /// task resumed from (what it forwarded then went out before that commit).
    virtual bool replaying() const = 0;
    /// Marks a record (`origin`, as origin() gave it while the record was processed) until the
    /// watermark reaches `release` or it is unmarked: the commit's metadata names the marked
    /// records a restart may process again (up to a bound per partition), so that the replay
    /// tells them apart whatever order it takes the task's partitions in (a join's records still
    /// waiting for a partner at the commit).
    virtual void mark(const held_origin& origin, std::int64_t release) = 0;
    virtual void unmark(const held_origin& origin) = 0;
    /// Replaying: whether the commit resumed from named the record being processed as marked
    /// (nullopt: it could not say, having more marks than it could name); the record is this
    /// run's to mark again from then on.
    virtual std::optional<bool> take_mark() = 0;
    /// The owner's stream time and watermark (both only grow): records held until a release at or
    /// below the watermark are no longer needed.
    void advance(std::int64_t stream_time, std::int64_t watermark) {
        stream_time_ = std::max(stream_time_, stream_time);
        watermark_ = std::max(watermark_, watermark);
    }
    std::int64_t stream_time() const { return stream_time_; }
    std::int64_t watermark() const { return watermark_; }
    /// What the owner had noted at the commit its task resumed from (-1 each after a fresh start):
    /// set before the task's first record, so the owner reads it when it sees its first record.
    std::int64_t recovered_stream_time() const { return recovered_stream_time_; }
    std::int64_t recovered_watermark() const { return recovered_watermark_; }
    /// The owner's stream time when it had processed the first record processing resumes from
    /// (-1: not known): replayed records are judged from it, as the first time. An owner whose
    /// records may start windows that outlive their own (sliding windows) needs it.
    std::int64_t recovered_replay_stream_time() const { return recovered_replay_stream_time_; }
    /// A value of the owner's own carried by the commit's metadata (a stream-stream join's
    /// earliest time of a record waiting for a partner, which decides when it looks for records
    /// to emit next); recovered_note() gives it back after a restart (nullopt: none noted).
    void note(std::int64_t v) { note_ = v; }
    std::optional<std::int64_t> noted() const { return note_; }
    std::optional<std::int64_t> recovered_note() const { return recovered_note_; }
    /// Called by the task before each commit (before record caches are flushed): an owner
    /// emitting on window close emits what closed, so that its watermark is what it emitted.
    std::function<void()> before_commit;

protected:
    std::int64_t stream_time_ = -1;
    std::int64_t watermark_ = -1;
    std::int64_t recovered_stream_time_ = -1;
    std::int64_t recovered_watermark_ = -1;
    std::int64_t recovered_replay_stream_time_ = -1;
    std::optional<std::int64_t> note_;
    std::optional<std::int64_t> recovered_note_;
};

/// Offered by a task whose topology has stores recovered by recomputation.
class offset_hold_provider {
public:
    virtual ~offset_hold_provider() = default;
    /// The hold of processor `owner` writing store `store` if that store is recovered by
    /// recomputation; nullptr otherwise.
    virtual offset_hold* offset_hold_of(std::string_view store, const node& owner) = 0;
};

/// The hold of `owner` on `store` in this context, or nullptr (a store with a changelog, or a
/// runner without holds).
inline offset_hold* offset_hold_of(task_context& ctx, std::string_view store, const node& owner) {
    auto* provider = dynamic_cast<offset_hold_provider*>(&ctx);
    return provider ? provider->offset_hold_of(store, owner) : nullptr;
}

}  // namespace kstreams::detail
