// The DSL's graph in Kafka Streams' shape, as the lowering rewrites and writes it (private to dsl/).
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/dsl/detail/graph.hpp>

namespace kstreams::dsl_detail {

/// A node of Kafka's graph: a DSL node, or a repartition topic (filter -> sink -> topic ->
/// source) of its own, or both (a DSL node standing for a repartition's source).
struct lnode {
    std::optional<std::size_t> graph;       ///< the DSL node written here
    const repartition_spec* rep = nullptr;  ///< the repartition written here
    std::vector<std::size_t> parents;       ///< lnodes, in order (Kafka's LinkedHashSet)
    std::pair<std::size_t, int> order;      ///< write order (Kafka's build priority)
    bool removed = false;
    /// Written with this processor and these connected stores instead of the DSL node's.
    make_node_fn make;
    std::vector<std::string> connected_stores;
};

struct lowered_graph {
    std::vector<lnode> nodes;
    std::vector<std::size_t> lnode_of;              ///< graph node -> the lnode its children read
    std::deque<repartition_spec> merged_specs;      ///< repartitions made by merging others
    std::map<std::size_t, std::string> merged_topic_of;  ///< graph node whose repartition was merged -> the topic now
};

/// Per graph node, the earlier stream() source of the same topics (or pattern) it becomes one with
/// (Kafka's mergeDuplicateSourceNodes); throws topology_error for overlapping but unequal topics,
/// different offset reset policies, or other key/value types.
std::vector<std::optional<std::size_t>> merged_sources(const std::vector<graph_node>& nodes);
/// The graph as Kafka's: each repartition a node of its own, duplicate stream sources one.
lowered_graph expand(const std::vector<graph_node>& nodes);
/// merge.repartition.topics (Kafka's InternalStreamsBuilder.mergeRepartitionTopics).
void merge_repartition_topics(const std::vector<graph_node>& nodes, lowered_graph& lg);
/// single.store.self.join (Kafka's rewriteSingleStoreSelfJoin).
void plan_self_joins(const std::vector<graph_node>& nodes, lowered_graph& lg);

}  // namespace kstreams::dsl_detail
