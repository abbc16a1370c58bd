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

/// Appends the message's headers to `out` in their order (a null header value stays null); returns
/// whether it had any.
inline bool decode_headers(const rd_kafka_message_t* m, headers& out) {
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
