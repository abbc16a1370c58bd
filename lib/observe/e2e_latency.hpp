// Kafka's record-e2e-latency (processor-node metrics at INFO level) at a task's source and sink
// nodes: the wall-clock time at which a record reaches the node minus the record's timestamp, in
// milliseconds. Kept as task counters `e2e-latency.<node>.count|sum|max|min` (max and min over
// Kafka's two 30-second samples) that metric_registry turns into record-e2e-latency-avg, -max and
// -min. The wall clock is read once per task turn, not per record (Kafka reads it per loop too).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <kstreams/metrics.hpp>

#include "lib/observe/latency.hpp"

namespace kstreams::detail {

namespace internal_metric {
inline constexpr std::string_view e2e_latency_prefix = "e2e-latency.";  ///< + node + ".count" etc.
}  // namespace internal_metric

class e2e_latency_recorder {
public:
    e2e_latency_recorder(kstreams::metrics& m, std::string_view node) {
        const std::string prefix = std::string(internal_metric::e2e_latency_prefix) + std::string(node) + ".";
        count_ = &m.counter(prefix + "count");
        sum_ = &m.counter(prefix + "sum");
        max_ = &m.counter(prefix + "max");
        min_ = &m.counter(prefix + "min");
    }
    /// A record of `timestamp` reached the node at `now_ms`. A timestamp in the future counts 0
    /// (the counters are unsigned; Kafka would record a negative latency).
    void record(std::int64_t timestamp, std::int64_t now_ms) {
        const auto ms = static_cast<std::uint64_t>(std::max<std::int64_t>(0, now_ms - timestamp));
        const std::int64_t now_ns = now_ms * 1'000'000;
        ++*count_;
        *sum_ += ms;
        *max_ = max_window_.record(ms, now_ns);
        // The minimum as the maximum of its complement, so that one windowed stat serves both.
        *min_ = top - min_window_.record(top - ms, now_ns);
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
