// What a stream thread publishes for the metrics and the status page: its counters, each assigned
// task's, and the stores restoring. Copied under the thread's lock, read by other threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <kstreams/metrics.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/task_id.hpp>

#include "lib/runtime/ports.hpp"

namespace kstreams::detail {

/// A store's changelog partition and the offset the store holds up to (allLocalStorePartitionLags).
struct changelog_position {
    std::string store;
    std::string topic;
    std::int32_t partition = 0;
    std::int64_t offset = -2;  ///< the next offset to restore; -2: a running task's, the end
};

/// One assigned task: its counters as of its last turn, its state, records restored so far.
struct task_snapshot {
    kstreams::task_id id;
    kstreams::metrics counters;
    bool restoring = false;
    bool suspended = false;
    std::uint64_t restored = 0;
    std::vector<topic_partition> partitions;
    std::vector<changelog_position> changelogs;
};

/// A standby task as others see it: the changelog offsets its stores hold.
struct standby_snapshot {
    kstreams::task_id id;
    std::vector<changelog_position> changelogs;  ///< offset: the next one to read (-1: not known yet)
    std::uint64_t updated = 0;                   ///< changelog records applied since it opened
};

struct thread_snapshot {
    std::string thread_id;  ///< Kafka's thread-id: `<application.id>-StreamThread-<n>`
    bool alive = true;
    kstreams::metrics counters;  ///< the thread's own, plus its tasks' summed
    std::vector<task_snapshot> tasks;
    std::vector<store_restoration> restoring;
};

}  // namespace kstreams::detail
