#include "lib/state/in_memory_key_value_store.hpp"

#include <algorithm>

#include <kstreams/state/stores.hpp>

#include "lib/state/snapshot_iterator.hpp"

namespace kstreams::state {

void in_memory_key_value_store::init(store_context& ctx) {
    ctx.register_store(*this, [this](std::span<const restore_record> batch) {
        for (const auto& r : batch) {
            if (r.value) put(r.key, *r.value);
            else erase(r.key);
        }
    });
    open_ = true;
}

in_memory_key_value_store::entry* in_memory_key_value_store::find(std::string_view key) {
    if (last_found_ && last_found_->first == key) return last_found_;
    auto it = table_.find(key);
    if (it == table_.end()) return nullptr;
    return last_found_ = &*it;
}

void in_memory_key_value_store::insert(std::string_view key, std::string_view value) {
    auto it = table_.emplace(std::string(key), std::string(value)).first;
    try {
        index_.insert(&*it);
    } catch (...) {
        table_.erase(it);
        throw;
    }
    last_found_ = &*it;
}

void in_memory_key_value_store::erase_entry(entry* e) {
    if (e == last_found_) last_found_ = nullptr;
    index_.erase(e);
    table_.erase(table_.find(std::string_view(e->first)));
}

std::optional<std::string> in_memory_key_value_store::get(std::string_view key) {
    const entry* e = find(key);
    if (!e) return std::nullopt;
    return e->second;
}

bool in_memory_key_value_store::get_into(std::string_view key, std::string& out) {
    const entry* e = find(key);
    if (!e) return false;
    out.assign(e->second);
    return true;
}

void in_memory_key_value_store::put(std::string_view key, std::string_view value) {
    if (entry* e = find(key)) e->second.assign(value);
    else insert(key, value);
}

std::optional<std::string> in_memory_key_value_store::put_if_absent(std::string_view key, std::string_view value) {
    if (const entry* e = find(key)) return e->second;
    insert(key, value);
    return std::nullopt;
}

void in_memory_key_value_store::put_all(const std::vector<std::pair<std::string, std::string>>& entries) {
    for (const auto& [k, v] : entries) put(k, v);
}

std::optional<std::string> in_memory_key_value_store::remove(std::string_view key) {
    entry* e = find(key);
    if (!e) return std::nullopt;
    std::string old = std::move(e->second);
    erase_entry(e);
    return old;
}

void in_memory_key_value_store::erase(std::string_view key) {
    if (entry* e = find(key)) erase_entry(e);
}

std::unique_ptr<bytes_iterator> in_memory_key_value_store::range(const key_range& r, bool reverse) {
    std::vector<std::pair<std::string, std::string>> rows;
    if (r.from && r.to && *r.from > *r.to) return std::make_unique<snapshot_iterator>(std::move(rows));
    auto first = r.from ? index_.lower_bound(std::string_view(*r.from)) : index_.begin();
    auto last = r.to ? index_.upper_bound(std::string_view(*r.to)) : index_.end();
    for (auto it = first; it != last; ++it) rows.emplace_back((*it)->first, (*it)->second);
    if (reverse) std::reverse(rows.begin(), rows.end());
    return std::make_unique<snapshot_iterator>(std::move(rows));
}

std::unique_ptr<bytes_iterator> in_memory_key_value_store::prefix_scan(std::string_view prefix) {
    std::vector<std::pair<std::string, std::string>> rows;
    for (auto it = index_.lower_bound(prefix); it != index_.end() && (*it)->first.starts_with(prefix); ++it)
        rows.emplace_back((*it)->first, (*it)->second);
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
