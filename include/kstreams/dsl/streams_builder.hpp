// streams_builder: where a DSL pipeline starts (stream(), table()) and how it becomes a topology
// (build()). Also defines the DSL operations that cross between streams, tables and groupings.
#pragma once

#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <kstreams/dsl/branched_kstream.hpp>
#include <kstreams/dsl/cogrouped_kstream.hpp>
#include <kstreams/dsl/global_ktable.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/kgrouped_stream.hpp>
#include <kstreams/dsl/kgrouped_table.hpp>
#include <kstreams/dsl/session_windowed_kstream.hpp>
#include <kstreams/dsl/time_windowed_kstream.hpp>
#include <kstreams/dsl/kstream.hpp>
#include <kstreams/dsl/kstream_global_join.hpp>
#include <kstreams/dsl/kstream_join.hpp>
#include <kstreams/dsl/kstream_table_join.hpp>
#include <kstreams/dsl/ktable.hpp>
#include <kstreams/dsl/ktable_join.hpp>
#include <kstreams/dsl/ops/table_select.hpp>
#include <kstreams/dsl/ops/table_source.hpp>
#include <kstreams/topology.hpp>

namespace kstreams {

class streams_builder {
public:
    streams_builder() : b_(std::make_shared<dsl_detail::builder_state>()) {}

    /// A stream of the records of one topic.
    template <class K, class V, class KS = no_serde, class VS = no_serde>
    kstream<K, V> stream(std::string topic, consumed<KS, VS> c = {}) {
        return add_stream<K, V>({std::move(topic)}, std::nullopt, c);
    }
    /// A stream of the records of several topics.
    template <class K, class V, class KS = no_serde, class VS = no_serde>
    kstream<K, V> stream(std::initializer_list<std::string> topics, consumed<KS, VS> c = {}) {
        return add_stream<K, V>(std::vector<std::string>(topics), std::nullopt, c);
    }
    template <class K, class V, class KS = no_serde, class VS = no_serde>
    kstream<K, V> stream(std::vector<std::string> topics, consumed<KS, VS> c = {}) {
        return add_stream<K, V>(std::move(topics), std::nullopt, c);
    }
    /// A stream of every topic whose name matches the regular expression.
    template <class K, class V, class KS = no_serde, class VS = no_serde>
    kstream<K, V> stream_pattern(std::string pattern, consumed<KS, VS> c = {}) {
        return add_stream<K, V>({}, std::move(pattern), c);
    }

    /// A table of a topic: each record updates its key; a null value deletes it. Materialized (kept
    /// in a store) if given a store name, or if an operation downstream needs it.
    template <class K, class V, class KS = no_serde, class VS = no_serde, class MKS = no_serde, class MVS = no_serde>
    ktable<K, V> table(std::string topic, consumed<KS, VS> c = {}, materialized<MKS, MVS> m = {}) {
        serde_ref<K> ks = dsl_detail::pick_serde<K>(c.key_serde, {});
        serde_ref<V> vs = dsl_detail::pick_serde<V>(c.value_serde, {});
        serde_ref<K> sks = dsl_detail::pick_serde<K>(m.key_serde, ks);
        serde_ref<V> svs = dsl_detail::pick_serde<V>(m.value_serde, vs);
        // Kafka Streams' order: store name, source name, table source name.
        const std::string store = m.store_name.empty() ? b_->new_store_name(topic + "-") : m.store_name;
        const std::string source = b_->name_or_generate(c.name.empty() ? c.name : c.name + "-source", dsl_detail::names::source);
        const std::string table = b_->name_or_generate(c.name, dsl_detail::names::table_source);
        const std::size_t src = add_source_node<K, V>(source, {topic}, std::nullopt, c, ks, vs);
        ktable<K, V> t = table_source<K, V>(src, table, store, !m.store_name.empty(), m, sks, svs);
        // reuse.ktable.source.topics: the topic itself is the store's changelog.
        dsl_detail::graph_node& g = b_->at(t.node_);
        g.table_source_topic = std::move(topic);
        g.unlogged_store = dsl_detail::table_store_builder<K, V>(*b_, store, m.with_logging_disabled(), sks, svs);
        return t;
    }
    template <class K, class V, class MKS, class MVS>
    ktable<K, V> table(std::string topic, materialized<MKS, MVS> m) {
        return table<K, V>(std::move(topic), consumed<>{}, std::move(m));
    }

