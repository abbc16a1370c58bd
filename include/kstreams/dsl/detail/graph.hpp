// The DSL's logical graph. Each DSL call appends one node (names are allocated then, as Kafka
// Streams allocates them); streams_builder::build() lowers the graph in one pass into a topology
// (dsl/lowering.cpp): repartition topics where a key-changing operation meets a key-based one,
// stores, and the node definitions the runtime instantiates.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <typeindex>
#include <vector>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/topology_model.hpp>
#include <kstreams/state/state_store.hpp>

namespace kstreams {
class topology;
class key_value_bytes_store_supplier;
}

namespace kstreams::dsl_detail {

using make_node_fn = std::function<std::unique_ptr<kstreams::detail::node>()>;

/// A repartition topic between a node's first parent and the node: (filter ->) sink -> topic -> source.
/// A stream's repartition has the filter (Kafka's null-key filter): it drops records with a null
/// key unless a join that takes them (graph_node::null_key_relaxed_join) is anywhere downstream,
/// where it passes everything (decided at build time, when the whole graph is known).
struct repartition_spec {
    std::string topic;             ///< without the application.id prefix, ends in -repartition
    std::string sink_name;
    std::string filter_name;       ///< empty: no filter node
    std::string source_name;
    std::optional<std::int32_t> partitions;
    std::type_index record_type = typeid(void);  ///< what flows through it
    /// The filter node; its argument says whether it drops null-key records.
    std::function<std::unique_ptr<kstreams::detail::node>(bool drop_null_keys)> make_filter;
    std::function<std::unique_ptr<kstreams::detail::node>(const std::string& name, const std::string& topic)> make_sink;
    std::function<std::unique_ptr<kstreams::detail::node>(const std::string& name)> make_source;
    /// Key-based consumers of the same upstream node share one topic (the first one's).
    bool shareable = false;
    /// merge.repartition.topics may merge it with the other repartitions of its key-changing
    /// operation (Kafka's OptimizableRepartitionNode: groupings, joins, to_table; not
    /// repartition() nor a table's group_by).
    bool optimizable = true;
    std::string share_key;  ///< the grouping's own name: differently named groupings never share
};

/// What a table node knows about the tables around it (read when the topology is built).
struct table_info {
    bool send_old_values = false;  ///< a downstream operator needs change::old_value
    bool materialized = false;     ///< keeps a store (queryable, or needed downstream)
    bool has_own_store = false;    ///< an aggregation: old values come from its own store
    bool caching = true;           ///< the store was asked for a record cache (materialized::caching)
    std::optional<std::size_t> parent_table;  ///< the table node upstream, if any
    /// Unmaterialized views (filter, map_values, table-table join): a table_view<K,V> computing
    /// the rows from the parent's value getter (value_getter.hpp).
    std::shared_ptr<const void> view;
    /// A table-table join's result: the two joined tables (old values asked of it go to both).
    std::vector<std::size_t> join_parents;
    /// Its own store is a versioned one (materialized onto a versioned store supplier).
    bool versioned_store = false;
    /// The operator reads a versioned table (its own input, or upstream through unmaterialized
    /// views): Kafka's versioned semantics (out-of-order updates handled as such).
    bool versioned_semantics = false;
};

/// A stream-stream join of a stream with itself (both sides one node): what
/// single.store.self.join needs to plan it with one store (Kafka's rewriteSingleStoreSelfJoin).
struct self_join_plan {
    std::size_t other_windowed = 0;  ///< dropped, with both join processors
    std::size_t this_join = 0;
    std::size_t other_join = 0;
    std::string store;               ///< the this-side window store, the only one left
    make_node_fn make;               ///< the self-join processor, named as the join's merge node
};

struct graph_node {
    kstreams::detail::node_kind kind = kstreams::detail::node_kind::processor;
    std::string name;
    std::vector<std::size_t> parents;
    std::type_index in_type = typeid(void);
    std::type_index out_type = typeid(void);
    make_node_fn make;

    /// Stores this node owns; added only when `store_if` (if set) says so at build time.
    std::vector<std::shared_ptr<const store_builder>> stores;
    std::function<bool()> store_if;
    /// Names of stores (the user's) this node is connected to.
    std::vector<std::string> connected_stores;

    // sources
    std::vector<std::string> topics;
    std::optional<std::string> pattern;
    timestamp_extractor extractor;
    offset_reset reset = offset_reset::none;
    // sinks; empty = chosen per record
    std::string topic;

    std::optional<repartition_spec> repartition;
    std::shared_ptr<table_info> table;
    /// A join that takes null-key records (left/outer stream-stream join, stream-table left join;
    /// Kafka's NULL_KEY_RELAXED_JOIN label): repartition topics anywhere upstream keep them.
    bool null_key_relaxed_join = false;
    /// A global table's source or update processor (streams_builder::global_table): its stores
    /// are global stores, filled by the global task of every instance.
    bool global = false;

