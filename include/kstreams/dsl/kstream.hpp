// kstream<K,V>: a record stream. Each call appends a node to the builder's graph and returns a new
// handle; nothing runs until streams_builder::build() lowers the graph into a topology.
// Include <kstreams/dsl.hpp> (which brings in the operations that return tables and groupings).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/ops/drop_null_key.hpp>
#include <kstreams/dsl/ops/filter.hpp>
#include <kstreams/dsl/ops/flat_map.hpp>
#include <kstreams/dsl/ops/flat_map_values.hpp>
#include <kstreams/dsl/ops/foreach.hpp>
#include <kstreams/dsl/ops/map.hpp>
#include <kstreams/dsl/ops/map_values.hpp>
#include <kstreams/dsl/ops/passthrough.hpp>
#include <kstreams/dsl/ops/peek.hpp>
#include <kstreams/dsl/ops/print.hpp>
#include <kstreams/dsl/ops/select_key.hpp>
#include <kstreams/dsl/join_windows.hpp>
#include <kstreams/dsl/joined.hpp>
#include <kstreams/dsl/options.hpp>
#include <kstreams/processor.hpp>

namespace kstreams {

template <class K, class V> class ktable;
template <class K, class V> class global_ktable;
template <class K, class V> class kgrouped_stream;
template <class K, class V> class branched_kstream;
class streams_builder;
namespace dsl_detail {
/// Defined in kstreams/async.hpp (map_values_async's function returns its awaitable).
template <class K, class V, class V2, class F>
class async_map_values_node;
}  // namespace dsl_detail

template <class K, class V>
class kstream {
public:
    using key_type = K;
    using value_type = V;

    /// Keeps the records for which pred(key, value) (or pred(value)) holds.
    template <class F>
    kstream filter(F pred, named n = {}) const {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: filter(): the predicate must take (key, value) or (value) of this stream's types");
        static_assert(std::is_convertible_v<dsl_detail::kv_result_t<F, K, V>, bool>, "kstreams: filter(): the predicate must return bool");
        return same_shape(add<K, V, dsl_detail::filter_node<K, V, F>>(n, dsl_detail::names::filter, std::move(pred), false));
    }
    /// Keeps the records for which the predicate does not hold.
    template <class F>
    kstream filter_not(F pred, named n = {}) const {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: filter_not(): the predicate must take (key, value) or (value) of this stream's types");
        static_assert(std::is_convertible_v<dsl_detail::kv_result_t<F, K, V>, bool>, "kstreams: filter_not(): the predicate must return bool");
        return same_shape(add<K, V, dsl_detail::filter_node<K, V, F>>(n, dsl_detail::names::filter, std::move(pred), true));
    }

    /// A new key and value per record: f(key, value) returns key_value<K2,V2> or std::pair<K2,V2>.
    /// Changes the key, so a key-based operation downstream repartitions.
    template <class F>
    auto map(F f, named n = {}) const {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: map(): the function must take (key, value) or (value) of this stream's types");
        using R = dsl_detail::kv_result_t<F, K, V>;
        static_assert(dsl_detail::pair_like<R>, "kstreams: map(): the function must return a key_value<K2,V2> or std::pair<K2,V2>");
        using K2 = dsl_detail::pair_key_t<R>;
        using V2 = dsl_detail::pair_value_t<R>;
        const std::size_t i = add<K2, V2, dsl_detail::map_node<K, V, K2, V2, F>>(n, dsl_detail::names::map, std::move(f));
        b_->at(i).key_changing = true;
        return kstream<K2, V2>(b_, i, true, {}, {});
    }

    /// A new value per record, from f(value) or f(key, value). The key is kept.
    template <class F>
    auto map_values(F f, named n = {}) const {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: map_values(): the function must take (key, value) or (value) of this stream's types");
        using V2 = dsl_detail::kv_result_t<F, K, V>;
        static_assert(!std::is_void_v<V2>, "kstreams: map_values(): the function must return the new value");
        const std::size_t i = add<K, V2, dsl_detail::map_values_node<K, V, V2, F>>(n, dsl_detail::names::map_values, std::move(f));
        b_->at(i).value_changing = true;
        return kstream<K, V2>(b_, i, repartition_required_, key_serde_, {});
    }

