// The ceiling of the end-to-end benchmark: the pipelines written by hand on librdkafka (and RocksDB),
// no framework. Each does the durable work kstreams does (the same consumer group, assignor and
// producer settings; at-least-once: every commit interval the producer is flushed, then the consumed
// offsets are committed) and nothing else:
// - passthrough, stateless: consume, (filter and uppercase,) produce.
// - count: a count per key in a RocksDB store per input partition, opened with kstreams' (Kafka
//   Streams') options and the WAL off, behind a record cache of 10 MiB with Kafka's rules (updates
//   coalesce per key; dirty entries are written to the store, a changelog topic and the output in
//   the order of their last update at each commit, or when the cache goes over its bound); the
//   store holds Kafka's timestamped value (timestamp and count); the changelog's offsets are
//   checkpointed (the store flushed first) once 10,000 changelog records went by, as kstreams.
// - count_nocache: the same with no cache: a store read, write, changelog record and output record
//   per input record.
// - kv_store: a plain (not timestamped) count per key read and written per record on an uncached
//   RocksDB store, a changelog record and the new count produced per record.
// - Both read and write the store as kstreams' RocksDB stores do (lib/state/rocksdb_key_value_store):
//   the values last read or written stay in a hash map in front of RocksDB (at most 2 MiB), so a
//   read of such a key is a hash lookup, and writes wait there and reach RocksDB in one write batch
//   in key order at each checkpoint (before the store's flush) or when the map outgrows its bound.
//
//   e2e_plain_app BOOTSTRAP GROUP PIPELINE INPUT OUTPUT STATE_DIR
//
// Prints STARTED right before it subscribes (the driver times from there) and runs until SIGTERM.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>
#include <rocksdb/write_buffer_manager.h>

#include "lib/kafka/rd.hpp"
#include "lib/kafka/topic_admin.hpp"

namespace kafka = kstreams::kafka;
using namespace std::chrono_literals;

namespace {

volatile std::sig_atomic_t stop = 0;
void on_signal(int) { stop = 1; }

[[noreturn]] void die(const std::string& what) {
    std::cerr << "e2e_plain_app: " << what << "\n";
    std::exit(1);
}

/// Commits the next offset of every partition consumed from since the last commit, after the
/// producer delivered everything sent before it.
void commit(rd_kafka_t* consumer, rd_kafka_t* producer, std::map<std::pair<std::string, std::int32_t>, std::int64_t>& next) {
    if (next.empty()) return;
    if (rd_kafka_flush(producer, 60000)) die("the producer did not deliver within 60 s");
    kafka::tpl_ptr offsets = kafka::make_tpl(static_cast<int>(next.size()));
    for (const auto& [tp, offset] : next)
        rd_kafka_topic_partition_list_add(offsets.get(), tp.first.c_str(), tp.second)->offset = offset;
    if (rd_kafka_resp_err_t err = rd_kafka_commit(consumer, offsets.get(), 0))
        std::cerr << "e2e_plain_app: commit: " << rd_kafka_err2str(err) << "\n";
    next.clear();
}

/// librdkafka 2.0 stops fetching once the consumer's local queue holds queued.min.messages and looks
/// again only after up to a second (fetch.queue.backoff.ms came in 2.2). A loop that drains the
/// queue faster than that would sleep out the rest: the same wake-up kstreams does
/// (lib/kafka/fetch_queue.cpp), so the loop is a ceiling and not a stall. When a queue that was
/// nearly full runs dry, an asynchronous seek of every consumed partition to its next offset wakes
/// the fetcher; the queue is empty, so the seek drops nothing prefetched.
class fetch_wake {
public:
    explicit fetch_wake(rd_kafka_t* consumer) : consumer_(consumer) {}

