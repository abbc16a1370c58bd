// Kafka's null value (a tombstone) and the DSL functions that make a record's new value from its
// old one (map_values, map, flat_map_values, flat_map). Such a function taking a plain value type
// cannot be handed null, and what it would make of an invented V{} would be written on as a real
// value: the operator drops the record instead and counts it. A function sees nulls by declaring
// its value parameter std::optional<V> (or by a stream of std::optional<V>), and is then called as
// Kafka calls it. Predicates, key selectors and actions keep the record a tombstone and need no
// guard; operators without a function (to, repartition, merge) pass tombstones on unchanged.
#pragma once

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/metrics.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

/// Whether f, called as call_kv calls it with a (K, V) record, can be handed Kafka's null value.
template <class F, class K, class V>
constexpr bool takes_null_value() {
    if constexpr (is_optional_v<V>) return true;
    else if constexpr (std::invocable<F&, const K&, const V&>) return declares_optional<F, 2, 1, V>();
    else return declares_optional<F, 1, 0, V>();
}

/// True (and the drop counted at `where`) when `r` must not reach a function that cannot take
/// Kafka's null value (`Takes` false): its value is null.
template <bool Takes, class K, class V>
bool drop_null_value_unless(const record<K, V>& r, const kstreams::detail::node& where) {
    if constexpr (Takes) {
        return false;
    } else {
        if (!r.value_null) return false;
        where.context().record_dropped(metric::dropped_null_value_plain_type, where);
        return true;
    }
}

/// The same for a function f called as call_kv calls it.
template <class F, class K, class V>
bool drop_null_value_for(const record<K, V>& r, const kstreams::detail::node& where) {
    return drop_null_value_unless<takes_null_value<F, K, V>()>(r, where);
}

}  // namespace kstreams::dsl_detail
