#include "lib/state/rocksdb_shared.hpp"

#include <algorithm>
#include <thread>

#include <rocksdb/cache.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/write_buffer_manager.h>

namespace kstreams::state {

namespace {
constexpr std::size_t write_buffer_size = 16u << 20;
constexpr int max_write_buffers = 3;
constexpr std::size_t block_size = 4096;
constexpr double high_priority_ratio = 0.1;  // room kept for index and filter blocks
}  // namespace

rocksdb_shared::rocksdb_shared(rocksdb_memory_config config) : config_(std::move(config)) {
    const bool bounded = config_.write_buffer_manager_bytes > 0;
    cache_ = rocksdb::NewLRUCache(config_.block_cache_bytes, -1, false, bounded ? high_priority_ratio : 0.0);
    if (bounded)
        write_buffers_ = std::make_shared<rocksdb::WriteBufferManager>(config_.write_buffer_manager_bytes, cache_);
}

rocksdb_shared::~rocksdb_shared() = default;

void rocksdb_shared::configure(const std::string& store_name, rocksdb::Options& options) const {
    rocksdb::BlockBasedTableOptions table;
    table.block_cache = cache_;
    table.block_size = block_size;
    table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10, false));
    if (write_buffers_) {
        // Index and filter blocks count against the bound as well (Kafka's bounded-memory recipe).
        table.cache_index_and_filter_blocks = true;
        table.cache_index_and_filter_blocks_with_high_priority = true;
        table.pin_top_level_index_and_filter = true;
        options.write_buffer_manager = write_buffers_;
    }
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    options.optimize_filters_for_hits = true;
    options.write_buffer_size = write_buffer_size;
    options.max_write_buffer_number = max_write_buffers;
    options.compression = rocksdb::kNoCompression;
    options.compaction_style = rocksdb::kCompactionStyleUniversal;
    options.create_if_missing = true;
    options.error_if_exists = false;
    options.info_log_level = rocksdb::InfoLogLevel::ERROR_LEVEL;
    options.IncreaseParallelism(static_cast<int>(std::max(2u, std::thread::hardware_concurrency())));
    if (config_.config_setter) config_.config_setter->set_config(store_name, options);
}

void rocksdb_shared::closed(const std::string& store_name, rocksdb::Options& options) const {
    if (config_.config_setter) config_.config_setter->close(store_name, options);
}

std::size_t rocksdb_shared::block_cache_usage() const { return cache_->GetUsage(); }

}  // namespace kstreams::state