    void after_batch(rd_kafka_queue_t* queue, const std::map<std::pair<std::string, std::int32_t>, std::int64_t>& positions) {
        const std::size_t queued = rd_kafka_queue_length(queue);
        if (queued >= nearly_full) was_full_ = true;
        if (!was_full_ || queued != 0 || positions.empty()) return;
        was_full_ = false;
        kafka::tpl_ptr seek = kafka::make_tpl(static_cast<int>(positions.size()));
        for (const auto& [tp, offset] : positions)
            rd_kafka_topic_partition_list_add(seek.get(), tp.first.c_str(), tp.second)->offset = offset;
        if (rd_kafka_error_t* err = rd_kafka_seek_partitions(consumer_, seek.get(), 0)) rd_kafka_error_destroy(err);
    }

private:
    static constexpr std::size_t nearly_full = 75000;  ///< of queued.min.messages' 100,000
    rd_kafka_t* consumer_;
    bool was_full_ = false;
};

void put_big_endian(std::int64_t v, char* out) {
    auto u = static_cast<std::uint64_t>(v);
    for (int i = 7; i >= 0; --i, u >>= 8) out[i] = static_cast<char>(u & 0xff);
}

std::int64_t get_big_endian(const char* p) {
    std::uint64_t u = 0;
    for (int i = 0; i < 8; ++i) u = (u << 8) | static_cast<unsigned char>(p[i]);
    return static_cast<std::int64_t>(u);
}

/// Sends a record, serving delivery reports while the producer's queue is full. `opaque` comes
/// back in the delivery report (the changelog's offsets are checkpointed).
void produce(rd_kafka_t* producer, rd_kafka_topic_t* topic, std::int32_t partition, std::string_view key,
             std::string_view value, std::int64_t timestamp, void* opaque) {
    void* k = const_cast<char*>(key.data());
    void* v = const_cast<char*>(value.data());
    const std::size_t klen = key.size(), vlen = value.size();
    while (rd_kafka_producev(producer, RD_KAFKA_V_RKT(topic), RD_KAFKA_V_PARTITION(partition),
                             RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(k, klen), RD_KAFKA_V_VALUE(v, vlen),
                             RD_KAFKA_V_TIMESTAMP(timestamp), RD_KAFKA_V_OPAQUE(opaque),
                             RD_KAFKA_V_END) == RD_KAFKA_RESP_ERR__QUEUE_FULL)
        rd_kafka_poll(producer, 10);
}

/// RocksDB opened as kstreams opens its stores (lib/state/rocksdb_shared.cpp, Kafka Streams'
/// options: one 64 MiB block cache and a 32 MiB write buffer manager for all stores, bloom
/// filters, universal compaction, no compression), written with the WAL off.
class rocks {
public:
    rocks()
        : cache_(rocksdb::NewLRUCache(64u << 20, -1, false, 0.1)),
          buffers_(std::make_shared<rocksdb::WriteBufferManager>(32u << 20, cache_)) {
        write.disableWAL = true;
    }

