// The application: runs a topology on a Kafka cluster (or on the embedded cluster) with consumer
// groups, stream threads, internal topics and at-least-once commits (Kafka Streams' KafkaStreams).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <kstreams/detail/dsl_store_choice.hpp>
#include <kstreams/error_handlers.hpp>
#include <kstreams/metric_samples.hpp>
#include <kstreams/metrics.hpp>
#include <kstreams/state/rocksdb_config.hpp>
#include <kstreams/streams_metadata.hpp>
#include <kstreams/task_id.hpp>

namespace kstreams {

class topology;
class state_restore_listener;
template <class Type>
class store_query_parameters;

template <class R>
class state_query_request;
template <class R>
class state_query_result;

namespace detail {
class queryable_instance;
struct partition_query;
struct raw_record;
/// Lists the local instances of a queried store, at each call (kstreams/state/queryable_store.hpp).
using instance_provider = std::function<std::vector<std::shared_ptr<queryable_instance>>()>;
}  // namespace detail

enum class processing_guarantee { at_least_once, exactly_once_v2 };

/// What to do when a record cannot be written to Kafka (Kafka Streams' ProductionExceptionHandler).
enum class production_error_policy { fail, log_and_continue };

/// The application's configuration. Names follow StreamsConfig; every field has Kafka Streams'
/// default unless noted.
struct streams_config {
    std::string application_id;  ///< required: consumer group id and prefix of internal topics
    /// Empty or "embedded": start librdkafka's mock cluster in-process (see embedded_cluster.hpp).
    std::string bootstrap_servers;
    int num_stream_threads = 1;
    /// "num.standby.replicas": how many other instances keep a standby copy of each stateful
    /// task's stores (read from its changelogs, queryable as stale stores), so that the instance
    /// taking the task over restores only what the copy lacks. Placed by every instance alike from
    /// the group's assignment (the README's "Standby replicas"); 0: none.
    int num_standby_replicas = 0;
    /// "commit.interval.ms". Unset (default_commit_interval) it is Kafka's default for the
    /// guarantee: 30 s under at_least_once, 100 ms under exactly_once_v2.
    std::chrono::milliseconds commit_interval{default_commit_interval};
    /// "processing.guarantee". exactly_once_v2 (KIP-447) runs on a real Kafka cluster only (not the
    /// embedded one); see the README's "Processing guarantees".
    processing_guarantee guarantee = processing_guarantee::at_least_once;
    std::filesystem::path state_dir = std::filesystem::temp_directory_path() / "kstreams";
    std::size_t statestore_cache_max_bytes = 10 * 1024 * 1024;
    /// RocksDB memory shared by all persistent stores of this application instance: the block
    /// cache (`rocksdb.block.cache.bytes`), the write-buffer manager charged to it
    /// (`rocksdb.write.buffer.manager.bytes`, 0 = none) and the config setter for advanced tuning
    /// (Kafka's `rocksdb.config.setter`, set here in code).
    rocksdb_memory_config rocksdb{};
    /// How long a task waits for data on an empty partition that has none on the broker either;
    /// -1 never waits. A partition with data known to be on the broker is always waited for.
    std::chrono::milliseconds max_task_idle{0};
    /// Records a task buffers per input partition (librdkafka's prefetch holds the rest).
    std::size_t buffered_records_per_partition = 1000;
    /// Records a task may have in flight in async processors (kstreams/async.hpp) at once: other
    /// keys overlap up to this bound ("async.max.in.flight.per.task"; not a Kafka Streams setting).
    std::size_t max_async_in_flight_per_task = 64;
    /// Replication factor of internal topics; -1 takes the broker's default.
    std::int16_t replication_factor = -1;
    /// Multi-cluster: sink topics (not internal ones) are written to this cluster; empty = the
    /// cluster the app reads. Repartition topics and changelogs stay on the source cluster.
    std::string sink_bootstrap_servers;
    /// "application.server": the host:port where this instance answers its users' queries (an
    /// endpoint of the application's own, e.g. HTTP); every instance learns the others' through the
    /// consumer group, so that metadata_for_all_streams_clients() and query_metadata_for_key() say
    /// which instance hosts which store and key. Empty: this instance is not listed.
    std::string application_server;
    /// Static membership (`group.instance.id`); empty = dynamic. With several stream threads each
    /// thread's consumer uses `<id>-<thread index>`.
    std::string group_instance_id;
    /// deserialization.exception.handler: LogAndContinueExceptionHandler when true, else
    /// LogAndFailExceptionHandler (errors.deserialization, when set, replaces both).
    bool log_and_continue_on_deserialization_error = false;
    /// production.exception.handler: the built-in fails or logs and continues (errors.production,
    /// when set, replaces both).
    production_error_policy on_production_error = production_error_policy::fail;
    /// The error handlers (processing.exception.handler, handlers of your own as functions) and the
    /// dead-letter queue (errors.dead.letter.queue.topic.name); see error_handlers.hpp.
    error_handling_config errors;
    /// Bound on each start-up call to the cluster (metadata, topic creation) and on restoration
    /// stalls. How long start() waits for a cluster that does not answer is task_timeout.
    std::chrono::milliseconds startup_timeout{30000};
    /// How long a stream thread keeps going while the cluster does not answer ("task.timeout.ms",
    /// Kafka's default): producer deliveries and flushes, offset commits (retried at each commit
    /// meanwhile); and how long the app looks for a cluster that does not answer at start. Past it the thread fails with a streams_error saying what did not answer, and
    /// the uncaught exception handler decides (ERROR by default); a cluster back within it goes on.
    std::chrono::milliseconds task_timeout{300000};
    /// "default.timestamp.extractor": the timestamp extractor of every source that has none of its
    /// own (kstreams/timestamp_extractors.hpp; from_properties takes Kafka's built-in class names).
    /// Empty: the record's own timestamp, a negative one failing the thread (FailOnInvalidTimestamp).
    std::function<std::int64_t(const detail::raw_record&, std::int64_t partition_time)> default_timestamp_extractor;
    /// The kind of every DSL store whose operator leaves it open (no supplier, no store type):
    /// Kafka's `dsl.store.suppliers.class` (BuiltInDslStoreSuppliers$RocksDBDslStoreSuppliers or
    /// $InMemoryDslStoreSuppliers) or the older `default.dsl.store` (rocksDB, in_memory).
    dsl_store_type default_dsl_store = dsl_store_type::rocks_db;
    /// Partitions of topics the app creates on the embedded cluster (sources and sinks it is
    /// missing); internal topics follow their upstream as on a real cluster.
    std::int32_t embedded_partitions = 1;
    /// How often (wall-clock) a windowed aggregation emitting on window close looks for closed
    /// windows: Kafka's internal `__emit.interval.ms.kstreams.windowed.aggregation__`.
    std::chrono::milliseconds windowed_emit_interval{1000};
    /// How often (wall-clock) a left/outer stream-stream join looks for closed windows to emit its
    /// null-padded results: Kafka's internal `__emit.interval.ms.kstreams.outer.join.spurious.results.fix__`.
    std::chrono::milliseconds outer_join_emit_interval{1000};
    /// "metrics.recording.level": INFO (Kafka's default) records the client, thread and task
    /// metrics; DEBUG (or TRACE) adds the processor-node metrics (kstreams/metric_samples.hpp).
    kstreams::metrics_recording_level metrics_recording_level = kstreams::metrics_recording_level::info;
    /// "status.listener" (not a Kafka Streams setting): where the built-in status page listens
    /// (HTTP: `/` the page, `/metrics` Prometheus text, `/topology` an SVG picture with the node
    /// rates, `/topology.dot`, `/topology.mmd`, `/tasks` JSON). Empty or "0": off (the default);
    /// "<port>": 127.0.0.1:<port>; "<address>:<port>": that address (port 0: any free one,
    /// kafka_streams::status_address() tells which).
    std::string status_listener;

