// The loop's state stores, doing the durable work kstreams' (Kafka Streams') stores do, by hand:
// - rocks: RocksDB opened with kstreams' options (lib/state/rocksdb_shared.cpp: one 64 MiB block
//   cache and a 32 MiB write buffer manager for all stores, bloom filters, universal compaction,
//   no compression), written with the WAL off.
// - logged_store: one task's store in RocksDB and its changelog partition. As kstreams' RocksDB
//   stores (lib/state/rocksdb_key_value_store): the values last read or written stay in a hash map
//   in front of RocksDB (at most 2 MiB) and writes reach RocksDB in one write batch, in key order,
//   before a scan or a flush, or when the map outgrows its bound.
// - window_store: Kafka's segmented window store on a logged_store: key `segment ‖ key ‖ start ‖
//   seqnum`, segments of max(retention / 2, 60 s) dropped (a range delete) once out of retention,
//   its changelog keyed `key ‖ start ‖ seqnum` as Kafka's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "benchmarks/e2e/plain/common.hpp"

namespace rocksdb {
class Cache;
class WriteBufferManager;
}  // namespace rocksdb

namespace plain {

void check(const rocksdb::Status& st, const char* what);

class rocks {
public:
    rocks();
    std::unique_ptr<rocksdb::DB> open(const std::filesystem::path& dir) const;

    rocksdb::WriteOptions write;
    rocksdb::ReadOptions read;

private:
    std::shared_ptr<rocksdb::Cache> cache_;
    std::shared_ptr<rocksdb::WriteBufferManager> buffers_;
};

/// The values last read or written, by key (nullopt: deleted); written ones are dirty until
/// write() puts them into RocksDB in one batch.
class hot_front {
public:
    /// The entry of `key` if it is here (nullopt inside: deleted).
    const std::optional<std::string>* find(std::string_view key) const {
        auto it = map_.find(key);
        return it == map_.end() ? nullptr : &it->second.value;
    }
    /// A value just read from RocksDB (clean).
    void remember(rocksdb::DB& db, const rocksdb::WriteOptions& wo, std::string_view key, std::string_view value);
    void put(rocksdb::DB& db, const rocksdb::WriteOptions& wo, std::string_view key,
             std::optional<std::string_view> value);
    /// The dirty values into RocksDB, in key order, in one batch; they stay here, clean. False if
    /// there was nothing to write.
    bool write(rocksdb::DB& db, const rocksdb::WriteOptions& wo);
    /// Writes and forgets everything (before a range delete).
    void drop(rocksdb::DB& db, const rocksdb::WriteOptions& wo);

private:
    static constexpr std::size_t limit = std::size_t{2} << 20, overhead = 96;  ///< as kstreams'
    struct entry {
        std::optional<std::string> value;
        bool dirty = false;
    };
    struct key_hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view k) const { return std::hash<std::string_view>{}(k); }
    };
    using map = std::unordered_map<std::string, entry, key_hash, std::equal_to<>>;
    void trim(rocksdb::DB& db, const rocksdb::WriteOptions& wo);
    map map_;
    std::vector<map::value_type*> dirty_;
    std::size_t bytes_ = 0;
};

/// How far a changelog partition was sent and acknowledged (the delivery reports carry it).
struct changelog_progress {
    std::int64_t sent = 0, acked = -1;
};

/// One task's store: RocksDB behind the hot front, and its changelog partition.
class logged_store {
public:
    logged_store(const rocks& db, const std::filesystem::path& dir, rd_kafka_topic_t* changelog, std::int32_t partition);
    ~logged_store();
    logged_store(const logged_store&) = delete;
    logged_store& operator=(const logged_store&) = delete;

