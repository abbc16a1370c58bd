// Memory settings shared by all RocksDB stores of an application, and the hook for advanced tuning
// (Kafka Streams' rocksdb.config.setter). RocksDB's own headers are not included here: a config
// setter includes <rocksdb/options.h> itself.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace rocksdb {
struct Options;
}

namespace kstreams {

/// Called for every RocksDB store before it opens, after kstreams applied its defaults (Kafka
/// Streams' defaults, the shared block cache and write-buffer manager).
class rocksdb_config_setter {
public:
    virtual ~rocksdb_config_setter() = default;
    virtual void set_config(const std::string& store_name, rocksdb::Options& options) = 0;
    /// Called when the store closes, to release what set_config made.
    virtual void close(const std::string& /*store_name*/, rocksdb::Options& /*options*/) {}
};

/// Bounds RocksDB's memory for a whole application: one LRU block cache shared by all stores, and
/// one write-buffer manager whose memtable memory is charged to that cache, so the cache size is
/// the bound on both (index and filter blocks are cached in it too).
struct rocksdb_memory_config {
    std::size_t block_cache_bytes = 64u << 20;           ///< `rocksdb.block.cache.bytes`
    std::size_t write_buffer_manager_bytes = 32u << 20;  ///< `rocksdb.write.buffer.manager.bytes`; 0 = none
    std::shared_ptr<rocksdb_config_setter> config_setter;
};

}  // namespace kstreams
