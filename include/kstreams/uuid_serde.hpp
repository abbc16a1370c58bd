// Kafka's UUIDSerde (Serdes.UUID()) for kstreams::uuid: the UUID's text form, 36 characters of
// UTF-8 ("123e4567-e89b-12d3-a456-426614174000", lower-case hex), as Java's UUID.toString()
// writes it; reading takes what Java's UUID.fromString takes (five dash-separated groups of hex
// digits of at most 8, 4, 4, 4 and 12 digits, either case) and anything else is a
// deserialization_error. Including this header makes it the default serde of kstreams::uuid.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <kstreams/serde.hpp>

namespace kstreams {

/// A 128-bit UUID (Java's java.util.UUID): the most significant 64 bits, then the least.
struct uuid {
    std::uint64_t most = 0;
    std::uint64_t least = 0;

    /// "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower-case (Java's UUID.toString()).
    std::string to_string() const;
    /// Java's UUID.fromString; nullopt where Java throws IllegalArgumentException.
    static std::optional<uuid> from_string(std::string_view text);

    friend auto operator<=>(const uuid&, const uuid&) = default;
};

template <>
struct serde<uuid> {
    void serialize(const uuid& v, std::string& out) const { out.append(v.to_string()); }
    /// Throws deserialization_error for text that is not a UUID.
    uuid deserialize(std::string_view in) const;
};

}  // namespace kstreams
