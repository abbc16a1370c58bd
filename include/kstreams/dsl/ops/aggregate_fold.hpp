// How an aggregation node folds a value into a key's (or a window's) aggregate: one policy per
// DSL call, so that reduce is an aggregation with its own fold (Kafka's KStreamReduce and
// KTableReduce differ from KStreamAggregate and KTableAggregate only there). A fold's initial()
// is where a key with no aggregate starts; its call gives the next aggregate, nullopt to delete
// the row (an aggregator returning an empty optional, Kafka's null).
#pragma once

#include <cstdint>
#include <optional>

#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

/// aggregate(initializer, aggregator): a key starts from initializer(), then
/// aggregator(key, value, aggregate).
template <class K, class V, class Agg, class Init, class Adder>
struct aggregate_fold {
    Init init;
    Adder add;
    /// Whether a windowed aggregation may hand the aggregator Kafka's null value, as Kafka does:
    /// the value type is optional, the aggregator declares std::optional<V> (called with nullopt)
    /// or counts records whatever their value (count()). Otherwise a null value is dropped and
    /// counted rather than aggregated as an invented V{} (dsl/detail/null_value_guard.hpp).
    static constexpr bool takes_null_value =
        is_optional_v<V> || declares_optional<Adder, 3, 1, V>() || requires { Adder::counts_records; };
    std::optional<Agg> initial() { return Agg(init()); }
    std::optional<Agg> operator()(const K& k, const V& value, const std::optional<Agg>& base) {
        return nullable_result<Agg>(add(k, value, *base));
    }
    /// A windowed aggregation passes null values to the aggregator, as Kafka does.
    std::optional<Agg> operator()(const K& k, const record<K, V>& r, const std::optional<Agg>& base) {
        constexpr bool as_optional = !is_optional_v<V> && declares_optional<Adder, 3, 1, V>();
        if constexpr (as_optional) return nullable_result<Agg>(add(k, declared_argument<true>(r.value, r.value_null), *base));
        else return (*this)(k, r.value, base);
    }
};

/// count()'s aggregator: one more for every record, whatever its value (a null one too, as
/// Kafka's windowed and session counts).
template <class K, class V>
struct count_adder {
    static constexpr bool counts_records = true;
    std::int64_t operator()(const K&, const V&, std::int64_t n) const { return n + 1; }
};

/// reduce(reducer): a key's first value is its aggregate as it is (no reducer call), later ones
/// are reducer(aggregate, value).
template <class K, class V, class Reducer>
struct reduce_fold {
    Reducer f;
    /// As aggregate_fold's: a windowed reduce hands a null value only to a reducer that can take it.
    static constexpr bool takes_null_value = is_optional_v<V> || declares_optional<Reducer, 2, 1, V>();
    std::optional<V> initial() { return std::nullopt; }
    std::optional<V> operator()(const K&, const V& value, const std::optional<V>& base) {
        if (!base) return value;
        return nullable_result<V>(f(*base, value));
    }
    /// In a window, a null first value leaves the window empty.
    std::optional<V> operator()(const K& k, const record<K, V>& r, const std::optional<V>& base) {
        if (!base) return nullable_value(r);
        constexpr bool as_optional = !is_optional_v<V> && declares_optional<Reducer, 2, 1, V>();
        if constexpr (as_optional) return nullable_result<V>(f(*base, declared_argument<true>(r.value, r.value_null)));
        else return (*this)(k, r.value, base);
    }
};

/// A table aggregation's subtractor(key, old value, aggregate) -> Agg.
template <class K, class V, class Agg, class Subtractor>
struct aggregate_subtract {
    Subtractor f;
    std::optional<Agg> operator()(const K& k, const V& old_value, const Agg& agg) {
        return nullable_result<Agg>(f(k, old_value, agg));
    }
};

/// A table reduce's subtractor(aggregate, old value) -> V.
template <class K, class V, class Subtractor>
struct reduce_subtract {
    Subtractor f;
    std::optional<V> operator()(const K&, const V& old_value, const V& agg) {
        return nullable_result<V>(f(agg, old_value));
    }
};

}  // namespace kstreams::dsl_detail
