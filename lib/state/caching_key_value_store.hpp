// Holds writes in the stream thread's record cache and writes them down on eviction or commit
// (Kafka's CachingKeyValueStore): N updates of a key between commits reach the changelog, and the
// flush listener downstream, once. Inactive (writing through) when the thread has no cache or
// its size is 0.
#pragma once

#include <memory>

#include <kstreams/state/bytes_store.hpp>

#include "lib/state/cache_binding.hpp"
#include "lib/state/forwarding_key_value_store.hpp"

namespace kstreams::state {

class caching_key_value_store final : public forwarding_key_value_store {
public:
    using forwarding_key_value_store::forwarding_key_value_store;

    void init(store_context& ctx) override;
    void flush() override;
    void flush_cache() override;
    void close() override;

    std::optional<std::string> get(std::string_view key) override;
    bool get_into(std::string_view key, std::string& out) override;
    void put(std::string_view key, std::string_view value) override;
    std::optional<std::string> put_if_absent(std::string_view key, std::string_view value) override;
    void put_all(const std::vector<std::pair<std::string, std::string>>& entries) override;
    std::optional<std::string> remove(std::string_view key) override;
    void erase(std::string_view key) override;
    std::unique_ptr<bytes_iterator> range(const key_range& r, bool reverse) override;
    std::unique_ptr<bytes_iterator> prefix_scan(std::string_view prefix) override;
    bool set_flush_listener(bytes_flush_listener listener, bool send_old_values) override;

private:
    bool active() const { return cache_.active(); }

    cache_binding cache_;
};

}  // namespace kstreams::state
