// Kafka's record-e2e-latency (processor-node metrics at INFO level) at a task's source and sink
// nodes: the wall-clock time at which a record reaches the node minus the record's timestamp, in
// milliseconds. Kept as task counters `e2e-latency.<node>.count|sum|max|min` (max and min over
// Kafka's two 30-second samples) that metric_registry turns into record-e2e-latency-avg, -max and
// -min. The wall clock is read once per task turn, not per record (Kafka reads it per loop too).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include <kstreams/metrics.hpp>

#include "lib/observe/windowed_stats.hpp"

namespace kstreams::detail {

namespace internal_metric {
inline constexpr std::string_view e2e_latency_prefix = "e2e-latency.";  ///< + node + ".count" etc.
}  // namespace internal_metric

class e2e_latency_recorder {
public:
    e2e_latency_recorder(kstreams::metrics& m, std::string_view node)
        : stats_(m, std::string(internal_metric::e2e_latency_prefix) + std::string(node) + ".") {}
    /// A record of `timestamp` reached the node at `now_ms`. A timestamp in the future counts 0
    /// (the counters are unsigned; Kafka would record a negative latency).
    void record(std::int64_t timestamp, std::int64_t now_ms) {
        stats_.record(static_cast<std::uint64_t>(std::max<std::int64_t>(0, now_ms - timestamp)), now_ms * 1'000'000);
    }

private:
    windowed_stats_recorder stats_;
};

}  // namespace kstreams::detail
