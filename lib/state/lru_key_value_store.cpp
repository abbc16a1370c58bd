#include "lib/state/lru_key_value_store.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <kstreams/state/stores.hpp>

#include "lib/state/snapshot_iterator.hpp"

namespace kstreams::state {

void lru_key_value_store::init(store_context& ctx) {
    ctx.register_store(*this, [this](std::span<const restore_record> batch) {
        restoring_ = true;
        try {
            for (const auto& r : batch) {
                if (r.value) put(r.key, *r.value);
                else remove(r.key);
            }
        } catch (...) {
            restoring_ = false;
            throw;
        }
        restoring_ = false;
    });
    open_ = true;
}

lru_key_value_store::list::iterator lru_key_value_store::touch(std::string_view key) {
    auto it = index_.find(key);
    if (it == index_.end()) return entries_.end();
    entries_.splice(entries_.begin(), entries_, it->second);
    return it->second;
}

std::optional<std::string> lru_key_value_store::get(std::string_view key) {
    auto e = touch(key);
    if (e == entries_.end()) return std::nullopt;
    return e->second;
}

void lru_key_value_store::put(std::string_view key, std::string_view value) {
    if (auto e = touch(key); e != entries_.end()) {
        e->second.assign(value);
        return;
    }
    entries_.emplace_front(std::string(key), std::string(value));
    index_.emplace(std::string_view(entries_.front().first), entries_.begin());
    if (entries_.size() <= max_) return;
    // Kafka's LinkedHashMap.removeEldestEntry: the listener sees the eldest, then it goes.
    auto& eldest = entries_.back();
    if (!restoring_ && listener_) listener_(eldest.first, eldest.second);
    index_.erase(std::string_view(eldest.first));
    entries_.pop_back();
}

std::optional<std::string> lru_key_value_store::put_if_absent(std::string_view key, std::string_view value) {
    if (auto e = touch(key); e != entries_.end()) return e->second;
    put(key, value);
    return std::nullopt;
}

void lru_key_value_store::put_all(const std::vector<std::pair<std::string, std::string>>& entries) {
    for (const auto& [k, v] : entries) put(k, v);
}

std::optional<std::string> lru_key_value_store::remove(std::string_view key) {
    auto it = index_.find(key);
    if (it == index_.end()) return std::nullopt;
    auto e = it->second;
    index_.erase(it);
    std::string old = std::move(e->second);
    entries_.erase(e);
    return old;
}

std::unique_ptr<bytes_iterator> lru_key_value_store::range(const key_range& r, bool reverse) {
    std::vector<std::pair<std::string, std::string>> rows;
    if (!(r.from && r.to && *r.from > *r.to))
        for (const auto& [k, v] : entries_)
            if ((!r.from || k >= *r.from) && (!r.to || k <= *r.to)) rows.emplace_back(k, v);
    std::sort(rows.begin(), rows.end());
    if (reverse) std::reverse(rows.begin(), rows.end());
    return std::make_unique<snapshot_iterator>(std::move(rows));
}

std::unique_ptr<bytes_iterator> lru_key_value_store::prefix_scan(std::string_view prefix) {
    std::vector<std::pair<std::string, std::string>> rows;
    for (const auto& [k, v] : entries_)
        if (std::string_view(k).starts_with(prefix)) rows.emplace_back(k, v);
    std::sort(rows.begin(), rows.end());
    return std::make_unique<snapshot_iterator>(std::move(rows));
}

}  // namespace kstreams::state

namespace kstreams::stores {

namespace {
class lru_supplier final : public key_value_bytes_store_supplier {
public:
    lru_supplier(std::string name, std::size_t max) : name_(std::move(name)), max_(max) {}
    const std::string& name() const override { return name_; }
    std::unique_ptr<bytes_key_value_store> get() const override {
        return std::make_unique<state::lru_key_value_store>(name_, max_);
    }

private:
    std::string name_;
    std::size_t max_;
};
}  // namespace

std::shared_ptr<const key_value_bytes_store_supplier> lru_map(std::string name, std::int32_t max_entries) {
    if (max_entries < 0) throw std::invalid_argument("stores::lru_map(" + name + "): max_entries must not be negative");
    return std::make_shared<lru_supplier>(std::move(name), static_cast<std::size_t>(max_entries));
}

}  // namespace kstreams::stores
