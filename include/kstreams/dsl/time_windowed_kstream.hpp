// time_windowed_kstream<K,V>: a grouped stream cut into tumbling or hopping windows
// (kgrouped_stream::windowed_by(time_windows)) or sliding windows (windowed_by(sliding_windows)),
// ready for count / reduce / aggregate. The results
// are tables keyed by windowed<K>, whose key serde writes Kafka's time-windowed key (key bytes,
// then the window start as 8 big-endian bytes). Include <kstreams/dsl.hpp>.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>

#include <kstreams/dsl/detail/aggregate_checks.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/detail/window_store_builder.hpp>
#include <kstreams/dsl/emit_strategy.hpp>
#include <kstreams/dsl/kgrouped_stream.hpp>
#include <kstreams/dsl/ops/aggregate_fold.hpp>
#include <kstreams/dsl/ops/sliding_window_aggregate.hpp>
#include <kstreams/dsl/ops/window_aggregate.hpp>
#include <kstreams/dsl/options.hpp>
#include <kstreams/dsl/sliding_windows.hpp>
#include <kstreams/dsl/time_windows.hpp>
#include <kstreams/dsl/windowed_serdes.hpp>

namespace kstreams {

template <class K, class V> class ktable;

template <class K, class V>
class time_windowed_kstream {
public:
    /// on_window_update (the default) or on_window_close: each window once, when it closes.
    time_windowed_kstream emit_strategy(kstreams::emit_strategy s) const {
        time_windowed_kstream c = *this;
        c.emit_final_ = s.on_close();
        return c;
    }

    /// Records per key and window (records with a null value count too in time windows, as in
    /// Kafka; sliding windows drop them).
    ktable<windowed<K>, std::int64_t> count(named n = {}) const { return do_count(n, materialized<>{}); }
    template <class KS, class VS>
    ktable<windowed<K>, std::int64_t> count(materialized<KS, VS> m) const { return count(named{}, std::move(m)); }
    template <class KS, class VS>
    ktable<windowed<K>, std::int64_t> count(named n, materialized<KS, VS> m) const {
        // Kafka burns a store name here when the store is unnamed (kept for compatibility of its
        // generated names), so the indexes after it move by one; not for sliding windows, newer.
        if (m.store_name.empty() && std::holds_alternative<time_windows>(windows_))
            grouped_.b_->new_store_name(dsl_detail::names::aggregate);
        return do_count(n, m);
    }

    /// Combines the values of a key in a window with reducer(aggregate, value) -> V.
    template <class F>
    ktable<windowed<K>, V> reduce(F reducer, named n = {}) const { return reduce(std::move(reducer), std::move(n), materialized<>{}); }
    template <class F, class KS, class VS>
    ktable<windowed<K>, V> reduce(F reducer, materialized<KS, VS> m) const { return reduce(std::move(reducer), named{}, std::move(m)); }
    template <class F, class KS, class VS>
    ktable<windowed<K>, V> reduce(F reducer, named n, materialized<KS, VS> m) const {
        dsl_detail::check_reducer<V, F>();
        return build<V>(n, m, dsl_detail::names::reduce, dsl_detail::reduce_fold<K, V, F>{std::move(reducer)},
                        grouped_.value_serde_);
    }

    /// Folds the values of a key in a window: initializer() -> Agg, then aggregator(key, value, aggregate) -> Agg.
    template <class Init, class F>
    auto aggregate(Init init, F aggregator, named n = {}) const { return aggregate(std::move(init), std::move(aggregator), std::move(n), materialized<>{}); }
    template <class Init, class F, class KS, class VS>
    auto aggregate(Init init, F aggregator, materialized<KS, VS> m) const { return aggregate(std::move(init), std::move(aggregator), named{}, std::move(m)); }
    template <class Init, class F, class KS, class VS>
    auto aggregate(Init init, F aggregator, named n, materialized<KS, VS> m) const {
        dsl_detail::check_aggregator<K, V, Init, F>();
        using Agg = dsl_detail::aggregate_of_t<Init>;
        using fold = dsl_detail::aggregate_fold<K, V, Agg, Init, F>;
        return build<Agg>(n, m, dsl_detail::names::aggregate, fold{std::move(init), std::move(aggregator)});
    }

private:
    friend class kgrouped_stream<K, V>;

