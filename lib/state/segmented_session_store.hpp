// A session store over segments (by session end) of a byte key-value store (Kafka's
// RocksDBSessionStore, and here also the in-memory one). Segment suffix = changelog key =
// `key ‖ 8-byte BE end ‖ 8-byte BE start`. Scans return Kafka's order for the kind of store:
// RocksDB by segment, then key, end, start (all reversed backward); in-memory (Kafka's
// InMemorySessionStore) by end, then key, then start descending (backward: end descending, key
// descending, start ascending).
//
// Retention (sessions end at most the observed stream time, the latest end written or restored):
// reads never show a session ending at or before observed stream time - retention. Writes
// follow the store Kafka has: its in-memory store drops a session ending out of retention; its
// RocksDB stores (and the time-ordered one, also when it stands in for them in memory, recovered
// by recomputation) drop it only when its whole segment is out of retention, so a session written
// one retention behind is kept and a read across all keys of the time-ordered store, which is not
// cut at the retention (emit on window close), shows it. A dropped write counts in dropped-records
// (dropped-records.expired), as Kafka's. Restoring, the in-memory store advances its clock record
// by record; the RocksDB ones to the batch's latest end first.
#pragma once

#include <kstreams/state/session_store.hpp>

#include "lib/state/segmented_store.hpp"

namespace kstreams::state {

class segmented_session_store final : public bytes_session_store {
public:
    segmented_session_store(std::string name, std::unique_ptr<bytes_key_value_store> backend, std::int64_t retention,
                            bool time_ordered = false);

    const std::string& name() const override { return name_; }
    void init(store_context& ctx) override;
    void flush() override { segments_.backend().flush(); }
    void close() override { segments_.backend().close(); }
    bool persistent() const override { return segments_.backend().persistent(); }
    bool is_open() const override { return segments_.backend().is_open(); }

    void put(std::string_view key, kstreams::window session, std::optional<std::string_view> value) override;
    std::optional<std::string> fetch_session(std::string_view key, std::int64_t start, std::int64_t end) override;
    std::unique_ptr<bytes_window_iterator> find_sessions(const std::optional<std::string>& key_from,
                                                         const std::optional<std::string>& key_to,
                                                         std::int64_t earliest_session_end,
                                                         std::int64_t latest_session_start, bool backward) override;
    std::int64_t retention_period() const override { return retention_; }
    bool drops_write(std::int64_t end, std::int64_t stream_time) const override;
    bool scan_before(std::string_view key_a, kstreams::window a, std::string_view key_b, kstreams::window b,
                     bool backward) const override;

    /// `key ‖ 8-byte BE end ‖ 8-byte BE start`, Kafka's session key.
    static std::string session_key(std::string_view key, std::int64_t start, std::int64_t end);

private:
    /// Whether a write of a session ending at `end` is dropped as out of retention.
    bool write_expired(std::int64_t end) const { return segmented_session_store::drops_write(end, segments_.observed()); }

    std::string name_;
    segmented_store segments_;
    std::int64_t retention_;
    bool end_major_;      ///< in-memory: Kafka's in-memory order
    bool time_ordered_;   ///< emit-on-close: whole-range reads are not cut at the retention
    bool per_segment_;    ///< writes dropped by segment (Kafka's RocksDB stores), not by session
    store_context* ctx_ = nullptr;
    bool warned_ = false;
};

}  // namespace kstreams::state
