// Entries grouped into time segments over a byte key-value store (memory or RocksDB), as Kafka's
// segmented window and session stores: backend key = `8-byte BE segment id ‖ suffix`. Segments
// wholly older than the retention period are dropped at once (a RocksDB range delete).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <kstreams/state/bytes_store.hpp>

#include "lib/state/forwarding_store_context.hpp"

namespace kstreams::state {

class segmented_store {
public:
    segmented_store(std::unique_ptr<bytes_key_value_store> backend, std::int64_t retention);

    /// Kafka's segment interval: max(retention / 2, 60 s).
    static std::int64_t segment_interval_for(std::int64_t retention);
    /// The segment holding entries at `time`.
    std::int64_t segment_id(std::int64_t time) const;

    /// Opens the backend (its own restore registration is swallowed: the owner registers one) and
    /// finds the segments it already holds.
    void init(store_context& ctx);
    bytes_key_value_store& backend() { return *backend_; }
    const bytes_key_value_store& backend() const { return *backend_; }

    /// Advances observed stream time and drops segments that fell out of retention.
    void observe(std::int64_t time);
    std::int64_t observed() const { return observed_; }
    /// Observed stream time minus the retention: entries at or before it are out of retention.
    /// INT64_MIN before anything was observed, and when the difference is below the smallest time
    /// (a changelog restored from may hold any time).
    std::int64_t retention_floor() const {
        return observed_ < INT64_MIN + retention_ ? INT64_MIN : observed_ - retention_;
    }
    /// True if an entry at `time` is already out of retention (Kafka's in-memory stores' rule for
    /// a write, and every store's for a read).
    bool expired(std::int64_t time) const {
        const std::int64_t floor = retention_floor();
        return floor != INT64_MIN && time <= floor;
    }
    /// True if the segment of an entry at `time` is out of retention: older than the segment of
    /// the retention floor, the segments observe() drops (Kafka's RocksDB segmented stores take a
    /// write while its segment is live, though the entry itself may be out of retention).
    bool segment_expired(std::int64_t time) const {
        const std::int64_t floor = retention_floor();
        return floor != INT64_MIN && segment_id(time) < segment_id(floor);
    }

    void put(std::int64_t time, std::string_view suffix, std::optional<std::string_view> value);
    std::optional<std::string> get(std::int64_t time, std::string_view suffix);
    /// Entries of the segments covering [time_from, time_to] (by segment, then suffix; all of it
    /// reversed when backward) with suffix in [lo, hi] (nullopt = open). key() is the suffix.
    std::unique_ptr<bytes_iterator> scan(std::int64_t time_from, std::int64_t time_to, std::optional<std::string> lo,
                                         std::optional<std::string> hi, bool backward);

private:
    class swallow_registration final : public forwarding_store_context {
    public:
        using forwarding_store_context::forwarding_store_context;
        void register_store(state_store&, restore_callback) override {}
    };

    std::string backend_key(std::int64_t segment, std::string_view suffix) const;

    std::unique_ptr<bytes_key_value_store> backend_;
    std::int64_t retention_;
    std::int64_t interval_;
    std::int64_t observed_ = INT64_MIN;
    std::set<std::int64_t> segments_;
    std::unique_ptr<swallow_registration> backend_ctx_;
    /// The bounds each segment's scan hands the backend, reused (a scan's are copied when it starts).
    key_range scan_bounds_;
};

}  // namespace kstreams::state
