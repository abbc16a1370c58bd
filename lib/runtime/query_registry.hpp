// Interactive queries on the runtime side: which tasks of this instance hold which stores, and the
// lock through which a query thread reads a task's stores while the stream threads run.
//
// Each task has a store lock (a recursive mutex): its stream thread holds it while the task
// touches its stores (a turn, a commit's cache flush, a restore batch, punctuations, async
// completions, closing), and a query holds it while it reads. The task manager registers a slot
// per task here, and says when the task restores, runs, is suspended or is closed.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <kstreams/streams.hpp>
#include <kstreams/task_id.hpp>

namespace kstreams::detail {

class stream_task;
struct partition_query;

/// One task as queries see it. `task` and `phase` change only under `lock`.
struct query_slot {
    /// standby: a standby replica's stores (standby_updater.hpp), read only as stale stores.
    enum class phase { restoring, running, suspended, standby };
    explicit query_slot(kstreams::task_id i, bool of_standby = false)
        : id(i), standby(of_standby), phase(of_standby ? phase::standby : phase::restoring) {}
    const kstreams::task_id id;
    const bool standby;  ///< a standby replica's (its phase stays standby)
    const std::shared_ptr<std::recursive_mutex> lock = std::make_shared<std::recursive_mutex>();
    stream_task* task = nullptr;  ///< null once the task closed
    enum phase phase;
};

class query_registry {
public:
    void add(const std::shared_ptr<query_slot>& slot);
    void remove(const query_slot* slot);
    /// The instances of store `name` (of one partition, if given) to read now. Throws
    /// invalid_state_store_error when the app is not RUNNING or REBALANCING, when no task hosts
    /// the store, and when one that does restores or is suspended and `stale` is false. Standby
    /// replicas are read only when `stale` (Kafka's enableStaleStores), after an active task of
    /// the same partition.
    std::vector<std::shared_ptr<queryable_instance>> instances(const std::string& name, bool stale,
                                                                std::optional<std::int32_t> partition) const;
    /// IQv2 (kstreams/state/state_query.hpp): each local partition of store `name` (those asked
    /// for, or all) with its instance, or why it cannot answer (not_active when `require_active`
    /// and its task is not running or is a standby, not_present for a partition asked for that no
    /// task hosts).
    std::vector<partition_query> partition_queries(const std::string& name,
                                                   const std::optional<std::vector<std::int32_t>>& partitions,
                                                   bool require_active) const;
    /// The app's state, as queries check it.
    std::atomic<streams_state> app_state{streams_state::created};

private:
    mutable std::mutex mutex_;
    std::vector<std::shared_ptr<query_slot>> slots_;
};

}  // namespace kstreams::detail
