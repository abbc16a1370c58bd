// ktable<K,V>: a changelog stream seen as a table. Between table operators flows
// record<K, change<V>>: the new and (when some operator downstream needs it) the old value.
// Include <kstreams/dsl.hpp>.
#pragma once

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/detail/value_getter.hpp>
#include <kstreams/dsl/join_windows.hpp>
#include <kstreams/dsl/ops/stream_join.hpp>
#include <kstreams/dsl/ops/table_filter.hpp>
#include <kstreams/dsl/ops/table_map_values.hpp>
#include <kstreams/dsl/ops/table_suppress.hpp>
#include <kstreams/dsl/ops/table_to_stream.hpp>
#include <kstreams/dsl/options.hpp>
#include <kstreams/dsl/suppressed.hpp>
#include <kstreams/dsl/table_joined.hpp>

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
    ktable filter(F pred, named n = {}) const { return do_filter<false>(std::move(pred), n, false, materialized<>{}); }
    /// As filter(), keeping the result in a store when `m` names one (it is then queryable).
    template <class F, class KS, class VS>
    ktable filter(F pred, materialized<KS, VS> m) const { return filter(std::move(pred), named{}, std::move(m)); }
    template <class F, class KS, class VS>
    ktable filter(F pred, named n, materialized<KS, VS> m) const { return do_filter<true>(std::move(pred), n, false, m); }
    /// Keeps the rows for which the predicate does not hold.
    template <class F>
    ktable filter_not(F pred, named n = {}) const { return do_filter<false>(std::move(pred), n, true, materialized<>{}); }
    template <class F, class KS, class VS>
    ktable filter_not(F pred, materialized<KS, VS> m) const { return filter_not(std::move(pred), named{}, std::move(m)); }
    template <class F, class KS, class VS>
    ktable filter_not(F pred, named n, materialized<KS, VS> m) const { return do_filter<true>(std::move(pred), n, true, m); }

    /// A new value per row from f(value) or f(key, value); a deleted row stays deleted, and a
    /// function returning nullopt (for an optional value type) deletes the row.
    template <class F>
    auto map_values(F f, named n = {}) const { return do_map_values<false>(std::move(f), n, materialized<>{}); }
    /// As map_values(), keeping the result in a store when `m` names one (it is then queryable).
    template <class F, class KS, class VS>
    auto map_values(F f, materialized<KS, VS> m) const { return map_values(std::move(f), named{}, std::move(m)); }
    template <class F, class KS, class VS>
    auto map_values(F f, named n, materialized<KS, VS> m) const { return do_map_values<true>(std::move(f), n, m); }

    /// Kafka's transformValues (ktable_transform_values.hpp, <kstreams/dsl.hpp>): each update's
    /// new value through a value_transformer_with_key<K, V, VOut> made by supplier() (one per
    /// task), which may read and write the `stores` (added with streams_builder::add_state_store)
    /// and schedule punctuations; it sees deletes as nullopt and may return a row for them, and
    /// its nullopt deletes the row. Kept in a store when given a `materialized` with a name. A
    /// braced list is always the stores: `transform_values(supplier, materialized, {"s"})`.
    template <class Supplier>
    auto transform_values(Supplier supplier, std::vector<std::string> stores = {}) const;
    template <class Supplier>
    auto transform_values(Supplier supplier, named n, std::vector<std::string> stores = {}) const;
    template <class Supplier, class KS, class VS>
    auto transform_values(Supplier supplier, materialized<KS, VS> m, std::vector<std::string> stores = {}) const;
    template <class Supplier, class KS, class VS>
    auto transform_values(Supplier supplier, materialized<KS, VS> m, named n, std::vector<std::string> stores = {}) const;

    /// The table's changelog as a stream; deletes are records with null values.
    kstream<K, V> to_stream(named n = {}) const;
    /// As to_stream(), re-keyed by mapper(key, value) (Kafka's toStream(KeyValueMapper): a
    /// to_stream followed by select_key, so a key-based operation downstream repartitions).
    template <class F>
        requires(!std::is_same_v<F, named>)
    auto to_stream(F mapper, named n = {}) const {
        return to_stream(n).select_key(std::move(mapper));
    }

    /// Regroups the table by selector(key, value) -> key_value<K2,V2> / std::pair<K2,V2>, for
    /// count / reduce / aggregate with a subtractor. Always repartitions.
    template <class F, class KS = no_serde, class VS = no_serde>
    auto group_by(F selector, grouped<KS, VS> g = {}) const;

    /// Table-table inner join (ktable_join.hpp): a row for each key present in both tables,
    /// joiner(this value, other value) or joiner(key, this value, other value), timestamped with
    /// the later of the two rows. An update on either side updates the result; a delete on
    /// either side deletes it (a tombstone). Kept in a store when given a `materialized`.
    template <class V2, class F>
    auto join(const ktable<K, V2>& other, F joiner, named n = {}) const {
        return checked_join<dsl_detail::join_kind::inner, false>(other, std::move(joiner), n, materialized<>{});
    }
    template <class V2, class F, class KS, class VS>
    auto join(const ktable<K, V2>& other, F joiner, materialized<KS, VS> m) const {
        return checked_join<dsl_detail::join_kind::inner, true>(other, std::move(joiner), named{}, m);
    }
    template <class V2, class F, class KS, class VS>
    auto join(const ktable<K, V2>& other, F joiner, named n, materialized<KS, VS> m) const {
        return checked_join<dsl_detail::join_kind::inner, true>(other, std::move(joiner), n, m);
    }
    /// As join(), with a row for every key of this table: joiner(this value, std::optional<other
    /// value>), nullopt while the other table has no row.
    template <class V2, class F>
    auto left_join(const ktable<K, V2>& other, F joiner, named n = {}) const {
        return checked_join<dsl_detail::join_kind::left, false>(other, std::move(joiner), n, materialized<>{});
    }
    template <class V2, class F, class KS, class VS>
    auto left_join(const ktable<K, V2>& other, F joiner, materialized<KS, VS> m) const {
        return checked_join<dsl_detail::join_kind::left, true>(other, std::move(joiner), named{}, m);
    }
    template <class V2, class F, class KS, class VS>
    auto left_join(const ktable<K, V2>& other, F joiner, named n, materialized<KS, VS> m) const {
        return checked_join<dsl_detail::join_kind::left, true>(other, std::move(joiner), n, m);
    }
    /// As join(), with a row for every key of either table: joiner(std::optional<this value>,
    /// std::optional<other value>).
    template <class V2, class F>
    auto outer_join(const ktable<K, V2>& other, F joiner, named n = {}) const {
        return checked_join<dsl_detail::join_kind::outer, false>(other, std::move(joiner), n, materialized<>{});
    }
    template <class V2, class F, class KS, class VS>
    auto outer_join(const ktable<K, V2>& other, F joiner, materialized<KS, VS> m) const {
        return checked_join<dsl_detail::join_kind::outer, true>(other, std::move(joiner), named{}, m);
    }
    template <class V2, class F, class KS, class VS>
    auto outer_join(const ktable<K, V2>& other, F joiner, named n, materialized<KS, VS> m) const {
        return checked_join<dsl_detail::join_kind::outer, true>(other, std::move(joiner), n, m);
    }

    /// Foreign-key join (KIP-213, ktable_fk_join.hpp): joins each row of this table with the row
    /// of `other` whose key is foreign_key(value) or foreign_key(key, value), joiner(this value,
    /// other value) (or with the key in front). Both tables update the result, timestamped with the
    /// later row; a row whose foreign key is missing on the other side, or null (an empty
    /// std::optional), has no result. Goes through two internal topics,
    /// `<app>-<name>-subscription-registration-topic` and `-subscription-response-topic`, with
    /// Kafka Streams' byte formats; `table_joined` names the join and gives the tables'
    /// partitioners, `materialized` keeps the result in a store.
    template <class KO, class VO, class Fk, dsl_detail::fk_joiner F>
    auto join(const ktable<KO, VO>& other, Fk foreign_key, F joiner) const {
        return do_fk_join<false>(other, std::move(foreign_key), std::move(joiner), table_joined<>{}, materialized<>{});
    }
    template <class KO, class VO, class Fk, dsl_detail::fk_joiner F, class P, class OP>
    auto join(const ktable<KO, VO>& other, Fk foreign_key, F joiner, table_joined<P, OP> tj) const {
        return do_fk_join<false>(other, std::move(foreign_key), std::move(joiner), tj, materialized<>{});
    }
    template <class KO, class VO, class Fk, dsl_detail::fk_joiner F, class KS, class VS>
    auto join(const ktable<KO, VO>& other, Fk foreign_key, F joiner, materialized<KS, VS> m) const {
        return do_fk_join<false>(other, std::move(foreign_key), std::move(joiner), table_joined<>{}, m);
    }
    template <class KO, class VO, class Fk, dsl_detail::fk_joiner F, class P, class OP, class KS, class VS>
    auto join(const ktable<KO, VO>& other, Fk foreign_key, F joiner, table_joined<P, OP> tj, materialized<KS, VS> m) const {
        return do_fk_join<false>(other, std::move(foreign_key), std::move(joiner), tj, m);
    }
    /// As the foreign-key join(), with a result for every row of this table: joiner(this value,
    /// std::optional<other value>), nullopt while the foreign key is null or has no row.
    template <class KO, class VO, class Fk, dsl_detail::fk_joiner F>
    auto left_join(const ktable<KO, VO>& other, Fk foreign_key, F joiner) const {
        return do_fk_join<true>(other, std::move(foreign_key), std::move(joiner), table_joined<>{}, materialized<>{});
    }
    template <class KO, class VO, class Fk, dsl_detail::fk_joiner F, class P, class OP>
    auto left_join(const ktable<KO, VO>& other, Fk foreign_key, F joiner, table_joined<P, OP> tj) const {
        return do_fk_join<true>(other, std::move(foreign_key), std::move(joiner), tj, materialized<>{});
    }
    template <class KO, class VO, class Fk, dsl_detail::fk_joiner F, class KS, class VS>
    auto left_join(const ktable<KO, VO>& other, Fk foreign_key, F joiner, materialized<KS, VS> m) const {
        return do_fk_join<true>(other, std::move(foreign_key), std::move(joiner), table_joined<>{}, m);
    }
    template <class KO, class VO, class Fk, dsl_detail::fk_joiner F, class P, class OP, class KS, class VS>
    auto left_join(const ktable<KO, VO>& other, Fk foreign_key, F joiner, table_joined<P, OP> tj, materialized<KS, VS> m) const {
        return do_fk_join<true>(other, std::move(foreign_key), std::move(joiner), tj, m);
    }

    /// Holds back updates (Kafka's suppress; suppressed.hpp): `suppressed::until_time_limit(wait,
    /// buffer)` emits each key's latest update once `wait` of stream time has passed since its
    /// first buffered one; the buffer is the store `KTABLE-SUPPRESS-STATE-STORE-<n>` (or
    /// `<name>-store`), logged to its changelog unless the buffer config says otherwise.
    ktable suppress(const suppressed& s) const { return do_suppress(s.spec(), false); }
    /// `suppressed::until_window_closes(strict buffer)`: windowed tables only; each window's final
    /// result once, when stream time reaches its end plus the windowed aggregation's grace.
    ktable suppress(const window_close_suppressed& s) const {
        static_assert(dsl_detail::is_windowed<K>::value,
                      "kstreams: ktable::suppress(suppressed::until_window_closes(...)) needs a windowed table "
                      "(ktable<windowed<K>, V>, from windowed_by); use suppressed::until_time_limit for others");
        return do_suppress(s.spec(), true);
    }

    /// The name of the store behind this table if it was given one (it is then queryable).
    const std::optional<std::string>& queryable_store_name() const { return store_name_; }

