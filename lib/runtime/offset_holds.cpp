#include "lib/runtime/offset_holds.hpp"

#include <algorithm>
#include <climits>

#include "lib/runtime/held_marks.hpp"
#include "lib/runtime/metadata_text.hpp"

namespace kstreams::detail {

void held_records::hold(std::int64_t offset, std::int64_t release, std::int64_t stream_time) {
    if (entries_.empty() || offset > entries_.back().offset) {
        if (!entries_.empty() && release <= entries_.back().release) return;  // covered by the last one
        entries_.push_back({offset, release, stream_time});
        return;
    }
    auto at = std::lower_bound(entries_.begin(), entries_.end(), offset,
                               [](const entry& e, std::int64_t o) { return e.offset < o; });
    if (at != entries_.begin() && std::prev(at)->release >= release) return;  // covered by an earlier one
    if (at != entries_.end() && at->offset == offset && at->release >= release) return;
    auto covered = at;
    while (covered != entries_.end() && covered->release <= release) ++covered;  // covered by it
    // Held again (offset already there): the first stream time noted for it stays.
    if (at != entries_.end() && at->offset == offset) stream_time = std::min(stream_time, at->stream_time);
    if (covered == at) {
        entries_.insert(at, {offset, release, stream_time});
    } else {
        *at = {offset, release, stream_time};
        entries_.erase(std::next(at), covered);
    }
}

std::int64_t held_records::earliest(std::int64_t watermark) {
    while (!entries_.empty() && entries_.front().release <= watermark) entries_.pop_front();
    return entries_.empty() ? INT64_MAX : entries_.front().offset;
}

class offset_holds::owner_hold final : public offset_hold {
public:
    owner_hold(offset_holds& set, std::string name) : set_(set), name_(std::move(name)) {}
    void hold(std::int64_t release) override { set_.hold(*this, release); }
    std::optional<held_origin> origin() override { return set_.origin(*this); }
    bool replaying() const override { return set_.replaying(); }
    void mark(const held_origin& origin, std::int64_t release) override {
        if (release > watermark_) marks(origin.partition_slot).mark(origin.offset, release);
    }
    void unmark(const held_origin& origin) override { marks(origin.partition_slot).unmark(origin.offset); }
    std::optional<bool> take_mark() override { return set_.take_mark(*this); }
    void hold_at(const held_origin& origin, std::int64_t release) override { set_.hold_at(*this, origin, release); }
    const std::string& name() const { return name_; }
    std::vector<held_records>& partitions() { return partitions_; }
    const std::vector<held_records>& partitions() const { return partitions_; }
    /// Its marks on a partition, by slot.
    held_marks& marks(std::size_t slot) {
        if (marks_.size() <= slot) marks_.resize(slot + 1);
        return marks_[slot];
    }
    const held_marks* marks_at(std::size_t slot) const { return slot < marks_.size() ? &marks_[slot] : nullptr; }
    /// The replay stream time a partition's commit noted, by slot (-1: none).
    void recovered_replay(std::size_t slot, std::int64_t replay_stream_time) {
        if (recovered_replay_.size() <= slot) recovered_replay_.resize(slot + 1, -1);
        recovered_replay_[slot] = replay_stream_time;
    }
    std::int64_t recovered_replay(std::size_t slot) const {
        return slot < recovered_replay_.size() ? recovered_replay_[slot] : -1;
    }
    /// What a partition's commit noted (replay_stream_time -1: not noted, a version 1 commit or
    /// nothing held there). The owner's own stream time is left to the owner: replaying, it
    /// starts from the replay stream time, and notes the held records with its own again.
    void recovered(std::int64_t stream_time, std::int64_t watermark, std::int64_t replay_stream_time,
                   std::optional<std::int64_t> note) {
        if (note) recovered_note_ = note;
        recovered_stream_time_ = std::max(recovered_stream_time_, stream_time);
        recovered_watermark_ = std::max(recovered_watermark_, watermark);
        if (replay_stream_time >= 0 &&
            (recovered_replay_stream_time_ < 0 || replay_stream_time < recovered_replay_stream_time_))
            recovered_replay_stream_time_ = replay_stream_time;
        watermark_ = std::max(watermark_, watermark);
    }

private:
    offset_holds& set_;
    std::string name_;
    std::vector<held_records> partitions_;  // by the set's partition slot
    std::vector<std::int64_t> recovered_replay_;  // by the set's partition slot
    std::vector<held_marks> marks_;               // by the set's partition slot
};

offset_holds::offset_holds(const task_context& ctx) : ctx_(ctx) {}
offset_holds::~offset_holds() = default;

void offset_holds::before_commit() {
    for (auto& o : owners_)
        if (o->before_commit) o->before_commit();
}

offset_hold* offset_holds::owner(std::string_view name) {
    for (auto& o : owners_)
        if (o->name() == name) return o.get();
    owners_.push_back(std::make_unique<owner_hold>(*this, std::string(name)));
    return owners_.back().get();
}

std::size_t offset_holds::slot_of(std::string_view topic, std::int32_t partition) {
    if (last_slot_ < slots_.size() && slots_[last_slot_].partition == partition && slots_[last_slot_].topic == topic)
        return last_slot_;
    for (std::size_t i = 0; i < slots_.size(); ++i)
        if (slots_[i].partition == partition && slots_[i].topic == topic) return last_slot_ = i;
    slots_.push_back({std::string(topic), partition});
    return last_slot_ = slots_.size() - 1;
}

void offset_holds::hold(owner_hold& o, std::int64_t release) {
    if (release <= o.watermark()) return;  // released already
    if (const auto at = origin(o)) hold_at(o, *at, release);
}

std::optional<held_origin> offset_holds::origin(const owner_hold& o) {
    // A record with no source record (forwarded by a punctuation) cannot be held: it is not read
    // again, as with a changelog store's cache flush.
    const record_metadata* m = ctx_.current_metadata();
    if (!m || m->offset < 0) return std::nullopt;
    return held_origin{slot_of(m->topic, m->partition), m->offset, o.stream_time()};
}

void offset_holds::hold_at(owner_hold& o, const held_origin& origin, std::int64_t release) {
    if (release <= o.watermark()) return;  // released already
    auto& parts = o.partitions();
    if (parts.size() <= origin.partition_slot) parts.resize(origin.partition_slot + 1);
    parts[origin.partition_slot].hold(origin.offset, release, origin.stream_time);
}

std::optional<bool> offset_holds::take_mark(owner_hold& o) {
    const record_metadata* m = ctx_.current_metadata();
    if (!m || m->offset < 0) return false;
    const std::size_t slot = find_slot(m->topic, m->partition);
    return slot < slots_.size() ? o.marks(slot).take(m->offset) : false;
}

std::size_t offset_holds::find_slot(std::string_view topic, std::int32_t partition) const {
    for (std::size_t i = 0; i < slots_.size(); ++i)
        if (slots_[i].partition == partition && slots_[i].topic == topic) return i;
    return slots_.size();
}

std::int64_t offset_holds::held_offset(std::string_view topic, std::int32_t partition) {
    std::int64_t held = INT64_MAX;
    const std::size_t slot = find_slot(topic, partition);
    if (slot == slots_.size()) return held;
    for (auto& o : owners_) {
        if (slot < o->partitions().size()) held = std::min(held, o->partitions()[slot].earliest(o->watermark()));
        o->marks(slot).release(o->watermark());
    }
    return held;
}

namespace {
constexpr std::string_view magic_v1 = "kstreams-recompute:1:";
constexpr std::string_view magic = offset_holds::metadata_magic;
static_assert(magic.size() == magic_v1.size());
using metadata_text::read_char;
using metadata_text::read_int;
}  // namespace

// "kstreams-recompute:2:<processed>" then per owner
// ";<name length>:<name><stream time>,<watermark>,<replay stream time>" and ",<note>" if the owner
// noted one, then "/<marks>" (held_marks) if it marked records the restart processes again (both
// additions read as optional, so earlier version 2 metadata reads the same). Version 1 had no
// replay stream time (read still: the replay then starts from the stream time).
std::string offset_holds::commit_metadata(std::string_view topic, std::int32_t partition, std::int64_t committed,
                                          std::int64_t processed) const {
    const std::size_t slot = find_slot(topic, partition);
    std::string out(magic);
    out += std::to_string(processed);
    for (const auto& o : owners_) {
        out += ';';
        out += std::to_string(o->name().size());
        out += ':';
        out += o->name();
        out += std::to_string(std::max(o->stream_time(), o->recovered_stream_time()));
        out += ',';
        out += std::to_string(o->watermark());
        out += ',';
        std::int64_t replay = slot < o->partitions().size() ? o->partitions()[slot].earliest_stream_time() : -1;
        // Nothing held there yet while the partition is still replayed (a commit in the middle of
        // a replay): the records it held at the commit resumed from come later in the replay, and
        // the next replay starts from where that commit said.
        if (replay < 0 && slot < replay_until_.size() && processed <= replay_until_[slot]) replay = o->recovered_replay(slot);
        out += std::to_string(replay);
        if (const auto note = o->noted()) {
            out += ',';
            out += std::to_string(*note);
        }
        if (const held_marks* marks = o->marks_at(slot)) marks->encode(out, committed);
    }
    return out;
}

bool offset_holds::replaying() const {
    if (replay_until_.empty()) return false;
    const record_metadata* m = ctx_.current_metadata();
    if (!m || m->offset < 0) return false;
    const std::size_t slot = find_slot(m->topic, m->partition);
    return slot < replay_until_.size() && m->offset < replay_until_[slot];
}

std::int64_t offset_holds::recover(std::string_view topic, std::int32_t partition, std::string_view metadata) {
    const bool v1 = metadata.starts_with(magic_v1);
    if (!v1 && !metadata.starts_with(magic)) return -1;
    std::string_view in = metadata.substr(magic.size());
    std::int64_t processed = -1;
    if (!read_int(in, processed)) return -1;
    const std::size_t slot = slot_of(topic, partition);
    if (replay_until_.size() <= slot) replay_until_.resize(slot + 1, -1);
    replay_until_[slot] = processed;
    while (read_char(in, ';')) {
        std::int64_t length = 0, stream_time = -1, watermark = -1, replay_stream_time = -1;
        if (!read_int(in, length) || !read_char(in, ':') || length < 0 || static_cast<std::size_t>(length) > in.size())
            return -1;
        const std::string_view name = in.substr(0, static_cast<std::size_t>(length));
        in.remove_prefix(static_cast<std::size_t>(length));
        if (!read_int(in, stream_time) || !read_char(in, ',') || !read_int(in, watermark)) return -1;
        if (!v1 && (!read_char(in, ',') || !read_int(in, replay_stream_time))) return -1;
        std::optional<std::int64_t> note;
        if (std::int64_t v = 0; !v1 && read_char(in, ',')) {
            if (!read_int(in, v)) return -1;
            note = v;
        }
        auto* o = static_cast<owner_hold*>(owner(name));
        if (!v1 && read_char(in, '/') && !o->marks(slot).decode(in)) return -1;
        o->recovered(stream_time, watermark, replay_stream_time, note);
        o->recovered_replay(slot, replay_stream_time);
    }
    return processed;
}

}  // namespace kstreams::detail
