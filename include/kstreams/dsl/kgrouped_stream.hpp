// kgrouped_stream<K,V>: a stream grouped by key, ready for count / reduce / aggregate. If the key
// was changed upstream, the aggregation reads through a repartition topic named after the grouping
// (grouped::as) or its store; aggregations of one grouped stream share that topic.
// Include <kstreams/dsl.hpp>.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/dsl/detail/aggregate_checks.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/ops/drop_null_key.hpp>
#include <kstreams/dsl/ops/aggregate_fold.hpp>
#include <kstreams/dsl/ops/stream_aggregate.hpp>
#include <kstreams/dsl/options.hpp>
#include <kstreams/dsl/session_windows.hpp>
#include <kstreams/dsl/sliding_windows.hpp>
#include <kstreams/dsl/time_windows.hpp>

namespace kstreams {

template <class K, class V> class ktable;
template <class K, class V> class time_windowed_kstream;
template <class K, class V> class session_windowed_kstream;
template <class K, class VOut> class cogrouped_kstream;

template <class K, class V>
class kgrouped_stream {
public:
    /// Records per key (null values are not counted).
    ktable<K, std::int64_t> count(named n = {}) const { return do_count(n, materialized<>{}); }
    template <class KS, class VS>
    ktable<K, std::int64_t> count(materialized<KS, VS> m) const { return count(named{}, std::move(m)); }
    template <class KS, class VS>
    ktable<K, std::int64_t> count(named n, materialized<KS, VS> m) const {
        // Kafka burns a store name here when the store is unnamed (as for time and session
        // windows), so the indexes after it move by one; count() without one does not.
        if (m.store_name.empty()) b_->new_store_name(dsl_detail::names::aggregate);
        return do_count(n, m);
    }

    /// Combines a key's values with reducer(aggregate, value) -> V. The table's values are written
    /// with the grouping's value serde unless `m` gives one (as Kafka's).
    template <class F>
    ktable<K, V> reduce(F reducer, named n = {}) const { return reduce(std::move(reducer), std::move(n), materialized<>{}); }
    template <class F, class KS, class VS>
    ktable<K, V> reduce(F reducer, materialized<KS, VS> m) const { return reduce(std::move(reducer), named{}, std::move(m)); }
    template <class F, class KS, class VS>
    ktable<K, V> reduce(F reducer, named n, materialized<KS, VS> m) const {
        dsl_detail::check_reducer<V, F>();
        using fold = dsl_detail::reduce_fold<K, V, F>;
        return build_aggregate<V, dsl_detail::stream_aggregate_node<K, V, V, fold>>(n, m, dsl_detail::names::reduce, value_serde_,
                                                                                   fold{std::move(reducer)});
    }

    /// Folds a key's values: initializer() -> Agg, then aggregator(key, value, aggregate) -> Agg.
    template <class Init, class F>
    auto aggregate(Init init, F aggregator, named n = {}) const { return aggregate(std::move(init), std::move(aggregator), std::move(n), materialized<>{}); }
    template <class Init, class F, class KS, class VS>
    auto aggregate(Init init, F aggregator, materialized<KS, VS> m) const { return aggregate(std::move(init), std::move(aggregator), named{}, std::move(m)); }
    template <class Init, class F, class KS, class VS>
    auto aggregate(Init init, F aggregator, named n, materialized<KS, VS> m) const {
        dsl_detail::check_aggregator<K, V, Init, F>();
        using Agg = dsl_detail::aggregate_of_t<Init>;
        using fold = dsl_detail::aggregate_fold<K, V, Agg, Init, F>;
        return build_aggregate<Agg, dsl_detail::stream_aggregate_node<K, V, Agg, fold>>(
            n, m, dsl_detail::names::aggregate, serde_ref<Agg>{}, fold{std::move(init), std::move(aggregator)});
    }

    /// Windowed aggregations over tumbling or hopping windows (time_windowed_kstream.hpp).
    time_windowed_kstream<K, V> windowed_by(time_windows windows) const { return {*this, windows}; }
    /// Windowed aggregations over sliding windows (time_windowed_kstream.hpp).
    time_windowed_kstream<K, V> windowed_by(sliding_windows windows) const { return {*this, windows}; }
    /// Session aggregations (session_windowed_kstream.hpp).
    session_windowed_kstream<K, V> windowed_by(session_windows windows) const { return {*this, windows}; }

