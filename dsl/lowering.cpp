// Lowering: the DSL's logical graph -> a topology, in one pass over the nodes in the order the DSL
// calls made them (Kafka Streams' build priority). Repartition topics are written where a node asks
// for one; key-based consumers of the same upstream node share it.
#include <map>
#include <tuple>

#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/error.hpp>
#include <kstreams/topology.hpp>

namespace kstreams::dsl_detail {

namespace {

using kstreams::detail::node_def;
using kstreams::detail::node_kind;

/// Writes (filter ->) sink -> source for a repartition and returns the source's name.
std::string write_repartition(topology& t, const repartition_spec& s, const std::string& parent, bool drop_null_keys) {
    std::string upstream = parent;
    if (!s.filter_name.empty()) {
        node_def f;
        f.kind = node_kind::processor;
        f.name = s.filter_name;
        f.parents = {upstream};
        f.in_type = f.out_type = s.record_type;
        f.make = [make = s.make_filter, drop_null_keys] { return make(drop_null_keys); };
        t.add_node(std::move(f));
        upstream = s.filter_name;
    }
    node_def sink;
    sink.kind = node_kind::sink;
    sink.name = s.sink_name;
    sink.parents = {upstream};
    sink.in_type = s.record_type;
    sink.topic = s.topic;
    sink.internal_topic = true;
    sink.make = [make = s.make_sink, n = s.sink_name, topic = s.topic] { return make(n, topic); };
    t.add_node(std::move(sink));

    node_def src;
    src.kind = node_kind::source;
    src.name = s.source_name;
    src.topics = {s.topic};
    src.out_type = s.record_type;
    src.internal_topic = true;
    src.make = [make = s.make_source, n = s.source_name] { return make(n); };
    t.add_node(std::move(src));

    t.mutable_model().repartition_topics.push_back({s.topic, s.partitions});
    return s.source_name;
}

/// The topics of the sources upstream of node i (a repartition's topic stands for what feeds it).
void collect_source_topics(const std::vector<graph_node>& nodes, std::size_t i, std::vector<std::string>& out) {
    const graph_node& g = nodes.at(i);
    if (g.repartition) {
        out.push_back(g.repartition->topic);
        return;
    }
    if (g.kind == node_kind::source) {
        out.insert(out.end(), g.topics.begin(), g.topics.end());
        return;
    }
    for (std::size_t p : g.parents) collect_source_topics(nodes, p, out);
}

using share_key_t = std::tuple<std::size_t, std::type_index, std::string>;

share_key_t share_key_of(const graph_node& g) {
    return {g.parents.front(), g.repartition->record_type, g.repartition->share_key};
}

/// Per node: a join taking null-key records is at or below it (Kafka's
/// NodesWithRelaxedNullKeyJoinDownstream). Parents always come before their children.
std::vector<bool> relaxed_join_at_or_below(const std::vector<graph_node>& nodes) {
    std::vector<bool> out(nodes.size(), false);
    for (std::size_t i = nodes.size(); i-- > 0;) {
        if (nodes[i].null_key_relaxed_join) out[i] = true;
        if (out[i])
            for (std::size_t p : nodes[i].parents) out[p] = true;
    }
    return out;
}

}  // namespace

topology builder_state::build() const {
    topology t;
    // A stream repartition keeps null keys iff a relaxed join is downstream of it; a shared topic
    // keeps them if one of its readers needs them.
    const std::vector<bool> relaxed = relaxed_join_at_or_below(nodes_);
    std::map<share_key_t, bool> shared_keeps_null_keys;
    for (std::size_t i = 0; i < nodes_.size(); ++i)
        if (nodes_[i].repartition && nodes_[i].repartition->shareable && !nodes_[i].parents.empty())
            shared_keeps_null_keys[share_key_of(nodes_[i])] = shared_keeps_null_keys[share_key_of(nodes_[i])] || relaxed[i];
    // (upstream node, record type) -> source of the repartition topic already written for it
    std::map<share_key_t, std::string> shared;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        const graph_node& g = nodes_[i];
        node_def d;
        d.kind = g.kind;
        d.name = g.name;
        d.in_type = g.in_type;
        d.out_type = g.out_type;
        d.make = g.make;
        d.stores = g.connected_stores;
        d.global = g.global;
        for (std::size_t p : g.parents) d.parents.push_back(nodes_.at(p).name);
        if (g.repartition && g.kind == node_kind::source) {
            // A repartition node of its own (repartition(), a join's or to_table()'s): the node is
            // the topic's source.
            write_repartition(t, *g.repartition, d.parents.front(), !relaxed[i]);
            continue;
        }
        if (g.repartition) {
            const repartition_spec& s = *g.repartition;
            if (g.parents.size() != 1)
                throw topology_error("DSL node " + g.name + " needs a repartition but has " +
                                     std::to_string(g.parents.size()) + " parents");
            const share_key_t key = share_key_of(g);
            std::string source;
            if (auto it = shared.find(key); s.shareable && it != shared.end()) {
                source = it->second;
            } else {
                source = write_repartition(t, s, d.parents.front(), !(s.shareable ? shared_keeps_null_keys.at(key) : relaxed[i]));
                if (s.shareable) shared.emplace(key, source);
            }
            d.parents = {source};
        }
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
        t.add_node(std::move(d));
        if (!g.store_if || g.store_if())
            for (const auto& b : g.stores) {
                if (g.global) t.add_global_state_store(b);  // connected through d.stores
                else t.add_state_store(b, {g.name});
            }
    }
    for (const auto& b : user_stores_) t.add_state_store(b, {});
    for (const auto& group : copartition_groups_) {
        std::vector<std::string> topics;
        for (std::size_t i : group) collect_source_topics(nodes_, i, topics);
        t.mutable_model().copartition_groups.push_back(std::move(topics));
    }
    t.validate();
    return t;
}

}  // namespace kstreams::dsl_detail
