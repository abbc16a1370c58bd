// kstreams::uuid's text form, as Java's UUID.toString() and UUID.fromString().
#include <kstreams/uuid_serde.hpp>

#include <array>
#include <cstddef>

#include <kstreams/error.hpp>

namespace kstreams {

std::string uuid::to_string() const {
    static constexpr char hex[] = "0123456789abcdef";
    std::string s;
    s.reserve(36);
    for (int i = 0; i < 32; ++i) {
        if (i == 8 || i == 12 || i == 16 || i == 20) s.push_back('-');
        const std::uint64_t word = i < 16 ? most : least;
        const int shift = 60 - 4 * (i % 16);
        s.push_back(hex[(word >> shift) & 0xf]);
    }
    return s;
}

namespace {

/// Java's Long.parseLong(text, 16): an optional '+', then at least one hex digit, within a signed
/// 64-bit value.
std::optional<std::uint64_t> parse_hex_long(std::string_view text) {
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    if (text.empty()) return std::nullopt;
    std::uint64_t v = 0;
    for (char c : text) {
        std::uint64_t d;
        if (c >= '0' && c <= '9') d = static_cast<std::uint64_t>(c - '0');
        else if (c >= 'a' && c <= 'f') d = static_cast<std::uint64_t>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') d = static_cast<std::uint64_t>(c - 'A' + 10);
        else return std::nullopt;
        if (v > (0x7fffffffffffffffULL - d) / 16) return std::nullopt;
        v = v * 16 + d;
    }
    return v;
}

}  // namespace

std::optional<uuid> uuid::from_string(std::string_view text) {
    // Java: at most 36 characters and exactly four dashes; each of the five groups is read as a
    // hex long and masked to its width (8, 4, 4, 4, 12 digits), so "1-2-3-4-5" is a UUID.
    if (text.size() > 36) return std::nullopt;
    std::array<std::uint64_t, 5> parts{};
    static constexpr std::array<std::uint64_t, 5> masks{0xffffffffULL, 0xffffULL, 0xffffULL, 0xffffULL, 0xffffffffffffULL};
    std::size_t from = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::size_t dash = i + 1 < parts.size() ? text.find('-', from) : text.size();
        if (dash == std::string_view::npos) return std::nullopt;
        auto v = parse_hex_long(text.substr(from, dash - from));
        if (!v) return std::nullopt;
        parts[i] = *v & masks[i];
        from = dash + 1;
    }
    return uuid{parts[0] << 32 | parts[1] << 16 | parts[2], parts[3] << 48 | parts[4]};
}

uuid serde<uuid>::deserialize(std::string_view in) const {
    if (auto u = uuid::from_string(in)) return *u;
    throw deserialization_error("UUIDSerde: not a UUID: \"" + std::string(in.substr(0, 64)) + "\"");
}

}  // namespace kstreams
