// cogrouped_kstream<K, VOut> (KIP-150, Kafka's CogroupedKStream): several grouped streams of one key
// type, each with values of its own type and its own aggregator(key, value, aggregate) -> VOut,
// folded into one aggregate per key (or per key and window) kept in one store. Started by
// kgrouped_stream::cogroup(aggregator), extended by .cogroup(other grouped stream, aggregator),
// ended by .aggregate(initializer) or .windowed_by(windows).aggregate(...). As Kafka's: one
// aggregation processor per grouped stream (COGROUPKSTREAM-AGGREGATE-<n>, or <name>-cogroup-agg-<i>),
// all on the one store, then a merge processor (COGROUPKSTREAM-MERGE-<n>, or <name>-cogroup-merge)
// whose table is the result; a re-keyed grouped stream goes through a repartition topic named
// after its grouping or the store; the inputs must be co-partitioned. Windowed cogroups emit on
// every update (Kafka has no other emit strategy for them). Include <kstreams/dsl.hpp>.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/detail/value_getter.hpp>
#include <kstreams/dsl/detail/window_store_builder.hpp>
#include <kstreams/dsl/kgrouped_stream.hpp>
#include <kstreams/dsl/ktable.hpp>
#include <kstreams/dsl/ops/aggregate_fold.hpp>
#include <kstreams/dsl/ops/passthrough.hpp>
#include <kstreams/dsl/ops/session_window_aggregate.hpp>
#include <kstreams/dsl/ops/sliding_window_aggregate.hpp>
#include <kstreams/dsl/ops/stream_aggregate.hpp>
#include <kstreams/dsl/ops/window_aggregate.hpp>
#include <kstreams/dsl/options.hpp>
#include <kstreams/dsl/session_windows.hpp>
#include <kstreams/dsl/sliding_windows.hpp>
#include <kstreams/dsl/time_windows.hpp>
#include <kstreams/dsl/windowed_serdes.hpp>

