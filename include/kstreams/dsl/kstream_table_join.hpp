// kstream::join / left_join with a ktable (Kafka's KStreamImpl.join(KTable) and
// doStreamTableJoin): a stream whose key changed upstream goes through a repartition topic named
// after the join (or after the stream's node) first; then one processor, KSTREAM-JOIN- or
// KSTREAM-LEFTJOIN-, connected to the stores the table's value getter reads. The stream's and
// the table's source topics must be co-partitioned. Included by <kstreams/dsl.hpp>.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/detail/value_getter.hpp>
#include <kstreams/dsl/joined.hpp>
#include <kstreams/dsl/kstream.hpp>
#include <kstreams/dsl/ktable.hpp>
#include <kstreams/dsl/ops/stream_join.hpp>
#include <kstreams/dsl/ops/stream_table_join.hpp>

namespace kstreams {

namespace dsl_detail {
inline constexpr std::string_view stream_table_join_name = "KSTREAM-JOIN-";
inline constexpr std::string_view stream_table_left_join_name = "KSTREAM-LEFTJOIN-";
}  // namespace dsl_detail

template <class K, class V>
template <dsl_detail::join_kind Kind, class VT, class F, class KS, class VS, class OS>
auto kstream<K, V>::do_table_join(const ktable<K, VT>& table, F joiner, const joined<KS, VS, OS>& j) const {
    using call = dsl_detail::join_call<K, V, VT, F, Kind>;
    using VOut = typename call::result;
    static_assert(!std::is_void_v<VOut>, "kstreams: join(): the joiner must return the joined value");
    constexpr bool left = Kind == dsl_detail::join_kind::left;
    dsl_detail::builder_state& b = *b_;
    serde_ref<K> ks = dsl_detail::pick_serde<K>(j.key_serde, key_serde_);
    std::size_t stream_node = node_;
    if (repartition_required_) {
        serde_ref<V> vs = dsl_detail::pick_serde<V>(j.value_serde, value_serde_);
        // The topic's filter drops null-key records unless a left join (this one or one further
        // downstream) takes them (see repartition_spec).
        stream_node = dsl_detail::join_repartition_source<K, V>(b, node_, j.name.empty() ? b.at(node_).name : j.name, ks, vs);
    }
    const std::string name = b.name_or_generate(
        j.name, left ? dsl_detail::stream_table_left_join_name : dsl_detail::stream_table_join_name);
    std::optional<dsl_detail::join_grace<K, V>> grace;
    if (j.grace) {
        // Kafka checks the table itself: a view of a versioned table does not do.
        const dsl_detail::table_info* t = b.at(table.node_).table.get();
        if (!t || !t->materialized || !t->versioned_store)
            throw topology_error("join " + name + ": KTable must be versioned to use a grace period in a stream table join.");
        if (j.grace->count() < 0) throw topology_error("join " + name + ": the grace period cannot be negative");
        grace = dsl_detail::join_grace<K, V>{j.grace->count(), name + "-Buffer", ks,
                                             dsl_detail::pick_serde<V>(j.value_serde, value_serde_)};
    }
    dsl_detail::value_getter_supplier<K, VT> getter = dsl_detail::value_getter_of<K, VT>(b, table.node_);
    std::vector<std::string> stores = getter.store_names;
    using fn_t = dsl_detail::join_fn<K, V, VT, F, Kind>;
    using node_t = dsl_detail::stream_table_join_node<K, V, K, VT, VOut, dsl_detail::same_key, fn_t>;
    dsl_detail::graph_node g = dsl_detail::processor_node_of<K, V, K, VOut, node_t>(
        name, {stream_node}, std::move(getter), dsl_detail::same_key{}, fn_t{std::move(joiner)}, left, grace);
    g.connected_stores = std::move(stores);
    if (grace) g.stores.push_back(dsl_detail::join_buffer_store(grace->store));
    g.null_key_relaxed_join = left;  // Kafka's NULL_KEY_RELAXED_JOIN label
    const std::size_t i = b.add(std::move(g));
    b.add_copartition_group({stream_node, table.node_});
    return kstream<K, VOut>(b_, i, false, ks, {});
}

template <class K, class V>
template <class VT, class F, class KS, class VS, class OS>
auto kstream<K, V>::join(const ktable<K, VT>& table, F joiner, joined<KS, VS, OS> j) const {
    using call = dsl_detail::join_call<K, V, VT, F, dsl_detail::join_kind::inner>;
    static_assert(call::valid,
                  "kstreams: join(ktable): the joiner must take (stream value, table value) or (key, stream value, table value)");
    static_assert(call::shape::not_over_wrapped, "kstreams: join(ktable): " KSTREAMS_JOINER_OVER_WRAPPED_MESSAGE);
    if constexpr (call::ok)
        return do_table_join<dsl_detail::join_kind::inner>(table, std::move(joiner), j);
}

template <class K, class V>
template <class VT, class F, class KS, class VS, class OS>
auto kstream<K, V>::left_join(const ktable<K, VT>& table, F joiner, joined<KS, VS, OS> j) const {
    using call = dsl_detail::join_call<K, V, VT, F, dsl_detail::join_kind::left>;
    static_assert(call::valid,
                  "kstreams: left_join(ktable): the joiner must take (stream value, std::optional<table value>) or (key, "
                  "stream value, std::optional<table value>) (a table value type that already is a std::optional comes as "
                  "is); the table value is nullopt when the table has no row");
    static_assert(call::shape::not_over_wrapped, "kstreams: left_join(ktable): " KSTREAMS_JOINER_OVER_WRAPPED_MESSAGE);
    if constexpr (call::ok)
        return do_table_join<dsl_detail::join_kind::left>(table, std::move(joiner), j);
}

}  // namespace kstreams
