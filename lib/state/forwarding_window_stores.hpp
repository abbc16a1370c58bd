// Window and session store layers that pass every call to the store beneath: the bases of the
// metered, caching and logging layers and of the plain-value adapter, which override only what
// they change.
#pragma once

#include <kstreams/state/session_store.hpp>
#include <kstreams/state/window_store.hpp>
#include <kstreams/state/wrapped_store.hpp>

namespace kstreams::state {

class forwarding_window_store : public wrapped_store<bytes_window_store> {
public:
    using wrapped_store::wrapped_store;

    void put(std::string_view key, std::optional<std::string_view> value, std::int64_t window_start) override {
        inner_->put(key, value, window_start);
    }
    std::optional<std::string> fetch(std::string_view key, std::int64_t window_start) override {
        return inner_->fetch(key, window_start);
    }
    std::unique_ptr<bytes_window_iterator> fetch(std::string_view key, std::int64_t time_from, std::int64_t time_to,
                                                 bool backward) override {
        return inner_->fetch(key, time_from, time_to, backward);
    }
    std::unique_ptr<bytes_window_iterator> fetch_range(const std::optional<std::string>& key_from,
                                                       const std::optional<std::string>& key_to, std::int64_t time_from,
                                                       std::int64_t time_to, bool backward) override {
        return inner_->fetch_range(key_from, key_to, time_from, time_to, backward);
    }
    std::int64_t retention_period() const override { return inner_->retention_period(); }
    std::int64_t window_size() const override { return inner_->window_size(); }
    bool retain_duplicates() const override { return inner_->retain_duplicates(); }
    bool scan_before(std::string_view key_a, std::int64_t start_a, std::string_view key_b, std::int64_t start_b,
                     bool backward) const override {
        return inner_->scan_before(key_a, start_a, key_b, start_b, backward);
    }
    bool set_flush_listener(bytes_flush_listener listener, bool send_old_values) override {
        return inner_->set_flush_listener(std::move(listener), send_old_values);
    }
};

class forwarding_session_store : public wrapped_store<bytes_session_store> {
public:
    using wrapped_store::wrapped_store;

    void put(std::string_view key, kstreams::window session, std::optional<std::string_view> value) override {
        inner_->put(key, session, value);
    }
    std::optional<std::string> fetch_session(std::string_view key, std::int64_t start, std::int64_t end) override {
        return inner_->fetch_session(key, start, end);
    }
    std::unique_ptr<bytes_window_iterator> find_sessions(const std::optional<std::string>& key_from,
                                                         const std::optional<std::string>& key_to,
                                                         std::int64_t earliest_session_end,
                                                         std::int64_t latest_session_start, bool backward) override {
        return inner_->find_sessions(key_from, key_to, earliest_session_end, latest_session_start, backward);
    }
    std::int64_t retention_period() const override { return inner_->retention_period(); }
    bool drops_write(std::int64_t end, std::int64_t stream_time) const override {
        return inner_->drops_write(end, stream_time);
    }
    bool scan_before(std::string_view key_a, kstreams::window a, std::string_view key_b, kstreams::window b,
                     bool backward) const override {
        return inner_->scan_before(key_a, a, key_b, b, backward);
    }
    bool set_flush_listener(bytes_flush_listener listener, bool send_old_values) override {
        return inner_->set_flush_listener(std::move(listener), send_old_values);
    }
};

}  // namespace kstreams::state
