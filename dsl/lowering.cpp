// Lowering: the DSL's logical graph -> a topology. The graph is first expanded into Kafka Streams'
// shape (a repartition topic is a node of its own: filter -> sink -> topic -> source), rewritten by
// the optimizations topology.optimization asks for (dsl/optimize.cpp), then written in the order
// the DSL calls made the nodes (Kafka Streams' build priority). Key-based consumers of the same
// upstream node share a repartition topic where Kafka's do.
#include <algorithm>
#include <map>
#include <tuple>

#include <kstreams/detail/recompute_store.hpp>
#include <kstreams/detail/topology_writer.hpp>
#include <kstreams/error.hpp>
#include <kstreams/topology.hpp>

#include "dsl/lowered_graph.hpp"

namespace kstreams::dsl_detail {

namespace {

using kstreams::detail::node_def;
using kstreams::detail::node_kind;
using kstreams::detail::topology_writer;

/// Writes (filter ->) sink -> source for a repartition. Only a repartition without a filter (a
/// foreign-key join's response topic) has more than one parent.
void write_repartition(topology& t, const repartition_spec& s, std::vector<std::string> parents, bool drop_null_keys) {
    if (!s.filter_name.empty()) {
        node_def f;
        f.kind = node_kind::processor;
        f.name = s.filter_name;
        f.parents = std::move(parents);
        f.in_type = f.out_type = s.record_type;
        f.make = [make = s.make_filter, drop_null_keys] { return make(drop_null_keys); };
        topology_writer::add_node(t, std::move(f));
        parents = {s.filter_name};
    }
    node_def sink;
    sink.kind = node_kind::sink;
    sink.name = s.sink_name;
    sink.parents = std::move(parents);
    sink.in_type = s.record_type;
    sink.topic = s.topic;
    sink.internal_topic = true;
    sink.make = [make = s.make_sink, n = s.sink_name, topic = s.topic] { return make(n, topic); };
    topology_writer::add_node(t, std::move(sink));

    node_def src;
    src.kind = node_kind::source;
    src.name = s.source_name;
    src.topics = {s.topic};
    src.out_type = s.record_type;
    src.internal_topic = true;
    src.make = [make = s.make_source, n = s.source_name] { return make(n); };
    topology_writer::add_node(t, std::move(src));

    topology_writer::add_repartition_topic(t, s.topic, s.partitions);
}

/// The topics of the sources upstream of graph node i (a repartition's topic stands for what
/// feeds it; a merged repartition's for the ones it replaced).
void collect_source_topics(const std::vector<graph_node>& nodes, const lowered_graph& lg, std::size_t i,
                           std::vector<std::string>& out) {
    const graph_node& g = nodes.at(i);
    if (g.repartition) {
        auto it = lg.merged_topic_of.find(i);
        out.push_back(it == lg.merged_topic_of.end() ? g.repartition->topic : it->second);
        return;
    }
    if (g.kind == node_kind::source) {
        out.insert(out.end(), g.topics.begin(), g.topics.end());
        return;
    }
    for (std::size_t p : g.parents) collect_source_topics(nodes, lg, p, out);
}

using share_key_t = std::tuple<std::size_t, std::type_index, std::string>;

}  // namespace

lowered_graph expand(const std::vector<graph_node>& nodes) {
    lowered_graph lg;
    std::vector<std::size_t> node_of(nodes.size());  // graph node -> the lnode its children read
    std::map<share_key_t, std::size_t> shared;       // a shared repartition topic's lnode
    auto add = [&](lnode n) {
        n.order = {lg.nodes.size(), 0};
        lg.nodes.push_back(std::move(n));
        return lg.nodes.size() - 1;
    };
    const auto merged_into = merged_sources(nodes);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const graph_node& g = nodes[i];
        if (merged_into[i]) {
            node_of[i] = node_of[*merged_into[i]];
            continue;
        }
        std::vector<std::size_t> parents;
        for (std::size_t p : g.parents) parents.push_back(node_of[p]);
        if (g.repartition && g.kind == node_kind::source) {
            // A repartition node of its own (repartition(), a join's or to_table()'s).
            lnode n;
            n.graph = i;
            n.rep = &*g.repartition;
            n.parents = std::move(parents);
            node_of[i] = add(std::move(n));
            continue;
        }
        if (g.repartition) {
            // An aggregation reading through a repartition topic, shared by named groupings.
            const repartition_spec& s = *g.repartition;
            if (g.parents.size() != 1)
                throw topology_error("DSL node " + g.name + " needs a repartition but has " +
                                     std::to_string(g.parents.size()) + " parents");
            const share_key_t key{g.parents.front(), s.record_type, s.share_key};
            std::size_t r;
            if (auto it = shared.find(key); s.shareable && it != shared.end()) {
                r = it->second;
            } else {
                lnode rn;
                rn.rep = &s;
                rn.parents = std::move(parents);
                r = add(std::move(rn));
                if (s.shareable) shared.emplace(key, r);
            }
            parents = {r};
        }
        lnode n;
        n.graph = i;
        n.parents = std::move(parents);
        node_of[i] = add(std::move(n));
    }
    lg.lnode_of = std::move(node_of);
    return lg;
}

