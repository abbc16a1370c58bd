// Interactive queries (Kafka Streams' KafkaStreams#store): read-only views of a running app's
// local stores by name, readable from any thread while the stream threads write them.
//
//   auto counts = app.store(store_query_parameters(
//       "counts", queryable_store_types::key_value_store<std::string, std::int64_t>()));
//   std::optional<std::int64_t> n = counts.get("alice");
//
// A view covers every local task's instance of the store (one per partition, or the one asked
// for with with_partition). Each call lists the instances again, so a view outlives rebalances;
// it reads each instance while that instance's task cannot write (the task's turn and the read
// exclude each other), through the store's own serdes and its record cache, so it sees what the
// task wrote and did not flush yet (read-your-writes, as Kafka's). Range results are read into a
// vector: a snapshot of each instance at the time of the call, instances in partition order,
// each in key order (as Kafka's composite stores chain the per-task iterators).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <kstreams/error.hpp>
#include <kstreams/serde.hpp>
#include <kstreams/state/key_value_store.hpp>
#include <kstreams/state/session_store.hpp>
#include <kstreams/state/timestamped_key_value_store.hpp>
#include <kstreams/state/window_store.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/task_id.hpp>

namespace kstreams {

/// A store cannot be queried (Kafka's InvalidStateStoreException): the app is not running, the
/// store is restoring (and stale stores were not asked for), it migrated to another instance, or
/// it is not of the type asked for.
class invalid_state_store_error : public streams_error {
public:
    using streams_error::streams_error;
};

/// No store of that name in the topology (Kafka's UnknownStateStoreException).
class unknown_state_store_error : public invalid_state_store_error {
public:
    using invalid_state_store_error::invalid_state_store_error;
};

/// The app was not started yet (Kafka's StreamsNotStartedException).
class streams_not_started_error : public invalid_state_store_error {
public:
    using invalid_state_store_error::invalid_state_store_error;
};

namespace detail {

/// One local instance of a store (one task's); implemented by the runtime.
class queryable_instance {
public:
    virtual ~queryable_instance() = default;
    virtual kstreams::task_id task() const = 0;
    /// Calls `read` with the store while its task cannot touch it. Throws
    /// invalid_state_store_error when the store closed since it was listed (migrated) or is no
    /// longer queryable (restoring, without stale stores).
    virtual void read(const std::function<void(state_store&)>& read) const = 0;
    /// Per input topic and partition, the offset of the last record the task processed (the
    /// position of IQv2's results); call it inside read().
    virtual std::map<std::string, std::map<std::int32_t, std::int64_t>> position() const { return {}; }
};

template <class V>
struct is_value_and_timestamp : std::false_type {};
template <class V>
struct is_value_and_timestamp<value_and_timestamp<V>> : std::true_type {};

[[noreturn]] inline void throw_store_type_mismatch(const std::string& store, const char* type) {
    throw invalid_state_store_error("Cannot get state store " + store + " because the queryable store type [" + type +
                                    "] does not accept the state store [" + store +
                                    "] (its kind, key or value type differs)");
}

/// Reads every instance the provider lists, calling `f(store, strip)` with the instance typed as
/// `Store<K, V>` (strip: identity) or, when V is not already timestamped, as
/// `Store<K, value_and_timestamp<V>>` (strip: drops the timestamp, as Kafka's facades over
/// timestamped stores). `f` returns true to stop.
template <template <class, class> class Store, class K, class V, class F>
void read_instances(const std::string& name, const instance_provider& provider, const char* type, F&& f) {
    for (const auto& instance : provider()) {
        bool stop = false;
        instance->read([&](state_store& s) {
            if (auto* plain = dynamic_cast<Store<K, V>*>(&s)) {
                stop = f(*plain, [](V v) { return v; });
                return;
            }
            if constexpr (!is_value_and_timestamp<V>::value) {
                if (auto* ts = dynamic_cast<Store<K, value_and_timestamp<V>>*>(&s)) {
                    stop = f(*ts, [](value_and_timestamp<V> v) { return std::move(v.value); });
                    return;
                }
            }
            throw_store_type_mismatch(name, type);
        });
        if (stop) return;
    }
}

}  // namespace detail

/// A read-only key-value view (Kafka's ReadOnlyKeyValueStore). Over a timestamped store (a DSL
/// table's) the values come without their timestamps; read_only_key_value_store<K,
/// value_and_timestamp<V>> keeps them (queryable_store_types::timestamped_key_value_store).
template <class K, class V>
class read_only_key_value_store {
public:
    read_only_key_value_store(std::string name, detail::instance_provider provider)
        : name_(std::move(name)), provider_(std::move(provider)) {}

