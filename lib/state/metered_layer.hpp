// What every metered store layer shares (Kafka's Metered*Store): the operation counters bound at
// init, a counted flush and the global store's write check; everything else passes through the
// forwarding base (`Forwarding`: forwarding_key_value_store, _window_store or _session_store).
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

template <class Forwarding>
class metered_layer : public Forwarding {
    using store_type = typename Forwarding::interface_type;

public:
    using Forwarding::Forwarding;

    void init(store_context& ctx) override {
        this->inner_->init(ctx);
        // Kafka's metrics scope of the store supplier: the tag is `<scope>-state-id`.
        std::string scope = this->inner_->persistent() ? "rocksdb" : "in-memory";
        if constexpr (std::is_same_v<store_type, bytes_window_store>) scope += "-window";
        if constexpr (std::is_same_v<store_type, bytes_session_store>) scope += "-session";
        counters_.bind(ctx, this->name(), scope);
        global_ = ctx.task_id() == kstreams::task_id{-1, -1};  // the global task's id
    }
    void flush() override {
        const auto op = counters_.op(store_op_kind::flush);
        this->inner_->flush();
    }

protected:
    /// Every write passes here first: a global store refuses a stream processor's writes.
    void check_writable() const {
        if (global_ && global_store_writes_refused()) [[unlikely]]
            throw streams_error("Global store " + this->name() +
                                " is read only: a stream processor may read it, only its global topic's update "
                                "processor writes it");
    }

    store_counters counters_;
    bool global_ = false;
};

}  // namespace kstreams::state
