// User sensors: Kafka's StreamsMetrics over a task's counters (kstreams/streams_metrics.hpp).
#include "lib/observe/user_sensors.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <kstreams/metrics.hpp>

namespace kstreams {

namespace us = detail::user_sensors;

namespace {

std::uint64_t to_fixed(double v) {
    constexpr double bound = static_cast<double>(std::numeric_limits<std::int64_t>::max() / 1000);
    if (std::isnan(v)) v = 0;
    v = std::clamp(v, -bound, bound);
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(std::llround(v * 1000.0)));
}

bool level_records(metrics_recording_level sensor_level, metrics_recording_level app_level) {
    return static_cast<int>(sensor_level) <= static_cast<int>(app_level);
}

}  // namespace

void sensor::record(double value) {
    if (!recording_ || !count_) return;
    const std::uint64_t v = to_fixed(value);
    const bool first = (*count_)++ == 0;
    *sum_ += v;
    const auto sv = static_cast<std::int64_t>(v);
    if (first || sv > static_cast<std::int64_t>(*max_)) *max_ = v;
    if (first || sv < static_cast<std::int64_t>(*min_)) *min_ = v;
}

bool sensor::add(const sensor_metric_name& name, sensor_stat stat) {
    if (!counters_) throw std::logic_error("sensor::add on a sensor not made by streams_metrics");
    std::uint64_t& d = counters_->counter(us::descriptor_key(name_, name));
    if (d != 0) return false;
    d = static_cast<std::uint64_t>(stat) + 1;
    return true;
}

sensor streams_metrics::add_sensor(std::string_view name, metrics_recording_level level) {
    sensor s;
    s.name_ = std::string(name);
    s.counters_ = counters_;
    s.count_ = &counters_->counter(us::aggregate(name, "count"));
    s.sum_ = &counters_->counter(us::aggregate(name, "sum"));
    s.max_ = &counters_->counter(us::aggregate(name, "max"));
    s.min_ = &counters_->counter(us::aggregate(name, "min"));
    s.recording_ = level_records(level, app_level_);
    return s;
}

namespace {

/// Kafka's customizedTags: thread-id, `<scope>-id` = entity, then the user's tags.
streams_metrics::tag_list scoped_tags(std::string_view scope, std::string_view entity,
                                      const streams_metrics::tag_list& tags) {
    streams_metrics::tag_list out{{"thread-id", std::string(us::thread_id_placeholder)},
                                  {std::string(scope) + "-id", std::string(entity)}};
    out.insert(out.end(), tags.begin(), tags.end());
    return out;
}

}  // namespace

sensor streams_metrics::add_rate_total_sensor(std::string_view scope, std::string_view entity,
                                              std::string_view operation, metrics_recording_level level,
                                              const tag_list& tags) {
    // Kafka's external sensor name (one per thread, entity and operation).
    sensor s = add_sensor("external." + std::string(entity) + ".s." + std::string(operation), level);
    const std::string group = "stream-" + std::string(scope) + "-metrics";
    const tag_list t = scoped_tags(scope, entity, tags);
    const std::string op(operation);
    s.add({op + "-rate", group, "The average number of occurrence of " + op + " operation per second.", t},
          sensor_stat::rate);
    s.add({op + "-total", group, "The total number of occurrence of " + op + " operations.", t}, sensor_stat::count);
    return s;
}

sensor streams_metrics::add_latency_rate_total_sensor(std::string_view scope, std::string_view entity,
                                                      std::string_view operation, metrics_recording_level level,
                                                      const tag_list& tags) {
    sensor s = add_rate_total_sensor(scope, entity, operation, level, tags);
    const std::string group = "stream-" + std::string(scope) + "-metrics";
    const tag_list t = scoped_tags(scope, entity, tags);
    const std::string op(operation);
    s.add({op + "-latency-avg", group, "The average latency of " + op, t}, sensor_stat::avg);
    s.add({op + "-latency-max", group, "The maximum latency of " + op, t}, sensor_stat::max);
    return s;
}

void streams_metrics::remove_sensor(const sensor& s) {
    counters_->erase_prefix(std::string(us::metric_prefix) + s.name() + us::field_separator);
}

namespace detail::user_sensors {

std::string aggregate(std::string_view sensor, std::string_view which) {
    return std::string(aggregate_prefix) + std::string(sensor) + field_separator + std::string(which);
}

std::string descriptor_key(std::string_view sensor, const sensor_metric_name& name) {
    std::string k = std::string(metric_prefix) + std::string(sensor) + field_separator + name.group +
                    field_separator + name.name + field_separator + name.description + field_separator;
    for (const auto& [key, value] : name.tags) k += key + tag_separator + value + tag_separator;
    return k;
}

std::optional<metric_descriptor> parse_descriptor(std::string_view counter, std::uint64_t value) {
    if (!counter.starts_with(metric_prefix) || value == 0 || value > static_cast<std::uint64_t>(sensor_stat::sum_rate) + 1)
        return std::nullopt;
    std::string_view rest = counter.substr(metric_prefix.size());
    std::vector<std::string> fields;
    for (int i = 0; i < 4; ++i) {
        const auto at = rest.find(field_separator);
        if (at == std::string_view::npos) return std::nullopt;
        fields.emplace_back(rest.substr(0, at));
        rest.remove_prefix(at + 1);
    }
    metric_descriptor d;
    d.sensor = fields[0];
    d.name.group = fields[1];
    d.name.name = fields[2];
    d.name.description = fields[3];
    d.stat = static_cast<sensor_stat>(value - 1);
    while (!rest.empty()) {
        const auto k = rest.find(tag_separator);
        if (k == std::string_view::npos) return std::nullopt;
        const auto v = rest.find(tag_separator, k + 1);
        if (v == std::string_view::npos) return std::nullopt;
        d.name.tags.emplace_back(std::string(rest.substr(0, k)), std::string(rest.substr(k + 1, v - k - 1)));
        rest.remove_prefix(v + 1);
    }
    return d;
}

}  // namespace detail::user_sensors
}  // namespace kstreams
