// Reading the text of a commit's metadata (offset holds, held marks): numbers and separators taken
// off the front of a view.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kstreams::detail::metadata_text {

inline bool read_int(std::string_view& in, std::int64_t& out) {
    const auto [end, ec] = std::from_chars(in.data(), in.data() + in.size(), out);
    if (ec != std::errc{}) return false;
    in.remove_prefix(static_cast<std::size_t>(end - in.data()));
    return true;
}

inline bool read_char(std::string_view& in, char c) {
    if (in.empty() || in.front() != c) return false;
    in.remove_prefix(1);
    return true;
}

}  // namespace kstreams::detail::metadata_text
