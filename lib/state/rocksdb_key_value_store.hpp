// A byte key-value store in RocksDB (Kafka Streams' RocksDBStore). The WAL is off: the changelog
// topic is what makes the store durable, and a checkpoint is only written after flush().
//
// Two things keep RocksDB off the per-record path without changing what any read returns:
// - Hot entries: the values last written or read stay in a hash map in front of RocksDB (up to
//   hot_bytes_limit per store). A get of such a key is a hash lookup; writes wait there, dirty, and
//   go to RocksDB together in one write batch (in key order) before any scan, flush, close,
//   range delete or restore batch, and whenever the map outgrows its limit (then it is emptied).
//   A store whose keys are each written once and read back by scans (a window store keeping
//   duplicates: every put is a new sequence number) has no use for the map: its writes wait in one
//   buffer instead, without a node per entry, and reach RocksDB the same way (one batch, in key
//   order, before any read, flush, close, range delete or restore batch, or when it outgrows the limit).
//   Nothing becomes durable later than before: with the WAL off, RocksDB's memtable is not durable
//   either until flush(), which writes the dirty entries first.
// - Iterators are reused: a finished scan's RocksDB iterator stays with the store and the next
//   scan refreshes it (Iterator::Refresh: the same consistent view a new iterator would take, at a
//   fraction of the cost while no flush or compaction changed the store's files).
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <kstreams/state/bytes_store.hpp>

#include "lib/state/node_hash_table.hpp"

namespace rocksdb {
class DB;
class Status;
struct Options;
struct ReadOptions;
struct WriteOptions;
class WriteBatch;
}  // namespace rocksdb

namespace kstreams::state {

class rocksdb_shared;
class rocksdb_iterator;

class rocksdb_key_value_store final : public bytes_key_value_store {
public:
    /// `subdirectory` is relative to `<task dir>/rocksdb/` (the store's name by default).
    explicit rocksdb_key_value_store(std::string name, std::string subdirectory = {});
    ~rocksdb_key_value_store() override;

    const std::string& name() const override { return name_; }
    void init(store_context& ctx) override;
    void flush() override;
    void close() override;
    bool persistent() const override { return true; }
    bool is_open() const override { return db_ != nullptr; }

    std::optional<std::string> get(std::string_view key) override;
    bool get_into(std::string_view key, std::string& out) override;
    void put(std::string_view key, std::string_view value) override;
    std::optional<std::string> put_if_absent(std::string_view key, std::string_view value) override;
    void put_all(const std::vector<std::pair<std::string, std::string>>& entries) override;
    std::optional<std::string> remove(std::string_view key) override;
    void erase(std::string_view key) override;
    std::unique_ptr<bytes_iterator> range(const key_range& r, bool reverse) override;
    std::unique_ptr<bytes_iterator> prefix_scan(std::string_view prefix) override;
    std::uint64_t approximate_num_entries() override;

    /// Removes every key in [from, to) at once (a range tombstone); used to drop whole segments.
    void delete_range(std::string_view from, std::string_view to);
    /// Applies restored changelog records in one write batch.
    void write_batch(rocksdb::WriteBatch& batch);
    /// Opens the database at `dir`, creating it if missing. Throws corrupted_store_error if its
    /// data is corrupted, streams_error naming the store and the path for any other failure;
    /// never deletes anything.
    void open_at(const std::filesystem::path& dir, std::shared_ptr<rocksdb_shared> shared);
    const std::filesystem::path& directory() const { return dir_; }
    /// Made by stores::persistent_key_value_store (Kafka's RocksDBStore, not a TimestampedBytesStore):
    /// a store of timestamped values puts it behind plain_value_adapter.
    bool plain_values() const { return plain_values_; }
    void set_plain_values(bool plain) { plain_values_ = plain; }
    /// Keys are written once and read back by scans: writes skip the hot entries (see above). Set
    /// before the first write.
    void set_keys_written_once(bool once) { keys_written_once_ = once; }

    /// What the hot entries may take per store: keys, values and a fixed cost per entry.
    static constexpr std::size_t hot_bytes_limit = std::size_t{2} << 20;

    /// Throws streams_error naming the store if `s` is not ok (corrupted_store_error for
    /// corruption found on a read or write).
    void check(const rocksdb::Status& s, std::string_view operation) const;

private:
    friend class rocksdb_iterator;
    struct pooled_iterator;
    struct hot_entry {
        std::optional<std::string> value;  ///< nullopt: deleted (only while dirty)
        bool dirty = false;
    };
    using hot_node = std::pair<const std::string, hot_entry>;
    /// Flat and linearly probed: a get of a hot key reads one slot and the node (the record cache's table).
    using hot_map = node_hash_table<hot_node>;

    void ensure_open(std::string_view operation) const;
    /// Records a write (nullopt: a delete) among the hot entries.
    void write_hot(std::string_view key, std::optional<std::string_view> value);
    /// Applies the dirty hot entries to RocksDB in one write batch; they stay, clean.
    void write_dirty();
    /// A put (nullopt: a delete) where this store keeps writes: the unwritten buffer when keys are
    /// written once, the hot entries otherwise.
    void write(std::string_view key, std::optional<std::string_view> value) {
        if (keys_written_once_) write_behind(key, value);
        else write_hot(key, value);
    }
    /// Appends a write (nullopt: a delete) to the unwritten buffer (keys written once).
    void write_behind(std::string_view key, std::optional<std::string_view> value);
    /// Applies the unwritten buffer to RocksDB in one write batch, in key order (a key's writes
    /// keep their order).
    void write_unwritten();
    /// write_dirty(), then forgets every hot entry.
    void drop_hot();
    void trim_hot() {
        if (hot_bytes_ > hot_bytes_limit) drop_hot();
    }
    /// A RocksDB iterator over [lower, upper) (nullopt: open; `upper_inclusive`: [lower, upper]),
    /// refreshed from the spare one if any. The bounds are copied into the pooled iterator's strings.
    std::unique_ptr<pooled_iterator> take_iterator(std::optional<std::string_view> lower,
                                                   std::optional<std::string_view> upper, bool upper_inclusive);
    void recycle(std::unique_ptr<pooled_iterator> it);

    std::string name_;
    std::string subdirectory_;
    std::filesystem::path dir_;
    std::shared_ptr<rocksdb_shared> shared_;
    std::unique_ptr<rocksdb::Options> options_;
    std::unique_ptr<rocksdb::WriteOptions> write_options_;
    std::unique_ptr<rocksdb::ReadOptions> read_options_;
    rocksdb::DB* db_ = nullptr;
    std::vector<rocksdb_iterator*> open_iterators_;  ///< few at a time: a vector, no node per scan
    /// Spare iterators for reuse: [0] bounded above, [1] not (a bound is fixed at creation).
    std::unique_ptr<pooled_iterator> spare_[2];
    hot_map hot_;
    std::vector<hot_node*> dirty_;  ///< the dirty entries of hot_, each once
    std::size_t hot_bytes_ = 0;
    /// Keys written once: the writes not yet in RocksDB, their bytes one after another.
    struct unwritten_entry {
        std::size_t at;  ///< the key's offset in unwritten_bytes_; the value follows it
        std::size_t key_size;
        std::size_t value_size;
        bool erase;
    };
    std::vector<unwritten_entry> unwritten_;
    std::string unwritten_bytes_;
    bool keys_written_once_ = false;
    bool plain_values_ = false;
};

}  // namespace kstreams::state
