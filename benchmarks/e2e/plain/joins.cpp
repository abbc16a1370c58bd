// The loop's join tasks, each doing by hand the durable work of Kafka Streams' (and kstreams') join
// with topology optimization off (the default):
// - table_join: a stream-table left join. The table topic's rows go into a 10 MiB record cache in
//   front of a RocksDB store (Kafka's timestamped value: timestamp ‖ value); at each flush the
//   dirty rows go to RocksDB in one batch and to the store's own changelog (the source topic is
//   not reused as the changelog: that is an optimization, off by default). A stream record looks
//   its key up (cache, then RocksDB) and its value is produced with its timestamp, whether a row
//   was found or not. Unlike Kafka's table source the loop does not read a row's old value before
//   it writes the new one: nothing here uses it.
// - stream_join: a stream-stream left join, windows 10 s either side, grace 30 s. Each side's
//   records go into its own RocksDB window store (retention 50 s, duplicates kept, logged); a
//   record looks up the other side's store for its key within 10 s and produces one result per
//   partner (timestamp the later of the two; the joiner keeps the left value). A left record
//   without partner is parked in a logged RocksDB key-value store (Kafka's shared outer store: key
//   `timestamp ‖ 1 ‖ key`, value a list of `4-byte length ‖ 1 ‖ value`), removed when a right
//   record finds it, and produced alone once stream time passes its timestamp + 10 s + 30 s
//   (Kafka's spurious-result fix: looked at when a record does not go back in stream time, at most
//   once a second of wall-clock time). Right records are never parked in a left join, so a left
//   record's partners are not looked up in the outer store (Kafka and kstreams look them up).
//   Records are joined in the order they arrive, not in timestamp order across the two topics;
//   the results are the same here (every record's window stays open past the input's end).
#include "benchmarks/e2e/plain/joins.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <vector>

#include "benchmarks/e2e/plain/record_cache.hpp"

namespace plain {

namespace {

struct row {
    std::string stamped;  ///< timestamp ‖ value, as stored
    std::size_t bytes() const { return stamped.size(); }
};

class table_join_task final : public task {
public:
    table_join_task(const task_setup& s, std::int32_t partition)
        : task(s.state_dir / ("0_" + std::to_string(partition)), s.to),
          table_(add_store(*s.db, "table", s.changelogs.at(0), partition)), cache_(10u << 20) {}

    void process(const input_record& r) override {
        if (r.source == 1) {
            if (r.null_key) return;  // Kafka's table source drops it
            auto h = cache_.find(r.key);
            if (h == cache_.none()) h = cache_.add(r.key, {});
            std::string& v = cache_.value(h).stamped;
            v.clear();
            if (!r.null_value) {
                append_big_endian(r.timestamp, v);
                v.append(r.value);
            }
            cache_.updated(h);
            cache_.bound([this] { flush(); });
            return;
        }
        // The joiner returns the stream's value: the lookup's result decides nothing here, but it is
        // the join's work, so it is done.
        auto h = cache_.find(r.key);
        if (h == cache_.none()) (void)table_.get(r.key);
        produce(to_, to_.output, RD_KAFKA_PARTITION_UA, r.key, r.null_value ? nullptr : &r.value, r.timestamp,
                nullptr);
    }

    void flush() override {
        if (!cache_.has_dirty()) return;
        rocksdb::WriteBatch batch;
        cache_.flush([&](std::string_view key, const row& v) {
            const rocksdb::Slice k(key.data(), key.size());
            if (v.stamped.empty()) {
                check(batch.Delete(k), "batch");
                table_.log(to_, key, nullptr, 0);
                return;
            }
            check(batch.Put(k, rocksdb::Slice(v.stamped)), "batch");
            const std::string_view value = std::string_view(v.stamped).substr(8);
            table_.log(to_, key, &value, get_big_endian(v.stamped.data()));
        });
        table_.write(batch);
    }

private:
    logged_store& table_;
    record_cache<row> cache_;
};

class stream_join_task final : public task {
public:
    static constexpr std::int64_t before = 10000, after = 10000, grace = 30000;

    stream_join_task(const task_setup& s, std::int32_t partition)
        : task(s.state_dir / ("0_" + std::to_string(partition)), s.to),
          left_(add_store(*s.db, "this", s.changelogs.at(0), partition), before + after + grace, true),
          right_(add_store(*s.db, "other", s.changelogs.at(1), partition), before + after + grace, true),
          outer_(add_store(*s.db, "outer", s.changelogs.at(2), partition)) {}

