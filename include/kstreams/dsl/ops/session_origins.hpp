// Session windows recovered by recomputation (recovery::recompute): a session is rebuilt by
// replaying all of its records, so the task must hold, per input partition, the offset of the
// session's first record there for as long as the session still matters (it can still be merged
// into, or, emitting on close, it is not emitted yet), however long ago that record was. This
// keeps, per session the aggregation still holds, where its records start in each partition, and
// holds those records again each time the session grows or merges with others.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <kstreams/detail/offset_hold.hpp>
#include <kstreams/state/window_store.hpp>

namespace kstreams::dsl_detail {

class session_origins {
public:
    /// The record being processed (key bytes `key`) took sessions `merged` (removed from the
    /// store) into session `into`: `into` is needed until the owner's watermark passes its end, and
    /// so are the first records of every session it took and the record itself. `min_release`:
    /// held at least until then (see the owner's replay).
    void merge(kstreams::detail::offset_hold& hold, const std::string& key, const std::vector<kstreams::window>& merged,
               kstreams::window into, std::int64_t min_release = INT64_MIN) {
        std::vector<kstreams::detail::held_origin> origins;
        if (auto own = hold.origin()) origins.push_back(*own);
        for (const kstreams::window& w : merged) {
            auto it = sessions_.find(id{w.end, key, w.start});
            if (it == sessions_.end()) continue;  // not held: nothing of it was read from a partition
            for (const auto& o : it->second) add(origins, o);
            sessions_.erase(it);
        }
        if (origins.empty()) return;
        // Released once the watermark is past the end (see the owner's watermark).
        for (const auto& o : origins) hold.hold_at(o, std::max(into.end + 1, min_release));
        auto& slot = sessions_[id{into.end, key, into.start}];
        for (const auto& o : origins) add(slot, o);
    }
    /// Forgets the sessions that ended before `watermark` (no longer held).
    void forget_before(std::int64_t watermark) {
        while (!sessions_.empty() && std::get<0>(sessions_.begin()->first) < watermark) sessions_.erase(sessions_.begin());
    }
    std::size_t size() const { return sessions_.size(); }

private:
    using id = std::tuple<std::int64_t, std::string, std::int64_t>;  // end first: forgotten in order
    /// Keeps, per partition, the earliest record (and the stream time noted with it).
    static void add(std::vector<kstreams::detail::held_origin>& origins, const kstreams::detail::held_origin& o) {
        auto same = std::find_if(origins.begin(), origins.end(),
                                 [&](const auto& x) { return x.partition_slot == o.partition_slot; });
        if (same == origins.end()) origins.push_back(o);
        else if (o.offset < same->offset) *same = o;
    }

    std::map<id, std::vector<kstreams::detail::held_origin>> sessions_;
};

}  // namespace kstreams::dsl_detail
