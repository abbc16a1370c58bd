// A record as processors see it: key, value, timestamp and headers.
#pragma once

#include <cstdint>
#include <memory>
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
///
/// A value type whose copies share one list until one of them is changed (copy on write): records
/// carry their headers through every operator, and copying a list per operator would allocate per
/// record and operator.
class headers {
public:
    headers() = default;
    headers(std::initializer_list<header> items)
        : items_(items.size() == 0 ? nullptr : std::make_shared<std::vector<header>>(items)) {}

    headers& add(std::string key, std::optional<std::string> value) {
        own().push_back({std::move(key), std::move(value)});
        return *this;
    }
    /// Removes every header with this key.
    headers& remove(std::string_view key) {
        if (last(key)) std::erase_if(own(), [&](const header& h) { return h.key == key; });
        return *this;
    }
    /// The last header with this key, or null.
    const header* last(std::string_view key) const {
        for (auto it = list().rbegin(); it != list().rend(); ++it)
            if (it->key == key) return &*it;
        return nullptr;
    }
    auto begin() const { return list().begin(); }
    auto end() const { return list().end(); }
    std::size_t size() const { return items_ ? items_->size() : 0; }
    bool empty() const { return size() == 0; }
    bool operator==(const headers& o) const { return items_ == o.items_ || list() == o.list(); }

private:
    const std::vector<header>& list() const {
        static const std::vector<header> none;
        return items_ ? *items_ : none;
    }
    /// The list, made this object's own before a change.
    std::vector<header>& own() {
        if (!items_) items_ = std::make_shared<std::vector<header>>();
        else if (items_.use_count() > 1) items_ = std::make_shared<std::vector<header>>(*items_);
        return *items_;
    }

    std::shared_ptr<std::vector<header>> items_;
};

/// The timestamp and headers of the record a processor is processing (Kafka's record context):
/// each forward sets it for the children, and stores read it, so that a record cache entry keeps
/// the timestamp and headers of the record that wrote it and forwards them when flushed.
struct record_context {
    std::int64_t timestamp = 0;
    const headers* hdrs = nullptr;  ///< null: no headers
    /// A sink sent the record in this context: as Kafka's (ProcessorRecordContext.freeRawRecord),
    /// the source record's raw bytes are gone for the error handlers of what follows in it.
    bool raw_released = false;
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
