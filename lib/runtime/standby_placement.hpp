// Where the standby replicas of the stateful tasks go (num.standby.replicas). Kafka Streams' group
// leader places them in its assignor and sends each member its standbys with the assignment;
// librdkafka has no custom assignor, so every instance instead works the same placement out from
// what it learns of the group (host_directory::members()): the same members give the same answer
// everywhere, with no message of its own.
//
// An instance is a process (its process id; its endpoint when it has none), not a stream thread.
// Each stateful task (one whose sub-topology has a store with a changelog) gets up to
// num.standby.replicas instances other than the one running it actively, never two copies on one
// instance, each on the instance with the fewest standbys so far, ties going round the sorted
// instances from the one after the active one. With fewer instances than replicas + 1 a task gets
// fewer standbys (as Kafka's, which logs it).
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <kstreams/task_id.hpp>

#include "lib/runtime/app_context.hpp"
#include "lib/runtime/host_directory.hpp"

namespace kstreams::detail {

/// One instance of the app and the tasks it runs actively (over all its stream threads).
struct instance_tasks {
    std::string instance;
    std::string server;  ///< its application.server, "" if none
    std::set<kstreams::task_id> active;
};

struct standby_placement {
    /// Per stateful task with an active instance, the instances keeping a standby of it.
    std::map<kstreams::task_id, std::vector<std::string>> standbys;
    /// Each instance's application.server ("" if none).
    std::map<std::string, std::string> servers;
    /// Tasks that got fewer standbys than asked for (too few instances).
    std::size_t short_of_replicas = 0;
    /// Stateful tasks no instance runs actively now (the group rebalances: an instance left):
    /// their standbys stay where they are, the likeliest place for the task to go.
    std::set<kstreams::task_id> unassigned;

    /// The tasks `instance` keeps a standby of.
    std::set<kstreams::task_id> standbys_of(const std::string& instance) const;
};

/// The placement for `replicas` standbys of each of `stateful`'s tasks.
standby_placement place_standbys(const std::vector<instance_tasks>& instances,
                                 const std::set<kstreams::task_id>& stateful, int replicas);

/// The app's tasks with a store that has a changelog (a store's source topic reused as its
/// changelog does not count: a standby does not read source topics).
std::set<kstreams::task_id> stateful_tasks(const app_context& ctx);

/// The group's members (one per stream thread) gathered into instances, with their active tasks.
std::vector<instance_tasks> instances_of(const app_context& ctx, const std::vector<hosted_partitions>& members);

/// place_standbys over the group's members, with the app's num.standby.replicas.
standby_placement place_standbys(const app_context& ctx, const std::vector<hosted_partitions>& members);

/// A task's input partitions (Kafka's TaskMetadata topicPartitions of a standby task).
std::set<topic_partition> input_partitions(const app_context& ctx, kstreams::task_id id);

}  // namespace kstreams::detail
