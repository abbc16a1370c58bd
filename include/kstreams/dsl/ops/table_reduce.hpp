// kgrouped_table reduce: subtractor(agg, old value) first, then adder(agg, new value); the first
// value of a key is its aggregate (Kafka's KTableReduce).
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
#include <kstreams/dsl/ops/store_access.hpp>
#include <kstreams/dsl/ops/timestamped_forwarder.hpp>
#include <kstreams/metrics.hpp>

namespace kstreams::dsl_detail {

template <class K, class V, class Adder, class Subtractor>
class table_reduce_node final : public kstreams::detail::node {
public:
    table_reduce_node(std::string name, std::string store, std::shared_ptr<const table_info> info, Adder add,
                      Subtractor sub)
        : node(std::move(name)), store_name_(std::move(store)), info_(std::move(info)), add_(std::move(add)),
          sub_(std::move(sub)) {}

    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        store_ = &aggregate_store<K, V>(ctx, store_name_, *this, versioned_view_);
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
        std::optional<V> agg = old ? std::optional<V>(old->value) : std::nullopt;
        std::int64_t ts = r.timestamp;
        if (r.value.old_value && agg) {
            agg = nullable_result<V>(sub_(std::as_const(*agg), *r.value.old_value));
            ts = std::max(r.timestamp, old->timestamp);
        }
        if (r.value.new_value) {
            if (!agg) {
                agg = *r.value.new_value;
            } else {
                agg = nullable_result<V>(add_(std::as_const(*agg), *r.value.new_value));
                if (old) ts = std::max(r.timestamp, old->timestamp);
            }
        }
        if (agg) store_->put(r.key, {*agg, ts});
        else store_->remove(r.key);
        if (last_write_dropped(versioned_view_)) return;  // older than the versioned store's history
        record<K, change<V>> out{r.key, {std::move(agg), std::nullopt}, ts, r.headers};
        if (send_old_ && old) out.value.old_value = old->value;
        forwarder_.maybe_forward(out);
    }

private:
    std::string store_name_;
    std::shared_ptr<const table_info> info_;
    Adder add_;
    Subtractor sub_;
    timestamped_key_value_store<K, V>* store_ = nullptr;
    std::unique_ptr<timestamped_key_value_store<K, V>> versioned_view_;  ///< over a versioned store
    bool send_old_ = false;
    timestamped_forwarder<K, V> forwarder_;
};

}  // namespace kstreams::dsl_detail
