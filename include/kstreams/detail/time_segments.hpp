// The time segments of kstreams' window and session stores (Kafka's segmented stores): entries
// grouped by time into segments of max(retention / 2, 60 s), dropped a whole segment at a time
// once stream time is the retention past the segment's end. Shared by the stores and by the
// session aggregation recovered by recomputation, which must emit what closed before a segment
// holding it is dropped.
#pragma once

#include <algorithm>
#include <cstdint>

namespace kstreams::detail {

/// Kafka's segment interval of a store retaining `retention` ms.
inline std::int64_t segment_interval_for(std::int64_t retention) { return std::max<std::int64_t>(retention / 2, 60000); }

/// The segment holding entries at `time` (floor division: negative times get their own segments).
inline std::int64_t segment_id(std::int64_t time, std::int64_t interval) {
    return time >= 0 ? time / interval : (time + 1) / interval - 1;  // no overflow at INT64_MIN
}

}  // namespace kstreams::detail
