// A timestamped key-value store seen as a plain one (Kafka's KeyValueStoreFacade): what the test
// driver's get_key_value_store<K, V> returns for a DSL store, which holds value_and_timestamp<V>.
// Reads drop the timestamps; writes store the value with timestamp -1 (Kafka's NO_TIMESTAMP).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <kstreams/state/key_value_store.hpp>
#include <kstreams/state/timestamped_key_value_store.hpp>
#include <kstreams/state/wrapped_store.hpp>

namespace kstreams::test {

template <class K, class V>
class timestamped_store_facade final
    : public wrapped_store<key_value_store<K, V>, key_value_store<K, value_and_timestamp<V>>,
                           key_value_store<K, value_and_timestamp<V>>*> {
    using inner_type = key_value_store<K, value_and_timestamp<V>>;
    using base = wrapped_store<key_value_store<K, V>, inner_type, inner_type*>;
    using base::inner_;

public:
    /// A view of `inner`, which the task owns and which outlives the view.
    explicit timestamped_store_facade(inner_type& inner) : base(&inner) {}

    void init(store_context&) override {
        throw std::logic_error("store " + this->name() + ": a test driver's store view cannot be initialized");
    }

    std::optional<V> get(const K& key) override { return plain(inner_->get(key)); }
    void put(const K& key, const V& value) override { inner_->put(key, stamped(value)); }
    std::optional<V> put_if_absent(const K& key, const V& value) override {
        return plain(inner_->put_if_absent(key, stamped(value)));
    }
    void put_all(const std::vector<key_value<K, V>>& entries) override {
        std::vector<key_value<K, value_and_timestamp<V>>> all;
        all.reserve(entries.size());
        for (const auto& e : entries) all.push_back({e.key, stamped(e.value)});
        inner_->put_all(all);
    }
    std::optional<V> remove(const K& key) override { return plain(inner_->remove(key)); }
    void erase(const K& key) override { inner_->erase(key); }
    key_value_iterator<K, V> range(const std::optional<K>& from, const std::optional<K>& to) override {
        return values_of(inner_->range(from, to));
    }
    key_value_iterator<K, V> reverse_range(const std::optional<K>& from, const std::optional<K>& to) override {
        return values_of(inner_->reverse_range(from, to));
    }
    key_value_iterator<K, V> all() override { return values_of(inner_->all()); }
    key_value_iterator<K, V> reverse_all() override { return values_of(inner_->reverse_all()); }
    std::uint64_t approximate_num_entries() override { return inner_->approximate_num_entries(); }

protected:
    key_value_iterator<K, V> prefix_scan_bytes(std::string_view prefix) override {
        // serde<std::string> writes the bytes unchanged, so this scans the same raw prefix.
        return values_of(inner_->prefix_scan(std::string(prefix)));
    }

private:
    /// Decodes the inner store's bytes, keeping only the value.
    class plain_codec final : public kv_codec<K, V> {
    public:
        const kv_codec<K, value_and_timestamp<V>>* inner = nullptr;
        void encode_key(const K& k, std::string& out) const override { inner->encode_key(k, out); }
        void encode_value(const V& v, std::string& out) const override { inner->encode_value({v, -1}, out); }
        K decode_key(std::string_view b) const override { return inner->decode_key(b); }
        V decode_value(std::string_view b) const override { return inner->decode_value(b).value; }
    };

    static value_and_timestamp<V> stamped(const V& v) { return {v, -1}; }
    static std::optional<V> plain(std::optional<value_and_timestamp<V>> v) {
        if (!v) return std::nullopt;
        return std::move(v->value);
    }
    key_value_iterator<K, V> values_of(key_value_iterator<K, value_and_timestamp<V>> it) {
        codec_.inner = it.codec();
        return key_value_iterator<K, V>(std::move(it).release_bytes(), &codec_);
    }

    plain_codec codec_;
};

}  // namespace kstreams::test
