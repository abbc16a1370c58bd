// ktable group_by: maps each row to (new key, new value) for the grouped table's repartition topic.
// The old row's pair goes first so that the aggregation subtracts before it adds; when old and new
// map to the same key both travel in one record (Kafka's KTableRepartitionMap, KIP-904). Pairs with
// a null key (or a null value) are skipped, not counted in dropped-records, as Kafka's. Over a
// versioned table an out-of-order update (not the latest) is ignored, as Kafka's.
#pragma once

#include <concepts>
#include <memory>
#include <optional>
#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/metrics.hpp>

namespace kstreams::dsl_detail {

template <class K, class V, class K2, class V2, class F>
class table_select_node final : public kstreams::detail::node {
public:
    table_select_node(std::string name, F f, bool versioned_semantics = false)
        : node(std::move(name)), f_(std::move(f)), versioned_(versioned_semantics) {}
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, change<V>>*>(p);
        if (versioned_ && !r.value.is_latest) return;
        std::optional<std::pair<K2, V2>> np, op;
        if (r.value.new_value) np = select(r.key, *r.value.new_value);
        if (r.value.old_value) op = select(r.key, *r.value.old_value);
        if (np && op && same_key(np->first, op->first)) {
            emit(r, np->first, change<V2>{std::move(np->second), std::move(op->second)});
            return;
        }
        if (op) emit(r, op->first, change<V2>{std::nullopt, std::move(op->second)});
        if (np) emit(r, np->first, change<V2>{std::move(np->second), std::nullopt});
    }

private:
    std::optional<std::pair<K2, V2>> select(const K& k, const V& v) {
        auto kv = call_kv(f_, k, v);
        std::pair<K2, V2> out{K2(pair_key(std::move(kv))), V2(pair_value(std::move(kv)))};
        // A null key or value selected is skipped, not counted (Kafka's KTableRepartitionMap).
        if constexpr (is_optional_v<K2>)
            if (!out.first) return std::nullopt;
        if constexpr (is_optional_v<V2>)
            if (!out.second) return std::nullopt;
        return out;
    }
    static bool same_key(const K2& a, const K2& b) {
        if constexpr (std::equality_comparable<K2>) return a == b;
        else return false;
    }
    void emit(const record<K, change<V>>& r, const K2& key, change<V2> c) {
        forward(record<K2, change<V2>>{key, std::move(c), r.timestamp, r.headers});
    }
    F f_;
    bool versioned_;
};

}  // namespace kstreams::dsl_detail
