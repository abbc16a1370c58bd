// Kafka Streams builds its description from Java collections and prints their iteration order, so
// this replays the same steps (InternalTopologyBuilder.describeSubtopology) over emulations of
// those collections (lib/core/java_order.hpp):
// - a sub-topology's node names are walked in java.util.HashMap order; for each node and each of
//   its parents in the order given, the parent goes into the node's predecessor TreeSet, the node
//   into the parent's successor TreeSet, and the node's sub-tree size is added to the parent and,
//   recursively, to the parent's predecessors connected so far;
// - both TreeSets compare by sub-tree size (bigger first), then name, with the sizes of the moment;
// - nodes are listed by final size, then name; stores and source topics print as HashSets
//   copied from a collection (new HashSet<>(c)).
#include "lib/core/topology_describe.hpp"

#include <sstream>

#include "lib/core/java_order.hpp"

namespace kstreams::detail {

namespace {

std::string join_list(const std::vector<std::string>& items) {
    std::string s = "[";
    for (std::size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + items[i];
    return s + "]";
}

struct described_subtopology {
    std::vector<std::size_t> order;               // node indices as printed
    std::map<std::size_t, std::vector<std::size_t>> successors, predecessors;
};

described_subtopology describe_group(const topology_model& m, const topology_groups& g, const subtopology_group& sub) {
    // Node names in the order they were added (Kafka's node factories are a LinkedHashMap), then
    // in the iteration order of the HashSet/HashMap holding them.
    std::vector<std::size_t> added = sub.nodes;
    std::sort(added.begin(), added.end());
    std::vector<std::string> names;
    for (auto i : added) names.push_back(m.nodes[i].name);
    std::vector<std::size_t> walk;
    for (const auto& name : java::hash_set_order(names)) walk.push_back(g.index_of.at(name));

    std::map<std::size_t, int> size;
    for (auto i : added) size[i] = 1;
    auto cmp = [&](std::size_t a, std::size_t b) {
        if (a == b) return 0;
        if (size[a] != size[b]) return size[b] - size[a];
        return java::compare(m.nodes[a].name, m.nodes[b].name);
    };
    std::map<std::size_t, java::tree_set> preds, succs;
    for (auto i : added) {
        preds.emplace(i, java::tree_set(cmp));
        succs.emplace(i, java::tree_set(cmp));
    }
    auto update_size = [&](auto& self, std::size_t node, int delta) -> void {
        size[node] += delta;
        for (auto p : preds.at(node).values()) self(self, p, delta);
    };
    for (auto node : walk) {
        for (auto parent : g.parents[node]) {
            preds.at(node).insert(parent);
            succs.at(parent).insert(node);
            update_size(update_size, parent, size[node]);
        }
    }

    described_subtopology d;
    d.order = added;
    std::sort(d.order.begin(), d.order.end(), [&](std::size_t a, std::size_t b) { return cmp(a, b) < 0; });
    for (auto i : added) {
        d.successors[i] = succs.at(i).in_order();
        d.predecessors[i] = preds.at(i).in_order();
    }
    return d;
}

}  // namespace

topology_description describe_topology(const topology_model& m, const topology_groups& groups) {
    topology_description result;
    std::ostringstream out;
    out << "Topologies:\n ";
    auto names = [&](const std::vector<std::size_t>& ids) {
        if (ids.empty()) return std::string("none");
        std::string s;
        for (auto i : ids) s += (s.empty() ? "" : ", ") + m.nodes[i].name;
        return s;
    };
    for (const auto& sub : groups.subtopologies) {
        const described_subtopology d = describe_group(m, groups, sub);
        subtopology_description sd{sub.id, {}};
        out << "  Sub-topology: " << sub.id << (sub.global ? " for global store (will not generate tasks)" : "") << "\n";
        for (std::size_t idx : d.order) {
            const node_def& n = m.nodes[idx];
            sd.nodes.push_back(n.name);
            out << "    ";
            switch (n.kind) {
                case node_kind::source:
                    // A pattern prints as java.util.regex.Pattern.toString(): the bare expression.
                    out << "Source: " << n.name << " (topics: "
                        << (n.pattern ? *n.pattern : join_list(java::hash_set_order(n.topics, true))) << ")\n"
                        << "      --> " << names(d.successors.at(idx));
                    break;
                case node_kind::processor:
                    out << "Processor: " << n.name << " (stores: "
                        << join_list(java::hash_set_order(groups.node_stores[idx], true)) << ")\n"
                        << "      --> " << names(d.successors.at(idx)) << "\n"
                        << "      <-- " << names(d.predecessors.at(idx));
                    break;
                case node_kind::sink:
                    // Java prints the extractor object's toString(); a C++ callable has no such name.
                    if (n.topic.empty()) out << "Sink: " << n.name << " (extractor class: topic_name_extractor)\n";
                    else out << "Sink: " << n.name << " (topic: " << n.topic << ")\n";
                    out << "      <-- " << names(d.predecessors.at(idx));
                    break;
            }
            out << "\n";
        }
        if (!sub.global) out << "\n";  // Kafka prints a global store without the blank line
        result.subtopologies.push_back(std::move(sd));
    }
    result.text = out.str();
    return result;
}

}  // namespace kstreams::detail
