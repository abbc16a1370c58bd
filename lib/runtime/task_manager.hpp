// The runtime core (DESIGN.md §3): one task manager per stream thread, and one for the test driver.
// It owns the active and suspended tasks, their partition groups, punctuation, the commit protocol
// (flush caches, flush the producer, commit offsets, checkpoint) and restoration as a state machine
// that advances a bounded batch per step. It talks to the outside only through the ports of
// ports.hpp, so the Kafka loop and the test driver run the same code.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <kstreams/error.hpp>
#include <kstreams/state/restore_listener.hpp>
#include <kstreams/task_id.hpp>

#include "lib/observe/snapshot.hpp"
#include "lib/runtime/partition_group.hpp"
#include "lib/runtime/ports.hpp"
#include "lib/runtime/stream_task.hpp"

namespace kstreams::state {
class corrupted_store_error;
}

namespace kstreams::detail {

class query_registry;
struct query_slot;

/// A store found corrupted this many times in a row (wiped and restored each time but the last)
/// fails the thread.
inline constexpr int max_corruption_retries = 3;

struct task_manager_config {
    std::string name = "task-manager";  ///< for messages: the stream thread's name
    /// max.task.idle.ms; negative: never wait for an empty partition.
    std::int64_t max_task_idle_ms = 0;
    std::size_t buffered_records_per_partition = 1000;
    /// Records a task processes per round before the others get their turn.
    std::size_t records_per_round = 1000;
    /// commit.interval.ms; 0 commits after every round, negative only when a processor asks.
    std::int64_t commit_interval_ms = 30000;
    /// Restoration fails naming the store if no changelog record arrives for this long.
    std::chrono::milliseconds restore_stall_timeout{60000};
    /// Changelog records applied per restore step (and per batch a store's restore sees).
    std::size_t restore_batch = 1000;
    state_restore_listener* restore_listener = nullptr;
    /// Under at-least-once a commit writes a checkpoint only once the changelogs moved more than
    /// this far past the last one (as Kafka Streams); suspending and closing always write one.
    std::int64_t checkpoint_delta = 10000;
    /// Creates each task's directory under the state directory when the task is created (the Kafka
    /// runtime; the test driver leaves that to the stores).
    bool create_task_directories = true;
    /// Records a task may have in flight in async processors; the task takes no new record at the
    /// bound (so a record that fans out may pass it).
    std::size_t max_async_in_flight = 64;
    /// Set by a runner whose tasks run at once on several threads (the Kafka runtime, one strand
    /// per task): each task then gets an environment of its own, with its own counters, its own
    /// front to the producer (producer_port::task_collector) and this executor for its async
    /// processors, so that tasks share nothing that is not thread-safe. Unset (the test driver):
    /// every task uses the runner's environment.
    std::function<boost::asio::any_io_executor()> make_task_executor;
    /// A store found corrupted while its task runs: close the task dirty, wipe and restore the
    /// store, process again from the last commit (the Kafka runtime; done by restore_step, between
    /// rounds). Off: the error is thrown (the test driver, which cannot read its input again).
    bool revive_corrupted_tasks = true;
    /// The runner assigns partitions with committed offsets (the Kafka runtime): a store whose
    /// changelog is a source topic restores up to them. Without (the test driver), to the end.
    bool committed_offsets = true;
    /// processing.guarantee=exactly_once_v2: a commit is the producer's transaction
    /// (producer_port::commit_transaction) instead of a flush and the consumer's commit; a task's
    /// checkpoint file is deleted once read and written only when the task is suspended or closed
    /// cleanly (so after a crash the stores are wiped and restored, never trusted); tasks closed
    /// dirty abort the transaction; a store corrupted mid-run fails the thread's transaction
    /// (task_migrated_error) instead of reviving the one task, since the others' work is in it too.
    bool exactly_once = false;
    /// Interactive queries: the tasks are registered here while they are open (the Kafka runtime).
    std::shared_ptr<query_registry> queries;
    /// Standby replicas (the Kafka runtime): told before a task's stores open here, so that this
    /// instance's standby of the task closes first (its checkpoint then says where restoration
    /// starts: only what the standby lacks is restored), and once they closed again (checkpoint written).
    std::function<void(kstreams::task_id)> opening_task;
    std::function<void(kstreams::task_id)> closed_task;
    /// A task's turn (turn()) ends early at the commit deadline, or once the runner asks
    /// (yield_turns), rather than after records_per_round records (Kafka's StreamThread sizes its
    /// process loop by the time left to the commit interval): so a slow task delays a commit or a
    /// rebalance by a few milliseconds (or one record), not by a whole turn. The clock is read
    /// between records only as often as the task's pace needs (never per record for fast ones).
    /// Off (the test driver): turns are as long as records_per_round.
    bool bound_turns = false;
};

/// Restoration progress of one store's changelog partition.
struct restoration_progress {
    kstreams::task_id task;
    std::string store;
    topic_partition changelog;
    std::int64_t restored = 0;
    std::int64_t remaining = -1;  ///< -1 while the end offset is not known yet
};

class task_manager {
public:
    /// A task as the manager keeps it (its partitions, restoration, commit state).
    struct managed_task;
    /// What one task's turn did.
    struct turn_result {
        bool progressed = false;
        std::optional<std::int64_t> idle_until;  ///< when the task stops waiting on an empty partition
    };