    /// Zero or more records per record: f returns any range (container, std view, range-v3 view)
    /// of key_value<K2,V2> or std::pair<K2,V2>. Changes the key.
    template <class F>
    auto flat_map(F f, named n = {}) const {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: flat_map(): the function must take (key, value) or (value) of this stream's types");
        using R = dsl_detail::kv_result_t<F, K, V>;
        static_assert(dsl_detail::iterable<R>, "kstreams: flat_map(): the function must return a range (anything with begin/end)");
        using P = dsl_detail::iterable_value_t<R>;
        static_assert(dsl_detail::pair_like<P>, "kstreams: flat_map(): the range's elements must be key_value<K2,V2> or std::pair<K2,V2>");
        using K2 = dsl_detail::pair_key_t<P>;
        using V2 = dsl_detail::pair_value_t<P>;
        const std::size_t i = add<K2, V2, dsl_detail::flat_map_node<K, V, K2, V2, F>>(n, dsl_detail::names::flat_map, std::move(f));
        b_->at(i).key_changing = true;
        return kstream<K2, V2>(b_, i, true, {}, {});
    }

    /// Zero or more values per record, the key kept: f returns any range of values.
    template <class F>
    auto flat_map_values(F f, named n = {}) const {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: flat_map_values(): the function must take (key, value) or (value) of this stream's types");
        using R = dsl_detail::kv_result_t<F, K, V>;
        static_assert(dsl_detail::iterable<R>, "kstreams: flat_map_values(): the function must return a range (anything with begin/end)");
        using V2 = dsl_detail::iterable_value_t<R>;
        const std::size_t i = add<K, V2, dsl_detail::flat_map_values_node<K, V, V2, F>>(n, dsl_detail::names::flat_map_values, std::move(f));
        b_->at(i).value_changing = true;
        return kstream<K, V2>(b_, i, repartition_required_, key_serde_, {});
    }

    /// A new key per record from f(key, value); the value is kept. Changes the key.
    template <class F>
    auto select_key(F f, named n = {}) const {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: select_key(): the function must take (key, value) or (value) of this stream's types");
        using K2 = dsl_detail::kv_result_t<F, K, V>;
        static_assert(!std::is_void_v<K2>, "kstreams: select_key(): the function must return the new key");
        const std::size_t i = add<K2, V, dsl_detail::select_key_node<K, V, K2, F>>(n, dsl_detail::names::key_select, std::move(f));
        b_->at(i).key_changing = true;
        return kstream<K2, V>(b_, i, true, {}, value_serde_);
    }

    /// Calls f(key, value) for each record and passes the record on unchanged.
    template <class F>
    kstream peek(F f, named n = {}) const {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: peek(): the function must take (key, value) or (value) of this stream's types");
        return same_shape(add<K, V, dsl_detail::peek_node<K, V, F>>(n, dsl_detail::names::peek, std::move(f)));
    }

    /// Calls f(key, value) for each record; ends the stream.
    template <class F>
    void foreach(F f, named n = {}) const {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: foreach(): the function must take (key, value) or (value) of this stream's types");
        add<K, V, dsl_detail::foreach_node<K, V, F>>(n, dsl_detail::names::foreach, std::move(f));
    }

    /// Prints "[label]: key, value" per record to standard output or a file; the label defaults
    /// to the name of this stream's node.
    void print(printed p = {}) const { print(printed_mapped<dsl_detail::print_key_and_value>{std::move(p), {}}); }
    /// As print(), each line "[label]: " and the mapper's result (printed::with_key_value_mapper).
    template <class F>
    void print(printed_mapped<F> p) const {
        static_assert(std::is_same_v<F, dsl_detail::print_key_and_value> || dsl_detail::kv_invocable<F, K, V>,
                      "kstreams: print(): the key-value mapper must take (key, value) or (value) of this stream's types");
        const std::string name = b_->name_or_generate(p.name, dsl_detail::names::printer);
        // Kafka Streams labels the lines with the printed stream's name unless given a label.
        const std::string label = p.label.empty() ? b_->at(node_).name : p.label;
        b_->add(dsl_detail::processor_node_of<K, V, K, V, dsl_detail::print_node<K, V, F>>(name, {node_}, p.file, label,
                                                                                            std::move(p.mapper)));
    }

