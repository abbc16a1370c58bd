// The DSL stores whose changelog records carry the headers of the record that wrote them, as Kafka
// 4.4 builds them with its "with headers" store builders (its other DSL stores log no headers):
// - the foreign-key join's subscription store (SubscriptionStoreFactory): timestamped key-value,
//   serialized combined key -> subscription, logged, never cached; the changelog value is the
//   subscription's wire bytes, its timestamp the subscription's;
// - the stream-stream join's window stores (StreamJoinedStoreFactory): the changelog value is the
//   plain value, its timestamp the record's; the changelog topic is cleanup.policy=delete.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <kstreams/detail/dsl_store_choice.hpp>
#include <kstreams/dsl/detail/fk_join_wire.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/state/window_stores.hpp>

namespace kstreams::detail {
/// metered(logging with headers(timestamped(inner))); defined in lib/state/layers.cpp.
std::unique_ptr<bytes_key_value_store> wrap_header_logged_timestamped_layers(std::unique_ptr<bytes_key_value_store> inner);
/// metered(logging with headers(inner)), or metered(inner) without logging; lib/state/window_stores.cpp.
std::unique_ptr<bytes_window_store> wrap_header_logged_window_layers(std::unique_ptr<bytes_window_store> inner,
                                                                     const logging_config& logging);
/// The kind of a window store supplier of stores:: (in memory, RocksDB), nullopt for a user's own:
/// the kind of a stream-stream join's shared store when this side's buffer is the user's (as
/// Kafka's OuterStreamJoinStoreFactory). Defined in lib/state/window_stores.cpp.
std::optional<dsl_store_type> window_supplier_kind(const window_bytes_store_supplier& s);
}  // namespace kstreams::detail

namespace kstreams::dsl_detail {

class subscription_store_builder final : public store_builder {
public:
    using value_type = value_and_timestamp<subscription_wrapper>;

    explicit subscription_store_builder(std::shared_ptr<const key_value_bytes_store_supplier> supplier)
        : supplier_(std::move(supplier)) {}

    const std::string& name() const override { return supplier_->name(); }
    std::unique_ptr<state_store> build() const override {
        using value_serde = value_and_timestamp_serde<subscription_wrapper, subscription_wrapper_serde>;
        using codec = serde_kv_codec<std::string, value_type, serde<std::string>, value_serde>;
        return std::make_unique<typed_key_value_store<std::string, value_type>>(
            kstreams::detail::wrap_header_logged_timestamped_layers(supplier_->get()),
            std::make_unique<codec>(serde<std::string>{}, value_serde{}));
    }
    bool logging_enabled() const override { return true; }
    const logging_config& logging() const override { return logging_; }
    bool caching_enabled() const override { return false; }

private:
    std::shared_ptr<const key_value_bytes_store_supplier> supplier_;
    logging_config logging_{};
};

/// A stream-stream join's buffer of one side: plain values, duplicates retained, never cached.
template <class K, class V>
class join_window_store_builder final : public store_builder {
public:
    template <class KS, class VS>
    join_window_store_builder(std::shared_ptr<const window_bytes_store_supplier> supplier, KS ks, VS vs, bool logging,
                              std::map<std::string, std::string> topic_config)
        : supplier_(std::move(supplier)),
          make_codec_([ks, vs] { return std::make_unique<serde_kv_codec<K, V, KS, VS>>(ks, vs); }) {
        // As Kafka's StreamJoinedStoreFactory: the buffers' changelogs are never compacted, whatever
        // the user's configs say.
        topic_config["cleanup.policy"] = "delete";
        logging_ = {logging, kstreams::detail::windowed_changelog_config(supplier_->retention_period(), std::move(topic_config))};
    }

    const std::string& name() const override { return supplier_->name(); }
    std::unique_ptr<state_store> build() const override {
        return std::make_unique<typed_window_store<K, V>>(
            kstreams::detail::wrap_header_logged_window_layers(supplier_->get(), logging_), make_codec_());
    }
    bool logging_enabled() const override { return logging_.enabled; }
    const logging_config& logging() const override { return logging_; }
    bool caching_enabled() const override { return false; }

private:
    std::shared_ptr<const window_bytes_store_supplier> supplier_;
    std::function<std::unique_ptr<kv_codec<K, V>>()> make_codec_;
    logging_config logging_{};
};

}  // namespace kstreams::dsl_detail
