// Helpers the DSL handles (kstream, ktable, grouped ones) share to append graph nodes.
#pragma once

#include <memory>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include <kstreams/detail/dsl_store_choice.hpp>
#include <kstreams/detail/sink_node.hpp>
#include <kstreams/detail/source_node.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/ops/drop_null_key.hpp>
#include <kstreams/dsl/ops/passthrough.hpp>
#include <kstreams/dsl/options.hpp>
#include <kstreams/dsl/serde_ref.hpp>
#include <kstreams/record.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/state/timestamped_key_value_store.hpp>

namespace kstreams::dsl_detail {

/// A processor node of type Node (constructed as Node(name, args...)) from record<KIn,VIn> to
/// record<KOut,VOut>.
template <class KIn, class VIn, class KOut, class VOut, class Node, class... Args>
graph_node processor_node_of(std::string name, std::vector<std::size_t> parents, Args... args) {
    graph_node g;
    g.kind = kstreams::detail::node_kind::processor;
    g.name = name;
    g.parents = std::move(parents);
    g.in_type = typeid(record<KIn, VIn>);
    g.out_type = typeid(record<KOut, VOut>);
    g.make = [name, args...]() -> std::unique_ptr<kstreams::detail::node> { return std::make_unique<Node>(name, args...); };
    return g;
}

template <class K, class V, class P>
stream_partitioner<K, V> to_partitioner(const P& p) {
    if constexpr (std::is_same_v<P, no_partitioner>) {
        return {};
    } else {
        static_assert(std::is_constructible_v<stream_partitioner<K, V>, const P&>,
                      "kstreams: a stream partitioner must be callable as (topic, key, value, partition_count) or "
                      "(topic, key, value, headers, partition_count), returning std::optional<std::int32_t>, "
                      "std::set<std::int32_t>, std::optional<std::set<std::int32_t>> or partition_choice");
        return stream_partitioner<K, V>(p);
    }
}

template <class K, class V>
std::unique_ptr<kstreams::detail::node> make_sink(const std::string& name, const std::string& topic, const serde_ref<K>& ks,
                                                  const serde_ref<V>& vs, const stream_partitioner<K, V>& part) {
    return std::make_unique<kstreams::detail::sink_node<K, V, serde_ref<K>, serde_ref<V>>>(
        name, topic, topic_name_extractor<K, V>{}, ks, vs, part);
}

template <class K, class V>
std::unique_ptr<kstreams::detail::node> make_source(const std::string& name, const serde_ref<K>& ks, const serde_ref<V>& vs) {
    return std::make_unique<kstreams::detail::typed_source_node<K, V, serde_ref<K>, serde_ref<V>>>(name, ks, vs);
}

/// The typed parts of a repartition topic carrying record<K,V> (with the null-key filter if the
/// spec names one).
template <class K, class V>
void type_repartition(repartition_spec& s, serde_ref<K> ks, serde_ref<V> vs, stream_partitioner<K, V> part = {}) {
    s.record_type = typeid(record<K, V>);
    if (!s.filter_name.empty())
        s.make_filter = [n = s.filter_name](bool drop_null_keys) -> std::unique_ptr<kstreams::detail::node> {
            if (drop_null_keys) return std::make_unique<drop_null_key_node<K, V>>(n);
            return std::make_unique<passthrough_node<K, V>>(n);
        };
    s.make_sink = [ks, vs, part](const std::string& n, const std::string& topic) { return make_sink<K, V>(n, topic, ks, vs, part); };
    s.make_source = [ks, vs](const std::string& n) { return make_source<K, V>(n, ks, vs); };
}

/// Appends the graph node standing for a repartition topic's source (lowering writes the
/// filter, sink, topic and source) read by record<K,V> consumers; returns its index.
template <class K, class V>
std::size_t add_repartition_source(builder_state& b, std::size_t parent, repartition_spec spec) {
    graph_node g;
    g.kind = kstreams::detail::node_kind::source;
    g.name = spec.source_name;
    g.parents = {parent};
    g.out_type = typeid(record<K, V>);
    g.repartition = std::move(spec);
    return b.add(std::move(g));
}

/// A join's repartition of a re-keyed stream (Kafka's KStreamImpl.repartitionForJoin): its names
/// use up indexes every time, but a join whose topic is named after the stream's node (an unnamed
/// join) reuses the repartition the stream's last join made, so joining one re-keyed stream twice
/// writes one topic. Returns the node standing for the topic's source.
template <class K, class V>
std::size_t join_repartition_source(builder_state& b, std::size_t stream_node, const std::string& prefix, serde_ref<K> ks,
                                    serde_ref<V> vs) {
    repartition_spec spec = new_stream_repartition(b, prefix);
    if (auto reused = b.join_repartition(stream_node); reused && prefix == b.at(stream_node).name) return *reused;
    type_repartition<K, V>(spec, std::move(ks), std::move(vs));
    const std::size_t i = add_repartition_source<K, V>(b, stream_node, std::move(spec));
    b.set_join_repartition(stream_node, i);
    return i;
}

/// The store builder of a materialized table or aggregation: a timestamped key-value store.
template <class K, class V, class KS, class VS>
std::shared_ptr<const store_builder> timestamped_store_builder(const builder_state& b, const std::string& name,
                                                               const materialized<KS, VS>& m, serde_ref<K> ks,
                                                               serde_ref<V> vs) {
    (void)b;
    check_supplier_kind(m, store_kind::key_value, name);
    auto make = [&](std::shared_ptr<const key_value_bytes_store_supplier> supplier) {
        auto builder = std::make_shared<key_value_store_builder<K, value_and_timestamp<V>>>(
            stores::timestamped_key_value_store_builder<K, V>(std::move(supplier), ks, vs));
        apply_cache_and_log(*builder, m);
        return std::shared_ptr<const store_builder>(std::move(builder));
    };
    if (m.supplier) return with_recovery_of(make(m.supplier(name)), m, false);
    return with_recovery_of(kstreams::detail::dsl_store_of(m.store_type, [&](bool rocks_db) {
                                return make(rocks_db ? stores::persistent_timestamped_key_value_store(name)
                                                     : stores::in_memory_key_value_store(name));
                            }),
                            m, false);
}

/// The store builder of a materialized table: versioned when `materialized` has a versioned
/// supplier (never cached), timestamped otherwise.
template <class K, class V, class KS, class VS>
std::shared_ptr<const store_builder> table_store_builder(const builder_state& b, const std::string& name,
                                                         const materialized<KS, VS>& m, serde_ref<K> ks, serde_ref<V> vs) {
    check_supplier_kind(m, store_kind::key_value, name);
    if (!m.versioned_supplier) return timestamped_store_builder<K, V>(b, name, m, std::move(ks), std::move(vs));
    auto builder = std::make_shared<versioned_key_value_store_builder<K, V>>(
        stores::versioned_key_value_store_builder<K, V>(m.versioned_supplier, std::move(ks), std::move(vs)));
    if (m.logging) builder->with_logging_enabled(m.log_config);
    else builder->with_logging_disabled();
    return with_recovery_of(std::move(builder), m, false);
}

}  // namespace kstreams::dsl_detail
