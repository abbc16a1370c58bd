// Caching layers of window and session stores (Kafka's CachingWindowStore and
// CachingSessionStore): writes wait in the stream thread's record cache, keyed by the store's
// binary key (window: `key ‖ 8-byte BE start`; session: `key ‖ end ‖ start`), and reach the
// store below (the changelog) and the flush listener only on eviction or commit. Reads see the
// cache first; scans merge the cache into the store's scan in the store's order. Inactive
// (writing through) when the thread has no cache or its size is 0.
#pragma once

#include <cstdint>
#include <memory>

#include <kstreams/state/session_store.hpp>
#include <kstreams/state/window_store.hpp>

#include "lib/state/cache_binding.hpp"
#include "lib/state/forwarding_window_stores.hpp"

namespace kstreams::state {

class caching_window_store final : public forwarding_window_store {
public:
    using forwarding_window_store::forwarding_window_store;

    void init(store_context& ctx) override;
    void flush() override {
        cache_.flush();
        inner_->flush();
    }
    void flush_cache() override { cache_.flush(); }
    void close() override { cache_.close(*inner_); }

    void put(std::string_view key, std::optional<std::string_view> value, std::int64_t window_start) override;
    std::optional<std::string> fetch(std::string_view key, std::int64_t window_start) override;
    std::unique_ptr<bytes_window_iterator> fetch(std::string_view key, std::int64_t time_from, std::int64_t time_to,
                                                 bool backward) override;
    std::unique_ptr<bytes_window_iterator> fetch_range(const std::optional<std::string>& key_from,
                                                       const std::optional<std::string>& key_to, std::int64_t time_from,
                                                       std::int64_t time_to, bool backward) override;
    bool set_flush_listener(bytes_flush_listener listener, bool send_old_values) override {
        return cache_.set_listener(std::move(listener), send_old_values);
    }

private:
    std::unique_ptr<bytes_window_iterator> merge(std::unique_ptr<bytes_window_iterator> store,
                                                 const std::optional<std::string>& key_from,
                                                 const std::optional<std::string>& key_to, std::int64_t time_from,
                                                 std::int64_t time_to, bool backward);

    cache_binding cache_;
    std::int64_t max_cached_ = INT64_MIN;  ///< the latest window start put in the cache
};

class caching_session_store final : public forwarding_session_store {
public:
    using forwarding_session_store::forwarding_session_store;

    void init(store_context& ctx) override;
    void flush() override {
        cache_.flush();
        inner_->flush();
    }
    void flush_cache() override { cache_.flush(); }
    void close() override { cache_.close(*inner_); }

    void put(std::string_view key, kstreams::window session, std::optional<std::string_view> value) override;
    std::optional<std::string> fetch_session(std::string_view key, std::int64_t start, std::int64_t end) override;
    std::unique_ptr<bytes_window_iterator> find_sessions(const std::optional<std::string>& key_from,
                                                         const std::optional<std::string>& key_to,
                                                         std::int64_t earliest_session_end,
                                                         std::int64_t latest_session_start, bool backward) override;
    bool set_flush_listener(bytes_flush_listener listener, bool send_old_values) override {
        return cache_.set_listener(std::move(listener), send_old_values);
    }

private:
    cache_binding cache_;
    std::int64_t max_cached_ = INT64_MIN;  ///< the latest session end put in the cache
};

}  // namespace kstreams::state
