// Case 6: a re-keying pipeline (select_key, then count) through the test driver, so the in-process
// cost of the repartition round trip shows: the sink serializes to the repartition topic, the
// driver routes the bytes to the topic's source, which deserializes them for the count. Against a
// hand-written loop doing the same serde round trips around a std::unordered_map count.
// A table's updates regrouped and counted or reduced (adder and subtractor), through the driver.
// Case 7: building and lowering a 50-operator topology.
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/processor.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "benchmarks/micro/harness.hpp"
#include "benchmarks/micro/workload.hpp"

namespace kstreams::bench {
namespace {

struct rekey {
    key_t operator()(key_t k, value_t) const { return (k + 1) % key_count; }
};

void rekey_count_driver(benchmark::State& s) {
    streams_builder b;
    b.stream<key_t, value_t>("in")
        .select_key(rekey{})
        .group_by_key()
        .count(materialized<>::as("counts").with_in_memory_store().with_logging_disabled())
        .to_stream()
        .to("out");
    const topology t = b.build();
    test::topology_test_driver driver(t);
    auto in = driver.create_input_topic<key_t, value_t>("in");
    in.pipe_input(0, 0, 0);
    std::vector<std::deque<test::produced_record>*> outputs;
    for (const std::string& topic : driver.produced_topic_names()) {
        outputs.push_back(&driver.produced(topic));
        outputs.back()->clear();
    }
    if (outputs.size() != 2) {
        s.SkipWithError("expected the repartition topic and the output topic");
        return;
    }
    const std::vector<key_t> keys = [] {
        std::vector<key_t> k(record_count);
        for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<key_t>((i * 7919) % key_count);
        return k;
    }();
    std::size_t i = 0;
    std::uint64_t produced = 0;
    run_records(s, [&] {
        const std::size_t n = i++;
        in.pipe_input(keys[n & (record_count - 1)], static_cast<value_t>(n), static_cast<std::int64_t>(n));
        for (auto* q : outputs) {
            produced += q->size();
            q->clear();
        }
    });
    if (produced != 2 * static_cast<std::uint64_t>(s.iterations()))
        s.SkipWithError(("expected one repartitioned record and one count update per input record, got " + std::to_string(produced) + " for " + std::to_string(s.iterations())).c_str());
}

void rekey_count_baseline(benchmark::State& s) {
    const std::vector<key_t> keys = [] {
        std::vector<key_t> k(record_count);
        for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<key_t>((i * 7919) % key_count);
        return k;
    }();
    const serde<key_t> ks;
    const serde<value_t> vs;
    std::unordered_map<key_t, value_t> counts;
    hand_written_sink sink;
    std::string in_key, in_value, mid_key, mid_value;
    std::size_t i = 0;
    run_records(s, [&] {
        const std::size_t n = i++;
        // The input topic's bytes.
        in_key.clear();
        in_value.clear();
        ks.serialize(keys[n & (record_count - 1)], in_key);
        vs.serialize(static_cast<value_t>(n), in_value);
        // Re-key, through the repartition topic's bytes.
        const key_t k = ks.deserialize(in_key);
        const value_t v = vs.deserialize(in_value);
        const key_t k2 = rekey{}(k, v);
        mid_key.clear();
        mid_value.clear();
        ks.serialize(k2, mid_key);
        vs.serialize(v, mid_value);
        benchmark::DoNotOptimize(mid_key.data());
        // Count what comes back.
        const key_t k3 = ks.deserialize(mid_key);
        benchmark::DoNotOptimize(vs.deserialize(mid_value));
        sink.send(k3, ++counts[k3], static_cast<std::int64_t>(n));
    });
}

// ---- table regrouping: a table's updates regrouped, then counted or reduced with a subtractor ----

struct regroup {
    std::pair<key_t, value_t> operator()(key_t k, value_t v) const { return {k % 100, v}; }
};
struct plus {
    value_t operator()(value_t agg, value_t v) const { return agg + v; }
};
struct minus {
    value_t operator()(value_t agg, value_t v) const { return agg - v; }
};

/// table("in").group_by(regroup).count() or .reduce(plus, minus) through the test driver: every
/// input record updates a table row, whose old value is subtracted and new value added.
void table_regroup_driver(benchmark::State& s, bool reduce) {
    streams_builder b;
    auto store = [](const char* name) {
        return materialized<>::as(name).with_in_memory_store().with_logging_disabled().with_caching_disabled();
    };
    auto grouped = b.table<key_t, value_t>("in", store("rows")).group_by(regroup{});
    if (reduce) grouped.reduce(plus{}, minus{}, store("sums")).to_stream().to("out");
    else grouped.count(store("counts")).to_stream().to("out");
    const topology t = b.build();
    test::topology_test_driver driver(t);
    auto in = driver.create_input_topic<key_t, value_t>("in");
    in.pipe_input(0, 0, 0);  // so that the topics it produces to exist
    std::vector<std::deque<test::produced_record>*> outputs;
    for (const std::string& topic : driver.produced_topic_names()) outputs.push_back(&driver.produced(topic));
    std::size_t i = 1;
    run_records(s, [&] {
        const std::size_t n = i++;
        in.pipe_input(static_cast<key_t>((n * 7919) % key_count), static_cast<value_t>(n), static_cast<std::int64_t>(n));
        for (auto* q : outputs) q->clear();
    });
}

// ---- case 7: build() of a 50-operator topology ----

constexpr int build_ops = 50;

/// DSL calls for a 50-operator chain, then build(): naming, lowering, validation.
void build_dsl(benchmark::State& s, bool with_count) {
    run_records(s, [&] {
        streams_builder b;
        kstream<key_t, value_t> st = b.stream<key_t, value_t>("in");
        for (int j = 0; j < build_ops; ++j) {
            switch (op_at(j)) {
                case op_kind::map_values: st = st.map_values(add_one{}); break;
                case op_kind::filter: st = st.filter(non_negative{}); break;
                case op_kind::map: st = st.map(flip_key{}); break;
                case op_kind::peek: st = st.peek(observe{}); break;
            }
        }
        if (with_count) st.group_by_key().count().to_stream().to("out");
        else st.to("out");
        topology t = b.build();
        benchmark::DoNotOptimize(t);
    });
}

template <op_kind Kind>
class chain_processor final : public processor<key_t, value_t, key_t, value_t> {
public:
    void process(const record<key_t, value_t>& r) override { context().forward(r); }
};

/// The same 50 operators written by hand with the Processor API, then validated.
void build_processor_api(benchmark::State& s) {
    run_records(s, [&] {
        topology t;
        t.add_source<key_t, value_t>("source", {"in"});
        std::string parent = "source";
        for (int j = 0; j < build_ops; ++j) {
            std::string name = "op-" + std::to_string(j);
            t.add_processor(name, [] { return std::make_unique<chain_processor<op_kind::peek>>(); }, {parent});
            parent = std::move(name);
        }
        t.add_sink<key_t, value_t>("sink", "out", {parent});
        t.validate();
        benchmark::DoNotOptimize(t);
    });
}

const bool registered = [] {
    add_baseline("rekey_count/baseline", rekey_count_baseline);
    add_case("rekey_count/test_driver", rekey_count_driver, "rekey_count/baseline");

    add_case("table_regroup/count/test_driver", [](benchmark::State& s) { table_regroup_driver(s, false); }, "");
    add_case("table_regroup/reduce/test_driver", [](benchmark::State& s) { table_regroup_driver(s, true); }, "");

    add_baseline("build/ops:50/baseline_processor_api", build_processor_api);
    add_case("build/ops:50/dsl", [](benchmark::State& s) { build_dsl(s, false); }, "build/ops:50/baseline_processor_api");
    add_case("build/ops:50+count/dsl", [](benchmark::State& s) { build_dsl(s, true); }, "build/ops:50/baseline_processor_api");
    return true;
}();

}  // namespace
}  // namespace kstreams::bench
