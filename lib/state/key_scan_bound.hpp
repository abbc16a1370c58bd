// Byte bounds of a key-range scan over entries stored as `plain key ‖ fixed-size suffix` (window
// and session stores, and their cache entries). The plain byte range [key_from, key_to ‖ 0xff..]
// is not the key range: a plain key that is a proper prefix of key_to ("a" under key_to "a\0\0")
// has entries `a ‖ suffix` that can sort above key_to ‖ 0xff.. when the suffix's first bytes are
// larger than the rest of key_to. Scans use this bound and filter by the decoded key.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kstreams::state {

/// The inclusive upper byte bound that covers every entry `p ‖ s` with p <= key_to (and p >=
/// key_from, nullopt = open) and s <= max_suffix, where all suffixes have max_suffix's size.
std::string scan_upper_bound(std::string_view key_to, const std::optional<std::string>& key_from,
                             std::string_view max_suffix);

/// The largest suffix `8-byte BE time ‖ rest` of entries with time in [from, to]: the time bytes of
/// `to` when no time is negative (signed big-endian sorts negatives after positives), else 0xff.
std::string max_time_suffix(std::int64_t from, std::int64_t to, std::size_t rest);

}  // namespace kstreams::state
