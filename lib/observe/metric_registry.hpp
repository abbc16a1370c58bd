// Turns what the stream threads publish (counters, per-task counters, restorations) into Kafka
// Streams' metrics: group, name and tags as KafkaStreams.metrics() has them, with rates and
// windowed averages computed from the counters' history between calls.
#pragma once

#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <kstreams/metric_samples.hpp>

#include "lib/observe/snapshot.hpp"

namespace kstreams::detail {

struct client_snapshot {
    std::string application_id;
    std::string client_id;  ///< Kafka's client-id: `<application.id>-<process id>`
    std::string state;      ///< as KafkaStreams.State prints
    metrics_recording_level level = metrics_recording_level::info;
    std::vector<thread_snapshot> threads;
    std::vector<standby_snapshot> standbys;  ///< kept by the instance's standby updater
};

class metric_registry {
public:
    using clock = std::chrono::steady_clock;
    /// Rates span at least this much of the history when there is that much (Kafka: two samples
    /// of 30 s).
    static constexpr std::chrono::seconds window{30};

    metric_registry() : start_(clock::now()) {}
    /// The metrics now; thread-safe. Rates and averages are over the time since the oldest call
    /// within the window (at first: since the registry was made).
    std::vector<metric_sample> samples(const client_snapshot& client);

private:
    struct delta {
        double value = 0;
        double seconds = 0;
    };
    /// How much `total` (a counter named `key`) grew over the window, and in how long.
    delta grown(const std::string& key, double total, clock::time_point now);
    /// The metrics of the user sensors of a thread's tasks (kstreams/streams_metrics.hpp).
    void user_sensor_samples(const thread_snapshot& th, clock::time_point now, std::vector<metric_sample>& out);

    std::mutex mutex_;
    clock::time_point start_;
    std::map<std::string, std::deque<std::pair<clock::time_point, double>>> history_;
    clock::time_point last_prune_;
};

}  // namespace kstreams::detail