    // What topology.optimization looks at (Kafka's GraphNode flags).
    bool key_changing = false;    ///< select_key, map, flat_map, group_by's key selector
    bool value_changing = false;  ///< map_values, flat_map_values, process_values
    bool merge = false;           ///< merge()
    /// A table()'s KTABLE-SOURCE: its topic, and its store without a changelog, used instead when
    /// reuse.ktable.source.topics makes the topic the store's changelog. A global_table()'s: its
    /// topic, from which its global store is restored raw (add_global_store's run their processor).
    std::string table_source_topic;
    std::shared_ptr<const store_builder> unlogged_store;
    /// A stream-stream join's merge node, when both sides are one stream.
    std::shared_ptr<const self_join_plan> self_join;
    /// A windowed aggregation: how long after a window's end it still takes records (the grace;
    /// sessions: the inactivity gap plus the grace), which suppress(until_window_closes) waits.
    std::optional<std::int64_t> window_close_grace;
};

/// Kafka's topology.optimization: "none" (the default), "all", or a comma-separated list of
/// reuse.ktable.source.topics, merge.repartition.topics, single.store.self.join.
struct optimizations {
    bool reuse_ktable_source_topics = false;
    bool merge_repartition_topics = false;
    bool single_store_self_join = false;
    /// Throws std::invalid_argument for a value Kafka's StreamsConfig refuses.
    static optimizations parse(std::string_view value);
};

/// The graph a streams_builder and all its handles share.
class builder_state {
public:
    /// `prefix` + 10-digit index, e.g. KSTREAM-FILTER-0000000003 (one index per call).
    std::string new_processor_name(std::string_view prefix);
    /// `prefix` + STATE-STORE- + 10-digit index (shares the index with processor names).
    std::string new_store_name(std::string_view prefix);
    /// The user's name if given, else a generated one.
    /// A user-given name still uses up an index, as in Kafka Streams (NamedInternal burns one so
    /// that naming one operator does not rename the others).
    std::string name_or_generate(const std::string& user, std::string_view prefix) {
        std::string generated = new_processor_name(prefix);
        return user.empty() ? generated : user;
    }

    std::size_t add(graph_node n);
    graph_node& at(std::size_t i) { return nodes_.at(i); }
    const std::vector<graph_node>& nodes() const { return nodes_; }

    /// A downstream operator needs old values: walk up the tables until one can give them.
    void enable_send_old_values(std::size_t table_node);
    /// As enable_send_old_values, but only where a store upstream already knows the old values
    /// (nothing gets materialized for it); true if the table node now sends them.
    bool send_old_values_if_materialized(std::size_t table_node);

    void add_user_store(std::shared_ptr<const store_builder> b) { user_stores_.push_back(std::move(b)); }
    /// The source topics upstream of these nodes must have the same partition count (a join).
    void add_copartition_group(std::vector<std::size_t> nodes) { copartition_groups_.push_back(std::move(nodes)); }

    /// Lowering: writes the whole graph into a fresh topology (dsl/lowering.cpp).
    kstreams::topology build(const optimizations& opt = {}) const;

    /// The repartition node a join last made for this stream node (Kafka's
    /// KStreamImpl.repartitionNode: an unnamed join of the same stream reuses it).
    std::optional<std::size_t> join_repartition(std::size_t stream_node) const {
        auto it = join_repartitions_.find(stream_node);
        return it == join_repartitions_.end() ? std::nullopt : std::optional<std::size_t>(it->second);
    }
    void set_join_repartition(std::size_t stream_node, std::size_t repartition) { join_repartitions_[stream_node] = repartition; }

    /// The byte store of a `materialized` asking for memory (RocksDB is the default).
    std::shared_ptr<const key_value_bytes_store_supplier> default_store_supplier(const std::string& name) const;

private:
    int index_ = 0;
    std::vector<graph_node> nodes_;
    std::vector<std::shared_ptr<const store_builder>> user_stores_;
    std::vector<std::vector<std::size_t>> copartition_groups_;
    std::map<std::size_t, std::size_t> join_repartitions_;
};

/// Kafka Streams' processor name prefixes.
namespace names {
inline constexpr std::string_view source = "KSTREAM-SOURCE-";
inline constexpr std::string_view sink = "KSTREAM-SINK-";
inline constexpr std::string_view filter = "KSTREAM-FILTER-";
inline constexpr std::string_view map = "KSTREAM-MAP-";
inline constexpr std::string_view map_values = "KSTREAM-MAPVALUES-";
inline constexpr std::string_view flat_map = "KSTREAM-FLATMAP-";
inline constexpr std::string_view flat_map_values = "KSTREAM-FLATMAPVALUES-";
inline constexpr std::string_view key_select = "KSTREAM-KEY-SELECT-";
inline constexpr std::string_view peek = "KSTREAM-PEEK-";
inline constexpr std::string_view foreach = "KSTREAM-FOREACH-";
inline constexpr std::string_view branch = "KSTREAM-BRANCH-";
inline constexpr std::string_view merge = "KSTREAM-MERGE-";
inline constexpr std::string_view processor = "KSTREAM-PROCESSOR-";
inline constexpr std::string_view process_values = "KSTREAM-PROCESSVALUES-";
inline constexpr std::string_view printer = "KSTREAM-PRINTER-";
inline constexpr std::string_view to_table = "KSTREAM-TOTABLE-";
inline constexpr std::string_view repartition = "KSTREAM-REPARTITION-";
inline constexpr std::string_view aggregate = "KSTREAM-AGGREGATE-";
inline constexpr std::string_view reduce = "KSTREAM-REDUCE-";
inline constexpr std::string_view table_source = "KTABLE-SOURCE-";
inline constexpr std::string_view table_filter = "KTABLE-FILTER-";
inline constexpr std::string_view table_map_values = "KTABLE-MAPVALUES-";
inline constexpr std::string_view table_to_stream = "KTABLE-TOSTREAM-";
inline constexpr std::string_view table_select = "KTABLE-SELECT-";
inline constexpr std::string_view table_aggregate = "KTABLE-AGGREGATE-";
inline constexpr std::string_view table_reduce = "KTABLE-REDUCE-";
inline constexpr std::string_view suppress = "KTABLE-SUPPRESS-";
inline constexpr std::string_view repartition_suffix = "-repartition";
}  // namespace names

/// Names of a stream repartition's nodes, allocated as Kafka Streams does (sink, filter, source:
/// three indexes burnt even when the names come from the topic).
repartition_spec new_stream_repartition(builder_state& b, const std::string& topic_prefix);

}  // namespace kstreams::dsl_detail
