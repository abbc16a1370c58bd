// Window stores (Kafka's WindowStore): values per key and window start, kept for a retention
// period. The byte store is what in-memory and RocksDB implementations provide; window_store<K,V>
// is the typed interface processors use. Changelog keys are `key ‖ 8-byte BE window start ‖ 4-byte
// BE sequence number`, as Kafka's store keys.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <kstreams/state/bytes_store.hpp>
#include <kstreams/state/key_value_store.hpp>
#include <kstreams/state/state_store.hpp>
#include <kstreams/state/wrapped_store.hpp>

namespace kstreams {

/// A time window: [start, end) for time windows, [start, end] for sessions.
struct window {
    std::int64_t start = 0;
    std::int64_t end = 0;
    auto operator<=>(const window&) const = default;
};

/// A key and the window it belongs to (Kafka's Windowed<K>).
template <class K>
struct windowed {
    K key{};
    kstreams::window window{};
    bool operator==(const windowed&) const = default;
};

/// A scan over a window or session store: the plain key bytes, the window and the value.
class bytes_window_iterator {
public:
    virtual ~bytes_window_iterator() = default;
    virtual bool valid() const = 0;
    virtual void next() = 0;
    virtual std::string_view key() const = 0;
    virtual kstreams::window window() const = 0;
    virtual std::string_view value() const = 0;
};

class bytes_window_store : public state_store {
public:
    /// Stores (nullopt: deletes) the value of `key` in the window starting at `window_start`. With
    /// duplicates retained every put adds an entry and a null value is ignored. Records older than
    /// the retention period (behind the latest window start seen) are dropped.
    virtual void put(std::string_view key, std::optional<std::string_view> value, std::int64_t window_start) = 0;
    virtual std::optional<std::string> fetch(std::string_view key, std::int64_t window_start) = 0;
    /// Windows of one key starting in [time_from, time_to], by start time.
    virtual std::unique_ptr<bytes_window_iterator> fetch(std::string_view key, std::int64_t time_from,
                                                         std::int64_t time_to, bool backward) = 0;
    /// Windows of keys in [key_from, key_to] (nullopt = open) starting in [time_from, time_to].
    virtual std::unique_ptr<bytes_window_iterator> fetch_range(const std::optional<std::string>& key_from,
                                                               const std::optional<std::string>& key_to,
                                                               std::int64_t time_from, std::int64_t time_to,
                                                               bool backward) = 0;
    virtual std::int64_t retention_period() const = 0;
    virtual std::int64_t window_size() const = 0;
    virtual bool retain_duplicates() const = 0;
    /// The order fetches return entries in: true if (key_a, start_a) comes before (key_b, start_b)
    /// in a forward (or backward) scan. A caching layer merges its entries in this order.
    virtual bool scan_before(std::string_view key_a, std::int64_t start_a, std::string_view key_b,
                             std::int64_t start_b, bool backward) const {
        const int c = key_a.compare(key_b);
        const bool before = c < 0 || (c == 0 && start_a < start_b);
        const bool same = c == 0 && start_a == start_b;
        return backward ? !before && !same : before;
    }
    /// Installs the listener the record cache calls for every window it writes down; the key is
    /// `key ‖ 8-byte BE window start`. Returns false when the store has no active cache.
    virtual bool set_flush_listener(bytes_flush_listener /*listener*/, bool /*send_old_values*/) { return false; }
};

/// Decodes a byte scan into typed entries as it goes.
template <class T>
class store_iterator {
public:
    using decode_fn = std::function<T(const bytes_window_iterator&)>;
    store_iterator(std::unique_ptr<bytes_window_iterator> it, decode_fn decode)
        : it_(std::move(it)), decode_(std::move(decode)) {}
    bool has_next() const { return it_ && it_->valid(); }
    T next() {
        T t = decode_(*it_);
        it_->next();
        return t;
    }
    std::vector<T> to_vector() {
        std::vector<T> out;
        while (has_next()) out.push_back(next());
        return out;
    }

private:
    std::unique_ptr<bytes_window_iterator> it_;
    decode_fn decode_;
};

/// The typed window store. Fetches by one key yield (window start, value); range fetches yield
/// (windowed key, value) with window end = start + window size.
template <class K, class V>
class window_store : public state_store {
public:
    virtual void put(const K& key, const V& value, std::int64_t window_start) = 0;
    /// Kafka's put(key, null, windowStart).
    virtual void remove(const K& key, std::int64_t window_start) = 0;
    virtual std::optional<V> fetch(const K& key, std::int64_t window_start) = 0;
    virtual store_iterator<key_value<std::int64_t, V>> fetch(const K& key, std::int64_t time_from,
                                                            std::int64_t time_to) = 0;
    virtual store_iterator<key_value<std::int64_t, V>> backward_fetch(const K& key, std::int64_t time_from,
                                                                     std::int64_t time_to) = 0;
    virtual store_iterator<key_value<windowed<K>, V>> fetch(const std::optional<K>& key_from,
                                                           const std::optional<K>& key_to, std::int64_t time_from,
                                                           std::int64_t time_to) = 0;
    virtual store_iterator<key_value<windowed<K>, V>> backward_fetch(const std::optional<K>& key_from,
                                                                    const std::optional<K>& key_to,
                                                                    std::int64_t time_from, std::int64_t time_to) = 0;
    virtual store_iterator<key_value<windowed<K>, V>> fetch_all(std::int64_t time_from, std::int64_t time_to) = 0;
    virtual store_iterator<key_value<windowed<K>, V>> backward_fetch_all(std::int64_t time_from,
                                                                        std::int64_t time_to) = 0;
    virtual store_iterator<key_value<windowed<K>, V>> all() = 0;
    virtual store_iterator<key_value<windowed<K>, V>> backward_all() = 0;

