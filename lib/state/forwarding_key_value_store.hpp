// A key-value store layer that passes every call to the store beneath: the base of the metered,
// caching and logging layers and of the plain-value adapter, which override only what they change.
#pragma once

#include <kstreams/state/bytes_store.hpp>
#include <kstreams/state/wrapped_store.hpp>

namespace kstreams::state {

class forwarding_key_value_store : public wrapped_store<bytes_key_value_store> {
public:
    using wrapped_store::wrapped_store;

    std::optional<std::string> get(std::string_view key) override { return inner_->get(key); }
    bool get_into(std::string_view key, std::string& out) override { return inner_->get_into(key, out); }
    void put(std::string_view key, std::string_view value) override { inner_->put(key, value); }
    std::optional<std::string> put_if_absent(std::string_view key, std::string_view value) override {
        return inner_->put_if_absent(key, value);
    }
    void put_all(const std::vector<std::pair<std::string, std::string>>& entries) override { inner_->put_all(entries); }
    std::optional<std::string> remove(std::string_view key) override { return inner_->remove(key); }
    void erase(std::string_view key) override { inner_->erase(key); }
    std::unique_ptr<bytes_iterator> range(const key_range& r, bool reverse) override { return inner_->range(r, reverse); }
    std::unique_ptr<bytes_iterator> prefix_scan(std::string_view prefix) override { return inner_->prefix_scan(prefix); }
    std::uint64_t approximate_num_entries() override { return inner_->approximate_num_entries(); }
    bool set_flush_listener(bytes_flush_listener listener, bool send_old_values) override {
        return inner_->set_flush_listener(std::move(listener), send_old_values);
    }
};

}  // namespace kstreams::state
