// How an aggregation node folds a value into a key's (or a window's) aggregate: one policy per
// DSL call, so that reduce is an aggregation with its own fold (Kafka's KStreamReduce and
// KTableReduce differ from KStreamAggregate and KTableAggregate only there). A fold's initial()
// is where a key with no aggregate starts; its call gives the next aggregate, nullopt to delete
// the row (an aggregator returning an empty optional, Kafka's null).
#pragma once

#include <optional>

#include <kstreams/dsl/change.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

/// aggregate(initializer, aggregator): a key starts from initializer(), then
/// aggregator(key, value, aggregate).
template <class K, class V, class Agg, class Init, class Adder>
struct aggregate_fold {
    Init init;
    Adder add;
    std::optional<Agg> initial() { return Agg(init()); }
    std::optional<Agg> operator()(const K& k, const V& value, const std::optional<Agg>& base) {
        return nullable_result<Agg>(add(k, value, *base));
    }
    /// A windowed aggregation passes null values to the aggregator, as Kafka does.
    std::optional<Agg> operator()(const K& k, const record<K, V>& r, const std::optional<Agg>& base) {
        return (*this)(k, r.value, base);
    }
};

/// reduce(reducer): a key's first value is its aggregate as it is (no reducer call), later ones
/// are reducer(aggregate, value).
template <class K, class V, class Reducer>
struct reduce_fold {
    Reducer f;
    std::optional<V> initial() { return std::nullopt; }
    std::optional<V> operator()(const K&, const V& value, const std::optional<V>& base) {
        if (!base) return value;
        return nullable_result<V>(f(*base, value));
    }
    /// In a window, a null first value leaves the window empty.
    std::optional<V> operator()(const K& k, const record<K, V>& r, const std::optional<V>& base) {
        if (!base) return nullable_value(r);
        return (*this)(k, r.value, base);
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