    /// The application's settings as its processors read them (processor_context::app_configs(),
    /// Kafka's appConfigs()): every property from_properties() read, and settings of your own.
    /// A property that is neither Kafka Streams', nor prefixed for one client ("consumer.",
    /// "producer.", "admin."), nor librdkafka's is kept here only (logged once, as Kafka logs a
    /// config it does not know) instead of being handed to librdkafka, which refuses it.
    std::map<std::string, std::string> app_configs;

    /// librdkafka settings passed through: `kafka` to every client, the others to one kind.
    std::map<std::string, std::string> kafka;
    std::map<std::string, std::string> consumer;
    std::map<std::string, std::string> producer;
    std::map<std::string, std::string> admin;

    /// Reads Java-style properties: the StreamsConfig names above ("application.id",
    /// "num.stream.threads", "commit.interval.ms", "processing.guarantee", "state.dir",
    /// "statestore.cache.max.bytes", "max.task.idle.ms", "buffered.records.per.partition",
    /// "replication.factor", "group.instance.id", "rocksdb.block.cache.bytes",
    /// "rocksdb.write.buffer.manager.bytes", ...); keys prefixed "consumer.", "producer." or
    /// "admin." go to that client; any other key librdkafka knows goes to every client, and the
    /// rest only to app_configs (every key is in app_configs too). Throws
    /// std::invalid_argument naming a key whose value is not valid.
    static streams_config from_properties(const std::map<std::string, std::string>& props);

