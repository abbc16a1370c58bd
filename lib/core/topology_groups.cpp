#include "lib/core/topology_groups.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>

#include <kstreams/error.hpp>

namespace kstreams::detail {

namespace {

[[noreturn]] void fail(const std::string& msg) { throw topology_error("invalid topology: " + msg); }

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
        if (!g.index_of.emplace(d.name, i).second) fail("node name " + d.name + " is used more than once");
    }

    std::map<std::string, std::string> topic_owner;
    for (std::size_t i = 0; i < n; ++i) {
        const node_def& d = m.nodes[i];
        if (d.kind == node_kind::source) {
            if (d.topics.empty() && !d.pattern) fail("source " + d.name + " has no topics");
            for (const auto& t : d.topics) {
                if (t.empty()) fail("source " + d.name + " has an empty topic name");
                auto [it, fresh] = topic_owner.emplace(t, d.name);
                if (!fresh) fail("topic " + t + " is read by both source " + it->second + " and source " + d.name);
            }
            continue;
        }
        if (d.parents.empty()) fail(std::string(kind_name(d.kind)) + " " + d.name + " has no parent");
        for (const auto& p : d.parents) {
            auto it = g.index_of.find(p);
            if (it == g.index_of.end()) fail(std::string(kind_name(d.kind)) + " " + d.name + ": parent " + p + " does not exist");
            const node_def& parent = m.nodes[it->second];
            if (parent.kind == node_kind::sink) fail("sink " + p + " cannot be the parent of " + d.name);
            if (it->second == i) fail("processor " + d.name + " is its own parent");
            if (std::find(g.parents[i].begin(), g.parents[i].end(), it->second) != g.parents[i].end())
                fail(d.name + ": parent " + p + " is named twice");
            if (parent.out_type != d.in_type)
                fail(std::string(kind_name(d.kind)) + " " + d.name + " takes " + describe_type(d.in_type) + " but its parent " +
                     p + " forwards " + describe_type(parent.out_type));
            g.parents[i].push_back(it->second);
            g.children[it->second].push_back(i);
        }
    }

    // Cycles: depth-first search with colours.
    std::vector<int> colour(n, 0);
    std::vector<std::size_t> topo;
    std::function<void(std::size_t)> visit = [&](std::size_t v) {
        colour[v] = 1;
        for (auto c : g.children[v]) {
            if (colour[c] == 1) fail("cycle: " + m.nodes[v].name + " -> " + m.nodes[c].name + " leads back to itself");
            if (colour[c] == 0) visit(c);
        }
        colour[v] = 2;
        topo.push_back(v);
    };
    for (std::size_t i = 0; i < n; ++i)
        if (colour[i] == 0) visit(i);
    std::reverse(topo.begin(), topo.end());
    for (std::size_t i = 0; i < n; ++i)
        if (m.nodes[i].kind != node_kind::source) {
            // A processor reachable only from itself (a cycle with no source) was caught above; a
            // processor must reach back to some source.
        }

    // Stores and their processors.
    std::map<std::string, std::size_t, std::less<>> store_index;
    for (std::size_t s = 0; s < m.stores.size(); ++s) {
        const std::string& name = m.stores[s].builder->name();
        if (!store_index.emplace(name, s).second) fail("store name " + name + " is used more than once");
    }
    auto connect = [&](const std::string& proc, const std::string& store) {
        auto it = g.index_of.find(proc);
        if (it == g.index_of.end()) fail("store " + store + ": processor " + proc + " does not exist");
        if (m.nodes[it->second].kind != node_kind::processor)
            fail("store " + store + " can be connected only to processors, not to " + kind_name(m.nodes[it->second].kind) + " " + proc);
        if (!store_index.contains(store)) fail("processor " + proc + ": store " + store + " does not exist");
        auto& v = g.node_stores[it->second];
        if (std::find(v.begin(), v.end(), store) == v.end()) v.push_back(store);
    };
    for (const auto& s : m.stores)
        for (const auto& p : s.processors) connect(p, s.builder->name());
    for (std::size_t i = 0; i < n; ++i)
        for (const auto& s : m.nodes[i].stores) connect(m.nodes[i].name, s);
    for (const auto& [p, stores] : m.pending_connections)
        for (const auto& s : stores) connect(p, s);

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

    // Ids in the order of sorted source names, then sorted other names (as Kafka Streams does).
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const bool sa = m.nodes[a].kind == node_kind::source, sb = m.nodes[b].kind == node_kind::source;
        if (sa != sb) return sa;
        return m.nodes[a].name < m.nodes[b].name;
    });
    std::map<std::size_t, int> root_to_id;
    for (auto i : order) {
        auto [it, fresh] = root_to_id.emplace(uf.root(i), static_cast<int>(root_to_id.size()));
        if (fresh) g.subtopologies.push_back({it->second, {}, {}, {}, {}, {}});
    }
    for (auto i : topo) g.subtopologies[root_to_id[uf.root(i)]].nodes.push_back(i);

    // Subtree sizes for the description's order: bigger subtrees first, then by name.
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
            if (d.kind == node_kind::source) {
                sub.source_topics.insert(sub.source_topics.end(), d.topics.begin(), d.topics.end());
                if (d.pattern) sub.source_patterns.push_back(*d.pattern);
            }
            for (const auto& s : g.node_stores[i]) stores.insert(store_index[s]);
        }
        sub.stores.assign(stores.begin(), stores.end());
        if (sub.source_topics.empty() && sub.source_patterns.empty()) {
            fail("processor " + m.nodes[sub.nodes.front()].name + " is not connected to any source");
        }
    }
    return g;
}

}  // namespace kstreams::detail
