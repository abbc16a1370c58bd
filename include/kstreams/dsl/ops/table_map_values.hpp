// ktable map_values: a new value per row; an absent row stays absent, and a mapper that returns
// null (nullopt, for an optional value type) makes the row absent downstream as well. Materialized,
// the result is kept in its own store, which also answers the old values.
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

/// nullopt for a null value: an empty optional<V>, or an engaged one holding an empty V.
template <class V>
std::optional<V> null_if_empty(std::optional<V> v) {
    if constexpr (is_optional_v<V>)
        if (v && !v->has_value()) return std::nullopt;
    return v;
}

template <class K, class V, class V2, class F>
class table_map_values_node final : public kstreams::detail::node {
public:
    table_map_values_node(std::string name, std::shared_ptr<const table_info> info, F f, std::string store = {})
        : node(std::move(name)), info_(std::move(info)), f_(std::move(f)), store_(std::move(store)) {}
    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        send_old_ = info_->send_old_values;
        if (info_->materialized) materializer_.init(ctx, *this, store_, send_old_);
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, change<V>>*>(p);
        change<V2> c{apply(r.key, r.value.new_value), std::nullopt, r.value.is_latest};
        if (send_old_) c.old_value = materializer_.active() ? materializer_.stored(r.key) : apply(r.key, r.value.old_value);
        record<K, change<V2>> out{r.key, std::move(c), r.timestamp, r.headers};
        if (materializer_.active()) materializer_.write_and_forward(out);
        else forward(out);
    }

private:
    std::optional<V2> apply(const K& k, const std::optional<V>& v) {
        if (!v) return std::nullopt;
        return null_if_empty(std::optional<V2>(V2(call_kv(f_, k, *v))));
    }
    std::shared_ptr<const table_info> info_;
    F f_;
    std::string store_;
    bool send_old_ = false;
    table_materializer<K, V2> materializer_;
};

}  // namespace kstreams::dsl_detail