    static constexpr std::chrono::milliseconds default_commit_interval{-1};
    /// commit_interval, or Kafka's default for the guarantee when it is unset.
    std::chrono::milliseconds effective_commit_interval() const {
        if (commit_interval != default_commit_interval) return commit_interval;
        return guarantee == processing_guarantee::exactly_once_v2 ? std::chrono::milliseconds(100)
                                                                   : std::chrono::milliseconds(30000);
    }
};

/// The application's state, as KafkaStreams.State.
enum class streams_state { created, rebalancing, running, pending_shutdown, not_running, pending_error, error };

const char* to_string(streams_state s) noexcept;

/// Restoration of one store of one task from its changelog partition, while it runs.
struct store_restoration {
    kstreams::task_id task;
    std::string store;
    std::string changelog_topic;
    std::int32_t partition = 0;
    std::int64_t restored = 0;    ///< records restored so far
    std::int64_t remaining = -1;  ///< records left up to the end offset; -1 while it is not known yet
};

/// How close() stops the app (Kafka's CloseOptions).
struct close_options {
    /// How long close() waits for the stream threads to stop.
    std::chrono::milliseconds timeout = std::chrono::milliseconds::max();
    /// Kafka's leaveGroup / GroupMembershipOperation.LEAVE_GROUP: the consumers leave the group at
    /// once, so that the others take their partitions over without waiting for the session
    /// timeout. false (Kafka Streams' default): they stay members until the session times out,
    /// so an instance restarted within it gets its partitions back without a second rebalance.
    /// With static membership (group_instance_id) librdkafka cannot leave: a warning says so.
    bool leave_group = false;
};

/// How far one local store's partition is behind its changelog (Kafka's LagInfo).
struct lag_info {
    std::int64_t current_offset_position = 0;  ///< the changelog offset the store holds up to
    std::int64_t end_offset_position = 0;      ///< the changelog's end offset
    std::int64_t offset_lag = 0;               ///< max(0, end - current)
};

/// What to do after a stream thread died of an exception (StreamsUncaughtExceptionHandler).
enum class uncaught_exception_response { replace_thread, shutdown_client };

class kafka_streams {
public:
    using state_listener = std::function<void(streams_state new_state, streams_state old_state)>;
    using exception_handler = std::function<uncaught_exception_response(std::exception_ptr)>;
    using metrics_listener = std::function<void(const kstreams::metrics&)>;

    /// Validates the topology and the configuration; throws topology_error or
    /// std::invalid_argument. The topology must outlive the application.
    kafka_streams(const topology& t, streams_config config);
    /// As above, keeping the topology: `kafka_streams app(builder.build(), config)`.
    kafka_streams(topology&& t, streams_config config);
    ~kafka_streams();
    kafka_streams(const kafka_streams&) = delete;
    kafka_streams& operator=(const kafka_streams&) = delete;

    /// Starts the app: the state becomes `rebalancing` and start() returns, as Kafka's, while the
    /// cluster is found in the background (it may come up later), checked (source topics exist
    /// and are co-partitioned) and the internal topics created, then the stream threads join the
    /// group; see wait_until(). A cluster unreachable for task.timeout.ms, or a check that fails,
    /// goes to the uncaught exception handler (replace_thread tries again) and otherwise to
    /// `error` (error() says why, naming the broker or topic). On the embedded cluster, or with
    /// global stores (restored before start() returns, as Kafka's), start() does that work itself
    /// and throws a streams_error on a failure (the state becomes `error`).
    void start();
    /// Stops the stream threads: finishes in-flight work, commits, closes stores and writes
    /// checkpoints. Returns false if the threads did not stop within `timeout`.
    /// kstreams' close() leaves the group (Kafka's close() does not: close(close_options{}) is
    /// Kafka's); as close(close_options{timeout, true}).
    bool close(std::chrono::milliseconds timeout = std::chrono::milliseconds::max());
    /// Kafka's close(CloseOptions): as close(timeout), leaving the group only when asked.
    bool close(const close_options& options);

