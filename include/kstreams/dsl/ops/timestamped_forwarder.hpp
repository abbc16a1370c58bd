// How aggregations and materialized tables pass on their results (Kafka's TimestampedTupleForwarder).
// Without a record cache every update goes downstream at once. With one, the cache's flush
// forwards what it writes down (the latest value per key, with the timestamp and headers of the
// record that wrote it) and maybe_forward() does nothing.
#pragma once

#include <optional>

#include <kstreams/detail/node.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/record.hpp>
#include <kstreams/state/timestamped_key_value_store.hpp>

namespace kstreams::dsl_detail {

template <class K, class V>
class timestamped_forwarder {
public:
    /// For a node without a store: always forwards.
    void init(kstreams::detail::node& self) { self_ = &self; }
    /// Asks the store's cache (if any) to forward on flush instead.
    void init(kstreams::detail::node& self, timestamped_key_value_store<K, V>& store, bool send_old_values) {
        self_ = &self;
        by_cache_ = store.set_flush_listener(
            [this, send_old_values](const K& key, std::optional<value_and_timestamp<V>> nv,
                                    std::optional<value_and_timestamp<V>> ov, std::int64_t ts,
                                    const headers& hdrs) {
                record<K, change<V>> r{key, {}, nv ? nv->timestamp : ts, hdrs};
                if (nv) r.value.new_value = std::move(nv->value);
                if (send_old_values && ov) r.value.old_value = std::move(ov->value);
                self_->forward(r);
            },
            send_old_values);
    }
    void maybe_forward(const record<K, change<V>>& r) const {
        if (!by_cache_) self_->forward(r);
    }
    /// Whether the store's record cache forwards (false too for a cache of size 0, which Kafka
    /// turns off for every store: statestore.cache.max.bytes=0).
    bool by_cache() const { return by_cache_; }

private:
    kstreams::detail::node* self_ = nullptr;
    bool by_cache_ = false;
};

}  // namespace kstreams::dsl_detail
