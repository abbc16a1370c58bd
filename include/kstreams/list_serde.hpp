// Kafka's ListSerde (Serdes.ListSerde, KIP-466) for std::vector<T>: the bytes Java's
// ListSerializer writes and ListDeserializer reads, so that a list aggregated here can be read
// there and the other way round. Including this header makes it the default serde of
// std::vector<T> for every T with a default serde (kstreams::bytes, a vector of std::byte, keeps
// its own); list_serde<T, S> takes another serde for the elements.
//
// Layout (big-endian): one byte, the strategy. 0 (CONSTANT_SIZE, for Short, Integer, Long, Float
// and Double elements): the count of null elements and their indexes (4 bytes each), the element
// count, then the non-null elements' bytes. 1 (VARIABLE_SIZE, any other element): the element
// count, then per element its length (-1 for null) and its bytes. A null element is an empty
// std::optional of a vector<std::optional<U>>.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <kstreams/error.hpp>
#include <kstreams/serde.hpp>

namespace kstreams {

namespace detail {

template <class T>
struct list_element {
    using plain = T;
};
template <class U>
struct list_element<std::optional<U>> {
    using plain = U;
};

/// The fixed size Kafka's ListSerde gives an element type's default serde; 0 for variable.
template <class T, class S>
constexpr std::size_t list_fixed_size() {
    using U = typename list_element<T>::plain;
    if constexpr (!std::is_same_v<S, serde<T>>) {
        return 0;
    } else if constexpr (std::is_same_v<U, std::int16_t> || std::is_same_v<U, std::int32_t> ||
                         std::is_same_v<U, std::int64_t> || std::is_same_v<U, float> || std::is_same_v<U, double>) {
        return sizeof(U);
    } else {
        return 0;
    }
}

inline std::int32_t list_read_int(std::string_view in, std::size_t& at) {
    if (in.size() - at < 4) throw deserialization_error("ListSerde: the bytes end inside a 4-byte integer");
    const auto v = get_big_endian<std::int32_t>(in.substr(at, 4));
    at += 4;
    return v;
}

}  // namespace detail

template <class T, class S = default_serde_t<T>>
struct list_serde {
    S inner{};
    static constexpr std::size_t fixed = detail::list_fixed_size<T, S>();

    void serialize(const std::vector<T>& list, std::string& out) const {
        out.push_back(static_cast<char>(fixed ? 0 : 1));
        if constexpr (fixed != 0) {
            std::int32_t nulls = 0;
            for (const auto& e : list) nulls += serde_is_null(inner, e) ? 1 : 0;
            detail::put_big_endian<std::int32_t>(nulls, out);
            for (std::size_t i = 0; i < list.size(); ++i)
                if (serde_is_null(inner, list[i])) detail::put_big_endian<std::int32_t>(static_cast<std::int32_t>(i), out);
        }
        detail::put_big_endian<std::int32_t>(static_cast<std::int32_t>(list.size()), out);
        std::string element;
        for (const auto& e : list) {
            if (serde_is_null(inner, e)) {
                if constexpr (fixed == 0) detail::put_big_endian<std::int32_t>(-1, out);
                continue;
            }
            element.clear();
            inner.serialize(e, element);
            if constexpr (fixed == 0) detail::put_big_endian<std::int32_t>(static_cast<std::int32_t>(element.size()), out);
            out += element;
        }
    }

    std::vector<T> deserialize(std::string_view in) const {
        if (in.empty()) throw deserialization_error("ListSerde: no bytes (a list has at least its strategy byte)");
        const auto strategy = static_cast<unsigned char>(in[0]);
        if (strategy != (fixed ? 0 : 1))
            throw deserialization_error("ListSerde: serialization strategy " + std::to_string(strategy) + " where " +
                                        std::to_string(fixed ? 0 : 1) + " is expected for this element type");
        std::size_t at = 1;
        std::vector<std::int32_t> null_at;
        if constexpr (fixed != 0) {
            const std::int32_t nulls = detail::list_read_int(in, at);
            if (nulls < 0 || static_cast<std::size_t>(nulls) > (in.size() - at) / 4)
                throw deserialization_error("ListSerde: invalid null count " + std::to_string(nulls));
            for (std::int32_t i = 0; i < nulls; ++i) null_at.push_back(detail::list_read_int(in, at));
        }
        const std::int32_t size = detail::list_read_int(in, at);
        if (size < 0 || static_cast<std::size_t>(size) > in.size())
            throw deserialization_error("ListSerde: invalid element count " + std::to_string(size));
        std::vector<T> out;
        out.reserve(static_cast<std::size_t>(size));
        std::size_t next_null = 0;
        for (std::int32_t i = 0; i < size; ++i) {
            std::int32_t length;
            if constexpr (fixed != 0) {
                if (next_null < null_at.size() && null_at[next_null] == i) {
                    ++next_null;
                    length = -1;
                } else {
                    length = static_cast<std::int32_t>(fixed);
                }
            } else {
                length = detail::list_read_int(in, at);
            }
            if (length == -1) {
                out.push_back(T{});
                continue;
            }
            if (length < 0 || static_cast<std::size_t>(length) > in.size() - at)
                throw deserialization_error("ListSerde: element " + std::to_string(i) + " of " + std::to_string(length) +
                                            " bytes goes past the end");
            out.push_back(T(inner.deserialize(in.substr(at, static_cast<std::size_t>(length)))));
            at += static_cast<std::size_t>(length);
        }
        if (at != in.size()) throw deserialization_error("ListSerde: " + std::to_string(in.size() - at) + " bytes left over");
        return out;
    }
};

template <class T>
    requires(has_default_serde<T> && !std::is_same_v<T, std::byte>)
struct serde<std::vector<T>> : list_serde<T> {};

}  // namespace kstreams
