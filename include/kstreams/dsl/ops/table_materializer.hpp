// The store of a materialized table operator (filter, map_values given a named `materialized`):
// it answers old values from its own store, and writes each change before it goes on, through the
// store's record cache when it has one (Kafka's TimestampedTupleForwarder) or at once. A versioned
// store takes the change at its timestamp: one it drops goes no further, and whether it is the
// latest is the store's answer, as Kafka's KTableFilter / KTableMapValues do.
#pragma once

#include <optional>
#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/ops/store_access.hpp>
#include <kstreams/dsl/ops/timestamped_forwarder.hpp>
#include <kstreams/state/versioned_key_value_store.hpp>

namespace kstreams::dsl_detail {

template <class K, class V>
class table_materializer {
public:
    void init(kstreams::detail::task_context& ctx, kstreams::detail::node& self, const std::string& store,
              bool send_old_values) {
        versioned_ = dynamic_cast<versioned_key_value_store<K, V>*>(&ctx.store(store, self));
        if (versioned_) {
            forwarder_.init(self);
            return;
        }
        store_ = &timestamped_store<K, V>(ctx, store, self);
        forwarder_.init(self, *store_, send_old_values);
    }
    bool active() const { return store_ != nullptr || versioned_ != nullptr; }

    std::optional<V> stored(const K& key) const {
        if (versioned_) {
            auto v = versioned_->get(key);
            if (!v) return std::nullopt;
            return std::move(v->value);
        }
        auto v = store_->get(key);
        if (!v) return std::nullopt;
        return std::move(v->value);
    }

    void write_and_forward(const record<K, change<V>>& r) {
        if (versioned_) {
            const std::int64_t put = r.value.new_value ? versioned_->put(r.key, *r.value.new_value, r.timestamp)
                                                       : versioned_->erase(r.key, r.timestamp);
            if (put == put_not_put) return;
            record<K, change<V>> out = r;
            out.value.is_latest = put == put_valid_to_undefined;
            forwarder_.maybe_forward(out);
            return;
        }
        if (r.value.new_value) store_->put(r.key, {*r.value.new_value, r.timestamp});
        else store_->remove(r.key);
        if (r.value.is_latest) {
            forwarder_.maybe_forward(r);
            return;
        }
        record<K, change<V>> out = r;  // a plain store makes every update the latest
        out.value.is_latest = true;
        forwarder_.maybe_forward(out);
    }

private:
    timestamped_key_value_store<K, V>* store_ = nullptr;
    versioned_key_value_store<K, V>* versioned_ = nullptr;
    timestamped_forwarder<K, V> forwarder_;
};

}  // namespace kstreams::dsl_detail
