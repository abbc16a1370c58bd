#include "lib/runtime/task_manager.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include <kstreams/error.hpp>

#include "lib/core/log.hpp"
#include "lib/runtime/checkpoint.hpp"
#include "lib/runtime/query_registry.hpp"
#include "lib/state/corrupted_store.hpp"

namespace kstreams::detail {

namespace {
/// Recovery by recomputation: records processed again after a restart because a commit held them.
constexpr std::string_view records_replayed_metric = "records-replayed";
/// ... and, per input partition, how many records after the committed offset were processed
/// (the commit holds them for open windows): `commit-held-records.<topic>.<partition>`.
const std::string commit_held_metric = "commit-held-records.";
}  // namespace

std::string describe(const topic_partition& tp) {
    return "topic " + tp.topic + ", partition " + std::to_string(tp.partition);
}

/// One store changelog partition of a restoring task.
struct task_manager::restore_target {
    const changelog_registration* reg = nullptr;
    topic_partition tp;
    std::int64_t checkpoint = -1;  ///< a persistent store's checkpointed offset, -1 = none
    std::int64_t end = -1;         ///< the changelog's end when restoration started; -1 = not known yet
    std::int64_t position = -1;    ///< next changelog offset to apply
    /// A source topic's (reg->source_topic): restoration stops at the task's committed offset,
    /// where processing takes over (0 when nothing is committed); -2 = not known yet.
    std::int64_t limit = -2;
    std::int64_t restored = 0;
    bool reading = false;  ///< handed to the restore reader
    bool started = false;  ///< the listener was told it started
    bool done = false;
};

struct task_manager::managed_task {
    const subtopology_group* sub = nullptr;
    /// A store found corrupted while the task ran, until restore_step revives the task.
    std::optional<state::corrupted_store_error> corrupted;
    /// Times its stores were found corrupted since its offsets were last committed.
    int corruptions = 0;
    // With make_task_executor: the task's own environment, counters and producer front (declared
    // before the task, which uses them until it is destroyed).
    std::unique_ptr<task_environment> env;
    kstreams::metrics metrics;
    std::unique_ptr<record_collector> collector;
    kstreams::metrics published;  ///< `metrics` as of the task's last turn, for other threads to read
    std::unique_ptr<stream_task> task;
    std::uint64_t* processed = nullptr;  ///< records-processed
    headers scratch;
    std::vector<fetched_record> fetch_buffer;
    std::int64_t next_punctuation = INT64_MAX;  ///< as of the last turn
    bool in_turn = false;  ///< between begin_turn and end_turn (the runner's side only)
    /// Bounded turns: records between looks at the clock, adapted to the task's pace (halved when
    /// a millisecond or more passed between two looks, doubled when none did).
    std::size_t records_per_look = 64;
    /// Offsets to commit (with their metadata), noted by prepare_commit.
    struct commit_entry {
        partition_queue* queue = nullptr;
        std::int64_t offset = 0;
        std::string metadata;
    };
    std::vector<commit_entry> to_commit;
    std::uint64_t* replayed = nullptr;  ///< records-replayed (recovery by recomputation)
    partition_group group;
    /// Per changelog partition, the next offset the stores do not hold yet (what a checkpoint says).
    checkpoint_offsets changelog_offsets;
    checkpoint_offsets checkpointed;  ///< what the task's checkpoint file said when last written
    std::vector<restore_target> restore;
    bool restoring = false;
    std::uint64_t restored = 0;  ///< records restored into its stores since it was created
    /// The task as interactive queries see it; its lock is the task's store lock.
    std::shared_ptr<query_slot> slot;
};

/// Applies what the restore reader delivers to the targets it belongs to.
class task_manager::restore_applier final : public restore_sink {
public:
    restore_applier(task_manager& tm) : tm_(tm) {
        for (managed_task* t : tm.restoring_)
            for (auto& target : t->restore)
                if (target.reading && !target.done) targets_[target.tp] = {t, &target};
    }
    void on_records(const topic_partition& tp, std::span<const restore_record> records,
                    std::int64_t last_offset, const restore_batch_details* details) override {
        auto it = targets_.find(tp);
        if (it == targets_.end() || it->second.second->done) return;
        auto& [t, target] = it->second;
        if (target->reg->source_topic && last_offset >= target->end && !records.empty()) {
            // Records past the committed offset are the task's to process, not to restore; the
            // cut is exact when the batch's offsets are consecutive (else all are applied, which
            // a table's store takes as the same updates again).
            const auto n = static_cast<std::int64_t>(records.size());
            if (last_offset - target->position + 1 == n)
                records = records.first(static_cast<std::size_t>(std::clamp<std::int64_t>(target->end - target->position, 0, n)));
        }
        if (!records.empty()) {
            t->task->restore(*target->reg, tp, records, details);
            const auto n = static_cast<std::int64_t>(records.size());
            target->restored += n;
            t->restored += static_cast<std::uint64_t>(n);
            tm_.env_.metrics->counter("records-restored") += static_cast<std::uint64_t>(n);
            if (auto* l = tm_.config_.restore_listener)
                l->on_batch_restored(tp.topic, tp.partition, target->reg->store->name(), last_offset, n);
        }
        target->position = last_offset + 1;
        t->changelog_offsets[{tp.topic, tp.partition}] = target->position;
        // Exactly-once: the end known at the start is the last stable offset, which an open
        // transaction holds back while committed records follow it: only the reader's end counts.
        if (target->position >= target->end && !tm_.config_.exactly_once) tm_.finish_target(*t, *target);
    }
    void on_end(const topic_partition& tp) override {
        auto it = targets_.find(tp);
        if (it == targets_.end() || it->second.second->done) return;
        tm_.finish_target(*it->second.first, *it->second.second);
    }

private:
    task_manager& tm_;
    std::map<topic_partition, std::pair<managed_task*, restore_target*>> targets_;
};

task_manager::task_manager(const topology_model& model, const topology_groups& groups, task_environment& env,
                           consumer_port& consumer, producer_port& producer, restore_reader& restorer,
                           subtopology_resolver resolve, task_manager_config config)
    : model_(model), groups_(groups), env_(env), consumer_(consumer), producer_(producer), restorer_(restorer),
      resolve_(std::move(resolve)), config_(std::move(config)) {
    next_commit_ = env_.wall_clock() + std::max<std::int64_t>(0, config_.commit_interval_ms);
}

task_manager::~task_manager() {
    if (active_.empty() && suspended_.empty()) return;
    try {
        close(false);
    } catch (const std::exception& e) {
        KSTREAMS_LOG(warn, config_.name + ": closing tasks: " + e.what());
    }
}

// ---- assignment -------------------------------------------------------------------------------

task_manager::managed_task& task_manager::create(const subtopology_group& sub, kstreams::task_id id) {
    auto t = std::make_unique<managed_task>();
    task_environment* env = &env_;
    if (config_.make_task_executor) {
        t->env = std::make_unique<task_environment>(env_);
        t->env->metrics = &t->metrics;
        t->collector = producer_.task_collector(t->metrics);
        if (t->collector) t->env->collector = t->collector.get();
        t->env->executor = config_.make_task_executor();
        env = t->env.get();
    }
    t->processed = &env->metrics->counter(metric::records_processed);
    t->sub = &sub;
    t->slot = std::make_shared<query_slot>(id);
    if (config_.opening_task) config_.opening_task(id);
    try {
        t->task = open_task(sub, id, *env, t->slot->lock);
    } catch (...) {
        if (config_.closed_task) config_.closed_task(id);
        throw;
    }
    if (t->task->holds_offsets()) t->replayed = &env->metrics->counter(records_replayed_metric);
    t->next_punctuation = t->task->next_wall_clock_punctuation();
    managed_task& ref = *t;
    active_[id] = std::move(t);
    start_restoring(ref);
    publish(ref);
    if (config_.queries) config_.queries->add(ref.slot);
    return ref;
}

void task_manager::publish(managed_task& t, bool suspended) {
    if (!t.slot) return;
    std::lock_guard lock(*t.slot->lock);
    t.slot->task = t.task.get();
    t.slot->phase = suspended ? query_slot::phase::suspended
                    : t.restoring ? query_slot::phase::restoring
                                  : query_slot::phase::running;
}

std::unique_ptr<stream_task> task_manager::open_task(const subtopology_group& sub, kstreams::task_id id,
                                                    task_environment& env,
                                                    const std::shared_ptr<std::recursive_mutex>& store_lock) {
    for (int attempt = 1;; ++attempt) {
        auto task = std::make_unique<stream_task>(model_, groups_, sub, id, env);
        if (store_lock) task->share_store_lock(store_lock);
        if (config_.create_task_directories && !env_.state_dir.empty())
            std::filesystem::create_directories(task->task_directory());
        try {
            task->init();
            ++env_.metrics->counter(internal_metric::task_created);
            return task;
        } catch (const state::corrupted_store_error& e) {
            // A store found corrupted while opening: the task has not run, so wiping the store and
            // opening the task again is all it takes (the store, found fresh, drops its checkpoint).
            const bool logged = task->changelog_topic_of(e.store()) != nullptr;
            task.reset();  // closes what did open, releases the task directory
            if (!logged || attempt >= max_corruption_retries) throw unrecoverable_corruption(e, logged, attempt);
            wipe_store(id, e.store(), e.directory(), e.what());
        }
    }
}

streams_error task_manager::unrecoverable_corruption(const state::corrupted_store_error& e, bool logged,
                                                      int attempts) const {
    if (!logged)
        return streams_error(config_.name + ": " + e.what() +
                             "; the store has no changelog to restore it from, so its files are left as they are "
                             "(delete " + e.directory().string() +
                             ", or call kafka_streams::clean_up(), to start it empty)");
    return streams_error(config_.name + ": " + e.what() + "; giving up after wiping and restoring it " +
                         std::to_string(attempts - 1) + " times in a row");
}

void task_manager::wipe_store(kstreams::task_id id, const std::string& store, const std::filesystem::path& dir,
                              const std::string& why) {
    KSTREAMS_LOG(warn, config_.name + ": task " + id.to_string() + ": " + why + "; wiping " + dir.string() +
                           " and restoring store " + store + " from its changelog");
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    if (ec)
        throw streams_error(config_.name + ": store " + store + ": cannot wipe its directory " + dir.string() + ": " +
                            ec.message());
    ++env_.metrics->counter(state::stores_wiped_metric);
}

void task_manager::revive(managed_task& t, const std::vector<std::pair<std::string, std::string>>& wipes) {
    const kstreams::task_id id = t.task->id();
    const std::filesystem::path task_dir = t.task->task_directory();
    if (t.restoring) {
        suspend_restoration(t);
        restoring_.erase(std::remove(restoring_.begin(), restoring_.end(), &t), restoring_.end());
    }
    t.restoring = false;
    t.restore.clear();
    t.to_commit.clear();
    // A dirty close, as Kafka's for a corrupted task: what the caches hold is dropped and no
    // checkpoint is written; the input is processed again from the last commit.
    stop(t);
    std::vector<std::string> topics;
    for (const auto& [store, why] : wipes)
        if (const std::string* topic = t.task->changelog_topic_of(store)) topics.push_back(*topic);
    t.task.reset();
    for (const auto& [store, why] : wipes) wipe_store(id, store, state::store_directory(task_dir, store), why);
    if (!task_dir.empty() && std::filesystem::exists(task_dir / ".checkpoint")) {
        checkpoint_offsets cp = read_checkpoint(task_dir);
        for (const auto& topic : topics) cp.erase({topic, id.partition});
        write_checkpoint(task_dir, cp);
    }
    t.changelog_offsets.clear();
    t.checkpointed.clear();
    std::vector<topic_partition> parts;
    for (const auto& q : t.group.queues()) parts.push_back(q->tp());
    t.group = partition_group{};  // gives the buffered records back
    t.task = open_task(*t.sub, id, t.env ? *t.env : env_, t.slot ? t.slot->lock : nullptr);
    t.next_punctuation = t.task->next_wall_clock_punctuation();
    const std::vector<std::int64_t> committed = consumer_.committed(parts);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const topic_partition& tp = parts[i];
        partition_queue& q = t.group.add(tp, t.task->source_for(tp.topic), consumer_);
        partitions_[tp] = {&t, &q};
        const std::int64_t offset = i < committed.size() ? committed[i] : consumer_port::unknown_offset;
        if (offset >= 0) {
            q.set_start(offset);
            q.committed = offset;
        }
        recover_holds(t, q);
        consumer_.seek(tp, offset);
    }
    start_restoring(t);
    publish(t);
    if (t.restoring)
        for (const auto& tp : parts) consumer_.pause(tp);
}

