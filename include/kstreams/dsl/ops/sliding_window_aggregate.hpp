// Sliding-window aggregation (kgrouped_stream::windowed_by(sliding_windows) then count / reduce /
// aggregate; Kafka's KStreamSlidingWindowAggregate). Windows [start, start + difference], both
// ends inclusive, exist only where records make them: each record has a left window ending at
// it and, when a later record falls within the difference after it, a right window starting
// 1 ms after it. A record updates every existing window it falls in, creates its own left window
// (seeded with the aggregate of the earlier records within reach) and right window (seeded with
// the later ones), and the right window of the record before it. Records before the time
// difference share the window [0, difference]. A window takes records while its end >= observed
// stream time - grace; a record whose own left window is already closed is dropped and counted,
// as are records with a null key or a null value. Results carry the largest timestamp in the window.
// With emit_strategy::on_window_close a window is forwarded once, after it closes.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/offset_hold.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/ops/final_emitter.hpp>
#include <kstreams/dsl/ops/window_store_access.hpp>
#include <kstreams/dsl/ops/windowed_forwarder.hpp>
#include <kstreams/dsl/sliding_windows.hpp>
#include <kstreams/metrics.hpp>

namespace kstreams::dsl_detail {

template <class K, class V, class Agg, class Fold>
class sliding_window_aggregate_node final : public kstreams::detail::node {
    using vt = value_and_timestamp<Agg>;
    using entry = key_value<std::int64_t, vt>;  // window start, aggregate

public:
    sliding_window_aggregate_node(std::string name, std::string store, std::shared_ptr<const table_info> info,
                                  sliding_windows windows, Fold fold, bool emit_final, serde_ref<K> key_serde)
        : node(std::move(name)), store_name_(std::move(store)), info_(std::move(info)), diff_(windows.time_difference()),
          grace_(windows.grace()), fold_(std::move(fold)), emit_final_(emit_final), key_serde_(std::move(key_serde)) {}

    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        store_ = &timestamped_window_store<K, Agg>(ctx, store_name_, *this);
        if (emit_final_) emitter_.init(ctx, store_name_);
        send_old_ = info_->send_old_values;
        forwarder_.init(*this, *store_, send_old_, !emit_final_);
        hold_ = kstreams::detail::offset_hold_of(ctx, store_name_, *this);
        // Recovered by recomputation and emitting on close: a commit first emits what closed.
        if (hold_ && emit_final_) {
            retention_ = window_store_retention<K, Agg>(*store_, 2 * diff_ + grace_);
            hold_->before_commit = [this] {
                close_time_ = observed_stream_time_ - grace_;
                maybe_forward_final({}, true);
                hold_->advance(observed_stream_time_, emitter_.last_close_time());
            };
        }
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        if (has_null_key(r) || has_null_value(r)) {
            ctx_->record_dropped(has_null_key(r) ? metric::dropped_null_key : metric::dropped_null_value, *this);
            return;
        }
        if (hold_ && !recovered_) recover();
        observed_stream_time_ = std::max(observed_stream_time_, r.timestamp);
        close_time_ = observed_stream_time_ - grace_;
        if (hold_) hold_->advance(observed_stream_time_, emit_final_ ? emitter_.last_close_time() : close_time_);
        // In Kafka's wrapping long arithmetic: a record so near the largest time that ts +
        // difference wraps is late.
        if (static_cast<std::int64_t>(static_cast<std::uint64_t>(r.timestamp) + static_cast<std::uint64_t>(diff_)) < close_time_) {
            ctx_->record_dropped(metric::dropped_late, *this);
            return;
        }
        // Kafka builds sliding windows of difference 0 but fails on the first window it makes
        // (TimeWindow refuses an end not after its start): the record is a processing error.
        if (diff_ == 0) throw std::invalid_argument("Window endMs must be greater than window startMs.");
        if (r.timestamp < diff_) process_early(r);
        else process_reverse(r);
        // The record is in windows ending up to ts + difference, and later records look as far
        // back as twice the difference before them for the windows they start from: it is needed
        // until no window a record not yet late could reach holds it.
        if (emit_final_) maybe_forward_final(r.headers);
        if (hold_) {
            if (emit_final_) hold_->advance(observed_stream_time_, emitter_.last_close_time());
            hold_->hold(r.timestamp + 3 * diff_ + 1);
        }
    }

private:
    /// After a restart, before the first record. A record whose own windows had closed by the
    /// commit may have started a window still open then (its right window, a later record's left
    /// window seeded from it): replayed records are judged from the stream time noted with the
    /// first of them, as the first time, not from the commit's. The windows that had closed by
    /// the commit are rebuilt in part and never forwarded again; finals already emitted neither.
    void recover() {
        recovered_ = true;
        const std::int64_t replay = hold_->recovered_replay_stream_time();
        observed_stream_time_ = std::max(observed_stream_time_, replay >= 0 ? replay : hold_->recovered_stream_time());
        if (hold_->recovered_stream_time() >= 0) forwarder_.skip_windows_ending_before(hold_->recovered_stream_time() - grace_);
        if (emit_final_ && hold_->recovered_watermark() > emitter_.last_close_time())
            emitter_.emitted(hold_->recovered_watermark());
    }

