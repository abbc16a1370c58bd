// kgrouped_table<K,V>: a table regrouped by a new key, for count / reduce / aggregate with a
// subtractor. The updates travel through a repartition topic named after the grouping
// (grouped::as: one topic shared by all its aggregations) or each aggregation's store. Include
// <kstreams/dsl.hpp>.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/ops/aggregate_fold.hpp>
#include <kstreams/dsl/ops/table_aggregate.hpp>
#include <kstreams/dsl/options.hpp>

namespace kstreams {

template <class K, class V> class ktable;

template <class K, class V>
class kgrouped_table {
public:
    /// Rows per key: +1 for a row that arrives, -1 for one that leaves.
    ktable<K, std::int64_t> count(named n = {}) const { return count(std::move(n), materialized<>{}); }
    template <class KS, class VS>
    ktable<K, std::int64_t> count(materialized<KS, VS> m) const { return count(named{}, std::move(m)); }
    template <class KS, class VS>
    ktable<K, std::int64_t> count(named n, materialized<KS, VS> m) const {
        auto init = [] { return std::int64_t{0}; };
        auto add = [](const K&, const V&, std::int64_t agg) { return agg + 1; };
        auto sub = [](const K&, const V&, std::int64_t agg) { return agg - 1; };
        using fold = dsl_detail::aggregate_fold<K, V, std::int64_t, decltype(init), decltype(add)>;
        using subtract = dsl_detail::aggregate_subtract<K, V, std::int64_t, decltype(sub)>;
        return build<std::int64_t, dsl_detail::table_aggregate_node<K, V, std::int64_t, fold, subtract>>(
            n, m, dsl_detail::names::table_aggregate, fold{init, add}, subtract{sub});
    }

    /// adder(aggregate, new value) and subtractor(aggregate, old value), both -> V.
    template <class A, class S>
    ktable<K, V> reduce(A adder, S subtractor, named n = {}) const { return reduce(std::move(adder), std::move(subtractor), std::move(n), materialized<>{}); }
    template <class A, class S, class KS, class VS>
    ktable<K, V> reduce(A adder, S subtractor, materialized<KS, VS> m) const { return reduce(std::move(adder), std::move(subtractor), named{}, std::move(m)); }
    template <class A, class S, class KS, class VS>
    ktable<K, V> reduce(A adder, S subtractor, named n, materialized<KS, VS> m) const {
        static_assert(std::is_invocable_r_v<V, A&, const V&, const V&>, "kstreams: ktable reduce(): the adder must take (aggregate, value) and return the value type");
        static_assert(std::is_invocable_r_v<V, S&, const V&, const V&>, "kstreams: ktable reduce(): the subtractor must take (aggregate, value) and return the value type");
        using fold = dsl_detail::reduce_fold<K, V, A>;
        using subtract = dsl_detail::reduce_subtract<K, V, S>;
        return build<V, dsl_detail::table_aggregate_node<K, V, V, fold, subtract>>(
            n, m, dsl_detail::names::table_reduce, fold{std::move(adder)}, subtract{std::move(subtractor)});
    }

    /// initializer() -> Agg; adder(key, new value, agg) and subtractor(key, old value, agg) -> Agg.
    template <class Init, class A, class S>
    auto aggregate(Init init, A adder, S subtractor, named n = {}) const {
        return aggregate(std::move(init), std::move(adder), std::move(subtractor), std::move(n), materialized<>{});
    }
    template <class Init, class A, class S, class KS, class VS>
    auto aggregate(Init init, A adder, S subtractor, materialized<KS, VS> m) const {
        return aggregate(std::move(init), std::move(adder), std::move(subtractor), named{}, std::move(m));
    }
    template <class Init, class A, class S, class KS, class VS>
    auto aggregate(Init init, A adder, S subtractor, named n, materialized<KS, VS> m) const {
        static_assert(std::is_invocable_v<Init&>, "kstreams: ktable aggregate(): the initializer must take no arguments");
        using Agg = std::decay_t<std::invoke_result_t<Init&>>;
        static_assert(std::is_invocable_v<A&, const K&, const V&, const Agg&> && std::is_invocable_v<S&, const K&, const V&, const Agg&>,
                      "kstreams: ktable aggregate(): adder and subtractor must take (key, value, aggregate)");
        static_assert(std::is_same_v<std::decay_t<std::invoke_result_t<A&, const K&, const V&, const Agg&>>, Agg> &&
                          std::is_same_v<std::decay_t<std::invoke_result_t<S&, const K&, const V&, const Agg&>>, Agg>,
                      "kstreams: ktable aggregate(): adder and subtractor must return the aggregate type (the initializer's return type)");
        using fold = dsl_detail::aggregate_fold<K, V, Agg, Init, A>;
        using subtract = dsl_detail::aggregate_subtract<K, V, Agg, S>;
        return build<Agg, dsl_detail::table_aggregate_node<K, V, Agg, fold, subtract>>(
            n, m, dsl_detail::names::table_aggregate, fold{std::move(init), std::move(adder)}, subtract{std::move(subtractor)});
    }

private:
    template <class, class> friend class ktable;