void task_manager::note_corruption(managed_task& t, const state::corrupted_store_error& e) {
    if (!config_.revive_corrupted_tasks)
        throw streams_error(config_.name + ": " + e.what() + " (" + config_.name +
                            " cannot read its input again to restore the store while it runs)");
    if (!t.corrupted) t.corrupted.emplace(e);
}

bool task_manager::revive_corrupted() {
    bool any = false;
    for (auto& [id, t] : active_) {
        if (t->in_turn || !t->corrupted) continue;
        const state::corrupted_store_error e = std::move(*t->corrupted);
        t->corrupted.reset();
        any = true;
        const bool logged = t->task->changelog_topic_of(e.store()) != nullptr;
        if (!logged || ++t->corruptions >= max_corruption_retries)
            throw unrecoverable_corruption(e, logged, t->corruptions);
        // Exactly-once: every task's work since the last commit is in the thread's transaction,
        // so all of them go back to it (the transaction aborted, the stores restored).
        if (config_.exactly_once)
            throw task_migrated_error(config_.name + ": " + e.what() + "; under exactly-once the thread's transaction "
                                      "is aborted and its tasks restart from the last commit");
        // Records in flight in async processors resume on the task's own executor: the task cannot
        // be closed from here under them. The thread fails instead (its tasks are then closed on
        // their executors); the corruption is found again, and handled, when the task next runs.
        if (t->task->async_in_flight() > 0)
            throw streams_error(config_.name + ": " + e.what() + "; task " + id.to_string() +
                                " has records in flight in async processors, so it cannot be revived in place");
        KSTREAMS_LOG(warn, config_.name + ": task " + id.to_string() +
                               ": closing it without committing, to restore a corrupted store and process its "
                               "input again from the last commit");
        revive(*t, {{e.store(), e.what()}});
    }
    return any;
}

