// Plain clients for tests and examples: write records to a topic and read a topic's records back,
// on the embedded cluster or a real broker. Synchronous; tests/support wraps the reader so a
// coroutine test can `co_await` the next N records.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <kstreams/record.hpp>
#include <kstreams/serde.hpp>

namespace kstreams::test {

/// A record as read from Kafka (raw bytes; nullopt = null).
struct consumed_record {
    std::string topic;
    std::int32_t partition = 0;
    std::int64_t offset = 0;
    std::optional<std::string> key;
    std::optional<std::string> value;
    std::int64_t timestamp = 0;
    headers hdrs;

    template <class T, class S = serde<T>>
    T key_as(S s = S{}) const { return key ? s.deserialize(*key) : T{}; }
    template <class T, class S = serde<T>>
    T value_as(S s = S{}) const { return value ? s.deserialize(*value) : T{}; }
};

/// Writes records with an idempotent producer partitioning by murmur2 (as the Java producer).
class topic_writer {
public:
    explicit topic_writer(const std::string& bootstrap_servers, std::map<std::string, std::string> settings = {});
    ~topic_writer();
    topic_writer(const topic_writer&) = delete;
    topic_writer& operator=(const topic_writer&) = delete;

    /// timestamp < 0 = now; partition nullopt = by the key's murmur2 hash.
    void send(const std::string& topic, std::optional<std::string> key, std::optional<std::string> value,
              std::int64_t timestamp = -1, std::optional<std::int32_t> partition = std::nullopt);
    template <class K, class V, class KS = serde<K>, class VS = serde<V>>
    void send_typed(const std::string& topic, const K& key, const V& value, std::int64_t timestamp = -1,
                    KS ks = KS{}, VS vs = VS{}) {
        std::string k, v;
        ks.serialize(key, k);
        vs.serialize(value, v);
        send(topic, std::move(k), std::move(v), timestamp);
    }
    /// Waits until everything sent was acknowledged; throws streams_error otherwise.
    void flush(std::chrono::milliseconds timeout = std::chrono::seconds(30));

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

/// Reads every partition of some topics from the beginning (no consumer group), in arrival order.
class topic_reader {
public:
    topic_reader(const std::string& bootstrap_servers, std::vector<std::string> topics,
                 std::map<std::string, std::string> settings = {});
    ~topic_reader();
    topic_reader(const topic_reader&) = delete;
    topic_reader& operator=(const topic_reader&) = delete;

    /// The next `n` records; throws streams_error naming the topics and how many came if fewer
    /// than `n` arrive within `timeout`.
    std::vector<consumed_record> read(std::size_t n, std::chrono::milliseconds timeout);
    /// Everything that arrives until nothing more comes for `quiet`.
    std::vector<consumed_record> read_until_quiet(std::chrono::milliseconds quiet);

    /// For asynchronous readers: the next record if one is ready, without blocking.
    std::optional<consumed_record> try_next();
    /// A file descriptor that becomes readable when records may be ready (drain it before waiting).
    int wake_fd();
    const std::vector<std::string>& topics() const;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

}  // namespace kstreams::test
