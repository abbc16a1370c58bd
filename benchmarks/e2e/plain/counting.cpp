// The loop's counting tasks:
// - count: a count per key in a RocksDB store (Kafka's timestamped value: timestamp ‖ count)
//   behind a 10 MiB record cache; at each flush the dirty counts go to RocksDB in one batch, to
//   the changelog and to the output. A cache miss reads RocksDB (as kstreams' caching layer does:
//   below a cache kstreams' store front holds nothing the cache does not).
// - count_nocache: the same with no cache: a store read, write, changelog record and output
//   record per input record (through the store's front).
// - kv_store: a plain (not timestamped) count per key read and written per record on an uncached
//   store, a changelog record and the new count produced per record.
// - hopping_count: a count per key and 1 s window advancing 500 ms (each record in two windows;
//   windows closed by stream time get nothing: no grace) in Kafka's RocksDB window store behind the
//   10 MiB record cache; a flushed window goes to the store, its changelog (`key ‖ start ‖ 0`, the
//   count) and the output under Kafka's time-windowed key (`key ‖ start`).
#include "benchmarks/e2e/plain/counting.hpp"

#include <algorithm>

#include "benchmarks/e2e/plain/record_cache.hpp"

namespace plain {

namespace {

struct timed_count {
    std::int64_t count = 0, timestamp = 0;
    static std::size_t bytes() { return 16; }
};

/// Kafka's timestamped count (timestamp, count) from stored bytes (0, 0 for none).
timed_count timestamped(const std::string* v) {
    if (v && v->size() == 16) return {get_big_endian(v->data() + 8), get_big_endian(v->data())};
    return {};
}

/// One more record of `key` at `ts` in a cache of counts (the stored count loaded on a miss).
template <class Load, class FlushAll>
void count_cached(record_cache<timed_count>& cache, std::string_view key, std::int64_t ts, Load load,
                  FlushAll flush_all) {
    auto h = cache.find(key);
    if (h == cache.none()) h = cache.add(key, load());
    timed_count& c = cache.value(h);
    ++c.count;
    c.timestamp = std::max(c.timestamp, ts);
    cache.updated(h);
    cache.bound(flush_all);
}

class count_task final : public task {
public:
    count_task(const task_setup& s, std::int32_t partition, std::size_t cache_bytes)
        : task(s.state_dir / ("0_" + std::to_string(partition)), s.to),
          store_(add_store(*s.db, "store", s.changelogs.at(0), partition)), cache_(cache_bytes),
          cached_(cache_bytes > 0) {}

    void process(const input_record& r) override {
        if (r.null_key) return;  // dropped, as Kafka's aggregations
        if (!cached_) {
            const timed_count old = timestamped(store_.get(r.key));
            const std::int64_t ts = std::max(old.timestamp, r.timestamp);
            char v[16];
            put_big_endian(ts, v);
            put_big_endian(old.count + 1, v + 8);
            store_.put(r.key, std::string_view(v, 16));
            send(r.key, std::string_view(v + 8, 8), ts);
            return;
        }
        count_cached(cache_, r.key, r.timestamp, [&] { return timestamped(store_.get_db(r.key)); }, [this] { flush(); });
    }

    void flush() override {
        if (!cache_.has_dirty()) return;
        rocksdb::WriteBatch batch;
        cache_.flush([&](std::string_view key, const timed_count& c) {
            char v[16];
            put_big_endian(c.timestamp, v);
            put_big_endian(c.count, v + 8);
            check(batch.Put(rocksdb::Slice(key.data(), key.size()), rocksdb::Slice(v, 16)), "batch");
            send(key, std::string_view(v + 8, 8), c.timestamp);
        });
        store_.write(batch);
    }

private:
    void send(std::string_view key, std::string_view count, std::int64_t timestamp) {
        store_.log(to_, key, &count, timestamp);
        produce(to_, to_.output, RD_KAFKA_PARTITION_UA, key, count, timestamp, nullptr);
    }

    logged_store& store_;
    record_cache<timed_count> cache_;
    bool cached_;
};

class kv_task final : public task {
public:
    kv_task(const task_setup& s, std::int32_t partition)
        : task(s.state_dir / ("0_" + std::to_string(partition)), s.to),
          store_(add_store(*s.db, "store", s.changelogs.at(0), partition)) {}

    void process(const input_record& r) override {
        if (r.null_key) return;
        std::int64_t n = 0;
        if (const std::string* old = store_.get(r.key); old && old->size() == 8) n = get_big_endian(old->data());
        char v[8];
        put_big_endian(n + 1, v);
        const std::string_view value(v, 8);
        store_.put(r.key, value);
        store_.log(to_, r.key, &value, r.timestamp);
        produce(to_, to_.output, RD_KAFKA_PARTITION_UA, r.key, value, r.timestamp, nullptr);
    }

private:
    logged_store& store_;
};

class hopping_task final : public task {
public:
    static constexpr std::int64_t size = 1000, advance = 500, grace = 0;

    hopping_task(const task_setup& s, std::int32_t partition)
        : task(s.state_dir / ("0_" + std::to_string(partition)), s.to),
          windows_(add_store(*s.db, "windows", s.changelogs.at(0), partition), size + grace, false),
          cache_(10u << 20) {}

    void process(const input_record& r) override {
        if (r.null_key) return;
        stream_time_ = std::max(stream_time_, r.timestamp);
        const std::int64_t close = stream_time_ - grace;
        // Kafka's TimeWindows.windowsFor: every window [start, start + size) holding the timestamp.
        for (std::int64_t start = std::max<std::int64_t>(0, r.timestamp - size + advance) / advance * advance;
             start <= r.timestamp; start += advance) {
            if (start + size <= close) continue;  // closed: dropped (Kafka counts it as expired)
            cache_key_.assign(r.key);
            append_big_endian(start, cache_key_);
            count_cached(cache_, cache_key_, r.timestamp, [&] { return timestamped(windows_.fetch(r.key, start)); },
                         [this] { flush(); });
        }
    }

    void flush() override {
        cache_.flush([&](std::string_view windowed_key, const timed_count& c) {
            const std::string_view key = windowed_key.substr(0, windowed_key.size() - 8);
            const std::int64_t start = get_big_endian(windowed_key.data() + key.size());
            char v[16];
            put_big_endian(c.timestamp, v);
            put_big_endian(c.count, v + 8);
            const std::string_view count(v + 8, 8);
            windows_.put(to_, key, std::string_view(v, 16), start, count, c.timestamp);
            produce(to_, to_.output, RD_KAFKA_PARTITION_UA, windowed_key, count, c.timestamp, nullptr);
        });
    }

private:
    window_store windows_;
    record_cache<timed_count> cache_;
    std::int64_t stream_time_ = INT64_MIN;
    std::string cache_key_;
};

}  // namespace

std::unique_ptr<task> make_counting_task(const std::string& pipeline, const task_setup& setup, std::int32_t partition) {
    if (pipeline == "count") return std::make_unique<count_task>(setup, partition, 10u << 20);
    if (pipeline == "count_nocache") return std::make_unique<count_task>(setup, partition, 0);
    if (pipeline == "kv_store") return std::make_unique<kv_task>(setup, partition);
    if (pipeline == "hopping_count") return std::make_unique<hopping_task>(setup, partition);
    return nullptr;
}

}  // namespace plain
