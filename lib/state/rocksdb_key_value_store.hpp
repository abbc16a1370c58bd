// A byte key-value store in RocksDB (Kafka Streams' RocksDBStore). The WAL is off: the changelog
// topic is what makes the store durable, and a checkpoint is only written after flush().
#pragma once

#include <filesystem>
#include <memory>
#include <set>
#include <string>

#include <kstreams/state/bytes_store.hpp>

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

    /// Throws streams_error naming the store if `s` is not ok (corrupted_store_error for
    /// corruption found on a read or write).
    void check(const rocksdb::Status& s, std::string_view operation) const;

private:
    friend class rocksdb_iterator;
    void ensure_open(std::string_view operation) const;

    std::string name_;
    std::string subdirectory_;
    std::filesystem::path dir_;
    std::shared_ptr<rocksdb_shared> shared_;
    std::unique_ptr<rocksdb::Options> options_;
    std::unique_ptr<rocksdb::WriteOptions> write_options_;
    std::unique_ptr<rocksdb::ReadOptions> read_options_;
    rocksdb::DB* db_ = nullptr;
    std::set<rocksdb_iterator*> open_iterators_;
};

}  // namespace kstreams::state
