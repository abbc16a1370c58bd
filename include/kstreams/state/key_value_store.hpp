// Typed key-value stores: the interface processors use, and the wrapper that serializes into a
// byte store underneath.
#pragma once

#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/serde.hpp>
#include <kstreams/state/bytes_store.hpp>
#include <kstreams/state/wrapped_store.hpp>

namespace kstreams {

template <class K, class V>
struct key_value {
    K key;
    V value;
    bool operator==(const key_value&) const = default;
};

/// Turns store bytes back into typed keys and values (one per typed store, shared by iterators).
template <class K, class V>
class kv_codec {
public:
    virtual ~kv_codec() = default;
    virtual void encode_key(const K& k, std::string& out) const = 0;
    virtual void encode_value(const V& v, std::string& out) const = 0;
    virtual K decode_key(std::string_view b) const = 0;
    virtual V decode_value(std::string_view b) const = 0;
};

template <class K, class V, class KS, class VS>
class serde_kv_codec final : public kv_codec<K, V> {
public:
    serde_kv_codec(KS ks, VS vs) : ks_(std::move(ks)), vs_(std::move(vs)) {}
    void encode_key(const K& k, std::string& out) const override { ks_.serialize(k, out); }
    void encode_value(const V& v, std::string& out) const override { vs_.serialize(v, out); }
    K decode_key(std::string_view b) const override { return ks_.deserialize(b); }
    V decode_value(std::string_view b) const override { return vs_.deserialize(b); }

private:
    KS ks_;
    VS vs_;
};

/// An ordered scan over a typed store. Usable with range-for; closes itself when destroyed.
template <class K, class V>
class key_value_iterator {
public:
    key_value_iterator(std::unique_ptr<bytes_iterator> it, const kv_codec<K, V>* codec)
        : it_(std::move(it)), codec_(codec) {}

    bool has_next() const { return it_ && it_->valid(); }
    key_value<K, V> next() {
        key_value<K, V> kv{codec_->decode_key(it_->key()), codec_->decode_value(it_->value())};
        it_->next();
        return kv;
    }
    K peek_next_key() const { return codec_->decode_key(it_->key()); }

    /// The byte scan and the codec underneath, for adapters that decode it differently.
    const kv_codec<K, V>* codec() const { return codec_; }
    std::unique_ptr<bytes_iterator> release_bytes() && { return std::move(it_); }

    /// Reads everything left into a vector.
    std::vector<key_value<K, V>> to_vector() {
        std::vector<key_value<K, V>> out;
        while (has_next()) out.push_back(next());
        return out;
    }

    struct sentinel {};
    class iterator {
    public:
        using value_type = key_value<K, V>;
        using difference_type = std::ptrdiff_t;
        explicit iterator(key_value_iterator* owner) : owner_(owner) { advance(); }
        const value_type& operator*() const { return *current_; }
        const value_type* operator->() const { return &*current_; }
        iterator& operator++() {
            advance();
            return *this;
        }
        void operator++(int) { advance(); }
        bool operator==(sentinel) const { return !current_; }

    private:
        void advance() {
            if (owner_->has_next()) current_ = owner_->next();
            else current_.reset();
        }
        key_value_iterator* owner_;
        std::optional<value_type> current_;
    };
    iterator begin() { return iterator(this); }
    sentinel end() { return {}; }

private:
    std::unique_ptr<bytes_iterator> it_;
    const kv_codec<K, V>* codec_;
};

/// A typed key-value store. `range` bounds are inclusive; nullopt means open-ended.
template <class K, class V>
class key_value_store : public state_store {
public:
    using key_type = K;
    using value_type = V;

    virtual std::optional<V> get(const K& key) = 0;
    virtual void put(const K& key, const V& value) = 0;
    /// The existing value, or nullopt after storing `value`.
    virtual std::optional<V> put_if_absent(const K& key, const V& value) = 0;
    virtual void put_all(const std::vector<key_value<K, V>>& entries) = 0;
    /// Removes the key (Kafka's delete); returns the old value.
    virtual std::optional<V> remove(const K& key) = 0;
    /// Removes the key without reading the old value (Kafka's put(key, null)).
    virtual void erase(const K& key) { remove(key); }
    virtual key_value_iterator<K, V> range(const std::optional<K>& from, const std::optional<K>& to) = 0;
    virtual key_value_iterator<K, V> reverse_range(const std::optional<K>& from,
                                                   const std::optional<K>& to) = 0;
    virtual key_value_iterator<K, V> all() = 0;
    virtual key_value_iterator<K, V> reverse_all() = 0;
    /// Keys whose serialized bytes start with the serialized prefix.
    template <class P, class PS = serde<P>>
    key_value_iterator<K, V> prefix_scan(const P& prefix, const PS& prefix_serde = PS{}) {
        std::string bytes;
        prefix_serde.serialize(prefix, bytes);
        return prefix_scan_bytes(bytes);
    }
    virtual std::uint64_t approximate_num_entries() = 0;

