#include "lib/state/caching_key_value_store.hpp"

#include <algorithm>

namespace kstreams::state {

namespace {

using cached_rows = std::vector<std::pair<std::string, std::optional<std::string>>>;

/// Merges a copy of the cached entries with the store's iterator: on equal keys the cache wins,
/// and cached deletes hide the store's entry.
class merged_iterator final : public bytes_iterator {
public:
    merged_iterator(cached_rows rows, std::unique_ptr<bytes_iterator> store, bool reverse)
        : rows_(std::move(rows)), store_(std::move(store)), reverse_(reverse) {
        if (reverse_) std::reverse(rows_.begin(), rows_.end());
        settle();
    }
    bool valid() const override { return from_ != source::none; }
    void next() override {
        if (from_ == source::cache) ++pos_;
        else if (from_ == source::store) store_->next();
        settle();
    }
    std::string_view key() const override { return from_ == source::cache ? rows_[pos_].first : store_->key(); }
    std::string_view value() const override {
        return from_ == source::cache ? std::string_view(*rows_[pos_].second) : store_->value();
    }

private:
    enum class source { none, cache, store };
    void settle() {
        for (;;) {
            const bool c = pos_ < rows_.size();
            const bool s = store_->valid();
            if (!c && !s) {
                from_ = source::none;
                return;
            }
            int cmp = !c ? 1 : !s ? -1 : rows_[pos_].first.compare(store_->key());
            if (reverse_ && c && s) cmp = -cmp;
            if (cmp == 0) {
                store_->next();  // the cached entry is newer
                cmp = -1;
            }
            if (cmp < 0) {
                if (!rows_[pos_].second) {  // deleted in the cache
                    ++pos_;
                    continue;
                }
                from_ = source::cache;
                return;
            }
            from_ = source::store;
            return;
        }
    }

    cached_rows rows_;
    std::size_t pos_ = 0;
    std::unique_ptr<bytes_iterator> store_;
    bool reverse_;
    source from_ = source::none;
};

}  // namespace

void caching_key_value_store::init(store_context& ctx) {
    inner_->init(ctx);
    cache_.attach(ctx, name(), [this](std::vector<record_cache::dirty_entry>& entries) {
        cache_.write_down(
            entries, [this](const record_cache::dirty_entry& e) { return inner_->get(e.key); },
            [this](const record_cache::dirty_entry& e) {
                if (e.value) inner_->put(e.key, *e.value);
                else inner_->erase(e.key);
            });
    });
}

bool caching_key_value_store::set_flush_listener(bytes_flush_listener listener, bool send_old_values) {
    return cache_.set_listener(std::move(listener), send_old_values);
}

void caching_key_value_store::flush_cache() { cache_.flush(); }

void caching_key_value_store::flush() {
    flush_cache();
    inner_->flush();
}

void caching_key_value_store::close() { cache_.close(*inner_); }

std::optional<std::string> caching_key_value_store::get(std::string_view key) {
    if (!active()) return inner_->get(key);
    if (const auto* cached = cache_.cache().get(cache_.ns(), key)) return *cached;
    auto v = inner_->get(key);
    if (v && !reading_for_query)
        cache_.cache().put(cache_.ns(), key, *v, false, {cache_.context().record_timestamp(), nullptr});
    return v;
}

bool caching_key_value_store::get_into(std::string_view key, std::string& out) {
    if (!active()) return inner_->get_into(key, out);
    if (const auto* cached = cache_.cache().get(cache_.ns(), key)) {
        if (!*cached) return false;
        out.assign(**cached);
        return true;
    }
    // Not read into `out` directly: caching the value may evict and so flush downstream, where a
    // processor may read this store again through the caller's buffer.
    auto v = inner_->get(key);
    if (!v) return false;
    if (!reading_for_query)
        cache_.cache().put(cache_.ns(), key, *v, false, {cache_.context().record_timestamp(), nullptr});
    out.assign(*v);
    return true;
}

void caching_key_value_store::put(std::string_view key, std::string_view value) {
    if (!active()) return inner_->put(key, value);
    cache_.cache().put(cache_.ns(), key, value, true, cache_.context().current_record_context(),
                       cache_.writer_metadata());
}

std::optional<std::string> caching_key_value_store::put_if_absent(std::string_view key, std::string_view value) {
    if (!active()) return inner_->put_if_absent(key, value);
    auto v = get(key);
    if (!v) put(key, value);
    return v;
}

void caching_key_value_store::put_all(const std::vector<std::pair<std::string, std::string>>& entries) {
    if (!active()) return inner_->put_all(entries);
    for (const auto& [k, v] : entries) put(k, v);
}

std::optional<std::string> caching_key_value_store::remove(std::string_view key) {
    if (!active()) return inner_->remove(key);
    auto v = get(key);
    erase(key);
    return v;
}

void caching_key_value_store::erase(std::string_view key) {
    if (!active()) return inner_->erase(key);
    cache_.cache().put(cache_.ns(), key, std::nullopt, true, cache_.context().current_record_context(),
                       cache_.writer_metadata());
}

std::unique_ptr<bytes_iterator> caching_key_value_store::range(const key_range& r, bool reverse) {
    if (!active()) return inner_->range(r, reverse);
    return std::make_unique<merged_iterator>(cache_.cache().snapshot(cache_.ns(), r.from, r.to), inner_->range(r, reverse), reverse);
}

std::unique_ptr<bytes_iterator> caching_key_value_store::prefix_scan(std::string_view prefix) {
    if (!active()) return inner_->prefix_scan(prefix);
    return std::make_unique<merged_iterator>(cache_.cache().snapshot_prefix(cache_.ns(), prefix), inner_->prefix_scan(prefix), false);
}

}  // namespace kstreams::state
