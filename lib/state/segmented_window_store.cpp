#include "lib/state/segmented_window_store.hpp"

#include <algorithm>
#include <tuple>

#include <kstreams/serde.hpp>

#include "lib/state/key_scan_bound.hpp"
#include "lib/state/rocksdb_key_value_store.hpp"
#include "lib/state/window_rows.hpp"

namespace kstreams::state {

namespace {

constexpr std::size_t window_suffix = 12;

/// Filters segment entries down to keys in [key_from, key_to] and starts in [from, to].
class window_filter_iterator final : public bytes_window_iterator {
public:
    window_filter_iterator(std::unique_ptr<bytes_iterator> it, std::optional<std::string> key_from,
                           std::optional<std::string> key_to, std::int64_t from, std::int64_t to, std::int64_t size)
        : it_(std::move(it)), key_from_(std::move(key_from)), key_to_(std::move(key_to)), from_(from), to_(to),
          size_(size) {
        settle();
    }
    bool valid() const override { return it_->valid(); }
    void next() override {
        it_->next();
        settle();
    }
    std::string_view key() const override { return it_->key().substr(0, it_->key().size() - window_suffix); }
    kstreams::window window() const override {
        const std::int64_t start = start_of(it_->key());
        return {start, window_end(start, size_)};
    }
    std::string_view value() const override { return it_->value(); }

private:
    static std::int64_t start_of(std::string_view k) {
        return detail::get_big_endian<std::int64_t>(k.substr(k.size() - window_suffix, 8));
    }
    void settle() {
        for (; it_->valid(); it_->next()) {
            std::string_view k = it_->key();
            if (k.size() < window_suffix) continue;
            std::string_view plain = k.substr(0, k.size() - window_suffix);
            if (key_from_ && plain < std::string_view(*key_from_)) continue;
            if (key_to_ && plain > std::string_view(*key_to_)) continue;
            const std::int64_t t = start_of(k);
            if (t < from_ || t > to_) continue;
            return;
        }
    }

