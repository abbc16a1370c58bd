// Counts the operations of window and session stores under the key-value store's counter names
// (`store.<store>.put|get|delete|range|flush`): put of a value → put, put of nullopt / remove →
// delete, fetch of one window or session → get, scans → range (Kafka's MeteredWindowStore and
// MeteredSessionStore), timed as the key-value store's.
#pragma once

#include <cstdint>
#include <memory>

#include <kstreams/state/session_store.hpp>
#include <kstreams/state/window_store.hpp>

#include "lib/state/forwarding_window_stores.hpp"
#include "lib/state/metered_layer.hpp"

namespace kstreams::state {

class metered_window_store final : public metered_layer<forwarding_window_store> {
public:
    using metered_layer::metered_layer;

    void put(std::string_view key, std::optional<std::string_view> value, std::int64_t window_start) override {
        check_writable();
        const auto op = counters_.op(value ? store_op_kind::put : store_op_kind::remove);
        inner_->put(key, value, window_start);
    }
    std::optional<std::string> fetch(std::string_view key, std::int64_t window_start) override {
        const auto op = counters_.op(store_op_kind::get);
        return inner_->fetch(key, window_start);
    }
    std::unique_ptr<bytes_window_iterator> fetch(std::string_view key, std::int64_t from, std::int64_t to,
                                                 bool backward) override {
        const auto op = counters_.op(store_op_kind::range);
        return inner_->fetch(key, from, to, backward);
    }
    std::unique_ptr<bytes_window_iterator> fetch_range(const std::optional<std::string>& kf,
                                                       const std::optional<std::string>& kt, std::int64_t from,
                                                       std::int64_t to, bool backward) override {
        const auto op = counters_.op(store_op_kind::range);
        return inner_->fetch_range(kf, kt, from, to, backward);
    }
};

class metered_session_store final : public metered_layer<forwarding_session_store> {
public:
    using metered_layer::metered_layer;

    void put(std::string_view key, kstreams::window session, std::optional<std::string_view> value) override {
        check_writable();
        const auto op = counters_.op(value ? store_op_kind::put : store_op_kind::remove);
        inner_->put(key, session, value);
    }
    std::optional<std::string> fetch_session(std::string_view key, std::int64_t start, std::int64_t end) override {
        const auto op = counters_.op(store_op_kind::get);
        return inner_->fetch_session(key, start, end);
    }
    std::unique_ptr<bytes_window_iterator> find_sessions(const std::optional<std::string>& kf,
                                                         const std::optional<std::string>& kt, std::int64_t earliest_end,
                                                         std::int64_t latest_start, bool backward) override {
        const auto op = counters_.op(store_op_kind::range);
        return inner_->find_sessions(kf, kt, earliest_end, latest_start, backward);
    }
};

}  // namespace kstreams::state
