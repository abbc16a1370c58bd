// Case 1: a stateless chain of map_values, filter, map, peek (1, 4 and 16 operators) from source
// bytes to sink bytes, against the hand-written loop calling the same functors; through the DSL and
// through the Processor API.
// Case 2: flat_map_values returning a small container (a std::vector) and returning a view.
#include <memory>
#include <ranges>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>
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

/// The same chain in the DSL: stream -> map_values/filter/map/peek x n -> to.
topology dsl_chain(int n) {
    streams_builder b;
    kstream<key_t, value_t> s = b.stream<key_t, value_t>("in");
    for (int j = 0; j < n; ++j) {
        switch (op_at(j)) {
            case op_kind::map_values: s = s.map_values(add_one{}); break;
            case op_kind::filter: s = s.filter(non_negative{}); break;
            case op_kind::map: s = s.map(flip_key{}); break;
            case op_kind::peek: s = s.peek(observe{}); break;
        }
    }
    s.to("out");
    return b.build();
}

void run_topology(benchmark::State& s, const topology& t, int ops, const headers* hdrs = nullptr) {
    const raw_records recs = int_records("in", hdrs);
    task_bench task(t, "in");
    std::size_t i = 0;
    run_records(s, [&] { task.process(recs[i++]); }, 1, ops);
    if (task.collector().records != static_cast<std::uint64_t>(s.iterations()))
        s.SkipWithError("the chain did not send one record per input record");
}

template <int N>
void baseline_chain(benchmark::State& s, const headers* hdrs = nullptr) {
    const raw_records recs = int_records("in", hdrs);
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
            if (hand_written_chain<N>(k, v)) sink.send(k, v, raw.timestamp, ks, vs, raw.hdrs);
        },
        1, N);
    if (sink.collector.records != static_cast<std::uint64_t>(s.iterations()))
        s.SkipWithError("the baseline did not send one record per input record");
}

template <int N>
void register_chain() {
    const std::string group = "chain/ops:" + std::to_string(N);
    add_baseline(group + "/baseline", [](benchmark::State& s) { baseline_chain<N>(s); });
    add_case(group + "/dsl", [](benchmark::State& s) { run_topology(s, dsl_chain(N), N); }, group + "/baseline",
             1.5);
    add_case(group + "/processor_api", [](benchmark::State& s) { run_topology(s, processor_api_chain(N), N); },
             group + "/baseline", 1.5);
}

// ---- case 2: flat_map_values, three values per record ----

constexpr int fan_out = 3;

/// A small container: a std::vector of three values (one allocation per record).
struct to_vector {
    std::vector<value_t> operator()(value_t v) const { return {v, v + 1, v + 2}; }
};
/// A view: no container at all.
struct to_view {
    auto operator()(value_t v) const { return std::views::iota(v, v + fan_out); }
};

template <class F>
void flat_map_values_dsl(benchmark::State& s) {
    streams_builder b;
    b.stream<key_t, value_t>("in").flat_map_values(F{}).to("out");
    const topology t = b.build();
    const raw_records recs = int_records();
    task_bench task(t, "in");
    std::size_t i = 0;
    run_records(s, [&] { task.process(recs[i++]); });
    if (task.collector().records != static_cast<std::uint64_t>(s.iterations()) * fan_out)
        s.SkipWithError("flat_map_values did not send three records per input record");
}

template <class F>
void flat_map_values_baseline(benchmark::State& s) {
    const raw_records recs = int_records();
    const serde<key_t> ks;
    const serde<value_t> vs;
    hand_written_sink sink;
    const F f;
    std::size_t i = 0;
    run_records(s, [&] {
        const detail::raw_record& raw = recs[i++];
        const key_t k = ks.deserialize(*raw.key);
        const value_t v = vs.deserialize(*raw.value);
        for (value_t out : f(v)) sink.send(k, out, raw.timestamp);
    });
}

const bool registered = [] {
    register_chain<1>();
    register_chain<4>();
    register_chain<16>();
    // Records with two headers: the hand-written loop passes them by reference to the producer.
    add_baseline("chain/ops:4/headers/baseline", [](benchmark::State& s) { baseline_chain<4>(s, &two_headers()); });
    add_case("chain/ops:4/headers/dsl", [](benchmark::State& s) { run_topology(s, dsl_chain(4), 4, &two_headers()); },
             "chain/ops:4/headers/baseline", 1.5);
    add_baseline("flat_map_values/vector/baseline", flat_map_values_baseline<to_vector>);
    add_case("flat_map_values/vector/dsl", flat_map_values_dsl<to_vector>, "flat_map_values/vector/baseline");
    add_baseline("flat_map_values/view/baseline", flat_map_values_baseline<to_view>);
    add_case("flat_map_values/view/dsl", flat_map_values_dsl<to_view>, "flat_map_values/view/baseline");
    return true;
}();

}  // namespace
}  // namespace kstreams::bench
