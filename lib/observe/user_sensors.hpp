// How user sensors (kstreams/streams_metrics.hpp) live in a task's counters, for the metric
// registry to show them: per sensor its aggregates, per metric added to it a descriptor counter
// whose name carries the metric's group, name, description and tags and whose value is the stat.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kstreams/streams_metrics.hpp>

namespace kstreams::detail::user_sensors {

inline constexpr char field_separator = '\x1f';
inline constexpr char tag_separator = '\x1e';
/// A tag value the registry replaces with the thread's id (Kafka tags these metrics thread-id).
inline constexpr std::string_view thread_id_placeholder = "\x1d" "thread-id";
inline constexpr std::string_view aggregate_prefix = "user-sensor\x1f";
inline constexpr std::string_view metric_prefix = "user-sensor-metric\x1f";

/// The counter of one aggregate (count, sum, max, min) of a sensor.
std::string aggregate(std::string_view sensor, std::string_view which);

/// One metric of a sensor, read back from its descriptor counter.
struct metric_descriptor {
    std::string sensor;
    sensor_metric_name name;
    sensor_stat stat = sensor_stat::count;
};
std::string descriptor_key(std::string_view sensor, const sensor_metric_name& name);
/// The descriptor a counter's name and value say, or nullopt for another counter.
std::optional<metric_descriptor> parse_descriptor(std::string_view counter, std::uint64_t value);

/// Recorded values are kept in thousandths, as two's-complement int64 in the uint64 counters.
inline double from_fixed(std::uint64_t v) { return static_cast<double>(static_cast<std::int64_t>(v)) / 1000.0; }

}  // namespace kstreams::detail::user_sensors
