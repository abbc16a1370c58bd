// The plain RocksDB baseline: a hand-written Get+Put on a RocksDB opened with exactly the options
// kstreams' RocksDB store opens with when the runner shares no memory config (lib/state's
// rocksdb_shared::configure with Kafka Streams' per-store defaults: WAL off, no compression, 16 MiB
// memtables ×3, 50 MiB block cache, 4 KiB blocks, Bloom filter, universal compaction). Kept out of
// the other files so only this one includes RocksDB.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace kstreams::bench {

class plain_rocksdb {
public:
    /// Opens (creating) a database in a fresh temporary directory, removed by the destructor.
    plain_rocksdb();
    ~plain_rocksdb();
    plain_rocksdb(const plain_rocksdb&) = delete;
    plain_rocksdb& operator=(const plain_rocksdb&) = delete;

    /// Reads into `out`; false if absent.
    bool get(std::string_view key, std::string& out);
    void put(std::string_view key, std::string_view value);

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

}  // namespace kstreams::bench