namespace kstreams {

template <class K, class VOut> class cogrouped_kstream;
template <class K, class VOut> class time_windowed_cogrouped_kstream;
template <class K, class VOut> class session_windowed_cogrouped_kstream;

namespace dsl_detail {

inline constexpr std::string_view cogroup_aggregate = "COGROUPKSTREAM-AGGREGATE-";
inline constexpr std::string_view cogroup_merge = "COGROUPKSTREAM-MERGE-";

/// The aggregate type of a cogroup aggregator(key, value, aggregate): its return type, read from
/// a lambda's (non-generic) call operator or a function pointer.
template <class F>
struct call_result : call_result<decltype(&F::operator())> {};
template <class R, class... A>
struct call_result<R (*)(A...)> { using type = std::decay_t<R>; };
template <class C, class R, class... A>
struct call_result<R (C::*)(A...) const> { using type = std::decay_t<R>; };
template <class C, class R, class... A>
struct call_result<R (C::*)(A...)> { using type = std::decay_t<R>; };

/// The aggregate type of kgrouped_stream::cogroup<VOut>(f): VOut if given, else f's result.
template <class VOut, class F>
struct cogroup_result {
    using type = VOut;
};
template <class F>
struct cogroup_result<void, F> {
    using type = typename call_result<F>::type;
};

template <class K, class VOut>
using cogroup_windows = std::variant<std::monostate, time_windows, sliding_windows, session_windows>;

/// What the aggregation processor of one grouped stream is made from.
template <class K, class VOut>
struct cogroup_node_args {
    std::string name;
    std::string store;
    std::shared_ptr<const table_info> info;
    std::function<VOut()> init;
    std::function<VOut(const K&, const VOut&, const VOut&)> merge;  ///< sessions only
    cogroup_windows<K, VOut> windows;
    serde_ref<K> key_serde;
};

/// One grouped stream of a cogroup, its value type and aggregator erased.
template <class K, class VOut>
struct cogroup_input {
    std::size_t node = 0;
    bool repartition_required = false;
    std::string repartition_name;  ///< the grouping's (grouped::as), if named
    std::function<repartition_spec(builder_state&, const std::string& prefix, const serde_ref<K>& ks)> make_repartition;
    std::function<graph_node(const cogroup_node_args<K, VOut>&)> make_node;
};

}  // namespace dsl_detail

template <class K, class VOut>
class cogrouped_kstream {
public:
    /// Adds another grouped stream (of the same key type, any value type) with its aggregator
    /// (key, value, aggregate) -> aggregate.
    template <class V, class F>
    cogrouped_kstream cogroup(const kgrouped_stream<K, V>& grouped, F aggregator) const {
        static_assert(std::is_invocable_v<F&, const K&, const V&, const VOut&>,
                      "kstreams: cogroup(): the aggregator must take (key, value, aggregate) with this cogroup's aggregate type");
        static_assert(std::is_convertible_v<std::invoke_result_t<F&, const K&, const V&, const VOut&>, VOut>,
                      "kstreams: cogroup(): the aggregator must return this cogroup's aggregate type");
        cogrouped_kstream c = *this;
        dsl_detail::cogroup_input<K, VOut> in;
        in.node = grouped.node_;
        in.repartition_required = grouped.repartition_required_;
        in.repartition_name = grouped.repartition_name_;
        serde_ref<V> vs = grouped.value_serde_;
        in.make_repartition = [vs](dsl_detail::builder_state& b, const std::string& prefix, const serde_ref<K>& ks) {
            if (!vs)
                throw topology_error("cogroup: a re-keyed grouped stream reads through a repartition topic but its value type "
                                     "has no serde: pass one with grouped::with_value_serde");
            dsl_detail::repartition_spec s = dsl_detail::new_stream_repartition(b, prefix);
            dsl_detail::type_repartition<K, V>(s, ks, vs);
            return s;
        };
        in.make_node = [f = std::move(aggregator), parent = grouped.node_](const dsl_detail::cogroup_node_args<K, VOut>& a) {
            // Declares std::optional<V> where the user's aggregator does, so that windowed
            // cogroups hand it null values as Kafka's do (aggregate_fold::takes_null_value).
            using value_param = std::conditional_t<!is_optional_v<V> && dsl_detail::declares_optional<F, 3, 1, V>(),
                                                   std::optional<V>, V>;
            auto add = [f](const K& k, const value_param& v, const VOut& agg) mutable { return VOut(f(k, v, agg)); };
            using init_fn = std::function<VOut()>;
            using fold = dsl_detail::aggregate_fold<K, V, VOut, init_fn, decltype(add)>;
            if (std::holds_alternative<std::monostate>(a.windows))
                return dsl_detail::processor_node_of<K, V, K, change<VOut>, dsl_detail::stream_aggregate_node<K, V, VOut, fold>>(
                    a.name, {parent}, a.store, a.info, fold{a.init, add});
            if (const auto* w = std::get_if<time_windows>(&a.windows))
                return dsl_detail::processor_node_of<K, V, windowed<K>, change<VOut>,
                                                     dsl_detail::window_aggregate_node<K, V, VOut, fold>>(
                    a.name, {parent}, a.store, a.info, *w, fold{a.init, add}, false, a.key_serde);
            if (const auto* w = std::get_if<sliding_windows>(&a.windows))
                return dsl_detail::processor_node_of<K, V, windowed<K>, change<VOut>,
                                                     dsl_detail::sliding_window_aggregate_node<K, V, VOut, fold>>(
                    a.name, {parent}, a.store, a.info, *w, fold{a.init, add}, false, a.key_serde);
            using merge = dsl_detail::aggregate_merge<K, VOut, std::function<VOut(const K&, const VOut&, const VOut&)>>;
            return dsl_detail::processor_node_of<K, V, windowed<K>, change<VOut>,
                                                 dsl_detail::session_window_aggregate_node<K, V, VOut, fold, merge>>(
                a.name, {parent}, a.store, a.info, std::get<session_windows>(a.windows), fold{a.init, add}, merge{a.merge},
                false, a.key_serde);
        };
        c.inputs_.push_back(std::move(in));
        return c;
    }