topology builder_state::build(const optimizations& opt) const {
    lowered_graph lg = expand(nodes_);
    if (opt.merge_repartition_topics) merge_repartition_topics(nodes_, lg);
    if (opt.single_store_self_join) plan_self_joins(nodes_, lg);

    // Write order: the DSL's call order, a merged repartition right after its key-changing node.
    std::vector<std::size_t> order;
    for (std::size_t n = 0; n < lg.nodes.size(); ++n)
        if (!lg.nodes[n].removed) order.push_back(n);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return lg.nodes[a].order < lg.nodes[b].order; });

    // A stream repartition keeps null keys iff a join that takes them is downstream (Kafka's
    // NodesWithRelaxedNullKeyJoinDownstream); parents are written before their children.
    std::vector<bool> relaxed(lg.nodes.size(), false);
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const lnode& n = lg.nodes[*it];
        if (n.graph && !n.rep && nodes_[*n.graph].null_key_relaxed_join) relaxed[*it] = true;
        if (relaxed[*it])
            for (std::size_t p : n.parents) relaxed[p] = true;
    }

    auto name_of = [&](std::size_t n) -> const std::string& {
        const lnode& l = lg.nodes[n];
        return l.rep ? l.rep->source_name : nodes_[*l.graph].name;
    };
    topology t;
    for (std::size_t n : order) {
        const lnode& l = lg.nodes[n];
        if (l.rep) {
            if (l.parents.empty() || (l.parents.size() > 1 && !l.rep->filter_name.empty()))
                throw topology_error("repartition topic " + l.rep->topic + " has " + std::to_string(l.parents.size()) + " parents");
            std::vector<std::string> parents;
            for (std::size_t p : l.parents) parents.push_back(name_of(p));
            write_repartition(t, *l.rep, std::move(parents), !relaxed[n]);
            continue;
        }
        const graph_node& g = nodes_[*l.graph];
        node_def d;
        d.kind = g.kind;
        d.name = g.name;
        d.in_type = g.in_type;
        d.out_type = g.out_type;
        d.make = l.make ? l.make : g.make;
        d.stores = l.make ? l.connected_stores : g.connected_stores;
        d.global = g.global;
        for (std::size_t p : l.parents) d.parents.push_back(name_of(p));
        switch (g.kind) {
            case node_kind::source:
                d.topics = g.topics;
                d.pattern = g.pattern;
                d.extractor = g.extractor;
                d.reset = g.reset;
                break;
            case node_kind::sink:
                d.topic = g.topic;
                break;
            case node_kind::processor:
                break;
        }
        topology_writer::add_node(t, std::move(d));
        if (g.store_if && !g.store_if()) continue;
        const bool reuse_source = opt.reuse_ktable_source_topics && !g.table_source_topic.empty() && g.unlogged_store;
        for (const auto& b : g.stores) {
            if (const auto* r = kstreams::detail::as_recompute(*b); r && !r->bounded())
                throw topology_error("store " + b->name() + " of " + g.name +
                                     ": recovery::recompute is for windowed aggregations only, whose state is bounded "
                                     "by their windows and grace; this store keeps its rows for all time (no "
                                     "windows, or unlimited windows, which never close), so it needs "
                                     "recovery::changelog (the default)");
            if (const auto* r = kstreams::detail::as_recompute(*b); r && !r->not_yet().empty())
                throw topology_error("store " + b->name() + " of " + g.name + ": recovery::recompute does not hold " +
                                     "input offsets for " + r->not_yet() + " yet; use recovery::changelog (the default)");
            if (g.global) {
                t.add_global_state_store(b);  // connected through d.stores
                // A global table's store is its topic's rows as they are: restored raw from it,
                // where add_global_store's (no table_source_topic) are restored through their
                // update processor.
                topology_writer::use_source_topic_as_changelog(t, b->name(), g.table_source_topic);
            } else if (reuse_source) {
                // Kafka's TableSourceNode with reuseSourceTopicForChangeLog: no changelog of its
                // own; the source topic is restored from.
                t.add_state_store(g.unlogged_store, {g.name});
                topology_writer::use_source_topic_as_changelog(t, g.unlogged_store->name(), g.table_source_topic);
            } else {
                t.add_state_store(b, {g.name});
            }
        }
    }
    for (const auto& b : user_stores_) t.add_state_store(b, {});
    for (const auto& group : copartition_groups_) {
        std::vector<std::string> topics;
        for (std::size_t i : group) collect_source_topics(nodes_, lg, i, topics);
        topology_writer::add_copartition_group(t, std::move(topics));
    }
    t.validate();
    return t;
}

}  // namespace kstreams::dsl_detail
