// The base of every state store, and what a store is given when its task starts.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <kstreams/record.hpp>
#include <kstreams/task_id.hpp>

namespace kstreams {

class state_store;

namespace detail {
struct store_resources;
}

/// One changelog record being replayed into a store. value nullopt = delete.
struct restore_record {
    std::string_view key;
    std::optional<std::string_view> value;
    std::int64_t timestamp = 0;
};

/// Applies a batch of changelog records to a store during restoration.
using restore_callback = std::function<void(std::span<const restore_record>)>;

/// What the runtime offers a store when its task starts.
class store_context {
public:
    virtual ~store_context() = default;
    virtual std::string_view application_id() const = 0;
    virtual kstreams::task_id task_id() const = 0;
    /// `<state.dir>/<application.id>/<task id>`, created and locked by the runtime.
    virtual std::filesystem::path task_directory() const = 0;
    /// Registers the store; if it is logged, the runtime replays its changelog through `restore`
    /// before the task processes records.
    virtual void register_store(state_store& store, restore_callback restore) = 0;
    /// Sends one change of a logged store to its changelog topic (nullopt value = delete).
    virtual void log_change(std::string_view store_name, std::string_view key,
                            std::optional<std::string_view> value, std::int64_t timestamp) = 0;
    /// Timestamp and headers of the record being processed: changelog records take its timestamp,
    /// record cache entries its timestamp and headers.
    virtual record_context current_record_context() const = 0;
    /// Sets it while the record cache writes an entry down, so that changelog records (of this
    /// store and of stores downstream) and forwarded records carry the timestamp and headers of the
    /// record that wrote the entry.
    virtual void set_current_record_context(record_context /*rc*/) {}
    std::int64_t record_timestamp() const { return current_record_context().timestamp; }
    /// What the runtime shares between stores (the thread's record cache, the application's
    /// RocksDB block cache and write-buffer manager, metrics); nullptr where there is none.
    virtual detail::store_resources* resources() { return nullptr; }
    /// The store's local data was lost (a corrupted directory was wiped): its checkpoint no longer
    /// holds and restoration must start from the beginning of the changelog.
    virtual void discard_checkpoint(std::string_view /*store_name*/) {}
};

class state_store {
public:
    virtual ~state_store() = default;
    virtual const std::string& name() const = 0;
    virtual void init(store_context& ctx) = 0;
    /// Writes everything down to the local store (RocksDB memtables to disk); done before a
    /// checkpoint is written.
    virtual void flush() = 0;
    /// Writes the record cache's dirty entries down (and forwards them downstream); done on every
    /// commit. A store without a cache has nothing to do.
    virtual void flush_cache() {}
    virtual void close() = 0;
    virtual bool persistent() const = 0;
    virtual bool is_open() const = 0;
};

/// How a store's changelog is configured (topic configs, e.g. cleanup.policy, are passed through).
struct logging_config {
    bool enabled = true;
    std::map<std::string, std::string> topic_config;
};

/// Makes one store instance per task. Built by the factories in stores.hpp.
class store_builder {
public:
    virtual ~store_builder() = default;
    virtual const std::string& name() const = 0;
    virtual std::unique_ptr<state_store> build() const = 0;
    virtual bool logging_enabled() const = 0;
    virtual const logging_config& logging() const = 0;
    virtual bool caching_enabled() const = 0;
};

}  // namespace kstreams
