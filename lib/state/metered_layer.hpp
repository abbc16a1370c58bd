// What every metered store layer shares (Kafka's Metered*Store): the store beneath, the
// operation counters bound at init, a counted flush, and the lifecycle calls passed through.
#pragma once

#include <memory>
#include <type_traits>
#include <string>
#include <utility>

#include <kstreams/error.hpp>
#include <kstreams/state/bytes_store.hpp>
#include <kstreams/state/session_store.hpp>
#include <kstreams/state/window_store.hpp>

#include "lib/state/global_write_scope.hpp"
#include "lib/state/store_counters.hpp"

namespace kstreams::state {

/// `Store` is the byte-store interface the layer implements and wraps (key-value, window, session).
template <class Store>
class metered_layer : public Store {
public:
    explicit metered_layer(std::unique_ptr<Store> inner) : inner_(std::move(inner)) {}

    const std::string& name() const override { return inner_->name(); }
    void init(store_context& ctx) override {
        inner_->init(ctx);
        // Kafka's metrics scope of the store supplier: the tag is `<scope>-state-id`.
        std::string scope = inner_->persistent() ? "rocksdb" : "in-memory";
        if constexpr (std::is_same_v<Store, bytes_window_store>) scope += "-window";
        if constexpr (std::is_same_v<Store, bytes_session_store>) scope += "-session";
        counters_.bind(ctx, name(), scope);
        global_ = ctx.task_id() == kstreams::task_id{-1, -1};  // the global task's id
    }
    void flush() override {
        ++*counters_.flushes;
        inner_->flush();
    }
    void flush_cache() override { inner_->flush_cache(); }
    void close() override { inner_->close(); }
    bool persistent() const override { return inner_->persistent(); }
    bool is_open() const override { return inner_->is_open(); }
    bool set_flush_listener(bytes_flush_listener l, bool send_old) override {
        return inner_->set_flush_listener(std::move(l), send_old);
    }

protected:
    /// Every write passes here first: a global store refuses a stream processor's writes.
    void check_writable() const {
        if (global_ && global_store_writes_refused()) [[unlikely]]
            throw streams_error("Global store " + name() +
                                " is read only: a stream processor may read it, only its global topic's update "
                                "processor writes it");
    }

    std::unique_ptr<Store> inner_;
    store_counters counters_;
    bool global_ = false;
};

}  // namespace kstreams::state
