// Options of DSL calls, as Kafka Streams' Named, Consumed, Produced, Grouped, Materialized,
// Repartitioned and Printed. Serdes are template parameters, so that a missing serde is found by the
// compiler; `no_serde` means "inherit from upstream, or use serde<T>".
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <kstreams/detail/dsl_store_choice.hpp>
#include <kstreams/detail/recompute_store.hpp>
#include <kstreams/detail/topology_model.hpp>
#include <kstreams/dsl/serde_ref.hpp>
#include <kstreams/error.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/state/versioned_key_value_store.hpp>
#include <kstreams/state/window_stores.hpp>

namespace kstreams {

namespace dsl_detail {

/// The names Kafka Streams checks (those of Named, Materialized, Joined, Consumed and Produced:
/// they become parts of topic names): not empty, not "." or "..", at most 249 characters, and only
/// the characters topic names take. Throws topology_error naming `where` otherwise.
inline void check_name(const std::string& n, const char* where) {
    const auto fail = [&](const std::string& why) {
        throw topology_error(std::string(where) + ": the name \"" + n + "\" " + why);
    };
    if (n.empty() || n == "." || n == "..") fail("is not a name");
    if (n.size() > 249) fail("is longer than 249 characters");
    for (const char c : n) {
        const bool legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                           c == '_' || c == '-';
        if (!legal) fail("holds a character other than ASCII letters, digits, '.', '_' and '-'");
    }
}

}  // namespace dsl_detail

/// A name for the processor a DSL call creates (and for stores and topics derived from it).
/// Spelled named::as("name") only: no braced string converts to it, so that a braced list after a
/// supplier (`process(supplier, {"store"})`) is always the list of stores, as Kafka's
/// `process(supplier, "store")`, and never silently a name.
struct named {
    named() = default;
    static named as(std::string n) {
        dsl_detail::check_name(n, "named::as");
        named out;
        out.name = std::move(n);
        return out;
    }
    bool empty() const { return name.empty(); }
    std::string name;
};

/// No custom partitioner: the default (murmur2 of the serialized key).
struct no_partitioner {};

/// How a stream or table reads its topic.
template <class KS = no_serde, class VS = no_serde>
struct consumed {
    KS key_serde{};
    VS value_serde{};
    timestamp_extractor extractor{};
    offset_reset reset = offset_reset::none;
    std::string name;

    template <class S>
    consumed<S, VS> with_key_serde(S s) const { return {std::move(s), value_serde, extractor, reset, name}; }
    template <class S>
    consumed<KS, S> with_value_serde(S s) const { return {key_serde, std::move(s), extractor, reset, name}; }
    consumed with_timestamp_extractor(timestamp_extractor e) const { auto c = *this; c.extractor = std::move(e); return c; }
    consumed with_offset_reset_policy(offset_reset r) const { auto c = *this; c.reset = r; return c; }
    consumed with_name(std::string n) const {
        dsl_detail::check_name(n, "consumed::with_name");
        auto c = *this;
        c.name = std::move(n);
        return c;
    }
};
template <class KS, class VS>
consumed<KS, VS> consumed_with(KS ks, VS vs) { return {std::move(ks), std::move(vs)}; }

/// How a stream writes to a topic.
template <class KS = no_serde, class VS = no_serde, class P = no_partitioner>
struct produced {
    KS key_serde{};
    VS value_serde{};
    P partitioner{};
    std::string name;

    template <class S>
    produced<S, VS, P> with_key_serde(S s) const { return {std::move(s), value_serde, partitioner, name}; }
    template <class S>
    produced<KS, S, P> with_value_serde(S s) const { return {key_serde, std::move(s), partitioner, name}; }
    /// `p(topic, key, value, partition_count)`, or `p(topic, key, value, headers, partition_count)`:
    /// a partition, std::nullopt for the default, or a std::set of partitions (a copy to each;
    /// empty drops the record), as Kafka's StreamPartitioner.partitions (KIP-837); see
    /// stream_partitioner.
    template <class F>
    produced<KS, VS, F> with_stream_partitioner(F p) const { return {key_serde, value_serde, std::move(p), name}; }
    produced with_name(std::string n) const {
        dsl_detail::check_name(n, "produced::with_name");
        auto c = *this;
        c.name = std::move(n);
        return c;
    }
};
template <class KS, class VS>
produced<KS, VS> produced_with(KS ks, VS vs) { return {std::move(ks), std::move(vs)}; }

/// How a grouping repartitions: the name of its repartition topic and its serdes.
template <class KS = no_serde, class VS = no_serde>
struct grouped {
    KS key_serde{};
    VS value_serde{};
    std::string name;

