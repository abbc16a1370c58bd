// session_windowed_kstream<K,V>: a grouped stream cut into sessions (kgrouped_stream::windowed_by(
// session_windows)), ready for count / reduce / aggregate. The results are tables keyed by
// windowed<K> whose key serde writes Kafka's session key (key bytes, then the session's end and
// start as 8 big-endian bytes each). Include <kstreams/dsl.hpp>.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include <kstreams/dsl/detail/aggregate_checks.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/detail/window_store_builder.hpp>
#include <kstreams/dsl/emit_strategy.hpp>
#include <kstreams/dsl/kgrouped_stream.hpp>
#include <kstreams/dsl/ops/aggregate_fold.hpp>
#include <kstreams/dsl/ops/session_window_aggregate.hpp>
#include <kstreams/dsl/options.hpp>
#include <kstreams/dsl/session_windows.hpp>
#include <kstreams/dsl/windowed_serdes.hpp>

namespace kstreams {

template <class K, class V> class ktable;

template <class K, class V>
class session_windowed_kstream {
public:
    /// on_window_update (the default) or on_window_close: each session once, when it closes.
    session_windowed_kstream emit_strategy(kstreams::emit_strategy s) const {
        session_windowed_kstream c = *this;
        c.emit_final_ = s.on_close();
        return c;
    }

    /// Records per key and session (records with a null value count too, as in Kafka).
    ktable<windowed<K>, std::int64_t> count(named n = {}) const { return do_count(n, materialized<>{}); }
    template <class KS, class VS>
    ktable<windowed<K>, std::int64_t> count(materialized<KS, VS> m) const { return count(named{}, std::move(m)); }
    template <class KS, class VS>
    ktable<windowed<K>, std::int64_t> count(named n, materialized<KS, VS> m) const {
        // Kafka burns a store name here when the store is unnamed, as for time windows.
        if (m.store_name.empty()) grouped_.b_->new_store_name(dsl_detail::names::aggregate);
        return do_count(n, m);
    }

    /// Combines the values of a key in a session with reducer(aggregate, value) -> V; merged
    /// sessions combine their aggregates the same way.
    template <class F>
    ktable<windowed<K>, V> reduce(F reducer, named n = {}) const { return reduce(std::move(reducer), std::move(n), materialized<>{}); }
    template <class F, class KS, class VS>
    ktable<windowed<K>, V> reduce(F reducer, materialized<KS, VS> m) const { return reduce(std::move(reducer), named{}, std::move(m)); }
    template <class F, class KS, class VS>
    ktable<windowed<K>, V> reduce(F reducer, named n, materialized<KS, VS> m) const {
        dsl_detail::check_reducer<V, F>();
        return build<V>(n, m, dsl_detail::names::reduce, dsl_detail::reduce_fold<K, V, F>{reducer},
                        dsl_detail::reduce_merge<K, V, F>{reducer}, grouped_.value_serde_);
    }

    /// Folds the values of a key in a session: initializer() -> Agg, aggregator(key, value,
    /// aggregate) -> Agg; merger(key, aggregate, other session's aggregate) -> Agg when a record
    /// joins sessions.
    template <class Init, class F, class M>
    auto aggregate(Init init, F aggregator, M merger, named n = {}) const {
        return aggregate(std::move(init), std::move(aggregator), std::move(merger), std::move(n), materialized<>{});
    }
    template <class Init, class F, class M, class KS, class VS>
    auto aggregate(Init init, F aggregator, M merger, materialized<KS, VS> m) const {
        return aggregate(std::move(init), std::move(aggregator), std::move(merger), named{}, std::move(m));
    }
    template <class Init, class F, class M, class KS, class VS>
    auto aggregate(Init init, F aggregator, M merger, named n, materialized<KS, VS> m) const {
        dsl_detail::check_aggregator<K, V, Init, F>();
        using Agg = dsl_detail::aggregate_of_t<Init>;
        static_assert(std::is_invocable_v<M&, const K&, const Agg&, const Agg&> &&
                          std::is_convertible_v<std::invoke_result_t<M&, const K&, const Agg&, const Agg&>, Agg>,
                      "kstreams: aggregate(): the session merger must take (key, aggregate, aggregate) and return the aggregate type");
        using fold = dsl_detail::aggregate_fold<K, V, Agg, Init, F>;
        return build<Agg>(n, m, dsl_detail::names::aggregate, fold{std::move(init), std::move(aggregator)},
                          dsl_detail::aggregate_merge<K, Agg, M>{std::move(merger)});
    }

private:
    friend class kgrouped_stream<K, V>;

    template <class KS, class VS>
    ktable<windowed<K>, std::int64_t> do_count(const named& n, const materialized<KS, VS>& m) const {
        auto init = [] { return std::int64_t{0}; };
        dsl_detail::count_adder<K, V> add;
        auto merge = [](const K&, std::int64_t a, std::int64_t b) { return a + b; };
        using fold = dsl_detail::aggregate_fold<K, V, std::int64_t, decltype(init), decltype(add)>;
        return build<std::int64_t>(n, m, dsl_detail::names::aggregate, fold{init, add},
                                   dsl_detail::aggregate_merge<K, std::int64_t, decltype(merge)>{merge});
    }

    session_windowed_kstream(kgrouped_stream<K, V> grouped, session_windows windows) : grouped_(std::move(grouped)), windows_(windows) {}

    /// As kgrouped_stream's: store name, processor name, then the repartition if needed.
    /// `inherited`: the value serde when `m` has none (reduce's is the grouping's).
    template <class Agg, class KS, class VS, class Fold, class Merge>
    ktable<windowed<K>, Agg> build(const named& n, const materialized<KS, VS>& m, std::string_view prefix, Fold fold, Merge merge,
                                   const serde_ref<Agg>& inherited = {}) const {
        dsl_detail::builder_state& b = *grouped_.b_;
        serde_ref<K> ks = dsl_detail::pick_serde<K>(m.key_serde, grouped_.key_serde_);
        serde_ref<Agg> as = dsl_detail::pick_serde<Agg>(m.value_serde, inherited);
        const std::string store = m.store_name.empty() ? b.new_store_name(prefix) : m.store_name;
        const std::string name = b.name_or_generate(n.name, prefix);
        auto info = std::make_shared<dsl_detail::table_info>();
        info->has_own_store = true;
        info->materialized = true;
        using node = dsl_detail::session_window_aggregate_node<K, V, Agg, Fold, Merge>;
        dsl_detail::graph_node g = dsl_detail::processor_node_of<K, V, windowed<K>, change<Agg>, node>(
            name, {grouped_.node_}, store, std::shared_ptr<const dsl_detail::table_info>(info), windows_, std::move(fold),
            std::move(merge), emit_final_, ks);
        g.table = info;
        g.window_close_grace = windows_.inactivity_gap() + windows_.grace();
        g.stores.push_back(
            dsl_detail::session_store_builder_of<K, Agg>(store, m, windows_.inactivity_gap() + windows_.grace(), ks, as, emit_final_));
        const std::size_t i = grouped_.add_aggregation(std::move(g), store, ks);
        serde_ref<windowed<K>> wks(session_windowed_serde<K, serde_ref<K>>{ks});
        return ktable<windowed<K>, Agg>(grouped_.b_, i, std::move(wks), as,
                                        m.store_name.empty() ? std::nullopt : std::optional<std::string>(store));
    }

    kgrouped_stream<K, V> grouped_;
    session_windows windows_;
    bool emit_final_ = false;
};

}  // namespace kstreams
