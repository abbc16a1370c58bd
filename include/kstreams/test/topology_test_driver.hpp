// The topology test driver: runs a topology in-process, single-threaded and deterministically.
// Pipe records in, read records out, advance a manual wall clock. Internal topics (and any topic a
// sink writes that a source reads) are routed in memory, one partition each, as Kafka Streams'
// TopologyTestDriver does.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

#include <kstreams/detail/dsl_store_choice.hpp>
#include <kstreams/error_handlers.hpp>
#include <kstreams/metric_samples.hpp>
#include <kstreams/metrics.hpp>
#include <kstreams/record.hpp>
#include <kstreams/serde.hpp>
#include <kstreams/state/key_value_store.hpp>
#include <kstreams/state/session_store.hpp>
#include <kstreams/state/timestamped_key_value_store.hpp>
#include <kstreams/state/versioned_key_value_store.hpp>
#include <kstreams/state/window_store.hpp>
#include <kstreams/state/restore_listener.hpp>
#include <kstreams/state/rocksdb_config.hpp>
#include <kstreams/test/timestamped_store_facade.hpp>
#include <kstreams/test/timestamped_window_store_facade.hpp>
#include <kstreams/topology.hpp>

namespace kstreams::test {

/// A record a sink (or a changelog) produced, in bytes.
struct produced_record {
    std::string topic;
    std::optional<std::string> key;
    std::optional<std::string> value;
    std::int64_t timestamp = 0;
    kstreams::headers headers;
};

struct driver_config {
    std::string application_id = "test-app";
    std::int64_t initial_wall_clock_ms = 0;
    /// false: a record that cannot be deserialized stops the driver with an error naming it.
    bool log_and_continue_on_deserialization_error = false;
    /// Deserialization, processing and production exception handlers and the dead-letter queue, as
    /// streams_config::errors; dead-letter records are read like any output topic.
    error_handling_config errors;
    /// The built-in production handler continues (a sink's serialization error drops the record
    /// there): production.exception.handler naming a handler that continues, as streams_config's.
    bool log_and_continue_on_production_error = false;
    /// As Kafka's TopologyTestDriver: caches and stores are flushed after every input record.
    /// Turn off to see the record cache coalesce updates until commit() is called, or until a
    /// processor requests a commit (processor_context::commit()) while processing a record.
    bool commit_after_every_record = true;
    /// Where persistent stores live; empty = a fresh temporary directory removed at the end.
    std::filesystem::path state_dir;
    /// `statestore.cache.max.bytes`: the record cache of caching stores; 0 disables caching.
    std::size_t cache_max_bytes = 10u << 20;
    /// Block cache, write-buffer manager and config setter shared by the RocksDB stores.
    rocksdb_memory_config rocksdb{};
    /// Changelog topics' contents to restore stores from before the first record, as the Kafka
    /// runtime does from the broker: typically a previous driver's changelog_records(). Persistent
    /// stores restore from their checkpoint on, others from the beginning.
    std::map<std::string, std::vector<produced_record>> changelogs;
    /// Recovery by recomputation (recovery::recompute): per input topic (partition 0), the
    /// metadata of the commit to resume from, typically a previous driver's committed_metadata():
    /// the processors of such stores start where that commit left them, as after a restart of the
    /// Kafka runtime (then pipe the input again from the committed offset).
    std::map<std::string, std::string> committed_metadata;
    /// Per input topic (partition 0), the offset of the first record piped into it (0 if not
    /// named): a run resuming from a commit pipes the input again from the committed offset, and
    /// its records then keep the offsets they had (what was processed before is known by them).
    std::map<std::string, std::int64_t> first_input_offsets;
    /// Told when each store's restoration starts, after each batch, and when it ends.
    std::shared_ptr<state_restore_listener> restore_listener;
    /// Records a task may have in flight in async processors (streams_config's same setting).
    std::size_t max_async_in_flight_per_task = 64;
    /// Kafka's internal `__emit.interval.ms.kstreams.outer.join.spurious.results.fix__`: how often
    /// (in wall-clock time) a left/outer stream-stream join looks for closed windows to emit
    /// null-padded results. 0 = at every record, as Kafka's TopologyTestDriver sets it unless told
    /// otherwise (applications: 1000).
    std::int64_t outer_join_emit_interval_ms = 0;
    /// Kafka's internal `__emit.interval.ms.kstreams.windowed.aggregation__`: the same for a
    /// windowed aggregation emitting on window close; 0 in the driver too (applications: 1000).
    std::int64_t windowed_aggregation_emit_interval_ms = 0;
    /// `default.timestamp.extractor`, as streams_config's (kstreams/timestamp_extractors.hpp): for
    /// sources without an extractor of their own; empty = the record's own timestamp.
    timestamp_extractor default_timestamp_extractor;
    /// `default.dsl.store` / `dsl.store.suppliers.class`, as streams_config's: the kind of the DSL
    /// stores whose operators leave it open.
    dsl_store_type default_dsl_store = dsl_store_type::rocks_db;
    /// What processors read as processor_context::app_configs(), as streams_config's (from_properties
    /// keeps every property here).
    std::map<std::string, std::string> app_configs;
    /// `metrics.recording.level`: user sensors (kstreams/streams_metrics.hpp) above it record nothing.
    kstreams::metrics_recording_level metrics_recording_level = kstreams::metrics_recording_level::info;

