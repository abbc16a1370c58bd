#include "lib/core/topology_groups.hpp"

#include <algorithm>
#include <numeric>
#include <regex>
#include <set>

#include <kstreams/error.hpp>

namespace kstreams::detail {

namespace {

// Messages follow Kafka Streams' TopologyException texts where it has one, and always name the node.
[[noreturn]] void fail(const std::string& msg) { throw topology_error("Invalid topology: " + msg); }

struct union_find {
    std::vector<std::size_t> parent;
    explicit union_find(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
    std::size_t root(std::size_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    }
    void join(std::size_t a, std::size_t b) { parent[root(a)] = root(b); }
};

const char* kind_name(node_kind k) {
    switch (k) {
        case node_kind::source: return "source";
        case node_kind::processor: return "processor";
        case node_kind::sink: return "sink";
    }
    return "node";
}

std::string capitalised(const char* s) {
    std::string r(s);
    if (!r.empty()) r[0] = static_cast<char>(r[0] - 'a' + 'A');
    return r;
}

bool pattern_matches(const std::string& pattern, const std::string& topic, const std::string& source) {
    try {
        return std::regex_match(topic, std::regex(pattern));
    } catch (const std::regex_error& e) {
        fail("source " + source + " has an invalid topic pattern " + pattern + ": " + e.what());
    }
}

void check_sources(const topology_model& m) {
    struct reader {
        std::string topic_or_pattern;
        std::string source;
        bool is_pattern;
    };
    std::vector<reader> seen;
    for (const node_def& d : m.nodes) {
        if (d.kind != node_kind::source) continue;
        if (d.topics.empty() && !d.pattern) fail("source " + d.name + " must read at least one topic or a pattern");
        for (const auto& t : d.topics) {
            if (t.empty()) fail("source " + d.name + " has an empty topic name");
            for (const auto& r : seen) {
                if (!r.is_pattern && r.topic_or_pattern == t)
                    fail("Topic " + t + " has already been registered by another source (" + r.source +
                         "), so source " + d.name + " cannot read it");
                if (r.is_pattern && pattern_matches(r.topic_or_pattern, t, r.source))
                    fail("Topic " + t + " of source " + d.name + " matches the pattern " + r.topic_or_pattern +
                         " already registered by source " + r.source);
            }
            seen.push_back({t, d.name, false});
        }
        if (d.pattern) {
            for (const auto& r : seen)
                if (!r.is_pattern && pattern_matches(*d.pattern, r.topic_or_pattern, d.name))
                    fail("Pattern " + *d.pattern + " of source " + d.name + " will match the topic " +
                         r.topic_or_pattern + " that has already been registered by source " + r.source);
            seen.push_back({*d.pattern, d.name, true});
        }
    }
}

}  // namespace

topology_groups group_topology(const topology_model& m) {
    topology_groups g;
    const std::size_t n = m.nodes.size();
    g.parents.resize(n);
    g.children.resize(n);
    g.node_stores.resize(n);

    for (std::size_t i = 0; i < n; ++i) {
        const node_def& d = m.nodes[i];
        if (d.name.empty()) fail("a " + std::string(kind_name(d.kind)) + " has an empty name");
        if (!g.index_of.emplace(d.name, i).second)
            fail("Processor " + d.name + " is already added: node names must be unique (sources, processors and sinks)");
    }
    check_sources(m);

    for (std::size_t i = 0; i < n; ++i) {
        const node_def& d = m.nodes[i];
        if (d.kind == node_kind::source) continue;
        const std::string what = capitalised(kind_name(d.kind)) + " " + d.name;
        if (d.parents.empty()) fail(what + " must have at least one parent; it is not connected to any source");
        for (const auto& p : d.parents) {
            if (p == d.name) fail(what + " cannot be a predecessor of itself");
            auto it = g.index_of.find(p);
            if (it == g.index_of.end()) fail("Predecessor processor " + p + " of " + d.name + " is not added");
            const node_def& parent = m.nodes[it->second];
            if (parent.kind == node_kind::sink) fail("Sink " + p + " cannot be used as a parent (of " + d.name + ")");
            if (std::find(g.parents[i].begin(), g.parents[i].end(), it->second) != g.parents[i].end())
                fail(what + " names its parent " + p + " twice");
            if (parent.global && !d.global)
                fail(what + " cannot read from " + p + ": it belongs to a global store (its update processor forwards nothing)");
            if (parent.out_type != d.in_type)
                fail(what + " takes " + describe_type(d.in_type) + " but its parent " + p + " forwards " +
                     describe_type(parent.out_type));
            g.parents[i].push_back(it->second);
            g.children[it->second].push_back(i);
        }
    }

    // Cycles (possible because parents may be named before they are added): depth-first search,
    // reporting the nodes on the cycle.
    std::vector<int> colour(n, 0);
    std::vector<std::size_t> topo, path;
    auto visit = [&](auto& self, std::size_t v) -> void {
        colour[v] = 1;
        path.push_back(v);
        for (auto c : g.children[v]) {
            if (colour[c] == 1) {
                std::string cycle;
                auto from = std::find(path.begin(), path.end(), c);
                for (auto it = from; it != path.end(); ++it) cycle += m.nodes[*it].name + " -> ";
                fail("the nodes form a cycle: " + cycle + m.nodes[c].name);
            }
            if (colour[c] == 0) self(self, c);
        }
        path.pop_back();
        colour[v] = 2;
        topo.push_back(v);
    };
    for (std::size_t i = 0; i < n; ++i)
        if (colour[i] == 0) visit(visit, i);
    std::reverse(topo.begin(), topo.end());

    // Stores and their processors.
    std::map<std::string, std::size_t, std::less<>> store_index;
    for (std::size_t s = 0; s < m.stores.size(); ++s) {
        if (!m.stores[s].builder) fail("a state store was added without a store builder");
        const std::string& name = m.stores[s].builder->name();
        if (name.empty()) fail("a state store has an empty name");
        auto [it, fresh] = store_index.emplace(name, s);
        // Adding the same builder twice is allowed (Kafka Streams: the same StoreBuilder instance).
        if (!fresh && m.stores[it->second].builder != m.stores[s].builder)
            fail("A different StateStore has already been added with the name " + name);
        if (!fresh && m.stores[it->second].global != m.stores[s].global)
            fail("StateStore " + name + " is added both as a global store and as a store of stream tasks");
        if (m.stores[s].global) {
            if (m.stores[s].builder->logging_enabled())
                fail("StateStore " + name + " for global table must not have logging enabled.");
            if (fresh) g.global_stores.push_back(s);
        }
    }
    auto connect = [&](const std::string& proc, const std::string& store) {
        if (!store_index.contains(store))
            fail("StateStore " + store + " is not added yet, so processor " + proc + " cannot be connected to it");
        auto it = g.index_of.find(proc);
        if (it == g.index_of.end()) fail("Processor " + proc + " is not added yet, so store " + store + " cannot be connected to it");
        if (m.nodes[it->second].kind != node_kind::processor)
            fail("cannot connect the state store " + store + " to the " + kind_name(m.nodes[it->second].kind) + " " + proc +
                 ": stores can be connected only to processors");
        const bool global_store = m.stores[store_index.at(store)].global;
        if (global_store && !m.nodes[it->second].global)
            fail("Global StateStore " + store + " can be used by a Processor without being specified; it should not be "
                 "explicitly passed (processor " + proc + ")");
        if (!global_store && m.nodes[it->second].global)
            fail("the update processor " + proc + " of a global store cannot be connected to the non-global store " + store);
        auto& v = g.node_stores[it->second];
        if (std::find(v.begin(), v.end(), store) == v.end()) v.push_back(store);
    };
    for (const auto& s : m.stores)
        for (const auto& p : s.processors) connect(p, s.builder->name());
    for (std::size_t i = 0; i < n; ++i)
        for (const auto& s : m.nodes[i].stores) connect(m.nodes[i].name, s);
    for (const auto& [p, stores] : m.pending_connections) {
        if (stores.empty()) fail("connecting processor " + p + " to state stores: provide at least one state store name");
        for (const auto& s : stores) connect(p, s);
    }

    // Sub-topologies: nodes joined by edges or by a shared store.
    union_find uf(n);
    for (std::size_t i = 0; i < n; ++i)
        for (auto p : g.parents[i]) uf.join(i, p);
    std::map<std::string, std::size_t> store_first_user;
    for (std::size_t i = 0; i < n; ++i)
        for (const auto& s : g.node_stores[i]) {
            auto [it, fresh] = store_first_user.emplace(s, i);
            if (!fresh) uf.join(i, it->second);
        }

    // Ids in the order the groups' first nodes were added (Kafka Streams since 2.4, KAFKA-9020:
    // upstream sub-topologies come first; before that, sorted source names decided).
    std::map<std::size_t, int> root_to_id;
    for (std::size_t i = 0; i < n; ++i) {
        auto [it, fresh] = root_to_id.emplace(uf.root(i), static_cast<int>(root_to_id.size()));
        if (fresh) g.subtopologies.push_back({it->second, {}, {}, {}, {}, {}});
    }
    for (auto i : topo) g.subtopologies[static_cast<std::size_t>(root_to_id[uf.root(i)])].nodes.push_back(i);

    // Sub-tree sizes (paths counted, as Kafka Streams counts them) for the description's order:
    // bigger sub-trees first, then by name.
    std::vector<std::size_t> size(n, 0);
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
        size[*it] = 1;
        for (auto c : g.children[*it]) size[*it] += size[c];
    }
    for (auto& sub : g.subtopologies) {
        sub.describe_order = sub.nodes;
        std::sort(sub.describe_order.begin(), sub.describe_order.end(), [&](std::size_t a, std::size_t b) {
            if (size[a] != size[b]) return size[a] > size[b];
            return m.nodes[a].name < m.nodes[b].name;
        });
        std::set<std::size_t> stores;
        for (auto i : sub.nodes) {
            const node_def& d = m.nodes[i];
            if (d.global) sub.global = true;
            if (d.kind == node_kind::source) {
                sub.source_topics.insert(sub.source_topics.end(), d.topics.begin(), d.topics.end());
                if (d.pattern) sub.source_patterns.push_back(*d.pattern);
            }
            for (const auto& s : g.node_stores[i]) stores.insert(store_index[s]);
        }
        sub.stores.assign(stores.begin(), stores.end());
        // Unreachable for an acyclic graph whose nodes all have parents; kept as a guard.
        if (sub.source_topics.empty() && sub.source_patterns.empty())
            fail("processor " + m.nodes[sub.nodes.front()].name + " is not connected to any source");
    }
    return g;
}

}  // namespace kstreams::detail
