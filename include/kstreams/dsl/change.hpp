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

/// change<V> through a repartition topic. Layout (internal topics only): new only = [new][0x01];
/// old only = [old][0x00]; both = [4-byte big-endian length of new][new][old][0x02].
template <class V, class VS>
struct change_serde {
    VS inner{};
    void serialize(const change<V>& c, std::string& out) const {
        if (c.new_value && c.old_value) {
            const std::size_t at = out.size();
            detail::put_big_endian<std::int32_t>(0, out);
            inner.serialize(*c.new_value, out);
            const auto len = static_cast<std::int32_t>(out.size() - at - 4);
            std::string len_bytes;
            detail::put_big_endian<std::int32_t>(len, len_bytes);
            out.replace(at, 4, len_bytes);
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
            if (in.size() < 4) throw deserialization_error("change: short length prefix");
            const std::int32_t len = detail::get_big_endian<std::int32_t>(in);
            if (len < 0 || static_cast<std::size_t>(len) > in.size() - 4)
                throw deserialization_error("change: the new value's length " + std::to_string(len) +
                                            " is not within the " + std::to_string(in.size() - 4) + " bytes after it");
            c.new_value = V(inner.deserialize(in.substr(4, static_cast<std::size_t>(len))));
            c.old_value = V(inner.deserialize(in.substr(4 + static_cast<std::size_t>(len))));
        } else {
            throw deserialization_error("change: unknown flag byte");
        }
        return c;
    }
};

}  // namespace dsl_detail
}  // namespace kstreams
