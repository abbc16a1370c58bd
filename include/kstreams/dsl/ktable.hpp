// ktable<K,V>: a changelog stream seen as a table. Between table operators flows
// record<K, change<V>>: the new and (when some operator downstream needs it) the old value.
// Include <kstreams/dsl.hpp>.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/ops/table_filter.hpp>
#include <kstreams/dsl/ops/table_map_values.hpp>
#include <kstreams/dsl/ops/table_to_stream.hpp>
#include <kstreams/dsl/options.hpp>

namespace kstreams {

template <class K, class V> class kstream;
template <class K, class V> class kgrouped_table;

template <class K, class V>
class ktable {
public:
    using key_type = K;
    using value_type = V;

    /// Keeps the rows for which pred(key, value) holds; other updates become deletes (tombstones).
    template <class F>
    ktable filter(F pred, named n = {}) const { return do_filter(std::move(pred), n, false); }
    /// Keeps the rows for which the predicate does not hold.
    template <class F>
    ktable filter_not(F pred, named n = {}) const { return do_filter(std::move(pred), n, true); }

    /// A new value per row from f(value) or f(key, value); a deleted row stays deleted, and a
    /// function returning nullopt (for an optional value type) deletes the row.
    template <class F>
    auto map_values(F f, named n = {}) const {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: ktable::map_values(): the function must take (key, value) or (value) of this table's types");
        using V2 = dsl_detail::kv_result_t<F, K, V>;
        static_assert(!std::is_void_v<V2>, "kstreams: ktable::map_values(): the function must return the new value");
        const std::string name = b_->name_or_generate(n.name, dsl_detail::names::table_map_values);
        auto info = child_info();
        const std::size_t i = b_->add(with_table(
            dsl_detail::processor_node_of<K, change<V>, K, change<V2>, dsl_detail::table_map_values_node<K, V, V2, F>>(
                name, {node_}, std::shared_ptr<const dsl_detail::table_info>(info), std::move(f)),
            info));
        return ktable<K, V2>(b_, i, key_serde_, {});
    }

    /// The table's changelog as a stream; deletes are records with null values.
    kstream<K, V> to_stream(named n = {}) const;

    /// Regroups the table by selector(key, value) -> key_value<K2,V2> / std::pair<K2,V2>, for
    /// count / reduce / aggregate with a subtractor. Always repartitions.
    template <class F, class KS = no_serde, class VS = no_serde>
    auto group_by(F selector, grouped<KS, VS> g = {}) const;

    /// The name of the store behind this table if it was given one (it is then queryable).
    const std::optional<std::string>& queryable_store_name() const { return store_name_; }

private:
    template <class, class> friend class ktable;
    template <class, class> friend class kstream;
    template <class, class> friend class kgrouped_stream;
    template <class, class> friend class kgrouped_table;
    friend class streams_builder;

    ktable(std::shared_ptr<dsl_detail::builder_state> b, std::size_t node, serde_ref<K> ks, serde_ref<V> vs,
           std::optional<std::string> store = std::nullopt)
        : b_(std::move(b)), node_(node), key_serde_(std::move(ks)), value_serde_(std::move(vs)), store_name_(std::move(store)) {}

    std::shared_ptr<dsl_detail::table_info> child_info() const {
        auto info = std::make_shared<dsl_detail::table_info>();
        info->parent_table = node_;
        return info;
    }
    static dsl_detail::graph_node with_table(dsl_detail::graph_node g, std::shared_ptr<dsl_detail::table_info> info) {
        g.table = std::move(info);
        return g;
    }

    template <class F>
    ktable do_filter(F pred, const named& n, bool negate) const {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: ktable::filter(): the predicate must take (key, value) or (value) of this table's types");
        static_assert(std::is_convertible_v<dsl_detail::kv_result_t<F, K, V>, bool>, "kstreams: ktable::filter(): the predicate must return bool");
        const std::string name = b_->name_or_generate(n.name, dsl_detail::names::table_filter);
        auto info = child_info();
        const std::size_t i = b_->add(with_table(
            dsl_detail::processor_node_of<K, change<V>, K, change<V>, dsl_detail::table_filter_node<K, V, F>>(
                name, {node_}, std::shared_ptr<const dsl_detail::table_info>(info), std::move(pred), negate),
            info));
        return ktable(b_, i, key_serde_, value_serde_);
    }

    std::shared_ptr<dsl_detail::builder_state> b_;
    std::size_t node_;
    serde_ref<K> key_serde_;
    serde_ref<V> value_serde_;
    std::optional<std::string> store_name_;
};

}  // namespace kstreams