    /// The aggregate per key, from initializer() -> VOut; a table kept in the store `m` names (or
    /// COGROUPKSTREAM-AGGREGATE-STATE-STORE-<n>).
    template <class Init>
    ktable<K, VOut> aggregate(Init init, named n = {}) const { return aggregate(std::move(init), std::move(n), materialized<>{}); }
    template <class Init, class KS, class VS>
    ktable<K, VOut> aggregate(Init init, materialized<KS, VS> m) const { return aggregate(std::move(init), named{}, std::move(m)); }
    template <class Init, class KS, class VS>
    ktable<K, VOut> aggregate(Init init, named n, materialized<KS, VS> m) const {
        check_initializer<Init>();
        serde_ref<K> ks = dsl_detail::pick_serde<K>(m.key_serde, key_serde_);
        serde_ref<VOut> vs = dsl_detail::pick_serde<VOut>(m.value_serde, {});
        const std::string store = m.store_name.empty() ? b_->new_store_name(dsl_detail::cogroup_aggregate) : m.store_name;
        auto info = std::make_shared<dsl_detail::table_info>();
        info->has_own_store = true;
        info->materialized = true;
        info->versioned_store = m.versioned_supplier != nullptr;  // see aggregate_store.hpp
        // Joins read the table from the store the aggregation processors share.
        info->view = std::make_shared<const dsl_detail::table_view<K, VOut>>([store](dsl_detail::builder_state&) {
            return dsl_detail::value_getter_supplier<K, VOut>{
                [store] { return std::unique_ptr<dsl_detail::value_getter<K, VOut>>(std::make_unique<dsl_detail::store_value_getter<K, VOut>>(store)); },
                {store}};
        });
        auto store_builder = dsl_detail::table_store_builder<K, VOut>(*b_, store, m, ks, vs);
        const std::size_t merge = build<K>(n, store, info, std::move(store_builder), {}, std::function<VOut()>(std::move(init)), {}, ks, {});
        return ktable<K, VOut>(b_, merge, ks, vs, m.store_name.empty() ? std::nullopt : std::optional<std::string>(store));
    }

    /// Tumbling or hopping windows (time_windows) or sliding windows: a windowed aggregate.
    time_windowed_cogrouped_kstream<K, VOut> windowed_by(time_windows w) const { return {*this, w}; }
    time_windowed_cogrouped_kstream<K, VOut> windowed_by(sliding_windows w) const { return {*this, w}; }
    /// Session windows: aggregate(initializer, merger, ...).
    session_windowed_cogrouped_kstream<K, VOut> windowed_by(session_windows w) const { return {*this, w}; }

private:
    template <class, class> friend class kgrouped_stream;
    template <class, class> friend class time_windowed_cogrouped_kstream;
    template <class, class> friend class session_windowed_cogrouped_kstream;

    cogrouped_kstream(std::shared_ptr<dsl_detail::builder_state> b, serde_ref<K> ks) : b_(std::move(b)), key_serde_(std::move(ks)) {}

    template <class Init>
    static void check_initializer() {
        static_assert(std::is_invocable_v<Init&>, "kstreams: cogroup aggregate(): the initializer must take no arguments");
        static_assert(std::is_convertible_v<std::invoke_result_t<Init&>, VOut>,
                      "kstreams: cogroup aggregate(): the initializer must return the cogroup's aggregate type");
    }