    /// Splits the stream into named branches; see branched_kstream.
    branched_kstream<K, V> split(named n = {}) const;

    /// Both streams' records in one stream.
    kstream merge(const kstream& other, named n = {}) const {
        const std::string name = b_->name_or_generate(n.name, dsl_detail::names::merge);
        // A stream merged with itself has one parent, as Kafka's graph keeps parents in a set:
        // each record passes once.
        std::vector<std::size_t> parents{node_};
        if (other.node_ != node_) parents.push_back(other.node_);
        const std::size_t i = b_->add(dsl_detail::processor_node_of<K, V, K, V, dsl_detail::passthrough_node<K, V>>(name, std::move(parents)));
        b_->at(i).merge = true;
        return kstream(b_, i, repartition_required_ || other.repartition_required_, {}, {});
    }

    /// Writes the stream to a topic.
    template <class KS = no_serde, class VS = no_serde, class P = no_partitioner>
    void to(std::string topic, produced<KS, VS, P> p = {}) const {
        add_sink(std::move(topic), {}, p);
    }
    /// Writes each record to the topic extractor(record) names.
    template <class KS = no_serde, class VS = no_serde, class P = no_partitioner>
    void to(topic_name_extractor<K, V> extractor, produced<KS, VS, P> p = {}) const {
        add_sink({}, [f = std::move(extractor)](const record<K, V>& r, const record_metadata*) { return f(r); }, p);
    }
    /// Writes each record to the topic extractor(record, source) names; `source` is where the
    /// record being processed was read (null inside a punctuation).
    template <class KS = no_serde, class VS = no_serde, class P = no_partitioner>
    void to(contextual_topic_name_extractor<K, V> extractor, produced<KS, VS, P> p = {}) const {
        add_sink({}, std::move(extractor), p);
    }

    /// Writes the stream through a repartition topic (named `<name>-repartition`) and reads it back.
    template <class KS = no_serde, class VS = no_serde, class P = no_partitioner>
    kstream repartition(repartitioned<KS, VS, P> r = {}) const {
        // The one name that uses up no index when given (Kafka's KStreamImpl.repartition).
        const std::string prefix = r.name.empty() ? b_->new_processor_name(dsl_detail::names::repartition) : r.name;
        serde_ref<K> ks = dsl_detail::pick_serde<K>(r.key_serde, key_serde_);
        serde_ref<V> vs = dsl_detail::pick_serde<V>(r.value_serde, value_serde_);
        dsl_detail::repartition_spec s = dsl_detail::new_stream_repartition(*b_, prefix);
        s.partitions = r.partitions;
        // Its filter drops null-key records unless a join downstream takes them (see repartition_spec).
        dsl_detail::type_repartition<K, V>(s, ks, vs, dsl_detail::to_partitioner<K, V>(r.partitioner));
        s.optimizable = false;  // Kafka's UnoptimizableRepartitionNode
        // The graph node stands for the topic's source: lowering writes filter, sink and source.
        dsl_detail::graph_node g;
        g.kind = kstreams::detail::node_kind::source;
        g.name = s.source_name;
        g.parents = {node_};
        g.out_type = typeid(record<K, V>);
        g.repartition = std::move(s);
        const std::size_t i = b_->add(std::move(g));
        return kstream(b_, i, false, ks, vs);
    }