    /// Recovered by recomputation, emitting on close: before a write of a window starting at
    /// `start` moves the store's clock so far that the store no longer shows a closed window not
    /// emitted yet (nothing at or before its clock minus its retention), what closed goes out, as
    /// a commit's emission would (the changelog variant, Kafka's, loses those windows when stream
    /// time jumps). The windows the record writes are open: the emission is the one it would make.
    void emit_before_hiding(const record<K, V>& r, std::int64_t start) {
        if (hold_ && emit_final_ && start - retention_ >= unemitted_from()) maybe_forward_final(r.headers, true);
    }
    /// The earliest start of a window that may have closed since the last emission.
    std::int64_t unemitted_from() {
        const std::int64_t last = emitter_.last_close_time();
        return last == -1 ? 0 : std::max<std::int64_t>(0, last - diff_);
    }

    /// Windows that closed since the last emission: starts in [lower, close time - difference - 1].
    /// `now`: at a commit, whatever the emit interval says.
    void maybe_forward_final(const headers& hdrs, bool now = false) {
        if (now ? !emitter_.closed_since(close_time_) : !emitter_.should_emit(*ctx_, close_time_)) return;
        const std::int64_t upper = close_time_ - diff_ - 1;
        if (upper < 0) return;
        const std::int64_t lower = unemitted_from();
        auto rows = store_->fetch_all(lower, upper).to_vector();
        final_emitter::sort_time_first(rows, key_serde_, [](const auto& kv) { return kv.key.window.start; },
                                       [](const auto&) { return std::int64_t{0}; });
        for (auto& kv : rows)
            forward(record<windowed<K>, change<Agg>>{kv.key, {std::move(kv.value.value), std::nullopt}, kv.value.timestamp, hdrs});
        emitter_.emitted(close_time_);
    }

    /// Kafka's ValueAndTimestamp.make: no row for a null aggregate.
    static std::optional<vt> make(std::optional<Agg> a, std::int64_t ts) {
        if (!a) return std::nullopt;
        return vt{std::move(*a), ts};
    }
    std::vector<entry> scan(const K& key, std::int64_t from, std::int64_t to, bool backward) {
        auto it = backward ? store_->backward_fetch(key, from, to) : store_->fetch(key, from, to);
        return it.to_vector();
    }

    /// Scans the key's windows from the latest start down (Kafka's processReverse).
    void process_reverse(const record<K, V>& r) {
        const std::int64_t ts = r.timestamp;
        std::set<std::int64_t> starts;
        std::optional<vt> left_agg, right_agg;
        bool left_exists = false, right_exists = false;
        std::optional<std::int64_t> previous;
        for (const entry& e : scan(r.key, std::max<std::int64_t>(0, ts - 2 * diff_), ts + 1, true)) {
            const std::int64_t start = e.key, end = start + diff_, max_ts = e.value.timestamp;
            starts.insert(start);
            if (start == ts + 1) {
                right_exists = true;
            } else if (end > ts) {
                if (!right_agg) right_agg = e.value;
                update(r, {start, end}, e.value);
            } else if (end == ts) {
                left_exists = true;
                update(r, {start, end}, e.value);
                if (max_ts >= ts) return;
                previous = max_ts;
            } else {
                left_agg = e.value;
                previous = max_ts;
                break;
            }
        }
        if (previous && !starts.contains(*previous + 1) && *previous + 1 + diff_ >= ts)
            update(r, {*previous + 1, *previous + 1 + diff_}, make(fold_.initial(), ts));
        if (!left_exists) {
            const bool left_not_empty = previous && ts - diff_ <= *previous;
            update(r, {ts - diff_, ts}, left_not_empty ? make(left_agg->value, ts) : make(fold_.initial(), ts));
        }
        if (!right_exists && right_agg && right_agg->timestamp > ts) create_right_window(r, *right_agg);
    }

