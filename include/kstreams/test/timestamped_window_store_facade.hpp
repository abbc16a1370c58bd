// A timestamped window store seen as a plain one (Kafka's WindowStoreFacade): what the test
// driver's get_window_store<K, V> returns for a DSL windowed aggregation's store, which holds
// value_and_timestamp<V>. Reads drop the timestamps; writes store the value with timestamp -1
// (Kafka's NO_TIMESTAMP).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include <kstreams/state/timestamped_key_value_store.hpp>
#include <kstreams/state/window_store.hpp>
#include <kstreams/state/wrapped_store.hpp>

namespace kstreams::test {

template <class K, class V>
class timestamped_window_store_facade final
    : public wrapped_store<window_store<K, V>, window_store<K, value_and_timestamp<V>>,
                           window_store<K, value_and_timestamp<V>>*> {
    using inner_type = window_store<K, value_and_timestamp<V>>;
    using base = wrapped_store<window_store<K, V>, inner_type, inner_type*>;
    using base::inner_;

public:
    /// A view of `inner`, which the task owns and which outlives the view.
    explicit timestamped_window_store_facade(inner_type& inner) : base(&inner) {}

    void init(store_context&) override {
        throw std::logic_error("store " + this->name() + ": a test driver's store view cannot be initialized");
    }

    void put(const K& key, const V& value, std::int64_t window_start) override {
        inner_->put(key, value_and_timestamp<V>{value, -1}, window_start);
    }
    void remove(const K& key, std::int64_t window_start) override { inner_->remove(key, window_start); }
    std::optional<V> fetch(const K& key, std::int64_t window_start) override {
        auto v = inner_->fetch(key, window_start);
        if (!v) return std::nullopt;
        return std::move(v->value);
    }
    store_iterator<key_value<std::int64_t, V>> fetch(const K& key, std::int64_t from, std::int64_t to) override {
        return values_of(inner_->fetch(key, from, to));
    }
    store_iterator<key_value<std::int64_t, V>> backward_fetch(const K& key, std::int64_t from, std::int64_t to) override {
        return values_of(inner_->backward_fetch(key, from, to));
    }
    store_iterator<key_value<windowed<K>, V>> fetch(const std::optional<K>& key_from, const std::optional<K>& key_to,
                                                   std::int64_t from, std::int64_t to) override {
        return values_of(inner_->fetch(key_from, key_to, from, to));
    }
    store_iterator<key_value<windowed<K>, V>> backward_fetch(const std::optional<K>& key_from, const std::optional<K>& key_to,
                                                            std::int64_t from, std::int64_t to) override {
        return values_of(inner_->backward_fetch(key_from, key_to, from, to));
    }
    store_iterator<key_value<windowed<K>, V>> fetch_all(std::int64_t from, std::int64_t to) override {
        return values_of(inner_->fetch_all(from, to));
    }
    store_iterator<key_value<windowed<K>, V>> backward_fetch_all(std::int64_t from, std::int64_t to) override {
        return values_of(inner_->backward_fetch_all(from, to));
    }
    store_iterator<key_value<windowed<K>, V>> all() override { return values_of(inner_->all()); }
    store_iterator<key_value<windowed<K>, V>> backward_all() override { return values_of(inner_->backward_all()); }

private:
    /// Walks the timestamped store's typed iterator; store_iterator decodes through it (the byte
    /// accessors are not used: entries are already decoded).
    template <class T>
    class plain_entries final : public bytes_window_iterator {
    public:
        explicit plain_entries(store_iterator<key_value<T, value_and_timestamp<V>>> it) : it_(std::move(it)) { advance(); }
        bool valid() const override { return current_.has_value(); }
        void next() override { advance(); }
        std::string_view key() const override { return {}; }
        kstreams::window window() const override { return {}; }
        std::string_view value() const override { return {}; }
        const key_value<T, V>& current() const { return *current_; }

    private:
        void advance() {
            current_.reset();
            if (!it_.has_next()) return;
            auto kv = it_.next();
            current_.emplace(key_value<T, V>{std::move(kv.key), std::move(kv.value.value)});
        }
        store_iterator<key_value<T, value_and_timestamp<V>>> it_;
        std::optional<key_value<T, V>> current_;
    };

    template <class T>
    static store_iterator<key_value<T, V>> values_of(store_iterator<key_value<T, value_and_timestamp<V>>> it) {
        return store_iterator<key_value<T, V>>(std::make_unique<plain_entries<T>>(std::move(it)), [](const bytes_window_iterator& b) {
            return static_cast<const plain_entries<T>&>(b).current();
        });
    }
};

}  // namespace kstreams::test
