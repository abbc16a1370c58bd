// The store of a windowed aggregation: a timestamped window store as Kafka's
// TimeWindowedKStreamImpl / SlidingWindowedKStreamImpl materialize it, or a session store as
// SessionWindowedKStreamImpl does (RocksDB unless with_in_memory_store() or default.dsl.store
// says in_memory, retention at least the span a window stays open).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include <kstreams/detail/dsl_store_choice.hpp>
#include <kstreams/dsl/options.hpp>
#include <kstreams/dsl/serde_ref.hpp>
#include <kstreams/error.hpp>
#include <kstreams/state/window_stores.hpp>

namespace kstreams::dsl_detail {

/// The retention a materialized asks for, at least `min_retention` (also the default).
template <class KS, class VS>
std::int64_t window_retention(const std::string& name, const materialized<KS, VS>& m, std::int64_t min_retention,
                              const char* what) {
    const std::int64_t retention = m.retention ? m.retention->count() : min_retention;
    if (retention < min_retention)
        throw topology_error("the retention period of " + std::string(what) + " " + name + " (" + std::to_string(retention) +
                             " ms) must be at least " + std::to_string(min_retention) + " ms (what its windows need: " +
                             "window size plus grace for time windows, twice the time difference plus grace for " +
                             "sliding windows, inactivity gap plus grace for sessions)");
    return retention;
}

/// `min_retention`: what the windows need (size + grace for time windows); also the default.
/// `emit_final`: emit on window close, which reads RocksDB through Kafka's time-ordered store;
/// `no_cache`: the store is uncached whatever `m` says (sliding windows emitting on close);
/// `bounded` false: windows that never close (unlimited_windows), whose state recovery by
/// recomputation cannot bound.
template <class K, class V, class KS, class VS>
std::shared_ptr<const store_builder> timestamped_window_store_builder(const std::string& name, const materialized<KS, VS>& m,
                                                                      std::int64_t window_size, std::int64_t min_retention,
                                                                      serde_ref<K> ks, serde_ref<V> vs, bool emit_final = false,
                                                                      bool no_cache = false, bool bounded = true) {
    check_supplier_kind(m, store_kind::window, name);
    // A store recovered by recomputation is kept in memory, unlogged, whatever else was asked.
    const bool recompute = m.recovery_mode == kstreams::recovery::recompute;
    auto make = [&](std::shared_ptr<const window_bytes_store_supplier> supplier) {
        auto builder = std::make_shared<window_store_builder<K, value_and_timestamp<V>>>(
            stores::timestamped_window_store_builder<K, V>(std::move(supplier), ks, vs));
        apply_cache_and_log(*builder, m);
        if (no_cache) builder->with_caching_disabled();
        if (recompute) builder->with_logging_disabled();
        return std::shared_ptr<const store_builder>(std::move(builder));
    };
    if (m.window_supplier) return with_recovery_of(make(m.window_supplier), m, bounded);
    const std::chrono::milliseconds r{window_retention(name, m, min_retention, "window store")}, size{window_size};
    const std::optional<dsl_store_type> type = recompute ? std::optional(dsl_store_type::in_memory) : m.store_type;
    return with_recovery_of(kstreams::detail::dsl_store_of(type, [&](bool rocks_db) {
                                if (rocks_db && emit_final)
                                    return make(kstreams::detail::time_ordered_window_store(name, r.count(), size.count()));
                                return make(rocks_db ? stores::persistent_timestamped_window_store(name, r, size, false)
                                                     : stores::in_memory_window_store(name, r, size, false));
                            }),
                            m, bounded);
}

/// A session aggregation's store; `min_retention` is gap + grace. Emitting on window close, it is
/// uncached and, in RocksDB, Kafka's time-ordered session store; recovered by recomputation, the
/// same in memory (an in-memory session store cuts every read at its retention, so with the
/// default retention, gap + grace, it would never show a closed session to emit). `not_yet`:
/// recomputation does not hold offsets for this shape yet (refused at build(), naming it).
template <class K, class V, class KS, class VS>
std::shared_ptr<const store_builder> session_store_builder_of(const std::string& name, const materialized<KS, VS>& m,
                                                              std::int64_t min_retention, serde_ref<K> ks, serde_ref<V> vs,
                                                              bool emit_final, const char* not_yet = nullptr) {
    check_supplier_kind(m, store_kind::session, name);
    const bool recompute = m.recovery_mode == kstreams::recovery::recompute;
    auto make = [&](std::shared_ptr<const session_bytes_store_supplier> supplier) {
        auto builder = std::make_shared<session_store_builder<K, V>>(
            stores::session_store_builder<K, V>(std::move(supplier), ks, vs));
        apply_cache_and_log(*builder, m);
        if (emit_final) builder->with_caching_disabled();
        if (recompute) builder->with_logging_disabled();
        return std::shared_ptr<const store_builder>(std::move(builder));
    };
    // A user's supplier: its retention is the supplier's (Kafka's SessionStoreMaterializer).
    if (m.session_supplier) return with_recovery_of(make(m.session_supplier), m, true, not_yet);
    const std::chrono::milliseconds r{window_retention(name, m, min_retention, "session store")};
    if (recompute && emit_final)
        return with_recovery_of(make(kstreams::detail::time_ordered_session_store(name, r.count(), false)), m, true, not_yet);
    const std::optional<dsl_store_type> type = recompute ? std::optional(dsl_store_type::in_memory) : m.store_type;
    return with_recovery_of(kstreams::detail::dsl_store_of(type, [&](bool rocks_db) {
                                return make(!rocks_db   ? stores::in_memory_session_store(name, r)
                                            : emit_final ? kstreams::detail::time_ordered_session_store(name, r.count())
                                                         : stores::persistent_session_store(name, r));
                            }),
                            m, true, not_yet);
}

}  // namespace kstreams::dsl_detail
