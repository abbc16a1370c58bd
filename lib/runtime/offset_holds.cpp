#include "lib/runtime/offset_holds.hpp"

#include <algorithm>
#include <charconv>
#include <climits>

namespace kstreams::detail {

void held_records::hold(std::int64_t offset, std::int64_t release) {
    if (entries_.empty() || offset > entries_.back().first) {
        if (!entries_.empty() && release <= entries_.back().second) return;  // covered by the last one
        entries_.emplace_back(offset, release);
        return;
    }
    auto at = std::lower_bound(entries_.begin(), entries_.end(), offset,
                               [](const auto& e, std::int64_t o) { return e.first < o; });
    if (at != entries_.begin() && std::prev(at)->second >= release) return;  // covered by an earlier one
    if (at != entries_.end() && at->first == offset && at->second >= release) return;
    auto covered = at;
    while (covered != entries_.end() && covered->second <= release) ++covered;  // covered by it
    if (covered == at) {
        entries_.insert(at, {offset, release});
    } else {
        *at = {offset, release};
        entries_.erase(std::next(at), covered);
    }
}

std::int64_t held_records::earliest(std::int64_t watermark) {
    while (!entries_.empty() && entries_.front().second <= watermark) entries_.pop_front();
    return entries_.empty() ? INT64_MAX : entries_.front().first;
}

class offset_holds::owner_hold final : public offset_hold {
public:
    owner_hold(offset_holds& set, std::string name) : set_(set), name_(std::move(name)) {}
    void hold(std::int64_t release) override { set_.hold(*this, release); }
    const std::string& name() const { return name_; }
    std::vector<held_records>& partitions() { return partitions_; }
    void recovered(std::int64_t stream_time, std::int64_t watermark) {
        recovered_stream_time_ = std::max(recovered_stream_time_, stream_time);
        recovered_watermark_ = std::max(recovered_watermark_, watermark);
        advance(stream_time, watermark);
    }

private:
    offset_holds& set_;
    std::string name_;
    std::vector<held_records> partitions_;  // by the set's partition slot
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
    // A record with no source record (forwarded by a punctuation) cannot be held: it is not read
    // again, as with a changelog store's cache flush.
    const record_metadata* m = ctx_.current_metadata();
    if (!m || m->offset < 0) return;
    const std::size_t slot = slot_of(m->topic, m->partition);
    auto& parts = o.partitions();
    if (parts.size() <= slot) parts.resize(slot + 1);
    parts[slot].hold(m->offset, release);
}

std::int64_t offset_holds::held_offset(std::string_view topic, std::int32_t partition) {
    std::int64_t held = INT64_MAX;
    std::size_t slot = slots_.size();
    for (std::size_t i = 0; i < slots_.size(); ++i)
        if (slots_[i].partition == partition && slots_[i].topic == topic) slot = i;
    if (slot == slots_.size()) return held;
    for (auto& o : owners_)
        if (slot < o->partitions().size()) held = std::min(held, o->partitions()[slot].earliest(o->watermark()));
    return held;
}

namespace {
constexpr std::string_view magic = offset_holds::metadata_magic;

bool read_int(std::string_view& in, std::int64_t& out) {
    const auto [end, ec] = std::from_chars(in.data(), in.data() + in.size(), out);
    if (ec != std::errc{}) return false;
    in.remove_prefix(static_cast<std::size_t>(end - in.data()));
    return true;
}
bool read_char(std::string_view& in, char c) {
    if (in.empty() || in.front() != c) return false;
    in.remove_prefix(1);
    return true;
}
}  // namespace

// "kstreams-recompute:1:<processed>" then per owner ";<name length>:<name><stream time>,<watermark>".
std::string offset_holds::commit_metadata(std::int64_t processed) const {
    std::string out(magic);
    out += std::to_string(processed);
    for (const auto& o : owners_) {
        out += ';';
        out += std::to_string(o->name().size());
        out += ':';
        out += o->name();
        out += std::to_string(o->stream_time());
        out += ',';
        out += std::to_string(o->watermark());
    }
    return out;
}

std::int64_t offset_holds::recover(std::string_view metadata) {
    if (!metadata.starts_with(magic)) return -1;
    std::string_view in = metadata.substr(magic.size());
    std::int64_t processed = -1;
    if (!read_int(in, processed)) return -1;
    while (read_char(in, ';')) {
        std::int64_t length = 0, stream_time = -1, watermark = -1;
        if (!read_int(in, length) || !read_char(in, ':') || length < 0 || static_cast<std::size_t>(length) > in.size())
            return -1;
        const std::string_view name = in.substr(0, static_cast<std::size_t>(length));
        in.remove_prefix(static_cast<std::size_t>(length));
        if (!read_int(in, stream_time) || !read_char(in, ',') || !read_int(in, watermark)) return -1;
        static_cast<owner_hold*>(owner(name))->recovered(stream_time, watermark);
    }
    return processed;
}

}  // namespace kstreams::detail