stream_task& task_manager::add_task(const subtopology_group& sub, kstreams::task_id id) {
    if (auto it = active_.find(id); it != active_.end()) return *it->second->task;
    if (auto it = suspended_.find(id); it != suspended_.end() && it->second->task->holds_offsets()) {
        // Its stores recovered by recomputation hold records past its committed offsets, where
        // processing resumes: the task starts afresh and rebuilds them from there.
        close_task(*it->second, true);
        write_checkpoint_of(*it->second, true);
        retire(*it->second);
        suspended_.erase(it);
    }
    if (auto it = suspended_.find(id); it != suspended_.end()) {
        managed_task& t = *(active_[id] = std::move(it->second));
        suspended_.erase(it);
        if (t.restoring) restoring_.push_back(&t);
        if (config_.exactly_once) delete_checkpoint_of(t);  // it runs again: written at suspension
        publish(t);
        return *t.task;
    }
    return *create(sub, id).task;
}

void task_manager::recover_holds(managed_task& t, partition_queue& q) {
    // Offset holds, processor metadata (an emit-on-close aggregation's progress) and the partition
    // time, where the stream time resumes (unless held records replay and rebuild it).
    auto metadata = consumer_.committed_metadata(q.tp());
    if (!metadata) return;
    const auto recovered = t.task->recover(q.topic(), q.partition(), *metadata);
    t.group.replay_until(q, recovered.replay_until);
    if (recovered.partition_time < 0 || t.task->holds_offsets()) return;
    q.resume_partition_time(recovered.partition_time);
    t.task->resume_stream_time(recovered.partition_time);
}

void task_manager::assign(const std::vector<topic_partition>& parts) {
    std::vector<topic_partition> added;
    for (const auto& tp : parts) {
        if (partitions_.count(tp)) continue;
        const subtopology_group* sub = resolve_(tp.topic);
        if (!sub) continue;
        const kstreams::task_id id{sub->id, tp.partition};
        add_task(*sub, id);
        managed_task& t = *active_[id];
        source_node* src = t.task->source_for(tp.topic);
        if (!src)
            throw streams_error(config_.name + ": no source of task " + id.to_string() + " reads topic " + tp.topic);
        partitions_[tp] = {&t, &t.group.add(tp, src, consumer_)};
        added.push_back(tp);
    }
    close_suspended();
    if (added.empty()) return;
    // Where each partition resumes, for the lag estimate of empty partitions.
    const std::vector<std::int64_t> committed = consumer_.committed(added);
    for (std::size_t i = 0; i < added.size() && i < committed.size(); ++i) {
        if (committed[i] >= 0) partitions_[added[i]].second->set_start(committed[i]);
        recover_holds(*partitions_[added[i]].first, *partitions_[added[i]].second);
        // A store restored from this (source) partition stops where processing resumes.
        for (auto& target : partitions_[added[i]].first->restore)
            if (target.reg->source_topic && target.tp == added[i]) target.limit = std::max<std::int64_t>(0, committed[i]);
    }
    consumer_.assign(added, committed);
    for (const auto& tp : added)
        if (partitions_[tp].first->restoring) consumer_.pause(tp);
    std::string ids;
    for (const auto& [id, t] : active_) ids += " " + id.to_string() + (t->restoring ? "(restoring)" : "");
    KSTREAMS_LOG(info, config_.name + ": assigned " + std::to_string(added.size()) + " partitions, " +
                           std::to_string(active_.size()) + " tasks:" + ids);
}

