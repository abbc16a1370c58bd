// Prints a validated topology as Kafka Streams' TopologyDescription.toString() prints it.
#pragma once

#include <kstreams/topology.hpp>

#include "lib/core/topology_groups.hpp"

namespace kstreams::detail {

topology_description describe_topology(const topology_model& m, const topology_groups& groups);

}  // namespace kstreams::detail
