#include "lib/test/memory_ports.hpp"

#include <algorithm>

namespace kstreams::test::detail_impl {

void memory_consumer::append(const d::topic_partition& tp, produced_record r) {
    auto [at, fresh] = logs_.try_emplace(tp);
    log& l = at->second;
    if (fresh)
        if (auto first = first_offsets.find(tp.topic); first != first_offsets.end()) l.next_offset = first->second;
    l.slots.push_back({std::move(r), l.next_offset++, &l, false});
}

std::size_t memory_consumer::fetch(const d::topic_partition& tp, std::size_t max, std::vector<d::fetched_record>& out) {
    auto it = logs_.find(tp);
    if (it == logs_.end()) return 0;
    log& l = it->second;
    std::size_t n = 0;
    for (; n < max && l.fetched < l.slots.size(); ++n) {
        slot& s = l.slots[l.fetched++];
        d::fetched_record r;
        if (s.rec.key) r.key = std::string_view(*s.rec.key);
        if (s.rec.value) r.value = std::string_view(*s.rec.value);
        r.offset = s.offset;
        r.timestamp = s.rec.timestamp;
        r.handle = &s;
        out.push_back(r);
    }
    return n;
}

void memory_consumer::release(const d::fetched_record& r) noexcept {
    auto* s = static_cast<slot*>(r.handle);
    s->released = true;
    log& l = *s->owner;
    while (!l.slots.empty() && l.fetched > 0 && l.slots.front().released) {
        l.slots.pop_front();
        --l.fetched;
    }
}

const headers* memory_consumer::headers_of(const d::fetched_record& r, headers&) {
    return &static_cast<const slot*>(r.handle)->rec.headers;
}

std::optional<std::pair<std::int64_t, std::int64_t>> memory_restorer::offsets(const d::topic_partition& tp) {
    auto it = history_.find(tp.topic);
    return std::pair<std::int64_t, std::int64_t>{
        0, it == history_.end() ? 0 : static_cast<std::int64_t>(it->second.size())};
}

void memory_restorer::remove(const d::topic_partition& tp) {
    reading_.erase(std::remove_if(reading_.begin(), reading_.end(), [&](const auto& e) { return e.first == tp; }),
                   reading_.end());
}

std::size_t memory_restorer::read(std::size_t max, d::restore_sink& sink) {
    if (reading_.empty()) return 0;
    const auto [tp, from] = reading_.front();
    auto it = history_.find(tp.topic);
    const std::int64_t end = it == history_.end() ? 0 : static_cast<std::int64_t>(it->second.size());
    if (from >= end) {
        sink.on_end(tp);
        return 0;
    }
    batch_.clear();
    sources_.clear();
    std::int64_t off = from;
    for (; off < end && batch_.size() < max; ++off) {
        const produced_record& r = it->second[static_cast<std::size_t>(off)];
        if (!r.key) continue;  // a changelog record always has a key; skip what cannot be one
        restore_record rr{std::string_view(*r.key), std::nullopt, r.timestamp};
        if (r.value) rr.value = std::string_view(*r.value);
        batch_.push_back(rr);
        sources_.emplace_back(off, &r);
    }
    reading_.front().second = off;
    sink.on_records(tp, batch_, off - 1, this);
    return static_cast<std::size_t>(off - from);
}

}  // namespace kstreams::test::detail_impl