    /// Runs a Processor API processor: supplier() returns a std::unique_ptr<P> with P a
    /// processor<K, V, KOut, VOut>; `stores` are the names of stores (added with
    /// streams_builder::add_state_store) it may use: `process(supplier, {"seen"})` as Kafka's
    /// `process(supplier, "seen")`, `process(supplier, named::as("p"), {"seen"})` with a name.
    /// The processor may change keys.
    template <class Supplier>
    auto process(Supplier supplier, std::vector<std::string> stores = {}) const {
        return process(std::move(supplier), named{}, std::move(stores));
    }
    template <class Supplier>
    auto process(Supplier supplier, named n, std::vector<std::string> stores = {}) const {
        using P = typename std::invoke_result_t<Supplier&>::element_type;
        static_assert(processor_type<P>, "kstreams: process(): the supplier must return std::unique_ptr<P> with P derived from processor<K, V, KOut, VOut>");
        static_assert(std::is_same_v<typename P::key_in, K> && std::is_same_v<typename P::value_in, V>,
                      "kstreams: process(): the processor's input key and value types must be the stream's");
        const std::size_t i = add_processor<P>(n, dsl_detail::names::processor, std::move(supplier), std::move(stores));
        return kstream<typename P::key_out, typename P::value_out>(b_, i, true, {}, {});
    }
    /// As process(), for a processor that keeps the key (fixed_key_processor<K, V, VOut>).
    template <class Supplier>
    auto process_values(Supplier supplier, std::vector<std::string> stores = {}) const {
        return process_values(std::move(supplier), named{}, std::move(stores));
    }
    template <class Supplier>
    auto process_values(Supplier supplier, named n, std::vector<std::string> stores = {}) const {
        using P = typename std::invoke_result_t<Supplier&>::element_type;
        static_assert(processor_type<P>, "kstreams: process_values(): the supplier must return std::unique_ptr<P> with P derived from fixed_key_processor<K, V, VOut>");
        static_assert(std::is_same_v<typename P::key_in, K> && std::is_same_v<typename P::value_in, V> &&
                          std::is_same_v<typename P::key_out, K>,
                      "kstreams: process_values(): the processor must take this stream's key and value types and keep the key type");
        const std::size_t i = add_processor<P>(n, dsl_detail::names::process_values, std::move(supplier), std::move(stores));
        b_->at(i).value_changing = true;
        return kstream<K, typename P::value_out>(b_, i, repartition_required_, key_serde_, {});
    }

    /// As process(), for an async_processor (kstreams/async.hpp): its process() is a coroutine
    /// that may co_await; records of one key stay in order, other keys overlap.
    template <class Supplier>
    auto process_async(Supplier supplier, std::vector<std::string> stores = {}) const {
        return process_async(std::move(supplier), named{}, std::move(stores));
    }
    template <class Supplier>
    auto process_async(Supplier supplier, named n, std::vector<std::string> stores = {}) const {
        using P = typename std::invoke_result_t<Supplier&>::element_type;
        static_assert(kstreams::detail::async_processor_marked<P>, "kstreams: process_async(): the supplier must return std::unique_ptr<P> with P derived from async_processor<K, V, KOut, VOut> (include <kstreams/async.hpp>)");
        static_assert(std::is_same_v<typename P::key_in, K> && std::is_same_v<typename P::value_in, V>,
                      "kstreams: process_async(): the processor's input key and value types must be the stream's");
        const std::size_t i = add_processor<P, kstreams::detail::async_processor_node<P>>(n, dsl_detail::names::processor, std::move(supplier), std::move(stores));
        return kstream<typename P::key_out, typename P::value_out>(b_, i, true, {}, {});
    }
    /// As map_values(), with f(value) or f(key, value) returning awaitable<V2> (kstreams/async.hpp):
    /// the lookup may co_await; records of one key stay in order, other keys overlap.
    template <class F>
    auto map_values_async(F f, named n = {}) const {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: map_values_async(): the function must take (key, value) or (value) of this stream's types");
        using A = dsl_detail::kv_result_t<F, K, V>;
        static_assert(requires { typename A::value_type; }, "kstreams: map_values_async(): the function must return kstreams::awaitable<new value>");
        using V2 = typename A::value_type;
        static_assert(!std::is_void_v<V2>, "kstreams: map_values_async(): the function must return the new value");
        const std::size_t i = add<K, V2, dsl_detail::async_map_values_node<K, V, V2, F>>(n, dsl_detail::names::map_values, std::move(f));
        b_->at(i).value_changing = true;
        return kstream<K, V2>(b_, i, repartition_required_, key_serde_, {});
    }

