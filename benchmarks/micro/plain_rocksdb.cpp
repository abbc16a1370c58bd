#include "benchmarks/micro/plain_rocksdb.hpp"

#include <atomic>
#include <filesystem>
#include <random>
#include <stdexcept>

#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include "lib/state/rocksdb_shared.hpp"

namespace kstreams::bench {

struct plain_rocksdb::impl {
    // As rocksdb_key_value_store::open_at without an application-wide config.
    state::rocksdb_shared shared{rocksdb_memory_config{50u << 20, 0, {}}};
    rocksdb::Options options;
    std::filesystem::path dir;
    std::unique_ptr<rocksdb::DB> db;
    rocksdb::ReadOptions read;
    rocksdb::WriteOptions write;
};

plain_rocksdb::plain_rocksdb() : impl_(std::make_unique<impl>()) {
    static std::atomic<unsigned> counter{0};
    std::random_device rd;
    impl_->dir = std::filesystem::temp_directory_path() /
                 ("kstreams-bench-rocksdb-" + std::to_string(rd()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(impl_->dir);

    impl_->shared.configure("kv", impl_->options);
    impl_->write.disableWAL = true;

    rocksdb::DB* db = nullptr;
    const rocksdb::Status s = rocksdb::DB::Open(impl_->options, impl_->dir.string(), &db);
    if (!s.ok()) throw std::runtime_error("plain_rocksdb: cannot open " + impl_->dir.string() + ": " + s.ToString());
    impl_->db.reset(db);
}

plain_rocksdb::~plain_rocksdb() {
    impl_->db.reset();
    impl_->shared.closed("kv", impl_->options);
    std::error_code ec;
    std::filesystem::remove_all(impl_->dir, ec);
}

bool plain_rocksdb::get(std::string_view key, std::string& out) {
    const rocksdb::Status s = impl_->db->Get(impl_->read, impl_->db->DefaultColumnFamily(),
                                             rocksdb::Slice(key.data(), key.size()), &out);
    if (s.IsNotFound()) return false;
    if (!s.ok()) throw std::runtime_error("plain_rocksdb: get: " + s.ToString());
    return true;
}

void plain_rocksdb::put(std::string_view key, std::string_view value) {
    const rocksdb::Status s = impl_->db->Put(impl_->write, rocksdb::Slice(key.data(), key.size()),
                                             rocksdb::Slice(value.data(), value.size()));
    if (!s.ok()) throw std::runtime_error("plain_rocksdb: put: " + s.ToString());
}

}  // namespace kstreams::bench
