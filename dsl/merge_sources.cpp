// Streams of the same topics become one source (Kafka's InternalStreamsBuilder
// .mergeDuplicateSourceNodes, done before any optimization): calling stream("in") twice is allowed,
// the second source's operators hang below the first's source.
#include <algorithm>
#include <map>
#include <set>

#include <kstreams/error.hpp>

#include "dsl/lowered_graph.hpp"

namespace kstreams::dsl_detail {

namespace {

using kstreams::detail::node_kind;

/// A stream()'s source: not a repartition's, a global table's or store's, nor a table()'s
/// (Kafka merges StreamSourceNodes only; a table()'s source is written with its KTABLE-SOURCE).
bool is_stream_source(const std::vector<graph_node>& nodes, std::size_t i) {
    const graph_node& g = nodes[i];
    if (g.kind != node_kind::source || g.repartition || g.global) return false;
    return std::none_of(nodes.begin(), nodes.end(), [i](const graph_node& c) {
        return !c.table_source_topic.empty() && c.parents.size() == 1 && c.parents.front() == i;
    });
}

std::string joined(const std::set<std::string>& topics) {
    std::string out;
    for (const auto& t : topics) out += (out.empty() ? "" : ", ") + t;
    return out;
}

}  // namespace

std::vector<std::optional<std::size_t>> merged_sources(const std::vector<graph_node>& nodes) {
    std::vector<std::optional<std::size_t>> into(nodes.size());
    std::map<std::string, std::size_t> by_topic;    // topic -> the first stream source reading it
    std::map<std::string, std::size_t> by_pattern;  // pattern -> the first source of it
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (!is_stream_source(nodes, i)) continue;
        const graph_node& g = nodes[i];
        const std::set<std::string> topics(g.topics.begin(), g.topics.end());
        std::optional<std::size_t> first;
        if (g.pattern) {
            if (auto it = by_pattern.find(*g.pattern); it != by_pattern.end()) first = it->second;
            else by_pattern.emplace(*g.pattern, i);
        }
        for (const auto& t : topics) {
            auto it = by_topic.find(t);
            if (it == by_topic.end()) {
                by_topic.emplace(t, i);
                continue;
            }
            const graph_node& f = nodes[it->second];
            if (std::set<std::string>(f.topics.begin(), f.topics.end()) != topics)
                throw topology_error("source " + g.name + " reads topics [" + joined(topics) + "] and source " + f.name +
                                     " reads topic " + t + " among others: sources of overlapping but not equal input topics "
                                     "cannot become one source; read the same set of topics in both or disjoint sets");
            first = it->second;
        }
        if (!first) continue;
        const graph_node& f = nodes[*first];
        if (f.reset != g.reset)
            throw topology_error("sources " + f.name + " and " + g.name + " read the same topics with different offset " +
                                 "reset policies; they become one source, so give both the same policy (or neither one)");
        if (f.out_type != g.out_type)
            throw topology_error("source " + g.name + " reads the topics of source " + f.name + " with other key or value types: " +
                                 "the two become one source, which reads them as the first does (Kafka Streams deserializes " +
                                 "both with the first one's serdes); read them with the same types and convert after it");
        into[i] = *first;
    }
    return into;
}

}  // namespace kstreams::dsl_detail