    /// Kafka's order of names: (the store's, by the caller,) the repartitions, one processor per
    /// grouped stream, the merge. Returns the merge node, whose table is the result.
    template <class KOut>
    std::size_t build(const named& n, const std::string& store, std::shared_ptr<dsl_detail::table_info> info,
                      std::shared_ptr<const store_builder> store_builder, dsl_detail::cogroup_windows<K, VOut> windows,
                      std::function<VOut()> init, std::function<VOut(const K&, const VOut&, const VOut&)> merge,
                      serde_ref<K> ks, std::optional<std::int64_t> grace) const {
        dsl_detail::builder_state& b = *b_;
        std::vector<std::optional<dsl_detail::repartition_spec>> repartitions;
        for (const auto& in : inputs_) {
            std::optional<dsl_detail::repartition_spec> s;
            if (in.repartition_required) {
                s = in.make_repartition(b, in.repartition_name.empty() ? store : in.repartition_name, ks);
                s->shareable = !in.repartition_name.empty();
                s->share_key = in.repartition_name;
            }
            repartitions.push_back(std::move(s));
        }
        std::vector<std::size_t> aggregations;
        for (std::size_t i = 0; i < inputs_.size(); ++i) {
            const std::string name = b.name_or_generate(n.name.empty() ? std::string() : n.name + "-cogroup-agg-" + std::to_string(i),
                                                        dsl_detail::cogroup_aggregate);
            dsl_detail::graph_node g = inputs_[i].make_node({name, store, info, init, merge, windows, ks});
            if (i == 0) g.stores.push_back(store_builder);
            else g.connected_stores.push_back(store);
            g.window_close_grace = grace;
            if (repartitions[i]) g.repartition = std::move(*repartitions[i]);
            aggregations.push_back(b.add(std::move(g)));
        }
        if (aggregations.size() > 1) b.add_copartition_group(aggregations);
        const std::string merge_name = b.name_or_generate(n.name.empty() ? std::string() : n.name + "-cogroup-merge",
                                                          dsl_detail::cogroup_merge);
        dsl_detail::graph_node m = dsl_detail::processor_node_of<KOut, change<VOut>, KOut, change<VOut>,
                                                                 dsl_detail::passthrough_node<KOut, change<VOut>>>(merge_name, aggregations);
        m.table = std::move(info);
        return b.add(std::move(m));
    }

