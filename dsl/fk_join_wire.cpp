// A foreign-key join's wire formats and value hash (see fk_join_wire.hpp).
#include <kstreams/dsl/detail/fk_join_wire.hpp>

#include <cstring>

#include <kstreams/error.hpp>
#include <kstreams/serde.hpp>

namespace kstreams::dsl_detail {

namespace {

constexpr std::uint64_t c1 = 0x87c37b91114253d5ULL;
constexpr std::uint64_t c2 = 0x4cf5ad432745937fULL;
constexpr std::uint32_t seed = 104729;  // Kafka's Murmur3.DEFAULT_SEED

std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

std::uint64_t fmix(std::uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

std::uint64_t little_endian_64(const unsigned char* p) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

void put_hash(const value_hash& h, std::string& out) {
    detail::put_big_endian(h[0], out);
    detail::put_big_endian(h[1], out);
}

value_hash get_hash(std::string_view in) {
    return {detail::get_big_endian<std::int64_t>(in), detail::get_big_endian<std::int64_t>(in.substr(8))};
}

[[noreturn]] void too_short(const char* what, std::size_t size) {
    throw deserialization_error(std::string(what) + ": " + std::to_string(size) + " bytes are too few");
}

[[noreturn]] void unsupported_version(const char* what, unsigned version, unsigned current) {
    throw deserialization_error(std::string(what) + ": version " + std::to_string(version) +
                                " is not supported (this version of kstreams writes and reads up to " +
                                std::to_string(current) + ")");
}

}  // namespace

// MurmurHash3_x64_128 (Austin Appleby's algorithm, public domain), with h1 and h2 both starting
// at the seed, as Kafka's Murmur3.hash128.
value_hash murmur3_hash128(std::string_view bytes) {
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    const std::size_t len = bytes.size();
    const std::size_t blocks = len / 16;
    std::uint64_t h1 = seed, h2 = seed;
    for (std::size_t i = 0; i < blocks; ++i) {
        std::uint64_t k1 = little_endian_64(data + i * 16);
        std::uint64_t k2 = little_endian_64(data + i * 16 + 8);
        k1 *= c1;
        k1 = rotl(k1, 31);
        k1 *= c2;
        h1 ^= k1;
        h1 = rotl(h1, 27);
        h1 += h2;
        h1 = h1 * 5 + 0x52dce729;
        k2 *= c2;
        k2 = rotl(k2, 33);
        k2 *= c1;
        h2 ^= k2;
        h2 = rotl(h2, 31);
        h2 += h1;
        h2 = h2 * 5 + 0x38495ab5;
    }
    const unsigned char* tail = data + blocks * 16;
    std::uint64_t k1 = 0, k2 = 0;
    const std::size_t rest = len & 15;
    for (std::size_t i = rest; i > 8; --i) k2 ^= static_cast<std::uint64_t>(tail[i - 1]) << ((i - 9) * 8);
    if (rest > 8) {
        k2 *= c2;
        k2 = rotl(k2, 33);
        k2 *= c1;
        h2 ^= k2;
    }
    for (std::size_t i = rest < 8 ? rest : 8; i > 0; --i) k1 ^= static_cast<std::uint64_t>(tail[i - 1]) << ((i - 1) * 8);
    if (rest > 0) {
        k1 *= c1;
        k1 = rotl(k1, 31);
        k1 *= c2;
        h1 ^= k1;
    }
    h1 ^= len;
    h2 ^= len;
    h1 += h2;
    h2 += h1;
    h1 = fmix(h1);
    h2 = fmix(h2);
    h1 += h2;
    h2 += h1;
    return {static_cast<std::int64_t>(h1), static_cast<std::int64_t>(h2)};
}

void subscription_wrapper_serde::serialize(const subscription_wrapper& w, std::string& out) const {
    const auto version = static_cast<char>(w.version & 0x7f);
    out.push_back(w.hash ? version : static_cast<char>(version | 0x80));
    out.push_back(static_cast<char>(w.instruction));
    if (w.hash) put_hash(*w.hash, out);
    out.append(w.primary_key);
    if (w.version > 0) detail::put_big_endian<std::int32_t>(w.primary_partition.value_or(-1), out);
}

subscription_wrapper subscription_wrapper_serde::deserialize(std::string_view in) const {
    if (in.size() < 2) too_short("subscription", in.size());
    subscription_wrapper w;
    const auto first = static_cast<unsigned char>(in[0]);
    w.version = first & 0x7f;
    // Kafka's SubscriptionWrapper refuses versions it does not know.
    if (w.version > subscription_wrapper::current_version)
        unsupported_version("subscription", w.version, subscription_wrapper::current_version);
    const bool hash_null = (first & 0x80) != 0;
    const auto instruction = static_cast<unsigned char>(in[1]);
    if (instruction > 3) throw deserialization_error("subscription: unknown instruction " + std::to_string(instruction));
    w.instruction = static_cast<fk_instruction>(instruction);
    in.remove_prefix(2);
    if (!hash_null) {
        if (in.size() < 16) too_short("subscription hash", in.size());
        w.hash = get_hash(in);
        in.remove_prefix(16);
    }
    if (w.version > 0) {
        if (in.size() < 4) too_short("subscription primary partition", in.size());
        w.primary_partition = detail::get_big_endian<std::int32_t>(in.substr(in.size() - 4));
        in.remove_suffix(4);
    }
    w.primary_key = std::string(in);
    return w;
}

void subscription_response_serde::serialize(const subscription_response& r, std::string& out) const {
    const auto version = static_cast<char>(r.version & 0x7f);
    out.push_back(r.hash ? version : static_cast<char>(version | 0x80));
    if (r.hash) put_hash(*r.hash, out);
    if (r.foreign_value) out.append(*r.foreign_value);
}

subscription_response subscription_response_serde::deserialize(std::string_view in) const {
    if (in.empty()) too_short("subscription response", 0);
    subscription_response r;
    const auto first = static_cast<unsigned char>(in[0]);
    r.version = first & 0x7f;
    if (r.version > subscription_response::current_version)
        unsupported_version("subscription response", r.version, subscription_response::current_version);
    in.remove_prefix(1);
    if ((first & 0x80) == 0) {
        if (in.size() < 16) too_short("subscription response hash", in.size());
        r.hash = get_hash(in);
        in.remove_prefix(16);
    }
    // Kafka's deserializer: no bytes left means a null foreign value.
    if (!in.empty()) r.foreign_value = std::string(in);
    return r;
}

void append_combined_key_prefix(std::string_view foreign_key, std::string& out) {
    detail::put_big_endian<std::int32_t>(static_cast<std::int32_t>(foreign_key.size()), out);
    out.append(foreign_key);
}

std::string_view combined_key_primary(std::string_view combined_key) {
    if (combined_key.size() < 4) too_short("subscription store key", combined_key.size());
    const auto fk_len = static_cast<std::size_t>(detail::get_big_endian<std::int32_t>(combined_key));
    if (fk_len > combined_key.size() - 4) too_short("subscription store key", combined_key.size());
    return combined_key.substr(4 + fk_len);
}

}  // namespace kstreams::dsl_detail
