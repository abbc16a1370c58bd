#include "lib/runtime/checkpoint.hpp"

#include <charconv>
#include <fstream>
#include <optional>
#include <string_view>
#include <vector>

#include <kstreams/error.hpp>

#include "lib/core/log.hpp"

namespace kstreams::detail {

namespace {

/// Kafka's OffsetCheckpoint.OFFSET_UNKNOWN: written for a store whose offset is not known.
constexpr std::int64_t offset_unknown = -4;

/// A whole field as Java's Integer/Long.parseLong reads it (an optional sign, digits, nothing else).
template <class Int>
std::optional<Int> parse_field(std::string_view s) {
    if (s.size() > 1 && s[0] == '+' && s[1] != '-') s.remove_prefix(1);
    Int v{};
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

/// The line's whitespace-separated fields, as Java's split("\\s+") (leading whitespace gives an
/// empty first field).
std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; };
    std::size_t i = 0;
    if (!line.empty() && space(line[0])) out.emplace_back();
    while (i < line.size()) {
        while (i < line.size() && space(line[i])) ++i;
        const std::size_t from = i;
        while (i < line.size() && !space(line[i])) ++i;
        if (i > from) out.push_back(line.substr(from, i - from));
    }
    return out;
}

}  // namespace

checkpoint_offsets read_checkpoint(const std::filesystem::path& dir, bool* unreadable) {
    if (unreadable) *unreadable = false;
    const auto file = dir / ".checkpoint";
    std::ifstream in(file, std::ios::binary);
    if (!in) return {};
    // As Kafka's OffsetCheckpoint.read: "0", the entry count, then one "<topic> <partition> <offset>"
    // per line; an entry with an invalid offset is skipped (and not counted); anything else wrong
    // makes the file unreadable.
    auto fail = [&](const std::string& what) {
        KSTREAMS_LOG(warn, "the checkpoint file " + file.string() + " is unreadable: " + what);
        if (unreadable) *unreadable = true;
        return checkpoint_offsets{};
    };
    std::string line;
    auto next_line = [&] {
        if (!std::getline(in, line)) return false;
        if (!line.empty() && line.back() == '\r') line.pop_back();  // Java's readLine ends lines at \r\n too
        return true;
    };
    if (!next_line()) return fail("it is empty");
    const auto version = parse_field<std::int32_t>(line);
    if (!version || *version != 0) return fail("unknown version '" + line + "'");
    if (!next_line()) return fail("no entry count");
    const auto count = parse_field<std::int32_t>(line);
    if (!count) return fail("bad entry count '" + line + "'");
    std::int64_t expected = *count;
    checkpoint_offsets out;
    while (next_line()) {
        const auto f = fields(line);
        const auto partition = f.size() == 3 ? parse_field<std::int32_t>(f[1]) : std::nullopt;
        const auto offset = f.size() == 3 ? parse_field<std::int64_t>(f[2]) : std::nullopt;
        if (!partition || !offset) return fail("malformed line '" + line + "'");
        if (*offset < 0 && *offset != offset_unknown) {
            KSTREAMS_LOG(warn, "the checkpoint file " + file.string() + " has offset " + std::to_string(*offset) +
                                   " for " + std::string(f[0]) + "-" + std::to_string(*partition) + "; ignored");
            --expected;
            continue;
        }
        out[{std::string(f[0]), *partition}] = *offset;
    }
    if (static_cast<std::int64_t>(out.size()) != expected)
        return fail("it says " + std::to_string(expected) + " entries but has " + std::to_string(out.size()));
    // An unknown offset counts as an entry but gives no position: the store restores from the start.
    std::erase_if(out, [](const auto& e) { return e.second == offset_unknown; });
    return out;
}

void write_checkpoint(const std::filesystem::path& dir, const checkpoint_offsets& offsets) {
    std::filesystem::create_directories(dir);
    const auto tmp = dir / ".checkpoint.tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << 0 << "\n" << offsets.size() << "\n";
        for (const auto& [tp, offset] : offsets) out << tp.first << " " << tp.second << " " << offset << "\n";
        if (!out.flush()) throw streams_error("could not write the checkpoint file " + tmp.string());
    }
    std::filesystem::rename(tmp, dir / ".checkpoint");
}

}  // namespace kstreams::detail
