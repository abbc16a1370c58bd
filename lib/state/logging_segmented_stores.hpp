// Changelogging for window and session stores (Kafka's ChangeLoggingWindowBytesStore and
// ChangeLoggingSessionBytesStore): every put is sent with the store's key format. Timestamped
// window stores log the plain value with the stored timestamp as the record timestamp. With
// `log_headers` a window store's changelog records carry the headers of the record that wrote them
// (Kafka 4.4's ChangeLoggingTimestampedWindowBytesStoreWithHeaders, the stream-stream join's).
#pragma once

#include <memory>

#include <kstreams/state/session_store.hpp>
#include <kstreams/state/window_store.hpp>

#include "lib/state/forwarding_window_stores.hpp"
#include "lib/state/task_store_hooks.hpp"
#include "lib/state/timestamped_restore_context.hpp"

namespace kstreams::state {

class logging_window_store final : public forwarding_window_store {
public:
    logging_window_store(std::unique_ptr<bytes_window_store> inner, bool timestamped, bool log_headers = false)
        : forwarding_window_store(std::move(inner)), timestamped_(timestamped), log_headers_(log_headers) {}

    void init(store_context& ctx) override;
    void put(std::string_view key, std::optional<std::string_view> value, std::int64_t window_start) override;

private:
    bool timestamped_;
    bool log_headers_;
    store_context* ctx_ = nullptr;
    changelog_with_headers* with_headers_ = nullptr;  ///< the task, when log_headers_
    std::unique_ptr<timestamped_restore_context> restore_ctx_;
    std::int32_t seqnum_ = 0;
};

class logging_session_store final : public forwarding_session_store {
public:
    using forwarding_session_store::forwarding_session_store;

    void init(store_context& ctx) override {
        ctx_ = &ctx;
        inner_->init(ctx);
    }
    void put(std::string_view key, kstreams::window session, std::optional<std::string_view> value) override;

private:
    store_context* ctx_ = nullptr;
};

}  // namespace kstreams::state
