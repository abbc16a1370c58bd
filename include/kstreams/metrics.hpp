// Counters the runtime keeps: records dropped (and why), skipped, processed.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace kstreams {

/// Named counters. Lookups are by name and meant for rare events (a dropped record) or for callers
/// that keep the returned reference; the per-record path never looks a name up.
class metrics {
public:
    std::uint64_t& counter(std::string_view name) {
        auto it = counters_.find(name);
        if (it == counters_.end()) it = counters_.emplace(std::string(name), 0).first;
        return it->second;
    }
    std::uint64_t value(std::string_view name) const {
        auto it = counters_.find(name);
        return it == counters_.end() ? 0 : it->second;
    }
    const std::map<std::string, std::uint64_t, std::less<>>& all() const { return counters_; }
    /// Forgets the counters whose names start with `prefix` (references to them dangle).
    void erase_prefix(std::string_view prefix) {
        for (auto it = counters_.lower_bound(prefix); it != counters_.end() && it->first.starts_with(prefix);)
            it = counters_.erase(it);
    }

private:
    std::map<std::string, std::uint64_t, std::less<>> counters_;
};

/// Well-known counter names.
namespace metric {
inline constexpr std::string_view dropped_records = "dropped-records";
inline constexpr std::string_view dropped_null_key = "dropped-records.null-key";
inline constexpr std::string_view dropped_null_value = "dropped-records.null-value";
/// A null value (tombstone) reached a DSL function making the new value (map_values, map,
/// flat_map*) that takes a plain value type (dsl/detail/null_value_guard.hpp): declare the
/// parameter std::optional<V> to be called with it.
inline constexpr std::string_view dropped_null_value_plain_type = "dropped-records.null-value-plain-type";
inline constexpr std::string_view dropped_late = "dropped-records.late";
inline constexpr std::string_view skipped_deserialization = "skipped-records.deserialization-error";
inline constexpr std::string_view skipped_invalid_timestamp = "skipped-records.invalid-timestamp";
inline constexpr std::string_view dropped_production_error = "dropped-records.production-error";
/// Progress, published at least once per poll round of each stream thread: records processed,
/// handed to the producer (all topics), acknowledged by the brokers, and per input partition the
/// consumer lag (`records-lag.<topic>.<partition>`: records in the log past the last one fetched).
inline constexpr std::string_view records_processed = "records-processed";
inline constexpr std::string_view records_produced = "records-produced";
inline constexpr std::string_view records_acknowledged = "records-acknowledged";
inline constexpr std::string_view records_lag_prefix = "records-lag.";
}  // namespace metric

}  // namespace kstreams
