// Changelogging for window and session stores (Kafka's ChangeLoggingWindowBytesStore and
// ChangeLoggingSessionBytesStore): every put is sent with the store's key format. Timestamped
// window stores log the plain value with the stored timestamp as the record timestamp. With
// `log_headers` a window store's changelog records carry the headers of the record that wrote them
// (Kafka 4.4's ChangeLoggingTimestampedWindowBytesStoreWithHeaders, the stream-stream join's).
#pragma once

#include <memory>

#include <kstreams/state/session_store.hpp>
#include <kstreams/state/window_store.hpp>

#include "lib/state/task_store_hooks.hpp"
#include "lib/state/timestamped_restore_context.hpp"

namespace kstreams::state {

class logging_window_store final : public bytes_window_store {
public:
    logging_window_store(std::unique_ptr<bytes_window_store> inner, bool timestamped, bool log_headers = false)
        : inner_(std::move(inner)), timestamped_(timestamped), log_headers_(log_headers) {}

    const std::string& name() const override { return inner_->name(); }
    void init(store_context& ctx) override;
    void flush() override { inner_->flush(); }
    void flush_cache() override { inner_->flush_cache(); }
    void close() override { inner_->close(); }
    bool persistent() const override { return inner_->persistent(); }
    bool is_open() const override { return inner_->is_open(); }

    void put(std::string_view key, std::optional<std::string_view> value, std::int64_t window_start) override;
    std::optional<std::string> fetch(std::string_view key, std::int64_t window_start) override {
        return inner_->fetch(key, window_start);
    }
    std::unique_ptr<bytes_window_iterator> fetch(std::string_view key, std::int64_t from, std::int64_t to,
                                                 bool backward) override {
        return inner_->fetch(key, from, to, backward);
    }
    std::unique_ptr<bytes_window_iterator> fetch_range(const std::optional<std::string>& kf,
                                                       const std::optional<std::string>& kt, std::int64_t from,
                                                       std::int64_t to, bool backward) override {
        return inner_->fetch_range(kf, kt, from, to, backward);
    }
    std::int64_t retention_period() const override { return inner_->retention_period(); }
    std::int64_t window_size() const override { return inner_->window_size(); }
    bool retain_duplicates() const override { return inner_->retain_duplicates(); }
    bool scan_before(std::string_view ka, std::int64_t sa, std::string_view kb, std::int64_t sb,
                     bool backward) const override {
        return inner_->scan_before(ka, sa, kb, sb, backward);
    }

private:
    std::unique_ptr<bytes_window_store> inner_;
    bool timestamped_;
    bool log_headers_;
    store_context* ctx_ = nullptr;
    changelog_with_headers* with_headers_ = nullptr;  ///< the task, when log_headers_
    std::unique_ptr<timestamped_restore_context> restore_ctx_;
    std::int32_t seqnum_ = 0;
};

class logging_session_store final : public bytes_session_store {
public:
    explicit logging_session_store(std::unique_ptr<bytes_session_store> inner) : inner_(std::move(inner)) {}

    const std::string& name() const override { return inner_->name(); }
    void init(store_context& ctx) override {
        ctx_ = &ctx;
        inner_->init(ctx);
    }
    void flush() override { inner_->flush(); }
    void flush_cache() override { inner_->flush_cache(); }
    void close() override { inner_->close(); }
    bool persistent() const override { return inner_->persistent(); }
    bool is_open() const override { return inner_->is_open(); }

    void put(std::string_view key, kstreams::window session, std::optional<std::string_view> value) override;
    std::optional<std::string> fetch_session(std::string_view key, std::int64_t start, std::int64_t end) override {
        return inner_->fetch_session(key, start, end);
    }
    std::unique_ptr<bytes_window_iterator> find_sessions(const std::optional<std::string>& kf,
                                                         const std::optional<std::string>& kt, std::int64_t earliest_end,
                                                         std::int64_t latest_start, bool backward) override {
        return inner_->find_sessions(kf, kt, earliest_end, latest_start, backward);
    }
    std::int64_t retention_period() const override { return inner_->retention_period(); }
    bool scan_before(std::string_view ka, kstreams::window a, std::string_view kb, kstreams::window b,
                     bool backward) const override {
        return inner_->scan_before(ka, a, kb, b, backward);
    }

private:
    std::unique_ptr<bytes_session_store> inner_;
    store_context* ctx_ = nullptr;
};

}  // namespace kstreams::state
