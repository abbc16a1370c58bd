// A byte key-value store in memory holding at most a number of entries, evicting the least
// recently used (Kafka's MemoryLRUCache / MemoryNavigableLRUCache, made by Stores.lruMap): get,
// put and put_if_absent make an entry the most recent; a put past the limit evicts the eldest,
// and a logged store of plain values writes a tombstone of the evicted key to its changelog
// (Kafka's ChangeLoggingKeyValueBytesStore listens to evictions of a map it wraps directly, not
// of one behind the timestamped marker, nor while restoring). Ranges and prefix
// scans read a sorted snapshot and do not touch the recency order.
#pragma once

#include <cstddef>
#include <functional>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include <kstreams/state/bytes_store.hpp>

#include "lib/state/byte_key_hash.hpp"

namespace kstreams::state {

class lru_key_value_store final : public bytes_key_value_store {
public:
    /// Called with the key and value of each entry evicted (not while restoring).
    using eviction_listener = std::function<void(std::string_view key, std::string_view value)>;

    lru_key_value_store(std::string name, std::size_t max_entries) : name_(std::move(name)), max_(max_entries) {}

    void set_eviction_listener(eviction_listener l) { listener_ = std::move(l); }

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
    std::unique_ptr<bytes_iterator> range(const key_range& r, bool reverse) override;
    std::unique_ptr<bytes_iterator> prefix_scan(std::string_view prefix) override;
    std::uint64_t approximate_num_entries() override { return entries_.size(); }

private:
    using list = std::list<std::pair<std::string, std::string>>;  ///< most recent first
    list::iterator touch(std::string_view key);  ///< end() when absent

    std::string name_;
    std::size_t max_;
    list entries_;
    std::unordered_map<std::string_view, list::iterator, byte_key_hash> index_;  ///< views of the list's keys
    eviction_listener listener_;
    bool restoring_ = false;
    bool open_ = false;
};

}  // namespace kstreams::state