    /// A record before the time difference: its left window would start before 0, so records
    /// there share [0, difference] (Kafka's processEarly).
    void process_early(const record<K, V>& r) {
        const std::int64_t ts = r.timestamp;
        std::set<std::int64_t> starts;
        std::optional<vt> combined, right_agg;
        bool right_exists = false;
        std::optional<std::int64_t> previous;
        for (const entry& e : scan(r.key, 0, ts + 1, false)) {
            const std::int64_t start = e.key;
            starts.insert(start);
            if (start == 0) {
                combined = e.value;
                if (e.value.timestamp < ts) previous = e.value.timestamp;
            } else if (start <= ts) {
                right_agg = e.value;
                update(r, {start, start + diff_}, e.value);
            } else {
                right_exists = true;  // start == ts + 1
            }
        }
        if (!right_agg && combined && combined->timestamp > ts) right_agg = combined;
        if (!right_exists && right_agg && right_agg->timestamp > ts) create_right_window(r, *right_agg);
        if (previous && !starts.contains(*previous + 1))
            update(r, {*previous + 1, *previous + 1 + diff_}, make(fold_.initial(), ts));
        update(r, {0, diff_}, combined ? combined : make(fold_.initial(), ts));
    }

    /// The record's right window, holding the later records' aggregate as it is.
    void create_right_window(const record<K, V>& r, const vt& agg) {
        const window w{r.timestamp + 1, r.timestamp + 1 + diff_};
        emit_before_hiding(r, w.start);
        store_->put(r.key, agg, w.start);
        forward_update(r, w, agg.value, std::nullopt, agg.timestamp);
    }

    /// Adds the record to window `w` (current row `current`) if the window is still open.
    void update(const record<K, V>& r, window w, const std::optional<vt>& current) {
        if (w.end < close_time_) {
            ctx_->record_dropped(metric::dropped_late, *this);
            return;
        }
        std::optional<Agg> old = current ? std::optional<Agg>(current->value) : std::nullopt;
        std::optional<Agg> next = fold_(r.key, r, std::as_const(old));
        const std::int64_t ts = old ? std::max(r.timestamp, current->timestamp) : r.timestamp;
        emit_before_hiding(r, w.start);
        if (next) store_->put(r.key, {*next, ts}, w.start);
        else store_->remove(r.key, w.start);
        forward_update(r, w, std::move(next), std::move(old), ts);
    }

    void forward_update(const record<K, V>& r, window w, std::optional<Agg> next, std::optional<Agg> old, std::int64_t ts) {
        if (emit_final_) return;
        record<windowed<K>, change<Agg>> out{{r.key, w}, {std::move(next), std::nullopt}, ts, r.headers};
        if (send_old_) out.value.old_value = std::move(old);
        forwarder_.maybe_forward(out);
    }

    std::string store_name_;
    std::shared_ptr<const table_info> info_;
    std::int64_t diff_;
    std::int64_t grace_;
    Fold fold_;
    window_store<K, value_and_timestamp<Agg>>* store_ = nullptr;
    bool send_old_ = false;
    std::int64_t observed_stream_time_ = -1;  // Kafka's NO_TIMESTAMP
    std::int64_t close_time_ = 0;
    windowed_forwarder<K, Agg> forwarder_;
    bool emit_final_;
    serde_ref<K> key_serde_;
    final_emitter emitter_;
    kstreams::detail::offset_hold* hold_ = nullptr;  ///< recovered by recomputation
    std::int64_t retention_ = 0;                      ///< the store's, when recovered by recomputation emitting on close
    bool recovered_ = false;
};

}  // namespace kstreams::dsl_detail
