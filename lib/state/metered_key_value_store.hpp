// Counts a store's operations (Kafka's MeteredKeyValueStore, without its latency timers: a clock
// read per call would cost more than the call). Counters are named `store.<store>.<operation>`.
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
        ++*counters_.gets;
        return inner_->get(key);
    }
    bool get_into(std::string_view key, std::string& out) override {
        ++*counters_.gets;
        return inner_->get_into(key, out);
    }
    void put(std::string_view key, std::string_view value) override {
        check_writable();
        ++*counters_.puts;
        inner_->put(key, value);
    }
    std::optional<std::string> put_if_absent(std::string_view key, std::string_view value) override {
        check_writable();
        ++*counters_.puts;
        return inner_->put_if_absent(key, value);
    }
    void put_all(const std::vector<std::pair<std::string, std::string>>& entries) override {
        check_writable();
        *counters_.puts += entries.size();
        inner_->put_all(entries);
    }
    std::optional<std::string> remove(std::string_view key) override {
        check_writable();
        ++*counters_.deletes;
        return inner_->remove(key);
    }
    void erase(std::string_view key) override {
        check_writable();
        ++*counters_.deletes;
        inner_->erase(key);
    }
    std::unique_ptr<bytes_iterator> range(const key_range& r, bool reverse) override {
        ++*counters_.ranges;
        return inner_->range(r, reverse);
    }
    std::unique_ptr<bytes_iterator> prefix_scan(std::string_view prefix) override {
        ++*counters_.ranges;
        return inner_->prefix_scan(prefix);
    }
};

}  // namespace kstreams::state
