// The app's metrics as Kafka Streams names them (group, name, tags; KafkaStreams.metrics()), and
// their Prometheus text exposition.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kstreams {

/// Kafka's `metrics.recording.level`: INFO records thread, task and client metrics; DEBUG adds
/// the processor-node metrics (a counter per node and record); TRACE is accepted as DEBUG.
enum class metrics_recording_level { info, debug, trace };

/// How a value changes: a counter only grows (Kafka's `*-total`), a gauge goes up and down
/// (rates, averages, maxima, lags, states).
enum class metric_kind { counter, gauge };

/// One metric, as Kafka's MetricName (group, name, tags) and its value.
struct metric_sample {
    std::string group;  ///< e.g. "stream-thread-metrics"
    std::string name;   ///< e.g. "process-rate"
    std::string description;
    std::vector<std::pair<std::string, std::string>> tags;  ///< e.g. {"thread-id", "app-StreamThread-1"}
    double value = 0;
    metric_kind kind = metric_kind::gauge;

    /// The tag's value, or empty.
    std::string_view tag(std::string_view key) const {
        for (const auto& [k, v] : tags)
            if (k == key) return v;
        return {};
    }
};

/// Prometheus text exposition format 0.0.4: one family per group and name, named
/// `<prefix>_<group>_<name>` with every character outside [a-zA-Z0-9_:] turned into `_` (so
/// `stream-thread-metrics` / `process-rate` becomes `kstreams_stream_thread_metrics_process_rate`),
/// with `# HELP` and `# TYPE` lines, tags as labels (`thread-id` -> `thread_id`), label values
/// and help text escaped, NaN and infinities written as Prometheus spells them.
std::string to_prometheus(const std::vector<metric_sample>& samples, std::string_view prefix = "kstreams");

/// `name` with every character outside [a-zA-Z0-9_:] replaced by `_` (and a leading digit prefixed
/// with `_`), as Prometheus metric names must be.
std::string prometheus_name(std::string_view name);

}  // namespace kstreams