    /// Starts a cogroup (KIP-150; cogrouped_kstream.hpp) with this stream and aggregator(key, value,
    /// aggregate) -> VOut; VOut is the aggregator's return type (give it, cogroup<VOut>(f), for a
    /// generic lambda).
    template <class VOut = void, class F>
    auto cogroup(F aggregator) const;

private:
    template <class, class> friend class kstream;
    template <class, class> friend class time_windowed_kstream;
    template <class, class> friend class session_windowed_kstream;
    template <class, class> friend class cogrouped_kstream;

    kgrouped_stream(std::shared_ptr<dsl_detail::builder_state> b, std::size_t node, bool repartition_required,
                    serde_ref<K> ks, serde_ref<V> vs, std::string repartition_name)
        : b_(std::move(b)), node_(node), repartition_required_(repartition_required), key_serde_(std::move(ks)),
          value_serde_(std::move(vs)), repartition_name_(std::move(repartition_name)) {}

    template <class KS, class VS>
    ktable<K, std::int64_t> do_count(const named& n, const materialized<KS, VS>& m) const {
        auto init = [] { return std::int64_t{0}; };
        auto add = [](const K&, const V&, std::int64_t agg) { return agg + 1; };
        using fold = dsl_detail::aggregate_fold<K, V, std::int64_t, decltype(init), decltype(add)>;
        return build_aggregate<std::int64_t, dsl_detail::stream_aggregate_node<K, V, std::int64_t, fold>>(
            n, m, dsl_detail::names::aggregate, serde_ref<std::int64_t>{}, fold{init, add});
    }

    /// Store name, processor name, then (if needed) the repartition: the order Kafka Streams
    /// allocates their indexes in. `inherited`: the value serde when `m` has none (reduce's is the
    /// grouping's).
    template <class Agg, class Node, class KS, class VS, class... Args>
    ktable<K, Agg> build_aggregate(const named& n, const materialized<KS, VS>& m, std::string_view prefix,
                                   const serde_ref<Agg>& inherited, Args... args) const {
        serde_ref<K> ks = dsl_detail::pick_serde<K>(m.key_serde, key_serde_);
        serde_ref<Agg> as = dsl_detail::pick_serde<Agg>(m.value_serde, inherited);
        const std::string store = m.store_name.empty() ? b_->new_store_name(prefix) : m.store_name;
        const std::string name = b_->name_or_generate(n.name, prefix);
        auto info = std::make_shared<dsl_detail::table_info>();
        info->has_own_store = true;
        info->materialized = true;
        // Onto a versioned store (never cached), as Kafka allows: see aggregate_store.hpp.
        info->versioned_store = m.versioned_supplier != nullptr;
        dsl_detail::graph_node g = dsl_detail::processor_node_of<K, V, K, change<Agg>, Node>(
            name, {node_}, store, std::shared_ptr<const dsl_detail::table_info>(info), args...);
        g.table = info;
        g.stores.push_back(dsl_detail::table_store_builder<K, Agg>(*b_, store, m, ks, as));
        const std::size_t i = add_aggregation(std::move(g), store, ks);
        return ktable<K, Agg>(b_, i, ks, as, m.store_name.empty() ? std::nullopt : std::optional<std::string>(store));
    }

    /// Adds an aggregation's node `g` (named after `store` where its repartition needs a name),
    /// reading through the repartition topic if the key was changed upstream.
    std::size_t add_aggregation(dsl_detail::graph_node g, const std::string& store, const serde_ref<K>& ks) const {
        if (repartition_required_) {
            if (!value_serde_)
                throw topology_error("aggregation " + g.name + " reads through a repartition topic but the value type has no serde: "
                                     "pass one with grouped::with_value_serde");
            dsl_detail::repartition_spec s = dsl_detail::new_stream_repartition(*b_, repartition_name_.empty() ? store : repartition_name_);
            dsl_detail::type_repartition<K, V>(s, key_serde_ ? key_serde_ : ks, value_serde_);
            // Only a named grouping shares its topic; otherwise each aggregation writes its own,
            // named after its store (Kafka's GroupedStreamAggregateBuilder).
            s.shareable = !repartition_name_.empty();
            s.share_key = repartition_name_;
            g.repartition = std::move(s);
        }
        return b_->add(std::move(g));
    }

    std::shared_ptr<dsl_detail::builder_state> b_;
    std::size_t node_;
    bool repartition_required_;
    serde_ref<K> key_serde_;
    serde_ref<V> value_serde_;  ///< empty only if V has no serde and none was given
    std::string repartition_name_;
};

}  // namespace kstreams