    /// Windowed inner join with another stream of the same key type (see join_windows):
    /// joiner(this value, other value) or joiner(key, this value, other value) gives the joined
    /// value; its timestamp is the larger of the two. Records with a null key or value are dropped
    /// (and counted). A side whose key changed upstream is repartitioned first.
    template <class V2, class F, class KS = no_serde, class VS = no_serde, class OS = no_serde>
    auto join(const kstream<K, V2>& other, F joiner, const join_windows& w, stream_joined<KS, VS, OS> sj = {}) const;
    /// As join(), and each record of this stream that found no partner is joined with nullopt:
    /// joiner(this value, std::optional<other value>) (optionally with the key in front). That
    /// null-padded result is emitted only once the record's window has closed (stream time past
    /// t + after + grace), with the record's own timestamp.
    template <class V2, class F, class KS = no_serde, class VS = no_serde, class OS = no_serde>
    auto left_join(const kstream<K, V2>& other, F joiner, const join_windows& w, stream_joined<KS, VS, OS> sj = {}) const;
    /// As left_join(), for both streams: joiner(std::optional<this value>, std::optional<other value>).
    template <class V2, class F, class KS = no_serde, class VS = no_serde, class OS = no_serde>
    auto outer_join(const kstream<K, V2>& other, F joiner, const join_windows& w, stream_joined<KS, VS, OS> sj = {}) const;

    /// Joins each record with the table's current row of its key (kstream_table_join.hpp):
    /// joiner(value, table value) or joiner(key, value, table value), with the record's key,
    /// timestamp and headers. Only stream records trigger output; a record whose key or value is
    /// null, or whose key has no row, gives none. A stream re-keyed upstream is repartitioned first.
    template <class VT, class F, class KS = no_serde, class VS = no_serde, class OS = no_serde>
    auto join(const ktable<K, VT>& table, F joiner, joined<KS, VS, OS> j = {}) const;
    /// As join(ktable), and a record without a row (or with a null key) is joined with nullopt:
    /// joiner(value, std::optional<table value>). Records with a null value are still dropped.
    template <class VT, class F, class KS = no_serde, class VS = no_serde, class OS = no_serde>
    auto left_join(const ktable<K, VT>& table, F joiner, joined<KS, VS, OS> j = {}) const;

    /// Joins each record with the global table's row of mapper(key, value) (or mapper(value)), a
    /// key of the table's type or a std::optional of it (kstream_global_join.hpp): joiner(value,
    /// table value) or joiner(key, value, table value), with the record's key, timestamp and
    /// headers. Only stream records trigger output; a record with a null value, a null mapped key
    /// or no row gives none. Never repartitions: every instance holds the whole table.
    template <class KG, class VG, class M, class F>
    auto join(const global_ktable<KG, VG>& table, M mapper, F joiner, named n = {}) const;
    /// As join(global_ktable), and a record with a null mapped key or without a row is joined
    /// with nullopt: joiner(value, std::optional<table value>). Null values are still dropped.
    template <class KG, class VG, class M, class F>
    auto left_join(const global_ktable<KG, VG>& table, M mapper, F joiner, named n = {}) const;

    /// The stream as a table: each record an update of its key (null value = delete).
    ktable<K, V> to_table(named n = {}) const;
    template <class KS, class VS>
    ktable<K, V> to_table(named n, materialized<KS, VS> m) const;
    template <class KS, class VS>
    ktable<K, V> to_table(materialized<KS, VS> m) const { return to_table(named{}, std::move(m)); }

    /// Groups by the current key (repartitions if the key was changed upstream).
    template <class KS = no_serde, class VS = no_serde>
    kgrouped_stream<K, V> group_by_key(grouped<KS, VS> g = {}) const;
    /// Groups by a new key selector(key, value): always repartitions.
    template <class F, class KS = no_serde, class VS = no_serde>
    auto group_by(F selector, grouped<KS, VS> g = {}) const;

