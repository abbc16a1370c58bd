// Factories for window and session stores (Kafka's Stores.*WindowStore / *SessionStore and their
// builders). Stores are layered metered(caching(logging(bytes))) as Kafka's; caching is off unless
// with_caching_enabled(), and always off for a window store that retains duplicates.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include <kstreams/serde.hpp>
#include <kstreams/state/session_store.hpp>
#include <kstreams/state/timestamped_key_value_store.hpp>
#include <kstreams/state/window_store.hpp>

namespace kstreams {

/// Makes byte-level window stores of one name (one per task).
class window_bytes_store_supplier {
public:
    virtual ~window_bytes_store_supplier() = default;
    virtual const std::string& name() const = 0;
    virtual std::unique_ptr<bytes_window_store> get() const = 0;
    virtual std::int64_t retention_period() const = 0;
    virtual std::int64_t window_size() const = 0;
    virtual bool retain_duplicates() const = 0;
};

class session_bytes_store_supplier {
public:
    virtual ~session_bytes_store_supplier() = default;
    virtual const std::string& name() const = 0;
    virtual std::unique_ptr<bytes_session_store> get() const = 0;
    virtual std::int64_t retention_period() const = 0;
};

namespace detail {
std::unique_ptr<bytes_window_store> wrap_window_layers(std::unique_ptr<bytes_window_store> inner, bool caching,
                                                       const logging_config& logging, bool timestamped);
std::unique_ptr<bytes_session_store> wrap_session_layers(std::unique_ptr<bytes_session_store> inner, bool caching,
                                                         const logging_config& logging);
/// The user's changelog configs and the store's retention, made compact,delete + retention.ms at start.
std::map<std::string, std::string> windowed_changelog_config(std::int64_t retention,
                                                             std::map<std::string, std::string> user);
/// RocksDB stores of aggregations that emit on window close (Kafka's time-ordered window and
/// session stores): reads across all keys keep what the closing windows still need. `persistent`
/// false: the same in memory (sessions recovered by recomputation).
std::shared_ptr<const window_bytes_store_supplier> time_ordered_window_store(std::string name, std::int64_t retention,
                                                                             std::int64_t window_size);
std::shared_ptr<const session_bytes_store_supplier> time_ordered_session_store(std::string name, std::int64_t retention,
                                                                               bool persistent = true);
}  // namespace detail

template <class K, class V>
class window_store_builder final : public store_builder {
public:
    template <class KS, class VS>
    window_store_builder(std::shared_ptr<const window_bytes_store_supplier> supplier, KS ks, VS vs, bool timestamped)
        : supplier_(std::move(supplier)),
          make_codec_([ks, vs] { return std::make_unique<serde_kv_codec<K, V, KS, VS>>(ks, vs); }),
          timestamped_(timestamped) {
        logging_.topic_config = detail::windowed_changelog_config(supplier_->retention_period(), {});
    }
    window_store_builder& with_caching_enabled() { caching_ = true; return *this; }
    window_store_builder& with_caching_disabled() { caching_ = false; return *this; }
    window_store_builder& with_logging_enabled(std::map<std::string, std::string> topic_config = {}) {
        logging_ = {true, detail::windowed_changelog_config(supplier_->retention_period(), std::move(topic_config))};
        return *this;
    }
    window_store_builder& with_logging_disabled() { logging_.enabled = false; return *this; }

    const std::string& name() const override { return supplier_->name(); }
    std::unique_ptr<state_store> build() const override {
        return std::make_unique<typed_window_store<K, V>>(
            detail::wrap_window_layers(supplier_->get(), caching_, logging_, timestamped_), make_codec_());
    }
    bool logging_enabled() const override { return logging_.enabled; }
    const logging_config& logging() const override { return logging_; }
    bool caching_enabled() const override { return caching_ && !supplier_->retain_duplicates(); }

private:
    std::shared_ptr<const window_bytes_store_supplier> supplier_;
    std::function<std::unique_ptr<kv_codec<K, V>>()> make_codec_;
    bool timestamped_;
    bool caching_ = false;
    logging_config logging_{};
};

template <class K, class V>
class session_store_builder final : public store_builder {
public:
    template <class KS, class VS>
    session_store_builder(std::shared_ptr<const session_bytes_store_supplier> supplier, KS ks, VS vs)
        : supplier_(std::move(supplier)),
          make_codec_([ks, vs] { return std::make_unique<serde_kv_codec<K, V, KS, VS>>(ks, vs); }) {
        logging_.topic_config = detail::windowed_changelog_config(supplier_->retention_period(), {});
    }
    session_store_builder& with_caching_enabled() { caching_ = true; return *this; }
    session_store_builder& with_caching_disabled() { caching_ = false; return *this; }
    session_store_builder& with_logging_enabled(std::map<std::string, std::string> topic_config = {}) {
        logging_ = {true, detail::windowed_changelog_config(supplier_->retention_period(), std::move(topic_config))};
        return *this;
    }
    session_store_builder& with_logging_disabled() { logging_.enabled = false; return *this; }

