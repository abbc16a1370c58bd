// ktable filter / filter_not: a row that fails the predicate is absent, so its update goes on as a
// tombstone, even for a key never seen. When old values are known (a store upstream keeps them, or
// an operator downstream asks for them) an update
// whose new and old values are both absent dropped (Kafka's KTableFilter). Materialized, the result
// is kept in its own store, which also answers the old values. Over a versioned table (Kafka's
// versioned semantics) both-absent updates go on too, and out-of-order ones keep their flag.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/ops/table_materializer.hpp>

namespace kstreams::dsl_detail {

template <class K, class V, class F>
class table_filter_node final : public kstreams::detail::node {
public:
    table_filter_node(std::string name, std::shared_ptr<const table_info> info, F f, bool negate, std::string store = {})
        : node(std::move(name)), info_(std::move(info)), f_(std::move(f)), negate_(negate), store_(std::move(store)) {}
    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        send_old_ = info_->send_old_values;
        if (info_->materialized) materializer_.init(ctx, *this, store_, send_old_);
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, change<V>>*>(p);
        std::optional<V> nv = keep(r.key, r.value.new_value);
        std::optional<V> ov;
        if (send_old_) ov = materializer_.active() ? materializer_.stored(r.key) : keep(r.key, r.value.old_value);
        if (send_old_ && !nv && !ov && !info_->versioned_semantics) return;
        record<K, change<V>> out{r.key, {std::move(nv), std::move(ov), r.value.is_latest}, r.timestamp, r.headers};
        if (materializer_.active()) materializer_.write_and_forward(out);
        else forward(out);
    }

private:
    std::optional<V> keep(const K& k, const std::optional<V>& v) {
        if (v && static_cast<bool>(call_kv(f_, k, *v)) != negate_) return v;
        return std::nullopt;
    }
    std::shared_ptr<const table_info> info_;
    F f_;
    bool negate_;
    std::string store_;
    bool send_old_ = false;
    table_materializer<K, V> materializer_;
};

}  // namespace kstreams::dsl_detail
