// The topology as vertices (nodes, topics, stores) and edges, grouped in sub-topology clusters:
// what the DOT, Mermaid and SVG renderers draw.
#pragma once

#include <set>
#include <string>
#include <vector>

#include <kstreams/topology_render.hpp>

namespace kstreams {
class topology;
}

namespace kstreams::detail {

enum class vertex_kind { source, processor, sink, topic, internal_topic, store };

struct vertex {
    std::string id;
    std::string label;  ///< lines separated by '\n'
    vertex_kind kind;
    int cluster = -1;  ///< index into graph::clusters, -1 outside them
};

struct edge {
    std::string from, to;
    bool dashed = false;
    bool arrow = true;
    std::string label;
};

struct topology_graph {
    std::vector<std::string> clusters;  ///< titles
    std::vector<vertex> vertices;
    std::vector<edge> edges;
    std::set<std::string> ids;

    void add(vertex v) {
        if (ids.insert(v.id).second) vertices.push_back(std::move(v));
    }
};

/// Vertices sub-topology by sub-topology in describe()'s order, then the edges.
topology_graph build_topology_graph(const topology& t, const render_options& o);

}  // namespace kstreams::detail
