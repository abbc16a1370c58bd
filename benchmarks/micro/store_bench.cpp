// Case 4 (count) and case 5 (key-value get+put), against a std::unordered_map count and a plain
// RocksDB Get+Put. 10,000 keys.
#include <memory>
#include <string>
#include <unordered_map>

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

const bool registered = [] {
    add_baseline("kv_get_put/baseline_unordered_map", kv_baseline_unordered_map);
    add_baseline("kv_get_put/baseline_rocksdb", kv_baseline_rocksdb);
    add_case("kv_get_put/in_memory", kv_in_memory, "kv_get_put/baseline_unordered_map,kv_get_put/baseline_rocksdb");
    add_case("kv_get_put/rocksdb", kv_rocksdb, "kv_get_put/baseline_rocksdb", 1.3);

    add_baseline("count/baseline_unordered_map", count_baseline);
    add_case("count/processor_api/in_memory", [](benchmark::State& s) {
        count_processor_api(s, stores::in_memory_key_value_store("counts"));
    }, "count/baseline_unordered_map", 2);
    add_case("count/processor_api/rocksdb", [](benchmark::State& s) {
        count_processor_api(s, stores::persistent_key_value_store("counts"));
    }, "count/baseline_unordered_map");
    return true;
}();

}  // namespace
}  // namespace kstreams::bench