    /// Reads Kafka Streams properties as Kafka's `TopologyTestDriver(topology, properties)` does:
    /// `application.id`, `state.dir`, `statestore.cache.max.bytes` (or the older
    /// `cache.max.bytes.buffering`), `default.deserialization.exception.handler`,
    /// `async.max.in.flight.per.task`, `default.timestamp.extractor` (Kafka's built-in class
    /// names), the RocksDB memory settings, the two internal emit
    /// intervals above; `topology.optimization` applies where the topology is built
    /// (streams_builder::build(properties)). Every other key is read as
    /// streams_config::from_properties reads it (client settings pass through unused; default
    /// serdes have nothing to do: kstreams picks serdes by type). Throws std::invalid_argument
    /// naming a key whose value is not valid.
    static driver_config from_properties(const std::map<std::string, std::string>& properties);
};

/// Reading from an output topic that has no records left.
class empty_topic_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};


class topology_test_driver;

template <class K, class V>
class test_input_topic {
public:
    /// A record with this key and value at this timestamp.
    void pipe_input(const K& key, const V& value, std::int64_t timestamp) {
        pipe(encode_key(key), encode_value(value), timestamp, {});
    }
    /// A record with this key and a null value (a tombstone for a table).
    void pipe_input(const K& key, std::nullopt_t, std::int64_t timestamp) {
        pipe(encode_key(key), std::nullopt, timestamp, {});
    }
    /// At the topic's current time, which then advances by the auto-advance step.
    void pipe_input(const K& key, const V& value) { pipe(encode_key(key), encode_value(value), next_time(), {}); }
    /// A record with a null key.
    void pipe_value(const V& value, std::int64_t timestamp) { pipe(std::nullopt, encode_value(value), timestamp, {}); }
    void pipe_value(const V& value) { pipe(std::nullopt, encode_value(value), next_time(), {}); }
    /// A whole record; its null flags and headers are kept.
    void pipe_record(const record<K, V>& r) {
        pipe(has_null_key(r) ? std::nullopt : encode_key(r.key), has_null_value(r) ? std::nullopt : encode_value(r.value),
             r.timestamp, r.headers);
    }
    void pipe_key_value_list(const std::vector<key_value<K, V>>& list) {
        for (const auto& kv : list) pipe_input(kv.key, kv.value);
    }
    void pipe_value_list(const std::vector<V>& list) {
        for (const auto& v : list) pipe_value(v);
    }
    void pipe_record_list(const std::vector<record<K, V>>& list) {
        for (const auto& r : list) pipe_record(r);
    }
    void advance_time(std::chrono::milliseconds d) { current_time_ += d.count(); }

private:
    friend class topology_test_driver;
    test_input_topic(topology_test_driver& d, std::string name, std::function<void(const K&, std::string&)> ks,
                     std::function<void(const V&, std::string&)> vs, std::int64_t start, std::int64_t step)
        : driver_(&d), name_(std::move(name)), ks_(std::move(ks)), vs_(std::move(vs)), current_time_(start), step_(step) {}