    /// Deletes this application's local state, `<state.dir>/<application.id>` (every task's
    /// stores and checkpoint), as Kafka's cleanUp(): before start() or after close() only; throws
    /// std::logic_error while the app runs, and streams_error (deleting nothing) if another
    /// instance holds one of its task directories.
    void clean_up();

    /// Kafka's pause(): the stream threads stop processing (records, punctuations, restoration)
    /// but stay in the group, keep polling (their buffers bounded) and committing, until resume().
    /// Allowed in any state; a thread added or replaced meanwhile starts paused.
    void pause();
    void resume();
    bool is_paused() const;

    /// Kafka's addStreamThread(): one more stream thread (its consumer joins the group, which
    /// rebalances), named `<application.id>-StreamThread-<n>` with the lowest free n; its record
    /// cache gets an equal share of statestore.cache.max.bytes over the threads then alive (the
    /// others keep theirs). nullopt unless the app is RUNNING or REBALANCING.
    std::optional<std::string> add_stream_thread();
    /// Kafka's removeStreamThread(timeout): stops the stream thread started last that is still
    /// alive (it commits, closes its tasks and leaves the group) and returns its name; nullopt
    /// unless the app is RUNNING or REBALANCING with a thread to remove. Throws streams_error if
    /// the thread has not stopped within `timeout` (it goes on stopping).
    std::optional<std::string> remove_stream_thread(std::chrono::milliseconds timeout = std::chrono::milliseconds::max());

    streams_state state() const;
    /// Waits until the state is `s` (true) or `timeout` passed or the app failed (false).
    bool wait_until(streams_state s, std::chrono::milliseconds timeout) const;
    /// Called on every state change, from the thread that caused it.
    void set_state_listener(state_listener listener);
    /// Called when a stream thread dies; without one, the client shuts down (Kafka Streams' default).
    void set_uncaught_exception_handler(exception_handler handler);
    /// Told when stores are restored from their changelogs (start, each batch, end), as Kafka's
    /// setGlobalStateRestoreListener; called from the stream threads, possibly at once. Set it
    /// before start(); throws std::logic_error after.
    void set_global_state_restore_listener(std::shared_ptr<state_restore_listener> listener);

    /// Told the app's counters (as metrics()) every `interval` while it runs, and once more with
    /// the final counters when close() has stopped the threads; called from a thread of its own. An
    /// exception it throws is logged and does not stop the reports. Set it before start(); throws
    /// std::logic_error after, std::invalid_argument for an interval that is not positive.
    void set_metrics_listener(metrics_listener listener,
                              std::chrono::milliseconds interval = std::chrono::milliseconds(1000));

    /// The cluster the app talks to; for the embedded cluster, its generated address.
    std::string bootstrap_servers() const;
    /// Counters summed over all stream threads (a snapshot).
    kstreams::metrics metrics() const;
    /// The stores restoring right now, over all stream threads (a snapshot, at most a few
    /// milliseconds old; empty once every assigned store is restored).
    std::vector<store_restoration> restoration_progress() const;
    /// Every metric with Kafka Streams' group, name and tags (KafkaStreams.metrics()): client,
    /// thread, task and (at metrics.recording.level DEBUG) processor-node metrics; rates and
    /// averages over the last 30 s or so between calls (kstreams/metric_samples.hpp; the README
    /// lists them). to_prometheus(app.metric_samples()) gives the Prometheus text.
    std::vector<metric_sample> metric_samples() const;
    /// Where the status page listens ("127.0.0.1:<port>") since start(); empty when it is off.
    std::string status_address() const;
    /// The first error that stopped the app, or null.
    std::exception_ptr error() const;

