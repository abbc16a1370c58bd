// Interactive queries of versioned key-value stores (Kafka's IQv2 VersionedKeyQuery): the latest
// version of a key, or the version valid at a point in time, read from a running app's local
// instances of a versioned store (a versioned table's, or one added with the Processor API).
//
//   auto prices = app.store(store_query_parameters(
//       "prices", queryable_store_types::versioned_key_value_store<std::string, std::int64_t>()));
//   std::optional<versioned_record<std::int64_t>> then = prices.get("apple", as_of_ms);
//
// Kept apart from queryable_store.hpp so that the common views do not pull the versioned store in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include <kstreams/state/queryable_store.hpp>
#include <kstreams/state/versioned_key_value_store.hpp>

namespace kstreams {

/// A read-only view of a versioned key-value store: answers from the first instance (partition)
/// that has the key.
template <class K, class V>
class read_only_versioned_key_value_store {
public:
    read_only_versioned_key_value_store(std::string name, detail::instance_provider provider)
        : name_(std::move(name)), provider_(std::move(provider)) {}

    const std::string& name() const { return name_; }

    /// The latest version of `key`, unless it is a tombstone.
    std::optional<versioned_record<V>> get(const K& key) const {
        return first([&](versioned_key_value_store<K, V>& s) { return s.get(key); });
    }
    /// The version of `key` valid at `as_of_timestamp` (its timestamp ≤ as_of < its valid_to),
    /// unless that is a tombstone or older than the store's history retention keeps.
    std::optional<versioned_record<V>> get(const K& key, std::int64_t as_of_timestamp) const {
        return first([&](versioned_key_value_store<K, V>& s) { return s.get(key, as_of_timestamp); });
    }

private:
    template <class F>
    std::optional<versioned_record<V>> first(F&& f) const {
        std::optional<versioned_record<V>> out;
        for (const auto& instance : provider_()) {
            instance->read([&](state_store& s) {
                auto* typed = dynamic_cast<versioned_key_value_store<K, V>*>(&s);
                if (!typed) detail::throw_store_type_mismatch(name_, "versioned_key_value_store");
                out = f(*typed);
            });
            if (out) break;
        }
        return out;
    }

    std::string name_;
    detail::instance_provider provider_;
};

namespace queryable_store_types {

/// A versioned key-value store (KIP-889): latest and as-of lookups.
template <class K, class V>
store_type<read_only_versioned_key_value_store<K, V>> versioned_key_value_store() {
    return {};
}

}  // namespace queryable_store_types

}  // namespace kstreams
