// Session stores (Kafka's SessionStore): one aggregate per key and session window [start, end],
// kept for a retention period after the session's end. Changelog keys are `key ‖ 8-byte BE end ‖
// 8-byte BE start`, as Kafka's SessionKeySchema.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <kstreams/state/window_store.hpp>
#include <kstreams/state/wrapped_store.hpp>

namespace kstreams {

class bytes_session_store : public state_store {
public:
    /// Stores (nullopt: removes) the aggregate of a session. A session out of retention is dropped
    /// (see drops_write).
    virtual void put(std::string_view key, kstreams::window session, std::optional<std::string_view> value) = 0;
    virtual std::optional<std::string> fetch_session(std::string_view key, std::int64_t start, std::int64_t end) = 0;
    /// Sessions of keys in [key_from, key_to] (nullopt = open) with end >= earliest_session_end and
    /// start <= latest_session_start.
    virtual std::unique_ptr<bytes_window_iterator> find_sessions(const std::optional<std::string>& key_from,
                                                                 const std::optional<std::string>& key_to,
                                                                 std::int64_t earliest_session_end,
                                                                 std::int64_t latest_session_start, bool backward) = 0;
    virtual std::int64_t retention_period() const = 0;
    /// Whether put() drops a session ending at `end` as out of retention once the store's stream
    /// time (the latest session end it saw) is `stream_time`. By default, when the session ended
    /// at or before stream_time - retention (Kafka's in-memory session store); kstreams' RocksDB
    /// session stores, as Kafka's, only when the whole time segment holding it is that old. Reads
    /// show neither kind (except a time-ordered store's read across all keys, emitting on close).
    virtual bool drops_write(std::int64_t end, std::int64_t stream_time) const {
        const std::int64_t retention = retention_period();
        return stream_time >= INT64_MIN + retention && end <= stream_time - retention;
    }
    /// The order find_sessions returns sessions in: true if (key_a, a) comes before (key_b, b) in a
    /// forward (or backward) scan. A caching layer merges its entries in this order.
    virtual bool scan_before(std::string_view key_a, kstreams::window a, std::string_view key_b, kstreams::window b,
                             bool backward) const {
        const int c = key_a.compare(key_b);
        const bool before = c < 0 || (c == 0 && std::pair(a.end, a.start) < std::pair(b.end, b.start));
        const bool same = c == 0 && a == b;
        return backward ? !before && !same : before;
    }
    /// Installs the listener the record cache calls for every session it writes down; the key is
    /// `key ‖ 8-byte BE end ‖ 8-byte BE start`. Returns false when the store has no active cache.
    virtual bool set_flush_listener(bytes_flush_listener /*listener*/, bool /*send_old_values*/) { return false; }
};

template <class K, class V>
class session_store : public state_store {
public:
    using iterator = store_iterator<key_value<windowed<K>, V>>;
    virtual void put(const windowed<K>& session, const V& aggregate) = 0;
    virtual void remove(const windowed<K>& session) = 0;
    virtual std::optional<V> fetch_session(const K& key, std::int64_t start, std::int64_t end) = 0;
    virtual iterator find_sessions(const K& key, std::int64_t earliest_session_end, std::int64_t latest_session_start) = 0;
    virtual iterator backward_find_sessions(const K& key, std::int64_t earliest_session_end,
                                            std::int64_t latest_session_start) = 0;
    virtual iterator find_sessions(const std::optional<K>& key_from, const std::optional<K>& key_to,
                                   std::int64_t earliest_session_end, std::int64_t latest_session_start) = 0;
    virtual iterator backward_find_sessions(const std::optional<K>& key_from, const std::optional<K>& key_to,
                                            std::int64_t earliest_session_end, std::int64_t latest_session_start) = 0;
    /// All sessions of a key (Kafka's fetch(key)).
    iterator fetch(const K& key) { return find_sessions(key, 0, INT64_MAX); }
    iterator backward_fetch(const K& key) { return backward_find_sessions(key, 0, INT64_MAX); }
    iterator fetch(const std::optional<K>& key_from, const std::optional<K>& key_to) {
        return find_sessions(key_from, key_to, 0, INT64_MAX);
    }

    /// Gets (session, new aggregate, old aggregate, timestamp of the record that last wrote it)
    /// for every session the record cache writes down; nullopt values are deletes.
    using flush_listener = typename window_store<K, V>::flush_listener;
    /// Installs the cache's flush listener. Returns false when the store has no active cache.
    virtual bool set_flush_listener(flush_listener /*listener*/, bool /*send_old_values*/) { return false; }
};

template <class K, class V>
class typed_session_store final : public wrapped_store<session_store<K, V>, bytes_session_store> {
    using base = wrapped_store<session_store<K, V>, bytes_session_store>;
    using base::inner_;

public:
    using typename session_store<K, V>::iterator;
    typed_session_store(std::unique_ptr<bytes_session_store> inner, std::unique_ptr<kv_codec<K, V>> codec)
        : base(std::move(inner)), codec_(std::move(codec)) {}

    void put(const windowed<K>& s, const V& aggregate) override {
        std::string v;
        codec_->encode_value(aggregate, v);
        inner_->put(key_bytes(s.key), s.window, v);
    }
    void remove(const windowed<K>& s) override { inner_->put(key_bytes(s.key), s.window, std::nullopt); }
    std::optional<V> fetch_session(const K& key, std::int64_t start, std::int64_t end) override {
        auto b = inner_->fetch_session(key_bytes(key), start, end);
        if (!b) return std::nullopt;
        return codec_->decode_value(*b);
    }
    iterator find_sessions(const K& key, std::int64_t earliest_end, std::int64_t latest_start) override {
        auto k = key_bytes(key);
        return wrap(inner_->find_sessions(k, k, earliest_end, latest_start, false));
    }
    iterator backward_find_sessions(const K& key, std::int64_t earliest_end, std::int64_t latest_start) override {
        auto k = key_bytes(key);
        return wrap(inner_->find_sessions(k, k, earliest_end, latest_start, true));
    }
    iterator find_sessions(const std::optional<K>& kf, const std::optional<K>& kt, std::int64_t earliest_end,
                           std::int64_t latest_start) override {
        return wrap(inner_->find_sessions(opt_bytes(kf), opt_bytes(kt), earliest_end, latest_start, false));
    }
    iterator backward_find_sessions(const std::optional<K>& kf, const std::optional<K>& kt, std::int64_t earliest_end,
                                    std::int64_t latest_start) override {
        return wrap(inner_->find_sessions(opt_bytes(kf), opt_bytes(kt), earliest_end, latest_start, true));
    }
    bool set_flush_listener(typename session_store<K, V>::flush_listener listener, bool send_old_values) override {
        if (!listener) return inner_->set_flush_listener({}, send_old_values);
        return inner_->set_flush_listener(
            detail::typed_window_flush_listener(codec_.get(), std::move(listener), 16,
                                                [](std::string_view suffix) {
                                                    return kstreams::window{
                                                        detail::get_big_endian<std::int64_t>(suffix.substr(8)),
                                                        detail::get_big_endian<std::int64_t>(suffix)};
                                                }),
            send_old_values);
    }

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
    iterator wrap(std::unique_ptr<bytes_window_iterator> it) {
        return {std::move(it), [c = codec_.get()](const bytes_window_iterator& i) {
                    return key_value<windowed<K>, V>{{c->decode_key(i.key()), i.window()}, c->decode_value(i.value())};
                }};
    }

    std::unique_ptr<kv_codec<K, V>> codec_;
};

}  // namespace kstreams
