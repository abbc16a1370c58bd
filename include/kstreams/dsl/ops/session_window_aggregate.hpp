// Session-window aggregation (kgrouped_stream::windowed_by(session_windows) then count / reduce /
// aggregate; Kafka's KStreamSessionWindowAggregate). A record at `ts` joins every session of its
// key that ends at or after ts - gap and starts at or before ts + gap: their aggregates are merged
// (the merger, in the store's order) into one session spanning them all. Each session replaced by
// the merge is removed and forwarded as a tombstone before the merged session. A session takes
// records while its end >= observed stream time - grace - gap; a record whose merged session is
// already closed is dropped and counted. A null key is dropped and counted; a null value is passed
// to the aggregator, as Kafka does. Results carry the session's end as their timestamp and, unless
// they come through the record cache, no headers (Kafka forwards a new record). With
// emit_strategy::on_window_close a session is forwarded once, after it closes. Recovered by
// recomputation, each session's first records stay held until the session is done with (see
// session_origins.hpp and recover()).
#pragma once

#include <algorithm>
#include <climits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/offset_hold.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/detail/time_segments.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/null_value_guard.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/ops/final_emitter.hpp>
#include <kstreams/dsl/ops/aggregate_fold.hpp>
#include <kstreams/dsl/ops/session_origins.hpp>
#include <kstreams/dsl/ops/window_store_access.hpp>
#include <kstreams/dsl/ops/windowed_forwarder.hpp>
#include <kstreams/dsl/session_windows.hpp>
#include <kstreams/error.hpp>
#include <kstreams/metrics.hpp>

namespace kstreams::dsl_detail {

/// aggregate(initializer, aggregator, merger): merger(key, aggregate, session's aggregate) -> Agg.
template <class K, class Agg, class Merger>
struct aggregate_merge {
    Merger f;
    std::optional<Agg> operator()(const K& k, const std::optional<Agg>& agg, const Agg& session) {
        return nullable_result<Agg>(f(k, *agg, session));
    }
};

/// reduce(reducer): sessions merge as their values would (Kafka's merger of the reduce aggregator).
template <class K, class V, class Reducer>
struct reduce_merge {
    Reducer f;
    std::optional<V> operator()(const K&, const std::optional<V>& agg, const V& session) {
        if (!agg) return session;
        return nullable_result<V>(f(*agg, session));
    }
};

template <class K, class V, class Agg, class Fold, class Merge>
class session_window_aggregate_node final : public kstreams::detail::node {
public:
    session_window_aggregate_node(std::string name, std::string store, std::shared_ptr<const table_info> info,
                                  session_windows windows, Fold fold, Merge merge, bool emit_final, serde_ref<K> key_serde)
        : node(std::move(name)), store_name_(std::move(store)), info_(std::move(info)), gap_(windows.inactivity_gap()),
          grace_(windows.grace()), fold_(std::move(fold)), merge_(std::move(merge)), emit_final_(emit_final),
          key_serde_(std::move(key_serde)) {}

    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        store_ = &typed_session_store_of<K, Agg>(ctx, store_name_, *this);
        if (emit_final_) emitter_.init(ctx, store_name_);
        send_old_ = info_->send_old_values;
        forwarder_.init(*this, *store_, send_old_, !emit_final_);
        hold_ = kstreams::detail::offset_hold_of(ctx, store_name_, *this);
        if (!hold_) return;
        bytes_ = &bytes_of(*store_);
        retention_ = bytes_->retention_period();
        origins_ = {};
        // A commit first emits what closed (emitting on close), then forgets what it released.
        hold_->before_commit = [this] {
            if (emit_final_) maybe_forward_final({}, observed_stream_time_ - grace_ - gap_, true);
            hold_->advance(observed_stream_time_, watermark());
            // Its own watermark, not the hold's: replaying, the hold's starts at the commit's,
            // while sessions still open then are rebuilt from states that end before it.
            origins_.forget_before(watermark());
        };
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        if (has_null_key(r)) {
            ctx_->record_dropped(metric::dropped_null_key, *this);
            return;
        }
        // A null value reaches the aggregator only if it can take one (aggregate_fold.hpp).
        if (drop_null_value_unless<Fold::takes_null_value>(r, *this)) return;
        if (hold_ && !recovered_) recover();
        if (forwarder_.suppressed() && !hold_->replaying()) end_replay();
        const std::int64_t ts = r.timestamp;
        // The earliest session end the store shows (it cuts at the stream time it saw before this
        // record), and shows until this processor's stream time moves past it.
        const std::int64_t shown_from = observed_stream_time_ - retention_ + 1;
        const std::int64_t stream_time_before = observed_stream_time_;
        observed_stream_time_ = std::max(observed_stream_time_, ts);
        const std::int64_t close_time = observed_stream_time_ - grace_ - gap_;
        if (hold_) hold_->advance(observed_stream_time_, watermark());