    std::shared_ptr<dsl_detail::builder_state> b_;
    serde_ref<K> key_serde_;
    std::vector<dsl_detail::cogroup_input<K, VOut>> inputs_;
};

/// A cogroup over time or sliding windows (Kafka's TimeWindowedCogroupedKStream).
template <class K, class VOut>
class time_windowed_cogrouped_kstream {
public:
    template <class Init>
    ktable<windowed<K>, VOut> aggregate(Init init, named n = {}) const { return aggregate(std::move(init), std::move(n), materialized<>{}); }
    template <class Init, class KS, class VS>
    ktable<windowed<K>, VOut> aggregate(Init init, materialized<KS, VS> m) const { return aggregate(std::move(init), named{}, std::move(m)); }
    template <class Init, class KS, class VS>
    ktable<windowed<K>, VOut> aggregate(Init init, named n, materialized<KS, VS> m) const {
        cogrouped_kstream<K, VOut>::template check_initializer<Init>();
        dsl_detail::builder_state& b = *c_.b_;
        serde_ref<K> ks = dsl_detail::pick_serde<K>(m.key_serde, c_.key_serde_);
        serde_ref<VOut> vs = dsl_detail::pick_serde<VOut>(m.value_serde, {});
        const std::string store = m.store_name.empty() ? b.new_store_name(dsl_detail::cogroup_aggregate) : m.store_name;
        std::int64_t size = 0, min_retention = 0, grace = 0;
        bool bounded = true;  // unlimited windows never close
        if (const auto* w = std::get_if<time_windows>(&windows_)) {
            bounded = !w->unlimited();
            size = w->size();
            min_retention = w->size() + w->grace();
            grace = w->grace();
        } else {
            const auto& sw = std::get<sliding_windows>(windows_);
            size = sw.time_difference();
            min_retention = 2 * sw.time_difference() + sw.grace();
            grace = sw.grace();
        }
        auto info = std::make_shared<dsl_detail::table_info>();
        info->has_own_store = true;
        info->materialized = true;
        auto sb = dsl_detail::timestamped_window_store_builder<K, VOut>(store, m, size, min_retention, ks, vs, false, false, bounded);
        dsl_detail::cogroup_windows<K, VOut> w;
        std::visit([&w](const auto& x) { w = x; }, windows_);
        const std::size_t merge = c_.template build<windowed<K>>(n, store, info, std::move(sb), w,
                                                                std::function<VOut()>(std::move(init)), {}, ks, grace);
        serde_ref<windowed<K>> wks(time_windowed_serde<K, serde_ref<K>>{ks, size});
        return ktable<windowed<K>, VOut>(c_.b_, merge, std::move(wks), vs,
                                         m.store_name.empty() ? std::nullopt : std::optional<std::string>(store));
    }

private:
    friend class cogrouped_kstream<K, VOut>;
    time_windowed_cogrouped_kstream(cogrouped_kstream<K, VOut> c, std::variant<time_windows, sliding_windows> w)
        : c_(std::move(c)), windows_(w) {}
    cogrouped_kstream<K, VOut> c_;
    std::variant<time_windows, sliding_windows> windows_;
};

/// A cogroup over session windows (Kafka's SessionWindowedCogroupedKStream).
template <class K, class VOut>
class session_windowed_cogrouped_kstream {
public:
    /// initializer() -> VOut; merger(key, aggregate, aggregate) -> VOut when a record joins sessions.
    template <class Init, class M>
    ktable<windowed<K>, VOut> aggregate(Init init, M merger, named n = {}) const {
        return aggregate(std::move(init), std::move(merger), std::move(n), materialized<>{});
    }
    template <class Init, class M, class KS, class VS>
    ktable<windowed<K>, VOut> aggregate(Init init, M merger, materialized<KS, VS> m) const {
        return aggregate(std::move(init), std::move(merger), named{}, std::move(m));
    }
    template <class Init, class M, class KS, class VS>
    ktable<windowed<K>, VOut> aggregate(Init init, M merger, named n, materialized<KS, VS> m) const {
        cogrouped_kstream<K, VOut>::template check_initializer<Init>();
        static_assert(std::is_invocable_v<M&, const K&, const VOut&, const VOut&> &&
                          std::is_convertible_v<std::invoke_result_t<M&, const K&, const VOut&, const VOut&>, VOut>,
                      "kstreams: cogroup aggregate(): the session merger must take (key, aggregate, aggregate) and return the aggregate type");
        dsl_detail::builder_state& b = *c_.b_;
        serde_ref<K> ks = dsl_detail::pick_serde<K>(m.key_serde, c_.key_serde_);
        serde_ref<VOut> vs = dsl_detail::pick_serde<VOut>(m.value_serde, {});
        const std::string store = m.store_name.empty() ? b.new_store_name(dsl_detail::cogroup_aggregate) : m.store_name;
        auto info = std::make_shared<dsl_detail::table_info>();
        info->has_own_store = true;
        info->materialized = true;
        // Several streams' processors merge each other's sessions, each with its own stream time and
        // hold: recomputation does not follow a session across them yet.
        const char* not_yet = c_.inputs_.size() > 1 ? "session windows over a cogroup of several streams" : nullptr;
        auto sb = dsl_detail::session_store_builder_of<K, VOut>(store, m, windows_.inactivity_gap() + windows_.grace(), ks, vs,
                                                                false, not_yet);
        std::function<VOut(const K&, const VOut&, const VOut&)> merge = [merger](const K& k, const VOut& a, const VOut& x) mutable {
            return VOut(merger(k, a, x));
        };
        const std::size_t i = c_.template build<windowed<K>>(n, store, info, std::move(sb), windows_, std::function<VOut()>(std::move(init)),
                                                            std::move(merge), ks, windows_.inactivity_gap() + windows_.grace());
        serde_ref<windowed<K>> wks(session_windowed_serde<K, serde_ref<K>>{ks});
        return ktable<windowed<K>, VOut>(c_.b_, i, std::move(wks), vs,
                                         m.store_name.empty() ? std::nullopt : std::optional<std::string>(store));
    }

private:
    friend class cogrouped_kstream<K, VOut>;
    session_windowed_cogrouped_kstream(cogrouped_kstream<K, VOut> c, session_windows w) : c_(std::move(c)), windows_(w) {}
    cogrouped_kstream<K, VOut> c_;
    session_windows windows_;
};

template <class K, class V>
template <class VOut, class F>
auto kgrouped_stream<K, V>::cogroup(F aggregator) const {
    using Agg = typename dsl_detail::cogroup_result<VOut, F>::type;
    return cogrouped_kstream<K, Agg>(b_, key_serde_).cogroup(*this, std::move(aggregator));
}

}  // namespace kstreams
