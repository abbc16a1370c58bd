// topology.optimization: the rewrites Kafka Streams' InternalStreamsBuilder.optimizeTopology makes
// to its graph before writing it, made to the lowered graph (dsl/lowered_graph.hpp) with the same
// rules, so names, topics and the flow of records come out as Kafka's.
#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <kstreams/error.hpp>

#include "dsl/lowered_graph.hpp"

namespace kstreams::dsl_detail {

optimizations optimizations::parse(std::string_view value) {
    static constexpr std::string_view reuse = "reuse.ktable.source.topics", merge = "merge.repartition.topics",
                                      self_join = "single.store.self.join";
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        const std::size_t comma = value.find(',', start);
        std::string_view part = value.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
        while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
        parts.push_back(part);
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    const auto bad = [&] {
        return std::invalid_argument("topology.optimization=" + std::string(value) +
                                     ": expected none, all, or a comma-separated list of reuse.ktable.source.topics, "
                                     "merge.repartition.topics, single.store.self.join");
    };
    optimizations o;
    const bool none_or_all = std::ranges::any_of(parts, [](std::string_view p) { return p == "none" || p == "all"; });
    if (none_or_all && parts.size() > 1) throw bad();
    for (std::string_view p : parts) {
        if (p == "all") o.reuse_ktable_source_topics = o.merge_repartition_topics = o.single_store_self_join = true;
        else if (p == reuse) o.reuse_ktable_source_topics = true;
        else if (p == merge) o.merge_repartition_topics = true;
        else if (p == self_join) o.single_store_self_join = true;
        else if (p != "none") throw bad();
    }
    return o;
}

namespace {

/// Parent and child lists of the lowered graph, edited together (Kafka's GraphNode.addChild,
/// removeChild, clearChildren).
class graph_edit {
public:
    explicit graph_edit(lowered_graph& lg) : lg_(lg), children_(lg.nodes.size()) {
        for (std::size_t n = 0; n < lg.nodes.size(); ++n)
            for (std::size_t p : lg.nodes[n].parents) children_[p].push_back(n);
    }
    std::size_t add(lnode n) {
        lg_.nodes.push_back(std::move(n));
        children_.emplace_back();
        return lg_.nodes.size() - 1;
    }
    const std::vector<std::size_t>& parents(std::size_t n) const { return lg_.nodes[n].parents; }
    const std::vector<std::size_t>& children(std::size_t n) const { return children_[n]; }
    void add_child(std::size_t parent, std::size_t child) {
        insert(children_[parent], child);
        insert(lg_.nodes[child].parents, parent);
    }
    void remove_child(std::size_t parent, std::size_t child) {
        if (erase(children_[parent], child)) erase(lg_.nodes[child].parents, parent);
    }
    void clear_children(std::size_t n) {
        for (std::size_t c : children_[n]) erase(lg_.nodes[c].parents, n);
        children_[n].clear();
    }

