#include "lib/runtime/topic_partition_metadata.hpp"

#include <array>

#include <kstreams/serde.hpp>

namespace kstreams::detail {

namespace {

constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char version_with_processors = 2;

std::string base64(std::string_view in) {
    std::string out;
    out.reserve((in.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        const auto n = static_cast<std::uint32_t>(static_cast<unsigned char>(in[i]) << 16 |
                                                  static_cast<unsigned char>(in[i + 1]) << 8 |
                                                  static_cast<unsigned char>(in[i + 2]));
        for (int shift : {18, 12, 6, 0}) out += alphabet[(n >> shift) & 63];
    }
    if (const std::size_t rest = in.size() - i; rest > 0) {
        std::uint32_t n = static_cast<std::uint32_t>(static_cast<unsigned char>(in[i]) << 16);
        if (rest == 2) n |= static_cast<std::uint32_t>(static_cast<unsigned char>(in[i + 1]) << 8);
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += rest == 2 ? alphabet[(n >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

std::optional<std::string> unbase64(std::string_view in) {
    if (in.size() % 4 != 0) return std::nullopt;
    std::array<int, 256> value{};
    value.fill(-1);
    for (std::size_t i = 0; i < alphabet.size(); ++i) value[static_cast<unsigned char>(alphabet[i])] = static_cast<int>(i);
    std::string out;
    out.reserve(in.size() / 4 * 3);
    for (std::size_t i = 0; i < in.size(); i += 4) {
        std::uint32_t n = 0;
        int padding = 0;
        for (std::size_t j = 0; j < 4; ++j) {
            const char c = in[i + j];
            if (c == '=' && i + 4 == in.size() && j >= 2) {
                ++padding;
                n <<= 6;
                continue;
            }
            if (padding > 0 || value[static_cast<unsigned char>(c)] < 0) return std::nullopt;
            n = n << 6 | static_cast<std::uint32_t>(value[static_cast<unsigned char>(c)]);
        }
        out += static_cast<char>(n >> 16 & 0xff);
        if (padding < 2) out += static_cast<char>(n >> 8 & 0xff);
        if (padding < 1) out += static_cast<char>(n & 0xff);
    }
    return out;
}

}  // namespace

std::string encode_topic_partition_metadata(const topic_partition_metadata& m) {
    std::string bytes(1, version_with_processors);
    put_big_endian<std::int64_t>(m.partition_time, bytes);
    // Kafka writes nothing at all for no processor metadata (not a zero count).
    if (!m.processors.empty()) {
        put_big_endian<std::int32_t>(static_cast<std::int32_t>(m.processors.size()), bytes);
        for (const auto& [key, value] : m.processors) {
            put_big_endian<std::int32_t>(static_cast<std::int32_t>(key.size()), bytes);
            bytes += key;
            put_big_endian<std::int64_t>(value, bytes);
        }
    }
    return base64(bytes);
}

std::optional<topic_partition_metadata> decode_topic_partition_metadata(std::string_view text) {
    const std::optional<std::string> decoded = unbase64(text);
    if (!decoded || decoded->size() < 9) return std::nullopt;
    std::string_view in = *decoded;
    const char version = in[0];
    if (version != 1 && version != version_with_processors) return std::nullopt;
    topic_partition_metadata m;
    m.partition_time = get_big_endian<std::int64_t>(in.substr(1, 8));
    in.remove_prefix(9);
    if (version == 1 || in.empty()) return m;
    if (in.size() < 4) return std::nullopt;
    const auto count = get_big_endian<std::int32_t>(in);
    in.remove_prefix(4);
    if (count < 0) return std::nullopt;
    for (std::int32_t i = 0; i < count; ++i) {
        if (in.size() < 4) return std::nullopt;
        const auto length = get_big_endian<std::int32_t>(in);
        in.remove_prefix(4);
        if (length < 0 || in.size() < static_cast<std::size_t>(length) + 8) return std::nullopt;
        std::string key(in.substr(0, static_cast<std::size_t>(length)));
        in.remove_prefix(static_cast<std::size_t>(length));
        m.processors[std::move(key)] = get_big_endian<std::int64_t>(in);
        in.remove_prefix(8);
    }
    return m;
}

}  // namespace kstreams::detail
