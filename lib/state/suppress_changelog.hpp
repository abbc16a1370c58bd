// The suppress buffer's changelog value, Kafka's version 3 (header "v" = 3): record context
// (timestamp, offset, topic, partition, headers), prior value, old value (-2: the same as the
// prior), new value, buffer time; and the older versions Kafka's buffer still restores. Its own
// file so that it can be tested and fuzzed alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <kstreams/dsl/detail/suppress_buffer.hpp>

namespace kstreams::dsl_detail {

/// One buffered key's entry.
struct suppress_buffer_value {
    std::optional<std::string> prior;
    std::optional<std::string> old_value;
    std::optional<std::string> new_value;
    buffered_context context;
    /// Kafka keeps one copy when the prior and old values are equal (both null included).
    bool prior_is_old() const { return prior == old_value; }
};

std::string encode_suppress_changelog_value(const suppress_buffer_value& v, std::int64_t buffer_time);
/// The buffer time and the entry; throws deserialization_error naming what is wrong.
std::pair<std::int64_t, suppress_buffer_value> decode_suppress_changelog_value(std::string_view bytes);

/// A changelog record of the buffer in any version Kafka's buffer restores, told by its last "v"
/// header: none = version 0 (buffer time, then old and new value), 1 (buffer time, record context,
/// then old and new value), 2 (record context, old and new value, prior value, buffer time; or
/// version 3 bytes, which Kafka 2.4.0-2.5.0 wrote under version 2's header), 3. Versions 0 and 1
/// keep no prior value: the key's buffered one if it has one, else the old value; version 0 keeps
/// no record context: `origin` (the changelog record's). Throws deserialization_error naming what
/// is wrong, an unknown version included.
std::pair<std::int64_t, suppress_buffer_value> decode_suppress_changelog_record(
    std::string_view value, const headers& hdrs, const buffered_context& origin,
    const std::optional<std::optional<std::string>>& buffered_prior);

}  // namespace kstreams::dsl_detail