void task_manager::revoke() {
    commit(true);
    for (auto& [id, t] : active_) {
        if (t->restoring) suspend_restoration(*t);
        publish(*t, true);
        t->group = partition_group{};
        suspended_[id] = std::move(t);
    }
    partitions_.clear();
    active_.clear();
    restoring_.clear();
    consumer_.unassign();
}

void task_manager::lose() {
    // Exactly-once: what the tasks did since the last commit is in the open transaction; it must
    // not commit with what their successors do. A producer that cannot abort fails the thread.
    abort_transaction(true);
    close(false);
    consumer_.unassign();
}

void task_manager::abort_transaction(bool throwing) {
    if (!config_.exactly_once) return;
    if (throwing) {
        producer_.abort_transaction();
        return;
    }
    try {
        producer_.abort_transaction();
    } catch (const std::exception& e) {
        KSTREAMS_LOG(warn, config_.name + ": aborting the transaction: " + e.what());
    }
}

void task_manager::close_suspended() {
    for (auto& [id, t] : suspended_) {
        close_task(*t, true);
        write_checkpoint_of(*t, true);
        retire(*t);
    }
    suspended_.clear();
}

/// Keeps the counters of a task about to be destroyed (closed, its checkpoint written).
void task_manager::retire(managed_task& t) {
    if (config_.closed_task && t.task) config_.closed_task(t.task->id());
    if (!t.env) return;
    for (const auto& [name, value] : t.metrics.all()) closed_task_metrics_.counter(name) += value;
}

void task_manager::close_task(managed_task& t, bool clean) {
    if (t.restoring) suspend_restoration(t);
    const auto guard = t.task->store_guard();
    if (t.slot) {
        t.slot->task = nullptr;  // queries stop reading it before it closes
        if (config_.queries) config_.queries->remove(t.slot.get());
    }
    ++env_.metrics->counter(internal_metric::task_closed);
    try {
        t.task->close(clean);
    } catch (const std::exception& e) {
        if (clean) throw;
        KSTREAMS_LOG(warn, config_.name + ": closing task " + t.task->id().to_string() + ": " + e.what());
    }
}

void task_manager::close(bool clean) {
    for (auto& [id, t] : suspended_) active_[id] = std::move(t);  // closed below with the rest
    suspended_.clear();
    restoring_.clear();
    for (auto& [id, t] : active_)
        if (t->restoring) restoring_.push_back(t.get());
    if (clean) commit(true);
    for (auto& [id, t] : active_) close_task(*t, clean);
    restoring_.clear();
    if (clean) {
        // What closing processors sent: under exactly-once in a transaction of its own.
        if (config_.exactly_once && !active_.empty()) producer_.commit_transaction({});
        else producer_.flush();
        for (auto& [id, t] : active_) write_checkpoint_of(*t, true);
    } else {
        abort_transaction(false);
    }
    for (auto& [id, t] : active_) retire(*t);
    partitions_.clear();
    active_.clear();
}

// ---- restoration ------------------------------------------------------------------------------

void task_manager::start_restoring(managed_task& t) {
    checkpoint_offsets cp;
    if (t.task->has_persistent_stores() && !env_.state_dir.empty()) cp = read_checkpoint(t.task->task_directory());
    if (config_.exactly_once) delete_checkpoint_of(t);
    for (const auto& reg : t.task->changelogs()) {
        restore_target target;
        target.reg = &reg;
        target.tp = {reg.topic, t.task->id().partition};
        if (reg.store->persistent())
            if (auto it = cp.find({reg.topic, target.tp.partition}); it != cp.end()) target.checkpoint = it->second;
        if (reg.source_topic) {
            if (!config_.committed_offsets) target.limit = INT64_MAX;
            // A task revived after corruption: its partitions are assigned, their commits known.
            else if (auto it = partitions_.find(target.tp); it != partitions_.end())
                target.limit = std::max<std::int64_t>(0, it->second.second->committed);
        }
        t.restore.push_back(std::move(target));
    }
    if (t.restore.empty()) return;
    t.restoring = true;
    restoring_.push_back(&t);
    last_restore_progress_ = std::chrono::steady_clock::now();
}

void task_manager::suspend_restoration(managed_task& t) {
    for (auto& target : t.restore)
        if (target.reading) {
            restorer_.remove(target.tp);
            target.reading = false;
        }
}

void task_manager::finish_target(managed_task& t, restore_target& target) {
    target.done = true;  // restore_step takes it off the reader once the read returns
    target.end = std::max(target.end, target.position);
    if (target.end > 0) t.changelog_offsets[{target.tp.topic, target.tp.partition}] = target.end;
    if (target.started)
        if (auto* l = config_.restore_listener)
            l->on_restore_end(target.tp.topic, target.tp.partition, target.reg->store->name(), target.restored);
    if (target.restored > 0)
        KSTREAMS_LOG(info, config_.name + ": restored " + std::to_string(target.restored) + " records of store " +
                               target.reg->store->name() + " from " + describe(target.tp));
}

