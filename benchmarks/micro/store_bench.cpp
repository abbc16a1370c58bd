// Case 4 (count) and case 5 (key-value get+put), against a std::unordered_map count and a plain
// RocksDB Get+Put. 10,000 keys.
#include <memory>
#include <string>
#include <unordered_map>

#include <kstreams/dsl.hpp>
#include <kstreams/processor.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/topology.hpp>

#include "benchmarks/micro/harness.hpp"
#include "benchmarks/micro/plain_rocksdb.hpp"
#include "benchmarks/micro/workload.hpp"

namespace kstreams::bench {
namespace {

using kv_store = key_value_store<key_t, value_t>;

/// A topology whose only job is to own the store `name` (so a task initializes it).
template <class Builder>
topology store_owner(Builder builder) {
    struct idle final : processor<key_t, value_t, key_t, value_t> {
        void process(const record<key_t, value_t>&) override {}
    };
    topology t;
    t.add_source<key_t, value_t>("source", {"in"});
    t.add_processor("owner", [] { return std::make_unique<idle>(); }, {"source"});
    t.add_state_store(std::move(builder), {"owner"});
    return t;
}

std::vector<key_t> key_sequence() {
    std::vector<key_t> keys(record_count);
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<key_t>((i * 7919) % key_count);
    return keys;
}

// ---- case 5: get + put of one key ----

void kv_get_put(benchmark::State& s, kv_store& kv) {
    const std::vector<key_t> keys = key_sequence();
    std::size_t i = 0;
    run_records(s, [&] {
        const key_t k = keys[i++ & (record_count - 1)];
        const std::optional<value_t> old = kv.get(k);
        kv.put(k, old.value_or(0) + 1);
    });
}

void kv_in_memory(benchmark::State& s) {
    const topology t = store_owner(
        stores::key_value_store_builder<key_t, value_t>(stores::in_memory_key_value_store("kv")));
    task_bench task(t, "in");
    kv_get_put(s, dynamic_cast<kv_store&>(task.store("kv")));
}

void kv_rocksdb(benchmark::State& s) {
    const topology t = store_owner(
        stores::key_value_store_builder<key_t, value_t>(stores::persistent_key_value_store("kv")));
    task_bench task(t, "in");
    kv_get_put(s, dynamic_cast<kv_store&>(task.store("kv")));
}

void kv_baseline_unordered_map(benchmark::State& s) {
    const std::vector<key_t> keys = key_sequence();
    std::unordered_map<key_t, value_t> map;
    std::size_t i = 0;
    run_records(s, [&] {
        const key_t k = keys[i++ & (record_count - 1)];
        auto it = map.find(k);
        const value_t old = it == map.end() ? 0 : it->second;
        map.insert_or_assign(k, old + 1);
    });
}

void kv_baseline_rocksdb(benchmark::State& s) {
    const std::vector<key_t> keys = key_sequence();
    plain_rocksdb db;
    const serde<key_t> ks;
    const serde<value_t> vs;
    std::string key_buf, value_buf, read_buf;
    std::size_t i = 0;
    run_records(s, [&] {
        const key_t k = keys[i++ & (record_count - 1)];
        key_buf.clear();
        ks.serialize(k, key_buf);
        const value_t old = db.get(key_buf, read_buf) ? vs.deserialize(read_buf) : 0;
        value_buf.clear();
        vs.serialize(old + 1, value_buf);
        db.put(key_buf, value_buf);
    });
}

// ---- case 4: count per key, every update forwarded to a sink ----

class count_processor final : public processor<key_t, value_t, key_t, value_t> {
public:
    void init(context_type& ctx) override {
        processor::init(ctx);
        store_ = &ctx.get_state_store<kv_store>("counts");
    }
    void process(const record<key_t, value_t>& r) override {
        const value_t count = store_->get(r.key).value_or(0) + 1;
        store_->put(r.key, count);
        context().forward(r.with_value(count));
    }

private:
    kv_store* store_ = nullptr;
};

void count_processor_api(benchmark::State& s, std::shared_ptr<const key_value_bytes_store_supplier> supplier) {
    topology t;
    t.add_source<key_t, value_t>("source", {"in"});
    t.add_processor("count", [] { return std::make_unique<count_processor>(); }, {"source"});
    t.add_state_store(stores::key_value_store_builder<key_t, value_t>(std::move(supplier)), {"count"});
    t.add_sink<key_t, value_t>("sink", "out", {"count"});
    const raw_records recs = int_records();
    task_bench task(t, "in");
    std::size_t i = 0;
    run_records(s, [&] { task.process(recs[i++]); });
}

/// Records between two commits (flush of caches and stores), as a runner would at
/// commit.interval.ms: about ten updates per key.
constexpr int commit_every = 100000;

/// The stream thread's record cache for the cached cases (statestore.cache.max.bytes).
constexpr std::size_t cache_bytes = std::size_t{10} << 20;

/// A grouped aggregation of the DSL (`aggregate(grouped, m)` appends it and its result's to_stream()
/// and sink), run as a task would. The store is not logged (the baselines keep no changelog
/// either). With caching, the task runs with a 10 MiB record cache, as a stream thread would, and
/// a commit every `commit_every` records forwards the coalesced results.
template <class Aggregate>
void aggregation_dsl(benchmark::State& s, bool persistent, bool caching, Aggregate aggregate) {
    streams_builder b;
    auto m = materialized<>::as("counts").with_logging_disabled();
    m = caching ? m.with_caching_enabled() : m.with_caching_disabled();
    m = persistent ? m.with_persistent_store() : m.with_in_memory_store();
    aggregate(b.stream<key_t, value_t>("in").group_by_key(), m);
    const topology t = b.build();
    const raw_records recs = int_records();
    task_bench task(t, "in", caching ? cache_bytes : 0);
    std::size_t i = 0;
    int since_commit = 0;
    run_records(s, [&] {
        task.process(recs[i++]);
        if (++since_commit == commit_every) {
            task.flush();
            since_commit = 0;
        }
    });
    const auto sent = task.collector().records;
    if (caching && s.iterations() > key_count && sent >= static_cast<std::uint64_t>(s.iterations()))
        s.SkipWithError("the record cache coalesced no update: caching is not active in this runner");
    if (!caching && sent != static_cast<std::uint64_t>(s.iterations()))
        s.SkipWithError("without a cache every update must be forwarded");
}

/// group_by_key().count(), its updates written to a topic.
void count_dsl(benchmark::State& s, bool persistent, bool caching) {
    aggregation_dsl(s, persistent, caching, [](const auto& grouped, const auto& m) {
        grouped.count(m).to_stream().to("out");
    });
}

struct sum {
    value_t operator()(value_t agg, value_t v) const { return agg + v; }
};

/// group_by_key().reduce(sum): a key's first value is stored as it is, later ones summed.
void reduce_dsl(benchmark::State& s, bool persistent, bool caching) {
    aggregation_dsl(s, persistent, caching, [](const auto& grouped, const auto& m) {
        grouped.reduce(sum{}, m).to_stream().to("out");
    });
}

void count_baseline(benchmark::State& s) {
    const raw_records recs = int_records();
    const serde<key_t> ks;
    std::unordered_map<key_t, value_t> counts;
    hand_written_sink sink;
    std::size_t i = 0;
    run_records(s, [&] {
        const detail::raw_record& raw = recs[i++];
        const key_t k = ks.deserialize(*raw.key);
        const value_t c = ++counts[k];
        sink.send(k, c, raw.timestamp);
    });
}

/// A count kept in a plain RocksDB (same options as the store): Get, +1, Put, then send.
void count_baseline_rocksdb(benchmark::State& s) {
    const raw_records recs = int_records();
    const serde<key_t> ks;
    const serde<value_t> vs;
    plain_rocksdb db;
    hand_written_sink sink;
    std::string value_buf, read_buf;
    std::size_t i = 0;
    run_records(s, [&] {
        const detail::raw_record& raw = recs[i++];
        const key_t k = ks.deserialize(*raw.key);
        const value_t c = (db.get(*raw.key, read_buf) ? vs.deserialize(read_buf) : 0) + 1;
        value_buf.clear();
        vs.serialize(c, value_buf);
        db.put(*raw.key, value_buf);
        sink.send(k, c, raw.timestamp);
    });
}

const bool registered = [] {
    add_baseline("kv_get_put/baseline_unordered_map", kv_baseline_unordered_map);
    add_baseline("kv_get_put/baseline_rocksdb", kv_baseline_rocksdb);
    add_case("kv_get_put/in_memory", kv_in_memory, "kv_get_put/baseline_unordered_map,kv_get_put/baseline_rocksdb");
    add_case("kv_get_put/rocksdb", kv_rocksdb, "kv_get_put/baseline_rocksdb", 1.3);

    add_baseline("count/baseline_unordered_map", count_baseline);
    add_baseline("count/baseline_rocksdb", count_baseline_rocksdb);
    for (bool persistent : {false, true})
        for (bool caching : {false, true}) {
            const std::string name = std::string("count/dsl/") + (persistent ? "rocksdb" : "in_memory") +
                                     (caching ? "/cache_10MiB" : "/no_cache");
            add_case(name, [=](benchmark::State& s) { count_dsl(s, persistent, caching); },
                     persistent ? "count/baseline_unordered_map,count/baseline_rocksdb" : "count/baseline_unordered_map",
                     persistent ? 0 : 2);
        }
    for (bool persistent : {false, true})
        for (bool caching : {false, true}) {
            const std::string name = std::string("reduce/dsl/") + (persistent ? "rocksdb" : "in_memory") +
                                     (caching ? "/cache_10MiB" : "/no_cache");
            add_case(name, [=](benchmark::State& s) { reduce_dsl(s, persistent, caching); },
                     persistent ? "count/baseline_unordered_map,count/baseline_rocksdb" : "count/baseline_unordered_map");
        }
    add_case("count/processor_api/in_memory", [](benchmark::State& s) {
        count_processor_api(s, stores::in_memory_key_value_store("counts"));
    }, "count/baseline_unordered_map", 2);
    add_case("count/processor_api/rocksdb", [](benchmark::State& s) {
        count_processor_api(s, stores::persistent_key_value_store("counts"));
    }, "count/baseline_rocksdb");
    return true;
}();

}  // namespace
}  // namespace kstreams::bench