private:
    template <class, class> friend class ktable;
    template <class, class> friend class kstream;
    template <class, class> friend class kgrouped_stream;
    template <class, class> friend class kgrouped_table;
    template <class, class> friend class time_windowed_kstream;
    template <class, class> friend class session_windowed_kstream;
    template <class, class> friend class cogrouped_kstream;
    template <class, class> friend class time_windowed_cogrouped_kstream;
    template <class, class> friend class session_windowed_cogrouped_kstream;
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

    /// What a table operator given a `materialized` keeps. Kafka Streams' order of names: the
    /// store's name is taken first (even when unnamed, though only a named store is kept), then
    /// the processor's.
    template <class V2>
    struct materialized_result {
        std::string store;
        std::shared_ptr<dsl_detail::table_info> info;
        serde_ref<K> key_serde;
        serde_ref<V2> value_serde;
    };
    template <bool Given, class V2, class KS, class VS>
    materialized_result<V2> materialize(std::string_view prefix, const materialized<KS, VS>& m,
                                        serde_ref<V2> inherited_value_serde) const {
        materialized_result<V2> out{{}, child_info(), key_serde_, std::move(inherited_value_serde)};
        if constexpr (Given) {
            out.store = m.store_name.empty() ? b_->new_store_name(prefix) : m.store_name;
            if constexpr (!std::is_same_v<KS, no_serde>) out.key_serde = dsl_detail::pick_serde<K>(m.key_serde, {});
            if constexpr (!std::is_same_v<VS, no_serde>) out.value_serde = dsl_detail::pick_serde<V2>(m.value_serde, {});
            if (!m.store_name.empty()) {
                out.info->materialized = true;
                out.info->has_own_store = true;  // old values come from it
                out.info->caching = m.caching;
                out.info->versioned_store = m.versioned_supplier != nullptr;
            }
        }
        return out;
    }
    template <bool Given, class V2, class KS, class VS>
    std::size_t add_table_node(dsl_detail::graph_node g, const materialized_result<V2>& r,
                               const materialized<KS, VS>& m) const {
        if constexpr (Given) {
            if (r.info->materialized) {
                g.stores.push_back(dsl_detail::table_store_builder<K, V2>(
                    *b_, r.store, m, dsl_detail::pick_serde<K>(m.key_serde, r.key_serde),
                    dsl_detail::pick_serde<V2>(m.value_serde, r.value_serde)));
                g.store_if = [info = r.info] { return info->materialized; };
            }
        }
        return b_->add(with_table(std::move(g), r.info));
    }
    template <class V2>
    static std::optional<std::string> queryable_name(const materialized_result<V2>& r) {
        return r.info->materialized ? std::optional<std::string>(r.store) : std::nullopt;
    }

    template <bool Given, class F, class KS, class VS>
    ktable do_filter(F pred, const named& n, bool negate, const materialized<KS, VS>& m) const {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: ktable::filter(): the predicate must take (key, value) or (value) of this table's types");
        static_assert(std::is_convertible_v<dsl_detail::kv_result_t<F, K, V>, bool>, "kstreams: ktable::filter(): the predicate must return bool");
        auto r = materialize<Given, V>(dsl_detail::names::table_filter, m, value_serde_);
        // Kafka's KTableFilter asks for old values where they come for free, so that an update
        // failing the predicate both before and after sends no tombstone.
        if (b_->send_old_values_if_materialized(node_)) r.info->send_old_values = true;
        r.info->versioned_semantics = dsl_detail::output_versioned(*b_, node_);
        const std::string name = b_->name_or_generate(n.name, dsl_detail::names::table_filter);
        if (!r.info->materialized)
            r.info->view = dsl_detail::derived_view<K, V, V>(node_, [pred, negate](const K& k, std::optional<value_and_timestamp<V>> v) mutable {
                if (v && static_cast<bool>(dsl_detail::call_kv(pred, k, v->value)) == negate) v.reset();
                return v;
            });
        const std::size_t i = add_table_node<Given>(
            dsl_detail::processor_node_of<K, change<V>, K, change<V>, dsl_detail::table_filter_node<K, V, F>>(
                name, {node_}, std::shared_ptr<const dsl_detail::table_info>(r.info), std::move(pred), negate, r.store),
            r, m);
        return ktable(b_, i, r.key_serde, r.value_serde, queryable_name(r));
    }

    template <bool Given, class Supplier, class KS, class VS>
    auto do_transform_values(Supplier supplier, const named& n, const materialized<KS, VS>& m,
                             std::vector<std::string> stores) const;

    template <bool Given, class F, class KS, class VS>
    auto do_map_values(F f, const named& n, const materialized<KS, VS>& m) const {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: ktable::map_values(): the function must take (key, value) or (value) of this table's types");
        using V2 = dsl_detail::kv_result_t<F, K, V>;
        static_assert(!std::is_void_v<V2>, "kstreams: ktable::map_values(): the function must return the new value");
        auto r = materialize<Given, V2>(dsl_detail::names::table_map_values, m, serde_ref<V2>{});
        const std::string name = b_->name_or_generate(n.name, dsl_detail::names::table_map_values);
        if (!r.info->materialized)
            r.info->view = dsl_detail::derived_view<K, V, V2>(node_, [f](const K& k, const std::optional<value_and_timestamp<V>>& v) mutable {
                std::optional<value_and_timestamp<V2>> out;
                if (!v) return out;
                if (auto nv = dsl_detail::null_if_empty(std::optional<V2>(V2(dsl_detail::call_kv(f, k, v->value)))))
                    out = value_and_timestamp<V2>{std::move(*nv), v->timestamp};
                return out;
            });
        const std::size_t i = add_table_node<Given>(
            dsl_detail::processor_node_of<K, change<V>, K, change<V2>, dsl_detail::table_map_values_node<K, V, V2, F>>(
                name, {node_}, std::shared_ptr<const dsl_detail::table_info>(r.info), std::move(f), r.store),
            r, m);
        return ktable<K, V2>(b_, i, r.key_serde, r.value_serde, queryable_name(r));
    }

    /// Kafka's order of names: the processor's (unless given), the grace, the store's.
    ktable do_suppress(const dsl_detail::suppression& s, bool final_results) const {
        const std::string name = s.name.empty() ? b_->new_processor_name(dsl_detail::names::suppress) : s.name;
        const std::int64_t wait = final_results ? dsl_detail::window_close_grace(*b_, node_) : s.time_limit_ms;
        const std::string store = s.name.empty() ? b_->new_store_name(dsl_detail::names::suppress) : s.name + "-store";
        // The buffer keeps the old value a key had when first buffered (Kafka forces it upstream).
        b_->enable_send_old_values(node_);
        const serde_ref<K> ks = dsl_detail::buffer_serde(key_serde_);
        const serde_ref<V> vs = dsl_detail::buffer_serde(value_serde_);
        if (!ks || !vs)
            throw topology_error("suppress " + name + ": the table's " + (ks ? "value" : "key") +
                                 " type has no serde; materialize the table upstream with one");
        auto info = child_info();
        info->view = dsl_detail::suppress_view<K, V>(node_, store, ks, vs);
        dsl_detail::graph_node g =
            dsl_detail::processor_node_of<K, change<V>, K, change<V>, dsl_detail::table_suppress_node<K, V>>(
                name, {node_}, store, s.buffer, final_results, wait, ks, vs);
        g.stores.push_back(dsl_detail::suppress_buffer_builder(store, s.buffer.logging, s.buffer.log_config));
        return ktable(b_, b_->add(with_table(std::move(g), std::move(info))), key_serde_, value_serde_);
    }

    template <dsl_detail::join_kind Kind, bool Given, class V2, class F, class KS, class VS>
    auto do_join(const ktable<K, V2>& other, F joiner, const named& n, const materialized<KS, VS>& m) const;
    template <dsl_detail::join_kind Kind, bool Given, class V2, class F, class KS, class VS>
    auto checked_join(const ktable<K, V2>& other, F joiner, const named& n, const materialized<KS, VS>& m) const {
        constexpr bool valid = dsl_detail::join_call<K, V, V2, F, Kind>::valid;
        static_assert(valid || Kind != dsl_detail::join_kind::inner,
                      "kstreams: ktable::join(): the joiner must take (this value, other value) or (key, this value, other value)");
        static_assert(valid || Kind != dsl_detail::join_kind::left,
                      "kstreams: ktable::left_join(): the joiner must take (this value, std::optional<other value>) or (key, "
                      "this value, std::optional<other value>)");
        static_assert(valid || Kind != dsl_detail::join_kind::outer,
                      "kstreams: ktable::outer_join(): the joiner must take (std::optional<this value>, std::optional<other "
                      "value>) or (key, std::optional<this value>, std::optional<other value>)");
        static_assert(!valid || dsl_detail::join_call<K, V, V2, F, Kind>::shape::not_over_wrapped,
                      "kstreams: ktable join: " KSTREAMS_JOINER_OVER_WRAPPED_MESSAGE);
        if constexpr (dsl_detail::join_call<K, V, V2, F, Kind>::ok) return do_join<Kind, Given>(other, std::move(joiner), n, m);
    }

    template <bool Left, class KO, class VO, class Fk, class F, class P, class OP, class KS, class VS>
    auto do_fk_join(const ktable<KO, VO>& other, Fk foreign_key, F joiner, const table_joined<P, OP>& tj,
                    const materialized<KS, VS>& m) const;

    std::shared_ptr<dsl_detail::builder_state> b_;
    std::size_t node_;
    serde_ref<K> key_serde_;
    serde_ref<V> value_serde_;
    std::optional<std::string> store_name_;
};

}  // namespace kstreams
