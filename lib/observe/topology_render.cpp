// The topology as a graph of vertices (nodes, topics, stores) and edges, then written as DOT or
// Mermaid. Vertices are listed sub-topology by sub-topology, in describe()'s order.
#include <kstreams/topology_render.hpp>

#include <cstdio>
#include <set>
#include <vector>

#include <kstreams/topology.hpp>

#include "lib/core/topology_groups.hpp"
#include "lib/observe/topology_graph.hpp"

namespace kstreams {

namespace {

std::string rate_text(double r) {
    char buf[32];
    std::snprintf(buf, sizeof buf, r >= 100 ? "%.0f rec/s" : "%.1f rec/s", r);
    return buf;
}

}  // namespace

namespace detail {

topology_graph build_topology_graph(const topology& t, const render_options& o) {
    const detail::topology_model& m = t.model();
    const detail::topology_groups g = detail::group_topology(m);
    const std::string prefix = (o.application_id.empty() ? std::string("<application.id>") : o.application_id) + "-";
    topology_graph out;
    auto node_id = [](const std::string& name) { return "node:" + name; };
    auto topic_vertex = [&](const std::string& name, bool internal) {
        const std::string id = "topic:" + name;
        out.add({id, name, internal ? vertex_kind::internal_topic : vertex_kind::topic, -1});
        return id;
    };
    for (const auto& sub : g.subtopologies) {
        const int cluster = static_cast<int>(out.clusters.size());
        out.clusters.push_back(sub.global ? "Sub-topology " + std::to_string(sub.id) + " (global store)"
                                          : "Sub-topology " + std::to_string(sub.id));
        for (std::size_t idx : sub.describe_order.empty() ? sub.nodes : sub.describe_order) {
            const detail::node_def& n = m.nodes[idx];
            std::string label = n.name;
            if (auto it = o.node_rates.find(n.name); it != o.node_rates.end()) label += "\n" + rate_text(it->second);
            switch (n.kind) {
                case detail::node_kind::source:
                    out.add({node_id(n.name), label, vertex_kind::source, cluster});
                    if (n.pattern) {
                        out.add({"pattern:" + n.name, "topics matching\n" + *n.pattern, vertex_kind::topic, -1});
                        out.edges.push_back({"pattern:" + n.name, node_id(n.name)});
                    }
                    for (const auto& topic : n.topics)
                        out.edges.push_back(
                            {topic_vertex(n.internal_topic ? prefix + topic : topic, n.internal_topic), node_id(n.name)});
                    break;
                case detail::node_kind::processor:
                    out.add({node_id(n.name), label, vertex_kind::processor, cluster});
                    break;
                case detail::node_kind::sink:
                    out.add({node_id(n.name), label, vertex_kind::sink, cluster});
                    if (n.topic.empty()) {
                        out.add({"extracted:" + n.name, "topic chosen\nper record", vertex_kind::topic, -1});
                        out.edges.push_back({node_id(n.name), "extracted:" + n.name});
                    } else {
                        out.edges.push_back(
                            {node_id(n.name), topic_vertex(n.internal_topic ? prefix + n.topic : n.topic, n.internal_topic)});
                    }
                    break;
            }
        }
        for (std::size_t s : sub.stores) {
            const detail::store_def& def = m.stores[s];
            const std::string& name = def.builder->name();
            out.add({"store:" + name, name, vertex_kind::store, cluster});
            if (def.builder->logging_enabled() && !def.global) {
                out.edges.push_back({"store:" + name, topic_vertex(prefix + name + "-changelog", true), true, true,
                                     "changelog"});
            } else if (!def.source_topic_changelog.empty() && !def.global) {
                out.edges.push_back({topic_vertex(def.source_topic_changelog, false), "store:" + name, true, true,
                                     "changelog"});
            }
        }
        for (std::size_t idx : sub.nodes) {
            for (std::size_t child : g.children[idx])
                out.edges.push_back({node_id(m.nodes[idx].name), node_id(m.nodes[child].name)});
            for (const auto& store : g.node_stores[idx])
                if (out.ids.count("store:" + store))
                    out.edges.push_back({node_id(m.nodes[idx].name), "store:" + store, false, false, ""});
        }
    }
    return out;
}

}  // namespace detail

namespace {

using detail::topology_graph;
using detail::vertex_kind;

std::string dot_quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') out += "\\n";
        else out += c;
    }
    return out + "\"";
}

