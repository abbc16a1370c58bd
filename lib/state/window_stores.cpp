// Suppliers and layers of window and session stores.
#include <kstreams/state/window_stores.hpp>
#include <kstreams/dsl/detail/header_logged_stores.hpp>

#include <stdexcept>

#include "lib/core/log.hpp"
#include "lib/runtime/internal_topic_config.hpp"
#include "lib/state/caching_window_stores.hpp"
#include "lib/state/in_memory_key_value_store.hpp"
#include "lib/state/logging_segmented_stores.hpp"
#include "lib/state/metered_window_stores.hpp"
#include "lib/state/plain_value_adapter.hpp"
#include "lib/state/rocksdb_key_value_store.hpp"
#include "lib/state/segmented_session_store.hpp"
#include "lib/state/segmented_window_store.hpp"

namespace kstreams::detail {

std::unique_ptr<bytes_window_store> wrap_window_layers(std::unique_ptr<bytes_window_store> inner, bool caching,
                                                       const logging_config& logging, bool timestamped) {
    if (timestamped) inner = state::adapt_plain_values(std::move(inner));
    if (caching && inner->retain_duplicates()) {
        // As Kafka's WindowStoreBuilder: a cache keyed by window would coalesce the duplicates.
        KSTREAMS_LOG(warn, "window store " + inner->name() + ": caching disabled, the store retains duplicates");
        caching = false;
    }
    if (logging.enabled) inner = std::make_unique<state::logging_window_store>(std::move(inner), timestamped);
    if (caching) inner = std::make_unique<state::caching_window_store>(std::move(inner));
    return std::make_unique<state::metered_window_store>(std::move(inner));
}

std::unique_ptr<bytes_session_store> wrap_session_layers(std::unique_ptr<bytes_session_store> inner, bool caching,
                                                         const logging_config& logging) {
    if (logging.enabled) inner = std::make_unique<state::logging_session_store>(std::move(inner));
    if (caching) inner = std::make_unique<state::caching_session_store>(std::move(inner));
    return std::make_unique<state::metered_session_store>(std::move(inner));
}

std::map<std::string, std::string> windowed_changelog_config(std::int64_t retention,
                                                             std::map<std::string, std::string> user) {
    // compact,delete and retention.ms = retention + windowstore.changelog.additional.retention.ms
    // come when the topics are planned, where the app's configs are known (Kafka's
    // WindowedChangelogTopicConfig): the user's own configs stay as given, above topic.*.
    user[std::string(windowed_store_retention_key)] = std::to_string(retention);
    return user;
}

}  // namespace kstreams::detail

namespace kstreams::stores {

namespace {

std::unique_ptr<bytes_key_value_store> backend(const std::string& name, bool persistent) {
    if (persistent) return std::make_unique<state::rocksdb_key_value_store>(name);
    return std::make_unique<state::in_memory_key_value_store>(name);
}

class window_supplier final : public window_bytes_store_supplier {
public:
    window_supplier(std::string name, std::int64_t retention, std::int64_t size, bool dups, bool persistent,
                    bool time_ordered = false, bool plain_values = false)
        : name_(std::move(name)), retention_(retention), size_(size), dups_(dups), persistent_(persistent),
          time_ordered_(time_ordered), plain_values_(plain_values) {
        if (retention < 0 || size < 0)
            throw std::invalid_argument("window store " + name_ + ": retention and window size must not be negative");
        if (retention < size)
            throw std::invalid_argument("window store " + name_ + ": the retention period (" +
                                        std::to_string(retention) + " ms) must be at least the window size (" +
                                        std::to_string(size) + " ms)");
    }
    const std::string& name() const override { return name_; }
    std::unique_ptr<bytes_window_store> get() const override {
        auto store = std::make_unique<state::segmented_window_store>(name_, backend(name_, persistent_), retention_, size_,
                                                                     dups_, time_ordered_);
        store->set_plain_values(plain_values_);
        return store;
    }
    std::int64_t retention_period() const override { return retention_; }
    std::int64_t window_size() const override { return size_; }
    bool retain_duplicates() const override { return dups_; }
    bool persistent() const { return persistent_; }

private:
    std::string name_;
    std::int64_t retention_, size_;
    bool dups_, persistent_, time_ordered_, plain_values_;
};

class session_supplier final : public session_bytes_store_supplier {
public:
    session_supplier(std::string name, std::int64_t retention, bool persistent, bool time_ordered = false)
        : name_(std::move(name)), retention_(retention), persistent_(persistent), time_ordered_(time_ordered) {
        if (retention < 0) throw std::invalid_argument("session store " + name_ + ": retention must not be negative");
    }
    const std::string& name() const override { return name_; }
    std::unique_ptr<bytes_session_store> get() const override {
        return std::make_unique<state::segmented_session_store>(name_, backend(name_, persistent_), retention_,
                                                                time_ordered_);
    }
    std::int64_t retention_period() const override { return retention_; }

private:
    std::string name_;
    std::int64_t retention_;
    bool persistent_, time_ordered_;
};

}  // namespace

std::shared_ptr<const window_bytes_store_supplier> in_memory_window_store(std::string name,
                                                                          std::chrono::milliseconds retention,
                                                                          std::chrono::milliseconds window_size,
                                                                          bool retain_duplicates) {
    return std::make_shared<window_supplier>(std::move(name), retention.count(), window_size.count(),
                                             retain_duplicates, false);
}

std::shared_ptr<const window_bytes_store_supplier> persistent_window_store(std::string name,
                                                                           std::chrono::milliseconds retention,
                                                                           std::chrono::milliseconds window_size,
                                                                           bool retain_duplicates) {
    return std::make_shared<window_supplier>(std::move(name), retention.count(), window_size.count(),
                                             retain_duplicates, true, false, true);
}

std::shared_ptr<const window_bytes_store_supplier> persistent_timestamped_window_store(
    std::string name, std::chrono::milliseconds retention, std::chrono::milliseconds window_size,
    bool retain_duplicates) {
    return std::make_shared<window_supplier>(std::move(name), retention.count(), window_size.count(),
                                             retain_duplicates, true);
}

std::shared_ptr<const session_bytes_store_supplier> in_memory_session_store(std::string name,
                                                                            std::chrono::milliseconds retention) {
    return std::make_shared<session_supplier>(std::move(name), retention.count(), false);
}

std::shared_ptr<const session_bytes_store_supplier> persistent_session_store(std::string name,
                                                                             std::chrono::milliseconds retention) {
    return std::make_shared<session_supplier>(std::move(name), retention.count(), true);
}

}  // namespace kstreams::stores

namespace kstreams::detail {

std::optional<dsl_store_type> window_supplier_kind(const window_bytes_store_supplier& s) {
    const auto* own = dynamic_cast<const stores::window_supplier*>(&s);
    if (!own) return std::nullopt;
    return own->persistent() ? dsl_store_type::rocks_db : dsl_store_type::in_memory;
}

std::shared_ptr<const window_bytes_store_supplier> time_ordered_window_store(std::string name, std::int64_t retention,
                                                                             std::int64_t window_size) {
    return std::make_shared<stores::window_supplier>(std::move(name), retention, window_size, false, true, true);
}

std::shared_ptr<const session_bytes_store_supplier> time_ordered_session_store(std::string name, std::int64_t retention,
                                                                               bool persistent) {
    return std::make_shared<stores::session_supplier>(std::move(name), retention, persistent, true);
}

}  // namespace kstreams::detail
