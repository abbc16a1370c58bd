// ktable::transform_values (Kafka's KTableImpl.doTransformValues): one KTABLE-TRANSFORMVALUES-
// processor connected to the stores named in the call. Given a `materialized` with a store name,
// the result is kept in that store (key serde: the materialized's or the table's; value serde: the
// materialized's); an unnamed `materialized` keeps nothing and uses up no store index, as Kafka's.
// Included by <kstreams/dsl.hpp>.
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/detail/value_getter.hpp>
#include <kstreams/dsl/ktable.hpp>
#include <kstreams/dsl/ops/table_transform_values.hpp>
#include <kstreams/dsl/value_transformer.hpp>

namespace kstreams {

template <class K, class V>
template <class Supplier>
auto ktable<K, V>::transform_values(Supplier supplier, std::vector<std::string> stores) const {
    return do_transform_values<false>(std::move(supplier), named{}, materialized<>{}, std::move(stores));
}

template <class K, class V>
template <class Supplier>
auto ktable<K, V>::transform_values(Supplier supplier, named n, std::vector<std::string> stores) const {
    return do_transform_values<false>(std::move(supplier), n, materialized<>{}, std::move(stores));
}

template <class K, class V>
template <class Supplier, class KS, class VS>
auto ktable<K, V>::transform_values(Supplier supplier, materialized<KS, VS> m, std::vector<std::string> stores) const {
    return do_transform_values<true>(std::move(supplier), named{}, m, std::move(stores));
}

template <class K, class V>
template <class Supplier, class KS, class VS>
auto ktable<K, V>::transform_values(Supplier supplier, materialized<KS, VS> m, named n,
                                    std::vector<std::string> stores) const {
    return do_transform_values<true>(std::move(supplier), n, m, std::move(stores));
}

template <class K, class V>
template <bool Given, class Supplier, class KS, class VS>
auto ktable<K, V>::do_transform_values(Supplier supplier, const named& n, const materialized<KS, VS>& m,
                                       std::vector<std::string> stores) const {
    static_assert(std::is_invocable_v<Supplier&>,
                  "kstreams: ktable::transform_values(): the supplier must be callable with no arguments and return "
                  "std::unique_ptr<T>, T derived from value_transformer_with_key<K, V, VOut>");
    using T = typename std::invoke_result_t<Supplier&>::element_type;
    static_assert(value_transformer_type<T>,
                  "kstreams: ktable::transform_values(): the supplier must return std::unique_ptr<T> with T derived from "
                  "value_transformer_with_key<K, V, VOut>");
    static_assert(std::is_same_v<typename T::key_type, K> && std::is_same_v<typename T::value_in, V>,
                  "kstreams: ktable::transform_values(): the transformer must take this table's key and value types");
    using VOut = typename T::value_out;

    auto info = child_info();
    std::string store;
    serde_ref<K> ks = key_serde_;
    serde_ref<VOut> vs{};
    if constexpr (Given) {
        if constexpr (!std::is_same_v<KS, no_serde>) ks = dsl_detail::pick_serde<K>(m.key_serde, {});
        if constexpr (!std::is_same_v<VS, no_serde>) vs = dsl_detail::pick_serde<VOut>(m.value_serde, {});
        if (!m.store_name.empty()) {
            store = m.store_name;
            info->materialized = true;
            info->has_own_store = true;  // old values come from it
            info->caching = m.caching;
            info->versioned_store = m.versioned_supplier != nullptr;
        }
    }
    const std::string name = b_->name_or_generate(n.name, dsl_detail::names::table_transform_values);
    if (!info->materialized)
        info->view = dsl_detail::transform_values_view<K, V, VOut>(node_, supplier);
    dsl_detail::graph_node g =
        dsl_detail::processor_node_of<K, change<V>, K, change<VOut>, dsl_detail::table_transform_values_node<K, V, VOut, Supplier>>(
            name, {node_}, std::shared_ptr<const dsl_detail::table_info>(info), std::move(supplier), store);
    g.connected_stores = std::move(stores);
    if constexpr (Given) {
        if (info->materialized) {
            g.stores.push_back(dsl_detail::table_store_builder<K, VOut>(*b_, store, m, ks, dsl_detail::pick_serde<VOut>(m.value_serde, vs)));
            g.store_if = [info] { return info->materialized; };
        }
    }
    const std::size_t i = b_->add(with_table(std::move(g), info));
    return ktable<K, VOut>(b_, i, ks, vs, info->materialized ? std::optional<std::string>(store) : std::nullopt);
}

}  // namespace kstreams
