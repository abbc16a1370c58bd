// A caching store's tie to the stream thread's record cache: its namespace, its flush listener,
// and the write-down of flushed entries (Kafka's putAndMaybeForward of the caching stores). Used
// by the window and session caching layers.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <kstreams/state/bytes_store.hpp>

#include "lib/state/record_cache.hpp"

namespace kstreams::state {

class cache_binding {
public:
    cache_binding() = default;
    cache_binding(const cache_binding&) = delete;
    cache_binding& operator=(const cache_binding&) = delete;
    ~cache_binding();

    /// Takes a namespace in the thread's cache, if the context offers a cache of non-zero size.
    void attach(store_context& ctx, const std::string& store_name, record_cache::flush_callback on_flush);
    bool active() const { return ns_ != nullptr; }
    record_cache& cache() { return *cache_; }
    record_cache::named_cache& ns() { return *ns_; }
    store_context& context() { return *ctx_; }
    /// Topic, partition and offset of the record being processed, for a cache entry it writes.
    stored_metadata writer_metadata() { return hooks_ ? hooks_->current_stored_metadata() : stored_metadata{}; }

    bool set_listener(bytes_flush_listener listener, bool send_old_values);
    void flush() {
        if (active()) cache_->flush(*ns_);
    }
    /// Flushes the dirty entries (when `inner` is still open), drops the namespace and closes
    /// `inner`, which is closed even if the flush throws.
    void close(state_store& inner);

    /// Writes flushed entries down, each with the timestamp of the record that wrote it, and
    /// forwards them to the listener. `read_old` reads the stored value, `write` stores one entry.
    void write_down(std::vector<record_cache::dirty_entry>& entries,
                    const std::function<std::optional<std::string>(const record_cache::dirty_entry&)>& read_old,
                    const std::function<void(const record_cache::dirty_entry&)>& write);

private:
    store_context* ctx_ = nullptr;
    record_metadata_hooks* hooks_ = nullptr;
    record_cache* cache_ = nullptr;
    record_cache::named_cache* ns_ = nullptr;
    bytes_flush_listener listener_;
    bool send_old_values_ = false;
};

}  // namespace kstreams::state
