// Serdes: how keys and values become bytes and back, byte-compatible with Kafka's Java serdes.
//
// A serde for T is any object with
//     void serialize(const T& value, std::string& out) const;   // appends the bytes to out
//     T deserialize(std::string_view bytes) const;               // throws deserialization_error
// and optionally `bool is_null(const T&) const` for types that can stand for Kafka's null.
// Null bytes never reach deserialize(): the runtime maps them to nullopt for std::optional<T>, and
// to T{} with the record's null flag set otherwise (see record.hpp).
//
// serde<T> is the default serde of T, found at compile time; specialise it for your own types.
#pragma once

#include <bit>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include <kstreams/error.hpp>

namespace kstreams {

/// Raw bytes as a value type (Kafka's ByteArraySerde).
using bytes = std::vector<std::byte>;

/// Kafka's Void: a key or value that is always null.
using void_value = std::monostate;

template <class S, class T>
concept serde_for = requires(const S& s, const T& v, std::string& out, std::string_view in) {
    s.serialize(v, out);
    { s.deserialize(in) } -> std::convertible_to<T>;
};

/// The default serde of T. Not defined for types without one: specialise it, or pass a serde.
template <class T>
struct serde;

/// The widest bytes a fixed_width_serde may write (a sink's buffer for them).
inline constexpr std::size_t max_fixed_width = 8;

/// Optional for a serde: every value has the same number of bytes, `fixed_width` (1 to
/// max_fixed_width), written by `serialize_fixed(v, out)` into a plain buffer. Sinks use it to
/// spare std::string's out-of-line append per key and value.
template <class S, class T>
concept fixed_width_serde = requires(const S& s, const T& v, char* out) {
    requires S::fixed_width >= 1 && S::fixed_width <= max_fixed_width;
    s.serialize_fixed(v, out);
};

template <class T>
concept has_default_serde = requires { sizeof(serde<T>); } && serde_for<serde<T>, T>;

/// Checks, with a readable message, that T has a default serde. Used wherever a type crosses a
/// topic or a store without an explicit serde.
template <class T>
constexpr bool require_default_serde() {
    static_assert(has_default_serde<T>,
                  "kstreams: this key or value type has no default serde. Specialise "
                  "kstreams::serde<T> for it, or pass a serde explicitly (consumed/produced/"
                  "materialized/grouped). The type is named in the 'required from' lines.");
    return true;
}

namespace detail {
/// Stands in for the serde of a type that has none, after the static_assert below has reported
/// it, so that the compiler stops at that one readable error.
template <class T>
struct missing_serde {
    void serialize(const T&, std::string&) const {}
    T deserialize(std::string_view) const;
};

template <class T>
struct default_serde_of {
    static_assert(has_default_serde<T>,
                  "kstreams: this key or value type has no default serde. Specialise "
                  "kstreams::serde<T> for it, or pass a serde explicitly. The type is T in "
                  "'kstreams::detail::default_serde_of<T>' named in the lines around this one.");
    using type = std::conditional_t<has_default_serde<T>, serde<T>, missing_serde<T>>;
};
}  // namespace detail

/// The default serde of T, or a compile error naming T if it has none. Use it as the default
/// serde template argument of public API functions.
template <class T>
using default_serde_t = typename detail::default_serde_of<T>::type;

template <class S, class T>
bool serde_is_null(const S& s, const T& v) {
    if constexpr (requires { { s.is_null(v) } -> std::convertible_to<bool>; }) return s.is_null(v);
    else return false;
}

namespace detail {
[[noreturn]] void throw_wrong_size(const char* serde_name, std::size_t expected, std::size_t got);

/// Kafka's byte order is big-endian; a byte swap plus one copy is what the hand-written code
/// does (a per-byte loop was not always turned into one by the compiler, and sinks do this for
/// every record).
template <class U>
U to_from_big_endian(U u) {
    if constexpr (std::endian::native == std::endian::big || sizeof(U) == 1) return u;
    else if constexpr (sizeof(U) == 2) return __builtin_bswap16(u);
    else if constexpr (sizeof(U) == 4) return __builtin_bswap32(u);
    else return __builtin_bswap64(u);
}

/// Writes sizeof(Int) bytes at `out`.
template <class Int>
void put_big_endian(Int v, char* out) {
    using U = std::make_unsigned_t<Int>;
    const U be = to_from_big_endian(static_cast<U>(v));
    std::memcpy(out, &be, sizeof(U));
}
template <class Int>
void put_big_endian(Int v, std::string& out) {
    char buf[sizeof(Int)];
    put_big_endian(v, buf);
    out.append(buf, sizeof(Int));
}
/// Reads sizeof(Int) bytes; the caller checked the size.
template <class Int>
Int get_big_endian(std::string_view in) {
    using U = std::make_unsigned_t<Int>;
    U be;
    std::memcpy(&be, in.data(), sizeof(U));
    return static_cast<Int>(to_from_big_endian(be));
}
template <class Int>
struct fixed_int_serde {
    static constexpr const char* name() {
        if constexpr (sizeof(Int) == 2) return "int16 (Kafka ShortSerde)";
        else if constexpr (sizeof(Int) == 4) return "int32 (Kafka IntegerSerde)";
        else return "int64 (Kafka LongSerde)";
    }
    static constexpr std::size_t fixed_width = sizeof(Int);
    void serialize(Int v, std::string& out) const { put_big_endian(v, out); }
    void serialize_fixed(Int v, char* out) const { put_big_endian(v, out); }
    Int deserialize(std::string_view in) const {
        if (in.size() != sizeof(Int)) throw_wrong_size(name(), sizeof(Int), in.size());
        return get_big_endian<Int>(in);
    }
};
}  // namespace detail

template <>
struct serde<std::string> {
    void serialize(const std::string& v, std::string& out) const { out.append(v); }
    std::string deserialize(std::string_view in) const { return std::string(in); }
};

template <>
struct serde<std::int16_t> : detail::fixed_int_serde<std::int16_t> {};
template <>
struct serde<std::int32_t> : detail::fixed_int_serde<std::int32_t> {};
template <>
struct serde<std::int64_t> : detail::fixed_int_serde<std::int64_t> {};

/// IEEE 754 big-endian, as Kafka's DoubleSerde / FloatSerde. Doubles are written as Java's
/// Double.doubleToLongBits writes them: every NaN as the one canonical NaN (floats keep their bits,
/// as Kafka's FloatSerde writes Float.floatToRawIntBits).
template <>
struct serde<double> {
    static constexpr std::size_t fixed_width = 8;
    void serialize(double v, std::string& out) const { detail::put_big_endian(java_bits(v), out); }
    void serialize_fixed(double v, char* out) const { detail::put_big_endian(java_bits(v), out); }
    static std::uint64_t java_bits(double v) {
        constexpr std::uint64_t canonical_nan = 0x7ff8000000000000ULL;
        return std::isnan(v) ? canonical_nan : std::bit_cast<std::uint64_t>(v);
    }
    double deserialize(std::string_view in) const {
        if (in.size() != 8) detail::throw_wrong_size("double (Kafka DoubleSerde)", 8, in.size());
        return std::bit_cast<double>(detail::get_big_endian<std::uint64_t>(in));
    }
};
template <>
struct serde<float> {
    static constexpr std::size_t fixed_width = 4;
    void serialize(float v, std::string& out) const {
        detail::put_big_endian(std::bit_cast<std::uint32_t>(v), out);
    }
    void serialize_fixed(float v, char* out) const { detail::put_big_endian(std::bit_cast<std::uint32_t>(v), out); }
    float deserialize(std::string_view in) const {
        if (in.size() != 4) detail::throw_wrong_size("float (Kafka FloatSerde)", 4, in.size());
        return std::bit_cast<float>(detail::get_big_endian<std::uint32_t>(in));
    }
};

/// One byte, 1 or 0, as Kafka's BooleanSerde.
template <>
struct serde<bool> {
    void serialize(bool v, std::string& out) const { out.push_back(v ? '\x01' : '\x00'); }
    bool deserialize(std::string_view in) const;
};

template <>
struct serde<bytes> {
    void serialize(const bytes& v, std::string& out) const {
        out.append(reinterpret_cast<const char*>(v.data()), v.size());
    }
    bytes deserialize(std::string_view in) const {
        const auto* p = reinterpret_cast<const std::byte*>(in.data());
        return bytes(p, p + in.size());
    }
};

/// Always null; non-empty bytes are an error (Kafka's VoidSerde).
template <>
struct serde<void_value> {
    void serialize(void_value, std::string&) const {}
    bool is_null(void_value) const { return true; }
    void_value deserialize(std::string_view in) const;
};

/// std::optional<T>: nullopt is Kafka's null; otherwise T's serde.
template <class T>
    requires has_default_serde<T>
struct serde<std::optional<T>> {
    serde<T> inner{};
    void serialize(const std::optional<T>& v, std::string& out) const {
        if (v) inner.serialize(*v, out);
    }
    bool is_null(const std::optional<T>& v) const { return !v.has_value(); }
    std::optional<T> deserialize(std::string_view in) const { return inner.deserialize(in); }
};

/// Wraps a serde of T into one for std::optional<T>.
template <class T, class S>
struct optional_serde {
    S inner{};
    void serialize(const std::optional<T>& v, std::string& out) const {
        if (v) inner.serialize(*v, out);
    }
    bool is_null(const std::optional<T>& v) const { return !v.has_value(); }
    std::optional<T> deserialize(std::string_view in) const { return inner.deserialize(in); }
};

/// Serialises into a fresh string (convenience for tests and tools).
template <class T, class S = serde<T>>
std::string serialize_to_string(const T& v, const S& s = S{}) {
    std::string out;
    s.serialize(v, out);
    return out;
}

}  // namespace kstreams
