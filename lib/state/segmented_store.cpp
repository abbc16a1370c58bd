#include "lib/state/segmented_store.hpp"

#include <algorithm>

#include <kstreams/detail/time_segments.hpp>
#include <kstreams/serde.hpp>

#include "lib/state/rocksdb_key_value_store.hpp"

namespace kstreams::state {

namespace {

std::string segment_prefix(std::int64_t segment) {
    std::string out;
    // Offset by 2^63 so that negative segment ids sort before positive ones.
    detail::put_big_endian(static_cast<std::uint64_t>(segment) ^ (std::uint64_t{1} << 63), out);
    return out;
}

std::int64_t segment_of_prefix(std::string_view key) {
    return static_cast<std::int64_t>(detail::get_big_endian<std::uint64_t>(key) ^ (std::uint64_t{1} << 63));
}

/// Chains backend scans of several segments; key() is the suffix after the segment prefix.
class segments_iterator final : public bytes_iterator {
public:
    segments_iterator(bytes_key_value_store& backend, key_range& bounds, std::vector<std::int64_t> segments,
                      std::optional<std::string> lo, std::optional<std::string> hi, bool backward)
        : backend_(backend), bounds_(bounds), segments_(std::move(segments)), lo_(std::move(lo)), hi_(std::move(hi)),
          backward_(backward) {
        if (backward_) std::reverse(segments_.begin(), segments_.end());
        open_next();
    }
    bool valid() const override { return it_ && it_->valid(); }
    void next() override {
        it_->next();
        if (!it_->valid()) open_next();
    }
    std::string_view key() const override { return it_->key().substr(8); }
    std::string_view value() const override { return it_->value(); }

private:
    void open_next() {
        while (pos_ < segments_.size()) {
            const std::string prefix = segment_prefix(segments_[pos_++]);
            // Assigned into the store's bounds (the backend copies them): no fresh strings per scan.
            std::string& from = bounds_.from ? *bounds_.from : bounds_.from.emplace();
            std::string& to = bounds_.to ? *bounds_.to : bounds_.to.emplace();
            from.assign(prefix);
            if (lo_) from.append(*lo_);
            to.assign(prefix);
            if (hi_) to.append(*hi_);
            else to.append(64, '\xff');  // past any suffix we write
            it_.reset();  // first, so that the backend can reuse its iterator for this segment
            it_ = backend_.range(bounds_, backward_);
            if (it_->valid()) return;
        }
        it_.reset();
    }

    bytes_key_value_store& backend_;
    key_range& bounds_;
    std::vector<std::int64_t> segments_;
    std::optional<std::string> lo_, hi_;
    bool backward_;
    std::size_t pos_ = 0;
    std::unique_ptr<bytes_iterator> it_;
};

}  // namespace

segmented_store::segmented_store(std::unique_ptr<bytes_key_value_store> backend, std::int64_t retention)
    : backend_(std::move(backend)), retention_(retention), interval_(segment_interval_for(retention)) {}

std::int64_t segmented_store::segment_interval_for(std::int64_t retention) {
    return detail::segment_interval_for(retention);
}

std::int64_t segmented_store::segment_id(std::int64_t time) const { return detail::segment_id(time, interval_); }

std::string segmented_store::backend_key(std::int64_t segment, std::string_view suffix) const {
    std::string k = segment_prefix(segment);
    k.append(suffix);
    return k;
}

void segmented_store::init(store_context& ctx) {
    backend_ctx_ = std::make_unique<swallow_registration>(ctx);
    backend_->init(*backend_ctx_);
    // Find the segments already on disk: one seek per segment.
    std::optional<std::string> from;
    for (;;) {
        auto it = backend_->range({from, std::nullopt}, false);
        if (!it->valid()) break;
        const std::int64_t seg = segment_of_prefix(it->key());
        segments_.insert(seg);
        if (seg == INT64_MAX) break;
        from = segment_prefix(seg + 1);
    }
}

void segmented_store::observe(std::int64_t time) {
    if (time <= observed_) return;
    observed_ = time;
    const std::int64_t min_live = segment_id(retention_floor());
    while (!segments_.empty() && *segments_.begin() < min_live) {
        const std::int64_t seg = *segments_.begin();
        segments_.erase(segments_.begin());
        if (auto* rocks = dynamic_cast<rocksdb_key_value_store*>(backend_.get())) {
            rocks->delete_range(segment_prefix(seg), segment_prefix(seg + 1));
        } else {
            std::vector<std::string> keys;
            for (auto it = backend_->prefix_scan(segment_prefix(seg)); it->valid(); it->next())
                keys.emplace_back(it->key());
            for (const auto& k : keys) backend_->erase(k);
        }
    }
}

void segmented_store::put(std::int64_t time, std::string_view suffix, std::optional<std::string_view> value) {
    const std::int64_t seg = segment_id(time);
    const std::string key = backend_key(seg, suffix);
    if (value) {
        backend_->put(key, *value);
        segments_.insert(seg);
    } else {
        backend_->erase(key);
    }
}

std::optional<std::string> segmented_store::get(std::int64_t time, std::string_view suffix) {
    return backend_->get(backend_key(segment_id(time), suffix));
}

std::unique_ptr<bytes_iterator> segmented_store::scan(std::int64_t time_from, std::int64_t time_to,
                                                      std::optional<std::string> lo, std::optional<std::string> hi,
                                                      bool backward) {
    std::vector<std::int64_t> segs;
    if (time_from <= time_to) {
        const std::int64_t first = segment_id(time_from), last = segment_id(time_to);
        for (auto it = segments_.lower_bound(first); it != segments_.end() && *it <= last; ++it) segs.push_back(*it);
    }
    return std::make_unique<segments_iterator>(*backend_, scan_bounds_, std::move(segs), std::move(lo), std::move(hi),
                                               backward);
}

}  // namespace kstreams::state
