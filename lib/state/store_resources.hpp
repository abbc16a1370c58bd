// What a runner shares between the stores of its tasks: the stream thread's record cache and the
// application's RocksDB memory (block cache, write-buffer manager, config setter).
#pragma once

#include <memory>

#include <kstreams/metrics.hpp>

namespace kstreams::state {
class record_cache;
class rocksdb_shared;
}  // namespace kstreams::state

namespace kstreams::detail {

struct store_resources {
    state::record_cache* cache = nullptr;             ///< per stream thread; nullptr = no caching
    std::shared_ptr<state::rocksdb_shared> rocksdb;   ///< per application; nullptr = per-store defaults
    kstreams::metrics* metrics = nullptr;
};

}  // namespace kstreams::detail