void task_manager::finish_restoring(managed_task& t) {
    t.restoring = false;
    publish(t);
    t.restore.clear();
    restoring_.erase(std::remove(restoring_.begin(), restoring_.end(), &t), restoring_.end());
    for (auto& q : t.group.queues()) consumer_.resume(q->tp());
}

bool task_manager::restore_step() {
    bool progressed = revive_corrupted();
    if (restoring_.empty()) return progressed;
    bool reading = false;
    std::vector<std::pair<managed_task*, std::vector<std::pair<std::string, std::string>>>> invalid;
    for (managed_task* t : restoring_)
        for (auto& target : t->restore) {
            if (target.done) continue;
            if (target.end < 0) {
                const auto offsets = restorer_.offsets(target.tp);
                if (!offsets) continue;
                auto [lo, hi] = *offsets;
                if (target.reg->source_topic) {
                    if (target.limit == -2) continue;  // the committed offset comes with the assignment
                    hi = std::min(hi, target.limit);
                }
                if (target.checkpoint >= 0 && (target.checkpoint > hi || target.checkpoint < lo)) {
                    // The store holds records this changelog does not (a state directory from
                    // another cluster, or a changelog deleted and created again) or misses some it
                    // no longer has: its local data cannot be trusted.
                    const std::string why =
                        "store " + target.reg->store->name() + ": its checkpoint (offset " +
                        std::to_string(target.checkpoint) + ") is outside changelog " + describe(target.tp) +
                        " (offsets " + std::to_string(lo) + " to " + std::to_string(hi) + ")";
                    if (invalid.empty() || invalid.back().first != t) invalid.push_back({t, {}});
                    invalid.back().second.emplace_back(target.reg->store->name(), why);
                    continue;
                }
                std::int64_t start = std::max(lo, target.checkpoint < 0 ? lo : target.checkpoint);
                target.end = hi;
                target.position = start;
                progressed = true;
                if (start >= hi && !config_.exactly_once) {
                    finish_target(*t, target);
                    continue;
                }
                target.started = true;
                if (auto* l = config_.restore_listener)
                    l->on_restore_start(target.tp.topic, target.tp.partition, target.reg->store->name(), start, hi);
            }
            if (!target.reading) {
                restorer_.add(target.tp, target.position);
                target.reading = true;
                progressed = true;
            }
            reading = true;
        }
    for (auto& [t, wipes] : invalid) {
        revive(*t, wipes);
        progressed = true;
    }
    if (reading) {
        restore_applier applier(*this);
        if (restorer_.read(config_.restore_batch, applier) > 0) progressed = true;
        for (managed_task* t : restoring_)
            for (auto& target : t->restore)
                if (target.done && target.reading) {
                    restorer_.remove(target.tp);
                    target.reading = false;
                }
    }
    const auto now = std::chrono::steady_clock::now();
    if (progressed) last_restore_progress_ = now;
    for (std::size_t i = 0; i < restoring_.size();) {
        managed_task* t = restoring_[i];
        if (std::all_of(t->restore.begin(), t->restore.end(), [](const restore_target& x) { return x.done; })) {
            finish_restoring(*t);
            progressed = true;
        } else {
            ++i;
        }
    }
    if (!restoring_.empty() && now - last_restore_progress_ > config_.restore_stall_timeout) {
        std::string names;
        for (managed_task* t : restoring_)
            for (const auto& target : t->restore)
                if (!target.done) {
                    names.append(" ").append(describe(target.tp));
                    names.append(" (store ").append(target.reg->store->name()).append(")");
                }
        throw streams_error(config_.name + ": restoring state stalled for " +
                            std::to_string(config_.restore_stall_timeout.count()) + " ms on changelog" + names);
    }
    return progressed;
}

// ---- processing -------------------------------------------------------------------------------

bool task_manager::fill(const topic_partition& tp) {
    auto it = partitions_.find(tp);
    if (it == partitions_.end()) return false;
    return fill(*it->second.first, *it->second.second);
}

bool task_manager::fill(managed_task& t, partition_queue& q) {
    if (t.restoring) return false;
    const std::size_t limit = std::max<std::size_t>(1, config_.buffered_records_per_partition);
    if (q.size() >= limit) return false;
    auto& buffer = t.fetch_buffer;
    buffer.clear();
    const std::size_t n = consumer_.fetch(q.tp(), std::min<std::size_t>(limit - q.size(), 500), buffer);
    for (const auto& r : buffer) q.push(r);
    buffer.clear();
    if (n == 0) return false;
    t.group.pushed(q, *t.task);
    return true;
}

bool task_manager::fetchable() const {
    const std::size_t limit = std::max<std::size_t>(1, config_.buffered_records_per_partition);
    for (const auto& [tp, slot] : partitions_)
        if (!slot.first->restoring && !slot.first->in_turn && slot.second->size() < limit && consumer_.available(tp))
            return true;
    return false;
}

bool task_manager::fill_buffers() {
    bool any = false;
    for (auto& [tp, slot] : partitions_) any = fill(tp) || any;
    return any;
}

namespace {
/// Gives a fetched record back to its port however processing ends.
struct release_guard {
    consumer_port& port;
    const fetched_record& r;
    ~release_guard() { port.release(r); }
};
}  // namespace

void task_manager::process_one(managed_task& t, partition_queue& q, std::int64_t now) {
    const std::int64_t ts = q.head_timestamp();
    const fetched_record r = t.group.take(q, *t.task);
    release_guard guard{q.owner(), r};
    const raw_record raw = q.raw(r, t.scratch);
    const bool processed = t.task->process(*q.source(), raw, ts, now);
    q.processed(r.offset);
    if (r.offset < q.replay_until() && t.replayed) ++*t.replayed;
    if (processed) ++*t.processed;  // a record skipped by log-and-continue is not (as Kafka)
    t.task->maybe_punctuate_stream_time();
}

