// Factories for state stores, as Kafka Streams' Stores class: a supplier makes the byte store, a
// builder adds serdes and the caching and logging layers.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <kstreams/serde.hpp>
#include <kstreams/state/bytes_store.hpp>
#include <kstreams/state/key_value_store.hpp>
#include <kstreams/state/state_store.hpp>
#include <kstreams/state/timestamped_key_value_store.hpp>

namespace kstreams {

/// Makes byte-level key-value stores of one name (one per task).
class key_value_bytes_store_supplier {
public:
    virtual ~key_value_bytes_store_supplier() = default;
    virtual const std::string& name() const = 0;
    virtual std::unique_ptr<bytes_key_value_store> get() const = 0;
};

namespace detail {
/// Stacks the layers a builder asked for: metered(caching(logging(inner))).
std::unique_ptr<bytes_key_value_store> wrap_key_value_layers(std::unique_ptr<bytes_key_value_store> inner,
                                                             bool caching, const logging_config& logging);
/// As above; `timestamped` stores hold `8-byte BE timestamp ‖ value` and log the plain value with
/// that timestamp as the changelog record's timestamp (restoring converts back).
std::unique_ptr<bytes_key_value_store> wrap_key_value_layers(std::unique_ptr<bytes_key_value_store> inner,
                                                             bool caching, const logging_config& logging,
                                                             bool timestamped);
}  // namespace detail

template <class K, class V>
class key_value_store_builder final : public store_builder {
public:
    template <class KS, class VS>
    key_value_store_builder(std::shared_ptr<const key_value_bytes_store_supplier> supplier, KS ks, VS vs,
                            bool timestamped = false)
        : supplier_(std::move(supplier)),
          make_codec_([ks, vs] { return std::make_unique<serde_kv_codec<K, V, KS, VS>>(ks, vs); }),
          timestamped_(timestamped) {}

    key_value_store_builder& with_caching_enabled() { caching_ = true; return *this; }
    key_value_store_builder& with_caching_disabled() { caching_ = false; return *this; }
    key_value_store_builder& with_logging_enabled(std::map<std::string, std::string> topic_config = {}) {
        logging_ = {true, std::move(topic_config)};
        return *this;
    }
    key_value_store_builder& with_logging_disabled() { logging_.enabled = false; return *this; }

    const std::string& name() const override { return supplier_->name(); }
    std::unique_ptr<state_store> build() const override {
        return std::make_unique<typed_key_value_store<K, V>>(
            detail::wrap_key_value_layers(supplier_->get(), caching_, logging_, timestamped_), make_codec_());
    }
    bool logging_enabled() const override { return logging_.enabled; }
    const logging_config& logging() const override { return logging_; }
    bool caching_enabled() const override { return caching_; }

private:
    std::shared_ptr<const key_value_bytes_store_supplier> supplier_;
    std::function<std::unique_ptr<kv_codec<K, V>>()> make_codec_;
    bool caching_ = false;
    logging_config logging_{};
    bool timestamped_ = false;
};

namespace stores {

/// A key-value store held in memory (an ordered map of bytes).
std::shared_ptr<const key_value_bytes_store_supplier> in_memory_key_value_store(std::string name);
/// A key-value store in RocksDB, under `<state.dir>/<application.id>/<task id>/rocksdb/<name>`.
std::shared_ptr<const key_value_bytes_store_supplier> persistent_key_value_store(std::string name);
/// The same store for timestamped values (the byte layout is the builder's concern).
std::shared_ptr<const key_value_bytes_store_supplier> persistent_timestamped_key_value_store(std::string name);
/// A key-value store in memory keeping at most `max_entries` keys, evicting the least recently
/// used (read or written) one past that (Kafka's Stores.lruMap); a logged store of plain values
/// logs an eviction as a tombstone (timestamped and DSL ones do not). Ranges read keys in order.
std::shared_ptr<const key_value_bytes_store_supplier> lru_map(std::string name, std::int32_t max_entries);

template <class K, class V, class KS = default_serde_t<K>, class VS = default_serde_t<V>>
key_value_store_builder<K, V> key_value_store_builder(
    std::shared_ptr<const key_value_bytes_store_supplier> supplier, KS ks = KS{}, VS vs = VS{}) {
    static_assert(serde_for<KS, K>, "kstreams: the key serde does not serialize the store's key type");
    static_assert(serde_for<VS, V>, "kstreams: the value serde does not serialize the store's value type");
    return kstreams::key_value_store_builder<K, V>(std::move(supplier), std::move(ks), std::move(vs));
}

/// A store of value_and_timestamp<V> (Kafka's timestampedKeyValueStoreBuilder): values are stored
/// as `8-byte BE timestamp ‖ value bytes`, the changelog holds the plain value.
template <class K, class V, class KS = serde<K>, class VS = serde<V>>
kstreams::key_value_store_builder<K, value_and_timestamp<V>> timestamped_key_value_store_builder(
    std::shared_ptr<const key_value_bytes_store_supplier> supplier, KS ks = KS{}, VS vs = VS{}) {
    static_assert(serde_for<KS, K>, "kstreams: the key serde does not serialize the store's key type");
    static_assert(serde_for<VS, V>, "kstreams: the value serde does not serialize the store's value type");
    return kstreams::key_value_store_builder<K, value_and_timestamp<V>>(
        std::move(supplier), std::move(ks), value_and_timestamp_serde<V, VS>{std::move(vs)}, true);
}

}  // namespace stores
}  // namespace kstreams