    template <class KS, class VS>
    ktable<windowed<K>, std::int64_t> do_count(const named& n, const materialized<KS, VS>& m) const {
        auto init = [] { return std::int64_t{0}; };
        dsl_detail::count_adder<K, V> add;
        using fold = dsl_detail::aggregate_fold<K, V, std::int64_t, decltype(init), decltype(add)>;
        return build<std::int64_t>(n, m, dsl_detail::names::aggregate, fold{init, add});
    }

    time_windowed_kstream(kgrouped_stream<K, V> grouped, std::variant<time_windows, sliding_windows> windows)
        : grouped_(std::move(grouped)), windows_(windows) {}

    /// As kgrouped_stream's: store name, processor name, then the repartition if needed.
    /// `inherited`: the value serde when `m` has none (reduce's is the grouping's).
    template <class Agg, class KS, class VS, class Fold>
    ktable<windowed<K>, Agg> build(const named& n, const materialized<KS, VS>& m, std::string_view prefix, Fold fold,
                                   const serde_ref<Agg>& inherited = {}) const {
        dsl_detail::builder_state& b = *grouped_.b_;
        serde_ref<K> ks = dsl_detail::pick_serde<K>(m.key_serde, grouped_.key_serde_);
        serde_ref<Agg> as = dsl_detail::pick_serde<Agg>(m.value_serde, inherited);
        const std::string store = m.store_name.empty() ? b.new_store_name(prefix) : m.store_name;
        const std::string name = b.name_or_generate(n.name, prefix);
        auto info = std::make_shared<dsl_detail::table_info>();
        info->has_own_store = true;
        info->materialized = true;
        std::shared_ptr<const dsl_detail::table_info> cinfo(info);
        dsl_detail::graph_node g;
        std::int64_t size = 0, min_retention = 0;
        bool bounded = true;  // unlimited windows never close
        if (const auto* w = std::get_if<time_windows>(&windows_)) {
            bounded = !w->unlimited();
            if (w->unlimited() && emit_final_)
                throw std::invalid_argument("windowed aggregation " + name +
                                            ": emitting on window close is only supported for time windows and "
                                            "sliding windows, not unlimited windows (unlimited windows never close)");
            using node = dsl_detail::window_aggregate_node<K, V, Agg, Fold>;
            g = dsl_detail::processor_node_of<K, V, windowed<K>, change<Agg>, node>(name, {grouped_.node_}, store, cinfo, *w,
                                                                                   std::move(fold), emit_final_, ks);
            size = w->size();
            min_retention = w->size() + w->grace();
        } else {
            const sliding_windows& sw = std::get<sliding_windows>(windows_);
            using node = dsl_detail::sliding_window_aggregate_node<K, V, Agg, Fold>;
            g = dsl_detail::processor_node_of<K, V, windowed<K>, change<Agg>, node>(name, {grouped_.node_}, store, cinfo, sw,
                                                                                   std::move(fold), emit_final_, ks);
            // A record may seed the right window of one up to twice the difference before it.
            size = sw.time_difference();
            min_retention = 2 * sw.time_difference() + sw.grace();
        }
        g.table = info;
        g.window_close_grace = std::visit([](const auto& w) { return w.grace(); }, windows_);
        // Kafka keeps the cache of time windows emitting on close, not of sliding ones.
        const bool sliding = std::holds_alternative<sliding_windows>(windows_);
        g.stores.push_back(dsl_detail::timestamped_window_store_builder<K, Agg>(store, m, size, min_retention, ks, as, emit_final_,
                                                                               sliding && emit_final_, bounded));
        const std::size_t i = grouped_.add_aggregation(std::move(g), store, ks);
        serde_ref<windowed<K>> wks(time_windowed_serde<K, serde_ref<K>>{ks, size});
        return ktable<windowed<K>, Agg>(grouped_.b_, i, std::move(wks), as,
                                        m.store_name.empty() ? std::nullopt : std::optional<std::string>(store));
    }

    kgrouped_stream<K, V> grouped_;
    std::variant<time_windows, sliding_windows> windows_;
    bool emit_final_ = false;
};

}  // namespace kstreams
