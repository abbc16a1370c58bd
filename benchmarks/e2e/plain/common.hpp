// What every part of the hand-written loop (../plain_app.cpp) shares: failing loudly, big-endian
// numbers as Kafka's serdes write them, and sending a record (inside the transaction under
// exactly-once).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <librdkafka/rdkafka.h>

namespace plain {

[[noreturn]] void die(const std::string& what);

inline void put_big_endian(std::int64_t v, char* out) {
    auto u = static_cast<std::uint64_t>(v);
    for (int i = 7; i >= 0; --i, u >>= 8) out[i] = static_cast<char>(u & 0xff);
}
inline void append_big_endian(std::int64_t v, std::string& out) {
    char b[8];
    put_big_endian(v, b);
    out.append(b, 8);
}
inline void append_big_endian32(std::int32_t v, std::string& out) {
    const auto u = static_cast<std::uint32_t>(v);
    const char b[4] = {static_cast<char>(u >> 24), static_cast<char>(u >> 16), static_cast<char>(u >> 8),
                       static_cast<char>(u)};
    out.append(b, 4);
}
inline std::int64_t get_big_endian(const char* p) {
    std::uint64_t u = 0;
    for (int i = 0; i < 8; ++i) u = (u << 8) | static_cast<unsigned char>(p[i]);
    return static_cast<std::int64_t>(u);
}
inline std::int32_t get_big_endian32(const char* p) {
    std::uint32_t u = 0;
    for (int i = 0; i < 4; ++i) u = (u << 8) | static_cast<unsigned char>(p[i]);
    return static_cast<std::int32_t>(u);
}

/// Under exactly-once: the open transaction, begun at the first record sent after a commit (as
/// kstreams and Kafka Streams do).
class transaction {
public:
    explicit transaction(rd_kafka_t* producer) : producer_(producer) {}
    void begin() {
        if (open_) return;
        if (rd_kafka_error_t* e = rd_kafka_begin_transaction(producer_)) fail("begin_transaction", e);
        open_ = true;
    }
    /// Sends the consumed offsets into the transaction and commits it (which delivers its records).
    void commit(rd_kafka_t* consumer, const rd_kafka_topic_partition_list_t* offsets);

private:
    [[noreturn]] static void fail(const char* what, rd_kafka_error_t* e);
    rd_kafka_t* producer_;
    bool open_ = false;
};

/// Where records go: the producer, the output topic, and the open transaction under exactly-once.
struct sinks {
    rd_kafka_t* producer = nullptr;
    rd_kafka_topic_t* output = nullptr;
    transaction* txn = nullptr;
};

/// Sends a record, serving delivery reports while the producer's queue is full. `opaque` comes
/// back in the delivery report (a changelog's progress). A null value is a tombstone.
void produce(const sinks& to, rd_kafka_topic_t* topic, std::int32_t partition, std::string_view key,
             const std::string_view* value, std::int64_t timestamp, void* opaque);
inline void produce(const sinks& to, rd_kafka_topic_t* topic, std::int32_t partition, std::string_view key,
                    std::string_view value, std::int64_t timestamp, void* opaque) {
    produce(to, topic, partition, key, &value, timestamp, opaque);
}

}  // namespace plain
