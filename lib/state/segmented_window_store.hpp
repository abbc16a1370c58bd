// A window store over segments of a byte key-value store (Kafka's RocksDBWindowStore, and here
// also the in-memory one). Segment suffix = changelog key = `key ‖ 8-byte BE start ‖ 4-byte BE seq`.
// Scans return Kafka's order for the kind of store: RocksDB by segment, then key, then start (all
// reversed backward); in-memory (Kafka's InMemoryWindowStore) by start, then key, keys ascending
// even backward.
#pragma once

#include <kstreams/state/window_store.hpp>

#include "lib/state/segmented_store.hpp"

namespace kstreams::state {

class segmented_window_store final : public bytes_window_store {
public:
    segmented_window_store(std::string name, std::unique_ptr<bytes_key_value_store> backend, std::int64_t retention,
                           std::int64_t window_size, bool retain_duplicates, bool time_ordered = false);

    const std::string& name() const override { return name_; }
    void init(store_context& ctx) override;
    void flush() override { segments_.backend().flush(); }
    void close() override { segments_.backend().close(); }
    bool persistent() const override { return segments_.backend().persistent(); }
    bool is_open() const override { return segments_.backend().is_open(); }

    void put(std::string_view key, std::optional<std::string_view> value, std::int64_t window_start) override;
    std::optional<std::string> fetch(std::string_view key, std::int64_t window_start) override;
    std::unique_ptr<bytes_window_iterator> fetch(std::string_view key, std::int64_t time_from, std::int64_t time_to,
                                                 bool backward) override;
    std::unique_ptr<bytes_window_iterator> fetch_range(const std::optional<std::string>& key_from,
                                                       const std::optional<std::string>& key_to, std::int64_t time_from,
                                                       std::int64_t time_to, bool backward) override;
    std::int64_t retention_period() const override { return retention_; }
    std::int64_t window_size() const override { return window_size_; }
    bool retain_duplicates() const override { return retain_duplicates_; }
    bool scan_before(std::string_view key_a, std::int64_t start_a, std::string_view key_b, std::int64_t start_b,
                     bool backward) const override;

    /// Made by stores::persistent_window_store (Kafka's RocksDBWindowStore, not a
    /// TimestampedBytesStore): a store of timestamped values puts it behind the plain value adapter.
    bool plain_values() const { return plain_values_; }
    void set_plain_values(bool plain) { plain_values_ = plain; }

    /// `key ‖ 8-byte BE window start ‖ 4-byte BE seqnum`, Kafka's window store key.
    static std::string store_key(std::string_view key, std::int64_t window_start, std::int32_t seq);

private:
    std::string name_;
    bool plain_values_ = false;
    segmented_store segments_;
    std::int64_t retention_;
    std::int64_t window_size_;
    bool retain_duplicates_;
    bool time_major_;
    bool time_ordered_;  ///< emit-on-close: whole-range reads keep the window at the retention edge  ///< in-memory: Kafka's in-memory order
    std::int32_t seqnum_ = 0;
};

}  // namespace kstreams::state
