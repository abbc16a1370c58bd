// A task: one sub-topology instantiated for one partition number. Owns its processor nodes and
// stores, tracks stream time, fires punctuations. Runners (the test driver, the Kafka runtime) feed
// it records and decide when to commit.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <list>
#include <map>
#include <set>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <kstreams/async.hpp>
#include <kstreams/detail/dsl_store_choice.hpp>
#include <kstreams/detail/offset_hold.hpp>
#include <kstreams/detail/processor_metadata.hpp>
#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/detail/topology_model.hpp>
#include <kstreams/error_handlers.hpp>
#include <kstreams/state/state_store.hpp>

#include "lib/core/topology_groups.hpp"
#include "lib/observe/e2e_latency.hpp"
#include "lib/observe/latency.hpp"
#include "lib/runtime/offset_holds.hpp"
#include "lib/runtime/ports.hpp"
#include "lib/runtime/punctuation_queue.hpp"
#include "lib/runtime/topic_partition_metadata.hpp"
#include "lib/state/task_store_hooks.hpp"
#include "lib/state/store_resources.hpp"
#include "lib/state/global_write_scope.hpp"
#include "lib/state/task_directory_lock.hpp"

namespace kstreams::detail {

enum class deserialization_policy { fail, log_and_continue };
struct error_handlers;

/// What a runner provides to the tasks it creates.
struct task_environment {
    std::string application_id;
    std::function<std::int64_t()> wall_clock;
    record_collector* collector = nullptr;
    kstreams::metrics* metrics = nullptr;
    deserialization_policy on_deserialization_error = deserialization_policy::fail;
    std::filesystem::path state_dir;  ///< `<state.dir>/<application.id>`; empty = stores stay in memory
    /// The stream thread's record cache and the application's RocksDB memory, shared by the stores
    /// of all tasks the runner creates with this environment (metrics is filled from `metrics`).
    store_resources stores;
    /// How long a task waits for its directory's lock held by someone else before failing.
    std::chrono::milliseconds state_lock_wait{10000};
    /// The application's settings its processors read (task_context::app_config), among them
    /// Kafka's internal emit intervals (detail/internal_configs.hpp).
    app_config_map app_configs;
    /// Where async processors run (kstreams/async.hpp): the executor of the thread running the tasks.
    boost::asio::any_io_executor executor;
    /// Called each time an async record completes (the runner wakes up to process what follows).
    std::function<void()> async_done;
    /// The instance's global store of this name (global_task.hpp), or nullptr: every processor
    /// may read a global store without being connected to it.
    std::function<state_store*(std::string_view name)> global_store;
    /// Set by a runner whose global stores are written by another thread (the Kafka runtime's
    /// global thread, which holds it while it writes): a task whose processors read a global store
    /// holds it while they run (a record, a punctuation, a cache flush, an async completion).
    std::recursive_mutex* global_lock = nullptr;
    /// processing.guarantee=exactly_once_v2: a logged persistent store without a checkpoint is
    /// wiped when its task opens (task_manager_config::exactly_once says why).
    bool exactly_once = false;
    /// metrics.recording.level DEBUG: every node counts the records it processes
    /// (`node-process-total.<node>` in the task's metrics; Kafka's processor-node process-total).
    bool node_metrics = false;
    /// metrics.recording.level, for user sensors (kstreams/streams_metrics.hpp).
    metrics_recording_level recording_level = metrics_recording_level::info;
    /// The error handlers (error_handling.hpp); null: `on_deserialization_error` decides and
    /// processing errors fail the task.
    const error_handlers* errors = nullptr;
    /// default.timestamp.extractor: for sources without an extractor of their own; empty = the
    /// record's timestamp, a negative one failing the task.
    timestamp_extractor default_extractor;
    /// The kind of the DSL stores left open (default.dsl.store).
    dsl_store_type default_dsl_store = dsl_store_type::rocks_db;
};

/// task_context::app_config over a runner's environment.
inline std::optional<std::string_view> app_config_of(const task_environment& env, std::string_view key) {
    const auto it = env.app_configs.find(key);
    if (it == env.app_configs.end()) return std::nullopt;
    return it->second;
}

/// A task's task_context::task_slot entries (stream and global tasks keep them alike).
class task_slots {
public:
    task_slot_entry& at(std::string_view key) {
        auto it = entries_.find(key);
        if (it == entries_.end()) it = entries_.emplace(std::string(key), task_slot_entry{}).first;
        return it->second;
    }
    void clear() { entries_.clear(); }

private:
    std::map<std::string, task_slot_entry, std::less<>> entries_;
};

/// A store's changelog and how to replay it.
struct changelog_registration {
    state_store* store = nullptr;
    std::string topic;  ///< `<application.id>-<store>-changelog`, or the table's source topic
    restore_callback restore;
    /// The topic is a source topic of the task (a table's, reused as its store's changelog):
    /// restored up to the task's committed offset, checkpointed at it.
    bool source_topic = false;
};

class stream_task final : public task_context, public store_context, public async_host,
                          public state::changelog_with_headers, public state::record_metadata_hooks,
                          public state::restore_origin_hooks,
                          public offset_hold_provider, public processor_metadata {
public:
    stream_task(const topology_model& model, const topology_groups& groups, const subtopology_group& sub,
                kstreams::task_id id, task_environment& env);
    ~stream_task() override;

    /// Instantiates stores and processors and initializes them (stores first).
    void init();
    /// Only the stores (a standby task: its stores follow their changelogs, nothing processes).
    void init_stores();
    /// The source reading this (already prefixed) topic, or nullptr.
    source_node* source_for(std::string_view topic);
    /// The record's timestamp per the source's extractor; negative means skip it (counted).
    std::int64_t extract_timestamp(source_node& src, const raw_record& raw, std::int64_t partition_time);
    /// Processes one record through the sub-topology. Errors become streams_error naming the task,
    /// topic, partition, offset and node. False if it was skipped (a deserialization error under
    /// log-and-continue): not counted as processed.
    /// `now_ms`: the wall clock of this turn (record-e2e-latency at the sources and sinks).
    bool process(source_node& src, const raw_record& raw, std::int64_t timestamp, std::int64_t now_ms);
    /// Fires the stream-time punctuations due. Inline because runners call it after every record:
    /// with nothing due (the usual answer) it is one compare against the queue's earliest due time.
    bool maybe_punctuate_stream_time() {
        if (stream_time_ >= 0 && stream_time_ < stream_time_punctuations_.no_earlier_than()) {
            stream_punctuation_waiting_ = false;  // what the full check concludes when nothing is due
            return false;
        }
        return punctuate_stream_time();
    }
    bool maybe_punctuate_wall_clock();
    /// Wall-clock time of the next due punctuation; INT64_MAX if none.
    std::int64_t next_wall_clock_punctuation() const { return wall_clock_punctuations_.next_due(); }
    /// Whether any store of this task keeps its data on disk (so a checkpoint is worth writing).
    bool has_persistent_stores() const {
        for (const auto& [name, store] : stores_)
            if (store->persistent()) return true;
        return false;
    }
    /// Flushes the record caches of the task's stores, which forwards their dirty entries
    /// downstream and writes them to the stores and changelogs (the first half of a commit).
    void flush();
    /// Flushes the stores themselves (RocksDB memtables to disk, the WAL being off); do it before
    /// writing a checkpoint that claims the stores hold the changelog up to some offset.
    void flush_stores();
    /// Closes processors and stores. A clean close first forwards and logs what the record caches
    /// hold; an unclean one (partitions lost, thread dying) drops it, as Kafka's dirty close.
    void close(bool clean = true);
    bool commit_requested() const { return commit_requested_; }
    void clear_commit_request() { commit_requested_ = false; }
    const std::vector<changelog_registration>& changelogs() const { return changelogs_; }
    state_store* find_store(std::string_view name);
    /// Per input topic and partition, the offset of the last record processed (IQv2's position);
    /// read under the store lock.
    std::map<std::string, std::map<std::int32_t, std::int64_t>> position() const;
    /// The changelog topic of the task's store `name`, or nullptr if it has none (not logged).
    const std::string* changelog_topic_of(std::string_view name) const {
        auto it = changelog_topic_of_.find(name);
        return it == changelog_topic_of_.end() ? nullptr : &it->second;
    }
    /// The task's stores, in the order the topology lists them.
    const std::vector<state_store*>& stores() const { return store_order_; }
    /// Held while the task touches its stores (the runner holds it for a turn, a commit's flush,
    /// a restore batch, a close; the task itself for an async completion): interactive queries
    /// hold it while they read (query_registry.hpp).
    std::unique_lock<std::recursive_mutex> store_guard() const { return std::unique_lock(*store_lock_); }
    /// Uses `lock` as the store lock (a revived task keeps its predecessor's); before init().
    void share_store_lock(std::shared_ptr<std::recursive_mutex> lock) { store_lock_ = std::move(lock); }

    // task_context
    std::string_view application_id() const override { return env_.application_id; }
    kstreams::task_id id() const override { return id_; }
    const record_metadata* current_metadata() const override { return has_metadata_ ? &metadata_ : nullptr; }
    std::int64_t stream_time() const override { return stream_time_; }
    std::int64_t wall_clock_time() const override { return env_.wall_clock(); }
    std::optional<std::string_view> app_config(std::string_view key) const override { return app_config_of(env_, key); }
    const app_config_map& app_configs() const override { return env_.app_configs; }
    std::string state_directory() const override { return task_directory().string(); }
    metrics_recording_level recording_level() const override { return env_.recording_level; }
    cancellable schedule(node& owner, std::chrono::milliseconds interval, punctuation_type type,
                         punctuator callback) override;
    state_store& store(std::string_view name, const node& asker) override;
    void request_commit() override { commit_requested_ = true; }
    /// The sinks' way out (marking the raw bytes released where error handlers read them).
    record_collector& collector() override;
    e2e_latency_sensor* e2e_latency_at(const node& n) override;
    kstreams::metrics& metrics() override { return *env_.metrics; }
    void record_dropped(std::string_view reason_metric, const node& where) override;
    /// KIP-1033 at the failing node: the processing exception handler decides (see processing_error).
    void processing_failed(const node& where) override;
    void serialization_failed(const node& sink, std::string_view topic, std::optional<std::int32_t> partition,
                              std::int64_t timestamp) override;
    void deserialization_failed(const raw_record& raw, bool in_key, std::string_view what,
                                const node& where) override;

    // store_context
    kstreams::task_id task_id() const override { return id_; }
    std::filesystem::path task_directory() const override;
    void register_store(state_store& store, restore_callback restore) override;
    void log_change(std::string_view store_name, std::string_view key, std::optional<std::string_view> value,
                    std::int64_t timestamp) override;
    void log_change(std::string_view store_name, std::string_view key, std::optional<std::string_view> value,
                    std::int64_t timestamp, const headers& hdrs) override;
    state::stored_metadata current_stored_metadata() override;
    void set_stored_metadata(const state::stored_metadata& m) override;
    record_context current_record_context() const override { return current_record_; }
    void set_current_record_context(record_context rc) override { current_record_ = rc; }
    store_resources* resources() override { return &resources_; }
    void discard_checkpoint(std::string_view store_name) override;

    // async_host: records in flight in async processors
    /// Under exactly-once a commit waits for the records in flight (stream_thread).
    async_host* async() override;
    boost::asio::any_io_executor executor() override;
    void* begin_async() override;
    void resume_async(void* token, void (*fn)(void*), void* arg) override;
    void fail_async(void* token, std::exception_ptr e, const node& where) noexcept override;
    void end_async(void* token) noexcept override;
    const record_metadata* async_metadata(void* token) const override {
        const auto& r = *static_cast<const async_record*>(token);
        return r.anchored ? &r.metadata : nullptr;
    }
    /// Records taken by async processors and not completed yet.
    std::size_t async_in_flight() const { return async_in_flight_; }
    /// The lowest input offset of the partition with a record in flight; INT64_MAX if none.
    std::int64_t async_held_offset(const std::string& topic, std::int32_t partition) const;
    /// Records in flight that came from no input record (a punctuation, a cache flush): their
    /// inputs are not known, so no offset of the task may be committed until they complete.
    bool async_blocks_commit() const { return async_unanchored_ > 0; }
    /// Throws the first error of an async record (a streams_error naming it), if any.
    void rethrow_async_error() const {
        if (async_error_) std::rethrow_exception(async_error_);
    }
    // Recovery by recomputation (offset_holds.hpp)
    offset_hold* offset_hold_of(std::string_view store, const node& owner) override;
    /// Whether processors of this task hold offsets back (they write stores recovered by
    /// recomputation): its committed offsets may then be earlier than what it processed.
    bool holds_offsets() const { return !holds_.empty(); }
    /// The earliest offset of the partition still held; INT64_MAX if none.
    std::int64_t held_offset(std::string_view topic, std::int32_t partition) { return holds_.held_offset(topic, partition); }
    // Restoration: the batch being applied, for restore_origin_of (set around the restore call).
    std::optional<state::restore_origin> restore_origin_of(const restore_record& r, headers& scratch) const override;
    struct restoring_batch {
        const topic_partition* tp = nullptr;
        std::span<const restore_record> records;
        const restore_batch_details* details = nullptr;
    };
    void set_restoring_batch(const restoring_batch& b) { restoring_ = b; }
    /// Applies a batch of changelog records of `tp` to the store `reg` registered, under the store
    /// lock (an active task's restoration, a standby's updates).
    void restore(const changelog_registration& reg, const topic_partition& tp, std::span<const restore_record> records,
                 const restore_batch_details* details) {
        const auto guard = store_guard();
        struct batch_scope {
            stream_task& task;
            ~batch_scope() { task.set_restoring_batch({}); }
        } scope{*this};
        set_restoring_batch({&tp, records, details});
        reg.restore(records);
    }

    // Processor metadata (Kafka's ProcessorMetadata, committed with the input offsets)
    std::optional<std::int64_t> processor_metadata_for_key(std::string_view key) const override;
    void add_processor_metadata(std::string_view key, std::int64_t value) override;
    /// The metadata of a commit of one of its partitions at offset `committed` (`processed`: the
    /// offset after the last record processed there; `partition_time`: its partition time):
    /// Kafka's encoded partition time and processor metadata, then '|' and the offset holds' when
    /// the task holds offsets (call held_offset first).
    std::string commit_metadata(std::string_view topic, std::int32_t partition, std::int64_t committed,
                                std::int64_t processed, std::int64_t partition_time) const;
    /// What a partition's committed metadata says, read before its first record.
    struct recovered_metadata {
        /// The offset up to which records coming again were processed before (-1: none known).
        std::int64_t replay_until = -1;
        /// The partition time committed (-1: none).
        std::int64_t partition_time = -1;
    };
    /// Drops of records below replay_until are not counted again (record_dropped): the run that
    /// first processed them counted them.
    recovered_metadata recover(std::string_view topic, std::int32_t partition, std::string_view metadata);
    /// As Kafka's task initialization: the stream time resumes from a committed partition time, and
    /// stream-time punctuations are due at it before any new record.
    void resume_stream_time(std::int64_t partition_time);

    /// A punctuation is due but waits for the records in flight (the task takes no new records).
    bool punctuation_waiting() const { return stream_punctuation_waiting_ || wall_punctuation_waiting_; }

protected:
    task_slot_entry& slot(std::string_view key) override { return slots_.at(key); }

private:
    void init_processors();
    void record_punctuation(std::chrono::steady_clock::time_point started);
    /// maybe_punctuate_stream_time past its inline "nothing due" answer.
    bool punctuate_stream_time();
    std::string where() const;
    /// processing.exception.handler, called in the catch block of an exception that escaped a
    /// processor: returns to go on without the record, throws streams_error to fail. `node` is the
    /// processor that threw (processing_failed), the punctuating one, or the source as a fallback.
    void processing_error(const node& node, const std::string& what);
    /// The handler's context of an error at `where`: the source record, or in a cache flush the
    /// metadata of the record that wrote the entry; the current record's timestamp and headers.
    error_handler_context node_error_context(const node& where) const;
    /// While processors run: holds the global stores' lock if they read them (see global_lock), and
    /// marks the thread as a stream task's so that the global stores refuse its writes.
    struct processing_guard {
        std::unique_lock<std::recursive_mutex> global_lock;
        state::stream_processing_scope scope;
    };
    processing_guard global_guard() const {
        return {reads_global_ ? std::unique_lock(*env_.global_lock) : std::unique_lock<std::recursive_mutex>(), {}};
    }
    /// An unreadable checkpoint file: wipes the logged stores' directories and deletes the file.
    void drop_stores_of_unreadable_checkpoint();
    /// Exactly-once: wipes the logged persistent stores that have files but no checkpoint.
    void drop_stores_without_checkpoint();
    void wipe_store_directory(const std::string& store, const std::string& topic, const std::string& why);

    const topology_model& model_;
    const topology_groups& groups_;
    const subtopology_group& sub_;
    kstreams::task_id id_;
    task_environment& env_;

    std::vector<std::unique_ptr<node>> nodes_;  // topological order
    std::unordered_map<const node*, std::size_t> node_def_index_;
    /// The stand-ins wired between nodes: with node metrics the counting ones, and the terminal
    /// processors' e2e latency.
    std::vector<std::unique_ptr<node>> counting_nodes_;
    std::optional<latency_recorder> punctuate_latency_;
    /// What a record pays at its source, resolved at init: the definition (its timestamp
    /// extractor), record-e2e-latency, and with node metrics its counter.
    struct source_slot {
        const source_node* source = nullptr;
        const node_def* def = nullptr;
        std::optional<e2e_latency_recorder> latency;
        std::uint64_t* count = nullptr;
    };
    /// A task has a handful of sources; runs of records come from one, so the slot found last is
    /// tried first (extract_timestamp and process ask for the same source in a row).
    std::vector<source_slot> sources_;
    std::size_t last_source_ = 0;
    source_slot* slot_of(const source_node& src) {
        if (last_source_ < sources_.size() && sources_[last_source_].source == &src) return &sources_[last_source_];
        for (std::size_t i = 0; i < sources_.size(); ++i)
            if (sources_[i].source == &src) {
                last_source_ = i;
                return &sources_[i];
            }
        return nullptr;
    }
    /// record-e2e-latency of the sinks (each records its own, e2e_latency_at) and of the terminal
    /// processors (through their stand-ins), timed with the wall clock of the current turn (or of
    /// the last flush).
    class sink_latency;
    std::unordered_map<const node*, std::unique_ptr<sink_latency>> sink_latencies_;
    class raw_releasing_collector;
    std::unique_ptr<raw_releasing_collector> raw_releasing_;  ///< sinks' collector when raw bytes are kept
    std::int64_t turn_now_ms_ = 0;
    std::map<std::string, source_node*, std::less<>> sources_by_topic_;
    std::vector<std::pair<std::string, source_node*>> pattern_sources_;
    std::map<std::string, std::unique_ptr<state_store>, std::less<>> stores_;
    std::vector<state_store*> store_order_;  // as the topology lists them: init and flush order
    std::shared_ptr<std::recursive_mutex> store_lock_ = std::make_shared<std::recursive_mutex>();
    store_resources resources_;
    state::task_directory_lock dir_lock_;  // held while the task has persistent stores open
    std::vector<changelog_registration> changelogs_;
    std::map<std::string, std::string, std::less<>> changelog_topic_of_;
    std::set<std::string, std::less<>> source_changelog_stores_;  ///< restored from a source topic

    punctuation_queue stream_time_punctuations_;
    punctuation_queue wall_clock_punctuations_;

    std::int64_t stream_time_ = -1;
    std::set<std::string, std::less<>> recompute_stores_;  ///< recovered by recomputation
    offset_holds holds_{*this};
    processor_metadata_map processor_metadata_;
    restoring_batch restoring_;
    /// Topics of records kept by record cache entries (current_stored_metadata).
    std::set<std::string, std::less<>> stored_topics_;
    const std::string* last_stored_topic_ = nullptr;
    /// Cache entries keep their writer's raw key and value (for the error handlers' context)
    /// only where a handler may read them: a dead-letter queue or a handler of the user's.
    bool keep_raw_ = false;
    std::shared_ptr<const state::raw_bytes> raw_copy_;  ///< of raw_, made at the first cache write
    /// Set by set_stored_metadata (a cache flush): the raw record of the entry's writer.
    bool stored_override_ = false;
    std::shared_ptr<const state::raw_bytes> stored_raw_;
    record_metadata metadata_;
    bool has_metadata_ = false;
    /// The last offset processed per input partition (a handful: searched linearly per record).
    struct processed_offset {
        std::string topic;
        std::int32_t partition = 0;
        std::int64_t offset = -1;
    };
    std::vector<processed_offset> processed_;
    std::size_t last_processed_ = 0;  ///< the entry note_processed matched last: tried first
    void note_processed(const raw_record& raw);
    bool reads_global_ = false;  ///< a processor asked for a global store written by another thread
    const raw_record* raw_ = nullptr;  ///< the source record being processed (for the error handlers)
    bool commit_requested_ = false;
    bool initialized_ = false;
    bool skipped_ = false;  ///< the record being processed was skipped (log-and-continue)
    std::map<std::string, bool, std::less<>> warned_;

    using held_offsets = std::map<std::pair<std::string, std::int32_t>, std::map<std::int64_t, int>>;
    struct async_record {
        held_offsets::iterator partition;  ///< valid when anchored
        bool anchored = false;
        record_metadata metadata;  ///< its topic points into the key of `partition`
        std::list<async_record>::iterator self;
    };
    held_offsets async_holds_;
    std::list<async_record> async_records_;
    std::atomic<std::size_t> async_in_flight_{0};  ///< read by the thread's loop too
    std::size_t async_unanchored_ = 0;
    std::exception_ptr async_error_;
    bool stream_punctuation_waiting_ = false;
    bool wall_punctuation_waiting_ = false;
    /// task_context::task_slot: state the task's processors share, dropped when it closes.
    task_slots slots_;
};

}  // namespace kstreams::detail
