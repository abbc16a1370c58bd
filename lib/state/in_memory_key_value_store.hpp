// A byte key-value store held in memory (Kafka Streams' InMemoryKeyValueStore).
#pragma once

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include <kstreams/state/bytes_store.hpp>

#include "lib/state/byte_key_hash.hpp"

namespace kstreams::state {

/// Kafka's store is one ordered TreeMap. Here point operations (the per-record path: a get then a
/// put of the same key) go to a hash table and ranges to an ordered index of the same entries,
/// which only inserts and deletes touch; the last entry found is remembered, so the put after a
/// get does not look the key up again.
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
    bool get_into(std::string_view key, std::string& out) override;
    void put(std::string_view key, std::string_view value) override;
    std::optional<std::string> put_if_absent(std::string_view key, std::string_view value) override;
    void put_all(const std::vector<std::pair<std::string, std::string>>& entries) override;
    std::optional<std::string> remove(std::string_view key) override;
    void erase(std::string_view key) override;
    std::unique_ptr<bytes_iterator> range(const key_range& r, bool reverse) override;
    std::unique_ptr<bytes_iterator> prefix_scan(std::string_view prefix) override;
    std::uint64_t approximate_num_entries() override { return table_.size(); }

private:
    using table = std::unordered_map<std::string, std::string, byte_key_hash, std::equal_to<>>;
    using entry = table::value_type;  // nodes never move, so the index can point at them
    /// Unsigned lexicographic order of the keys, as the byte-store contract asks.
    struct by_key {
        using is_transparent = void;
        bool operator()(const entry* a, const entry* b) const { return a->first < b->first; }
        bool operator()(const entry* a, std::string_view b) const { return std::string_view(a->first) < b; }
        bool operator()(std::string_view a, const entry* b) const { return a < std::string_view(b->first); }
    };

    entry* find(std::string_view key);
    void insert(std::string_view key, std::string_view value);
    void erase_entry(entry* e);

    std::string name_;
    table table_;
    std::set<const entry*, by_key> index_;
    entry* last_found_ = nullptr;
    bool open_ = false;
};

}  // namespace kstreams::state
