// The kind of store (RocksDB or in memory) the DSL makes where an operator's options leave it
// open (Kafka's Materialized.StoreType and its built-in DslStoreSuppliers): such a store is a
// dsl_store_choice holding both, and the application's `default.dsl.store` /
// `dsl.store.suppliers.class` (streams_config::default_dsl_store, the test driver's too) picks one
// when the runtime builds the store, as Kafka configures its store factories from the StreamsConfig.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <kstreams/state/state_store.hpp>

namespace kstreams {

/// Kafka's Materialized.StoreType: ROCKS_DB (BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers,
/// the default) or IN_MEMORY (InMemoryDslStoreSuppliers).
enum class dsl_store_type { rocks_db, in_memory };

namespace detail {

/// A DSL store of either kind, the same in all else (name, serdes, caching, logging).
class dsl_store_choice final : public store_builder {
public:
    dsl_store_choice(std::shared_ptr<const store_builder> rocks_db, std::shared_ptr<const store_builder> in_memory)
        : rocks_db_(std::move(rocks_db)), in_memory_(std::move(in_memory)) {}
    const std::string& name() const override { return rocks_db_->name(); }
    /// The RocksDB store, Kafka's default; the runtime builds through build_store() instead.
    std::unique_ptr<state_store> build() const override { return rocks_db_->build(); }
    bool logging_enabled() const override { return rocks_db_->logging_enabled(); }
    const logging_config& logging() const override { return rocks_db_->logging(); }
    bool caching_enabled() const override { return rocks_db_->caching_enabled(); }
    const store_builder& of(dsl_store_type t) const { return t == dsl_store_type::in_memory ? *in_memory_ : *rocks_db_; }

private:
    std::shared_ptr<const store_builder> rocks_db_;
    std::shared_ptr<const store_builder> in_memory_;
};

/// Builds the store of `b`; a DSL store left open is of kind `default_type`.
inline std::unique_ptr<state_store> build_store(const store_builder& b, dsl_store_type default_type) {
    if (const auto* c = dynamic_cast<const dsl_store_choice*>(&b)) return c->of(default_type).build();
    return b.build();
}

/// The builder of a DSL store of kind `type`, or of both when it is left open:
/// `make(bool rocks_db)` makes one.
template <class Make>
std::shared_ptr<const store_builder> dsl_store_of(const std::optional<dsl_store_type>& type, Make&& make) {
    if (type) return make(*type == dsl_store_type::rocks_db);
    return std::make_shared<dsl_store_choice>(make(true), make(false));
}

}  // namespace detail
}  // namespace kstreams
