// Versioned key-value stores (Kafka's VersionedKeyValueStore, KIP-889): every key keeps its record
// versions, each valid from its own timestamp until the next version's (or a delete's) timestamp,
// so a reader can ask for the value a key had as of any time within the store's history
// retention. Kafka's rules:
// - put(key, value, ts) returns put_valid_to_undefined when the record is now the key's latest
//   version, the timestamp of the version after it when it went into history (an out-of-order
//   put), or put_not_put when it was not stored: older than observed stream time (the largest
//   timestamp put so far) minus the history retention. Such puts are dropped and counted in
//   `dropped-records`. A put at the timestamp of an existing version replaces it.
// - erase(key, ts) is Kafka's put(key, null, ts): a tombstone version. remove(key, ts) is Kafka's
//   delete: the same, returning the record the key had as of ts.
// - get(key) is the latest version, if it is not a tombstone. get(key, as_of) is the version valid
//   at as_of; before stream time minus the history retention only the latest version answers (if
//   it is old enough), older history is treated as gone.
// The changelog holds every put as a record timestamped with the put's timestamp (a tombstone for
// a delete), so restoring replays the history. Kafka's changelog settings: compact, with
// min.compaction.lag.ms = history retention + 1 day. Versioned stores are never cached.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kstreams/serde.hpp>
#include <kstreams/state/key_value_store.hpp>
#include <kstreams/state/state_store.hpp>
#include <kstreams/state/wrapped_store.hpp>

namespace kstreams {

/// Kafka's VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED: the put is the latest version.
inline constexpr std::int64_t put_valid_to_undefined = -1;
/// Kafka's VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT: older than the history retention.
inline constexpr std::int64_t put_not_put = std::numeric_limits<std::int64_t>::min();

/// One version of a key (Kafka's VersionedRecord): valid from `timestamp` (inclusive) to
/// `valid_to` (exclusive); no valid_to for the latest version.
template <class V>
struct versioned_record {
    V value{};
    std::int64_t timestamp = 0;
    std::optional<std::int64_t> valid_to{};
    bool operator==(const versioned_record&) const = default;
};

/// The byte-level versioned store the typed one wraps.
class bytes_versioned_key_value_store : public state_store {
public:
    /// nullopt value = a tombstone version. Returns as versioned_key_value_store::put.
    virtual std::int64_t put(std::string_view key, std::optional<std::string_view> value, std::int64_t timestamp) = 0;
    virtual std::optional<versioned_record<std::string>> get(std::string_view key) = 0;
    virtual std::optional<versioned_record<std::string>> get(std::string_view key, std::int64_t as_of) = 0;
    /// A tombstone at `timestamp`; returns the record valid at `timestamp` before it.
    virtual std::optional<versioned_record<std::string>> remove(std::string_view key, std::int64_t timestamp) = 0;
    virtual std::int64_t history_retention() const = 0;
    /// The key's versions (not tombstones) valid at some time in [from, to], oldest first, as far
    /// as the history retention keeps them (Kafka's get(key, fromTime, toTime) behind IQv2's
    /// MultiVersionedKeyQuery); nullopt for a store that cannot list its history.
    virtual std::optional<std::vector<versioned_record<std::string>>> versions(std::string_view /*key*/,
                                                                               std::int64_t /*from*/,
                                                                               std::int64_t /*to*/) {
        return std::nullopt;
    }
};

template <class K, class V>
class versioned_key_value_store : public state_store {
public:
    using key_type = K;
    using value_type = V;
    virtual std::int64_t put(const K& key, const V& value, std::int64_t timestamp) = 0;
    /// A tombstone version (Kafka's put(key, null, timestamp)).
    virtual std::int64_t erase(const K& key, std::int64_t timestamp) = 0;
    /// Kafka's delete(key, timestamp): a tombstone, returning the record valid at `timestamp` before it.
    virtual std::optional<versioned_record<V>> remove(const K& key, std::int64_t timestamp) = 0;
    virtual std::optional<versioned_record<V>> get(const K& key) = 0;
    virtual std::optional<versioned_record<V>> get(const K& key, std::int64_t as_of_timestamp) = 0;
    virtual std::int64_t history_retention() const = 0;
    /// As bytes_versioned_key_value_store::versions.
    virtual std::optional<std::vector<versioned_record<V>>> versions(const K& /*key*/, std::int64_t /*from*/,
                                                                     std::int64_t /*to*/) {
        return std::nullopt;
    }
};

template <class K, class V>
class typed_versioned_key_value_store final
    : public wrapped_store<versioned_key_value_store<K, V>, bytes_versioned_key_value_store> {
    using base = wrapped_store<versioned_key_value_store<K, V>, bytes_versioned_key_value_store>;
    using base::inner_;

public:
    typed_versioned_key_value_store(std::unique_ptr<bytes_versioned_key_value_store> inner,
                                    std::unique_ptr<kv_codec<K, V>> codec)
        : base(std::move(inner)), codec_(std::move(codec)) {}

    std::int64_t put(const K& key, const V& value, std::int64_t timestamp) override {
        value_buf_.clear();
        codec_->encode_value(value, value_buf_);
        return inner_->put(key_bytes(key), std::string_view(value_buf_), timestamp);
    }
    std::int64_t erase(const K& key, std::int64_t timestamp) override {
        return inner_->put(key_bytes(key), std::nullopt, timestamp);
    }
    std::optional<versioned_record<V>> remove(const K& key, std::int64_t timestamp) override {
        return decode(inner_->remove(key_bytes(key), timestamp));
    }
    std::optional<versioned_record<V>> get(const K& key) override { return decode(inner_->get(key_bytes(key))); }
    std::optional<versioned_record<V>> get(const K& key, std::int64_t as_of) override {
        return decode(inner_->get(key_bytes(key), as_of));
    }
    std::int64_t history_retention() const override { return inner_->history_retention(); }
    std::optional<std::vector<versioned_record<V>>> versions(const K& key, std::int64_t from, std::int64_t to) override {
        auto raw = inner_->versions(key_bytes(key), from, to);
        if (!raw) return std::nullopt;
        std::vector<versioned_record<V>> out;
        out.reserve(raw->size());
        for (const auto& r : *raw) out.push_back(*decode(r));
        return out;
    }

private:
    const std::string& key_bytes(const K& key) {
        key_buf_.clear();
        codec_->encode_key(key, key_buf_);
        return key_buf_;
    }
    std::optional<versioned_record<V>> decode(const std::optional<versioned_record<std::string>>& r) const {
        if (!r) return std::nullopt;
        return versioned_record<V>{codec_->decode_value(r->value), r->timestamp, r->valid_to};
    }

    std::unique_ptr<kv_codec<K, V>> codec_;
    std::string key_buf_;
    std::string value_buf_;
};

/// Makes byte-level versioned stores of one name (Kafka's VersionedBytesStoreSupplier).
class versioned_bytes_store_supplier {
public:
    virtual ~versioned_bytes_store_supplier() = default;
    virtual const std::string& name() const = 0;
    virtual std::unique_ptr<bytes_versioned_key_value_store> get() const = 0;
    virtual std::int64_t history_retention() const = 0;
    virtual std::int64_t segment_interval() const = 0;
};

namespace detail {
/// logging(metered(inner)) as far as a versioned store has layers: the changelog layer when logged.
std::unique_ptr<bytes_versioned_key_value_store> wrap_versioned_layers(std::unique_ptr<bytes_versioned_key_value_store> inner,
                                                                       const logging_config& logging);
/// Kafka's changelog settings for versioned stores: min.compaction.lag.ms = history retention
/// + 1 day (unless the user's settings say otherwise); compact, under topic.*, comes at start.
std::map<std::string, std::string> versioned_changelog_config(std::int64_t history_retention,
                                                              std::map<std::string, std::string> user);
}  // namespace detail

template <class K, class V>
class versioned_key_value_store_builder final : public store_builder {
public:
    template <class KS, class VS>
    versioned_key_value_store_builder(std::shared_ptr<const versioned_bytes_store_supplier> supplier, KS ks, VS vs)
        : supplier_(std::move(supplier)),
          make_codec_([ks, vs] { return std::make_unique<serde_kv_codec<K, V, KS, VS>>(ks, vs); }) {
        logging_.topic_config = detail::versioned_changelog_config(supplier_->history_retention(), {});
    }
    versioned_key_value_store_builder& with_logging_enabled(std::map<std::string, std::string> topic_config = {}) {
        logging_ = {true, detail::versioned_changelog_config(supplier_->history_retention(), std::move(topic_config))};
        return *this;
    }
    versioned_key_value_store_builder& with_logging_disabled() { logging_.enabled = false; return *this; }
    /// Versioned stores are never cached (as Kafka's): these do nothing.
    versioned_key_value_store_builder& with_caching_enabled() { return *this; }
    versioned_key_value_store_builder& with_caching_disabled() { return *this; }

