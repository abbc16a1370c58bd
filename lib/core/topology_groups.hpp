// Validates a topology model and splits it into sub-topologies (Kafka Streams' node groups).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <kstreams/detail/topology_model.hpp>

namespace kstreams::detail {

struct subtopology_group {
    int id = 0;
    std::vector<std::size_t> nodes;           ///< node indices in topological order (parents first)
    std::vector<std::size_t> describe_order;  ///< as TopologyDescription lists them
    std::vector<std::size_t> stores;          ///< store indices used by this sub-topology
    std::vector<std::string> source_topics;   ///< as written (internal ones without prefix)
    std::vector<std::string> source_patterns;
    /// A global store's source and update processor: run by the global task, never by stream
    /// tasks (Kafka's "Sub-topology: N for global store (will not generate tasks)").
    bool global = false;
};

struct topology_groups {
    std::vector<subtopology_group> subtopologies;
    std::vector<std::vector<std::size_t>> parents;   ///< per node index
    std::vector<std::vector<std::size_t>> children;  ///< per node index, in the order added
    std::vector<std::vector<std::string>> node_stores;  ///< stores connected to each node
    std::map<std::string, std::size_t, std::less<>> index_of;
    /// Indices (into topology_model::stores) of the global stores.
    std::vector<std::size_t> global_stores;

    /// The sub-topologies that generate tasks, and the global ones.
    bool has_global() const {
        for (const auto& s : subtopologies)
            if (s.global) return true;
        return false;
    }
};

/// Throws topology_error naming the node for every kind of wiring mistake.
topology_groups group_topology(const topology_model& m);

}  // namespace kstreams::detail