    const std::string& name() const { return name_; }

    /// The value of `key` in the first instance that has it.
    std::optional<V> get(const K& key) const {
        std::optional<V> out;
        each([&](auto& s, auto strip) {
            if (auto v = s.get(key)) out = strip(std::move(*v));
            return out.has_value();
        });
        return out;
    }
    /// Keys in [from, to] (nullopt: open), each instance in key order.
    std::vector<key_value<K, V>> range(const std::optional<K>& from, const std::optional<K>& to) const {
        return collect([&](auto& s) { return s.range(from, to); });
    }
    /// As range, each instance in reverse key order.
    std::vector<key_value<K, V>> reverse_range(const std::optional<K>& from, const std::optional<K>& to) const {
        return collect([&](auto& s) { return s.reverse_range(from, to); });
    }
    std::vector<key_value<K, V>> all() const {
        return collect([](auto& s) { return s.all(); });
    }
    std::vector<key_value<K, V>> reverse_all() const {
        return collect([](auto& s) { return s.reverse_all(); });
    }
    /// Keys whose serialized bytes start with the serialized prefix (Kafka's prefixScan).
    template <class P, class PS = serde<P>>
    std::vector<key_value<K, V>> prefix_scan(const P& prefix, const PS& prefix_serde = PS{}) const {
        return collect([&](auto& s) { return s.prefix_scan(prefix, prefix_serde); });
    }
    /// The instances' estimates summed (saturating).
    std::uint64_t approximate_num_entries() const {
        std::uint64_t total = 0;
        each([&](auto& s, auto) {
            const std::uint64_t n = s.approximate_num_entries();
            total = n > std::numeric_limits<std::uint64_t>::max() - total ? std::numeric_limits<std::uint64_t>::max()
                                                                          : total + n;
            return false;
        });
        return total;
    }

private:
    template <class F>
    void each(F&& f) const {
        detail::read_instances<key_value_store, K, V>(name_, provider_, "key_value_store", std::forward<F>(f));
    }
    template <class Scan>
    std::vector<key_value<K, V>> collect(Scan scan) const {
        std::vector<key_value<K, V>> out;
        each([&](auto& s, auto strip) {
            auto it = scan(s);
            while (it.has_next()) {
                auto kv = it.next();
                out.push_back({std::move(kv.key), strip(std::move(kv.value))});
            }
            return false;
        });
        return out;
    }

    std::string name_;
    detail::instance_provider provider_;
};

/// A read-only window view (Kafka's ReadOnlyWindowStore). Over a timestamped window store (a DSL
/// windowed aggregation's) the values come without their timestamps, unless V is
/// value_and_timestamp<...> (queryable_store_types::timestamped_window_store).
template <class K, class V>
class read_only_window_store {
public:
    read_only_window_store(std::string name, detail::instance_provider provider)
        : name_(std::move(name)), provider_(std::move(provider)) {}

    const std::string& name() const { return name_; }