    std::unique_ptr<bytes_iterator> it_;
    std::optional<std::string> key_from_, key_to_;
    std::int64_t from_, to_, size_;
};

}  // namespace

segmented_window_store::segmented_window_store(std::string name, std::unique_ptr<bytes_key_value_store> backend,
                                               std::int64_t retention, std::int64_t window_size,
                                               bool retain_duplicates, bool time_ordered)
    : name_(std::move(name)), segments_(std::move(backend), retention), retention_(retention),
      window_size_(window_size), retain_duplicates_(retain_duplicates),
      time_major_(!segments_.backend().persistent()), time_ordered_(time_ordered) {
    // Kept duplicates make every put a new key, read back by scans (or a get of the latest).
    if (auto* rocks = dynamic_cast<rocksdb_key_value_store*>(&segments_.backend()); rocks && retain_duplicates_)
        rocks->set_keys_written_once(true);
}

bool segmented_window_store::scan_before(std::string_view key_a, std::int64_t start_a, std::string_view key_b,
                                         std::int64_t start_b, bool backward) const {
    const int keys = key_a.compare(key_b);
    if (time_major_) {
        // Kafka's in-memory store: by start, then by key, both reversed when backward.
        if (start_a != start_b) return backward ? start_a > start_b : start_a < start_b;
        return backward ? keys > 0 : keys < 0;
    }
    // RocksDB: by segment, then the stored bytes `key ‖ start`, which is not (key, start) when
    // one key is a byte prefix of the other.
    const std::int64_t seg_a = segments_.segment_id(start_a), seg_b = segments_.segment_id(start_b);
    const int bytes = keys == 0 ? 0 : store_key(key_a, start_a, 0).compare(store_key(key_b, start_b, 0));
    const auto fa = std::tuple(seg_a, bytes, start_a), fb = std::tuple(seg_b, 0, start_b);
    return backward ? fb < fa : fa < fb;
}

std::string segmented_window_store::store_key(std::string_view key, std::int64_t window_start, std::int32_t seq) {
    std::string k;
    k.reserve(key.size() + window_suffix);
    k.append(key);
    detail::put_big_endian(window_start, k);
    detail::put_big_endian(seq, k);
    return k;
}

void segmented_window_store::init(store_context& ctx) {
    segments_.init(ctx);
    ctx.register_store(*this, [this](std::span<const restore_record> batch) {
        for (const auto& r : batch) {
            if (r.key.size() < window_suffix) continue;
            const std::int64_t start = detail::get_big_endian<std::int64_t>(r.key.substr(r.key.size() - window_suffix, 8));
            segments_.observe(start);
            if (segments_.expired(start)) continue;
            segments_.put(start, r.key, r.value);
        }
    });
}

void segmented_window_store::put(std::string_view key, std::optional<std::string_view> value,
                                 std::int64_t window_start) {
    if (retain_duplicates_ && !value) return;
    segments_.observe(window_start);
    if (segments_.expired(window_start)) return;  // Kafka skips records for expired windows
    if (retain_duplicates_) seqnum_ = seqnum_ == INT32_MAX ? 0 : seqnum_ + 1;
    segments_.put(window_start, store_key(key, window_start, retain_duplicates_ ? seqnum_ : 0), value);
}

std::optional<std::string> segmented_window_store::fetch(std::string_view key, std::int64_t window_start) {
    if (segments_.expired(window_start)) return std::nullopt;
    // With duplicates Kafka's RocksDB store looks up the latest sequence number only, so only
    // the entry just put is found; its in-memory store finds none.
    if (retain_duplicates_ && time_major_) return std::nullopt;
    return segments_.get(window_start, store_key(key, window_start, retain_duplicates_ ? seqnum_ : 0));
}

std::unique_ptr<bytes_window_iterator> segmented_window_store::fetch(std::string_view key, std::int64_t time_from,
                                                                     std::int64_t time_to, bool backward) {
    std::string k(key);
    return fetch_range(k, k, time_from, time_to, backward);
}

std::unique_ptr<bytes_window_iterator> segmented_window_store::fetch_range(const std::optional<std::string>& key_from,
                                                                           const std::optional<std::string>& key_to,
                                                                           std::int64_t time_from, std::int64_t time_to,
                                                                           bool backward) {
    // Nothing older than the retention period is returned, even if its segment is still there.
    // A time-ordered store read across all keys (emit on window close) keeps one more
    // millisecond: the window at the retention edge, which a time window closes with (Kafka's
    // time-first schema).
    const bool time_first = time_ordered_ && !key_from && !key_to;
    if (segments_.observed() != INT64_MIN)
        time_from = std::max(time_from, segments_.retention_floor() + (time_first ? 0 : 1));
    std::optional<std::string> hi;
    if (key_to)  // stored starts are at most the observed stream time
        hi = scan_upper_bound(*key_to, key_from,
                              max_time_suffix(time_from, std::min(time_to, segments_.observed()), 4));
    // One key from a time on: its entries in reach start at `key ‖ time_from` (a time that is not
    // negative sorts as its big-endian bytes), so the scan need not read the earlier ones to skip
    // them. (Past the observed time there is nothing to read, and the bound would pass `hi`.)
    std::optional<std::string> lo = key_from;
    if (key_from && key_to && *key_from == *key_to && time_from >= 0 && time_from <= segments_.observed())
        detail::put_big_endian(time_from, *lo);
    // In-memory: scanned forward and sorted, so that duplicates of one key and start stay in
    // insertion order forward and in reverse order backward (as Kafka's in-memory store).
    auto it = std::make_unique<window_filter_iterator>(segments_.scan(time_from, time_to, std::move(lo), hi,
                                                                      backward && !time_major_),
                                                       key_from, key_to, time_from, time_to, window_size_);
    if (!time_major_) return it;
    auto rows = drain(*it);
    if (backward) std::reverse(rows.begin(), rows.end());  // duplicates come newest first backward
    return sorted_rows(std::move(rows), [this, backward](const window_row& a, const window_row& b) {
        return scan_before(a.key, a.window.start, b.key, b.window.start, backward);
    });
}

}  // namespace kstreams::state
