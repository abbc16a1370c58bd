// The record cache of one stream thread (Kafka Streams' ThreadCache): a size-bounded cache shared
// by the caching stores of all tasks on the thread, one namespace per store and task. It coalesces
// updates per key; when the thread's total goes over the bound, the least recently used entries of
// the namespace being written are evicted, and evicting a dirty entry flushes all dirty entries of
// that namespace (in the order they were last written) to the namespace's flush callback.
//
// The tasks of a stream thread run at once on the app's executor threads (one strand per task):
// a namespace is only ever touched by its own task, and the counters shared by all namespaces are
// atomic. Adding, removing and discarding namespaces happen while no task of the thread runs.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kstreams/record.hpp>

#include "lib/observe/windowed_stats.hpp"
#include "lib/state/node_hash_table.hpp"
#include "lib/state/task_store_hooks.hpp"

namespace kstreams::state {

/// Set on a thread while an interactive query reads a task's stores (query_registry.cpp): the
/// caching stores then leave the cache as it is on a miss, as Kafka's do off the stream thread
/// (caching what was read may evict, and so forward and log, from the query's thread).
inline thread_local bool reading_for_query = false;
struct query_read_scope {
    query_read_scope() { reading_for_query = true; }
    ~query_read_scope() { reading_for_query = false; }
    query_read_scope(const query_read_scope&) = delete;
    query_read_scope& operator=(const query_read_scope&) = delete;
};

class record_cache {
public:
    /// One flushed entry: nullopt value = a delete; timestamp and headers of the record that wrote it.
    struct dirty_entry {
        std::string key;
        std::optional<std::string> value;
        std::int64_t timestamp = 0;
        kstreams::headers hdrs;
        stored_metadata metadata;  ///< topic, partition and offset of the record that wrote it
    };
    using flush_callback = std::function<void(std::vector<dirty_entry>& entries)>;

    /// The entries of one store of one task.
    class named_cache {
    public:
        const std::string& name() const { return name_; }
        std::size_t size() const { return entries_.size(); }
        /// From now on each hit records the share of hits among all reads so far (Kafka's
        /// record-cache hit-ratio sensor, DEBUG level), in parts per million.
        void record_hit_ratio_into(kstreams::metrics& m, const std::string& prefix) {
            hit_ratio_.emplace(m, prefix);
        }
        /// Where the namespace keeps the size of its entries in bytes; local until set.
        void count_bytes_into(std::uint64_t& bytes) {
            bytes = *bytes_;
            bytes_ = &bytes;
        }

    private:
        friend class record_cache;
        struct entry;
        using slot = std::pair<const std::string, entry>;  ///< a node of entries_ (stays where it is)
        /// Lists of entries (recency, dirtiness): nodes of the map, so no lookup to reach them.
        using key_list = std::list<slot*>;
        struct entry {
            std::optional<std::string> value;
            std::int64_t timestamp = 0;
            kstreams::headers hdrs;  ///< shared with the writing record (copy on write)
            stored_metadata metadata;
            bool dirty = false;
            std::size_t bytes = 0;
            key_list::iterator lru;
            key_list::iterator dirty_pos;  ///< in dirty_ while dirty
        };
        struct key_order {
            using is_transparent = void;
            bool operator()(const std::string* a, const std::string* b) const { return *a < *b; }
            bool operator()(const std::string* a, std::string_view b) const { return std::string_view(*a) < b; }
            bool operator()(std::string_view a, const std::string* b) const { return a < std::string_view(*b); }
        };
        /// Hashed: gets and puts (every record of a cached aggregation) need no ordered walk
        /// comparing keys that share their prefix.
        using entry_map = node_hash_table<slot>;
        /// The entry of `key`, or null. Remembers the last one found: a store's put usually
        /// follows a get of the same key, and then needs no second lookup.
        slot* find(std::string_view key);
        slot& insert(std::string_view key);
        void erase(slot& s);
        void forget_found() { found_ = nullptr; }
        /// The keys in order, kept from the first range scan on (see `ordered_`).
        const std::set<const std::string*, key_order>& ordered();

