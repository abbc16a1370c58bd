// Time-windowed aggregation (kgrouped_stream::windowed_by(time_windows) then count / reduce /
// aggregate; Kafka's KStreamWindowAggregate). A record at `ts` updates every window it falls in
// that is still open: a window takes records while its end > observed stream time - grace, where
// the observed stream time is the largest timestamp this processor has seen. Each closed window a
// record falls in counts one dropped (late) record. A record with a null key is dropped and
// counted; a null value is passed to the aggregator, as Kafka does. The result's timestamp is the
// largest timestamp aggregated into the window.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/ops/window_store_access.hpp>
#include <kstreams/dsl/ops/windowed_forwarder.hpp>
#include <kstreams/dsl/time_windows.hpp>
#include <kstreams/metrics.hpp>

namespace kstreams::dsl_detail {

/// aggregate(initializer, aggregator): a window starts from initializer().
template <class K, class V, class Agg, class Init, class Adder>
struct aggregate_fold {
    Init init;
    Adder add;
    std::optional<Agg> initial() { return Agg(init()); }
    std::optional<Agg> operator()(const K& k, const record<K, V>& r, const std::optional<Agg>& base) {
        return nullable_result<Agg>(add(k, r.value, *base));
    }
};

/// reduce(reducer): a window starts with its first value (a null one leaves it empty).
template <class K, class V, class Reducer>
struct reduce_fold {
    Reducer f;
    std::optional<V> initial() { return std::nullopt; }
    std::optional<V> operator()(const K&, const record<K, V>& r, const std::optional<V>& base) {
        if (!base) return nullable_value(r);
        return nullable_result<V>(f(*base, r.value));
    }
};

template <class K, class V, class Agg, class Fold>
class window_aggregate_node final : public kstreams::detail::node {
public:
    window_aggregate_node(std::string name, std::string store, std::shared_ptr<const table_info> info,
                          time_windows windows, Fold fold)
        : node(std::move(name)), store_name_(std::move(store)), info_(std::move(info)), windows_(windows),
          fold_(std::move(fold)) {}

    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        store_ = &timestamped_window_store<K, Agg>(ctx, store_name_, *this);
        send_old_ = info_->send_old_values;
        forwarder_.init(*this, *store_, send_old_);
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        if (has_null_key(r)) {
            ctx_->record_dropped(metric::dropped_null_key, *this);
            return;
        }
        observed_stream_time_ = std::max(observed_stream_time_, r.timestamp);
        const std::int64_t close_time = observed_stream_time_ - windows_.grace();
        for (const window& w : windows_.windows_for(r.timestamp)) {
            if (w.end <= close_time) {
                ctx_->record_dropped(metric::dropped_late, *this);
                continue;
            }
            const auto old = store_->fetch(r.key, w.start);
            std::optional<Agg> base = old ? std::optional<Agg>(old->value) : fold_.initial();
            const std::int64_t ts = old ? std::max(r.timestamp, old->timestamp) : r.timestamp;
            std::optional<Agg> next = fold_(r.key, r, std::as_const(base));
            // A null result (an empty optional aggregate) deletes the window's row.
            if (next) store_->put(r.key, {*next, ts}, w.start);
            else store_->remove(r.key, w.start);
            record<windowed<K>, change<Agg>> out{{r.key, w}, {std::move(next), std::nullopt}, ts, r.headers};
            // Kafka passes the window's starting aggregate (the initializer's) as the old value.
            if (send_old_) out.value.old_value = std::move(base);
            forwarder_.maybe_forward(out);
        }
    }

private:
    std::string store_name_;
    std::shared_ptr<const table_info> info_;
    time_windows windows_;
    Fold fold_;
    window_store<K, value_and_timestamp<Agg>>* store_ = nullptr;
    bool send_old_ = false;
    std::int64_t observed_stream_time_ = -1;  // Kafka's NO_TIMESTAMP
    windowed_forwarder<K, Agg> forwarder_;
};

}  // namespace kstreams::dsl_detail