    /// Interactive queries (Kafka's KafkaStreams#store): a read-only view of the local instances
    /// of a store, e.g. `app.store(store_query_parameters("counts",
    /// queryable_store_types::key_value_store<std::string, std::int64_t>()))`; defined in
    /// kstreams/state/queryable_store.hpp. Throws streams_not_started_error before start(),
    /// invalid_state_store_error unless the app is RUNNING or REBALANCING, and
    /// unknown_state_store_error for a name the topology does not have. The view's reads throw
    /// invalid_state_store_error while no local task hosts the store (it migrated), while a task
    /// restores it (unless stale stores are enabled) and once the app stops. The app must outlive
    /// the view.
    template <class Type>
    typename Type::view_type store(const store_query_parameters<Type>& params) const;
    /// What store() reads through: checks the app's state and the name, then lists the instances
    /// at each call.
    detail::instance_provider query_provider(const std::string& store, bool stale_stores,
                                             std::optional<std::int32_t> partition) const;

    /// Every instance of the app with an application.server, with the stores it hosts and the
    /// partitions it reads (Kafka's metadataForAllStreamsClients); by host. Empty while the
    /// group's assignment is not known (a rebalance). Throws streams_not_started_error before
    /// start(), invalid_state_store_error unless RUNNING or REBALANCING.
    std::vector<streams_metadata> metadata_for_all_streams_clients() const;
    /// The instances that host `store` (Kafka's streamsMetadataForStore); every instance for a
    /// global store. Throws unknown_state_store_error for a name the topology does not have.
    std::vector<streams_metadata> streams_metadata_for_store(const std::string& store) const;
    /// Where `key` of `store` lives (Kafka's queryMetadataForKey): the key serialized with the
    /// key serde and partitioned as Kafka's default partitioner (murmur2) over the partition
    /// count of the store's source topics, and the instance that reads that partition;
    /// key_query_metadata::not_available() while the assignment is not known. Defined in
    /// kstreams/state/queryable_store.hpp.
    template <class K>
    key_query_metadata query_metadata_for_key(const std::string& store, const K& key) const;
    /// As above with the key serde given, or with a partitioner of one's own: a callable
    /// `(const K& key, std::int32_t num_partitions) -> std::int32_t` (the one the store's input
    /// topic is written with, Kafka's StreamPartitioner overload).
    template <class K, class SerdeOrPartitioner>
    key_query_metadata query_metadata_for_key(const std::string& store, const K& key,
                                              const SerdeOrPartitioner& how) const;
    /// The non-template half: `choose` maps the partition count to the key's partition.
    key_query_metadata query_metadata_for_partition(const std::string& store,
                                                    const std::function<std::int32_t(std::int32_t)>& choose) const;
    /// The murmur2 partition of serialized key bytes among `partitions` (Kafka's default partitioner).
    static std::int32_t default_partition(std::string_view key_bytes, std::int32_t partitions);
    /// This instance's stream threads and their active tasks (Kafka's metadataForLocalThreads).
    std::vector<thread_metadata> metadata_for_local_threads() const;
    /// Kafka's allLocalStorePartitionLags(): for every store with a changelog of every local task,
    /// by store and partition, the changelog offset it holds (a running task's: the end offset),
    /// the changelog's end offset (asked of the cluster) and the lag; the tasks' positions are as
    /// of the stream threads' last publication (every 100 ms or so while they run). Throws
    /// streams_error when the end offsets cannot be fetched.
    std::map<std::string, std::map<std::int32_t, lag_info>> all_local_store_partition_lags() const;

    /// Interactive queries v2 (Kafka's KafkaStreams#query, KIP-796): runs a query
    /// (kstreams/state/state_query.hpp: key_query, range_query, window_key_query, ...) on the
    /// local partitions of a store, each partition's result or failure apart. Throws
    /// unknown_state_store_error for a name the topology does not have, and
    /// streams_not_started_error / invalid_state_store_error unless RUNNING or REBALANCING.
    template <class R>
    state_query_result<R> query(const state_query_request<R>& request) const;
    /// What query() reads through: the local partitions of `store` asked for (all: nullopt), each
    /// with its instance or the reason it cannot be queried.
    std::vector<detail::partition_query> query_partitions(const std::string& store,
                                                          const std::optional<std::vector<std::int32_t>>& partitions,
                                                          bool require_active) const;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

}  // namespace kstreams
