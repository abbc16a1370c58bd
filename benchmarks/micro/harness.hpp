// What every microbenchmark shares: registering a case beside its baseline, and the per-record
// counters (allocations per record, operators per record) that the report turns into the table.
//
// Naming: a case is `<group>/<variant>`; its label says which baseline it is divided by
// (`vs=<baseline name>`) and the target ratio, if the issue sets one. scripts/bench reads the labels
// to print framework time / baseline time, so every ratio comes from one run of one binary.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>

#include <benchmark/benchmark.h>

#include "benchmarks/micro/alloc_counter.hpp"

namespace kstreams::bench {

/// Registers a kstreams case, to be compared with the benchmark named `vs` (empty: no baseline).
/// `target` is the ratio the issue asks for (0: none); it is printed, never asserted.
inline benchmark::internal::Benchmark* add_case(const std::string& name, std::function<void(benchmark::State&)> fn,
                                               const std::string& vs, double target = 0) {
    std::string label = "vs=" + vs;
    if (target > 0) {
        char buf[32];
        std::snprintf(buf, sizeof buf, ";target=%g", target);
        label += buf;
    }
    return benchmark::RegisterBenchmark(name.c_str(), [fn = std::move(fn), label](benchmark::State& s) {
        fn(s);
        s.SetLabel(label);
    });
}

/// Registers a hand-written baseline.
inline benchmark::internal::Benchmark* add_baseline(const std::string& name,
                                                   std::function<void(benchmark::State&)> fn) {
    return benchmark::RegisterBenchmark(name.c_str(), [fn = std::move(fn)](benchmark::State& s) {
        fn(s);
        s.SetLabel("baseline");
    });
}

/// Runs the timed loop: `body` handles `records_per_iteration` records per call. Counts the
/// allocations the loop makes and reports, per record: allocs/rec, and ns/op/rec when `ops` > 0
/// (the number of operators each record passes through).
template <class Body>
void run_records(benchmark::State& state, Body&& body, double records_per_iteration = 1, int ops = 0) {
    const std::uint64_t before = allocations_on_this_thread();
    for (auto _ : state) body();
    const std::uint64_t allocs = allocations_on_this_thread() - before;
    const double records = static_cast<double>(state.iterations()) * records_per_iteration;
    state.counters["allocs/rec"] = records > 0 ? static_cast<double>(allocs) / records : 0;
    state.counters["rec/iter"] = records_per_iteration;
    if (ops > 0)
        state.counters["ns/op/rec"] = benchmark::Counter(records * ops, benchmark::Counter::kIsRate |
                                                                            benchmark::Counter::kInvert);
    state.SetItemsProcessed(static_cast<std::int64_t>(records));
}

}  // namespace kstreams::bench
