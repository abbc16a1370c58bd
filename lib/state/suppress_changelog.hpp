// The suppress buffer's changelog value, Kafka's version 3 (header "v" = 3): record context
// (timestamp, offset, topic, partition, headers), prior value, old value (-2: the same as the
// prior), new value, buffer time. Its own file so that it can be tested and fuzzed alone.
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

}  // namespace kstreams::dsl_detail
