// kstream::join / left_join / outer_join (windowed stream-stream joins), as Kafka's
// KStreamImpl.doJoin and KStreamImplJoin: repartition a side whose key changed upstream, then
// add KSTREAM-WINDOWED (x2), KSTREAM-JOINTHIS / -OUTERTHIS, KSTREAM-JOINOTHER / -OUTEROTHER and
// KSTREAM-MERGE, with the window stores <join-this>-store and <join-other>-store (retention
// before + after + grace, window size before + after, duplicates kept) and, for left/outer joins,
// the shared store KSTREAM-OUTERSHARED-<index>-store. Recovered by recomputation
// (stream_joined::with_recovery), all three are in memory, unlogged and marked for it. Included by
// <kstreams/dsl.hpp>.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include <kstreams/detail/dsl_store_choice.hpp>
#include <kstreams/detail/recompute_store.hpp>
#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/detail/header_logged_stores.hpp>
#include <kstreams/dsl/join_windows.hpp>
#include <kstreams/dsl/kstream.hpp>
#include <kstreams/dsl/ops/passthrough.hpp>
#include <kstreams/dsl/ops/stream_join.hpp>
#include <kstreams/dsl/ops/stream_self_join.hpp>
#include <kstreams/state/window_stores.hpp>

namespace kstreams {

namespace dsl_detail {

inline constexpr std::string_view windowed_name = "KSTREAM-WINDOWED-";
inline constexpr std::string_view join_this_name = "KSTREAM-JOINTHIS-";
inline constexpr std::string_view join_other_name = "KSTREAM-JOINOTHER-";
inline constexpr std::string_view outer_this_name = "KSTREAM-OUTERTHIS-";
inline constexpr std::string_view outer_other_name = "KSTREAM-OUTEROTHER-";
inline constexpr std::string_view outer_shared_name = "KSTREAM-OUTERSHARED-";

/// Kafka's NamedInternal.suffixWithOrElseGet: the user's name + suffix, else a generated name
/// (an index is used up either way).
inline std::string suffixed_or_generated(builder_state& b, const std::string& user, std::string_view suffix,
                                         std::string_view prefix) {
    std::string generated = b.new_processor_name(prefix);
    return user.empty() ? generated : user + std::string(suffix);
}

/// A join store marked for recovery by recomputation when `recompute` (its state is bounded by
/// the windows and grace), else as it is.
inline std::shared_ptr<const store_builder> join_store_recovered(std::shared_ptr<const store_builder> b, bool recompute) {
    if (!recompute) return b;
    return std::make_shared<kstreams::detail::recompute_store_builder>(std::move(b), true);
}

/// A side's buffer: the user's supplier (stream_joined::with_this/other_store_supplier) or one of
/// the join's own, RocksDB or in memory (always in memory and unlogged when recomputed).
template <class K, class V>
std::shared_ptr<const store_builder> join_window_store(const std::string& name, const join_windows& w,
                                                       const std::shared_ptr<const window_bytes_store_supplier>& user,
                                                       std::optional<dsl_store_type> type, bool logging,
                                                       const std::map<std::string, std::string>& log_config,
                                                       serde_ref<K> ks, serde_ref<V> vs, bool recompute) {
    if (recompute) {
        type = dsl_store_type::in_memory;
        logging = false;
    }
    if (user)
        return join_store_recovered(std::make_shared<join_window_store_builder<K, V>>(user, ks, vs, logging, log_config),
                                    recompute);
    const std::chrono::milliseconds retention(w.size_ms() + w.grace_ms()), size(w.size_ms());
    return join_store_recovered(kstreams::detail::dsl_store_of(type, [&](bool rocks_db) {
        auto supplier = rocks_db ? stores::persistent_window_store(name, retention, size, true)
                                 : stores::in_memory_window_store(name, retention, size, true);
        return std::shared_ptr<const store_builder>(
            std::make_shared<join_window_store_builder<K, V>>(std::move(supplier), ks, vs, logging, log_config));
    }), recompute);
}

/// Kafka's checks of a user's join store supplier (KStreamImplJoin.assertWindowSettings); the
/// messages begin with Kafka's.
inline void check_join_store_supplier(const window_bytes_store_supplier& s, const join_windows& w, const std::string& join) {
    const std::string where = " (stream-stream join " + join + ", store supplier " + s.name() + ")";
    if (!s.retain_duplicates())
        throw topology_error("The StoreSupplier must set retainDuplicates=true, found retainDuplicates=false" + where);
    if (s.retention_period() != w.size_ms() + w.grace_ms() || s.window_size() != w.size_ms())
        throw topology_error("Window settings mismatch. The store supplier's window size " + std::to_string(s.window_size()) +
                             " ms and retention " + std::to_string(s.retention_period()) +
                             " ms must be the join windows' size " + std::to_string(w.size_ms()) +
                             " ms (before + after) and size + grace " + std::to_string(w.size_ms() + w.grace_ms()) +
                             " ms" + where);
}

}  // namespace dsl_detail

template <class K, class V>
template <dsl_detail::join_kind Kind, class V2, class F, class KS, class VS, class OS>
auto kstream<K, V>::do_join(const kstream<K, V2>& other, F joiner, const join_windows& w,
                            const stream_joined<KS, VS, OS>& sj) const {
    using call = dsl_detail::join_call<K, V, V2, F, Kind>;
    using VOut = typename call::result;
    static_assert(!std::is_void_v<VOut>, "kstreams: join(): the joiner must return the joined value");
    constexpr bool left_outer = Kind != dsl_detail::join_kind::inner;
    constexpr bool right_outer = Kind == dsl_detail::join_kind::outer;
    dsl_detail::builder_state& b = *b_;

    serde_ref<K> ks = dsl_detail::pick_serde<K>(sj.key_serde, key_serde_);
    serde_ref<V> vs = dsl_detail::pick_serde<V>(sj.value_serde, value_serde_);
    serde_ref<V2> os = dsl_detail::pick_serde<V2>(sj.other_value_serde, other.value_serde_);

    // A side whose key changed upstream goes through a repartition topic first.
    // The topic's filter drops null-key records for an inner join (unless a left/outer join is
    // further downstream); a left/outer join takes them, so they go through (see repartition_spec).
    auto repartitioned = [&]<class VX>(const kstream<K, VX>& s, std::string_view suffix, const serde_ref<VX>& vx) {
        if (!s.repartition_required_) return s.node_;
        const std::string prefix = sj.name.empty() ? b.at(s.node_).name : sj.name + std::string(suffix);
        return dsl_detail::join_repartition_source<K, VX>(b, s.node_, prefix, ks, vx);
    };
    const std::size_t this_node = repartitioned(*this, "-left", vs);
    const std::size_t other_node = repartitioned(other, "-right", os);

    // Names in Kafka's order: windowed x2, join this, join other, merge.
    const std::string this_windowed = dsl_detail::suffixed_or_generated(b, sj.name, "-this-windowed", dsl_detail::windowed_name);
    const std::string other_windowed = dsl_detail::suffixed_or_generated(b, sj.name, "-other-windowed", dsl_detail::windowed_name);
    const std::string this_generated = b.new_processor_name(right_outer ? dsl_detail::outer_this_name : dsl_detail::join_this_name);
    const std::string other_generated = b.new_processor_name(left_outer ? dsl_detail::outer_other_name : dsl_detail::join_other_name);
    const std::string this_suffix = right_outer ? "-outer-this-join" : "-this-join";
    const std::string other_suffix = left_outer ? "-outer-other-join" : "-other-join";
    const std::string this_join = sj.name.empty() ? this_generated : sj.name + this_suffix;
    const std::string other_join = sj.name.empty() ? other_generated : sj.name + other_suffix;
    const std::string merge = dsl_detail::suffixed_or_generated(b, sj.name, "-merge", dsl_detail::names::merge);

    // The user's store suppliers, checked as Kafka's KStreamImplJoin; they name their stores.
    if (sj.this_store_supplier && sj.other_store_supplier && sj.this_store_supplier->name() == sj.other_store_supplier->name())
        throw topology_error("Both StoreSuppliers have the same name.  StoreSuppliers must provide unique names (stream-stream join " +
                             this_join + ", store " + sj.this_store_supplier->name() + ")");
    if (sj.this_store_supplier) dsl_detail::check_join_store_supplier(*sj.this_store_supplier, w, this_join);
    if (sj.other_store_supplier) dsl_detail::check_join_store_supplier(*sj.other_store_supplier, w, this_join);
    const std::string this_store = sj.this_store_supplier ? sj.this_store_supplier->name()
                                   : (sj.store_name.empty() ? this_generated : sj.store_name + this_suffix) + "-store";
    const std::string other_store = sj.other_store_supplier ? sj.other_store_supplier->name()
                                    : (sj.store_name.empty() ? other_generated : sj.store_name + other_suffix) + "-store";
    std::string outer_store;
    // The shared store's kind: the join's store type, else that of this side's supplier when it is
    // one of stores:: (Kafka: in memory or RocksDB), else the default.
    std::optional<dsl_store_type> outer_type = sj.store_type;
    if (left_outer) {
        const std::string shared_suffix = right_outer ? "-outer-shared-join" : "-left-shared-join";
        const std::size_t prefix_len = (right_outer ? dsl_detail::outer_this_name : dsl_detail::join_this_name).size();
        if (sj.this_store_supplier && !sj.this_store_supplier->name().empty())
            outer_store = sj.this_store_supplier->name() + shared_suffix + "-store";
        else
            outer_store = (sj.store_name.empty() ? std::string(dsl_detail::outer_shared_name) + this_generated.substr(prefix_len)
                                                 : sj.store_name + shared_suffix) + "-store";
        if (!outer_type && sj.this_store_supplier) outer_type = kstreams::detail::window_supplier_kind(*sj.this_store_supplier);
    }

    const bool recompute = sj.recovery_mode == recovery::recompute;
    if (recompute) outer_type = dsl_store_type::in_memory;
    const std::string tracker_slot = "stream-join-time:" + this_join;
    const dsl_detail::join_buffer_spec buffer{tracker_slot, w.size_ms() + w.grace_ms(), left_outer};
    dsl_detail::graph_node tw = dsl_detail::processor_node_of<K, V, K, V, dsl_detail::join_window_node<K, V>>(
        this_windowed, {this_node}, this_store, buffer);
    tw.stores.push_back(dsl_detail::join_window_store<K, V>(this_store, w, sj.this_store_supplier, sj.store_type, sj.logging,
                                                            sj.log_config, ks, vs, recompute));
    // Kafka labels the join node, a child of both sides: both sides' repartitions keep null keys.
    tw.null_key_relaxed_join = left_outer;
    const std::size_t tw_i = b.add(std::move(tw));
    dsl_detail::graph_node ow = dsl_detail::processor_node_of<K, V2, K, V2, dsl_detail::join_window_node<K, V2>>(
        other_windowed, {other_node}, other_store, buffer);
    ow.stores.push_back(dsl_detail::join_window_store<K, V2>(other_store, w, sj.other_store_supplier, sj.store_type, sj.logging,
                                                             sj.log_config, ks, os, recompute));
    ow.null_key_relaxed_join = left_outer;
    const std::size_t ow_i = b.add(std::move(ow));

    dsl_detail::join_side_spec spec;
    spec.outer_store = outer_store;
    spec.windows_before = w.before_ms();
    spec.windows_after = w.after_ms();
    spec.grace = w.grace_ms();
    spec.tracker_slot = tracker_slot;
    dsl_detail::join_side_spec this_spec = spec, other_spec = spec;
    this_spec.other_store = other_store;
    this_spec.join_before = w.before_ms();
    this_spec.join_after = w.after_ms();
    this_spec.outer = left_outer;
    other_spec.other_store = this_store;
    other_spec.join_before = w.after_ms();
    other_spec.join_after = w.before_ms();
    other_spec.outer = right_outer;

    using fn_t = dsl_detail::join_fn<K, V, V2, F, Kind>;
    dsl_detail::outer_store_codec<K, V, V2> codec{ks, vs, os};
    dsl_detail::graph_node tj = dsl_detail::processor_node_of<K, V, K, VOut, dsl_detail::stream_join_node<K, V, V2, VOut, fn_t, true>>(
        this_join, {tw_i}, this_spec, codec, fn_t{joiner});
    tj.connected_stores = {other_store};
    if (left_outer) {
        tj.stores.push_back(dsl_detail::join_store_recovered(kstreams::detail::dsl_store_of(outer_type, [&](bool rocks_db) {
            auto ob = std::make_shared<key_value_store_builder<std::string, std::string>>(stores::key_value_store_builder<std::string, std::string>(
                rocks_db ? stores::persistent_key_value_store(outer_store) : stores::in_memory_key_value_store(outer_store)));
            ob->with_caching_disabled();
            if (sj.logging && !recompute) ob->with_logging_enabled(sj.log_config);
            else ob->with_logging_disabled();
            return std::shared_ptr<const store_builder>(std::move(ob));
        }), recompute));
    }
    const std::size_t tj_i = b.add(std::move(tj));
    dsl_detail::graph_node oj = dsl_detail::processor_node_of<K, V2, K, VOut, dsl_detail::stream_join_node<K, V2, V, VOut, fn_t, false>>(
        other_join, {ow_i}, other_spec, codec, fn_t{joiner});
    oj.connected_stores = {this_store};
    if (left_outer) oj.connected_stores.push_back(outer_store);
    const std::size_t oj_i = b.add(std::move(oj));
    dsl_detail::graph_node mg = dsl_detail::processor_node_of<K, VOut, K, VOut, dsl_detail::passthrough_node<K, VOut>>(merge, {tj_i, oj_i});
    if constexpr (std::is_same_v<V, V2>) {
        if (this_node == other_node && !recompute) {
            // One stream on both sides: single.store.self.join may plan it with one store (not
            // when recovered by recomputation, whose join processors hold the offsets).
            auto plan = std::make_shared<dsl_detail::self_join_plan>();
            plan->other_windowed = ow_i;
            plan->this_join = tj_i;
            plan->other_join = oj_i;
            plan->store = this_store;
            dsl_detail::self_join_spec ss{this_store, w.before_ms(), w.after_ms(), w.size_ms() + w.grace_ms()};
            plan->make = [merge, ss, joiner]() -> std::unique_ptr<kstreams::detail::node> {
                return std::make_unique<dsl_detail::stream_self_join_node<K, V, VOut, fn_t>>(merge, ss, fn_t{joiner});
            };
            mg.self_join = std::move(plan);
        }
    }
    const std::size_t m = b.add(std::move(mg));
    b.add_copartition_group({this_node, other_node});
    return kstream<K, VOut>(b_, m, false, ks, {});
}

template <class K, class V>
template <class V2, class F, class KS, class VS, class OS>
auto kstream<K, V>::join(const kstream<K, V2>& other, F joiner, const join_windows& w, stream_joined<KS, VS, OS> sj) const {
    using call = dsl_detail::join_call<K, V, V2, F, dsl_detail::join_kind::inner>;
    static_assert(call::valid,
                  "kstreams: join(): the joiner must take (this value, other value) or (key, this value, other value)");
    static_assert(call::shape::not_over_wrapped,
                  "kstreams: join(): " KSTREAMS_JOINER_OVER_WRAPPED_MESSAGE);
    if constexpr (call::ok)
        return do_join<dsl_detail::join_kind::inner>(other, std::move(joiner), w, sj);
}

template <class K, class V>
template <class V2, class F, class KS, class VS, class OS>
auto kstream<K, V>::left_join(const kstream<K, V2>& other, F joiner, const join_windows& w, stream_joined<KS, VS, OS> sj) const {
    using call = dsl_detail::join_call<K, V, V2, F, dsl_detail::join_kind::left>;
    static_assert(call::valid,
                  "kstreams: left_join(): the joiner must take (this value, std::optional<other value>) or (key, this value, "
                  "std::optional<other value>) (an other value type that already is a std::optional comes as is); the "
                  "other value is nullopt when no record of the other stream matched");
    static_assert(call::shape::not_over_wrapped,
                  "kstreams: left_join(): " KSTREAMS_JOINER_OVER_WRAPPED_MESSAGE);
    if constexpr (call::ok)
        return do_join<dsl_detail::join_kind::left>(other, std::move(joiner), w, sj);
}

template <class K, class V>
template <class V2, class F, class KS, class VS, class OS>
auto kstream<K, V>::outer_join(const kstream<K, V2>& other, F joiner, const join_windows& w, stream_joined<KS, VS, OS> sj) const {
    using call = dsl_detail::join_call<K, V, V2, F, dsl_detail::join_kind::outer>;
    static_assert(call::valid,
                  "kstreams: outer_join(): the joiner must take (std::optional<this value>, std::optional<other value>) or "
                  "(key, std::optional<this value>, std::optional<other value>) (a value type that already is a "
                  "std::optional comes as is); a side is nullopt when nothing matched it");
    static_assert(call::shape::not_over_wrapped,
                  "kstreams: outer_join(): " KSTREAMS_JOINER_OVER_WRAPPED_MESSAGE);
    if constexpr (call::ok)
        return do_join<dsl_detail::join_kind::outer>(other, std::move(joiner), w, sj);
}

}  // namespace kstreams