    static grouped as(std::string n) { grouped g; g.name = std::move(n); return g; }
    template <class S>
    grouped<S, VS> with_key_serde(S s) const { return {std::move(s), value_serde, name}; }
    template <class S>
    grouped<KS, S> with_value_serde(S s) const { return {key_serde, std::move(s), name}; }
    grouped with_name(std::string n) const { auto c = *this; c.name = std::move(n); return c; }
};
template <class KS, class VS>
grouped<KS, VS> grouped_with(KS ks, VS vs) { return {std::move(ks), std::move(vs)}; }

/// Makes the byte store of a materialized store from its name. The hook for persistent stores:
/// empty means the builder's default (in memory for now).
using store_supplier_factory =
    std::function<std::shared_ptr<const key_value_bytes_store_supplier>(const std::string& store_name)>;

/// How a table or an aggregation keeps its state: store name, serdes, caching and logging.
template <class KS = no_serde, class VS = no_serde>
struct materialized {
    KS key_serde{};
    VS value_serde{};
    std::string store_name;
    bool caching = true;
    bool logging = true;
    std::map<std::string, std::string> log_config{};
    store_supplier_factory supplier{};
    /// RocksDB or memory (when no supplier is given); unset = the application's default.dsl.store
    /// (RocksDB unless configured in_memory), as Kafka's.
    std::optional<dsl_store_type> store_type{};
    /// Windowed aggregations: how long windows are kept (default: window size + grace, the least allowed).
    std::optional<std::chrono::milliseconds> retention{};
    /// Windowed aggregations: the byte store (its retention and window size are the supplier's).
    std::shared_ptr<const window_bytes_store_supplier> window_supplier{};
    /// Tables (table(), to_table(), filter, map_values, table-table joins): a versioned store
    /// (KIP-889); its name is the store name. Never cached.
    std::shared_ptr<const versioned_bytes_store_supplier> versioned_supplier{};
    /// Session aggregations: the byte store (its retention is the supplier's).
    std::shared_ptr<const session_bytes_store_supplier> session_supplier{};
    /// Windowed aggregations: recovery::recompute keeps the store in memory with no changelog and
    /// rebuilds it by processing the input of its open windows and sessions again (the input
    /// offsets are committed no further than the earliest record one of them holds).
    kstreams::recovery recovery_mode = kstreams::recovery::changelog;