    /// Gets (windowed key, new value, old value, timestamp and headers of the record that last
    /// wrote it) for every window the record cache writes down; nullopt values are deletes.
    using flush_listener = std::function<void(const windowed<K>& key, std::optional<V> new_value,
                                              std::optional<V> old_value, std::int64_t timestamp,
                                              const headers& hdrs)>;
    /// Installs the cache's flush listener. Returns false when the store has no active cache, in
    /// which case the caller forwards results itself.
    virtual bool set_flush_listener(flush_listener /*listener*/, bool /*send_old_values*/) { return false; }
};

namespace detail {
/// Decodes a cache flush of a byte store into typed (key, new, old) values; `window_of` turns the
/// binary key's suffix into the window, `suffix` is its size.
template <class K, class V, class L, class W>
bytes_flush_listener typed_window_flush_listener(kv_codec<K, V>* codec, L listener, std::size_t suffix, W window_of) {
    return [codec, suffix, l = std::move(listener), window_of](std::string_view k, std::optional<std::string_view> nv,
                                                              std::optional<std::string_view> ov, std::int64_t ts,
                                                              const headers& hdrs) {
        const std::string_view plain = k.substr(0, k.size() - suffix);
        l(windowed<K>{codec->decode_key(plain), window_of(k.substr(k.size() - suffix))},
          nv ? std::optional<V>(codec->decode_value(*nv)) : std::nullopt,
          ov ? std::optional<V>(codec->decode_value(*ov)) : std::nullopt, ts, hdrs);
    };
}
}  // namespace detail

template <class K, class V>
class typed_window_store final : public wrapped_store<window_store<K, V>, bytes_window_store> {
    using base = wrapped_store<window_store<K, V>, bytes_window_store>;
    using base::inner_;

public:
    typed_window_store(std::unique_ptr<bytes_window_store> inner, std::unique_ptr<kv_codec<K, V>> codec)
        : base(std::move(inner)), codec_(std::move(codec)) {}