    std::optional<std::string> encode_key(const K& k) const {
        if constexpr (is_optional_v<K>)
            if (!k) return std::nullopt;
        std::string out;
        ks_(k, out);
        return out;
    }
    std::optional<std::string> encode_value(const V& v) const {
        if constexpr (is_optional_v<V>)
            if (!v) return std::nullopt;
        std::string out;
        vs_(v, out);
        return out;
    }
    std::int64_t next_time() {
        const std::int64_t t = current_time_;
        current_time_ += step_;
        return t;
    }
    void pipe(std::optional<std::string> key, std::optional<std::string> value, std::int64_t ts, const headers& h);

    topology_test_driver* driver_;
    std::string name_;
    std::function<void(const K&, std::string&)> ks_;
    std::function<void(const V&, std::string&)> vs_;
    std::int64_t current_time_;
    std::int64_t step_;
};

template <class K, class V>
class test_output_topic {
public:
    /// The next record's value; a null value reads as V{} (use std::optional<V> to see nulls).
    V read_value() { return read_record().value; }
    key_value<K, V> read_key_value() {
        auto r = read_record();
        return {std::move(r.key), std::move(r.value)};
    }
    /// The next record, with null flags set for null keys and values.
    record<K, V> read_record();
    std::vector<record<K, V>> read_records_to_list() {
        std::vector<record<K, V>> out;
        while (!is_empty()) out.push_back(read_record());
        return out;
    }
    std::vector<V> read_values_to_list() {
        std::vector<V> out;
        while (!is_empty()) out.push_back(read_value());
        return out;
    }
    std::vector<key_value<K, V>> read_key_values_to_list() {
        std::vector<key_value<K, V>> out;
        while (!is_empty()) out.push_back(read_key_value());
        return out;
    }
    /// The latest value per key; a null value removes the key (unless V is std::optional).
    std::map<K, V> read_key_values_to_map();
    bool is_empty() const { return queue().empty(); }
    std::size_t get_queue_size() const { return queue().size(); }

private:
    friend class topology_test_driver;
    test_output_topic(topology_test_driver& d, std::string name, std::function<K(std::string_view)> kd,
                      std::function<V(std::string_view)> vd)
        : driver_(&d), name_(std::move(name)), kd_(std::move(kd)), vd_(std::move(vd)) {}
    std::deque<produced_record>& queue() const;

    topology_test_driver* driver_;
    std::string name_;
    std::function<K(std::string_view)> kd_;
    std::function<V(std::string_view)> vd_;
};

class topology_test_driver {
public:
    /// Validates the topology (throwing topology_error) and starts one task, 0_0, for all its
    /// sub-topologies, as Kafka's TopologyTestDriver: one stream time and one punctuation queue
    /// for every processor; records sent to topics the topology reads are processed next, the
    /// one with the smallest timestamp across those topics first.
    /// The topology must outlive the driver.
    explicit topology_test_driver(const topology& t, driver_config config = {});
    /// Keeps the topology itself, so `topology_test_driver d(builder.build());` is safe.
    explicit topology_test_driver(topology&& t, driver_config config = {});
    ~topology_test_driver();
    topology_test_driver(const topology_test_driver&) = delete;
    topology_test_driver& operator=(const topology_test_driver&) = delete;

    template <class K, class V, class KS = default_serde_t<K>, class VS = default_serde_t<V>>
    test_input_topic<K, V> create_input_topic(std::string name, KS ks = KS{}, VS vs = VS{},
                                              std::int64_t start_timestamp_ms = 0,
                                              std::chrono::milliseconds auto_advance = std::chrono::milliseconds{0}) {
        check_input_topic(name);
        return test_input_topic<K, V>(
            *this, std::move(name), [ks](const K& k, std::string& out) { ks.serialize(k, out); },
            [vs](const V& v, std::string& out) { vs.serialize(v, out); }, start_timestamp_ms, auto_advance.count());
    }