    /// Gets (key, new value, old value, timestamp and headers of the record that last wrote the
    /// entry) for every entry the record cache writes down; nullopt values are deletes.
    using flush_listener = std::function<void(const K& key, std::optional<V> new_value, std::optional<V> old_value,
                                              std::int64_t timestamp, const headers& hdrs)>;
    /// Installs the cache's flush listener. Returns false when the store has no active cache, in
    /// which case the caller forwards results itself (Kafka's TimestampedTupleForwarder).
    virtual bool set_flush_listener(flush_listener /*listener*/, bool /*send_old_values*/) { return false; }

protected:
    virtual key_value_iterator<K, V> prefix_scan_bytes(std::string_view prefix) = 0;
};

/// A typed store over a byte store; serializes with the codec's serdes.
template <class K, class V>
class typed_key_value_store final : public wrapped_store<key_value_store<K, V>, bytes_key_value_store> {
    using base = wrapped_store<key_value_store<K, V>, bytes_key_value_store>;
    using base::inner_;

public:
    typed_key_value_store(std::unique_ptr<bytes_key_value_store> inner,
                          std::unique_ptr<kv_codec<K, V>> codec)
        : base(std::move(inner)), codec_(std::move(codec)) {}

    std::optional<V> get(const K& key) override {
        // Into a buffer kept between calls: a read allocates nothing once the buffer has grown.
        if (!inner_->get_into(key_bytes(key), read_buf_)) return std::nullopt;
        return codec_->decode_value(read_buf_);
    }
    void put(const K& key, const V& value) override {
        key_bytes(key);
        value_buf_.clear();
        codec_->encode_value(value, value_buf_);
        inner_->put(key_buf_, value_buf_);
    }
    std::optional<V> put_if_absent(const K& key, const V& value) override {
        key_bytes(key);
        value_buf_.clear();
        codec_->encode_value(value, value_buf_);
        return decode(inner_->put_if_absent(key_buf_, value_buf_));
    }
    void put_all(const std::vector<key_value<K, V>>& entries) override {
        std::vector<std::pair<std::string, std::string>> raw;
        raw.reserve(entries.size());
        for (const auto& e : entries) {
            std::string k, v;
            codec_->encode_key(e.key, k);
            codec_->encode_value(e.value, v);
            raw.emplace_back(std::move(k), std::move(v));
        }
        inner_->put_all(raw);
    }
    std::optional<V> remove(const K& key) override { return decode(inner_->remove(key_bytes(key))); }
    void erase(const K& key) override { inner_->erase(key_bytes(key)); }
    bool set_flush_listener(typename key_value_store<K, V>::flush_listener listener, bool send_old_values) override {
        if (!listener) return inner_->set_flush_listener({}, send_old_values);
        return inner_->set_flush_listener(
            [codec = codec_.get(), l = std::move(listener)](std::string_view k, std::optional<std::string_view> nv,
                                                           std::optional<std::string_view> ov, std::int64_t ts,
                                                           const headers& hdrs) {
                l(codec->decode_key(k), nv ? std::optional<V>(codec->decode_value(*nv)) : std::nullopt,
                  ov ? std::optional<V>(codec->decode_value(*ov)) : std::nullopt, ts, hdrs);
            },
            send_old_values);
    }
    key_value_iterator<K, V> range(const std::optional<K>& from, const std::optional<K>& to) override {
        return {inner_->range(bounds(from, to), false), codec_.get()};
    }
    key_value_iterator<K, V> reverse_range(const std::optional<K>& from,
                                           const std::optional<K>& to) override {
        return {inner_->range(bounds(from, to), true), codec_.get()};
    }
    key_value_iterator<K, V> all() override { return {inner_->range({}, false), codec_.get()}; }
    key_value_iterator<K, V> reverse_all() override { return {inner_->range({}, true), codec_.get()}; }
    std::uint64_t approximate_num_entries() override { return inner_->approximate_num_entries(); }

    bytes_key_value_store& bytes_store() { return *inner_; }

protected:
    key_value_iterator<K, V> prefix_scan_bytes(std::string_view prefix) override {
        return {inner_->prefix_scan(prefix), codec_.get()};
    }

private:
    const std::string& key_bytes(const K& key) {
        key_buf_.clear();
        codec_->encode_key(key, key_buf_);
        return key_buf_;
    }
    std::optional<V> decode(const std::optional<std::string>& b) const {
        if (!b) return std::nullopt;
        return codec_->decode_value(*b);
    }
    key_range bounds(const std::optional<K>& from, const std::optional<K>& to) const {
        key_range r;
        if (from) codec_->encode_key(*from, r.from.emplace());
        if (to) codec_->encode_key(*to, r.to.emplace());
        return r;
    }

    std::unique_ptr<kv_codec<K, V>> codec_;
    std::string key_buf_;
    std::string value_buf_;
    std::string read_buf_;
};

}  // namespace kstreams