bool task_manager::process(std::optional<std::int64_t>& idle_until) {
    rethrow_async_errors();
    if (hold_processing_) return false;
    bool progressed = false;
    const std::int64_t now = env_.wall_clock();
    for (auto& [id, t] : active_) {
        if (t->restoring || t->corrupted) continue;
        const auto guard = t->task->store_guard();
        try {
            progressed = process_task(*t, now, idle_until) || progressed;
        } catch (const state::corrupted_store_error& e) {
            note_corruption(*t, e);
        }
    }
    return progressed;
}

bool task_manager::process_task(managed_task& t, std::int64_t now, std::optional<std::int64_t>& idle_until,
                                bool bounded) {
    // An empty partition's lag, asked of librdkafka once per queue and turn: as Kafka's, whose
    // readyToProcess reads the lags its consumer's last poll fetched. The queues take records only
    // at a turn's fill, so a later answer would change nothing but the cost: asked per record (a
    // lock and a topic lookup), ~4 % of a stream-table join's CPU, its table partition empty.
    std::vector<std::pair<const partition_queue*, std::optional<std::int64_t>>> known_lags;
    const partition_group::lag_function lag_of = [this, &known_lags](const partition_queue& q) {
        for (const auto& [known, lag] : known_lags)
            if (known == &q) return lag;
        return known_lags.emplace_back(&q, consumer_.lag(q.tp(), q.received_up_to())).second;
    };
    const std::size_t max_in_flight = std::max<std::size_t>(1, config_.max_async_in_flight);
    stream_task& task = *t.task;
    bool progressed = false;
    if (task.punctuation_waiting()) {
        // A punctuation waits for the records in flight; the task takes no new ones meanwhile.
        if (task.async_in_flight() > 0) return false;
        progressed = task.maybe_punctuate_stream_time() || progressed;
        progressed = task.maybe_punctuate_wall_clock() || progressed;
    }
    // A bounded turn looks at the clock every records_per_look records: it ends at the commit
    // deadline or when the runner asks (Kafka's StreamThread sizes its process loop by the time
    // left to the commit interval). Nothing per record but the comparison with next_look.
    const std::size_t max_look = std::max<std::size_t>(1, config_.records_per_round);
    const std::int64_t deadline = config_.commit_interval_ms >= 0 ? next_commit_ : INT64_MAX;
    std::size_t next_look = bounded ? std::min(t.records_per_look, max_look) : std::numeric_limits<std::size_t>::max();
    std::int64_t last_look = now;
    std::size_t n = 0;
    while (n < config_.records_per_round && task.async_in_flight() < max_in_flight) {
        partition_queue* q = t.group.next(now, config_.max_task_idle_ms, lag_of, idle_until);
        if (!q) break;
        process_one(t, *q, now);
        ++n;
        if (task.punctuation_waiting()) break;
        if (n == next_look) [[unlikely]] {
            const std::int64_t at = env_.wall_clock();
            if (at - last_look > 1) t.records_per_look = std::max<std::size_t>(1, t.records_per_look / 2);
            else if (at == last_look) t.records_per_look = std::min(max_look, t.records_per_look * 2);
            if (at >= deadline || yield_turns_.load(std::memory_order_relaxed)) break;
            last_look = at;
            next_look = n + t.records_per_look;
        }
    }
    return progressed || n > 0;
}

std::vector<task_manager::managed_task*> task_manager::running_tasks() {
    std::vector<managed_task*> out;
    out.reserve(active_.size());
    for (auto& [id, t] : active_)
        if (!t->restoring && !t->corrupted) out.push_back(t.get());
    return out;
}

std::vector<task_manager::managed_task*> task_manager::managed_tasks() {
    std::vector<managed_task*> out;
    out.reserve(active_.size());
    for (auto& [id, t] : active_) out.push_back(t.get());
    return out;
}

boost::asio::any_io_executor task_manager::executor_of(managed_task& t) const {
    return t.env ? t.env->executor : env_.executor;
}

task_manager::turn_result task_manager::turn(managed_task& t) {
    turn_result r;
    stream_task& task = *t.task;
    const auto guard = task.store_guard();
    task.rethrow_async_error();
    if (!t.restoring && !t.corrupted) {
        try {
            for (auto& q : t.group.queues()) r.progressed = fill(t, *q) || r.progressed;
            if (!hold_processing_)
                r.progressed = process_task(t, env_.wall_clock(), r.idle_until, config_.bound_turns) || r.progressed;
            r.progressed = task.maybe_punctuate_wall_clock() || r.progressed;
        } catch (const state::corrupted_store_error& e) {
            note_corruption(t, e);
            r.progressed = true;
        }
    }
    if (!t.in_turn) end_turn(t);
    return r;
}

void task_manager::begin_turn(managed_task& t) { t.in_turn = true; }

void task_manager::end_turn(managed_task& t) {
    t.in_turn = false;
    t.next_punctuation = t.task->next_wall_clock_punctuation();
    if (t.env) t.published = t.metrics;
}

bool task_manager::in_turn(const managed_task& t) { return t.in_turn; }

void task_manager::stop(managed_task& t) noexcept {
    const auto guard = t.task->store_guard();
    if (t.slot) t.slot->task = nullptr;
    ++env_.metrics->counter(internal_metric::task_closed);
    try {
        t.task->close(false);
    } catch (const std::exception& e) {
        KSTREAMS_LOG(warn, config_.name + ": closing task " + t.task->id().to_string() + ": " + e.what());
    }
}

kstreams::metrics task_manager::task_metrics() const {
    kstreams::metrics sum = closed_task_metrics_;
    for (const auto* tasks : {&active_, &suspended_})
        for (const auto& [id, t] : *tasks)
            for (const auto& [name, value] : t->published.all()) sum.counter(name) += value;
    return sum;
}

