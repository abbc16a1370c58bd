// A byte key-value store held in an ordered map (Kafka Streams' InMemoryKeyValueStore).
#pragma once

#include <map>
#include <string>

#include <kstreams/state/bytes_store.hpp>

namespace kstreams::state {

class in_memory_key_value_store final : public bytes_key_value_store {
public:
    explicit in_memory_key_value_store(std::string name) : name_(std::move(name)) {}

    const std::string& name() const override { return name_; }
    void init(store_context& ctx) override;
    void flush() override {}
    void close() override { open_ = false; }
    bool persistent() const override { return false; }
    bool is_open() const override { return open_; }

    std::optional<std::string> get(std::string_view key) override;
    void put(std::string_view key, std::string_view value) override;
    std::optional<std::string> put_if_absent(std::string_view key, std::string_view value) override;
    void put_all(const std::vector<std::pair<std::string, std::string>>& entries) override;
    std::optional<std::string> remove(std::string_view key) override;
    void erase(std::string_view key) override;
    std::unique_ptr<bytes_iterator> range(const key_range& r, bool reverse) override;
    std::unique_ptr<bytes_iterator> prefix_scan(std::string_view prefix) override;
    std::uint64_t approximate_num_entries() override { return map_.size(); }

private:
    std::string name_;
    std::map<std::string, std::string, std::less<>> map_;
    bool open_ = false;
};

}  // namespace kstreams::state