    /// The value of the window of `key` that starts at `window_start`.
    std::optional<V> fetch(const K& key, std::int64_t window_start) const {
        std::optional<V> out;
        each([&](auto& s, auto strip) {
            if (auto v = s.fetch(key, window_start)) out = strip(std::move(*v));
            return out.has_value();
        });
        return out;
    }
    /// (window start, value) of `key`'s windows starting in [time_from, time_to], from the first
    /// instance that has any (a key lives in one partition).
    std::vector<key_value<std::int64_t, V>> fetch(const K& key, std::int64_t time_from, std::int64_t time_to) const {
        return first_of([&](auto& s) { return s.fetch(key, time_from, time_to); });
    }
    std::vector<key_value<std::int64_t, V>> backward_fetch(const K& key, std::int64_t time_from,
                                                           std::int64_t time_to) const {
        return first_of([&](auto& s) { return s.backward_fetch(key, time_from, time_to); });
    }
    /// Windows of keys in [key_from, key_to] (nullopt: open) starting in [time_from, time_to].
    std::vector<key_value<windowed<K>, V>> fetch(const std::optional<K>& key_from, const std::optional<K>& key_to,
                                                 std::int64_t time_from, std::int64_t time_to) const {
        return collect([&](auto& s) { return s.fetch(key_from, key_to, time_from, time_to); });
    }
    std::vector<key_value<windowed<K>, V>> backward_fetch(const std::optional<K>& key_from,
                                                          const std::optional<K>& key_to, std::int64_t time_from,
                                                          std::int64_t time_to) const {
        return collect([&](auto& s) { return s.backward_fetch(key_from, key_to, time_from, time_to); });
    }
    /// Every key's windows starting in [time_from, time_to].
    std::vector<key_value<windowed<K>, V>> fetch_all(std::int64_t time_from, std::int64_t time_to) const {
        return collect([&](auto& s) { return s.fetch_all(time_from, time_to); });
    }
    std::vector<key_value<windowed<K>, V>> backward_fetch_all(std::int64_t time_from, std::int64_t time_to) const {
        return collect([&](auto& s) { return s.backward_fetch_all(time_from, time_to); });
    }
    std::vector<key_value<windowed<K>, V>> all() const {
        return collect([](auto& s) { return s.all(); });
    }
    std::vector<key_value<windowed<K>, V>> backward_all() const {
        return collect([](auto& s) { return s.backward_all(); });
    }

private:
    template <class F>
    void each(F&& f) const {
        detail::read_instances<window_store, K, V>(name_, provider_, "window_store", std::forward<F>(f));
    }
    template <class Entry, class Scan>
    std::vector<Entry> gather(Scan scan, bool first_only) const {
        std::vector<Entry> out;
        each([&](auto& s, auto strip) {
            auto it = scan(s);
            while (it.has_next()) {
                auto kv = it.next();
                out.push_back({std::move(kv.key), strip(std::move(kv.value))});
            }
            return first_only && !out.empty();
        });
        return out;
    }
    template <class Scan>
    std::vector<key_value<std::int64_t, V>> first_of(Scan scan) const {
        return gather<key_value<std::int64_t, V>>(scan, true);
    }
    template <class Scan>
    std::vector<key_value<windowed<K>, V>> collect(Scan scan) const {
        return gather<key_value<windowed<K>, V>>(scan, false);
    }

    std::string name_;
    detail::instance_provider provider_;
};

/// A read-only session view (Kafka's ReadOnlySessionStore): sessions as (windowed key with
/// [start, end], aggregate).
template <class K, class V>
class read_only_session_store {
public:
    using entry = key_value<windowed<K>, V>;

    read_only_session_store(std::string name, detail::instance_provider provider)
        : name_(std::move(name)), provider_(std::move(provider)) {}

    const std::string& name() const { return name_; }

    /// Every session of `key`, from the first instance that has any.
    std::vector<entry> fetch(const K& key) const {
        return collect([&](auto& s) { return s.fetch(key); }, true);
    }
    std::vector<entry> backward_fetch(const K& key) const {
        return collect([&](auto& s) { return s.backward_fetch(key); }, true);
    }
    /// Sessions of keys in [key_from, key_to] (nullopt: open).
    std::vector<entry> fetch(const std::optional<K>& key_from, const std::optional<K>& key_to) const {
        return collect([&](auto& s) { return s.fetch(key_from, key_to); });
    }
    /// Sessions of `key` that end at or after `earliest_session_end` and start at or before
    /// `latest_session_start`.
    std::vector<entry> find_sessions(const K& key, std::int64_t earliest_session_end,
                                     std::int64_t latest_session_start) const {
        return collect([&](auto& s) { return s.find_sessions(key, earliest_session_end, latest_session_start); },
                       true);
    }
    std::vector<entry> backward_find_sessions(const K& key, std::int64_t earliest_session_end,
                                              std::int64_t latest_session_start) const {
        return collect(
            [&](auto& s) { return s.backward_find_sessions(key, earliest_session_end, latest_session_start); }, true);
    }
    std::vector<entry> find_sessions(const std::optional<K>& key_from, const std::optional<K>& key_to,
                                     std::int64_t earliest_session_end, std::int64_t latest_session_start) const {
        return collect([&](auto& s) {
            return s.find_sessions(key_from, key_to, earliest_session_end, latest_session_start);
        });
    }
    /// The aggregate of `key`'s session [start, end].
    std::optional<V> fetch_session(const K& key, std::int64_t start, std::int64_t end) const {
        std::optional<V> out;
        each([&](auto& s) {
            out = s.fetch_session(key, start, end);
            return out.has_value();
        });
        return out;
    }

private:
    template <class F>
    void each(F&& f) const {
        for (const auto& instance : provider_()) {
            bool stop = false;
            instance->read([&](state_store& s) {
                auto* typed = dynamic_cast<session_store<K, V>*>(&s);
                if (!typed) detail::throw_store_type_mismatch(name_, "session_store");
                stop = f(*typed);
            });
            if (stop) return;
        }
    }
    template <class Scan>
    std::vector<entry> collect(Scan scan, bool first_only = false) const {
        std::vector<entry> out;
        each([&](session_store<K, V>& s) {
            auto it = scan(s);
            while (it.has_next()) out.push_back(it.next());
            return first_only && !out.empty();
        });
        return out;
    }

