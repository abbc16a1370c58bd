// The hash of the byte-keyed maps in the stores (heterogeneous: a map of
// std::string keys is looked up with string_view).
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace kstreams::state {

/// Deliberately not noexcept: libstdc++ keeps the hash code of every node of an unordered map
/// whose hash may throw, and not otherwise. Kept, a lookup compares codes before keys and walks a
/// bucket without hashing the next node's key (and loading its bytes) at each step: -10 % per
/// lookup on a map of 10,000 4-byte keys, the RocksDB front's usual shape (the record cache has a
/// table of its own: node_hash_table.hpp).
struct byte_key_hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view k) const { return std::hash<std::string_view>{}(k); }
};

}  // namespace kstreams::state