    template <class K, class V, class KS = default_serde_t<K>, class VS = default_serde_t<V>>
    test_output_topic<K, V> create_output_topic(std::string name, KS ks = KS{}, VS vs = VS{}) {
        return test_output_topic<K, V>(
            *this, std::move(name), [ks](std::string_view b) { return K(ks.deserialize(b)); },
            [vs](std::string_view b) { return V(vs.deserialize(b)); });
    }

    /// Moves the manual wall clock forward and fires wall-clock punctuations that are due.
    void advance_wall_clock_time(std::chrono::milliseconds d);
    std::int64_t wall_clock_time_ms() const;

    /// A key-value store of the topology; throws std::invalid_argument if there is none of that
    /// name and type. As Kafka's getKeyValueStore, a timestamped store (what the DSL's count,
    /// reduce, aggregate and tables materialize) is also offered as a plain key_value_store<K, V>:
    /// reads drop the timestamps, writes store timestamp -1.
    template <class K, class V>
    key_value_store<K, V>& get_key_value_store(std::string_view name) {
        state_store& s = get_state_store(name);
        if (auto* kv = dynamic_cast<key_value_store<K, V>*>(&s)) return *kv;
        if (auto* ts = dynamic_cast<key_value_store<K, value_and_timestamp<V>>*>(&s))
            return store_view<timestamped_store_facade<K, V>>(name, *ts);
        throw wrong_store_type(name, "key_value_store");
    }
    /// A timestamped key-value store (Kafka's getTimestampedKeyValueStore).
    template <class K, class V>
    key_value_store<K, value_and_timestamp<V>>& get_timestamped_key_value_store(std::string_view name) {
        state_store& s = get_state_store(name);
        if (auto* kv = dynamic_cast<key_value_store<K, value_and_timestamp<V>>*>(&s)) return *kv;
        throw wrong_store_type(name, "timestamped key_value_store");
    }
    /// A versioned key-value store (Kafka's getVersionedKeyValueStore).
    template <class K, class V>
    versioned_key_value_store<K, V>& get_versioned_key_value_store(std::string_view name) {
        state_store& s = get_state_store(name);
        if (auto* kv = dynamic_cast<versioned_key_value_store<K, V>*>(&s)) return *kv;
        throw wrong_store_type(name, "versioned key_value_store");
    }
    /// A window store; as Kafka's getWindowStore, a timestamped one (what the DSL's windowed
    /// aggregations keep) is also offered as a plain window_store<K, V>: reads drop the
    /// timestamps, writes store timestamp -1.
    template <class K, class V>
    window_store<K, V>& get_window_store(std::string_view name) {
        state_store& s = get_state_store(name);
        if (auto* w = dynamic_cast<window_store<K, V>*>(&s)) return *w;
        if (auto* ts = dynamic_cast<window_store<K, value_and_timestamp<V>>*>(&s))
            return store_view<timestamped_window_store_facade<K, V>>(name, *ts);
        throw wrong_store_type(name, "window_store");
    }
    /// A window store of value_and_timestamp<V> (Kafka's getTimestampedWindowStore): what the
    /// DSL's windowed aggregations keep.
    template <class K, class V>
    window_store<K, value_and_timestamp<V>>& get_timestamped_window_store(std::string_view name) {
        state_store& s = get_state_store(name);
        if (auto* w = dynamic_cast<window_store<K, value_and_timestamp<V>>*>(&s)) return *w;
        throw wrong_store_type(name, "timestamped window_store");
    }
    template <class K, class V>
    session_store<K, V>& get_session_store(std::string_view name) {
        state_store& s = get_state_store(name);
        if (auto* w = dynamic_cast<session_store<K, V>*>(&s)) return *w;
        throw wrong_store_type(name, "session_store");
    }
    state_store& get_state_store(std::string_view name);
    /// Names of every store of the topology (Kafka's getAllStateStores keys).
    std::vector<std::string> state_store_names() const;

