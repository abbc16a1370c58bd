// An in-process Kafka cluster: librdkafka's mock cluster (rdkafka_mock.h). It speaks the Kafka
// protocol on loopback, so producers, consumers and consumer groups run their real code paths.
//
// Limits (librdkafka 2.0): no Admin API (topics are created through this class, which the app does
// by itself for every topic it uses), no real transactions or exactly-once, no DeleteRecords, no log
// compaction, and a bounded amount of data kept per partition (about 5 MiB by default; older records
// are dropped as by retention). Offsets and group membership live only as long as the object.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace kstreams {

class embedded_cluster {
public:
    /// Starts a cluster of `brokers` brokers on 127.0.0.1 ports chosen by the system.
    explicit embedded_cluster(int brokers = 1);
    ~embedded_cluster();
    embedded_cluster(const embedded_cluster&) = delete;
    embedded_cluster& operator=(const embedded_cluster&) = delete;

    /// The `bootstrap.servers` string of this cluster.
    const std::string& bootstrap_servers() const;
    /// Creates a topic (nothing happens if it exists with this partition count); throws
    /// streams_error naming the topic on a failure.
    void create_topic(const std::string& topic, std::int32_t partitions);

    /// Takes every broker down (connections are closed and refused) or brings them back up, as a
    /// broker outage for tests; topics, offsets and groups are kept.
    void set_brokers_up(bool up);

    /// The embedded cluster listening on `bootstrap`, if one of this process does; else nullptr.
    static embedded_cluster* find(const std::string& bootstrap);

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

}  // namespace kstreams
