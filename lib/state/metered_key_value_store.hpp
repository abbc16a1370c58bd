// Counts a store's operations (Kafka's MeteredKeyValueStore, without its latency timers: a clock
// read per call would cost more than the call). Counters are named `store.<store>.<operation>`.
#pragma once

#include <memory>

#include <kstreams/state/bytes_store.hpp>

namespace kstreams::state {

class metered_key_value_store final : public bytes_key_value_store {
public:
    explicit metered_key_value_store(std::unique_ptr<bytes_key_value_store> inner) : inner_(std::move(inner)) {}

    const std::string& name() const override { return inner_->name(); }
    void init(store_context& ctx) override;
    void flush() override {
        ++*flushes_;
        inner_->flush();
    }
    void flush_cache() override { inner_->flush_cache(); }
    void close() override { inner_->close(); }
    bool persistent() const override { return inner_->persistent(); }
    bool is_open() const override { return inner_->is_open(); }

    std::optional<std::string> get(std::string_view key) override {
        ++*gets_;
        return inner_->get(key);
    }
    bool get_into(std::string_view key, std::string& out) override {
        ++*gets_;
        return inner_->get_into(key, out);
    }
    void put(std::string_view key, std::string_view value) override {
        ++*puts_;
        inner_->put(key, value);
    }
    std::optional<std::string> put_if_absent(std::string_view key, std::string_view value) override {
        ++*puts_;
        return inner_->put_if_absent(key, value);
    }
    void put_all(const std::vector<std::pair<std::string, std::string>>& entries) override {
        *puts_ += entries.size();
        inner_->put_all(entries);
    }
    std::optional<std::string> remove(std::string_view key) override {
        ++*deletes_;
        return inner_->remove(key);
    }
    void erase(std::string_view key) override {
        ++*deletes_;
        inner_->erase(key);
    }
    std::unique_ptr<bytes_iterator> range(const key_range& r, bool reverse) override {
        ++*ranges_;
        return inner_->range(r, reverse);
    }
    std::unique_ptr<bytes_iterator> prefix_scan(std::string_view prefix) override {
        ++*ranges_;
        return inner_->prefix_scan(prefix);
    }
    std::uint64_t approximate_num_entries() override { return inner_->approximate_num_entries(); }
    bool set_flush_listener(bytes_flush_listener l, bool send_old) override {
        return inner_->set_flush_listener(std::move(l), send_old);
    }

private:
    std::unique_ptr<bytes_key_value_store> inner_;
    // Point at local counters until init finds the runtime's metrics.
    std::uint64_t local_[5] = {};
    std::uint64_t* puts_ = &local_[0];
    std::uint64_t* gets_ = &local_[1];
    std::uint64_t* deletes_ = &local_[2];
    std::uint64_t* ranges_ = &local_[3];
    std::uint64_t* flushes_ = &local_[4];
};

}  // namespace kstreams::state
