// Which topics an app reads and creates, with their partition counts: resolved against the cluster
// at start (Kafka Streams' InternalTopicManager and copartitioning checks).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <kstreams/detail/topology_model.hpp>

#include "lib/core/topology_groups.hpp"
#include "lib/kafka/topic_admin.hpp"
#include "lib/runtime/internal_topic_config.hpp"

namespace kstreams::detail {

struct topic_plan {
    /// Per sub-topology (by index in topology_groups): the number of tasks.
    std::vector<std::int32_t> task_count;
    /// Every topic a consumer subscribes to (internal ones prefixed), with its sub-topology index.
    std::map<std::string, std::size_t, std::less<>> subtopology_of_topic;
    std::set<std::string, std::less<>> repartition_topics;  ///< prefixed
    std::set<std::string, std::less<>> changelog_topics;
    /// Source topics whose source node asked for its own offset reset policy (Kafka Streams'
    /// `Consumed.withOffsetResetPolicy`); the others follow the consumer's `auto.offset.reset`.
    std::map<std::string, offset_reset, std::less<>> offset_reset_of_topic;
    /// Partition count of every topic the app reads or writes that exists (for partitioners).
    std::map<std::string, std::int32_t, std::less<>> partition_counts;
};

struct plan_options {
    std::string application_id;
    std::int16_t replication_factor = -1;
    /// Create missing source and sink topics (the app's own embedded cluster) with this many partitions.
    bool create_external = false;
    std::int32_t embedded_partitions = 1;
    /// Sink topics are written to the cluster checked here (no sink_bootstrap_servers): a missing
    /// one is an error at start, not a send that times out later.
    bool check_sinks = true;
    /// errors.dead.letter.queue.topic.name: checked (or created) as a sink topic.
    std::string dead_letter_topic;
    /// Configs of every internal topic from the app's "topic."-prefixed properties (prefix removed):
    /// over each kind's defaults, under a store's own changelog configs (Kafka's InternalTopicManager).
    std::map<std::string, std::string> internal_topic_configs;
    /// windowstore.changelog.additional.retention.ms: added to a window store's retention for its
    /// changelog's retention.ms.
    std::int64_t window_changelog_additional_retention = 24 * 60 * 60 * 1000;
};

/// Checks the source topics (they exist, co-partition groups agree), creates the internal topics
/// (and, on the embedded cluster, any missing source and sink topic). Throws streams_error naming
/// the topic on a missing source or sink topic or a partition count that does not fit.
topic_plan plan_topics(const topology_model& model, const topology_groups& groups, kafka::topic_admin& admin,
                       const plan_options& options);

}  // namespace kstreams::detail