        const window single{ts, ts};
        window merged_window = single;
        std::optional<Agg> agg = fold_.initial();
        std::vector<key_value<windowed<K>, Agg>> merged = store_->find_sessions(r.key, ts - gap_, ts + gap_).to_vector();
        // Recovered by recomputation: the sessions the store shows are cut at this processor's
        // stream time, not the store's (a replay's store has seen only the replayed sessions, so
        // its clock lags), so that a replay merges what the first run merged.
        if (hold_) std::erase_if(merged, [&](const auto& s) { return s.key.window.end < shown_from; });
        for (const auto& s : merged) {
            agg = merge_(r.key, std::as_const(agg), s.value);
            merged_window = {std::min(merged_window.start, s.key.window.start), std::max(merged_window.end, s.key.window.end)};
        }
        if (merged_window.end < close_time) {
            ctx_->record_dropped(metric::dropped_late, *this);
        } else {
            if (merged_window != single) {
                for (auto& s : merged) {
                    store_->remove(s.key);
                    forward_update(s.key, std::nullopt, std::move(s.value));
                }
            }
            agg = fold_(r.key, r, std::as_const(agg));
            const windowed<K> key{r.key, merged_window};
            // The store drops a session that ends out of its retention (a RocksDB one only when its
            // whole segment is: one ending one retention behind is kept, and emitted on close); a
            // replay's store, whose clock lags, would keep it and emit it on close: it is not
            // written. The store's clock is the stream time before this record, or this end.
            const bool expired =
                hold_ && emit_final_ &&
                bytes_->drops_write(merged_window.end, std::max(stream_time_before, merged_window.end));
            if ((!agg || !expired) && drops_unemitted(merged_window.end))
                maybe_forward_final(r.headers, close_time, true);
            if (!agg) store_->remove(key);
            else if (!expired) store_->put(key, *agg);
            if (hold_) hold_merged(r.key, merged, merged_window);
            forward_update(key, std::move(agg), std::nullopt);
        }
        if (emit_final_) maybe_forward_final(r.headers, close_time);
    }

private:
    /// The session store's bytes layers: its retention (sessions ending at or before stream time -
    /// retention are gone from its reads) and which writes it drops.
    static const bytes_session_store& bytes_of(session_store<K, Agg>& store) {
        if (auto* typed = dynamic_cast<wrapped_store<session_store<K, Agg>, bytes_session_store>*>(&store))
            return typed->wrapped();
        throw topology_error("store " + store.name() + ": recovery::recompute needs a session store whose retention "
                             "it can read (kstreams' own)");
    }
    /// Recovered by recomputation, emitting on close: whether writing a session ending at `end`
    /// moves the store's clock far enough to drop a segment that may hold closed sessions not
    /// emitted yet (the store drops a segment whole once its clock is the retention past it, and
    /// between emissions, a commit or the emit interval apart, stream time may move seconds or
    /// jump). They go out first, as a commit's emission would: the changelog variant (Kafka's)
    /// loses them, recomputation promises every final. The sessions this record merges were
    /// removed before, so what goes out is what the next emission would have found.
    bool drops_unemitted(std::int64_t end) {
        if (!hold_ || !emit_final_) return false;
        const std::int64_t interval = kstreams::detail::segment_interval_for(retention_);
        const std::int64_t unemitted_from = std::max<std::int64_t>(0, emitter_.last_close_time());
        return kstreams::detail::segment_id(end - retention_, interval) > kstreams::detail::segment_id(unemitted_from, interval);
    }
    /// Sessions ending before it are done with: no longer shown by the store to the next record
    /// (so never merged into again) and, emitting on close, emitted.
    std::int64_t watermark() {
        const std::int64_t shown_from = observed_stream_time_ - retention_ + 1;
        return emit_final_ ? std::min(shown_from, emitter_.last_close_time()) : shown_from;
    }
    void hold_merged(const K& key, const std::vector<key_value<windowed<K>, Agg>>& merged, window into) {
        std::string key_bytes;
        key_serde_.serialize(key, key_bytes);
        std::vector<window> windows;
        windows.reserve(merged.size());
        for (const auto& s : merged) windows.push_back(s.key.window);
        // Replaying, a session still open at the commit is rebuilt through states that end before
        // what that commit released, and is held as itself only once the replay reaches it: until
        // then, a commit during the replay must not go past any replayed session's first record.
        const std::int64_t min_release = hold_->replaying() ? hold_->recovered_watermark() + 1 : INT64_MIN;
        origins_.merge(*hold_, key_bytes, windows, into, min_release);
    }