std::vector<task_snapshot> task_manager::task_snapshots() const {
    std::vector<task_snapshot> out;
    for (const auto* tasks : {&active_, &suspended_})
        for (const auto& [id, t] : *tasks) {
            if (!t->env) continue;
            task_snapshot s{id, t->published, t->restoring, tasks == &suspended_, t->restored, {}};
            for (const auto& q : t->group.queues()) s.partitions.push_back(q->tp());
            if (t->task)
                for (const auto& reg : t->task->changelogs()) {
                    changelog_position c{reg.store->name(), reg.topic, id.partition, -2};
                    if (t->restoring) {
                        c.offset = 0;
                        if (auto it = t->changelog_offsets.find({reg.topic, id.partition}); it != t->changelog_offsets.end())
                            c.offset = it->second;
                        for (const auto& r : t->restore)
                            if (r.reg == &reg && r.position >= 0) c.offset = r.done ? -2 : r.position;
                    }
                    s.changelogs.push_back(std::move(c));
                }
            out.push_back(std::move(s));
        }
    return out;
}

bool task_manager::punctuate_wall_clock() {
    rethrow_async_errors();
    bool any = false;
    for (auto& [id, t] : active_) {
        if (t->restoring || t->corrupted) continue;
        const auto guard = t->task->store_guard();
        try {
            if (t->task->maybe_punctuate_wall_clock()) any = true;
        } catch (const state::corrupted_store_error& e) {
            note_corruption(*t, e);
        }
    }
    return any;
}

std::size_t task_manager::async_in_flight() const {
    std::size_t n = 0;
    for (const auto& [id, t] : active_) n += t->task->async_in_flight();
    return n;
}

void task_manager::rethrow_async_errors() const {
    for (const auto& [id, t] : active_) t->task->rethrow_async_error();
}

bool task_manager::commit_due() const {
    for (const auto& [id, t] : active_)
        if (!t->in_turn && t->task->commit_requested()) return true;
    return config_.commit_interval_ms >= 0 && env_.wall_clock() >= next_commit_;
}

bool task_manager::maybe_commit() {
    if (!commit_due()) return false;
    commit(false);
    return true;
}

void task_manager::commit(bool force_checkpoint) {
    if (active_.empty()) return;
    rethrow_async_errors();  // a failed async record's offset must not be committed
    for (auto& [id, t] : active_) prepare_commit(*t);
    finish_commit(force_checkpoint);
}

void task_manager::prepare_commit(managed_task& t) {
    stream_task& task = *t.task;
    const auto guard = task.store_guard();
    task.rethrow_async_error();
    t.to_commit.clear();
    bool corrupted = t.corrupted.has_value();  // then nothing of it is committed: its input is read again
    if (!corrupted && !t.restoring) {
        try {
            task.flush();
        } catch (const state::corrupted_store_error& e) {
            note_corruption(t, e);
            corrupted = true;
        }
    }
    // Noted before the producer is flushed: a record that completes after this (in an async
    // processor) may have sent records the flush does not wait for.
    // Records in flight in async processors: a commit covers only offsets before them.
    if (!corrupted && !task.async_blocks_commit()) {
        const bool in_flight = task.async_in_flight() > 0;
        for (auto& q : t.group.queues()) {
            std::int64_t offset = q->committable();
            if (in_flight) offset = std::min(offset, task.async_held_offset(q->topic(), q->partition()));
            const std::int64_t processed = std::max(offset, q->replay_until());
            if (task.holds_offsets() && offset >= 0) {
                // Recovery by recomputation: no further than the earliest record open state
                // still holds.
                offset = std::min(offset, task.held_offset(q->topic(), q->partition()));
                task.metrics().counter(commit_held_metric + q->topic() + "." + std::to_string(q->partition())) =
                    static_cast<std::uint64_t>(std::max<std::int64_t>(0, q->committable() - offset));
            }
            // Processor metadata and what offset holders noted (after held_offset: it forgets
            // what was released) may change while the offset does not: committed again then.
            std::string metadata;
            if (offset >= 0)
                metadata = task.commit_metadata(q->topic(), q->partition(), offset, processed, q->partition_time());
            if (offset >= 0 && (offset != q->committed || metadata != q->committed_metadata))
                t.to_commit.push_back({q.get(), offset, std::move(metadata)});
        }
    }
    task.clear_commit_request();
    t.next_punctuation = task.next_wall_clock_punctuation();
    if (t.env) t.published = t.metrics;
}

void task_manager::finish_commit(bool force_checkpoint) {
    if (!begin_commit()) return;
    struct clear_to_commit {  // the metadata the offsets point to lives there until the commit returns
        std::map<kstreams::task_id, std::unique_ptr<managed_task>>& tasks;
        ~clear_to_commit() {
            for (auto& [id, t] : tasks) t->to_commit.clear();
        }
    } clear{active_};
    if (config_.exactly_once) {
        commit_transaction();
        end_commit(producer_.changelog_offsets(), force_checkpoint);
        return;
    }
    producer_.flush();
    if (!commit_offsets_.empty()) {
        const auto result = consumer_.commit(commit_offsets_);
        if (result == consumer_port::commit_result::ok) {
            note_committed();
        } else if (result == consumer_port::commit_result::unavailable) {
            KSTREAMS_LOG(warn, config_.name + ": the group coordinator did not answer the commit; the next commit "
                                              "tries again");
        } else {
            KSTREAMS_LOG(warn, config_.name +
                                   ": commit failed because the group moved on; the records since the last commit "
                                   "will be processed again");
        }
    }
    write_checkpoints(producer_.changelog_offsets(), force_checkpoint);
}

