// Materialized window or session entries: the in-memory stores sort their scans into Kafka's
// in-memory order with them, and the caching layers hold their cached entries in them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <kstreams/state/window_store.hpp>

namespace kstreams::state {

struct window_row {
    std::string key;
    kstreams::window window;
    std::optional<std::string> value;  ///< nullopt = a cached delete
};

class window_rows_iterator final : public bytes_window_iterator {
public:
    explicit window_rows_iterator(std::vector<window_row> rows) : rows_(std::move(rows)) {}
    bool valid() const override { return pos_ < rows_.size(); }
    void next() override { ++pos_; }
    std::string_view key() const override { return rows_[pos_].key; }
    kstreams::window window() const override { return rows_[pos_].window; }
    std::string_view value() const override { return *rows_[pos_].value; }

private:
    std::vector<window_row> rows_;
    std::size_t pos_ = 0;
};

/// A time window's end; Kafka clamps an overflowing end to the largest time.
inline std::int64_t window_end(std::int64_t start, std::int64_t size) {
    return start > INT64_MAX - size ? INT64_MAX : start + size;
}

/// Reads the rest of a scan into rows.
inline std::vector<window_row> drain(bytes_window_iterator& it) {
    std::vector<window_row> rows;
    for (; it.valid(); it.next()) rows.push_back({std::string(it.key()), it.window(), std::string(it.value())});
    return rows;
}

/// Stable-sorts rows by `before(a, b)`: rows it does not order keep their scan order.
template <class Before>
std::unique_ptr<bytes_window_iterator> sorted_rows(std::vector<window_row> rows, Before before) {
    std::stable_sort(rows.begin(), rows.end(), before);
    return std::make_unique<window_rows_iterator>(std::move(rows));
}

/// Merges cached rows (already in the store's scan order, deletes included) into the store's scan:
/// on the same key and window the cached row wins, and a cached delete hides the stored entry.
class merged_window_iterator final : public bytes_window_iterator {
public:
    /// True if (key_a, window_a) comes before (key_b, window_b) in this scan's direction.
    using before_fn = std::function<bool(std::string_view, kstreams::window, std::string_view, kstreams::window)>;

    merged_window_iterator(std::vector<window_row> cached, std::unique_ptr<bytes_window_iterator> store,
                           before_fn before)
        : rows_(std::move(cached)), store_(std::move(store)), before_(std::move(before)) {
        settle();
    }
    bool valid() const override { return from_ != source::none; }
    void next() override {
        if (from_ == source::cache) ++pos_;
        else if (from_ == source::store) store_->next();
        settle();
    }
    std::string_view key() const override { return from_ == source::cache ? rows_[pos_].key : store_->key(); }
    kstreams::window window() const override {
        return from_ == source::cache ? rows_[pos_].window : store_->window();
    }
    std::string_view value() const override {
        return from_ == source::cache ? std::string_view(*rows_[pos_].value) : store_->value();
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
            bool take_cache = c;
            if (c && s) {
                const auto& row = rows_[pos_];
                if (row.key == store_->key() && row.window == store_->window()) {
                    store_->next();  // the cached entry is newer
                    continue;
                }
                take_cache = before_(row.key, row.window, store_->key(), store_->window());
            }
            if (take_cache && !rows_[pos_].value) {  // deleted in the cache
                ++pos_;
                continue;
            }
            from_ = take_cache ? source::cache : source::store;
            return;
        }
    }

    std::vector<window_row> rows_;
    std::size_t pos_ = 0;
    std::unique_ptr<bytes_window_iterator> store_;
    before_fn before_;
    source from_ = source::none;
};

}  // namespace kstreams::state