    static materialized as(std::string n) {
        dsl_detail::check_name(n, "materialized::as");
        materialized m;
        m.store_name = std::move(n);
        return m;
    }
    /// A store made by this supplier; its name is the store name.
    static materialized as(std::shared_ptr<const key_value_bytes_store_supplier> s) {
        materialized m;
        m.store_name = s->name();
        m.supplier = [s](const std::string&) { return s; };
        return m;
    }
    template <class S>
    materialized<S, VS> with_key_serde(S s) const { return {std::move(s), value_serde, store_name, caching, logging, log_config, supplier, store_type, retention, window_supplier, versioned_supplier, session_supplier, recovery_mode}; }
    template <class S>
    materialized<KS, S> with_value_serde(S s) const { return {key_serde, std::move(s), store_name, caching, logging, log_config, supplier, store_type, retention, window_supplier, versioned_supplier, session_supplier, recovery_mode}; }
    materialized with_caching_enabled() const { auto c = *this; c.caching = true; return c; }
    materialized with_caching_disabled() const { auto c = *this; c.caching = false; return c; }
    materialized with_logging_enabled(std::map<std::string, std::string> config = {}) const {
        auto c = *this;
        c.logging = true;
        c.log_config = std::move(config);
        return c;
    }
    materialized with_logging_disabled() const { auto c = *this; c.logging = false; return c; }
    materialized with_store_supplier(store_supplier_factory f) const { auto c = *this; c.supplier = std::move(f); return c; }
    /// A windowed aggregation's store made by this supplier; its name is the store name.
    static materialized as(std::shared_ptr<const window_bytes_store_supplier> s) {
        materialized m;
        m.store_name = s->name();
        m.window_supplier = std::move(s);
        return m;
    }
    /// A session aggregation's store made by this supplier; its name is the store name.
    static materialized as(std::shared_ptr<const session_bytes_store_supplier> s) {
        materialized m;
        m.store_name = s->name();
        m.session_supplier = std::move(s);
        return m;
    }
    /// A table kept in a versioned store made by this supplier; its name is the store name.
    static materialized as(std::shared_ptr<const versioned_bytes_store_supplier> s) {
        materialized m;
        m.store_name = s->name();
        m.versioned_supplier = std::move(s);
        return m;
    }
    /// How long a windowed aggregation keeps its windows: at least window size + grace.
    materialized with_retention(std::chrono::milliseconds r) const { auto c = *this; c.retention = r; return c; }
    /// Keeps the store in RocksDB under the state directory (Kafka's withStoreType(ROCKS_DB)),
    /// whatever default.dsl.store says.
    materialized with_persistent_store() const { return with_store_type(dsl_store_type::rocks_db); }
    /// Keeps the store in memory: faster, but restored from its changelog on every start.
    materialized with_in_memory_store() const { return with_store_type(dsl_store_type::in_memory); }
    /// Kafka's Materialized.withStoreType(StoreType / built-in DslStoreSuppliers).
    materialized with_store_type(dsl_store_type t) const { auto c = *this; c.store_type = t; return c; }
    /// Kafka's Materialized.as(StoreType / built-in DslStoreSuppliers): an unnamed store of that kind.
    static materialized as(dsl_store_type t) { materialized m; m.store_type = t; return m; }
    /// How the store survives a failure: recovery::changelog (the default, Kafka Streams' only
    /// way) or recovery::recompute, for windowed aggregations (tumbling, hopping, sliding, session)
    /// only (any other store asking for it is refused when the topology is built): the store is kept in
    /// memory with no changelog, whatever the persistence and logging asked for, and input offsets
    /// are committed no further than the earliest record an open window or session holds (see the
    /// README).
    materialized with_recovery(kstreams::recovery r) const { auto c = *this; c.recovery_mode = r; return c; }
};
template <class KS, class VS>
materialized<KS, VS> materialized_with(KS ks, VS vs) { materialized<KS, VS> m; m.key_serde = std::move(ks); m.value_serde = std::move(vs); return m; }

namespace dsl_detail {
/// A materialized's caching and logging, applied to the store builder it asks for.
template <class Builder, class KS, class VS>
void apply_cache_and_log(Builder& builder, const materialized<KS, VS>& m) {
    if (m.caching) builder.with_caching_enabled();
    else builder.with_caching_disabled();
    if (m.logging) builder.with_logging_enabled(m.log_config);
    else builder.with_logging_disabled();
}
/// The kind of store an operator keeps, for the supplier check below.
enum class store_kind { key_value, window, session };
/// A store supplier in `m` of another kind than `kind` (Kafka's types rule it out; here one
/// materialized serves all): a topology_error naming the store and both kinds.
template <class KS, class VS>
void check_supplier_kind(const materialized<KS, VS>& m, store_kind kind, const std::string& store) {
    std::string given;
    if (m.session_supplier && kind != store_kind::session) given = "a session store supplier";
    else if (m.window_supplier && kind != store_kind::window) given = "a window store supplier";
    else if (m.supplier && kind != store_kind::key_value) given = "a key-value store supplier";
    else if (m.versioned_supplier && kind != store_kind::key_value) given = "a versioned store supplier";
    if (given.empty()) return;
    const std::string needed = kind == store_kind::session ? "a session aggregation keeps a session store (materialized<>::as(session_bytes_store_supplier))"
                               : kind == store_kind::window ? "a windowed aggregation keeps a window store (materialized<>::as(window_bytes_store_supplier))"
                                                            : "a table or aggregation keeps a key-value store (materialized<>::as(key_value_bytes_store_supplier))";
    throw topology_error("store " + store + ": materialized with " + given + ", but " + needed);
}
/// The store's builder as `m` asks to recover it: marked for recomputation (in_memory and
/// unlogged already when `bounded`), or as it is. build() refuses an unbounded one.
/// `not_yet`: a windowed shape whose offsets are not held yet (a session cogroup of several streams).
template <class KS, class VS>
std::shared_ptr<const store_builder> with_recovery_of(std::shared_ptr<const store_builder> builder,
                                                      const materialized<KS, VS>& m, bool bounded,
                                                      const char* not_yet = nullptr) {
    if (m.recovery_mode != kstreams::recovery::recompute) return builder;
    return std::make_shared<kstreams::detail::recompute_store_builder>(std::move(builder), bounded,
                                                                       not_yet ? not_yet : "");
}
}  // namespace dsl_detail

/// An explicit repartition: topic name, partition count, serdes and partitioner.
template <class KS = no_serde, class VS = no_serde, class P = no_partitioner>
struct repartitioned {
    KS key_serde{};
    VS value_serde{};
    P partitioner{};
    std::string name;
    std::optional<std::int32_t> partitions;

