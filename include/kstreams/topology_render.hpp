// A topology drawn: Graphviz DOT and Mermaid flowcharts of what describe() lists, with each
// sub-topology a cluster, topics (input, output, repartition, changelog) and stores drawn.
#pragma once

#include <map>
#include <string>

namespace kstreams {

class topology;

struct render_options {
    /// Internal topics (repartition, changelog) are drawn as the app names them,
    /// `<application.id>-<name>`; empty draws `<application.id>-` literally.
    std::string application_id;
    /// Records per second per node name, written under the node's name (the status page's
    /// overlay); nodes not listed show none.
    std::map<std::string, double> node_rates;
};

/// Graphviz DOT (`dot -Tsvg`): sub-topologies as clusters; sources, processors and sinks as boxes
/// (processors rounded), topics as parallelograms outside the clusters (internal ones shaded),
/// stores as cylinders joined to their processors, a logged store to its changelog topic (dashed).
/// Validates the topology first (topology_error).
std::string to_dot(const topology& t, const render_options& options = {});

/// The same as a Mermaid flowchart (`flowchart TB`; sub-topologies as subgraphs).
std::string to_mermaid(const topology& t, const render_options& options = {});

}  // namespace kstreams