    std::unique_ptr<rocksdb::DB> open(const std::filesystem::path& dir) const {
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

    rocksdb::WriteOptions write;
    rocksdb::ReadOptions read;

private:
    std::shared_ptr<rocksdb::Cache> cache_;
    std::shared_ptr<rocksdb::WriteBufferManager> buffers_;
};

/// kstreams' front of a RocksDB store (lib/state/rocksdb_key_value_store.cpp): the values last read
/// or written, by key; written values are dirty until write() puts them into RocksDB in one batch.
class hot_front {
public:
    /// The value of `key` if it is here.
    const std::string* find(std::string_view key) {
        auto it = map_.find(key);
        return it == map_.end() ? nullptr : &it->second.value;
    }
    /// A value just read from RocksDB (clean).
    void remember(rocksdb::DB& db, const rocksdb::WriteOptions& wo, std::string_view key, std::string_view value) {
        if (map_.try_emplace(std::string(key), entry{std::string(value), false}).second) {
            bytes_ += overhead + key.size() + value.size();
            trim(db, wo);
        }
    }
    void put(rocksdb::DB& db, const rocksdb::WriteOptions& wo, std::string_view key, std::string_view value) {
        auto [it, inserted] = map_.try_emplace(std::string(key));
        if (inserted) bytes_ += overhead + key.size();
        else bytes_ -= it->second.value.size();
        it->second.value.assign(value);
        bytes_ += value.size();
        if (!it->second.dirty) {
            it->second.dirty = true;
            dirty_.push_back(&*it);
        }
        trim(db, wo);
    }
    /// The dirty values into RocksDB, in key order, in one batch; they stay here, clean.
    void write(rocksdb::DB& db, const rocksdb::WriteOptions& wo) {
        if (dirty_.empty()) return;
        std::sort(dirty_.begin(), dirty_.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
        rocksdb::WriteBatch batch;
        for (auto* e : dirty_) {
            e->second.dirty = false;
            if (!batch.Put(rocksdb::Slice(e->first), rocksdb::Slice(e->second.value)).ok()) die("RocksDB batch");
        }
        dirty_.clear();
        const rocksdb::Status st = db.Write(wo, &batch);
        if (!st.ok()) die("RocksDB write: " + st.ToString());
    }

private:
    static constexpr std::size_t limit = std::size_t{2} << 20, overhead = 96;  ///< as kstreams'
    struct entry {
        std::string value;
        bool dirty = false;
    };
    struct key_hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view k) const { return std::hash<std::string_view>{}(k); }
    };
    using map = std::unordered_map<std::string, entry, key_hash, std::equal_to<>>;
    void trim(rocksdb::DB& db, const rocksdb::WriteOptions& wo) {
        if (bytes_ <= limit) return;
        write(db, wo);
        map_.clear();
        bytes_ = 0;
    }
    map map_;
    std::vector<map::value_type*> dirty_;
    std::size_t bytes_ = 0;
};

/// Where a stateful pipeline's records go: the output topic (the default partitioner) and the
/// changelog (the input record's partition).
struct sinks {
    rd_kafka_t* producer;
    rd_kafka_topic_t* output;
    rd_kafka_topic_t* changelog;
};

/// The state of one input partition (a kstreams task): its store, its record cache and how far its
/// changelog was sent, acknowledged and checkpointed.
class partition_state {
public:
    partition_state(const rocks& db, const std::filesystem::path& dir, std::int32_t partition, std::size_t cache_bytes)
        : rocks_(db), dir_(dir), partition_(partition), cache_bytes_(cache_bytes), db_(db.open(dir / "store")) {}
    ~partition_state() { front_.write(*db_, rocks_.write); }  // as a store's close
    partition_state(const partition_state&) = delete;
    partition_state& operator=(const partition_state&) = delete;

    /// count: the key's count goes up by one (through the cache when there is one).
    void count(const sinks& out, std::string_view key, std::int64_t timestamp) {
        if (cache_bytes_ == 0) {
            char v[16];
            const auto [old_ts, n] = read_timestamped(key);
            put_big_endian(std::max(old_ts, timestamp), v);
            put_big_endian(n + 1, v + 8);
            front_.put(*db_, rocks_.write, key, std::string_view(v, 16));
            send(out, key, std::string_view(v + 8, 8), std::max(old_ts, timestamp));
            return;
        }
        auto it = cache_.find(key);
        if (it == cache_.end()) {
            const auto [old_ts, n] = read_timestamped(key);
            it = cache_.emplace(std::string(key), entry{n, old_ts}).first;
            lru_.push_front(&it->first);
            it->second.lru = lru_.begin();
            bytes_ += entry_bytes(key.size());
        } else {
            lru_.splice(lru_.begin(), lru_, it->second.lru);
        }
        entry& e = it->second;
        ++e.count;
        e.timestamp = std::max(e.timestamp, timestamp);
        // Flushed in the order of their last update: an update moves the key to the end.
        if (e.dirty) {
            dirty_.splice(dirty_.end(), dirty_, e.dirty_pos);
        } else if (!spare_.empty()) {
            dirty_.splice(dirty_.end(), spare_, spare_.begin());
            dirty_.back() = &it->first;
        } else {
            dirty_.push_back(&it->first);
        }
        e.dirty_pos = std::prev(dirty_.end());
        e.dirty = true;
        while (bytes_ > cache_bytes_) evict(out);
    }

