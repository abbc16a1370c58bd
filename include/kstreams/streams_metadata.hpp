// Where a running app's stores live across its instances (Kafka Streams' StreamsMetadata,
// KeyQueryMetadata, HostInfo, ThreadMetadata): what kafka_streams' metadata calls answer.
#pragma once

#include <compare>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <kstreams/task_id.hpp>

namespace kstreams {

/// An instance's `application.server` endpoint (Kafka's HostInfo).
struct host_info {
    std::string host;
    std::int32_t port = -1;

    /// Kafka's HostInfo.unavailable(): ("unavailable", -1).
    static host_info unavailable() { return {"unavailable", -1}; }
    /// "host:port"; throws std::invalid_argument for anything else.
    static host_info parse(std::string_view host_port);
    std::string to_string() const { return host + ":" + std::to_string(port); }
    auto operator<=>(const host_info&) const = default;
};

/// A partition of a topic, as metadata names them (topics with the application.id prefix where
/// they are internal).
struct topic_partition_info {
    std::string topic;
    std::int32_t partition = 0;
    auto operator<=>(const topic_partition_info&) const = default;
};

/// One instance of the app (Kafka's StreamsMetadata): its endpoint, the stores it hosts and the
/// partitions it reads, actively and as standby replicas (num.standby.replicas: the input
/// partitions of its standby tasks and their stores; empty without standbys).
struct streams_metadata {
    host_info host;
    std::set<std::string> state_store_names;
    std::set<topic_partition_info> topic_partitions;
    std::set<std::string> standby_state_store_names;
    std::set<topic_partition_info> standby_topic_partitions;
    bool operator==(const streams_metadata&) const = default;
};

/// Where a key of a store lives (Kafka's KeyQueryMetadata): the instance that hosts its partition
/// actively, its standbys, and the partition. not_available() while the app rebalances or the
/// partition has no instance with an endpoint.
struct key_query_metadata {
    host_info active_host = host_info::unavailable();
    std::set<host_info> standby_hosts;
    std::int32_t partition = -1;

    static key_query_metadata not_available() { return {}; }
    bool available() const { return active_host != host_info::unavailable(); }
    bool operator==(const key_query_metadata&) const = default;
};

/// A task of this instance (Kafka's TaskMetadata).
struct task_metadata {
    kstreams::task_id id;
    std::set<topic_partition_info> topic_partitions;
    bool operator==(const task_metadata&) const = default;
};

/// A stream thread of this instance (Kafka's ThreadMetadata). The instance's standby tasks (kept by
/// one standby updater, not by a stream thread) are listed with its first thread.
struct thread_metadata {
    std::string thread_name;
    std::string thread_state;  ///< "RUNNING", "PARTITIONS_ASSIGNED" (restoring), "STARTING", "DEAD"
    std::vector<task_metadata> active_tasks;
    std::vector<task_metadata> standby_tasks;
    std::string consumer_client_id;
};

}  // namespace kstreams
