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

/// One assigned task: its counters as of its last turn, its state, records restored so far.
struct task_snapshot {
    kstreams::task_id id;
    kstreams::metrics counters;
    bool restoring = false;
    bool suspended = false;
    std::uint64_t restored = 0;
    std::vector<topic_partition> partitions;
};

struct thread_snapshot {
    std::string thread_id;  ///< Kafka's thread-id: `<application.id>-StreamThread-<n>`
    bool alive = true;
    kstreams::metrics counters;  ///< the thread's own, plus its tasks' summed
    std::vector<task_snapshot> tasks;
    std::vector<store_restoration> restoring;
};

}  // namespace kstreams::detail
