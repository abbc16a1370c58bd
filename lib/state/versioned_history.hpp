// The bytes of one key's history in a versioned store (versioned_store.hpp): per version
// `8-byte BE timestamp ‖ flag (1 = value, 0 = tombstone) [‖ 4-byte BE length ‖ value]`, oldest
// first, timestamps strictly ascending. Our own layout (Kafka's RocksDBVersionedStore keeps
// segments); the changelog carries plain timestamped puts, as Kafka's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kstreams::state {

/// One version of a key: valid from `timestamp`; nullopt value = a tombstone.
struct version {
    std::int64_t timestamp = 0;
    std::optional<std::string> value;
};

std::string encode_history(const std::vector<version>& h);
/// Throws deserialization_error for bytes that are not a history (truncated, a flag other than 0
/// or 1, timestamps out of order).
std::vector<version> decode_history(std::string_view bytes);

}  // namespace kstreams::state
