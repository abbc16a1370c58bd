#include "benchmarks/e2e/plain/store.hpp"

#include <algorithm>
#include <thread>

#include <rocksdb/cache.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/write_buffer_manager.h>

namespace plain {

void check(const rocksdb::Status& st, const char* what) {
    if (!st.ok()) die(std::string("RocksDB ") + what + ": " + st.ToString());
}

rocks::rocks()
    : cache_(rocksdb::NewLRUCache(64u << 20, -1, false, 0.1)),
      buffers_(std::make_shared<rocksdb::WriteBufferManager>(32u << 20, cache_)) {
    write.disableWAL = true;
}

std::unique_ptr<rocksdb::DB> rocks::open(const std::filesystem::path& dir) const {
    rocksdb::BlockBasedTableOptions table;
    table.block_cache = cache_;
    table.block_size = 4096;
    table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10, false));
    table.cache_index_and_filter_blocks = true;
    table.cache_index_and_filter_blocks_with_high_priority = true;
    table.pin_top_level_index_and_filter = true;
    rocksdb::Options o;
    o.write_buffer_manager = buffers_;
    o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    o.optimize_filters_for_hits = true;
    o.write_buffer_size = 16u << 20;
    o.max_write_buffer_number = 3;
    o.compression = rocksdb::kNoCompression;
    o.compaction_style = rocksdb::kCompactionStyleUniversal;
    o.create_if_missing = true;
    o.info_log_level = rocksdb::InfoLogLevel::ERROR_LEVEL;
    o.IncreaseParallelism(static_cast<int>(std::max(2u, std::thread::hardware_concurrency())));
    std::filesystem::create_directories(dir);
    rocksdb::DB* db = nullptr;
    const rocksdb::Status st = rocksdb::DB::Open(o, dir.string(), &db);
    if (!st.ok()) die("opening RocksDB in " + dir.string() + ": " + st.ToString());
    return std::unique_ptr<rocksdb::DB>(db);
}

// ---- hot_front ----

void hot_front::remember(rocksdb::DB& db, const rocksdb::WriteOptions& wo, std::string_view key,
                         std::string_view value) {
    if (map_.try_emplace(std::string(key), entry{std::string(value), false}).second) {
        bytes_ += overhead + key.size() + value.size();
        trim(db, wo);
    }
}

void hot_front::put(rocksdb::DB& db, const rocksdb::WriteOptions& wo, std::string_view key,
                    std::optional<std::string_view> value) {
    auto [it, inserted] = map_.try_emplace(std::string(key));
    if (inserted) bytes_ += overhead + key.size();
    else if (it->second.value) bytes_ -= it->second.value->size();
    if (value) {
        it->second.value.emplace(*value);
        bytes_ += value->size();
    } else {
        it->second.value.reset();
    }
    if (!it->second.dirty) {
        it->second.dirty = true;
        dirty_.push_back(&*it);
    }
    trim(db, wo);
}

bool hot_front::write(rocksdb::DB& db, const rocksdb::WriteOptions& wo) {
    if (dirty_.empty()) return false;
    std::sort(dirty_.begin(), dirty_.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
    rocksdb::WriteBatch batch;
    for (auto* e : dirty_) {
        e->second.dirty = false;
        if (e->second.value) check(batch.Put(rocksdb::Slice(e->first), rocksdb::Slice(*e->second.value)), "batch");
        else check(batch.Delete(rocksdb::Slice(e->first)), "batch");
    }
    dirty_.clear();
    check(db.Write(wo, &batch), "write");
    return true;
}

void hot_front::drop(rocksdb::DB& db, const rocksdb::WriteOptions& wo) {
    write(db, wo);
    map_.clear();
    bytes_ = 0;
}

void hot_front::trim(rocksdb::DB& db, const rocksdb::WriteOptions& wo) {
    if (bytes_ > limit) drop(db, wo);
}

// ---- logged_store ----

logged_store::logged_store(const rocks& db, const std::filesystem::path& dir, rd_kafka_topic_t* changelog,
                           std::int32_t partition)
    : rocks_(db), changelog_(changelog), partition_(partition), db_(db.open(dir)) {}

logged_store::~logged_store() {
    it_.reset();
    front_.write(*db_, rocks_.write);  // as a store's close
}

const std::string* logged_store::get(std::string_view key) {
    if (const std::optional<std::string>* v = front_.find(key)) return v->has_value() ? &**v : nullptr;
    const std::string* v = get_db(key);
    if (v) front_.remember(*db_, rocks_.write, key, *v);
    return v;
}

const std::string* logged_store::get_db(std::string_view key) {
    return db_->Get(rocks_.read, rocksdb::Slice(key.data(), key.size()), &read_buf_).ok() ? &read_buf_ : nullptr;
}

rocksdb::Iterator& logged_store::seek(std::string_view from) {
    if (front_.write(*db_, rocks_.write)) ++generation_;
    if (!it_) {
        it_.reset(db_->NewIterator(rocks_.read));
    } else if (it_generation_ != generation_ && !it_->Refresh().ok()) {
        it_.reset(db_->NewIterator(rocks_.read));
    }
    it_generation_ = generation_;
    it_->Seek(rocksdb::Slice(from.data(), from.size()));
    return *it_;
}

void logged_store::delete_range(std::string_view from, std::string_view to) {
    front_.drop(*db_, rocks_.write);  // the front's entries in the range would outlive it
    check(db_->DeleteRange(rocks_.write, db_->DefaultColumnFamily(), rocksdb::Slice(from.data(), from.size()),
                           rocksdb::Slice(to.data(), to.size())),
          "delete range");
    ++generation_;
}

void logged_store::flush() {
    if (front_.write(*db_, rocks_.write)) ++generation_;
    check(db_->Flush(rocksdb::FlushOptions()), "flush");
}

// ---- window_store ----

void window_store::observe(std::int64_t t) {
    if (t <= observed_) return;
    observed_ = t;
    const std::int64_t min_live = segment(observed_ - retention_);
    while (!segments_.empty() && *segments_.begin() < min_live) {
        const std::int64_t seg = *segments_.begin();
        segments_.erase(segments_.begin());
        store_.delete_range(segment_prefix(seg), segment_prefix(seg + 1));
    }
}

void window_store::put(const sinks& to, std::string_view key, std::string_view value, std::int64_t start,
                       std::string_view logged, std::int64_t timestamp) {
    observe(start);
    if (duplicates_) seqnum_ = seqnum_ == INT32_MAX ? 0 : seqnum_ + 1;
    log_key_buf_.assign(key);
    append_big_endian(start, log_key_buf_);
    append_big_endian32(duplicates_ ? seqnum_ : 0, log_key_buf_);
    if (!expired(start)) {  // Kafka skips an expired window's write but logs it
        const std::int64_t seg = segment(start);
        key_buf_ = segment_prefix(seg);
        key_buf_.append(log_key_buf_);
        store_.put(key_buf_, value);
        segments_.insert(seg);
    }
    store_.log(to, log_key_buf_, &logged, timestamp);
}

const std::string* window_store::fetch(std::string_view key, std::int64_t start) {
    if (expired(start)) return nullptr;
    key_buf_ = segment_prefix(segment(start));
    key_buf_.append(key);
    append_big_endian(start, key_buf_);
    append_big_endian32(0, key_buf_);
    return store_.get(key_buf_);
}

}  // namespace plain
