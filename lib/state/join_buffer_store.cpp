// The stream-table join's grace buffer store (join_buffer.hpp): Kafka's
// RocksDBTimeOrderedKeyValueBuffer is persistent, logged, never cached, and sends its changelog
// records without a timestamp or headers.
#include <kstreams/dsl/detail/join_buffer.hpp>

#include <kstreams/state/stores.hpp>

#include "lib/state/logging_key_value_store.hpp"
#include "lib/state/metered_key_value_store.hpp"

namespace kstreams::dsl_detail {

namespace {

class join_buffer_store_builder final : public store_builder {
public:
    explicit join_buffer_store_builder(std::string name) : supplier_(stores::persistent_key_value_store(std::move(name))) {}

    const std::string& name() const override { return supplier_->name(); }
    std::unique_ptr<state_store> build() const override {
        using codec = serde_kv_codec<std::string, std::string, serde<std::string>, serde<std::string>>;
        std::unique_ptr<bytes_key_value_store> inner = std::make_unique<state::logging_key_value_store>(
            supplier_->get(), /*timestamped=*/false, /*send=*/true, /*log_headers=*/false, /*unstamped=*/true);
        return std::make_unique<typed_key_value_store<std::string, std::string>>(
            std::make_unique<state::metered_key_value_store>(std::move(inner)),
            std::make_unique<codec>(serde<std::string>{}, serde<std::string>{}));
    }
    bool logging_enabled() const override { return true; }
    const logging_config& logging() const override { return logging_; }
    bool caching_enabled() const override { return false; }

private:
    std::shared_ptr<const key_value_bytes_store_supplier> supplier_;
    logging_config logging_{};
};

}  // namespace

std::shared_ptr<store_builder> join_buffer_store(std::string name) {
    return std::make_shared<join_buffer_store_builder>(std::move(name));
}

}  // namespace kstreams::dsl_detail
