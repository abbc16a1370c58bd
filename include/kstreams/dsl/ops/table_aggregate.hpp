// kgrouped_table aggregate, count and reduce (Kafka's KTableAggregate and KTableReduce): on each
// update the subtractor removes the old value from the key's aggregate first, then the fold
// (aggregate_fold.hpp) adds the new one, into the fold's initial() when there is no aggregate
// (aggregate: initializer(); reduce: the new value is the aggregate as it is). One result per
// update. A null result deletes the row (a count falls to 0, never null). Timestamp: the larger of
// the update's and the aggregate's once the aggregate took part.
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

template <class K, class V, class Agg, class Fold, class Subtract>
class table_aggregate_node final : public kstreams::detail::node {
public:
    table_aggregate_node(std::string name, std::string store, std::shared_ptr<const table_info> info, Fold fold,
                         Subtract subtract)
        : node(std::move(name)), store_name_(std::move(store)), info_(std::move(info)), fold_(std::move(fold)),
          subtract_(std::move(subtract)) {}

    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        store_ = &aggregate_store<K, Agg>(ctx, store_name_, *this, versioned_view_);
        send_old_ = info_->send_old_values;
        forwarder_.init(*this, *store_, send_old_);
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, change<V>>*>(p);
        if (has_null_key(r)) {
            ctx_->record_dropped(metric::dropped_null_key, *this);
            return;
        }
        const auto old = store_->get(r.key);
        std::optional<Agg> agg = old ? std::optional<Agg>(old->value) : std::nullopt;
        std::int64_t ts = r.timestamp;
        if (r.value.old_value && agg) {
            agg = subtract_(r.key, *r.value.old_value, std::as_const(*agg));
            ts = std::max(r.timestamp, old->timestamp);
        }
        if (r.value.new_value) {
            std::optional<Agg> base = agg ? std::move(agg) : fold_.initial();
            agg = fold_(r.key, *r.value.new_value, std::as_const(base));
            if (old) ts = std::max(r.timestamp, old->timestamp);
        }
        if (agg) store_->put(r.key, {*agg, ts});
        else store_->remove(r.key);
        if (last_write_dropped(versioned_view_)) return;  // older than the versioned store's history
        record<K, change<Agg>> out{r.key, {std::move(agg), std::nullopt}, ts, r.headers};
        if (send_old_ && old) out.value.old_value = old->value;
        forwarder_.maybe_forward(out);
    }

private:
    std::string store_name_;
    std::shared_ptr<const table_info> info_;
    Fold fold_;
    Subtract subtract_;
    timestamped_key_value_store<K, Agg>* store_ = nullptr;
    std::unique_ptr<timestamped_key_value_store<K, Agg>> versioned_view_;  ///< over a versioned store
    bool send_old_ = false;
    timestamped_forwarder<K, Agg> forwarder_;
};

}  // namespace kstreams::dsl_detail
