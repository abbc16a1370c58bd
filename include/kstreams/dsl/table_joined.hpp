// Options of a foreign-key table-table join (Kafka's TableJoined): the name its processors, store
// and internal topics are derived from, and the partitioners of its two internal topics.
#pragma once

#include <string>
#include <utility>

#include <kstreams/dsl/options.hpp>

namespace kstreams {

/// `P`: how the left table's topics are partitioned, `p(topic, key, partition_count) ->
/// std::optional<std::int32_t>` (or a std::set of partitions, as stream_partitioner) of the left key (the response topic uses it, instead of sending each
/// response back to the left row's own partition); `OP`: the same for the right table's topics
/// and foreign keys (the subscription topic uses it instead of murmur2 of the foreign key). Give
/// them when the tables' topics are written with a custom partitioner.
template <class P = no_partitioner, class OP = no_partitioner>
struct table_joined {
    P partitioner{};
    OP other_partitioner{};
    std::string name;

    static table_joined as(std::string n) {
        table_joined t;
        t.name = std::move(n);
        return t;
    }
    table_joined with_name(std::string n) const {
        auto c = *this;
        c.name = std::move(n);
        return c;
    }
    template <class F>
    table_joined<F, OP> with_partitioner(F p) const { return {std::move(p), other_partitioner, name}; }
    template <class F>
    table_joined<P, F> with_other_partitioner(F p) const { return {partitioner, std::move(p), name}; }
};

/// table_joined with both partitioners (Kafka's TableJoined.with).
template <class P, class OP>
table_joined<P, OP> table_joined_with(P partitioner, OP other_partitioner) {
    return {std::move(partitioner), std::move(other_partitioner), {}};
}

namespace dsl_detail {
template <class T>
struct is_fk_join_option : std::false_type {};
template <>
struct is_fk_join_option<named> : std::true_type {};
template <class KS, class VS>
struct is_fk_join_option<materialized<KS, VS>> : std::true_type {};
template <class P, class OP>
struct is_fk_join_option<table_joined<P, OP>> : std::true_type {};
/// A foreign-key join's joiner (not one of the join's options, so that a table-table join of
/// the same key type is never read as a foreign-key join).
template <class F>
concept fk_joiner = !is_fk_join_option<std::decay_t<F>>::value;
}  // namespace dsl_detail

}  // namespace kstreams