    /// kv_store: a get and a put of a plain count per record, each sent on.
    void get_put(const sinks& out, std::string_view key, std::int64_t timestamp) {
        std::int64_t n = 0;
        if (const std::string* old = read(key); old && old->size() == 8) n = get_big_endian(old->data());
        char v[8];
        put_big_endian(n + 1, v);
        front_.put(*db_, rocks_.write, key, std::string_view(v, 8));
        send(out, key, std::string_view(v, 8), timestamp);
    }

    /// Writes the dirty cache entries to the store (one batch), the changelog and the output.
    void flush(const sinks& out) {
        if (dirty_.empty()) return;
        rocksdb::WriteBatch batch;
        for (const std::string* key : dirty_) {
            entry& e = cache_.find(*key)->second;
            char v[16];
            put_big_endian(e.timestamp, v);
            put_big_endian(e.count, v + 8);
            check(batch.Put(rocksdb::Slice(*key), rocksdb::Slice(v, 16)), "batch");
            send(out, *key, std::string_view(v + 8, 8), e.timestamp);
            e.dirty = false;
        }
        spare_.splice(spare_.end(), dirty_);
        check(db_->Write(rocks_.write, &batch), "write");
    }

    /// After a commit: once 10,000 changelog records went by since the last checkpoint, flushes
    /// the store's memtables (the WAL is off) and writes the acknowledged changelog offset.
    void maybe_checkpoint() {
        if (sent_ - checkpointed_ <= 10000 || acked_ < 0) return;
        front_.write(*db_, rocks_.write);
        check(db_->Flush(rocksdb::FlushOptions()), "flush");
        std::ofstream(dir_ / ".checkpoint", std::ios::trunc) << "0\n1\nchangelog " << partition_ << " " << acked_ + 1 << "\n";
        checkpointed_ = sent_;
    }

    /// A delivery report of this partition's changelog.
    void acknowledged(std::int64_t offset) { acked_ = std::max(acked_, offset); }

private:
    struct entry {
        std::int64_t count = 0;
        std::int64_t timestamp = 0;
        bool dirty = false;
        std::list<const std::string*>::iterator lru, dirty_pos;
    };
    struct key_hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view k) const noexcept { return std::hash<std::string_view>{}(k); }
    };
    static std::size_t entry_bytes(std::size_t key_size) { return key_size + 16 + 64; }  // as kstreams' estimate
    static void check(const rocksdb::Status& st, const char* what) {
        if (!st.ok()) die(std::string("RocksDB ") + what + ": " + st.ToString());
    }

    /// The stored count of `key` and its timestamp (0, 0 if none): Kafka's timestamped value.
    std::pair<std::int64_t, std::int64_t> read_timestamped(std::string_view key) {
        if (const std::string* v = cache_bytes_ ? read_db(key) : read(key); v && v->size() == 16)
            return {get_big_endian(v->data()), get_big_endian(v->data() + 8)};
        return {0, 0};
    }

    /// The stored value of `key` (null if none), from the front if it is there.
    const std::string* read(std::string_view key) {
        if (const std::string* v = front_.find(key)) return v;
        const std::string* v = read_db(key);
        if (v) front_.remember(*db_, rocks_.write, key, *v);
        return v;
    }
    /// The value of `key` in RocksDB (null if none).
    const std::string* read_db(std::string_view key) {
        return db_->Get(rocks_.read, rocksdb::Slice(key.data(), key.size()), &read_buf_).ok() ? &read_buf_ : nullptr;
    }

    void send(const sinks& out, std::string_view key, std::string_view value, std::int64_t timestamp) {
        produce(out.producer, out.changelog, partition_, key, value, timestamp, this);
        produce(out.producer, out.output, RD_KAFKA_PARTITION_UA, key, value, timestamp, nullptr);
        ++sent_;
    }

    /// Kafka's cache: the least recently used entry goes; if it is dirty, every dirty entry is
    /// flushed first.
    void evict(const sinks& out) {
        const std::string* key = lru_.back();
        auto it = cache_.find(*key);
        if (it->second.dirty) flush(out);
        lru_.pop_back();
        bytes_ -= entry_bytes(key->size());
        cache_.erase(it);
    }

    const rocks& rocks_;
    std::filesystem::path dir_;
    std::int32_t partition_;
    std::size_t cache_bytes_;
    std::unique_ptr<rocksdb::DB> db_;
    hot_front front_;  ///< the uncached pipelines' (the cached one reads RocksDB on a cache miss, as kstreams)
    std::string read_buf_;
    std::unordered_map<std::string, entry, key_hash, std::equal_to<>> cache_;
    std::list<const std::string*> lru_, dirty_, spare_;
    std::size_t bytes_ = 0;
    std::int64_t sent_ = 0, checkpointed_ = 0, acked_ = -1;
};

