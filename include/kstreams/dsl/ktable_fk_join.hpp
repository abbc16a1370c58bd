// ktable::join / left_join on a foreign key (KIP-213), as Kafka's KTableImpl.doJoinOnForeignKey:
//   this table -> KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION (send) -> KTABLE-SINK ->
//     <name>-subscription-registration-topic (co-partitioned with the other table) -> KTABLE-SOURCE
//     -> KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR (receive; the subscription store
//     KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE) -> KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR (join
//     foreign; the other table's getter) -> KTABLE-SINK;
//   the other table -> KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR (foreign join subscription; the
//     subscription store) -> the same KTABLE-SINK -> <name>-subscription-response-topic
//     (co-partitioned with this table) -> KTABLE-SOURCE ->
//     KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-RESOLVER-PROCESSOR (this table's getter) ->
//     KTABLE-FK-JOIN-OUTPUT (a table source, with its store when materialized).
// Names are allocated in that order (a TableJoined name gives <name>-subscription-registration-topic,
// -subscription-registration-processor, -sink, -source, -subscription-store, -subscription-receive,
// -subscription-join-foreign, -foreign-join-subscription, -subscription-response-topic, -sink,
// -source, -subscription-response-resolver, -result). Included by <kstreams/dsl.hpp>.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include <kstreams/detail/dsl_store_choice.hpp>
#include <kstreams/dsl/detail/fk_join_wire.hpp>
#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/detail/header_logged_stores.hpp>
#include <kstreams/dsl/detail/value_getter.hpp>
#include <kstreams/dsl/kstream_join.hpp>
#include <kstreams/dsl/ktable.hpp>
#include <kstreams/dsl/ops/fk_join.hpp>
#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/dsl/table_joined.hpp>

