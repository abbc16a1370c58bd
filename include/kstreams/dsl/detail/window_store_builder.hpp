// The store of a windowed aggregation: a timestamped window store as Kafka's
// TimeWindowedKStreamImpl / SlidingWindowedKStreamImpl materialize it, or a session store as
// SessionWindowedKStreamImpl does (RocksDB unless with_in_memory_store(), retention at least the
// span a window stays open).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

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
/// `sliding`: the windows are sliding ones.
template <class K, class V, class KS, class VS>
std::shared_ptr<const store_builder> timestamped_window_store_builder(const std::string& name, const materialized<KS, VS>& m,
                                                                      std::int64_t window_size, std::int64_t min_retention,
                                                                      serde_ref<K> ks, serde_ref<V> vs, bool emit_final = false,
                                                                      bool no_cache = false, bool sliding = false) {
    const bool recompute = m.recovery_mode == kstreams::recovery::recompute;
    const bool persistent = m.persistent && !recompute;  // a recomputed store is kept in memory
    std::shared_ptr<const window_bytes_store_supplier> supplier = m.window_supplier;
    if (!supplier) {
        const std::chrono::milliseconds r{window_retention(name, m, min_retention, "window store")}, size{window_size};
        if (persistent && emit_final) supplier = kstreams::detail::time_ordered_window_store(name, r.count(), size.count());
        else supplier = persistent ? stores::persistent_timestamped_window_store(name, r, size, false)
                                   : stores::in_memory_window_store(name, r, size, false);
    }
    auto builder = std::make_shared<window_store_builder<K, value_and_timestamp<V>>>(
        stores::timestamped_window_store_builder<K, V>(std::move(supplier), std::move(ks), std::move(vs)));
    apply_cache_and_log(*builder, m);
    if (no_cache) builder->with_caching_disabled();
    if (recompute) builder->with_logging_disabled();
    return with_recovery_of(std::move(builder), m, true, sliding ? "sliding windows" : nullptr);
}

/// A session aggregation's store; `min_retention` is gap + grace. Emitting on window close, it is
/// uncached and, in RocksDB, Kafka's time-ordered session store.
template <class K, class V, class KS, class VS>
std::shared_ptr<const store_builder> session_store_builder_of(const std::string& name, const materialized<KS, VS>& m,
                                                              std::int64_t min_retention, serde_ref<K> ks, serde_ref<V> vs,
                                                              bool emit_final) {
    const std::chrono::milliseconds r{window_retention(name, m, min_retention, "session store")};
    const bool recompute = m.recovery_mode == kstreams::recovery::recompute;
    auto supplier = !m.persistent || recompute ? stores::in_memory_session_store(name, r)
                    : emit_final  ? kstreams::detail::time_ordered_session_store(name, r.count())
                                  : stores::persistent_session_store(name, r);
    auto builder = std::make_shared<session_store_builder<K, V>>(
        stores::session_store_builder<K, V>(std::move(supplier), std::move(ks), std::move(vs)));
    apply_cache_and_log(*builder, m);
    if (emit_final) builder->with_caching_disabled();
    if (recompute) builder->with_logging_disabled();
    return with_recovery_of(std::move(builder), m, true, "session windows");
}

}  // namespace kstreams::dsl_detail
