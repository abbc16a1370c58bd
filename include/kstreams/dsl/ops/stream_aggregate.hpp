// kgrouped_stream aggregate (and count): per key, agg = aggregator(key, value, agg or initializer()).
// Records with a null key or value are dropped and counted. The result's timestamp is the largest
// timestamp aggregated so far (Kafka's KStreamAggregate).
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

template <class K, class V, class Agg, class Init, class Adder>
class stream_aggregate_node final : public kstreams::detail::node {
public:
    stream_aggregate_node(std::string name, std::string store, std::shared_ptr<const table_info> info, Init init, Adder add)
        : node(std::move(name)), store_name_(std::move(store)), info_(std::move(info)), init_(std::move(init)), add_(std::move(add)) {}

    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        store_ = &aggregate_store<K, Agg>(ctx, store_name_, *this, versioned_view_);
        send_old_ = info_->send_old_values;
        forwarder_.init(*this, *store_, send_old_);
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        if (has_null_key(r) || has_null_value(r)) {
            ctx_->record_dropped(has_null_key(r) ? metric::dropped_null_key : metric::dropped_null_value, *this);
            return;
        }
        const auto old = store_->get(r.key);
        Agg agg = old ? old->value : Agg(init_());
        const std::int64_t ts = old ? std::max(r.timestamp, old->timestamp) : r.timestamp;
        std::optional<Agg> next = nullable_result<Agg>(add_(r.key, r.value, std::as_const(agg)));
        // An aggregator returning null deletes the row (the next value starts from init again).
        if (next) store_->put(r.key, {*next, ts});
        else store_->erase(r.key);
        if (last_write_dropped(versioned_view_)) return;  // older than the versioned store's history
        record<K, change<Agg>> out{r.key, {std::move(next), std::nullopt}, ts, r.headers};
        if (send_old_) out.value.old_value = std::move(agg);
        forwarder_.maybe_forward(out);
    }

private:
    std::string store_name_;
    std::shared_ptr<const table_info> info_;
    Init init_;
    Adder add_;
    timestamped_key_value_store<K, Agg>* store_ = nullptr;
    std::unique_ptr<timestamped_key_value_store<K, Agg>> versioned_view_;  ///< over a versioned store
    bool send_old_ = false;
    timestamped_forwarder<K, Agg> forwarder_;
};

}  // namespace kstreams::dsl_detail