namespace kstreams {

namespace dsl_detail {
namespace fk_names {
inline constexpr std::string_view registration = "KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-";
inline constexpr std::string_view response = "KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-";
inline constexpr std::string_view processor = "KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-";
inline constexpr std::string_view resolver = "KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-RESOLVER-PROCESSOR-";
inline constexpr std::string_view store = "KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-";
inline constexpr std::string_view output = "KTABLE-FK-JOIN-OUTPUT-";
inline constexpr std::string_view sink = "KTABLE-SINK-";
inline constexpr std::string_view source = "KTABLE-SOURCE-";
}  // namespace fk_names

/// The foreign key extractor takes (value) or (key, value) and returns the other table's key (or
/// a std::optional of it, nullopt for no foreign key).
template <class Fk, class K, class V, class KO>
constexpr bool fk_extractor_fits() {
    auto fits = []<class R>(std::type_identity<R>) {
        if constexpr (std::is_convertible_v<R, KO>) return true;
        else if constexpr (is_optional_v<R>) return std::is_convertible_v<typename R::value_type, KO>;
        else return false;
    };
    if constexpr (std::is_invocable_v<Fk&, const K&, const V&>)
        return fits(std::type_identity<std::decay_t<std::invoke_result_t<Fk&, const K&, const V&>>>{});
    else if constexpr (std::is_invocable_v<Fk&, const V&>)
        return fits(std::type_identity<std::decay_t<std::invoke_result_t<Fk&, const V&>>>{});
    else
        return false;
}

/// A table_joined partitioner p(topic, key, partition_count) as a sink's, reading the key with
/// `decode` from what the sink carries.
template <class KSink, class VSink, class KUser, class P, class Decode>
stream_partitioner<KSink, VSink> fk_user_partitioner(P p, Decode decode) {
    static_assert(std::is_invocable_r_v<partition_choice, const P&, std::string_view, const KUser&, std::int32_t>,
                  "kstreams: a table_joined partitioner must be callable as (topic, key, partition_count), returning "
                  "std::optional<std::int32_t>, std::set<std::int32_t>, std::optional<std::set<std::int32_t>> or "
                  "partition_choice");
    return [p = std::move(p), decode = std::move(decode)](std::string_view topic, const KSink& k, const VSink&,
                                                          std::int32_t n) -> partition_choice {
        partition_choice c = p(topic, decode(k), n);
        // As Kafka's KTableImpl: one partition or the default, never a multicast or a drop.
        if (!c.is_default() && c.partitions().size() != 1)
            throw std::invalid_argument(
                "The partitions returned by StreamPartitioner#partitions method when used for FK join should be a "
                "singleton set");
        return c;
    };
}

/// One of the join's two internal topics: sink -> topic -> source, no null-key filter, never
/// merged or shared.
inline repartition_spec fk_topic_spec(std::string topic, std::string sink, std::string source) {
    repartition_spec s;
    s.topic = std::move(topic);
    s.sink_name = std::move(sink);
    s.source_name = std::move(source);
    s.optimizable = false;
    return s;
}
}  // namespace dsl_detail

template <class K, class V>
template <bool Left, class KO, class VO, class Fk, class F, class P, class OP, class KS, class VS>
auto ktable<K, V>::do_fk_join(const ktable<KO, VO>& other, Fk foreign_key, F joiner, const table_joined<P, OP>& tj,
                              const materialized<KS, VS>& m) const {
    namespace d = dsl_detail;
    constexpr d::join_kind kind = Left ? d::join_kind::left : d::join_kind::inner;
    using call = d::join_call<K, V, VO, F, kind>;
    static_assert(d::fk_extractor_fits<Fk, K, V, KO>(),
                  "kstreams: ktable foreign-key join: the foreign key extractor must take (value) or (key, value) of "
                  "this table and return the other table's key (or a std::optional of it)");
    static_assert(call::valid || Left,
                  "kstreams: ktable foreign-key join(): the joiner must take (this value, other value)");
    static_assert(call::valid || !Left,
                  "kstreams: ktable foreign-key left_join(): the joiner must take (this value, std::optional<other value>)");
    static_assert(!call::valid || call::shape::not_over_wrapped,
                  "kstreams: ktable foreign-key join: " KSTREAMS_JOINER_OVER_WRAPPED_MESSAGE);
    if constexpr (call::ok && d::fk_extractor_fits<Fk, K, V, KO>()) {
        using VR = typename call::result;
        static_assert(!std::is_void_v<VR>, "kstreams: ktable foreign-key join: the joiner must return the joined value");
        using fn_t = d::join_fn<K, V, VO, F, kind>;
        d::builder_state& b = *b_;
        const std::string& n = tj.name;

        // Old values of both tables: the left's to unsubscribe an old foreign key, the right's
        // (as Kafka asks) materialize it.
        b.enable_send_old_values(other.node_);
        b.enable_send_old_values(node_);

        const serde_ref<K> ks = d::pick_serde<K>(no_serde{}, key_serde_);
        const serde_ref<V> vs = d::pick_serde<V>(no_serde{}, value_serde_);
        const serde_ref<KO> fks = d::pick_serde<KO>(no_serde{}, other.key_serde_);
        const serde_ref<VO> vos = d::pick_serde<VO>(no_serde{}, other.value_serde_);

        const std::string sub_topic =
            d::suffixed_or_generated(b, n, "-subscription-registration", d::fk_names::registration) + "-topic";
        const std::string send_name =
            d::suffixed_or_generated(b, n, "-subscription-registration-processor", d::fk_names::registration);
        const std::size_t send_i = b.add(
            d::processor_node_of<K, change<V>, KO, d::subscription_wrapper, d::subscription_send_node<K, V, KO, Fk>>(
                send_name, {node_}, std::move(foreign_key), Left, ks, vs, fks, d::output_versioned(b, node_)));

        std::string sub_sink = d::suffixed_or_generated(b, n, "-subscription-registration-sink", d::fk_names::sink);
        std::string sub_source = d::suffixed_or_generated(b, n, "-subscription-registration-source", d::fk_names::source);
        d::repartition_spec sub = d::fk_topic_spec(sub_topic, std::move(sub_sink), std::move(sub_source));
        stream_partitioner<KO, d::subscription_wrapper> sub_part;
        if constexpr (!std::is_same_v<OP, no_partitioner>)
            sub_part = d::fk_user_partitioner<KO, d::subscription_wrapper, KO>(tj.other_partitioner, [](const KO& k) { return k; });
        d::type_repartition<KO, d::subscription_wrapper>(sub, fks, serde_ref<d::subscription_wrapper>(d::subscription_wrapper_serde{}),
                                                          std::move(sub_part));
        const std::size_t sub_src = d::add_repartition_source<KO, d::subscription_wrapper>(b, send_i, std::move(sub));
        b.add_copartition_group({other.node_, sub_src});

        const std::string store = d::suffixed_or_generated(b, n, "-subscription-store", d::fk_names::store);
        const std::string receive = d::suffixed_or_generated(b, n, "-subscription-receive", d::fk_names::processor);
        d::graph_node recv = d::processor_node_of<KO, d::subscription_wrapper, KO, d::subscription_wrapper, d::subscription_receive_node<KO>>(
            receive, {sub_src}, store, fks);
        // Kafka's SubscriptionStoreFactory: the default store kind (default.dsl.store), logged with
        // headers, never cached.
        recv.stores.push_back(kstreams::detail::dsl_store_of(std::nullopt, [&](bool rocks_db) {
            return std::shared_ptr<const store_builder>(std::make_shared<d::subscription_store_builder>(
                rocks_db ? stores::persistent_timestamped_key_value_store(store) : stores::in_memory_key_value_store(store)));
        }));
        const std::size_t recv_i = b.add(std::move(recv));

        d::value_getter_supplier<KO, VO> right = d::value_getter_of<KO, VO>(b, other.node_);
        std::vector<std::string> right_stores = right.store_names;
        const std::string join_foreign = d::suffixed_or_generated(b, n, "-subscription-join-foreign", d::fk_names::processor);
        d::graph_node jf = d::processor_node_of<KO, d::subscription_wrapper, std::string, d::subscription_response,
                                                d::subscription_join_node<KO, VO>>(join_foreign, {recv_i}, std::move(right), fks, vos);
        jf.connected_stores = std::move(right_stores);
        const std::size_t jf_i = b.add(std::move(jf));

        const std::string foreign_join = d::suffixed_or_generated(b, n, "-foreign-join-subscription", d::fk_names::processor);
        d::graph_node fj = d::processor_node_of<KO, change<VO>, std::string, d::subscription_response, d::foreign_table_join_node<KO, VO>>(
            foreign_join, {other.node_}, store, fks, vos, d::output_versioned(b, other.node_));
        fj.connected_stores = {store};
        const std::size_t fj_i = b.add(std::move(fj));

        const std::string resp_topic = d::suffixed_or_generated(b, n, "-subscription-response", d::fk_names::response) + "-topic";
        std::string resp_sink = d::suffixed_or_generated(b, n, "-subscription-response-sink", d::fk_names::sink);
        std::string resp_source = d::suffixed_or_generated(b, n, "-subscription-response-source", d::fk_names::source);
        d::repartition_spec resp = d::fk_topic_spec(resp_topic, std::move(resp_sink), std::move(resp_source));
        stream_partitioner<std::string, d::subscription_response> resp_part;
        if constexpr (!std::is_same_v<P, no_partitioner>)
            resp_part = d::fk_user_partitioner<std::string, d::subscription_response, K>(
                tj.partitioner, [ks](const std::string& pk) { return ks.deserialize(pk); });
        else
            resp_part = [](std::string_view, const std::string&, const d::subscription_response& r, std::int32_t) {
                return r.primary_partition;  // back to the left row's partition
            };
        d::type_repartition<std::string, d::subscription_response>(
            resp, serde_ref<std::string>(serde<std::string>{}), serde_ref<d::subscription_response>(d::subscription_response_serde{}),
            std::move(resp_part));
        const std::size_t resp_src = d::add_repartition_source<std::string, d::subscription_response>(b, jf_i, std::move(resp));
        b.at(resp_src).parents.push_back(fj_i);
        b.add_copartition_group({node_, resp_src});

        d::value_getter_supplier<K, V> left = d::value_getter_of<K, V>(b, node_);
        std::vector<std::string> left_stores = left.store_names;
        const std::string resolver = d::suffixed_or_generated(b, n, "-subscription-response-resolver", d::fk_names::resolver);
        d::graph_node rj = d::processor_node_of<std::string, d::subscription_response, K, VR, d::response_join_node<K, V, VO, VR, fn_t>>(
            resolver, {resp_src}, std::move(left), fn_t{std::move(joiner)}, Left, ks, vs, vos);
        rj.connected_stores = std::move(left_stores);
        const std::size_t rj_i = b.add(std::move(rj));

        // The result: a table source (Kafka's KTableSource), kept when materialized with a name.
        const std::string result = d::suffixed_or_generated(b, n, "-result", d::fk_names::output);
        const std::string result_store = m.store_name.empty() ? b.new_store_name(d::fk_names::output) : m.store_name;
        const serde_ref<K> rks = d::pick_serde<K>(m.key_serde, ks);
        serde_ref<VR> rvs;
        if constexpr (!std::is_same_v<VS, no_serde> || has_default_serde<VR>) rvs = d::pick_serde<VR>(m.value_serde, {});
        if (rvs) return streams_builder::make_table_source<K, VR>(b_, rj_i, result, result_store, !m.store_name.empty(), m, rks, rvs);
        // A result type without a serde cannot be kept: a table with no store.
        auto info = std::make_shared<d::table_info>();
        d::graph_node g = d::processor_node_of<K, VR, K, change<VR>, d::table_source_node<K, VR>>(
            result, {rj_i}, result_store, std::shared_ptr<const d::table_info>(info), rvs);
        g.table = info;
        const std::size_t i = b.add(std::move(g));
        return ktable<K, VR>(b_, i, rks, rvs);
    }
}

}  // namespace kstreams
