// The timestamp extractor of the conformance scenarios that extract timestamps from values
// (Hunt10Scenarios.fromValue in Java): "ts:payload" values give ts ("p" the partition time),
// other values the record's own timestamp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <kstreams/detail/node.hpp>

namespace conformance {

inline std::int64_t from_value(const kstreams::detail::raw_record& r, std::int64_t partition_time) {
    if (!r.value) return r.timestamp;
    const auto i = r.value->find(':');
    if (i == std::string_view::npos) return r.timestamp;
    const std::string t(r.value->substr(0, i));
    return t == "p" ? partition_time : std::stoll(t);
}

}  // namespace conformance