    static repartitioned as(std::string n) { repartitioned r; r.name = std::move(n); return r; }
    repartitioned with_name(std::string n) const { auto c = *this; c.name = std::move(n); return c; }
    repartitioned with_number_of_partitions(std::int32_t n) const { auto c = *this; c.partitions = n; return c; }
    template <class S>
    repartitioned<S, VS, P> with_key_serde(S s) const { return {std::move(s), value_serde, partitioner, name, partitions}; }
    template <class S>
    repartitioned<KS, S, P> with_value_serde(S s) const { return {key_serde, std::move(s), partitioner, name, partitions}; }
    /// As produced::with_stream_partitioner: several partitions write (and process) a copy each.
    template <class F>
    repartitioned<KS, VS, F> with_stream_partitioner(F p) const { return {key_serde, value_serde, std::move(p), name, partitions}; }
};

template <class F>
struct printed_mapped;

/// Where print() writes: standard output (the default) or a file; an optional label.
struct printed {
    std::string file;   ///< empty = standard output
    std::string label;  ///< empty = the name of the printed stream's node
    std::string name;
    static printed to_sys_out() { return {}; }
    static printed to_file(std::string path) { printed p; p.file = std::move(path); return p; }
    printed with_label(std::string l) const { auto c = *this; c.label = std::move(l); return c; }
    printed with_name(std::string n) const { auto c = *this; c.name = std::move(n); return c; }
    /// Prints "[label]: " and what `mapper(key, value)` (or `mapper(value)`) returns, a string or
    /// anything `<<` writes, instead of "key, value" (Kafka's Printed.withKeyValueMapper).
    template <class F>
    printed_mapped<F> with_key_value_mapper(F mapper) const;
};

/// A printed with a mapper of its own (printed::with_key_value_mapper).
template <class F>
struct printed_mapped : printed {
    F mapper;
    printed_mapped with_label(std::string l) const { auto c = *this; c.label = std::move(l); return c; }
    printed_mapped with_name(std::string n) const { auto c = *this; c.name = std::move(n); return c; }
};

template <class F>
printed_mapped<F> printed::with_key_value_mapper(F mapper) const {
    return printed_mapped<F>{*this, std::move(mapper)};
}

/// A branch of split() whose stream goes through `chain` at once (Kafka's Branched.withFunction):
/// the stream `chain` returns is the branch's entry in split's result; a chain returning an empty
/// std::optional leaves the branch out.
template <class Fn>
struct branched_function {
    Fn chain;
    std::string name;
};
/// A branch of split() handed to `chain` at once and left out of split's result (Kafka's
/// Branched.withConsumer).
template <class Fn>
struct branched_consumer {
    Fn chain;
    std::string name;
};

/// The name of one branch of split(); empty = the branch's position.
struct branched {
    std::string name;
    static branched as(std::string n) { return {std::move(n)}; }
    template <class Fn>
    static branched_function<Fn> with_function(Fn chain, std::string name = {}) {
        return {std::move(chain), std::move(name)};
    }
    template <class Fn>
    static branched_consumer<Fn> with_consumer(Fn chain, std::string name = {}) {
        return {std::move(chain), std::move(name)};
    }
};

}  // namespace kstreams
