// ktable::join / left_join / outer_join (Kafka's KTableImpl.doJoin): KTABLE-JOINTHIS- on this
// table's changes and KTABLE-JOINOTHER- on the other's, each connected to the stores of the
// other table's value getter, meeting in KTABLE-MERGE- (which keeps the result when given a
// `materialized`, named or not: KTABLE-MERGE-STATE-STORE-<index>). Left and outer joins make
// the tables on their outer side send old values (so that a delete of an absent row sends no
// tombstone). The tables' source topics must be co-partitioned. Included by <kstreams/dsl.hpp>.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/detail/value_getter.hpp>
#include <kstreams/dsl/kstream_join.hpp>
#include <kstreams/dsl/ktable.hpp>
#include <kstreams/dsl/ops/stream_join.hpp>
#include <kstreams/dsl/ops/table_table_join.hpp>

namespace kstreams {

namespace dsl_detail {
inline constexpr std::string_view table_merge_name = "KTABLE-MERGE-";
inline constexpr std::string_view table_join_this_name = "KTABLE-JOINTHIS-";
inline constexpr std::string_view table_join_other_name = "KTABLE-JOINOTHER-";
}  // namespace dsl_detail

template <class K, class V>
template <dsl_detail::join_kind Kind, bool Given, class V2, class F, class KS, class VS>
auto ktable<K, V>::do_join(const ktable<K, V2>& other, F joiner, const named& n, const materialized<KS, VS>& m) const {
    using call = dsl_detail::join_call<K, V, V2, F, Kind>;
    using VOut = typename call::result;
    static_assert(!std::is_void_v<VOut>, "kstreams: ktable join(): the joiner must return the joined value");
    using dsl_detail::table_join_mode;
    constexpr bool left_outer = Kind != dsl_detail::join_kind::inner;
    constexpr bool right_outer = Kind == dsl_detail::join_kind::outer;
    dsl_detail::builder_state& b = *b_;

    // Kafka's order: the store's name (a given materialized is always kept), the merge's, then
    // the two join processors'.
    std::string store;
    if constexpr (Given) store = m.store_name.empty() ? b.new_store_name(dsl_detail::table_merge_name) : m.store_name;
    const std::string merge = b.name_or_generate(n.name, dsl_detail::table_merge_name);
    if (left_outer) b.enable_send_old_values(node_);
    if (right_outer) b.enable_send_old_values(other.node_);
    const std::string this_name = dsl_detail::suffixed_or_generated(b, n.name, "-join-this", dsl_detail::table_join_this_name);
    const std::string other_name = dsl_detail::suffixed_or_generated(b, n.name, "-join-other", dsl_detail::table_join_other_name);

    serde_ref<K> ks = dsl_detail::pick_serde<K>(m.key_serde, key_serde_);
    serde_ref<VOut> vs;
    if constexpr (Given) vs = dsl_detail::pick_serde<VOut>(m.value_serde, {});

    auto info = std::make_shared<dsl_detail::table_info>();
    info->join_parents = {node_, other.node_};
    using fn_t = dsl_detail::join_fn<K, V, V2, F, Kind>;
    constexpr table_join_mode this_mode = right_outer ? table_join_mode::outer : left_outer ? table_join_mode::left : table_join_mode::inner;
    constexpr table_join_mode other_mode = right_outer ? table_join_mode::outer : left_outer ? table_join_mode::right : table_join_mode::inner;
    if constexpr (Given) {
        info->materialized = true;
        info->has_own_store = true;
        info->caching = m.caching;
        info->versioned_store = m.versioned_supplier != nullptr;
    } else {
        info->view = dsl_detail::table_join_view<K, V, V2, VOut>(node_, other.node_, fn_t{joiner}, this_mode);
    }

    dsl_detail::value_getter_supplier<K, V> this_getter = dsl_detail::value_getter_of<K, V>(b, node_);
    dsl_detail::value_getter_supplier<K, V2> other_getter = dsl_detail::value_getter_of<K, V2>(b, other.node_);
    const std::shared_ptr<const dsl_detail::table_info> result(info);
    std::vector<std::string> this_stores = this_getter.store_names, other_stores = other_getter.store_names;

    dsl_detail::graph_node tj = dsl_detail::processor_node_of<K, change<V>, K, change<VOut>,
                                                              dsl_detail::table_join_node<K, V, V2, VOut, fn_t, true>>(
        this_name, {node_}, std::move(other_getter), fn_t{joiner}, this_mode, result, dsl_detail::output_versioned(b, node_));
    tj.connected_stores = std::move(other_stores);
    const std::size_t tj_i = b.add(std::move(tj));
    dsl_detail::graph_node oj = dsl_detail::processor_node_of<K, change<V2>, K, change<VOut>,
                                                              dsl_detail::table_join_node<K, V2, V, VOut, fn_t, false>>(
        other_name, {other.node_}, std::move(this_getter), fn_t{std::move(joiner)}, other_mode, result,
        dsl_detail::output_versioned(b, other.node_));
    oj.connected_stores = std::move(this_stores);
    const std::size_t oj_i = b.add(std::move(oj));

    dsl_detail::graph_node mg = dsl_detail::processor_node_of<K, change<VOut>, K, change<VOut>, dsl_detail::table_join_merger_node<K, VOut>>(
        merge, {tj_i, oj_i}, result, store);
    if constexpr (Given) mg.stores.push_back(dsl_detail::table_store_builder<K, VOut>(b, store, m, ks, vs));
    mg.table = info;
    const std::size_t i = b.add(std::move(mg));
    b.add_copartition_group({node_, other.node_});
    return ktable<K, VOut>(b_, i, ks, vs, Given ? std::optional<std::string>(store) : std::nullopt);
}

}  // namespace kstreams
