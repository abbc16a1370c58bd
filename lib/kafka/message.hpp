// Reading a librdkafka message: its key, value, timestamp and headers, in one place for every
// consumer of the library (the stream threads' fetch, restoration, the global thread, delivery
// reports, the test clients). Private to lib/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <librdkafka/rdkafka.h>

#include <kstreams/record.hpp>

namespace kstreams::kafka {

/// The key's bytes (a view into the message), or nullopt for a null key.
inline std::optional<std::string_view> message_key(const rd_kafka_message_t* m) {
    if (!m->key) return std::nullopt;
    return std::string_view(static_cast<const char*>(m->key), m->key_len);
}

/// The value's bytes (a view into the message), or nullopt for a null value (a tombstone).
inline std::optional<std::string_view> message_value(const rd_kafka_message_t* m) {
    if (!m->payload) return std::nullopt;
    return std::string_view(static_cast<const char*>(m->payload), m->len);
}

/// The record's timestamp (create or log-append time, as the topic says); -1 if it has none.
inline std::int64_t message_timestamp(const rd_kafka_message_t* m) {
    rd_kafka_timestamp_type_t type;
    return rd_kafka_message_timestamp(m, &type);
}

/// Whether a consumed message has no headers, told without librdkafka's parse. librdkafka keeps a
/// fetched record's header bytes raw and parses them on each rd_kafka_message_headers call until it
/// finds a header: for a record without any (a header count of 0) every call allocates and frees a
/// parse buffer, which was a fifth of a pass-through's CPU. In the record format v2 the header count
/// (a zig-zag varint, so 0 is the byte 0) directly follows the value's bytes, and librdkafka's
/// payload points into the fetched (or decompressed) record batch, so the byte after the value
/// answers. The older formats (magic 0 and 1, which Kafka 4 no longer writes) have no headers at
/// all: the byte there belongs to the next message and only a non-zero one is asked about again.
/// Null and empty values are left to librdkafka (it gives an empty value a static "", not a
/// pointer into the batch).
inline bool surely_without_headers(const rd_kafka_message_t* m) {
    return m->payload && m->len > 0 && static_cast<const unsigned char*>(m->payload)[m->len] == 0;
}

/// Appends the message's headers to `out` in their order (a null header value stays null); returns
/// whether it had any. A consumed message only: a produced one's payload is not a record batch.
inline bool decode_headers(const rd_kafka_message_t* m, headers& out) {
    if (surely_without_headers(m)) return false;
    rd_kafka_headers_t* rh = nullptr;
    if (rd_kafka_message_headers(m, &rh) != RD_KAFKA_RESP_ERR_NO_ERROR || !rh) return false;
    const char* name;
    const void* val;
    std::size_t size;
    for (std::size_t i = 0; rd_kafka_header_get_all(rh, i, &name, &val, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i)
        out.add(name, val ? std::optional<std::string>(std::string(static_cast<const char*>(val), size)) : std::nullopt);
    return true;
}

}  // namespace kstreams::kafka