    /// A global table of a topic (Kafka's globalTable): every instance keeps all of it, filled
    /// from every partition before processing starts and kept up to date while it runs; streams
    /// join it with a key mapper. Its store (named by `m`, or generated) is a global store:
    /// never logged (the topic is its changelog) and never cached.
    template <class K, class V, class KS = no_serde, class VS = no_serde, class MKS = no_serde, class MVS = no_serde>
    global_ktable<K, V> global_table(std::string topic, consumed<KS, VS> c = {}, materialized<MKS, MVS> m = {}) {
        if (m.versioned_supplier) throw topology_error("global table of topic " + topic + ": GlobalTables cannot be versioned.");
        serde_ref<K> ks = dsl_detail::pick_serde<K>(c.key_serde, {});
        serde_ref<V> vs = dsl_detail::pick_serde<V>(c.value_serde, {});
        serde_ref<K> sks = dsl_detail::pick_serde<K>(m.key_serde, ks);
        serde_ref<V> svs = dsl_detail::pick_serde<V>(m.value_serde, vs);
        // Kafka Streams' order, as table(): store name, source name, table source name.
        const std::string store = m.store_name.empty() ? b_->new_store_name(topic + "-") : m.store_name;
        const std::string source = b_->name_or_generate(c.name.empty() ? c.name : c.name + "-source", dsl_detail::names::source);
        const std::string table = b_->name_or_generate(c.name, dsl_detail::names::table_source);
        const std::size_t src = add_source_node<K, V>(source, {std::move(topic)}, std::nullopt, c, ks, vs);
        b_->at(src).global = true;
        auto info = std::make_shared<dsl_detail::table_info>();
        info->materialized = true;
        info->caching = false;
        dsl_detail::graph_node g = dsl_detail::processor_node_of<K, V, K, change<V>, dsl_detail::table_source_node<K, V>>(
            table, {src}, store, std::shared_ptr<const dsl_detail::table_info>(info), svs);
        g.global = true;
        g.connected_stores = {store};
        g.table_source_topic = b_->at(src).topics.front();  // restored raw from it
        g.stores.push_back(dsl_detail::timestamped_store_builder<K, V>(
            *b_, store, m.with_caching_disabled().with_logging_disabled(), sks, svs));
        b_->add(std::move(g));
        return global_ktable<K, V>(b_, store, sks, svs);
    }
    template <class K, class V, class MKS, class MVS>
    global_ktable<K, V> global_table(std::string topic, materialized<MKS, MVS> m) {
        return global_table<K, V>(std::move(topic), consumed<>{}, std::move(m));
    }

