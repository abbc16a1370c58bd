// The store of a windowed aggregation: a timestamped window store as Kafka's
// TimeWindowedKStreamImpl / SlidingWindowedKStreamImpl materialize it (RocksDB unless
// with_in_memory_store(), retention at least the span a window stays open).
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

/// `min_retention`: what the windows need (size + grace for time windows); also the default.
template <class K, class V, class KS, class VS>
std::shared_ptr<const store_builder> timestamped_window_store_builder(const std::string& name, const materialized<KS, VS>& m,
                                                                      std::int64_t window_size, std::int64_t min_retention,
                                                                      serde_ref<K> ks, serde_ref<V> vs) {
    std::shared_ptr<const window_bytes_store_supplier> supplier = m.window_supplier;
    if (!supplier) {
        const std::int64_t retention = m.retention ? m.retention->count() : min_retention;
        if (retention < min_retention)
            throw topology_error("the retention period of window store " + name + " (" + std::to_string(retention) +
                                 " ms) must be at least its window size plus grace period (" +
                                 std::to_string(min_retention) + " ms)");
        const std::chrono::milliseconds r{retention}, size{window_size};
        supplier = m.persistent ? stores::persistent_timestamped_window_store(name, r, size, false)
                                : stores::in_memory_window_store(name, r, size, false);
    }
    auto builder = std::make_shared<window_store_builder<K, value_and_timestamp<V>>>(
        stores::timestamped_window_store_builder<K, V>(std::move(supplier), std::move(ks), std::move(vs)));
    apply_cache_and_log(*builder, m);
    return builder;
}

}  // namespace kstreams::dsl_detail
