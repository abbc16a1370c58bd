// The store of a materialized table operator (filter, map_values given a named `materialized`):
// it answers old values from its own store, and writes each change before it goes on, through the
// store's record cache when it has one (Kafka's TimestampedTupleForwarder) or at once.
#pragma once

#include <optional>
#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/ops/store_access.hpp>
#include <kstreams/dsl/ops/timestamped_forwarder.hpp>

namespace kstreams::dsl_detail {

template <class K, class V>
class table_materializer {
public:
    void init(kstreams::detail::task_context& ctx, kstreams::detail::node& self, const std::string& store,
              bool send_old_values) {
        store_ = &timestamped_store<K, V>(ctx, store, self);
        forwarder_.init(self, *store_, send_old_values);
    }
    bool active() const { return store_ != nullptr; }

    std::optional<V> stored(const K& key) const {
        auto v = store_->get(key);
        if (!v) return std::nullopt;
        return std::move(v->value);
    }

    void write_and_forward(const record<K, change<V>>& r) {
        if (r.value.new_value) store_->put(r.key, {*r.value.new_value, r.timestamp});
        else store_->remove(r.key);
        forwarder_.maybe_forward(r);
    }

private:
    timestamped_key_value_store<K, V>* store_ = nullptr;
    timestamped_forwarder<K, V> forwarder_;
};

}  // namespace kstreams::dsl_detail