    const std::string& name() const override { return supplier_->name(); }
    std::unique_ptr<state_store> build() const override {
        return std::make_unique<typed_versioned_key_value_store<K, V>>(
            detail::wrap_versioned_layers(supplier_->get(), logging_), make_codec_());
    }
    bool logging_enabled() const override { return logging_.enabled; }
    const logging_config& logging() const override { return logging_; }
    bool caching_enabled() const override { return false; }
    std::int64_t history_retention() const { return supplier_->history_retention(); }

private:
    std::shared_ptr<const versioned_bytes_store_supplier> supplier_;
    std::function<std::unique_ptr<kv_codec<K, V>>()> make_codec_;
    logging_config logging_{};
};

namespace stores {

/// A versioned store in RocksDB (Kafka's Stores.persistentVersionedKeyValueStore). The segment
/// interval is Kafka's default for the retention unless given; throws std::invalid_argument for a
/// negative retention or a segment interval below 1 ms.
std::shared_ptr<const versioned_bytes_store_supplier> persistent_versioned_key_value_store(
    std::string name, std::chrono::milliseconds history_retention);
std::shared_ptr<const versioned_bytes_store_supplier> persistent_versioned_key_value_store(
    std::string name, std::chrono::milliseconds history_retention, std::chrono::milliseconds segment_interval);
/// The same rules, kept in memory (Kafka has no such store; restored from its changelog on start).
std::shared_ptr<const versioned_bytes_store_supplier> in_memory_versioned_key_value_store(
    std::string name, std::chrono::milliseconds history_retention);

template <class K, class V, class KS = default_serde_t<K>, class VS = default_serde_t<V>>
kstreams::versioned_key_value_store_builder<K, V> versioned_key_value_store_builder(
    std::shared_ptr<const versioned_bytes_store_supplier> supplier, KS ks = KS{}, VS vs = VS{}) {
    static_assert(serde_for<KS, K>, "kstreams: the key serde does not serialize the store's key type");
    static_assert(serde_for<VS, V>, "kstreams: the value serde does not serialize the store's value type");
    return kstreams::versioned_key_value_store_builder<K, V>(std::move(supplier), std::move(ks), std::move(vs));
}

}  // namespace stores
}  // namespace kstreams
