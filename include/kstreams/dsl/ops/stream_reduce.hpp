// kgrouped_stream reduce: the first value of a key is its aggregate; later ones are combined with
// reducer(agg, value). Null keys and values are dropped and counted (Kafka's KStreamReduce).
#pragma once

#include <algorithm>
#include <memory>
#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/detail/aggregate_store.hpp>
#include <kstreams/dsl/ops/store_access.hpp>
#include <kstreams/dsl/ops/timestamped_forwarder.hpp>
#include <kstreams/metrics.hpp>

namespace kstreams::dsl_detail {

template <class K, class V, class Reducer>
class stream_reduce_node final : public kstreams::detail::node {
public:
    stream_reduce_node(std::string name, std::string store, std::shared_ptr<const table_info> info, Reducer f)
        : node(std::move(name)), store_name_(std::move(store)), info_(std::move(info)), f_(std::move(f)) {}

    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        store_ = &aggregate_store<K, V>(ctx, store_name_, *this, versioned_view_);
        send_old_ = info_->send_old_values;
        forwarder_.init(*this, *store_, send_old_);
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        if (has_null_key(r) || has_null_value(r)) {
            ctx_->record_dropped(has_null_key(r) ? metric::dropped_null_key : metric::dropped_null_value, *this);
            return;
        }
        auto old = store_->get(r.key);
        std::optional<V> next = old ? nullable_result<V>(f_(std::as_const(old->value), r.value)) : std::optional<V>(r.value);
        const std::int64_t ts = old ? std::max(r.timestamp, old->timestamp) : r.timestamp;
        // A reducer returning null deletes the row (the next value starts it again).
        if (next) store_->put(r.key, {*next, ts});
        else store_->erase(r.key);
        if (last_write_dropped(versioned_view_)) return;  // older than the versioned store's history
        record<K, change<V>> out{r.key, {std::move(next), std::nullopt}, ts, r.headers};
        if (send_old_ && old) out.value.old_value = std::move(old->value);
        forwarder_.maybe_forward(out);
    }

private:
    std::string store_name_;
    std::shared_ptr<const table_info> info_;
    Reducer f_;
    timestamped_key_value_store<K, V>* store_ = nullptr;
    std::unique_ptr<timestamped_key_value_store<K, V>> versioned_view_;  ///< over a versioned store
    bool send_old_ = false;
    timestamped_forwarder<K, V> forwarder_;
};

}  // namespace kstreams::dsl_detail
