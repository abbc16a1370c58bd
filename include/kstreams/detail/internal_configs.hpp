// Kafka Streams' internal settings (its InternalConfig) that processors read through
// task_context::app_config, under Kafka's names.
#pragma once

#include <cstdint>
#include <string_view>

namespace kstreams::detail {

class task_context;

namespace internal_config {
/// How often (wall-clock ms) a left/outer stream-stream join looks for closed windows: 1 s, 0 in
/// the test driver (as Kafka's TopologyTestDriver sets it).
inline constexpr std::string_view outer_join_emit_interval_ms = "__emit.interval.ms.kstreams.outer.join.spurious.results.fix__";
/// How often (wall-clock ms) a windowed aggregation emitting on window close looks for closed
/// windows: 1 s, 0 in the test driver.
inline constexpr std::string_view windowed_aggregation_emit_interval_ms = "__emit.interval.ms.kstreams.windowed.aggregation__";

/// The setting `key` of the task's application in milliseconds; `fallback` when not set. Throws
/// topology_error naming the setting when its value is not a number of milliseconds.
std::int64_t milliseconds(const task_context& ctx, std::string_view key, std::int64_t fallback);
}  // namespace internal_config

}  // namespace kstreams::detail