    void put(const K& key, const V& value, std::int64_t window_start) override {
        std::string v;
        codec_->encode_value(value, v);
        inner_->put(key_bytes(key), v, window_start);
    }
    void remove(const K& key, std::int64_t window_start) override {
        inner_->put(key_bytes(key), std::nullopt, window_start);
    }
    std::optional<V> fetch(const K& key, std::int64_t window_start) override {
        auto b = inner_->fetch(key_bytes(key), window_start);
        if (!b) return std::nullopt;
        return codec_->decode_value(*b);
    }
    store_iterator<key_value<std::int64_t, V>> fetch(const K& key, std::int64_t from, std::int64_t to) override {
        return by_time(inner_->fetch(key_bytes(key), from, to, false));
    }
    store_iterator<key_value<std::int64_t, V>> backward_fetch(const K& key, std::int64_t from, std::int64_t to) override {
        return by_time(inner_->fetch(key_bytes(key), from, to, true));
    }
    store_iterator<key_value<windowed<K>, V>> fetch(const std::optional<K>& kf, const std::optional<K>& kt,
                                                   std::int64_t from, std::int64_t to) override {
        return by_key(inner_->fetch_range(opt_bytes(kf), opt_bytes(kt), from, to, false));
    }
    store_iterator<key_value<windowed<K>, V>> backward_fetch(const std::optional<K>& kf, const std::optional<K>& kt,
                                                            std::int64_t from, std::int64_t to) override {
        return by_key(inner_->fetch_range(opt_bytes(kf), opt_bytes(kt), from, to, true));
    }
    store_iterator<key_value<windowed<K>, V>> fetch_all(std::int64_t from, std::int64_t to) override {
        return by_key(inner_->fetch_range(std::nullopt, std::nullopt, from, to, false));
    }
    store_iterator<key_value<windowed<K>, V>> backward_fetch_all(std::int64_t from, std::int64_t to) override {
        return by_key(inner_->fetch_range(std::nullopt, std::nullopt, from, to, true));
    }
    store_iterator<key_value<windowed<K>, V>> all() override { return fetch_all(INT64_MIN, INT64_MAX); }
    store_iterator<key_value<windowed<K>, V>> backward_all() override { return backward_fetch_all(INT64_MIN, INT64_MAX); }
    bool set_flush_listener(typename window_store<K, V>::flush_listener listener, bool send_old_values) override {
        if (!listener) return inner_->set_flush_listener({}, send_old_values);
        const std::int64_t size = inner_->window_size();
        return inner_->set_flush_listener(
            detail::typed_window_flush_listener(codec_.get(), std::move(listener), 8,
                                                [size](std::string_view suffix) {
                                                    const auto start = detail::get_big_endian<std::int64_t>(suffix);
                                                    // Kafka clamps an overflowing window end to the largest time.
                                                    const std::int64_t end =
                                                        start > INT64_MAX - size ? INT64_MAX : start + size;
                                                    return kstreams::window{start, end};
                                                }),
            send_old_values);
    }

    bytes_window_store& bytes_store() { return *inner_; }

private:
    std::string key_bytes(const K& k) const {
        std::string out;
        codec_->encode_key(k, out);
        return out;
    }
    std::optional<std::string> opt_bytes(const std::optional<K>& k) const {
        if (!k) return std::nullopt;
        return key_bytes(*k);
    }
    store_iterator<key_value<std::int64_t, V>> by_time(std::unique_ptr<bytes_window_iterator> it) {
        return {std::move(it), [c = codec_.get()](const bytes_window_iterator& i) {
                    return key_value<std::int64_t, V>{i.window().start, c->decode_value(i.value())};
                }};
    }
    store_iterator<key_value<windowed<K>, V>> by_key(std::unique_ptr<bytes_window_iterator> it) {
        return {std::move(it), [c = codec_.get()](const bytes_window_iterator& i) {
                    return key_value<windowed<K>, V>{{c->decode_key(i.key()), i.window()}, c->decode_value(i.value())};
                }};
    }

    std::unique_ptr<kv_codec<K, V>> codec_;
};

}  // namespace kstreams
