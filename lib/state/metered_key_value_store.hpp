// Counts a store's operations (Kafka's MeteredKeyValueStore, without its latency timers: a clock
// read per call would cost more than the call). Counters are named `store.<store>.<operation>`.
#pragma once

#include <memory>

#include <kstreams/state/bytes_store.hpp>

#include "lib/state/store_counters.hpp"

namespace kstreams::state {

class metered_key_value_store final : public bytes_key_value_store {
public:
    explicit metered_key_value_store(std::unique_ptr<bytes_key_value_store> inner) : inner_(std::move(inner)) {}

    const std::string& name() const override { return inner_->name(); }
    void init(store_context& ctx) override {
        inner_->init(ctx);
        c_.bind(ctx, name());
    }
    void flush() override {
        ++*c_.flushes;
        inner_->flush();
    }
    void flush_cache() override { inner_->flush_cache(); }
    void close() override { inner_->close(); }
    bool persistent() const override { return inner_->persistent(); }
    bool is_open() const override { return inner_->is_open(); }

    std::optional<std::string> get(std::string_view key) override {
        ++*c_.gets;
        return inner_->get(key);
    }
    bool get_into(std::string_view key, std::string& out) override {
        ++*c_.gets;
        return inner_->get_into(key, out);
    }
    void put(std::string_view key, std::string_view value) override {
        ++*c_.puts;
        inner_->put(key, value);
    }
    std::optional<std::string> put_if_absent(std::string_view key, std::string_view value) override {
        ++*c_.puts;
        return inner_->put_if_absent(key, value);
    }
    void put_all(const std::vector<std::pair<std::string, std::string>>& entries) override {
        *c_.puts += entries.size();
        inner_->put_all(entries);
    }
    std::optional<std::string> remove(std::string_view key) override {
        ++*c_.deletes;
        return inner_->remove(key);
    }
    void erase(std::string_view key) override {
        ++*c_.deletes;
        inner_->erase(key);
    }
    std::unique_ptr<bytes_iterator> range(const key_range& r, bool reverse) override {
        ++*c_.ranges;
        return inner_->range(r, reverse);
    }
    std::unique_ptr<bytes_iterator> prefix_scan(std::string_view prefix) override {
        ++*c_.ranges;
        return inner_->prefix_scan(prefix);
    }
    std::uint64_t approximate_num_entries() override { return inner_->approximate_num_entries(); }
    bool set_flush_listener(bytes_flush_listener l, bool send_old) override {
        return inner_->set_flush_listener(std::move(l), send_old);
    }

private:
    std::unique_ptr<bytes_key_value_store> inner_;
    store_counters c_;
};

}  // namespace kstreams::state