std::string dot_style(vertex_kind k) {
    switch (k) {
        case vertex_kind::source: return "shape=box, style=filled, fillcolor=\"#d5e8d4\"";
        case vertex_kind::processor: return "shape=box, style=\"rounded,filled\", fillcolor=\"#dae8fc\"";
        case vertex_kind::sink: return "shape=box, style=filled, fillcolor=\"#f8cecc\"";
        case vertex_kind::topic: return "shape=parallelogram, style=filled, fillcolor=\"#fff2cc\"";
        case vertex_kind::internal_topic: return "shape=parallelogram, style=\"filled,dashed\", fillcolor=\"#eeeeee\"";
        case vertex_kind::store: return "shape=cylinder, style=filled, fillcolor=\"#e1d5e7\"";
    }
    return "";
}

/// Mermaid ids must be plain words: v<index>.
std::string mermaid_label(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"') out += "#quot;";
        else if (c == '\n') out += "<br/>";
        else if (c == '<') out += "#lt;";
        else if (c == '>') out += "#gt;";
        else out += c;
    }
    return out;
}

std::string mermaid_shape(vertex_kind k, const std::string& label) {
    const std::string l = "\"" + mermaid_label(label) + "\"";
    switch (k) {
        case vertex_kind::source:
        case vertex_kind::sink: return "[" + l + "]";
        case vertex_kind::processor: return "(" + l + ")";
        case vertex_kind::topic:
        case vertex_kind::internal_topic: return "[/" + l + "/]";
        case vertex_kind::store: return "[(" + l + ")]";
    }
    return "[" + l + "]";
}

}  // namespace

std::string to_dot(const topology& t, const render_options& options) {
    const topology_graph g = detail::build_topology_graph(t, options);
    std::string out = "digraph topology {\n  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=10];\n"
                      "  edge [fontname=\"Helvetica\", fontsize=9];\n";
    for (std::size_t c = 0; c < g.clusters.size(); ++c) {
        out += "  subgraph cluster_" + std::to_string(c) + " {\n    label=" + dot_quoted(g.clusters[c]) +
               ";\n    style=rounded;\n    color=\"#888888\";\n";
        for (const auto& v : g.vertices)
            if (v.cluster == static_cast<int>(c))
                out += "    " + dot_quoted(v.id) + " [label=" + dot_quoted(v.label) + ", " + dot_style(v.kind) + "];\n";
        out += "  }\n";
    }
    for (const auto& v : g.vertices)
        if (v.cluster < 0)
            out += "  " + dot_quoted(v.id) + " [label=" + dot_quoted(v.label) + ", " + dot_style(v.kind) + "];\n";
    for (const auto& e : g.edges) {
        out += "  " + dot_quoted(e.from) + " -> " + dot_quoted(e.to);
        std::string attrs;
        if (e.dashed) attrs += "style=dashed";
        if (!e.arrow) attrs += std::string(attrs.empty() ? "" : ", ") + "dir=none";
        if (!e.label.empty()) attrs += std::string(attrs.empty() ? "" : ", ") + "label=" + dot_quoted(e.label);
        if (!attrs.empty()) out += " [" + attrs + "]";
        out += ";\n";
    }
    return out + "}\n";
}

std::string to_mermaid(const topology& t, const render_options& options) {
    const topology_graph g = detail::build_topology_graph(t, options);
    std::map<std::string, std::string> short_id;
    for (const auto& v : g.vertices) short_id.emplace(v.id, "v" + std::to_string(short_id.size()));
    std::string out = "flowchart TB\n";
    for (std::size_t c = 0; c < g.clusters.size(); ++c) {
        out += "  subgraph s" + std::to_string(c) + " [\"" + mermaid_label(g.clusters[c]) + "\"]\n";
        for (const auto& v : g.vertices)
            if (v.cluster == static_cast<int>(c)) out += "    " + short_id[v.id] + mermaid_shape(v.kind, v.label) + "\n";
        out += "  end\n";
    }
    for (const auto& v : g.vertices)
        if (v.cluster < 0) out += "  " + short_id[v.id] + mermaid_shape(v.kind, v.label) + "\n";
    for (const auto& e : g.edges) {
        const std::string arrow = e.dashed ? (e.arrow ? "-.->" : "-.-") : (e.arrow ? "-->" : "---");
        out += "  " + short_id[e.from] + " " + arrow + (e.label.empty() ? "" : "|" + mermaid_label(e.label) + "|") +
               " " + short_id[e.to] + "\n";
    }
    return out;
}

}  // namespace kstreams