    /// A global store whose records a processor of the user's writes (Kafka's
    /// StreamsBuilder.addGlobalStore): every instance runs `supplier`'s processor over every record
    /// of all partitions of `topic`, to fill the store before processing starts (Kafka 4.x's
    /// reprocessOnRestore: a restore runs the processor too) and then as the topic grows; any
    /// processor may read the store. The store's changelog is turned off (the topic is its
    /// changelog). The source is named `<consumed name>-source` or KSTREAM-SOURCE-n, the
    /// processor the consumed name or KTABLE-SOURCE-n, as Kafka's.
    template <class K, class V, class B, class Supplier, class KS = no_serde, class VS = no_serde>
        requires std::derived_from<B, store_builder> && processor_type<typename std::invoke_result_t<Supplier&>::element_type>
    streams_builder& add_global_store(B builder, std::string topic, consumed<KS, VS> c, Supplier supplier) {
        using P = typename std::invoke_result_t<Supplier&>::element_type;
        static_assert(std::is_same_v<typename P::key_in, K> && std::is_same_v<typename P::value_in, V>,
                      "kstreams: add_global_store: the processor must take the records of the topic (K, V)");
        builder.with_logging_disabled();
        serde_ref<K> ks = dsl_detail::pick_serde<K>(c.key_serde, {});
        serde_ref<V> vs = dsl_detail::pick_serde<V>(c.value_serde, {});
        const std::string source = b_->name_or_generate(c.name.empty() ? c.name : c.name + "-source", dsl_detail::names::source);
        const std::string name = b_->name_or_generate(c.name, dsl_detail::names::table_source);
        const std::size_t src = add_source_node<K, V>(source, {std::move(topic)}, std::nullopt, c, ks, vs);
        b_->at(src).global = true;
        dsl_detail::graph_node g;
        g.kind = kstreams::detail::node_kind::processor;
        g.name = name;
        g.parents = {src};
        g.in_type = typeid(record<K, V>);
        g.out_type = typeid(record<typename P::key_out, typename P::value_out>);
        g.global = true;
        g.connected_stores = {builder.name()};
        g.stores.push_back(std::make_shared<B>(std::move(builder)));
        g.make = [name, supplier = std::move(supplier)]() mutable -> std::unique_ptr<kstreams::detail::node> {
            return std::make_unique<kstreams::detail::processor_node<P>>(name, supplier());
        };
        b_->add(std::move(g));
        return *this;
    }

    /// A store for process() / process_values() (they name it in their `stores` argument).
    streams_builder& add_state_store(std::shared_ptr<const store_builder> b) {
        b_->add_user_store(std::move(b));
        return *this;
    }
    template <class B>
        requires std::derived_from<B, store_builder>
    streams_builder& add_state_store(B b) {
        return add_state_store(std::shared_ptr<const store_builder>(std::make_shared<B>(std::move(b))));
    }

    /// Lowers everything built so far into a topology (throws topology_error naming the node for
    /// a pipeline that cannot work).
    topology build() const { return b_->build(); }
    /// As build(), with Kafka Streams properties (StreamsBuilder.build(Properties)): reads
    /// `topology.optimization`, "none" (the default), "all", or a comma-separated list of
    /// `reuse.ktable.source.topics` (a table()'s store uses its source topic as its changelog, no
    /// `-changelog` topic), `merge.repartition.topics` (the repartition topics below one
    /// key-changing operation become one, named after the first, written right after it) and
    /// `single.store.self.join` (a stream joined with itself keeps one window store). Other keys
    /// are ignored; a value Kafka refuses throws std::invalid_argument.
    topology build(const std::map<std::string, std::string>& properties) const {
        auto it = properties.find("topology.optimization");
        return b_->build(it == properties.end() ? dsl_detail::optimizations{} : dsl_detail::optimizations::parse(it->second));
    }

private:
    template <class, class> friend class kstream;

    template <class K, class V, class KS, class VS>
    kstream<K, V> add_stream(std::vector<std::string> topics, std::optional<std::string> pattern, const consumed<KS, VS>& c) {
        serde_ref<K> ks = dsl_detail::pick_serde<K>(c.key_serde, {});
        serde_ref<V> vs = dsl_detail::pick_serde<V>(c.value_serde, {});
        const std::string name = b_->name_or_generate(c.name, dsl_detail::names::source);
        const std::size_t i = add_source_node<K, V>(name, std::move(topics), std::move(pattern), c, ks, vs);
        return kstream<K, V>(b_, i, false, ks, vs);
    }