    const std::string& name() const override { return supplier_->name(); }
    std::unique_ptr<state_store> build() const override {
        return std::make_unique<typed_session_store<K, V>>(detail::wrap_session_layers(supplier_->get(), caching_, logging_),
                                                           make_codec_());
    }
    bool logging_enabled() const override { return logging_.enabled; }
    const logging_config& logging() const override { return logging_; }
    bool caching_enabled() const override { return caching_; }

private:
    std::shared_ptr<const session_bytes_store_supplier> supplier_;
    std::function<std::unique_ptr<kv_codec<K, V>>()> make_codec_;
    bool caching_ = false;
    logging_config logging_{};
};

namespace stores {

/// Throws std::invalid_argument if retention < window size or either is negative.
std::shared_ptr<const window_bytes_store_supplier> in_memory_window_store(std::string name,
                                                                          std::chrono::milliseconds retention,
                                                                          std::chrono::milliseconds window_size,
                                                                          bool retain_duplicates);
/// In RocksDB, segmented by time: segments wholly past retention are dropped at once.
std::shared_ptr<const window_bytes_store_supplier> persistent_window_store(std::string name,
                                                                           std::chrono::milliseconds retention,
                                                                           std::chrono::milliseconds window_size,
                                                                           bool retain_duplicates);
std::shared_ptr<const window_bytes_store_supplier> persistent_timestamped_window_store(
    std::string name, std::chrono::milliseconds retention, std::chrono::milliseconds window_size,
    bool retain_duplicates);
std::shared_ptr<const session_bytes_store_supplier> in_memory_session_store(std::string name,
                                                                            std::chrono::milliseconds retention);
std::shared_ptr<const session_bytes_store_supplier> persistent_session_store(std::string name,
                                                                             std::chrono::milliseconds retention);

template <class K, class V, class KS = serde<K>, class VS = serde<V>>
kstreams::window_store_builder<K, V> window_store_builder(std::shared_ptr<const window_bytes_store_supplier> supplier,
                                                          KS ks = KS{}, VS vs = VS{}) {
    static_assert(serde_for<KS, K>, "kstreams: the key serde does not serialize the store's key type");
    static_assert(serde_for<VS, V>, "kstreams: the value serde does not serialize the store's value type");
    return kstreams::window_store_builder<K, V>(std::move(supplier), std::move(ks), std::move(vs), false);
}

/// Values are value_and_timestamp<V>, stored as `8-byte BE timestamp ‖ value`; the changelog holds
/// the plain value with that timestamp (Kafka's TimestampedWindowStore).
template <class K, class V, class KS = serde<K>, class VS = serde<V>>
kstreams::window_store_builder<K, value_and_timestamp<V>> timestamped_window_store_builder(
    std::shared_ptr<const window_bytes_store_supplier> supplier, KS ks = KS{}, VS vs = VS{}) {
    static_assert(serde_for<KS, K>, "kstreams: the key serde does not serialize the store's key type");
    static_assert(serde_for<VS, V>, "kstreams: the value serde does not serialize the store's value type");
    return kstreams::window_store_builder<K, value_and_timestamp<V>>(
        std::move(supplier), std::move(ks), value_and_timestamp_serde<V, VS>{std::move(vs)}, true);
}

template <class K, class V, class KS = serde<K>, class VS = serde<V>>
kstreams::session_store_builder<K, V> session_store_builder(std::shared_ptr<const session_bytes_store_supplier> supplier,
                                                            KS ks = KS{}, VS vs = VS{}) {
    static_assert(serde_for<KS, K>, "kstreams: the key serde does not serialize the store's key type");
    static_assert(serde_for<VS, V>, "kstreams: the value serde does not serialize the store's value type");
    return kstreams::session_store_builder<K, V>(std::move(supplier), std::move(ks), std::move(vs));
}

}  // namespace stores
}  // namespace kstreams