    void process(const input_record& r) override {
        const std::int64_t t = r.timestamp;
        stream_time_ = std::max(stream_time_, t);
        const bool left = r.source == 0;
        if (r.null_key || r.null_value) {
            // A left join passes a left record with a null key on at once, null-padded; the rest is dropped.
            if (left && r.null_key && !r.null_value)
                produce(to_, to_.output, RD_KAFKA_PARTITION_UA, r.key, r.value, t, nullptr);
            return;
        }
        if (t == stream_time_) emit_non_joined();
        const std::int64_t from = std::max<std::int64_t>(0, t - (left ? before : after));
        const std::int64_t to = std::max<std::int64_t>(0, t + (left ? after : before));
        if (left) {
            bool joined = false;
            right_.fetch(r.key, from, to, [&](std::int64_t other, std::string_view) {
                joined = true;
                produce(to_, to_.output, RD_KAFKA_PARTITION_UA, r.key, r.value, std::max(t, other), nullptr);
            });
            if (!joined) {
                if (to < stream_time_) produce(to_, to_.output, RD_KAFKA_PARTITION_UA, r.key, r.value, t, nullptr);
                else park(r.key, r.value, t);
            }
            left_.put(to_, r.key, r.value, t, r.value, t);
            return;
        }
        left_.fetch(r.key, from, to, [&](std::int64_t other, std::string_view value) {
            outer_key(other, r.key);
            if (outer_.get(outer_key_)) {  // a partner arrived: no longer waiting to go alone
                outer_.put(outer_key_, std::nullopt);
                outer_.log(to_, outer_key_, nullptr, t);
            }
            produce(to_, to_.output, RD_KAFKA_PARTITION_UA, r.key, value, std::max(t, other), nullptr);
        });
        right_.put(to_, r.key, r.value, t, r.value, t);
    }

private:
    void outer_key(std::int64_t t, std::string_view key) {
        outer_key_.clear();
        append_big_endian(t, outer_key_);
        outer_key_.push_back(1);  // the left side
        outer_key_.append(key);
    }

    void park(std::string_view key, std::string_view value, std::int64_t t) {
        min_time_ = std::min(min_time_, t);
        outer_key(t, key);
        const std::string* old = outer_.get(outer_key_);
        std::string list = old ? *old : std::string();
        append_big_endian32(static_cast<std::int32_t>(value.size() + 1), list);
        list.push_back(1);
        list.append(value);
        outer_.put(outer_key_, list);
        const std::string_view logged(list);
        outer_.log(to_, outer_key_, &logged, t);
    }

    /// Produces the parked left records whose window closed, in timestamp order, and removes them.
    void emit_non_joined() {
        if (min_time_ == INT64_MAX || min_time_ + after + grace >= stream_time_) return;
        const auto now = std::chrono::steady_clock::now();
        if (now < next_emit_) return;
        next_emit_ = now + std::chrono::seconds(1);
        min_time_ = INT64_MAX;
        struct parked {
            std::string key, list;
        };
        std::vector<parked> due;
        for (rocksdb::Iterator& it = outer_.seek({}); it.Valid(); it.Next()) {
            const std::int64_t ts = get_big_endian(it.key().data());
            if (ts + after + grace >= stream_time_) {
                min_time_ = ts;
                break;
            }
            due.push_back({it.key().ToString(), it.value().ToString()});
        }
        for (const parked& d : due) {
            const std::string_view key = std::string_view(d.key).substr(9);
            const std::int64_t ts = get_big_endian(d.key.data());
            for (std::string_view list = d.list; list.size() >= 5;) {
                const auto n = static_cast<std::size_t>(get_big_endian32(list.data()));
                produce(to_, to_.output, RD_KAFKA_PARTITION_UA, key, list.substr(5, n - 1), ts, nullptr);
                list.remove_prefix(4 + n);
            }
            outer_.put(d.key, std::nullopt);
            outer_.log(to_, d.key, nullptr, ts);
        }
    }

    window_store left_, right_;
    logged_store& outer_;
    std::int64_t stream_time_ = -1, min_time_ = INT64_MAX;
    std::chrono::steady_clock::time_point next_emit_{};
    std::string outer_key_;
};

}  // namespace

std::unique_ptr<task> make_join_task(const std::string& pipeline, const task_setup& setup, std::int32_t partition) {
    if (pipeline == "table_join") return std::make_unique<table_join_task>(setup, partition);
    if (pipeline == "stream_join") return std::make_unique<stream_join_task>(setup, partition);
    return nullptr;
}

}  // namespace plain