    template <class K, class V, class KS, class VS>
    std::size_t add_source_node(const std::string& name, std::vector<std::string> topics, std::optional<std::string> pattern,
                                const consumed<KS, VS>& c, serde_ref<K> ks, serde_ref<V> vs) {
        dsl_detail::graph_node g;
        g.kind = kstreams::detail::node_kind::source;
        g.name = name;
        g.out_type = typeid(record<K, V>);
        g.topics = std::move(topics);
        g.pattern = std::move(pattern);
        g.extractor = c.extractor;
        g.reset = c.reset;
        g.make = [name, ks, vs] { return dsl_detail::make_source<K, V>(name, ks, vs); };
        return b_->add(std::move(g));
    }

    /// The KTABLE-SOURCE processor of table() (and of to_table()).
    template <class K, class V, class KS, class VS>
    ktable<K, V> table_source(std::size_t parent, const std::string& name, const std::string& store, bool queryable,
                              const materialized<KS, VS>& m, serde_ref<K> ks, serde_ref<V> vs) {
        return make_table_source<K, V>(b_, parent, name, store, queryable, m, std::move(ks), std::move(vs));
    }

public:
    /// (Internal) shared with kstream::to_table.
    template <class K, class V, class KS, class VS>
    static ktable<K, V> make_table_source(const std::shared_ptr<dsl_detail::builder_state>& b, std::size_t parent,
                                          const std::string& name, const std::string& store, bool queryable,
                                          const materialized<KS, VS>& m, serde_ref<K> ks, serde_ref<V> vs) {
        auto info = std::make_shared<dsl_detail::table_info>();
        info->materialized = queryable;
        info->caching = m.caching;
        info->versioned_store = queryable && m.versioned_supplier != nullptr;
        dsl_detail::graph_node g = dsl_detail::processor_node_of<K, V, K, change<V>, dsl_detail::table_source_node<K, V>>(
            name, {parent}, store, std::shared_ptr<const dsl_detail::table_info>(info), vs);
        g.table = info;
        g.stores.push_back(dsl_detail::table_store_builder<K, V>(*b, store, m, ks, vs));
        g.store_if = [info] { return info->materialized; };
        const std::size_t i = b->add(std::move(g));
        return ktable<K, V>(b, i, ks, vs, queryable ? std::optional<std::string>(store) : std::nullopt);
    }

private:
    std::shared_ptr<dsl_detail::builder_state> b_;
};

// ---- operations that cross between handles -------------------------------------------------

template <class K, class V>
branched_kstream<K, V> kstream<K, V>::split(named n) const {
    const std::string name = b_->name_or_generate(n.name, dsl_detail::names::branch);
    auto spec = std::make_shared<dsl_detail::branch_spec<K, V>>();
    const std::size_t i = b_->add(dsl_detail::processor_node_of<K, V, K, V, dsl_detail::branch_node<K, V>>(
        name, {node_}, std::shared_ptr<const dsl_detail::branch_spec<K, V>>(spec)));
    return branched_kstream<K, V>(*this, name, i, spec);
}

template <class K, class V>
ktable<K, V> kstream<K, V>::to_table(named n) const {
    return to_table(std::move(n), materialized<>{});
}

template <class K, class V>
template <class KS, class VS>
ktable<K, V> kstream<K, V>::to_table(named n, materialized<KS, VS> m) const {
    // Kafka Streams' order: processor name, store name, then the repartition if needed.
    const std::string name = b_->name_or_generate(n.name, dsl_detail::names::to_table);
    const std::string store = m.store_name.empty() ? b_->new_store_name(dsl_detail::names::to_table) : m.store_name;
    serde_ref<K> ks = dsl_detail::pick_serde<K>(m.key_serde, key_serde_);
    serde_ref<V> vs = dsl_detail::pick_serde<V>(m.value_serde, value_serde_);
    std::size_t parent = node_;
    if (repartition_required_) {
        dsl_detail::repartition_spec s = dsl_detail::new_stream_repartition(*b_, name);
        dsl_detail::type_repartition<K, V>(s, ks, vs);
        parent = dsl_detail::add_repartition_source<K, V>(*b_, node_, std::move(s));
    }
    return streams_builder::make_table_source<K, V>(b_, parent, name, store, !m.store_name.empty(), m, ks, vs);
}

template <class K, class V>
template <class KS, class VS>
kgrouped_stream<K, V> kstream<K, V>::group_by_key(grouped<KS, VS> g) const {
    serde_ref<K> ks = dsl_detail::pick_serde<K>(g.key_serde, key_serde_);
    serde_ref<V> vs;
    if constexpr (!std::is_same_v<VS, no_serde>) vs = dsl_detail::pick_serde<V>(g.value_serde, value_serde_);
    else if (value_serde_) vs = value_serde_;
    else if constexpr (has_default_serde<V>) vs = serde_ref<V>(serde<V>{});
    return kgrouped_stream<K, V>(b_, node_, repartition_required_, ks, vs, g.name);
}

template <class K, class V>
template <class F, class KS, class VS>
auto kstream<K, V>::group_by(F selector, grouped<KS, VS> g) const {
    static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: group_by(): the key selector must take (key, value) or (value) of this stream's types");
    using K2 = dsl_detail::kv_result_t<F, K, V>;
    static_assert(!std::is_void_v<K2>, "kstreams: group_by(): the key selector must return the new key");
    serde_ref<K2> ks = dsl_detail::pick_serde<K2>(g.key_serde, serde_ref<K2>{});
    serde_ref<V> vs = dsl_detail::pick_serde<V>(g.value_serde, value_serde_);
    // Kafka Streams names the selector after the grouping if it has a name.
    const std::string name = b_->name_or_generate(g.name, dsl_detail::names::key_select);
    const std::size_t i = b_->add(dsl_detail::processor_node_of<K, V, K2, V, dsl_detail::select_key_node<K, V, K2, F>>(
        name, {node_}, std::move(selector)));
    b_->at(i).key_changing = true;
    return kgrouped_stream<K2, V>(b_, i, true, ks, vs, g.name);
}

template <class K, class V>
kstream<K, V> ktable<K, V>::to_stream(named n) const {
    const std::string name = b_->name_or_generate(n.name, dsl_detail::names::table_to_stream);
    const std::size_t i = b_->add(dsl_detail::processor_node_of<K, change<V>, K, V, dsl_detail::table_to_stream_node<K, V>>(name, {node_}));
    return kstream<K, V>(b_, i, false, key_serde_, value_serde_);
}

template <class K, class V>
template <class F, class KS, class VS>
auto ktable<K, V>::group_by(F selector, grouped<KS, VS> g) const {
    static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: ktable::group_by(): the selector must take (key, value) or (value) of this table's types");
    using R = dsl_detail::kv_result_t<F, K, V>;
    static_assert(dsl_detail::pair_like<R>, "kstreams: ktable::group_by(): the selector must return key_value<K2,V2> or std::pair<K2,V2>");
    using K2 = dsl_detail::pair_key_t<R>;
    using V2 = dsl_detail::pair_value_t<R>;
    serde_ref<K2> ks = dsl_detail::pick_serde<K2>(g.key_serde, serde_ref<K2>{});
    serde_ref<V2> vs = dsl_detail::pick_serde<V2>(g.value_serde, serde_ref<V2>{});
    const std::string name = b_->name_or_generate(g.name, dsl_detail::names::table_select);
    const std::size_t i = b_->add(dsl_detail::processor_node_of<K, change<V>, K2, change<V2>, dsl_detail::table_select_node<K, V, K2, V2, F>>(
        name, {node_}, std::move(selector), dsl_detail::output_versioned(*b_, node_)));
    // The subtractor needs the old rows: the tables upstream must send them.
    b_->enable_send_old_values(node_);
    return kgrouped_table<K2, V2>(b_, i, ks, vs, g.name);
}

}  // namespace kstreams