    /// The sub-topology whose tasks read `topic` (already prefixed), or nullptr if none does.
    using subtopology_resolver = std::function<const subtopology_group*(std::string_view topic)>;

    task_manager(const topology_model& model, const topology_groups& groups, task_environment& env,
                 consumer_port& consumer, producer_port& producer, restore_reader& restorer,
                 subtopology_resolver resolve, task_manager_config config);
    ~task_manager();
    task_manager(const task_manager&) = delete;
    task_manager& operator=(const task_manager&) = delete;

    // ---- assignment ---------------------------------------------------------------------------
    /// Adds partitions to the assignment: their tasks come back from suspension as they were, or
    /// are created and start restoring; suspended tasks not assigned again are closed. Looks up the
    /// committed offsets and hands the partitions to the consumer.
    void assign(const std::vector<topic_partition>& parts);
    /// Creates (or returns) a task without partitions yet, restoring its stores.
    stream_task& add_task(const subtopology_group& sub, kstreams::task_id id);
    /// Eager revocation: commits, then suspends every task (state kept, restoration paused) in case
    /// it is assigned again; buffered records are dropped (refetched from the commit).
    void revoke();
    /// The partitions were lost (or the thread failed): closes every task without committing.
    void lose();

    // ---- one turn of the loop ---------------------------------------------------------------
    /// Applies up to one batch of changelog records to restoring stores; tasks whose stores are
    /// all restored start processing. Returns whether anything happened.
    bool restore_step();
    /// Tops up the buffers of running tasks from the consumer; returns whether anything came.
    bool fill_buffers();
    /// Tops up one partition's buffer (the test driver, in the order records arrive).
    bool fill(const topic_partition& tp);
    /// Processes up to records_per_round records per running task. `idle_until` is set to when a
    /// task waiting on an empty partition gives up waiting. Returns whether any was processed.
    bool process(std::optional<std::int64_t>& idle_until);
    /// Fires due wall-clock punctuations; returns whether any fired.
    bool punctuate_wall_clock();
    /// Commits if a processor asked or commit.interval.ms passed; returns whether it committed.
    bool maybe_commit();
    /// The commit protocol: flush caches, flush the producer, commit offsets, then checkpoint
    /// (always when `force_checkpoint`, else once enough was logged since the last one).
    void commit(bool force_checkpoint = false);
    /// Closes every task. A clean close commits first and writes checkpoints; a dirty one drops
    /// what the caches hold.
    void close(bool clean);
    /// Earliest wall-clock time something is due (commit unless `with_commit` is false, punctuation).
    std::int64_t next_deadline(bool with_commit = true) const;

