// Counts a store's operations and, at metrics.recording.level DEBUG, times them (Kafka's
// MeteredKeyValueStore; store_counters.hpp). Counters are named `store.<store>.<operation>`.
#pragma once

#include <memory>

#include <kstreams/state/bytes_store.hpp>

#include "lib/state/forwarding_key_value_store.hpp"
#include "lib/state/metered_layer.hpp"

namespace kstreams::state {

class metered_key_value_store final : public metered_layer<forwarding_key_value_store> {
public:
    using metered_layer::metered_layer;

    std::optional<std::string> get(std::string_view key) override {
        const auto op = counters_.op(store_op_kind::get);
        return inner_->get(key);
    }
    bool get_into(std::string_view key, std::string& out) override {
        const auto op = counters_.op(store_op_kind::get);
        return inner_->get_into(key, out);
    }
    void put(std::string_view key, std::string_view value) override {
        check_writable();
        const auto op = counters_.op(store_op_kind::put);
        inner_->put(key, value);
    }
    std::optional<std::string> put_if_absent(std::string_view key, std::string_view value) override {
        check_writable();
        const auto op = counters_.op(store_op_kind::put);
        return inner_->put_if_absent(key, value);
    }
    void put_all(const std::vector<std::pair<std::string, std::string>>& entries) override {
        check_writable();
        const auto op = counters_.op(store_op_kind::put, entries.size());
        inner_->put_all(entries);
    }
    std::optional<std::string> remove(std::string_view key) override {
        check_writable();
        const auto op = counters_.op(store_op_kind::remove);
        return inner_->remove(key);
    }
    void erase(std::string_view key) override {
        check_writable();
        const auto op = counters_.op(store_op_kind::remove);
        inner_->erase(key);
    }
    std::unique_ptr<bytes_iterator> range(const key_range& r, bool reverse) override {
        const auto op = counters_.op(store_op_kind::range);
        return inner_->range(r, reverse);
    }
    std::unique_ptr<bytes_iterator> prefix_scan(std::string_view prefix) override {
        const auto op = counters_.op(store_op_kind::range);
        return inner_->prefix_scan(prefix);
    }
};

}  // namespace kstreams::state