    std::string name_;
    detail::instance_provider provider_;
};

/// Which view a query asks for (Kafka's QueryableStoreTypes).
namespace queryable_store_types {

template <class View>
struct store_type {
    using view_type = View;
    static View make(std::string name, detail::instance_provider provider) {
        return View(std::move(name), std::move(provider));
    }
};

/// A key-value store, timestamped or not (values without timestamps).
template <class K, class V>
store_type<read_only_key_value_store<K, V>> key_value_store() {
    return {};
}
/// A timestamped key-value store (a DSL table's): values with the timestamp of their record.
template <class K, class V>
store_type<read_only_key_value_store<K, value_and_timestamp<V>>> timestamped_key_value_store() {
    return {};
}
/// A window store, timestamped or not (values without timestamps).
template <class K, class V>
store_type<read_only_window_store<K, V>> window_store() {
    return {};
}
/// A timestamped window store (a DSL windowed aggregation's).
template <class K, class V>
store_type<read_only_window_store<K, value_and_timestamp<V>>> timestamped_window_store() {
    return {};
}
template <class K, class V>
store_type<read_only_session_store<K, V>> session_store() {
    return {};
}

}  // namespace queryable_store_types

/// What to query (Kafka's StoreQueryParameters): a store's name and view type, optionally one
/// partition, optionally stale stores (restoring ones) too.
template <class Type>
class store_query_parameters {
public:
    /// `store_query_parameters("counts", queryable_store_types::key_value_store<K, V>())`
    store_query_parameters(std::string name, Type /*type*/) : name_(std::move(name)) {}
    static store_query_parameters from_name_and_type(std::string name, Type type = {}) {
        return store_query_parameters(std::move(name), type);
    }
    /// Only the instance of this partition (Kafka's withPartition).
    store_query_parameters with_partition(std::int32_t partition) const {
        auto p = *this;
        p.partition_ = partition;
        return p;
    }
    /// Also stores that are restoring (Kafka's enableStaleStores): their data may lag behind.
    store_query_parameters enable_stale_stores() const {
        auto p = *this;
        p.stale_ = true;
        return p;
    }
    const std::string& store_name() const { return name_; }
    std::optional<std::int32_t> partition() const { return partition_; }
    bool stale_stores_enabled() const { return stale_; }

private:
    std::string name_;
    std::optional<std::int32_t> partition_;
    bool stale_ = false;
};

template <class K>
key_query_metadata kafka_streams::query_metadata_for_key(const std::string& store, const K& key) const {
    return query_metadata_for_key(store, key, serde<K>{});
}

template <class K, class SerdeOrPartitioner>
key_query_metadata kafka_streams::query_metadata_for_key(const std::string& store, const K& key,
                                                         const SerdeOrPartitioner& how) const {
    if constexpr (std::is_invocable_r_v<std::int32_t, const SerdeOrPartitioner&, const K&, std::int32_t>) {
        return query_metadata_for_partition(store, [&](std::int32_t n) { return how(key, n); });
    } else {
        std::string bytes;
        how.serialize(key, bytes);
        return query_metadata_for_partition(store, [&](std::int32_t n) { return default_partition(bytes, n); });
    }
}

template <class Type>
typename Type::view_type kafka_streams::store(const store_query_parameters<Type>& params) const {
    return Type::make(params.store_name(),
                      query_provider(params.store_name(), params.stale_stores_enabled(), params.partition()));
}

}  // namespace kstreams
