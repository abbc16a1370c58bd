// The standby replicas of this instance (num.standby.replicas): a thread of its own, as Kafka
// Streams' state updater, that keeps a copy of each standby task's stores up to date from their
// changelogs, so that the stream thread that later gets the task actively restores only what the
// copy lacks.
//
// Which tasks it keeps comes from standby_placement.hpp, worked out again every second (and after
// each local rebalance) from the group's members. A standby task is the task's stores alone (no
// processor runs; nothing is processed, logged or committed), opened in the task's directory as an
// active task would be; its changelog partitions are assigned to a consumer without a group
// (read_committed under exactly-once) and read continuously into the stores; its checkpoint is
// written as an active task's (every commit.interval.ms once the changelogs moved 10,000 records
// past the last one, and when it closes; under exactly-once only when it closes). It closes, its
// state left on disk, when the placement moves it away, and before a stream thread of this
// instance opens the task actively (task_opening). A store whose changelog is a source topic is
// not kept (the task restores it as it would without a standby). Interactive queries read the
// standby's stores as stale stores only.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include <kstreams/metrics.hpp>
#include <kstreams/task_id.hpp>

#include "lib/observe/snapshot.hpp"
#include "lib/runtime/app_context.hpp"

namespace kstreams::detail {

class standby_updater {
public:
    explicit standby_updater(app_context& ctx);
    ~standby_updater();
    standby_updater(const standby_updater&) = delete;
    standby_updater& operator=(const standby_updater&) = delete;

    void start();
    /// Closes the standbys (checkpoints written) and ends the thread; waits for it.
    void stop();
    /// A stream thread of this instance opens task `id` actively: its standby here, if any, closes
    /// first (its checkpoint written), and none opens while the task runs here. Blocks until then.
    /// Thread-safe.
    void task_opening(kstreams::task_id id);
    /// The task closed on that stream thread (its checkpoint written). Thread-safe.
    void task_closed(kstreams::task_id id);
    /// Works the placement out again now (a rebalance ended). Thread-safe.
    void wake();
    /// The standby tasks open now, as of the updater's last step. Thread-safe.
    std::vector<standby_snapshot> snapshot() const;
    /// Its counters (`standby-records-updated`). Thread-safe.
    kstreams::metrics metrics() const;

private:
    struct state;
    std::shared_ptr<state> state_;
    std::thread thread_;
};

}  // namespace kstreams::detail