bool task_manager::begin_commit() {
    next_commit_ = env_.wall_clock() + std::max<std::int64_t>(0, config_.commit_interval_ms);
    commit_offsets_.clear();
    commit_queues_.clear();
    if (active_.empty()) return false;
    for (auto& [id, t] : active_) {
        for (const auto& c : t->to_commit) {
            commit_offsets_.push_back({&c.queue->tp(), c.offset, c.metadata});
            commit_queues_.push_back(c.queue);
        }
    }
    return true;
}

void task_manager::commit_transaction() {
    // Records and offsets in one transaction (throws task_migrated_error if it aborted).
    producer_.commit_transaction(commit_offsets_);
}

void task_manager::end_commit(const checkpoint_offsets& acked, bool force_checkpoint) {
    note_committed();
    if (!commit_offsets_.empty()) consumer_.committed_in_transaction(commit_offsets_);
    write_checkpoints(acked, force_checkpoint);
}

void task_manager::note_committed() {
    for (std::size_t i = 0; i < commit_queues_.size(); ++i) {
        commit_queues_[i]->committed = commit_offsets_[i].offset;
        commit_queues_[i]->committed_metadata = commit_offsets_[i].metadata;
        if (auto it = partitions_.find(commit_queues_[i]->tp()); it != partitions_.end()) it->second.first->corruptions = 0;
    }
}

void task_manager::write_checkpoints(const checkpoint_offsets& acked, bool force_checkpoint) {
    for (auto& [id, t] : active_)
        if (!t->restoring || force_checkpoint) write_checkpoint_of(*t, force_checkpoint, acked);
}

/// Records how far the task's stores hold their changelogs; for persistent stores, on disk too.
/// As Kafka Streams' checkpoint file, the offset written is the next one to restore from (the
/// last acknowledged changelog offset + 1).
void task_manager::write_checkpoint_of(managed_task& t, bool force) {
    write_checkpoint_of(t, force, producer_.changelog_offsets());
}

void task_manager::write_checkpoint_of(managed_task& t, bool force, const checkpoint_offsets& acked) {
    const std::int32_t partition = t.task->id().partition;
    for (const auto& reg : t.task->changelogs()) {
        if (reg.source_topic) {
            // A source topic used as the changelog: the stores hold it up to the committed offset.
            if (auto it = partitions_.find({reg.topic, partition}); it != partitions_.end() && it->second.second->committed >= 0)
                t.changelog_offsets[{reg.topic, partition}] = it->second.second->committed;
            continue;
        }
        if (auto it = acked.find({reg.topic, partition}); it != acked.end())
            t.changelog_offsets[it->first] = std::max(t.changelog_offsets[it->first], it->second + 1);
    }
    if (env_.state_dir.empty() || !t.task->has_persistent_stores()) return;
    if (config_.exactly_once && !force) return;  // only on a clean suspend or close
    checkpoint_offsets persistent;
    std::int64_t moved = 0;
    for (const auto& reg : t.task->changelogs())
        if (reg.store->persistent())
            if (auto it = t.changelog_offsets.find({reg.topic, partition}); it != t.changelog_offsets.end()) {
                persistent.insert(*it);
                auto before = t.checkpointed.find(it->first);
                moved += it->second - (before == t.checkpointed.end() ? 0 : before->second);
            }
    if (!force && moved <= config_.checkpoint_delta) return;
    if (persistent == t.checkpointed && !t.checkpointed.empty()) return;  // unchanged
    // The WAL is off: the stores' memtables must be on disk before the checkpoint says so.
    {
        const auto guard = t.task->store_guard();
        t.task->flush_stores();
    }
    write_checkpoint(t.task->task_directory(), persistent);
    t.checkpointed = std::move(persistent);
}

void task_manager::delete_checkpoint_of(managed_task& t) {
    t.checkpointed.clear();
    if (env_.state_dir.empty() || !t.task->has_persistent_stores()) return;
    std::error_code ec;
    std::filesystem::remove(t.task->task_directory() / ".checkpoint", ec);
    if (ec)
        throw streams_error(config_.name + ": task " + t.task->id().to_string() + ": cannot delete its checkpoint " +
                            (t.task->task_directory() / ".checkpoint").string() + ": " + ec.message());
}

// ---- queries ----------------------------------------------------------------------------------

std::int64_t task_manager::next_deadline(bool with_commit) const {
    std::int64_t deadline = with_commit && config_.commit_interval_ms >= 0 ? next_commit_ : INT64_MAX;
    for (const auto& [id, t] : active_)
        if (!t->restoring)
            deadline = std::min(deadline, t->env ? t->next_punctuation : t->task->next_wall_clock_punctuation());
    return deadline;
}

bool task_manager::has_buffered() const {
    for (const auto& [id, t] : active_)
        if (!t->restoring && t->group.has_buffered()) return true;
    return false;
}

std::vector<restoration_progress> task_manager::restoration() const {
    std::vector<restoration_progress> out;
    for (const managed_task* t : restoring_)
        for (const auto& target : t->restore)
            out.push_back({t->task->id(), target.reg->store->name(), target.tp, target.restored,
                           target.end < 0 ? -1 : std::max<std::int64_t>(0, target.end - std::max(target.position, std::int64_t{0}))});
    return out;
}

stream_task* task_manager::find_task(kstreams::task_id id) {
    auto it = active_.find(id);
    return it == active_.end() ? nullptr : it->second->task.get();
}

std::vector<stream_task*> task_manager::tasks() {
    std::vector<stream_task*> out;
    for (auto& [id, t] : active_) out.push_back(t->task.get());
    return out;
}

std::vector<kstreams::task_id> task_manager::suspended_tasks() const {
    std::vector<kstreams::task_id> out;
    for (const auto& [id, t] : suspended_) out.push_back(id);
    return out;
}

bool task_manager::is_restoring(kstreams::task_id id) const {
    auto it = active_.find(id);
    return it != active_.end() && it->second->restoring;
}

}  // namespace kstreams::detail