    /// Flushes caches and stores of every task (what a commit does before offsets are committed).
    void commit();
    const kstreams::metrics& metrics() const;
    /// Every record of each changelog topic of the topology, in offset order: those restored from
    /// (driver_config::changelogs) and those produced since. Feed them to another driver's config
    /// to get the same state back after dropping the local stores.
    std::map<std::string, std::vector<produced_record>> changelog_records() const;
    /// Names of all topics records were produced to so far (sinks, repartition and changelogs).
    std::vector<std::string> produced_topic_names() const;

    // ---- async processors (kstreams/async.hpp) ------------------------------------------------
    // They run on the driver's own executor, which the driver runs only inside its calls: piping
    // returns with records still in flight (so that keys overlap); these calls let them complete.
    /// Records in flight in async processors.
    std::size_t async_in_flight() const;
    /// Runs the async completions that are ready (without waiting) and processes what follows.
    void poll_async();
    /// Runs the driver's executor until no record is in flight. Throws std::runtime_error if some
    /// still are after `timeout`, or if nothing is left that could complete them.
    void wait_for_async(std::chrono::milliseconds timeout = std::chrono::seconds(30));
    /// The offsets committed so far (next offset to read) of each input topic (partition 0): a
    /// commit covers only records that completed, async ones included.
    std::map<std::string, std::int64_t> committed_offsets() const;
    /// The metadata committed with them (what processors of stores recovered by recomputation
    /// noted; empty for none), for driver_config::committed_metadata.
    std::map<std::string, std::string> committed_metadata() const;

    /// Pipes one record in bytes. Throws std::invalid_argument if no source reads the topic.
    void pipe_raw(const std::string& topic, std::optional<std::string> key, std::optional<std::string> value,
                  std::int64_t timestamp, const headers& hdrs = {});
    /// The records produced to a topic and not yet read.
    std::deque<produced_record>& produced(const std::string& topic);

private:
    void check_input_topic(const std::string& topic) const;
    static std::invalid_argument wrong_store_type(std::string_view name, std::string_view kind) {
        return std::invalid_argument("store " + std::string(name) + " is not a " + std::string(kind) +
                                     " of the requested key and value types");
    }
    /// A view over a store, made once per store and view type and kept for the driver's life.
    template <class View, class Store>
    View& store_view(std::string_view name, Store& store) {
        auto& slot = views_[std::string(name) + "/" + typeid(View).name()];
        if (!slot) slot = std::make_shared<View>(store);
        return static_cast<View&>(*slot);
    }
    std::map<std::string, std::shared_ptr<state_store>, std::less<>> views_;
    std::unique_ptr<topology> owned_topology_;  ///< set when given a temporary; before impl_, which refers to it
    struct impl;
    std::unique_ptr<impl> impl_;
};

template <class K, class V>
void test_input_topic<K, V>::pipe(std::optional<std::string> key, std::optional<std::string> value, std::int64_t ts,
                                  const headers& h) {
    driver_->pipe_raw(name_, std::move(key), std::move(value), ts, h);
}

template <class K, class V>
std::deque<produced_record>& test_output_topic<K, V>::queue() const {
    return driver_->produced(name_);
}

template <class K, class V>
record<K, V> test_output_topic<K, V>::read_record() {
    auto& q = queue();
    if (q.empty()) throw empty_topic_error("output topic " + name_ + " is empty: no record to read");
    produced_record p = std::move(q.front());
    q.pop_front();
    record<K, V> r;
    r.timestamp = p.timestamp;
    r.headers = std::move(p.headers);
    if (p.key) r.key = kd_(*p.key);
    else r.key_null = true;
    if (p.value) r.value = vd_(*p.value);
    else r.value_null = true;
    return r;
}

template <class K, class V>
std::map<K, V> test_output_topic<K, V>::read_key_values_to_map() {
    std::map<K, V> out;
    while (!is_empty()) {
        auto r = read_record();
        if (has_null_key(r)) throw std::logic_error("output topic " + name_ + ": read_key_values_to_map cannot hold a null key");
        if (r.value_null && !is_optional_v<V>) out.erase(r.key);
        else out.insert_or_assign(std::move(r.key), std::move(r.value));
    }
    return out;
}

}  // namespace kstreams::test
