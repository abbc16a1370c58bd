// Topic metadata and creation for the app's start-up: the Admin API on a real cluster, the mock
// cluster's own calls on the embedded one.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <kstreams/error.hpp>

#include "lib/kafka/rd.hpp"

namespace kstreams {
class embedded_cluster;
}

namespace kstreams::kafka {

struct topic_spec {
    std::string name;
    std::int32_t partitions = 1;
    std::int16_t replication_factor = -1;
    std::map<std::string, std::string> config;
};

/// The cluster did not answer within the timeout (as opposed to answering with an error): worth
/// trying again while the cluster may still come up.
class cluster_unreachable : public streams_error {
public:
    using streams_error::streams_error;
};

class topic_admin {
public:
    /// `settings` are librdkafka settings (bootstrap.servers included); `embedded` is the embedded
    /// cluster behind them, if any.
    topic_admin(const std::map<std::string, std::string>& settings, std::chrono::milliseconds timeout,
                embedded_cluster* embedded);

    /// Whether a broker of the cluster answers a metadata request within `wait`.
    bool reachable(std::chrono::milliseconds wait);
    /// Partition counts of every topic of the cluster. Throws cluster_unreachable naming the
    /// bootstrap servers when the cluster cannot be reached within the timeout.
    const std::map<std::string, std::int32_t>& partition_counts(bool refresh = false);
    std::optional<std::int32_t> partition_count(const std::string& topic);
    /// Creates the topics that do not exist yet and waits until they are visible; throws
    /// streams_error naming a topic that could not be created (cluster_unreachable when the
    /// cluster did not answer).
    void create_topics(const std::vector<topic_spec>& topics);
    /// The end offset (high watermark) of a partition; throws streams_error naming it when the
    /// cluster does not tell within the timeout.
    std::int64_t end_offset(const std::string& topic, std::int32_t partition);

private:
    rk_ptr client_;
    std::string bootstrap_;
    std::chrono::milliseconds timeout_;
    embedded_cluster* embedded_;
    std::map<std::string, std::int32_t> counts_;
    std::set<std::string> leaderless_;  ///< topics with a partition that has no leader yet
    bool loaded_ = false;
};

}  // namespace kstreams::kafka
