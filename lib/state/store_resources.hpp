// What a runner shares between the stores of its tasks: the stream thread's record cache and the
// application's RocksDB memory (block cache, write-buffer manager, config setter).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <kstreams/metrics.hpp>
#include <kstreams/task_id.hpp>

namespace kstreams::state {
class record_cache;
class rocksdb_shared;
}  // namespace kstreams::state

namespace kstreams::detail {

/// The record cache namespace of a store of a task: `<task id>-<store>`, so that the prefix
/// `<task id>-` names all of a task's namespaces.
inline std::string cache_namespace(const kstreams::task_id& task, std::string_view store) {
    return task.to_string() + "-" + std::string(store);
}

struct store_resources {
    state::record_cache* cache = nullptr;             ///< per stream thread; nullptr = no caching
    std::shared_ptr<state::rocksdb_shared> rocksdb;   ///< per application; nullptr = per-store defaults
    kstreams::metrics* metrics = nullptr;
    /// metrics.recording.level DEBUG or TRACE: store operations record their latency, record
    /// caches their hit ratio.
    bool time_store_operations = false;
};

}  // namespace kstreams::detail