    /// After a restart, before the first record. Replayed records are judged from the stream
    /// time noted with the first of them, as the first time, and take the same merge decisions
    /// for the sessions still held at the commit (all of whose records are replayed); the
    /// sessions done with by then are rebuilt in part (from their records after the held offset)
    /// and never shown again. Nothing the replayed records write is forwarded: it went out
    /// before the commit; emitting on close, the committed progress keeps finals from going out
    /// twice.
    void recover() {
        recovered_ = true;
        const std::int64_t replay = hold_->recovered_replay_stream_time();
        observed_stream_time_ = std::max(observed_stream_time_, replay >= 0 ? replay : hold_->recovered_stream_time());
        if (hold_->replaying()) forwarder_.suppress(true);
    }
    /// The first record past the replay: what the replayed records left in the record cache
    /// went out before the commit, so it is written down unforwarded.
    void end_replay() {
        store_->flush_cache();
        forwarder_.suppress(false);
    }

    /// Sessions that closed since the last emission: ends in [last close time, close time - 1].
    /// `now`: at a commit, whatever the emit interval says.
    void maybe_forward_final(const headers& hdrs, std::int64_t close_time, bool now = false) {
        if (now ? !emitter_.closed_since(close_time) : !emitter_.should_emit(*ctx_, close_time)) return;
        const std::int64_t upper = close_time - 1;
        if (upper < 0) return;
        const std::int64_t lower = std::max<std::int64_t>(0, emitter_.last_close_time());
        if (lower > upper) return;
        // Sessions ending in [lower, upper] (a session starts no later than it ends).
        std::vector<key_value<windowed<K>, Agg>> rows;
        for (auto& kv : store_->find_sessions(std::optional<K>{}, std::optional<K>{}, lower, upper).to_vector())
            if (kv.key.window.end <= upper) rows.push_back(std::move(kv));
        final_emitter::sort_time_first(rows, key_serde_, [](const auto& kv) { return kv.key.window.end; },
                                       [](const auto& kv) { return kv.key.window.start; });
        for (auto& kv : rows)
            forward(record<windowed<K>, change<Agg>>{kv.key, {std::move(kv.value), std::nullopt}, kv.key.window.end, hdrs});
        emitter_.emitted(close_time);
    }

    /// A new record without headers, as Kafka's: a session's updates (and the tombstones of
    /// sessions merged away) carry no headers unless they come through the record cache, whose
    /// entries keep the headers of the record that wrote them.
    void forward_update(const windowed<K>& key, std::optional<Agg> next, std::optional<Agg> old) {
        if (emit_final_ || forwarder_.suppressed()) return;
        record<windowed<K>, change<Agg>> out{key, {std::move(next), std::nullopt}, key.window.end, headers{}};
        if (send_old_) out.value.old_value = std::move(old);
        forwarder_.maybe_forward(out);
    }

    std::string store_name_;
    std::shared_ptr<const table_info> info_;
    std::int64_t gap_;
    std::int64_t grace_;
    Fold fold_;
    Merge merge_;
    session_store<K, Agg>* store_ = nullptr;
    bool send_old_ = false;
    std::int64_t observed_stream_time_ = -1;  // Kafka's NO_TIMESTAMP
    session_forwarder<K, Agg> forwarder_;
    bool emit_final_;
    serde_ref<K> key_serde_;
    final_emitter emitter_;
    kstreams::detail::offset_hold* hold_ = nullptr;  ///< recovered by recomputation
    const bytes_session_store* bytes_ = nullptr;  ///< recovered by recomputation
    std::int64_t retention_ = 0;
    session_origins origins_;
    bool recovered_ = false;
};

}  // namespace kstreams::dsl_detail
