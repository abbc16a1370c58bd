#include "lib/state/key_scan_bound.hpp"

#include <cstdint>

#include <kstreams/serde.hpp>

namespace kstreams::state {

namespace {

/// True if `suffix` sorts above `rest ‖ 0xff × suffix.size()` (both compared as unsigned bytes).
bool above(std::string_view suffix, std::string_view rest) {
    for (std::size_t j = 0; j < suffix.size(); ++j) {
        const auto s = static_cast<unsigned char>(suffix[j]);
        const unsigned char r = j < rest.size() ? static_cast<unsigned char>(rest[j]) : 0xff;
        if (s != r) return s > r;
    }
    return false;  // equal so far: the longer right side is larger
}

}  // namespace

std::string scan_upper_bound(std::string_view key_to, const std::optional<std::string>& key_from,
                             std::string_view max_suffix) {
    std::string best(key_to);
    best.append(max_suffix.size(), '\xff');
    for (std::size_t i = 0; i < key_to.size(); ++i) {
        const std::string_view prefix = key_to.substr(0, i);
        if (key_from && prefix < std::string_view(*key_from)) continue;
        if (!above(max_suffix, key_to.substr(i))) continue;
        std::string candidate(prefix);
        candidate.append(max_suffix);
        if (candidate > best) best = std::move(candidate);
    }
    return best;
}

std::string max_time_suffix(std::int64_t from, std::int64_t to, std::size_t rest) {
    std::string out;
    if (from >= 0 && to >= 0) detail::put_big_endian(to, out);
    else out.assign(8, '\xff');
    out.append(rest, '\xff');
    return out;
}

}  // namespace kstreams::state
