// Byte-level key-value store: what in-memory, RocksDB, caching, logging and metered layers
// implement, and what the typed stores wrap. Ordered by unsigned lexicographic key bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <kstreams/state/state_store.hpp>

namespace kstreams {

/// A position in an ordered scan of a byte store.
class bytes_iterator {
public:
    virtual ~bytes_iterator() = default;
    virtual bool valid() const = 0;
    virtual void next() = 0;
    virtual std::string_view key() const = 0;
    virtual std::string_view value() const = 0;
};

struct key_range {
    std::optional<std::string> from;  ///< inclusive; nullopt = from the first key
    std::optional<std::string> to;    ///< inclusive; nullopt = to the last key
};

/// Called when the record cache writes a dirty entry down to the store (on eviction or on a
/// commit): the entry's key, its new value (nullopt = deleted), the value the store held before
/// (only when old values were asked for), and the timestamp and headers of the record that last
/// wrote it.
using bytes_flush_listener =
    std::function<void(std::string_view key, std::optional<std::string_view> new_value,
                       std::optional<std::string_view> old_value, std::int64_t timestamp, const headers& hdrs)>;

class bytes_key_value_store : public state_store {
public:
    virtual std::optional<std::string> get(std::string_view key) = 0;
    /// As get, but copies the value into `out` (reusing its capacity, so a caller that keeps the
    /// buffer allocates nothing per read); false, `out` unspecified, when the key is absent.
    virtual bool get_into(std::string_view key, std::string& out) {
        auto v = get(key);
        if (!v) return false;
        out = std::move(*v);
        return true;
    }
    virtual void put(std::string_view key, std::string_view value) = 0;
    /// The value already there, or nullopt after storing `value`.
    virtual std::optional<std::string> put_if_absent(std::string_view key, std::string_view value) = 0;
    virtual void put_all(const std::vector<std::pair<std::string, std::string>>& entries) = 0;
    /// Removes the key; returns the old value.
    virtual std::optional<std::string> remove(std::string_view key) = 0;
    /// Removes the key without reading the old value (Kafka's put(key, null)); cheaper than remove.
    virtual void erase(std::string_view key) { remove(key); }
    virtual std::unique_ptr<bytes_iterator> range(const key_range& r, bool reverse) = 0;
    virtual std::unique_ptr<bytes_iterator> prefix_scan(std::string_view prefix) = 0;
    virtual std::uint64_t approximate_num_entries() = 0;
    /// Installs the listener the cache calls for every entry it writes down. Returns false when
    /// the store has no active cache: then nothing is held back and the caller forwards itself.
    virtual bool set_flush_listener(bytes_flush_listener /*listener*/, bool /*send_old_values*/) { return false; }
};

}  // namespace kstreams
