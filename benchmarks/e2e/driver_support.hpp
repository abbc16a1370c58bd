// What the driver's commands share (driver.cpp: preload and measure; latency.cpp): Kafka clients
// and topics, the benchmark's record values, and the app under test as a child process.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "lib/kafka/rd.hpp"

namespace e2e {

namespace kafka = kstreams::kafka;

[[noreturn]] void die(const std::string& what);

void create_topic(const std::string& bootstrap, const std::string& topic, std::int32_t partitions);
std::int32_t partition_count(const std::string& bootstrap, const std::string& topic);
/// Deletes every topic whose name starts with `prefix` (a run's output and its app's internal
/// topics): a full run writes tens of GiB, more than the disk may hold if runs keep theirs.
void delete_topics_with_prefix(const std::string& bootstrap, const std::string& prefix);
kafka::rk_ptr consumer(const std::string& bootstrap, const std::string& group, bool read_committed = false);
/// The broker creates its offsets topic at the first group's first request, which takes seconds on
/// a fresh broker: a commit to `topic` by a group of the driver's own, so that the first app
/// measured does not pay for it.
void warm_group_coordinator(const std::string& bootstrap, const std::string& topic);
/// The high watermark of each partition of `topic`.
std::vector<std::int64_t> end_offsets(rd_kafka_t* rk, const std::string& topic, std::int32_t partitions);

/// A producer of the benchmark's records: 4-byte big-endian int keys, as Kafka's IntegerSerde.
class loader {
public:
    loader(const std::string& bootstrap, int linger_ms);
    void send(const std::string& topic, std::int32_t key, const std::string& value, std::int64_t ts);
    void flush();

private:
    kafka::rk_ptr rk_;
};

/// Record i's 100-byte value: "value-<i, zero-padded>".
std::string value_of(std::int64_t i);

/// CPU seconds (user + system) a process has used so far; 0 if unknown.
double cpu_seconds(pid_t pid);
/// The peak resident set size of a process so far (VmHWM), in MiB; 0 if unknown.
double peak_rss_mib(pid_t pid);

/// The app under test: started with its stdout on a pipe, it prints STARTED right before it
/// starts its streams (process start-up, the JVM's or the loading of shared libraries, is not
/// timed; creating topics, joining the group and restoring are).
class app_process {
public:
    /// Runs `command` and returns once it said STARTED (fails if it exits first).
    explicit app_process(char** command);
    ~app_process();
    app_process(const app_process&) = delete;
    app_process& operator=(const app_process&) = delete;

    pid_t pid() const { return pid_; }
    /// Copies what it printed since to stderr (its stdout pipe must not fill up).
    void drain_output();
    bool exited();
    /// SIGTERM, up to 60 s to close cleanly, then SIGKILL.
    void stop();

private:
    pid_t pid_ = -1;
    FILE* out_ = nullptr;
    bool reaped_ = false;
};

}  // namespace e2e