    /// The value of `key` (null if none), from the front if it is there.
    const std::string* get(std::string_view key);
    /// The value of `key` in RocksDB itself (null if none).
    const std::string* get_db(std::string_view key);
    void put(std::string_view key, std::optional<std::string_view> value) { front_.put(*db_, rocks_.write, key, value); }
    /// A changelog record (a tombstone for a null value).
    void log(const sinks& to, std::string_view key, const std::string_view* value, std::int64_t timestamp) {
        produce(to, changelog_, partition_, key, value, timestamp, &progress);
        ++progress.sent;
    }
    /// A RocksDB iterator over the store's current contents, seeked to `from` (the front is
    /// written first; the iterator is reused and refreshed).
    rocksdb::Iterator& seek(std::string_view from);
    void delete_range(std::string_view from, std::string_view to);
    void write(rocksdb::WriteBatch& batch) { check(db_->Write(rocks_.write, &batch), "write"); ++generation_; }
    /// The front into RocksDB and RocksDB's memtables to disk (the WAL is off): before a checkpoint.
    void flush();
    rd_kafka_topic_t* changelog() const { return changelog_; }
    std::int32_t partition() const { return partition_; }

    changelog_progress progress;

private:
    const rocks& rocks_;
    rd_kafka_topic_t* changelog_;
    std::int32_t partition_;
    std::unique_ptr<rocksdb::DB> db_;
    hot_front front_;
    std::string read_buf_;
    std::unique_ptr<rocksdb::Iterator> it_;
    std::uint64_t generation_ = 0, it_generation_ = 0;
};

/// Kafka's RocksDB window store (segmented, optionally retaining duplicates) on a logged_store.
class window_store {
public:
    window_store(logged_store& store, std::int64_t retention, bool retain_duplicates)
        : store_(store), retention_(retention), interval_(std::max<std::int64_t>(retention / 2, 60000)),
          duplicates_(retain_duplicates) {}

    /// Stores `value` (unless its window is out of retention) and logs `logged` (Kafka's
    /// changelog value: the raw value of a timestamped one) with `timestamp`.
    void put(const sinks& to, std::string_view key, std::string_view value, std::int64_t start,
             std::string_view logged, std::int64_t timestamp);
    /// The value of one window (without duplicates), null if none or out of retention.
    const std::string* fetch(std::string_view key, std::int64_t start);
    /// Calls f(start, value) for every entry of `key` with a start in [from, to], in order.
    template <class F>
    void fetch(std::string_view key, std::int64_t from, std::int64_t to, F f);

private:
    std::int64_t segment(std::int64_t t) const { return t >= 0 ? t / interval_ : (t + 1) / interval_ - 1; }
    static std::string segment_prefix(std::int64_t seg) {
        std::string out;
        append_big_endian(static_cast<std::int64_t>(static_cast<std::uint64_t>(seg) ^ (std::uint64_t{1} << 63)), out);
        return out;
    }
    void observe(std::int64_t t);
    bool expired(std::int64_t t) const { return observed_ != INT64_MIN && t <= observed_ - retention_; }

    logged_store& store_;
    std::int64_t retention_, interval_;
    bool duplicates_;
    std::int32_t seqnum_ = 0;
    std::int64_t observed_ = INT64_MIN;
    std::set<std::int64_t> segments_;
    std::string key_buf_, log_key_buf_;
};

template <class F>
void window_store::fetch(std::string_view key, std::int64_t from, std::int64_t to, F f) {
    if (observed_ != INT64_MIN) from = std::max(from, observed_ - retention_ + 1);
    if (from > to) return;
    for (auto s = segments_.lower_bound(segment(from)); s != segments_.end() && *s <= segment(to); ++s) {
        key_buf_ = segment_prefix(*s);
        key_buf_.append(key);
        const std::size_t prefix = key_buf_.size();
        append_big_endian(from, key_buf_);
        for (rocksdb::Iterator& it = store_.seek(key_buf_); it.Valid(); it.Next()) {
            const rocksdb::Slice k = it.key();
            if (k.size() != prefix + 12 || std::string_view(k.data(), prefix) != std::string_view(key_buf_).substr(0, prefix))
                break;
            const std::int64_t start = get_big_endian(k.data() + prefix);
            if (start > to) break;
            f(start, std::string_view(it.value().data(), it.value().size()));
        }
    }
}

}  // namespace plain
