// A table from a topic (table(), to_table()): each record is an update of its key; a null value
// deletes it. Null keys are dropped and counted. Every update goes on, an unchanged value included
// (as Kafka Streams 4.4 does, checked by tests/conformance). Materialized with a record cache, a
// delete of an absent key is not forwarded: Kafka's cache flush forwards nothing when old and new
// are both null. Without a cache (caching disabled, statestore.cache.max.bytes=0, or
// unmaterialized) it is forwarded as a tombstone.
// Materialized in a versioned store (Kafka's rules): each record is put at its timestamp; one the
// store drops (older than its history retention) goes no further; an out-of-order one goes on
// flagged not latest (change::is_latest), with the key's current row as the old value.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/ops/store_access.hpp>
#include <kstreams/dsl/ops/timestamped_forwarder.hpp>
#include <kstreams/dsl/serde_ref.hpp>
#include <kstreams/metrics.hpp>
#include <kstreams/state/versioned_key_value_store.hpp>

namespace kstreams::dsl_detail {

template <class K, class V>
class table_source_node final : public kstreams::detail::node {
public:
    table_source_node(std::string name, std::string store, std::shared_ptr<const table_info> info, serde_ref<V> vs)
        : node(std::move(name)), store_name_(std::move(store)), info_(std::move(info)), vs_(std::move(vs)) {}

    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        send_old_ = info_->send_old_values;
        if (info_->materialized) {
            versioned_ = dynamic_cast<versioned_key_value_store<K, V>*>(&ctx.store(store_name_, *this));
            if (versioned_) {
                forwarder_.init(*this);
                return;
            }
            store_ = &timestamped_store<K, V>(ctx, store_name_, *this);
            forwarder_.init(*this, *store_, send_old_);
        } else {
            forwarder_.init(*this);
        }
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        if (has_null_key(r)) {
            ctx_->record_dropped(metric::dropped_null_key, *this);
            return;
        }
        std::optional<V> value = nullable_value(r);
        if (versioned_) {
            process_versioned(r, std::move(value));
            return;
        }
        if (!store_) {
            forward(record<K, change<V>>{r.key, {std::move(value), std::nullopt}, r.timestamp, r.headers});
            return;
        }
        auto old = store_->get(r.key);
        // Nothing to forward: the cache's flush drops an update whose old and new are both null.
        if (!old && !value && forwarder_.by_cache()) return;
        if (value) store_->put(r.key, {*value, r.timestamp});
        else store_->remove(r.key);
        record<K, change<V>> out{r.key, {std::move(value), std::nullopt}, r.timestamp, r.headers};
        if (send_old_ && old) out.value.old_value = std::move(old->value);
        forwarder_.maybe_forward(out);
    }

private:
    void process_versioned(const record<K, V>& r, std::optional<V> value) {
        auto old = versioned_->get(r.key);
        const std::int64_t put = value ? versioned_->put(r.key, *value, r.timestamp) : versioned_->erase(r.key, r.timestamp);
        if (put == put_not_put) return;
        record<K, change<V>> out{r.key, {std::move(value), std::nullopt, put == put_valid_to_undefined}, r.timestamp, r.headers};
        if (send_old_ && old) out.value.old_value = std::move(old->value);
        forward(out);
    }

    std::string store_name_;
    std::shared_ptr<const table_info> info_;
    serde_ref<V> vs_;
    timestamped_key_value_store<K, V>* store_ = nullptr;
    versioned_key_value_store<K, V>* versioned_ = nullptr;
    bool send_old_ = false;
    timestamped_forwarder<K, V> forwarder_;
};

}  // namespace kstreams::dsl_detail
