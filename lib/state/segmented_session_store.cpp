#include "lib/state/segmented_session_store.hpp"

#include <algorithm>
#include <tuple>

#include <kstreams/serde.hpp>

#include "lib/state/expired_writes.hpp"
#include "lib/state/key_scan_bound.hpp"
#include "lib/state/window_rows.hpp"

namespace kstreams::state {

namespace {

constexpr std::size_t session_suffix = 16;

std::int64_t end_of(std::string_view k) {
    return detail::get_big_endian<std::int64_t>(k.substr(k.size() - session_suffix, 8));
}
std::int64_t start_of(std::string_view k) { return detail::get_big_endian<std::int64_t>(k.substr(k.size() - 8, 8)); }

class session_filter_iterator final : public bytes_window_iterator {
public:
    session_filter_iterator(std::unique_ptr<bytes_iterator> it, std::optional<std::string> key_from,
                            std::optional<std::string> key_to, std::int64_t earliest_end, std::int64_t latest_start)
        : it_(std::move(it)), key_from_(std::move(key_from)), key_to_(std::move(key_to)), earliest_end_(earliest_end),
          latest_start_(latest_start) {
        settle();
    }
    bool valid() const override { return it_->valid(); }
    void next() override {
        it_->next();
        settle();
    }
    std::string_view key() const override { return it_->key().substr(0, it_->key().size() - session_suffix); }
    kstreams::window window() const override { return {start_of(it_->key()), end_of(it_->key())}; }
    std::string_view value() const override { return it_->value(); }

private:
    void settle() {
        for (; it_->valid(); it_->next()) {
            std::string_view k = it_->key();
            if (k.size() < session_suffix) continue;
            std::string_view plain = k.substr(0, k.size() - session_suffix);
            if (key_from_ && plain < std::string_view(*key_from_)) continue;
            if (key_to_ && plain > std::string_view(*key_to_)) continue;
            if (end_of(k) < earliest_end_ || start_of(k) > latest_start_) continue;
            return;
        }
    }

    std::unique_ptr<bytes_iterator> it_;
    std::optional<std::string> key_from_, key_to_;
    std::int64_t earliest_end_, latest_start_;
};

}  // namespace

segmented_session_store::segmented_session_store(std::string name, std::unique_ptr<bytes_key_value_store> backend,
                                                 std::int64_t retention, bool time_ordered)
    : name_(std::move(name)), segments_(std::move(backend), retention), retention_(retention),
      end_major_(!segments_.backend().persistent()), time_ordered_(time_ordered),
      per_segment_(segments_.backend().persistent() || time_ordered) {}

bool segmented_session_store::scan_before(std::string_view key_a, kstreams::window a, std::string_view key_b,
                                          kstreams::window b, bool backward) const {
    const int keys = key_a.compare(key_b);
    if (end_major_) {
        // forward: end ascending, key ascending, start descending; backward: each reversed
        const auto fa = std::tuple(a.end, keys, b.start), fb = std::tuple(b.end, 0, a.start);
        return backward ? fb < fa : fa < fb;
    }
    // RocksDB: by segment, then the stored bytes `key ‖ end ‖ start`, which is not (key, end,
    // start) when one key is a byte prefix of the other.
    const int bytes = keys == 0 ? 0 : session_key(key_a, a.start, a.end).compare(session_key(key_b, b.start, b.end));
    const auto fa = std::tuple(segments_.segment_id(a.end), bytes, a.end, a.start);
    const auto fb = std::tuple(segments_.segment_id(b.end), 0, b.end, b.start);
    return backward ? fb < fa : fa < fb;
}

std::string segmented_session_store::session_key(std::string_view key, std::int64_t start, std::int64_t end) {
    std::string k;
    k.reserve(key.size() + session_suffix);
    k.append(key);
    detail::put_big_endian(end, k);
    detail::put_big_endian(start, k);
    return k;
}

void segmented_session_store::init(store_context& ctx) {
    ctx_ = &ctx;
    segments_.init(ctx);
    ctx.register_store(*this, [this](std::span<const restore_record> batch) {
        // Kafka's in-memory session store drops a record out of retention at the clock the records
        // up to it moved; its RocksDB ones move their clock to the batch's latest end first, then
        // write each record whose segment is live: the same here, as a record written to a
        // segment is dropped with it when a later record of the batch moves the clock past it.
        for (const auto& r : batch) {
            if (r.key.size() < session_suffix) continue;
            const std::int64_t end = end_of(r.key);
            segments_.observe(end);
            if (write_expired(end)) continue;  // not counted: Kafka counts only processing's writes
            segments_.put(end, r.key, r.value);
        }
    });
}

bool segmented_session_store::drops_write(std::int64_t end, std::int64_t stream_time) const {
    if (!per_segment_) return bytes_session_store::drops_write(end, stream_time);
    if (stream_time < INT64_MIN + retention_) return false;
    return segments_.segment_id(end) < segments_.segment_id(stream_time - retention_);
}

void segmented_session_store::put(std::string_view key, kstreams::window session,
                                  std::optional<std::string_view> value) {
    segments_.observe(session.end);
    if (!value) {
        // A removal (Kafka's remove): deletes the session if its segment is still there.
        if (!segments_.segment_expired(session.end))
            segments_.put(session.end, session_key(key, session.start, session.end), std::nullopt);
        return;
    }
    if (write_expired(session.end)) {
        // Kafka skips (and counts) a write for an expired segment or session.
        count_expired_write(ctx_, warned_, name_,
                            per_segment_ ? "a session that ended out of the retention (in an expired segment)"
                                         : "a session that ended out of the retention");
        return;
    }
    segments_.put(session.end, session_key(key, session.start, session.end), value);
}

std::optional<std::string> segmented_session_store::fetch_session(std::string_view key, std::int64_t start,
                                                                   std::int64_t end) {
    if (segments_.expired(end)) return std::nullopt;
    return segments_.get(end, session_key(key, start, end));
}

std::unique_ptr<bytes_window_iterator> segmented_session_store::find_sessions(const std::optional<std::string>& key_from,
                                                                              const std::optional<std::string>& key_to,
                                                                              std::int64_t earliest_session_end,
                                                                              std::int64_t latest_session_start,
                                                                              bool backward) {
    // A time-ordered store read across all keys (emit on window close) is not cut at the
    // retention: sessions close gap + grace after their end, when they are already that old
    // (Kafka's time-first session schema reads whatever its live segments hold).
    if (segments_.observed() != INT64_MIN && !(time_ordered_ && !key_from && !key_to))
        earliest_session_end = std::max(earliest_session_end, segments_.retention_floor() + 1);
    std::optional<std::string> hi;
    if (key_to)  // stored ends are at most the observed stream time; starts are not bounded here
        hi = scan_upper_bound(*key_to, key_from,
                              max_time_suffix(earliest_session_end, segments_.observed(), 8));
    // A session ending at any time after earliest_session_end may have started early enough.
    auto it = std::make_unique<session_filter_iterator>(
        segments_.scan(earliest_session_end, INT64_MAX, key_from, hi, backward && !end_major_), key_from, key_to,
        earliest_session_end, latest_session_start);
    if (!end_major_) return it;
    return sorted_rows(drain(*it), [this, backward](const window_row& a, const window_row& b) {
        return scan_before(a.key, a.window, b.key, b.window, backward);
    });
}

}  // namespace kstreams::state
