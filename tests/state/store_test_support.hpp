// A store_context for testing stores alone: a temporary task directory, captured changelog
// records and restore callbacks.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <kstreams/state/state_store.hpp>

#include "lib/state/record_cache.hpp"
#include "lib/state/store_resources.hpp"

namespace kstreams::test_support {

struct logged_change {
    std::string store;
    std::string key;
    std::optional<std::string> value;
    std::int64_t timestamp;
};

inline std::filesystem::path fresh_temp_dir(const std::string& tag) {
    static std::atomic<unsigned> counter{0};
    std::random_device rd;
    auto dir = std::filesystem::temp_directory_path() /
               ("kstreams-" + tag + "-" + std::to_string(rd()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(dir);
    return dir;
}

class test_store_context final : public store_context {
public:
    explicit test_store_context(std::filesystem::path dir = fresh_temp_dir("store")) : dir_(std::move(dir)) {}
    ~test_store_context() override {
        std::error_code ec;
        if (owns_dir) std::filesystem::remove_all(dir_, ec);
    }

    std::string_view application_id() const override { return "app"; }
    kstreams::task_id task_id() const override { return {0, 0}; }
    std::filesystem::path task_directory() const override { return dir_; }
    void register_store(state_store& store, restore_callback restore) override {
        registered.emplace_back(store.name(), std::move(restore));
    }
    void log_change(std::string_view store_name, std::string_view key, std::optional<std::string_view> value,
                    std::int64_t timestamp) override {
        changes.push_back({std::string(store_name), std::string(key),
                           value ? std::optional<std::string>(*value) : std::nullopt, timestamp});
    }
    record_context current_record_context() const override { return {timestamp, hdrs}; }
    detail::store_resources* resources() override { return &res; }
    void discard_checkpoint(std::string_view store_name) override { discarded.emplace_back(store_name); }
    void set_current_record_context(record_context rc) override {
        timestamp = rc.timestamp;
        hdrs = rc.hdrs;
    }
    /// Gives the context a record cache of `max_bytes` (as a stream thread's).
    void enable_cache(std::size_t max_bytes) {
        cache = std::make_unique<state::record_cache>(max_bytes);
        res.cache = cache.get();
    }

    std::vector<std::pair<std::string, restore_callback>> registered;
    std::vector<logged_change> changes;
    std::vector<std::string> discarded;
    std::int64_t timestamp = 0;
    const kstreams::headers* hdrs = nullptr;  ///< of the record "being processed"
    detail::store_resources res;
    std::unique_ptr<state::record_cache> cache;
    bool owns_dir = true;

private:
    std::filesystem::path dir_;
};

}  // namespace kstreams::test_support
