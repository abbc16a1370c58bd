// Timestamped key-value stores (Kafka's TimestampedKeyValueStore): each value carries the
// timestamp of the record that produced it. Stored as `8-byte big-endian timestamp ‖ value bytes`;
// the changelog holds the plain value with that timestamp as the record timestamp, so a Java
// application and a kstreams one can share the changelog topic.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <kstreams/serde.hpp>
#include <kstreams/state/key_value_store.hpp>

namespace kstreams {

template <class V>
struct value_and_timestamp {
    V value{};
    std::int64_t timestamp = 0;
    bool operator==(const value_and_timestamp&) const = default;
};

template <class K, class V>
using timestamped_key_value_store = key_value_store<K, value_and_timestamp<V>>;

/// `8-byte big-endian timestamp ‖ value bytes`, as Kafka's ValueAndTimestampSerde.
template <class V, class VS = serde<V>>
struct value_and_timestamp_serde {
    VS inner{};
    void serialize(const value_and_timestamp<V>& v, std::string& out) const {
        detail::put_big_endian(v.timestamp, out);
        inner.serialize(v.value, out);
    }
    value_and_timestamp<V> deserialize(std::string_view in) const {
        if (in.size() < 8)
            throw deserialization_error("a timestamped store value needs at least 8 bytes, got " +
                                        std::to_string(in.size()));
        return {inner.deserialize(in.substr(8)), detail::get_big_endian<std::int64_t>(in)};
    }
};

}  // namespace kstreams