    /// True if a key-changing operation happened upstream and no repartition since.
    bool repartition_required() const { return repartition_required_; }

private:
    template <class, class> friend class kstream;
    template <class, class> friend class ktable;
    template <class, class> friend class kgrouped_stream;
    template <class, class> friend class branched_kstream;
    friend class streams_builder;

    kstream(std::shared_ptr<dsl_detail::builder_state> b, std::size_t node, bool repartition_required, serde_ref<K> ks,
            serde_ref<V> vs)
        : b_(std::move(b)), node_(node), repartition_required_(repartition_required), key_serde_(std::move(ks)),
          value_serde_(std::move(vs)) {}

    template <dsl_detail::join_kind Kind, class V2, class F, class KS, class VS, class OS>
    auto do_join(const kstream<K, V2>& other, F joiner, const join_windows& w, const stream_joined<KS, VS, OS>& sj) const;

    template <dsl_detail::join_kind Kind, class VT, class F, class KS, class VS, class OS>
    auto do_table_join(const ktable<K, VT>& table, F joiner, const joined<KS, VS, OS>& j) const;

    template <dsl_detail::join_kind Kind, class KG, class VG, class M, class F>
    auto do_global_join(const global_ktable<KG, VG>& table, M mapper, F joiner, const named& n) const;

    kstream same_shape(std::size_t i) const { return kstream(b_, i, repartition_required_, key_serde_, value_serde_); }

    template <class KOut, class VOut, class Node, class... Args>
    std::size_t add(const named& n, std::string_view prefix, Args... args) const {
        const std::string name = b_->name_or_generate(n.name, prefix);
        return b_->add(dsl_detail::processor_node_of<K, V, KOut, VOut, Node>(name, {node_}, std::move(args)...));
    }

    template <class P, class Node = kstreams::detail::processor_node<P>, class Supplier>
    std::size_t add_processor(const named& n, std::string_view prefix, Supplier supplier, std::vector<std::string> stores) const {
        // Unlike the other operators, Kafka's process() uses up no index when given a name.
        const std::string name = n.name.empty() ? b_->new_processor_name(prefix) : n.name;
        dsl_detail::graph_node g;
        g.kind = kstreams::detail::node_kind::processor;
        g.name = name;
        g.parents = {node_};
        g.in_type = typeid(record<K, V>);
        g.out_type = typeid(record<typename P::key_out, typename P::value_out>);
        g.connected_stores = std::move(stores);
        g.make = [name, supplier]() mutable -> std::unique_ptr<kstreams::detail::node> {
            return std::make_unique<Node>(name, supplier());
        };
        return b_->add(std::move(g));
    }

    template <class KS, class VS, class P>
    void add_sink(std::string topic, contextual_topic_name_extractor<K, V> extractor, const produced<KS, VS, P>& p) const {
        serde_ref<K> ks = dsl_detail::pick_serde<K>(p.key_serde, key_serde_);
        serde_ref<V> vs = dsl_detail::pick_serde<V>(p.value_serde, value_serde_);
        stream_partitioner<K, V> part = dsl_detail::to_partitioner<K, V>(p.partitioner);
        const std::string name = b_->name_or_generate(p.name, dsl_detail::names::sink);
        dsl_detail::graph_node g;
        g.kind = kstreams::detail::node_kind::sink;
        g.name = name;
        g.parents = {node_};
        g.in_type = typeid(record<K, V>);
        g.topic = topic;
        g.make = [name, topic, extractor, ks, vs, part]() -> std::unique_ptr<kstreams::detail::node> {
            return std::make_unique<kstreams::detail::sink_node<K, V, serde_ref<K>, serde_ref<V>>>(name, topic, extractor, ks, vs, part);
        };
        b_->add(std::move(g));
    }

    std::shared_ptr<dsl_detail::builder_state> b_;
    std::size_t node_;
    bool repartition_required_;
    serde_ref<K> key_serde_;
    serde_ref<V> value_serde_;
};

}  // namespace kstreams
