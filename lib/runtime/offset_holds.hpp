// A task's offset holds (recovery by recomputation, kstreams/detail/offset_hold.hpp): per processor
// writing a store with no changelog and per input partition, the records that still belong to open
// state, kept as few entries as the question "which is the earliest offset not released yet?"
// needs; and what goes into the commit's metadata so that the processors that take over start
// where these left off.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kstreams/detail/offset_hold.hpp>

namespace kstreams::detail {

/// One partition's records held by one owner. Entries are ascending in offset and in release: a
/// record released no later than an earlier one is covered by it (while it is held, so is the
/// earlier one, whose offset is lower), so only the others are kept. Appending (offsets in order)
/// is amortised O(1); an earlier offset held longer (a session's first record when it grows) is
/// O(log n) plus what it covers.
class held_records {
public:
    /// `stream_time`: the owner's stream time once it had processed the record, which a replay
    /// from this record starts from (see earliest_stream_time).
    void hold(std::int64_t offset, std::int64_t release, std::int64_t stream_time);
    /// Forgets what `watermark` released; the earliest offset still held, INT64_MAX if none.
    std::int64_t earliest(std::int64_t watermark);
    /// The owner's stream time noted with the earliest record still held (-1 if none): processing
    /// again from that record, the owner judges it (late or not) as it did the first time.
    std::int64_t earliest_stream_time() const { return entries_.empty() ? -1 : entries_.front().stream_time; }
    std::size_t size() const { return entries_.size(); }

private:
    struct entry {
        std::int64_t offset;
        std::int64_t release;
        std::int64_t stream_time;
    };
    std::deque<entry> entries_;
};

class offset_holds {
public:
    /// `ctx`: tells the metadata of the record being processed (the task).
    explicit offset_holds(const task_context& ctx);
    ~offset_holds();
    offset_holds(const offset_holds&) = delete;
    offset_holds& operator=(const offset_holds&) = delete;

    /// The hold of processor `owner` (one per owner: asked again, the same).
    offset_hold* owner(std::string_view name);
    bool empty() const { return owners_.empty(); }
    /// Calls each owner's before_commit.
    void before_commit();

    /// The earliest offset of `topic`'s `partition` some owner still holds; INT64_MAX if none.
    std::int64_t held_offset(std::string_view topic, std::int32_t partition);

    /// What a commit of a partition at offset `committed` carries in its metadata: the owners'
    /// stream times, watermarks and notes, the stream time each noted with its earliest record
    /// held on that partition (call held_offset first: it forgets what was released), the records
    /// they marked from `committed` on, and `processed` (the offset after the last record
    /// processed), so that the records before it processed again after a restart are known as
    /// replayed.
    std::string commit_metadata(std::string_view topic, std::int32_t partition, std::int64_t committed,
                                std::int64_t processed) const;
    /// How commit_metadata's text starts (version 1 started "kstreams-recompute:1:").
    static constexpr std::string_view metadata_magic = "kstreams-recompute:2:";
    /// Reads a partition's committed metadata (written by commit_metadata): the owners named
    /// there start from what they noted; returns the processed offset it names (-1 if none, or if
    /// the metadata is not ours), below which records of that partition are replayed.
    std::int64_t recover(std::string_view topic, std::int32_t partition, std::string_view metadata);
    /// Whether the record being processed is replayed: processed before the commit resumed from.
    bool replaying() const;

private:
    class owner_hold;
    struct partition_slot {
        std::string topic;
        std::int32_t partition = 0;
    };
    void hold(owner_hold& o, std::int64_t release);
    std::optional<held_origin> origin(const owner_hold& o);
    void hold_at(owner_hold& o, const held_origin& origin, std::int64_t release);
    std::optional<bool> take_mark(owner_hold& o);
    std::size_t slot_of(std::string_view topic, std::int32_t partition);
    /// The slot of a partition seen before; slots_.size() if none.
    std::size_t find_slot(std::string_view topic, std::int32_t partition) const;

    const task_context& ctx_;
    std::vector<std::unique_ptr<owner_hold>> owners_;
    std::vector<partition_slot> slots_;
    std::size_t last_slot_ = 0;
    std::vector<std::int64_t> replay_until_;  ///< by partition slot; -1: nothing replayed
};

}  // namespace kstreams::detail
