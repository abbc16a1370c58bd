// What flows between table operators: the new and the old value of a key (nullopt = null, i.e. the
// row is absent). Tables are changelogs; downstream operators that need the old value (a table
// grouping's subtractor) ask for it when the pipeline is built.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <kstreams/error.hpp>
#include <kstreams/record.hpp>
#include <kstreams/serde.hpp>

namespace kstreams {

template <class V>
struct change {
    std::optional<V> new_value;
    std::optional<V> old_value;
    /// False for an out-of-order update of a versioned table (Kafka's Change.isLatest): the store
    /// took it into the key's history, its current row did not change.
    bool is_latest = true;
    bool operator==(const change&) const = default;
};

namespace dsl_detail {

/// The record's value, or nullopt when it is null on the wire.
template <class K, class V>
std::optional<V> nullable_value(const record<K, V>& r) {
    if (has_null_value(r)) return std::nullopt;
    return r.value;
}

/// A reducer's or aggregator's result as a nullable row: nullopt when V is an optional and the
/// result is empty (Kafka's null), which deletes the row instead of storing a null.
template <class V, class R>
std::optional<V> nullable_result(R&& result) {
    V v(std::forward<R>(result));
    if constexpr (is_optional_v<V>)
        if (!v.has_value()) return std::nullopt;
    return std::optional<V>(std::move(v));
}

/// A plain record carrying `v`, null-flagged when v is nullopt.
template <class K, class V, class K2, class V2>
record<K, V> with_nullable_value(const record<K2, V2>& r, const std::optional<V>& v, const K& key) {
    record<K, V> out{key, v ? *v : V{}, r.timestamp, r.headers, r.key_null, !v.has_value()};
    if constexpr (is_optional_v<V>)
        if (v && !v->has_value()) out.value_null = true;
    return out;
}

/// Kafka's ByteUtils.writeVarint: zigzag, then 7 bits a byte, low groups first.
inline void put_zigzag_varint(std::int32_t v, std::string& out) {
    auto u = (static_cast<std::uint32_t>(v) << 1) ^ static_cast<std::uint32_t>(v >> 31);
    for (; u > 0x7F; u >>= 7) out.push_back(static_cast<char>((u & 0x7F) | 0x80));
    out.push_back(static_cast<char>(u));
}

/// Kafka's ByteUtils.readVarint from the front of `in`; `used` gets the bytes it took (at most 5).
inline std::int32_t get_zigzag_varint(std::string_view in, std::size_t& used) {
    std::uint32_t u = 0;
    for (std::size_t i = 0; i < 5 && i < in.size(); ++i) {
        const auto b = static_cast<unsigned char>(in[i]);
        u |= static_cast<std::uint32_t>(b & 0x7F) << (7 * i);
        if ((b & 0x80) == 0) {
            used = i + 1;
            return static_cast<std::int32_t>((u >> 1) ^ (0u - (u & 1)));
        }
    }
    throw deserialization_error(in.size() < 5 ? "change: the new value's length is cut short"
                                              : "change: the new value's length is a varint of more than 5 bytes");
}

/// change<V> through a repartition topic, as Kafka's ChangedSerializer (internal topics only):
/// new only = [new][0x01]; old only = [old][0x00]; both = [varint length of new][new][old][0x02],
/// the length a zigzag varint (ByteUtils.writeVarint).
template <class V, class VS>
struct change_serde {
    VS inner{};
    void serialize(const change<V>& c, std::string& out) const {
        if (c.new_value && c.old_value) {
            // The new value in place, then its length (at most 5 bytes) put in front of it: no
            // second buffer per record.
            const std::size_t at = out.size();
            inner.serialize(*c.new_value, out);
            std::string length;
            put_zigzag_varint(static_cast<std::int32_t>(out.size() - at), length);
            out.insert(at, length);
            inner.serialize(*c.old_value, out);
            out.push_back('\x02');
        } else if (c.new_value) {
            inner.serialize(*c.new_value, out);
            out.push_back('\x01');
        } else if (c.old_value) {
            inner.serialize(*c.old_value, out);
            out.push_back('\x00');
        }
    }
    bool is_null(const change<V>& c) const { return !c.new_value && !c.old_value; }
    change<V> deserialize(std::string_view in) const {
        if (in.empty()) throw deserialization_error("change: empty bytes");
        const char flag = in.back();
        in.remove_suffix(1);
        change<V> c;
        if (flag == '\x01') c.new_value = V(inner.deserialize(in));
        else if (flag == '\x00') c.old_value = V(inner.deserialize(in));
        else if (flag == '\x02') {
            std::size_t used = 0;
            const std::int32_t len = get_zigzag_varint(in, used);
            if (len < 0 || static_cast<std::size_t>(len) > in.size() - used)
                throw deserialization_error("change: the new value's length " + std::to_string(len) +
                                            " is not within the " + std::to_string(in.size() - used) + " bytes after it");
            c.new_value = V(inner.deserialize(in.substr(used, static_cast<std::size_t>(len))));
            c.old_value = V(inner.deserialize(in.substr(used + static_cast<std::size_t>(len))));
        } else {
            throw deserialization_error("change: unknown flag byte");
        }
        return c;
    }
};

}  // namespace dsl_detail
}  // namespace kstreams
