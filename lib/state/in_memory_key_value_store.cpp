#include "lib/state/in_memory_key_value_store.hpp"

#include <algorithm>

#include <kstreams/state/stores.hpp>

namespace kstreams::state {

namespace {

/// Iterates a snapshot of the matching entries, so that writes during the scan are safe (Kafka
/// Streams' in-memory store iterates a copy of the key set as well).
class snapshot_iterator final : public bytes_iterator {
public:
    explicit snapshot_iterator(std::vector<std::pair<std::string, std::string>> rows) : rows_(std::move(rows)) {}
    bool valid() const override { return pos_ < rows_.size(); }
    void next() override { ++pos_; }
    std::string_view key() const override { return rows_[pos_].first; }
    std::string_view value() const override { return rows_[pos_].second; }

private:
    std::vector<std::pair<std::string, std::string>> rows_;
    std::size_t pos_ = 0;
};

}  // namespace

void in_memory_key_value_store::init(store_context& ctx) {
    ctx.register_store(*this, [this](std::span<const restore_record> batch) {
        for (const auto& r : batch) {
            if (r.value) map_.insert_or_assign(std::string(r.key), std::string(*r.value));
            else if (auto it = map_.find(r.key); it != map_.end()) map_.erase(it);
        }
    });
    open_ = true;
}

std::optional<std::string> in_memory_key_value_store::get(std::string_view key) {
    auto it = map_.find(key);
    if (it == map_.end()) return std::nullopt;
    return it->second;
}

void in_memory_key_value_store::put(std::string_view key, std::string_view value) {
    auto it = map_.find(key);
    if (it == map_.end()) map_.emplace(std::string(key), std::string(value));
    else it->second.assign(value);
}

std::optional<std::string> in_memory_key_value_store::put_if_absent(std::string_view key, std::string_view value) {
    auto it = map_.find(key);
    if (it != map_.end()) return it->second;
    map_.emplace(std::string(key), std::string(value));
    return std::nullopt;
}

void in_memory_key_value_store::put_all(const std::vector<std::pair<std::string, std::string>>& entries) {
    for (const auto& [k, v] : entries) put(k, v);
}

std::optional<std::string> in_memory_key_value_store::remove(std::string_view key) {
    auto it = map_.find(key);
    if (it == map_.end()) return std::nullopt;
    std::string old = std::move(it->second);
    map_.erase(it);
    return old;
}

void in_memory_key_value_store::erase(std::string_view key) {
    if (auto it = map_.find(key); it != map_.end()) map_.erase(it);
}

std::unique_ptr<bytes_iterator> in_memory_key_value_store::range(const key_range& r, bool reverse) {
    std::vector<std::pair<std::string, std::string>> rows;
    if (r.from && r.to && *r.from > *r.to) return std::make_unique<snapshot_iterator>(std::move(rows));
    auto first = r.from ? map_.lower_bound(*r.from) : map_.begin();
    auto last = r.to ? map_.upper_bound(*r.to) : map_.end();
    for (auto it = first; it != last; ++it) rows.emplace_back(it->first, it->second);
    if (reverse) std::reverse(rows.begin(), rows.end());
    return std::make_unique<snapshot_iterator>(std::move(rows));
}

std::unique_ptr<bytes_iterator> in_memory_key_value_store::prefix_scan(std::string_view prefix) {
    std::vector<std::pair<std::string, std::string>> rows;
    for (auto it = map_.lower_bound(prefix); it != map_.end() && it->first.starts_with(prefix); ++it)
        rows.emplace_back(it->first, it->second);
    return std::make_unique<snapshot_iterator>(std::move(rows));
}

}  // namespace kstreams::state

namespace kstreams::stores {

namespace {
class in_memory_supplier final : public key_value_bytes_store_supplier {
public:
    explicit in_memory_supplier(std::string name) : name_(std::move(name)) {}
    const std::string& name() const override { return name_; }
    std::unique_ptr<bytes_key_value_store> get() const override {
        return std::make_unique<state::in_memory_key_value_store>(name_);
    }

private:
    std::string name_;
};
}  // namespace

std::shared_ptr<const key_value_bytes_store_supplier> in_memory_key_value_store(std::string name) {
    return std::make_shared<in_memory_supplier>(std::move(name));
}

}  // namespace kstreams::stores