    // ---- the same turn, one task at a time ------------------------------------------------
    // A runner that runs tasks on threads of their own calls these on each task's executor (for
    // each task, one at a time; for different tasks, at once) instead of fill_buffers, process,
    // punctuate_wall_clock and the first half of commit. Between such rounds it owns the manager.
    /// Tasks that take records (assigned and restored).
    std::vector<managed_task*> running_tasks();
    /// Every assigned task, restoring or not.
    std::vector<managed_task*> managed_tasks();
    /// The executor of the task's async processors (its strand), or null if the runner has none.
    boost::asio::any_io_executor executor_of(managed_task& t) const;
    /// Tops up the task's buffers, processes up to records_per_round of its records, fires its
    /// due wall-clock punctuations. Throws what processing threw.
    turn_result turn(managed_task& t);
    /// A runner that lets tasks' turns run while it goes on (the Kafka loop: a slow task does not
    /// hold up the others) marks each turn: begin_turn before handing it to the task's executor,
    /// end_turn back on the runner's side once it ended (publishing the task's counters and next
    /// punctuation). Meanwhile the manager leaves the task alone: fetchable, commit_due and
    /// restore_step skip it, and the runner must not assign, revoke, commit or close until no
    /// task is in a turn.
    void begin_turn(managed_task& t);
    void end_turn(managed_task& t);
    static bool in_turn(const managed_task& t);
    /// Whether a commit is due (a processor asked, or commit.interval.ms passed).
    bool commit_due() const;
    /// The first half of a commit, per task: flushes its caches and notes the offsets to commit.
    void prepare_commit(managed_task& t);
    /// The second half, once every task is prepared: flush the producer, commit the offsets,
    /// checkpoint.
    void finish_commit(bool force_checkpoint);
    /// Exactly-once, the second half in three steps, so that the tasks may take turns while the
    /// transaction commits (the runner parks what they send meanwhile for the next transaction):
    /// begin_commit notes the prepared offsets (false when no task is active: nothing to do);
    /// commit_transaction commits them with the open transaction, on any thread, while the
    /// runner leaves the manager alone but for turns (no assignment, restoration, commit or
    /// close); end_commit, once no task is in a turn, records them as committed, with `acked` the
    /// changelog offsets acknowledged when the transaction committed (not the next one's).
    bool begin_commit();
    void commit_transaction();
    void end_commit(const checkpoint_offsets& acked, bool force_checkpoint = false);
    /// Closes the task's processors and stores without committing (as a dirty close), on the thread
    /// that runs it, so that no async record resumes in it afterwards; lose() or close(false)
    /// then finishes it.
    void stop(managed_task& t) noexcept;
    /// Whether a running task's partition has records waiting at the consumer.
    bool fetchable() const;
    /// Counters of the tasks (with their own environments) as of their last turn, and of the
    /// tasks closed since the start; empty without make_task_executor.
    kstreams::metrics task_metrics() const;
    /// Each assigned task (active and suspended); empty without make_task_executor.
    std::vector<task_snapshot> task_snapshots() const;

    /// While held, process() takes no new records (so that records in flight drain before a
    /// revocation or a close).
    void hold_processing(bool on) { hold_processing_.store(on, std::memory_order_relaxed); }
    /// With bound_turns: while set, turns in progress end at their next look at the clock (the
    /// runner waits for them: to commit, rebalance or close).
    void yield_turns(bool on) { yield_turns_.store(on, std::memory_order_relaxed); }

    // ---- queries ------------------------------------------------------------------------------
    /// Records in flight in async processors, over all tasks. Close and revoke only once it is 0.
    std::size_t async_in_flight() const;
    /// Throws the first error of an async record of any task.
    void rethrow_async_errors() const;
    bool restoring() const { return !restoring_.empty(); }
    bool has_buffered() const;
    std::vector<restoration_progress> restoration() const;
    stream_task* find_task(kstreams::task_id id);
    std::vector<stream_task*> tasks();
    std::vector<kstreams::task_id> suspended_tasks() const;
    bool is_restoring(kstreams::task_id id) const;

private:
    struct restore_target;
    class restore_applier;

