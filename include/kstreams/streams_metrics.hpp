// User metrics from processors (Kafka's StreamsMetrics, reached through
// processor_context::metrics()): sensors recorded into the task's counters and shown by
// kafka_streams::metric_samples() (and its Prometheus text) with the group, name and tags given.
//
//   sensor lookups = ctx.metrics().add_latency_rate_total_sensor("lookup", "cache", "get",
//                                                                metrics_recording_level::info);
//   lookups.record(elapsed_ms);   // lookup-... : get-rate, get-total, get-latency-avg, get-latency-max
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kstreams/metric_samples.hpp>

namespace kstreams {

class metrics;

/// What a sensor's metric shows of the values recorded (Kafka's metrics.stats). Rates and averages
/// are over the sampling window of kafka_streams::metric_samples(); max and min since the task began.
enum class sensor_stat {
    avg,       ///< Avg: the mean of the values recorded
    max,       ///< Max
    min,       ///< Min
    total,     ///< CumulativeSum: the sum of the values recorded
    count,     ///< CumulativeCount: how many values were recorded
    rate,      ///< Rate(WindowedCount): recordings per second
    sum_rate,  ///< Rate(WindowedSum): the sum of the values per second
};

/// Kafka's MetricName: the metric's name, group, description and tags.
struct sensor_metric_name {
    std::string name;
    std::string group;
    std::string description;
    std::vector<std::pair<std::string, std::string>> tags;
};

/// Kafka's Sensor: record() a value and every metric added to it shows it through its stat.
/// Values are kept with three decimals. Copies record into the same sensor; a sensor lives as long
/// as the task whose processor made it.
class sensor {
public:
    sensor() = default;
    const std::string& name() const { return name_; }
    /// False when the sensor's recording level is above the app's metrics.recording.level (or
    /// for a default-made sensor): record() then does nothing, as Kafka's.
    bool should_record() const { return recording_; }
    /// Records a value; record() alone records 1, as Kafka's.
    void record(double value = 1.0);
    /// Shows `stat` of the recorded values as metric `name`; false if the sensor has it already.
    bool add(const sensor_metric_name& name, sensor_stat stat);

private:
    friend class streams_metrics;
    std::string name_;
    kstreams::metrics* counters_ = nullptr;
    std::uint64_t* count_ = nullptr;
    std::uint64_t* sum_ = nullptr;  ///< thousandths, as a two's-complement int64
    std::uint64_t* max_ = nullptr;
    std::uint64_t* min_ = nullptr;
    bool recording_ = false;
};

/// Kafka's StreamsMetrics for one task's processors.
class streams_metrics {
public:
    using tag_list = std::vector<std::pair<std::string, std::string>>;

    streams_metrics(kstreams::metrics& counters, metrics_recording_level app_level)
        : counters_(&counters), app_level_(app_level) {}

    /// A sensor without metrics (add them with sensor::add); the same name gives the same sensor.
    sensor add_sensor(std::string_view name, metrics_recording_level level = metrics_recording_level::info);
    /// Kafka's addLatencyRateTotalSensor: in group `stream-<scope>-metrics`, tagged `thread-id` and
    /// `<scope>-id` = entity (and `tags`), the metrics `<operation>-rate` and `-total` (recordings)
    /// and `<operation>-latency-avg` and `-latency-max` (of the values recorded: latencies).
    sensor add_latency_rate_total_sensor(std::string_view scope, std::string_view entity, std::string_view operation,
                                         metrics_recording_level level, const tag_list& tags = {});
    /// Kafka's addRateTotalSensor: as above with `<operation>-rate` and `-total` only.
    sensor add_rate_total_sensor(std::string_view scope, std::string_view entity, std::string_view operation,
                                 metrics_recording_level level, const tag_list& tags = {});
    /// Kafka's removeSensor: its metrics are no longer shown.
    void remove_sensor(const sensor& s);

private:
    kstreams::metrics* counters_;
    metrics_recording_level app_level_;
};

}  // namespace kstreams
