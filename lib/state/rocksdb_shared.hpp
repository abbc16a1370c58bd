// The RocksDB memory all stores of an application share (block cache, write-buffer manager) and
// the options every store opens with: Kafka Streams' defaults, then the user's config setter.
#pragma once

#include <memory>
#include <string>

#include <kstreams/state/rocksdb_config.hpp>

namespace rocksdb {
class Cache;
class WriteBufferManager;
}  // namespace rocksdb

namespace kstreams::state {

class rocksdb_shared {
public:
    explicit rocksdb_shared(rocksdb_memory_config config);
    ~rocksdb_shared();

    /// WAL off, no compression, 16 MiB memtables ×3, 4 KiB blocks, Bloom filter, the shared cache
    /// and write-buffer manager, universal compaction; then the config setter.
    void configure(const std::string& store_name, rocksdb::Options& options) const;
    void closed(const std::string& store_name, rocksdb::Options& options) const;

    const rocksdb_memory_config& config() const { return config_; }
    std::size_t block_cache_usage() const;

private:
    rocksdb_memory_config config_;
    std::shared_ptr<rocksdb::Cache> cache_;
    std::shared_ptr<rocksdb::WriteBufferManager> write_buffers_;
};

}  // namespace kstreams::state
