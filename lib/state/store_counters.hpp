// The operation counters of a metered store layer (`store.<store>.put|get|delete|range|flush`), and
// its metrics scope (`store-scope.<store>.<scope>` = 1: Kafka's rocksdb, in-memory-window, ...).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <kstreams/state/state_store.hpp>

namespace kstreams::state {

/// Task counters of a caching store's reads of the record cache (hit or miss), + the store's name.
inline constexpr std::string_view cache_hits_prefix = "cache-hits.";
inline constexpr std::string_view cache_misses_prefix = "cache-misses.";

/// A store's operation counters; local until bound to the runtime's metrics.
struct store_counters {
    std::uint64_t local[5] = {};
    std::uint64_t* puts = &local[0];
    std::uint64_t* gets = &local[1];
    std::uint64_t* deletes = &local[2];
    std::uint64_t* ranges = &local[3];
    std::uint64_t* flushes = &local[4];
    void bind(store_context& ctx, const std::string& store_name, const std::string& scope);
};

}  // namespace kstreams::state
