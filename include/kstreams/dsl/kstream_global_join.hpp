// kstream::join / left_join with a global_ktable (Kafka's KStreamImpl.globalTableJoin): the key
// mapper picks each record's table key from its key and value; the table's store is read directly
// (a global store needs no connection, and the stream is never repartitioned: every instance has
// the whole table). As in Kafka, the processor is named KSTREAM-LEFTJOIN- for both kinds.
// Included by <kstreams/dsl.hpp>.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/detail/joiner_args.hpp>
#include <kstreams/dsl/detail/value_getter.hpp>
#include <kstreams/dsl/global_ktable.hpp>
#include <kstreams/dsl/kstream.hpp>
#include <kstreams/dsl/ops/stream_join.hpp>
#include <kstreams/dsl/ops/stream_table_join.hpp>

namespace kstreams {

namespace dsl_detail {

/// The table key of a stream record: mapper(key, value) (or mapper(value)), returning the global
/// table's key type KG or std::optional<KG>; nullopt is Kafka's null (no row to look up).
template <class K, class V, class KG, class F>
struct global_key_mapper {
    using result = kv_result_t<F, K, V>;
    static constexpr bool valid = std::is_same_v<result, KG> || std::is_same_v<result, std::optional<KG>>;
    F f;
    std::optional<KG> operator()(const record<K, V>& r) {
        result mapped = call_kv(f, r.key, r.value, r.key_null, r.value_null);
        if constexpr (std::is_same_v<result, KG>) {
            if constexpr (is_optional_v<KG>)
                if (!mapped) return std::nullopt;
            return std::optional<KG>(std::move(mapped));
        } else {
            return mapped;
        }
    }
};

}  // namespace dsl_detail

template <class K, class V>
template <dsl_detail::join_kind Kind, class KG, class VG, class M, class F>
auto kstream<K, V>::do_global_join(const global_ktable<KG, VG>& table, M mapper, F joiner, const named& n) const {
    using call = dsl_detail::join_call<K, V, VG, F, Kind>;
    using VOut = typename call::result;
    static_assert(!std::is_void_v<VOut>, "kstreams: join(global_ktable): the joiner must return the joined value");
    constexpr bool left = Kind == dsl_detail::join_kind::left;
    dsl_detail::builder_state& b = *b_;
    // Kafka names both kinds KSTREAM-LEFTJOIN- (KStreamImpl.globalTableJoin).
    const std::string name = b.name_or_generate(n.name, "KSTREAM-LEFTJOIN-");
    const std::string store = table.store_;
    dsl_detail::value_getter_supplier<KG, VG> getter{
        [store] {
            return std::unique_ptr<dsl_detail::value_getter<KG, VG>>(
                std::make_unique<dsl_detail::store_value_getter<KG, VG>>(store));
        },
        {}};
    using key_t = dsl_detail::global_key_mapper<K, V, KG, M>;
    using fn_t = dsl_detail::join_fn<K, V, VG, F, Kind>;
    using node_t = dsl_detail::stream_table_join_node<K, V, KG, VG, VOut, key_t, fn_t>;
    const std::size_t i = b.add(dsl_detail::processor_node_of<K, V, K, VOut, node_t>(
        name, {node_}, std::move(getter), key_t{std::move(mapper)}, fn_t{std::move(joiner)}, left));
    // The key is unchanged, so a repartition still pending upstream stays pending.
    return kstream<K, VOut>(b_, i, repartition_required_, key_serde_, {});
}

template <class K, class V>
template <class KG, class VG, class M, class F>
auto kstream<K, V>::join(const global_ktable<KG, VG>& table, M mapper, F joiner, named n) const {
    static_assert(dsl_detail::kv_invocable<M, K, V>,
                  "kstreams: join(global_ktable): the key mapper must take (key, value) or (value) of this stream's types");
    static_assert(dsl_detail::global_key_mapper<K, V, KG, M>::valid,
                  "kstreams: join(global_ktable): the key mapper must return the global table's key type or a "
                  "std::optional of it (nullopt: no row)");
    using call = dsl_detail::join_call<K, V, VG, F, dsl_detail::join_kind::inner>;
    static_assert(call::valid, "kstreams: join(global_ktable): the joiner must take (stream value, table value) or "
                               "(key, stream value, table value)");
    static_assert(call::shape::not_over_wrapped, "kstreams: join(global_ktable): " KSTREAMS_JOINER_OVER_WRAPPED_MESSAGE);
    if constexpr (call::ok)
        return do_global_join<dsl_detail::join_kind::inner>(table, std::move(mapper), std::move(joiner), n);
}

template <class K, class V>
template <class KG, class VG, class M, class F>
auto kstream<K, V>::left_join(const global_ktable<KG, VG>& table, M mapper, F joiner, named n) const {
    static_assert(dsl_detail::kv_invocable<M, K, V>,
                  "kstreams: left_join(global_ktable): the key mapper must take (key, value) or (value) of this stream's types");
    static_assert(dsl_detail::global_key_mapper<K, V, KG, M>::valid,
                  "kstreams: left_join(global_ktable): the key mapper must return the global table's key type or a "
                  "std::optional of it (nullopt: no row)");
    using call = dsl_detail::join_call<K, V, VG, F, dsl_detail::join_kind::left>;
    static_assert(call::valid,
                  "kstreams: left_join(global_ktable): the joiner must take (stream value, std::optional<table value>) or "
                  "(key, stream value, std::optional<table value>); the table value is nullopt when there is no row");
    static_assert(call::shape::not_over_wrapped, "kstreams: left_join(global_ktable): " KSTREAMS_JOINER_OVER_WRAPPED_MESSAGE);
    if constexpr (call::ok)
        return do_global_join<dsl_detail::join_kind::left>(table, std::move(mapper), std::move(joiner), n);
}

}  // namespace kstreams