    /// Kafka's findParentNodeMatching, quirks kept: the start node first, then each parent (the
    /// first that matches), else what the search above the last parent found.
    std::optional<std::size_t> find_parent_matching(std::size_t start, const std::function<bool(std::size_t)>& pred) const {
        if (pred(start)) return start;
        std::optional<std::size_t> found;
        for (std::size_t p : parents(start)) {
            if (pred(p)) return p;
            found = find_parent_matching(p, pred);
        }
        return found;
    }

private:
    static void insert(std::vector<std::size_t>& v, std::size_t x) {
        if (std::ranges::find(v, x) == v.end()) v.push_back(x);
    }
    static bool erase(std::vector<std::size_t>& v, std::size_t x) {
        auto it = std::ranges::find(v, x);
        if (it == v.end()) return false;
        v.erase(it);
        return true;
    }
    lowered_graph& lg_;
    std::vector<std::vector<std::size_t>> children_;
};

bool contains(const std::vector<std::size_t>& v, std::size_t x) { return std::ranges::find(v, x) != v.end(); }

/// The repartitions to merge per key-changing node, in Kafka's order (a LinkedHashMap).
using repartitions_by_key_changer = std::vector<std::pair<std::size_t, std::vector<std::size_t>>>;

std::vector<std::size_t>* entry_of(repartitions_by_key_changer& m, std::size_t key) {
    for (auto& [k, v] : m)
        if (k == key) return &v;
    return nullptr;
}

}  // namespace

void merge_repartition_topics(const std::vector<graph_node>& nodes, lowered_graph& lg) {
    graph_edit e(lg);
    auto flag = [&](std::size_t n, bool graph_node::*f) {
        const lnode& l = lg.nodes[n];
        return l.graph && !l.rep && nodes[*l.graph].*f;
    };
    // Kafka's keyChangingOperationsToOptimizableRepartitionNodes and mergeNodes, filled in the
    // order nodes were added. A repartition belongs to the nearest key-changing node above it,
    // unless a value-changing one is nearer.
    repartitions_by_key_changer by_kc;
    std::vector<std::size_t> merge_nodes;
    const std::size_t count = lg.nodes.size();
    for (std::size_t n = 0; n < count; ++n) {
        const lnode& l = lg.nodes[n];
        if (flag(n, &graph_node::key_changing)) {
            by_kc.emplace_back(n, std::vector<std::size_t>{});
        } else if (l.rep && l.rep->optimizable) {
            auto kc_or_vc = e.find_parent_matching(n, [&](std::size_t x) {
                return flag(x, &graph_node::key_changing) || flag(x, &graph_node::value_changing);
            });
            auto kc = e.find_parent_matching(n, [&](std::size_t x) { return flag(x, &graph_node::key_changing); });
            if (kc_or_vc && kc_or_vc == kc)
                if (auto* entry = entry_of(by_kc, *kc); entry && !contains(*entry, n)) entry->push_back(n);
        } else if (flag(n, &graph_node::merge)) {
            merge_nodes.push_back(n);
        }
    }

    // A merge node below key-changing nodes whose repartitions all are below it takes their
    // repartitions over (Kafka's maybeUpdateKeyChangingRepartitionNodeMap).
    std::vector<std::pair<std::size_t, std::vector<std::size_t>>> merge_to_kcs;
    std::vector<std::size_t> folded;
    for (std::size_t m : merge_nodes) {
        std::vector<std::size_t> kcs;
        for (const auto& [kc, reps] : by_kc) {
            const bool all_below = std::ranges::all_of(reps, [&](std::size_t r) {
                return e.find_parent_matching(r, [&](std::size_t x) { return contains(e.parents(x), m); }).has_value();
            });
            if (all_below && e.find_parent_matching(m, [&](std::size_t x) { return contains(e.parents(x), kc); }))
                kcs.push_back(kc);
        }
        merge_to_kcs.emplace_back(m, std::move(kcs));
    }
    for (const auto& [m, kcs] : merge_to_kcs) {
        std::vector<std::size_t> reps;
        for (std::size_t kc : kcs) {
            for (std::size_t r : *entry_of(by_kc, kc))
                if (!contains(reps, r)) reps.push_back(r);
            folded.push_back(kc);
        }
        if (auto* entry = entry_of(by_kc, m)) *entry = std::move(reps);
        else by_kc.emplace_back(m, std::move(reps));
    }
    std::erase_if(by_kc, [&](const auto& entry) { return contains(folded, entry.first); });

    for (const auto& [kc, reps] : by_kc) {
        if (reps.empty()) continue;
        // One repartition in place of them all, named after the first one's topic, written right
        // after the key-changing node.
        const repartition_spec& first = *lg.nodes[reps.front()].rep;
        for (std::size_t r : reps)
            if (lg.nodes[r].rep->record_type != first.record_type)
                throw topology_error("topology.optimization=merge.repartition.topics: repartition topics " + first.topic + " and " +
                                     lg.nodes[r].rep->topic + " carry different record types and cannot be merged");
        repartition_spec& merged = lg.merged_specs.emplace_back(first);
        merged.sink_name = merged.topic + "-sink";
        merged.filter_name = first.filter_name.empty() ? std::string() : merged.topic + "-filter";
        merged.source_name = merged.topic + "-source";
        merged.partitions.reset();
        merged.shareable = false;
        lnode on;
        on.rep = &merged;
        on.order = {lg.nodes[kc].order.first, 1};
        const std::size_t opt = e.add(std::move(on));
        for (std::size_t r : reps) {
            auto kc_child = e.find_parent_matching(r, [&](std::size_t x) { return contains(e.parents(x), kc); });
            if (!kc_child)
                throw topology_error("topology.optimization=merge.repartition.topics: repartition topic " + lg.nodes[r].rep->topic +
                                     " has no path to the key-changing operation above it any more (an operation "
                                     "shared by two repartitions of it was moved below the first); Kafka Streams "
                                     "refuses this topology too");
            e.add_child(opt, *kc_child);
            e.remove_child(kc, *kc_child);
            const std::vector<std::size_t> r_children = e.children(r), r_parents = e.parents(r);
            for (std::size_t c : r_children)
                for (std::size_t p : r_parents) e.add_child(p, c);
            for (std::size_t p : r_parents) e.remove_child(p, r);
            e.clear_children(r);
            lg.nodes[r].removed = true;
            if (lg.nodes[r].graph) lg.merged_topic_of[*lg.nodes[r].graph] = merged.topic;
        }
        e.add_child(kc, opt);
    }
}

void plan_self_joins(const std::vector<graph_node>& nodes, lowered_graph& lg) {
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const auto& plan = nodes[i].self_join;
        if (!plan) continue;
        // Only the this-side windowed node is left; the self-join processor reads its store.
        const std::size_t this_windowed = lg.lnode_of[nodes[plan->this_join].parents.front()];
        for (std::size_t dropped : {plan->other_windowed, plan->this_join, plan->other_join})
            lg.nodes[lg.lnode_of[dropped]].removed = true;
        lnode& m = lg.nodes[lg.lnode_of[i]];
        m.parents = {this_windowed};
        m.make = plan->make;
        m.connected_stores = {plan->store};
    }
}

}  // namespace kstreams::dsl_detail
