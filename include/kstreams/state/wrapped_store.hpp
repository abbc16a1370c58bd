// The base of a store that wraps another (Kafka's WrappedStateStore): it holds the store beneath
// and passes state_store's lifecycle calls down to it, so that a layer (metered, caching,
// logging), an adapter or a typed store overrides only what it changes.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include <kstreams/state/state_store.hpp>

namespace kstreams {

/// `Interface`: what the wrapper implements. `Inner`: the store it wraps (the same interface for a
/// layer, a byte store for a typed store). `Holder`: how it holds it, owning by default; a plain
/// pointer for a view over a store the task owns.
template <class Interface, class Inner = Interface, class Holder = std::unique_ptr<Inner>>
class wrapped_store : public Interface {
public:
    using interface_type = Interface;
    using inner_type = Inner;

    explicit wrapped_store(Holder inner) : inner_(std::move(inner)) {}

    const std::string& name() const override { return inner_->name(); }
    void init(store_context& ctx) override { inner_->init(ctx); }
    void flush() override { inner_->flush(); }
    void flush_cache() override { inner_->flush_cache(); }
    void close() override { inner_->close(); }
    bool persistent() const override { return inner_->persistent(); }
    bool is_open() const override { return inner_->is_open(); }

    /// The store beneath (Kafka's wrapped()).
    Inner& wrapped() const { return *inner_; }

protected:
    Holder inner_;
};

}  // namespace kstreams