/// Delivery reports: the changelog's records carry their partition's state as opaque.
void on_delivery(rd_kafka_t*, const rd_kafka_message_t* m, void*) {
    if (m->err) die(std::string("delivery failed: ") + rd_kafka_err2str(m->err));
    if (m->_private) static_cast<partition_state*>(m->_private)->acknowledged(m->offset);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string kind = argc == 7 ? argv[3] : "";
    const bool transform = kind == "stateless";
    const bool stateful = kind == "count" || kind == "count_nocache" || kind == "kv_store";
    if (!transform && !stateful && kind != "passthrough") {
        std::cerr << "usage: e2e_plain_app BOOTSTRAP GROUP passthrough|stateless|count|count_nocache|kv_store INPUT "
                     "OUTPUT STATE_DIR\n";
        return 2;
    }
    std::signal(SIGTERM, on_signal);
    std::signal(SIGINT, on_signal);
    const std::string bootstrap = argv[1], group = argv[2], input = argv[4], output = argv[5];
    // kstreams' own client settings (lib/runtime/kafka_streams.cpp), so both do the same work.
    auto consumer = kafka::make_client(RD_KAFKA_CONSUMER,
                                       kafka::make_conf({{"bootstrap.servers", bootstrap},
                                                         {"group.id", group},
                                                         {"enable.auto.commit", "false"},
                                                         {"enable.auto.offset.store", "false"},
                                                         {"auto.offset.reset", "earliest"},
                                                         {"partition.assignment.strategy", "range"},
                                                         {"max.poll.interval.ms", "300000"},
                                                         {"log_level", "3"}},
                                                        "consumer"),
                                       "consumer");
    kafka::conf_ptr producer_conf = kafka::make_conf({{"bootstrap.servers", bootstrap},
                                                      {"partitioner", "murmur2_random"},
                                                      {"enable.idempotence", "true"},
                                                      {"linger.ms", "100"},
                                                      {"log_level", "3"}},
                                                     "producer");
    rd_kafka_conf_set_dr_msg_cb(producer_conf.get(), &on_delivery);
    auto producer = kafka::make_client(RD_KAFKA_PRODUCER, std::move(producer_conf), "producer");
    rd_kafka_topic_t* out = rd_kafka_topic_new(producer.get(), output.c_str(), nullptr);
    std::cout << "STARTED" << std::endl;

    // The stateful pipelines' changelog (compacted, one partition per input partition), created
    // after STARTED as kstreams creates its internal topics after start().
    const std::string changelog = group + "-store-changelog";
    sinks to{producer.get(), out, nullptr};
    rocks db;
    std::map<std::int32_t, std::unique_ptr<partition_state>> states;
    if (stateful) {
        kafka::topic_admin admin({{"bootstrap.servers", bootstrap}, {"log_level", "3"}}, 30s, nullptr);
        const auto parts = admin.partition_count(input);
        if (!parts) die("no topic " + input);
        admin.create_topics({{changelog, *parts, 1, {{"cleanup.policy", "compact"}}}});
        to.changelog = rd_kafka_topic_new(producer.get(), changelog.c_str(), nullptr);
    }
    const std::size_t cache_bytes = kind == "count" ? 10u << 20 : 0;
    const std::filesystem::path state_dir = argv[6];
    rd_kafka_poll_set_consumer(consumer.get());
    kafka::tpl_ptr topics = kafka::make_tpl(1);
    rd_kafka_topic_partition_list_add(topics.get(), input.c_str(), RD_KAFKA_PARTITION_UA);
    if (rd_kafka_resp_err_t err = rd_kafka_subscribe(consumer.get(), topics.get())) die(rd_kafka_err2str(err));
    kafka::queue_ptr queue(rd_kafka_queue_get_consumer(consumer.get()));

    std::map<std::pair<std::string, std::int32_t>, std::int64_t> next, positions;
    fetch_wake wake(consumer.get());
    rd_kafka_message_t* batch[500];
    std::string up;
    auto next_commit = std::chrono::steady_clock::now() + 1000ms;
    while (!stop) {
        const ssize_t n = rd_kafka_consume_batch_queue(queue.get(), 100, batch, 500);
        // The offset slot of the partition the previous record came from: a batch is mostly one
        // partition, so the map is looked up once per run of records, not per record.
        std::int64_t* slot = nullptr;
        partition_state* state = nullptr;
        rd_kafka_topic_t* slot_topic = nullptr;
        std::int32_t slot_partition = -1;
        for (ssize_t i = 0; i < n; ++i) {
            kafka::message_ptr m(batch[i]);
            if (m->err) continue;
            if (m->rkt != slot_topic || m->partition != slot_partition) {
                slot_topic = m->rkt;
                slot_partition = m->partition;
                slot = &next[{rd_kafka_topic_name(m->rkt), m->partition}];
                if (stateful) {
                    auto& st = states[m->partition];
                    if (!st)
                        st = std::make_unique<partition_state>(db, state_dir / ("0_" + std::to_string(m->partition)),
                                                               m->partition, cache_bytes);
                    state = st.get();
                }
            }
            *slot = m->offset + 1;
            if (stateful) {
                if (!m->key) continue;  // a null key: dropped, as Kafka's aggregations and processors here
                const std::string_view key(static_cast<const char*>(m->key), m->key_len);
                const std::int64_t ts = rd_kafka_message_timestamp(m.get(), nullptr);
                if (kind == "kv_store") state->get_put(to, key, ts);
                else state->count(to, key, ts);
                continue;
            }
            const auto* v = static_cast<const char*>(m->payload);
            const void* value = v;
            std::size_t value_len = v ? m->len : 0;
            if (transform) {
                if (!v || m->len == 0 || v[m->len - 1] == '0') continue;
                up.assign(v, m->len);
                for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
                value = up.data();
                value_len = up.size();
            }
            while (rd_kafka_producev(producer.get(), RD_KAFKA_V_RKT(out), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                     RD_KAFKA_V_KEY(m->key, m->key_len), RD_KAFKA_V_VALUE(const_cast<void*>(value), value_len),
                                     RD_KAFKA_V_TIMESTAMP(rd_kafka_message_timestamp(m.get(), nullptr)),
                                     RD_KAFKA_V_END) == RD_KAFKA_RESP_ERR__QUEUE_FULL)
                rd_kafka_poll(producer.get(), 10);
        }
        for (const auto& [tp, offset] : next) positions[tp] = offset;
        wake.after_batch(queue.get(), positions);
        rd_kafka_poll(producer.get(), 0);
        if (std::chrono::steady_clock::now() >= next_commit) {
            // As Kafka Streams' commit: the caches flush, the producer delivers, the offsets are
            // committed, then the stores checkpoint.
            for (auto& [p, st] : states) st->flush(to);
            commit(consumer.get(), producer.get(), next);
            for (auto& [p, st] : states) st->maybe_checkpoint();
            next_commit = std::chrono::steady_clock::now() + 1000ms;
        }
    }
    for (auto& [p, st] : states) st->flush(to);
    commit(consumer.get(), producer.get(), next);
    states.clear();
    if (to.changelog) rd_kafka_topic_destroy(to.changelog);
    rd_kafka_topic_destroy(out);
    rd_kafka_consumer_close(consumer.get());
    return 0;
}
