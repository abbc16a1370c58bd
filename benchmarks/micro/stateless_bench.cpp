// Case 1: a stateless chain of map_values, filter, map, peek (1, 4 and 16 operators) from source
// bytes to sink bytes, against the hand-written loop calling the same functors.
#include <memory>
#include <string>

#include <kstreams/processor.hpp>
#include <kstreams/topology.hpp>

#include "benchmarks/micro/harness.hpp"
#include "benchmarks/micro/workload.hpp"

namespace kstreams::bench {
namespace {

// The Processor API form of each operator: what a user would write without the DSL.
template <op_kind Kind>
class chain_processor final : public processor<key_t, value_t, key_t, value_t> {
public:
    void process(const record<key_t, value_t>& r) override {
        if constexpr (Kind == op_kind::map_values) {
            context().forward(r.with_value(add_one{}(r.value)));
        } else if constexpr (Kind == op_kind::filter) {
            if (non_negative{}(r.key, r.value)) context().forward(r);
        } else if constexpr (Kind == op_kind::map) {
            auto kv = flip_key{}(r.key, r.value);
            context().forward(r.with_key(kv.key).with_value(kv.value));
        } else {
            observe{}(r.key, r.value);
            context().forward(r);
        }
    }
};

template <op_kind Kind>
void add_chain_processor(topology& t, const std::string& name, const std::string& parent) {
    t.add_processor(name, [] { return std::make_unique<chain_processor<Kind>>(); }, {parent});
}

topology processor_api_chain(int n) {
    topology t;
    t.add_source<key_t, value_t>("source", {"in"});
    std::string parent = "source";
    for (int j = 0; j < n; ++j) {
        const std::string name = "op-" + std::to_string(j);
        switch (op_at(j)) {
            case op_kind::map_values: add_chain_processor<op_kind::map_values>(t, name, parent); break;
            case op_kind::filter: add_chain_processor<op_kind::filter>(t, name, parent); break;
            case op_kind::map: add_chain_processor<op_kind::map>(t, name, parent); break;
            case op_kind::peek: add_chain_processor<op_kind::peek>(t, name, parent); break;
        }
        parent = name;
    }
    t.add_sink<key_t, value_t>("sink", "out", {parent});
    return t;
}

void run_topology(benchmark::State& s, const topology& t, int ops) {
    const raw_records recs = int_records();
    task_bench task(t, "in");
    std::size_t i = 0;
    run_records(s, [&] { task.process(recs[i++]); }, 1, ops);
    if (task.collector().records != static_cast<std::uint64_t>(s.iterations()))
        s.SkipWithError("the chain did not send one record per input record");
}

template <int N>
void baseline_chain(benchmark::State& s) {
    const raw_records recs = int_records();
    const serde<key_t> ks;
    const serde<value_t> vs;
    hand_written_sink sink;
    std::size_t i = 0;
    run_records(
        s,
        [&] {
            const detail::raw_record& raw = recs[i++];
            key_t k = ks.deserialize(*raw.key);
            value_t v = vs.deserialize(*raw.value);
            if (hand_written_chain<N>(k, v)) sink.send(k, v, raw.timestamp);
        },
        1, N);
    if (sink.collector.records != static_cast<std::uint64_t>(s.iterations()))
        s.SkipWithError("the baseline did not send one record per input record");
}

template <int N>
void register_chain() {
    const std::string group = "chain/ops:" + std::to_string(N);
    add_baseline(group + "/baseline", baseline_chain<N>);
    add_case(group + "/processor_api", [](benchmark::State& s) { run_topology(s, processor_api_chain(N), N); },
             group + "/baseline", 1.5);
}

const bool registered = [] {
    register_chain<1>();
    register_chain<4>();
    register_chain<16>();
    return true;
}();

}  // namespace
}  // namespace kstreams::bench