        std::string name_;
        flush_callback on_flush_;
        entry_map entries_;
        slot* found_ = nullptr;
        /// The keys in ascending order, for range and prefix scans only: built at the namespace's
        /// first scan and kept from then on (a store that is never scanned, as an aggregation's,
        /// never pays for it).
        std::set<const std::string*, key_order> ordered_;
        bool keeps_order_ = false;
        key_list lru_;  ///< front = most recently used
        /// Dirty keys in the order of their last write (a re-write moves the key to the end).
        /// Nodes of flushed keys wait in spare_ for reuse, so dirtying allocates nothing.
        key_list dirty_;
        key_list spare_;
        std::uint64_t hits_ = 0;
        std::uint64_t misses_ = 0;
        /// The entries' bytes (Kafka's cache-size-bytes-total of the task), local until bound.
        std::uint64_t local_bytes_ = 0;
        std::uint64_t* bytes_ = &local_bytes_;
        std::optional<detail::windowed_stats_recorder> hit_ratio_;
    };

    /// `max_bytes` 0 disables caching (stores write through).
    explicit record_cache(std::size_t max_bytes) : max_bytes_(max_bytes) {}
    record_cache(const record_cache&) = delete;
    record_cache& operator=(const record_cache&) = delete;

    named_cache& add(std::string name, flush_callback on_flush);
    /// Drops a namespace and its entries without flushing (flush first when closing cleanly).
    void remove(named_cache& ns);

    /// The cached value (nullopt = cached delete), or nullptr when the key is not cached. Marks the
    /// entry most recently used.
    const std::optional<std::string>* get(named_cache& ns, std::string_view key);
    /// Stores a value (nullopt = delete) with the context of the record that writes it; dirty
    /// entries are flushed later. May evict, and so flush.
    void put(named_cache& ns, std::string_view key, std::optional<std::string_view> value, bool dirty,
             const record_context& writer, const stored_metadata& writer_metadata = {});
    /// Hands every dirty entry of the namespace to its flush callback and marks them clean.
    void flush(named_cache& ns);
    /// Forgets every entry, dirty or not, of the namespaces whose names start with `prefix`,
    /// without flushing: a task closed uncleanly (its partitions lost, or its thread dying) must
    /// not forward or log what it had not committed, as Kafka's dirty close. The namespaces stay.
    void discard(std::string_view prefix);
    /// A copy of the cached entries with keys in [from, to] (nullopt = open), ascending.
    std::vector<std::pair<std::string, std::optional<std::string>>> snapshot(
        named_cache& ns, const std::optional<std::string>& from, const std::optional<std::string>& to) const;
    /// As snapshot, for keys starting with `prefix`.
    std::vector<std::pair<std::string, std::optional<std::string>>> snapshot_prefix(named_cache& ns,
                                                                                    std::string_view prefix) const;

    std::size_t max_bytes() const { return max_bytes_; }
    std::size_t size_bytes() const { return size_bytes_; }
    std::uint64_t evictions() const { return evictions_; }
    std::uint64_t flushes() const { return flushes_; }

    /// What one entry counts against the bound: its bytes plus bookkeeping (as Kafka's estimate).
    static std::size_t entry_bytes(std::size_t key_size, std::size_t value_size) { return key_size + value_size + 64; }

private:
    void evict_from(named_cache& ns);
    void flush(named_cache& ns, std::optional<dirty_entry> evicted);
    void grow(named_cache& ns, std::size_t bytes) {
        size_bytes_ += bytes;
        *ns.bytes_ += bytes;
    }
    void shrink(named_cache& ns, std::size_t bytes) {
        size_bytes_ -= bytes;
        *ns.bytes_ -= bytes;
    }

    std::size_t max_bytes_;
    std::atomic<std::size_t> size_bytes_{0};
    std::atomic<std::uint64_t> evictions_{0};
    std::atomic<std::uint64_t> flushes_{0};
    std::list<named_cache> namespaces_;
};

}  // namespace kstreams::state
