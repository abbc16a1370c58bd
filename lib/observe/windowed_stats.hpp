// A value recorded now and then (an e2e latency, a cache hit ratio) kept as four task counters
// `<prefix>count|sum|max|min`: count and sum only grow (metric_registry averages their growth over
// its sampling window), max and min over Kafka's two 30-second samples, as Kafka's Avg/Min/Max
// stats of one sensor.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include <kstreams/metrics.hpp>

#include "lib/observe/latency.hpp"

namespace kstreams::detail {

class windowed_stats_recorder {
public:
    windowed_stats_recorder(kstreams::metrics& m, const std::string& prefix)
        : count_(&m.counter(prefix + "count")), sum_(&m.counter(prefix + "sum")), max_(&m.counter(prefix + "max")),
          min_(&m.counter(prefix + "min")) {}
    void record(std::uint64_t v, std::int64_t now_ns) {
        ++*count_;
        *sum_ += v;
        *max_ = max_window_.record(v, now_ns);
        // The minimum as the maximum of its complement, so that one windowed stat serves both.
        *min_ = top - min_window_.record(top - v, now_ns);
    }

private:
    static constexpr std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t* count_;
    std::uint64_t* sum_;
    std::uint64_t* max_;
    std::uint64_t* min_;
    windowed_max max_window_;
    windowed_max min_window_;
};

}  // namespace kstreams::detail