    managed_task& create(const subtopology_group& sub, kstreams::task_id id);
    /// Creates and initializes a task; a store found corrupted while opening is wiped (if it has a
    /// changelog) and the task opened again.
    std::unique_ptr<stream_task> open_task(const subtopology_group& sub, kstreams::task_id id, task_environment& env,
                                           const std::shared_ptr<std::recursive_mutex>& store_lock);
    /// Tells queries what the task does now (restoring, running, suspended; closed with null).
    void publish(managed_task& t, bool suspended = false);
    /// Deletes a store's local directory (warned with `why`, counted).
    void wipe_store(kstreams::task_id id, const std::string& store, const std::filesystem::path& dir,
                    const std::string& why);
    /// The error for a corrupted store that is not wiped (no changelog, or corrupted again).
    streams_error unrecoverable_corruption(const state::corrupted_store_error& e, bool logged, int attempts) const;
    /// Closes the task dirty, wipes the stores named (store, why), opens it again and restores
    /// them; its input partitions go back to their committed offsets.
    void revive(managed_task& t, const std::vector<std::pair<std::string, std::string>>& wipes);
    /// A store of a running task was found corrupted (on the task's own thread): the task stops
    /// taking records until restore_step revives it (or, without revive_corrupted_tasks, throws).
    void note_corruption(managed_task& t, const state::corrupted_store_error& e);
    /// Revives the tasks noted corrupted, or fails; whether there were any.
    bool revive_corrupted();
    /// Before a partition's first record: the task's processors start from what its commit noted
    /// (offset holds of recovery by recomputation, processor metadata).
    void recover_holds(managed_task& t, partition_queue& q);
    void start_restoring(managed_task& t);
    void finish_restoring(managed_task& t);
    void finish_target(managed_task& t, restore_target& target);
    void close_suspended();
    void close_task(managed_task& t, bool clean);
    void write_checkpoint_of(managed_task& t, bool force);
    /// As above, with the changelog offsets acknowledged as of the commit.
    void write_checkpoint_of(managed_task& t, bool force, const checkpoint_offsets& acked);
    void write_checkpoints(const checkpoint_offsets& acked, bool force_checkpoint);
    /// The offsets of the commit (commit_offsets_) are committed: the queues remember them.
    void note_committed();
    /// Exactly-once: the task runs, so its checkpoint file goes (Kafka's rule: none is trusted
    /// after an unclean stop); it is written again on a clean suspend or close.
    void delete_checkpoint_of(managed_task& t);
    /// Exactly-once: aborts the open transaction after tasks were closed dirty.
    void abort_transaction(bool throwing);
    void suspend_restoration(managed_task& t);
    void process_one(managed_task& t, partition_queue& q, std::int64_t now);
    bool fill(managed_task& t, partition_queue& q);
    /// Up to records_per_round records of the task (in a bounded turn, fewer once the commit is
    /// due or the runner asks the turns to end); whether it processed any.
    bool process_task(managed_task& t, std::int64_t now, std::optional<std::int64_t>& idle_until,
                      bool bounded = false);
    void retire(managed_task& t);

    const topology_model& model_;
    const topology_groups& groups_;
    task_environment& env_;
    consumer_port& consumer_;
    producer_port& producer_;
    restore_reader& restorer_;
    subtopology_resolver resolve_;
    task_manager_config config_;

    std::map<kstreams::task_id, std::unique_ptr<managed_task>> active_;
    std::map<kstreams::task_id, std::unique_ptr<managed_task>> suspended_;
    std::map<topic_partition, std::pair<managed_task*, partition_queue*>> partitions_;
    std::vector<managed_task*> restoring_;
    std::vector<partition_offset> commit_offsets_;
    std::vector<partition_queue*> commit_queues_;
    std::int64_t next_commit_ = 0;
    std::chrono::steady_clock::time_point last_restore_progress_{};
    kstreams::metrics closed_task_metrics_;  ///< counters of closed tasks with their own environment
    std::atomic<bool> hold_processing_{false};  ///< read by turns on the tasks' threads
    std::atomic<bool> yield_turns_{false};      ///< read by turns on the tasks' threads
};

}  // namespace kstreams::detail