    kgrouped_table(std::shared_ptr<dsl_detail::builder_state> b, std::size_t node, serde_ref<K> ks, serde_ref<V> vs,
                   std::string repartition_name)
        : b_(std::move(b)), node_(node), key_serde_(std::move(ks)), value_serde_(std::move(vs)),
          repartition_name_(std::move(repartition_name)) {}

    /// Store name, then sink, source and processor names (Kafka's KGroupedTableImpl order).
    template <class Agg, class Node, class KS, class VS, class... Args>
    ktable<K, Agg> build(const named& n, const materialized<KS, VS>& m, std::string_view prefix, Args... args) const {
        serde_ref<K> ks = dsl_detail::pick_serde<K>(m.key_serde, key_serde_);
        serde_ref<Agg> as = dsl_detail::pick_serde<Agg>(m.value_serde, serde_ref<Agg>{});
        // reduce() too names its store KTABLE-AGGREGATE-STATE-STORE (as Kafka Streams does).
        const std::string store = m.store_name.empty() ? b_->new_store_name(dsl_detail::names::table_aggregate) : m.store_name;
        dsl_detail::repartition_spec s;
        s.sink_name = b_->name_or_generate(n.empty() ? n.name : n.name + "-sink", dsl_detail::names::sink);
        s.source_name = b_->name_or_generate(n.empty() ? n.name : n.name + "-source", dsl_detail::names::source);
        const std::string name = b_->name_or_generate(n.name, prefix);
        s.topic = (repartition_name_.empty() ? store : repartition_name_) + std::string(dsl_detail::names::repartition_suffix);
        using change_serde_t = dsl_detail::change_serde<V, serde_ref<V>>;
        dsl_detail::type_repartition<K, change<V>>(s, key_serde_, serde_ref<change<V>>(change_serde_t{value_serde_}));
        s.optimizable = false;  // Kafka's GroupedTableOperationRepartitionNode
        // A named grouping's aggregations share its one topic (the first one's sink and source);
        // unnamed, each writes its own, named after its store (Kafka's KGroupedTableImpl).
        s.shareable = !repartition_name_.empty();
        s.share_key = repartition_name_;

        auto info = std::make_shared<dsl_detail::table_info>();
        info->has_own_store = true;
        info->materialized = true;
        // Onto a versioned store (never cached), as Kafka allows: see aggregate_store.hpp.
        info->versioned_store = m.versioned_supplier != nullptr;
        dsl_detail::graph_node g = dsl_detail::processor_node_of<K, change<V>, K, change<Agg>, Node>(
            name, {node_}, store, std::shared_ptr<const dsl_detail::table_info>(info), args...);
        g.table = info;
        g.stores.push_back(dsl_detail::table_store_builder<K, Agg>(*b_, store, m, ks, as));
        g.repartition = std::move(s);
        const std::size_t i = b_->add(std::move(g));
        return ktable<K, Agg>(b_, i, ks, as, m.store_name.empty() ? std::nullopt : std::optional<std::string>(store));
    }

    std::shared_ptr<dsl_detail::builder_state> b_;
    std::size_t node_;
    serde_ref<K> key_serde_;
    serde_ref<V> value_serde_;
    std::string repartition_name_;
};

}  // namespace kstreams
