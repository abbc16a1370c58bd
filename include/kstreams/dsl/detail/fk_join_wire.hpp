// The wire formats of a foreign-key join (KIP-213), byte for byte as Kafka Streams 4.4 writes them,
// so that a Java application and a kstreams one can share the internal topics and stores:
//   subscription (SubscriptionWrapperSerde, version 1):
//     {1 bit: hash is null}{7 bits: version}{1 byte: instruction}{16 bytes: hash, if any}
//     {primary key bytes}{4-byte big-endian primary partition}
//   response (SubscriptionResponseWrapperSerde, version 0):
//     {1 bit: hash is null}{7 bits: version}{16 bytes: hash, if any}{foreign value bytes, if any}
//   subscription store key (CombinedKeySchema): {4-byte big-endian foreign key length}{foreign key}{primary key}
// The hash is Kafka's Murmur3.hash128 (x64, 128 bits, seed 104729) of the left value's bytes, two
// longs written big-endian. Implemented in dsl/fk_join_wire.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kstreams::dsl_detail {

/// Kafka's Murmur3.hash128 result: {h1, h2}.
using value_hash = std::array<std::int64_t, 2>;

/// Kafka's Murmur3.hash128(bytes) (seed 104729).
value_hash murmur3_hash128(std::string_view bytes);

/// What the right side does with a subscription (Kafka's SubscriptionWrapper.Instruction).
enum class fk_instruction : std::uint8_t {
    delete_key_no_propagate = 0,        ///< unsubscribe, send nothing back
    delete_key_and_propagate = 1,       ///< unsubscribe, send a null back
    propagate_null_if_no_fk_val = 2,    ///< subscribe, send the row back, or a null if there is none
    propagate_only_if_fk_val = 3,       ///< subscribe, send the row back only if there is one
};

/// A subscription: from a left row to the right table's task of its foreign key.
struct subscription_wrapper {
    static constexpr std::uint8_t current_version = 1;
    std::optional<value_hash> hash;  ///< of the left row's value; none for a deleted row
    fk_instruction instruction = fk_instruction::delete_key_no_propagate;
    std::string primary_key;         ///< the left key, serialized by the left table's key serde
    std::optional<std::int32_t> primary_partition;  ///< the left row's partition (version 1)
    std::uint8_t version = current_version;
    bool operator==(const subscription_wrapper&) const = default;
};

struct subscription_wrapper_serde {
    void serialize(const subscription_wrapper& w, std::string& out) const;
    /// Throws deserialization_error on bytes too short for what they say.
    subscription_wrapper deserialize(std::string_view in) const;
};

/// A response: the right row (or its absence) for one subscribed left key.
struct subscription_response {
    static constexpr std::uint8_t current_version = 0;
    std::optional<value_hash> hash;           ///< the subscription's hash, echoed
    std::optional<std::string> foreign_value; ///< the right row, serialized by the right table's value serde
    std::optional<std::int32_t> primary_partition;  ///< where to send it (not on the wire)
    std::uint8_t version = current_version;
    bool operator==(const subscription_response&) const = default;
};

struct subscription_response_serde {
    void serialize(const subscription_response& r, std::string& out) const;
    subscription_response deserialize(std::string_view in) const;
};

/// Appends {4-byte big-endian length}{foreign key bytes}: the prefix of every subscription of
/// that foreign key in the subscription store.
void append_combined_key_prefix(std::string_view foreign_key, std::string& out);
/// The primary key bytes of a subscription store key (what follows the foreign key).
std::string_view combined_key_primary(std::string_view combined_key);

}  // namespace kstreams::dsl_detail
