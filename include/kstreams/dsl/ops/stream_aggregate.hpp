// kgrouped_stream aggregate, count and reduce (Kafka's KStreamAggregate and KStreamReduce): per
// key, the next aggregate is the fold (aggregate_fold.hpp) of the value into the key's aggregate,
// or into the fold's initial() for a key with none (aggregate: initializer(); reduce: nothing, the
// first value is stored as it is). Records with a null key or value are dropped and counted. The
// result's timestamp is the largest timestamp aggregated so far; its old value is the aggregate
// the value was folded into (aggregate: initializer() for a new key; reduce: none).
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/detail/aggregate_store.hpp>
#include <kstreams/dsl/ops/aggregate_fold.hpp>
#include <kstreams/dsl/ops/store_access.hpp>
#include <kstreams/dsl/ops/timestamped_forwarder.hpp>
#include <kstreams/metrics.hpp>

namespace kstreams::dsl_detail {

template <class K, class V, class Agg, class Fold>
class stream_aggregate_node final : public kstreams::detail::node {
public:
    stream_aggregate_node(std::string name, std::string store, std::shared_ptr<const table_info> info, Fold fold)
        : node(std::move(name)), store_name_(std::move(store)), info_(std::move(info)), fold_(std::move(fold)) {}

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
        auto old = store_->get(r.key);
        const std::int64_t ts = old ? std::max(r.timestamp, old->timestamp) : r.timestamp;
        std::optional<Agg> base = old ? std::optional<Agg>(std::move(old->value)) : fold_.initial();
        std::optional<Agg> next = fold_(r.key, r.value, std::as_const(base));
        // A null result deletes the row (the next value starts from initial() again).
        if (next) store_->put(r.key, {*next, ts});
        else store_->erase(r.key);
        if (last_write_dropped(versioned_view_)) return;  // older than the versioned store's history
        record<K, change<Agg>> out{r.key, {std::move(next), std::nullopt}, ts, r.headers};
        if (send_old_) out.value.old_value = std::move(base);
        forwarder_.maybe_forward(out);
    }

private:
    std::string store_name_;
    std::shared_ptr<const table_info> info_;
    Fold fold_;
    timestamped_key_value_store<K, Agg>* store_ = nullptr;
    std::unique_ptr<timestamped_key_value_store<K, Agg>> versioned_view_;  ///< over a versioned store
    bool send_old_ = false;
    timestamped_forwarder<K, Agg> forwarder_;
};

}  // namespace kstreams::dsl_detail
