// A record as processors see it: key, value, timestamp and headers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace kstreams {

/// One record header. Kafka header values are nullable bytes.
struct header {
    std::string key;
    std::optional<std::string> value;
    bool operator==(const header&) const = default;
};

/// An ordered list of headers; keys may repeat, as in Kafka.
class headers {
public:
    headers() = default;
    headers(std::initializer_list<header> items) : items_(items) {}

    headers& add(std::string key, std::optional<std::string> value) {
        items_.push_back({std::move(key), std::move(value)});
        return *this;
    }
    /// Removes every header with this key.
    headers& remove(std::string_view key) {
        std::erase_if(items_, [&](const header& h) { return h.key == key; });
        return *this;
    }
    /// The last header with this key, or null.
    const header* last(std::string_view key) const {
        for (auto it = items_.rbegin(); it != items_.rend(); ++it)
            if (it->key == key) return &*it;
        return nullptr;
    }
    auto begin() const { return items_.begin(); }
    auto end() const { return items_.end(); }
    std::size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }
    bool operator==(const headers&) const = default;

private:
    std::vector<header> items_;
};

/// Where the record being processed came from. Absent for records forwarded by a punctuation.
struct record_metadata {
    std::string_view topic;
    std::int32_t partition = -1;
    std::int64_t offset = -1;
};

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
inline constexpr bool is_optional_v = is_optional<T>::value;

/// A record flowing through a topology. Records are values: operators build new ones with the
/// with_* helpers instead of changing the one they were given.
///
/// Kafka keys and values are nullable. Declare `std::optional<T>` to see nulls in your own code; for
/// a non-optional type a null from Kafka arrives as `T{}` with `key_null` / `value_null` set, so that
/// key-based operations still drop null keys, tables still treat null values as deletes, and sinks
/// still write nulls, exactly as Kafka Streams does.
template <class K, class V>
struct record {
    using key_type = K;
    using value_type = V;

    K key{};
    V value{};
    std::int64_t timestamp = 0;
    kstreams::headers headers{};
    bool key_null = false;
    bool value_null = false;

    template <class K2>
    record<std::decay_t<K2>, V> with_key(K2&& k) const {
        return {std::forward<K2>(k), value, timestamp, headers, false, value_null};
    }
    template <class V2>
    record<K, std::decay_t<V2>> with_value(V2&& v) const {
        return {key, std::forward<V2>(v), timestamp, headers, key_null, false};
    }
    record with_timestamp(std::int64_t ts) const {
        record r = *this;
        r.timestamp = ts;
        return r;
    }
    record with_headers(kstreams::headers h) const {
        record r = *this;
        r.headers = std::move(h);
        return r;
    }
    bool operator==(const record&) const = default;
};

/// True when the record's key is null on the wire (nullopt, or flagged null).
template <class K, class V>
bool has_null_key(const record<K, V>& r) {
    if constexpr (is_optional_v<K>) return r.key_null || !r.key.has_value();
    else return r.key_null;
}

/// True when the record's value is null on the wire (nullopt, or flagged null).
template <class K, class V>
bool has_null_value(const record<K, V>& r) {
    if constexpr (is_optional_v<V>) return r.value_null || !r.value.has_value();
    else return r.value_null;
}

}  // namespace kstreams
