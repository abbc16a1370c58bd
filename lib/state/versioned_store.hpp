// A versioned key-value store kept in a plain byte store (in memory or RocksDB): each key's value
// is its history, the versions in timestamp order. Kafka's RocksDBVersionedStore splits the
// history into a latest-value store and time segments; what a reader or a writer can observe is
// the same: a version whose validity ended before stream time minus the history retention is
// never read again (here it is pruned when its key is next written, there when its segment
// expires), and the latest version never expires.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <kstreams/state/bytes_store.hpp>
#include <kstreams/state/versioned_key_value_store.hpp>
#include <kstreams/state/wrapped_store.hpp>

#include "lib/state/versioned_history.hpp"

namespace kstreams::state {

class versioned_history_store final : public wrapped_store<bytes_versioned_key_value_store, bytes_key_value_store> {
public:
    versioned_history_store(std::unique_ptr<bytes_key_value_store> inner, std::int64_t history_retention);

    void init(store_context& ctx) override;

    std::int64_t put(std::string_view key, std::optional<std::string_view> value, std::int64_t timestamp) override;
    std::optional<versioned_record<std::string>> get(std::string_view key) override;
    std::optional<versioned_record<std::string>> get(std::string_view key, std::int64_t as_of) override;
    std::optional<versioned_record<std::string>> remove(std::string_view key, std::int64_t timestamp) override;
    std::int64_t history_retention() const override { return retention_; }
    std::optional<std::vector<versioned_record<std::string>>> versions(std::string_view key, std::int64_t from,
                                                                       std::int64_t to) override;

private:
    /// Stream time minus the history retention (saturating).
    std::int64_t cutoff() const;
    bool expired(std::int64_t timestamp) const { return timestamp < cutoff(); }
    std::int64_t apply(std::string_view key, std::optional<std::string_view> value, std::int64_t timestamp);
    void restore(std::span<const restore_record> batch);
    void count_expired();

    std::int64_t retention_;
    /// The largest timestamp put (or restored) since the store was opened; -1 = none, as Kafka's.
    std::int64_t observed_stream_time_ = -1;
    store_context* ctx_ = nullptr;
    std::string buf_;
    bool warned_ = false;
};

}  // namespace kstreams::state
