// Which instance of the app reads which partitions, and where it answers queries: the input of
// kafka_streams' metadata calls (Kafka Streams' StreamsMetadataState).
//
// Kafka Streams carries each instance's application.server in the group protocol's subscription
// userdata and hands every instance the whole partition-to-host map with its assignment.
// librdkafka offers no custom assignor, so the same facts travel another way: each stream
// thread's consumer carries the endpoint in its client.id (`<thread>-consumer@host:port`), and an
// instance asks the group coordinator for the members and their assignments
// (DescribeConsumerGroups) when it needs them after a rebalance it took part in (every membership
// change rebalances every member under the eager protocol). The embedded cluster (librdkafka's mock
// broker) does not answer DescribeConsumerGroups; all its instances live in this process, so they
// share their assignments through a registry here instead.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "lib/kafka/rd.hpp"
#include "lib/runtime/ports.hpp"

namespace kstreams::detail {

/// One member of the group: an instance's endpoint ("host:port", empty if it has none), the
/// instance it belongs to (its process id when its client.id carries one, else its endpoint) and
/// the partitions one of its stream threads reads.
struct hosted_partitions {
    std::string server;
    std::vector<topic_partition> partitions;
    std::string instance;
};

/// A stream thread of this instance, as it last reported itself.
struct local_thread_state {
    std::string name;
    std::string consumer_client_id;
    std::vector<topic_partition> partitions;
    bool restoring = false;
};

class host_directory {
public:
    /// `settings`: librdkafka settings of the cluster (a real one gets an admin client);
    /// `group`: the application.id; `embedded`: the cluster is the in-process mock; `instance`:
    /// this instance's name among the others (its process id when standbys are placed).
    host_directory(const std::map<std::string, std::string>& settings, std::string group, std::string server,
                   bool embedded, std::chrono::milliseconds timeout, std::string instance = {});
    ~host_directory();
    host_directory(const host_directory&) = delete;
    host_directory& operator=(const host_directory&) = delete;

    /// A stream thread's assignment changed (eager: a whole new one, or none).
    void set_thread(int index, local_thread_state state);
    /// The thread ended (its partitions go to others at the next rebalance).
    void remove_thread(int index);
    /// A rebalance this instance took part in ended: what was known about the others is stale.
    void invalidate();
    /// Every member and its partitions; nullopt when the group's assignment is not known (it
    /// rebalances, or the coordinator does not answer).
    std::optional<std::vector<hosted_partitions>> members();
    std::map<int, local_thread_state> local_threads() const;

    /// The consumer client.id that carries `server` (and the instance's `process` id, when given:
    /// `<thread>-consumer-<process id>@<server>`) for a thread named `thread_name`.
    static std::string consumer_client_id(const std::string& thread_name, const std::string& server,
                                          const std::string& process = {});
    /// The endpoint a member's client.id carries ("" if none).
    static std::string server_of(const std::string& client_id);
    /// The instance a member's client.id names: its process id, else its endpoint, else the
    /// client.id itself (a member of its own).
    static std::string instance_of(const std::string& client_id);
    const std::string& instance() const { return instance_; }

private:
    struct shared_registry;
    static shared_registry& registry();

    std::string group_;
    std::string server_;
    std::string instance_;
    std::string key_;  ///< the embedded registry's key: bootstrap servers and group
    bool embedded_;
    std::chrono::milliseconds timeout_;
    kafka::rk_ptr admin_;
    mutable std::mutex mutex_;
    std::map<int, local_thread_state> threads_;
    std::optional<std::vector<hosted_partitions>> cached_;
    std::chrono::steady_clock::time_point cached_at_{};
};

/// Kafka's default partitioner for a serialized key: murmur2 (Kafka's Utils.murmur2), made
/// positive, modulo the partition count.
std::int32_t murmur2_partition(std::string_view key, std::int32_t partitions);

}  // namespace kstreams::detail
