// Time-windowed aggregation (kgrouped_stream::windowed_by(time_windows) then count / reduce /
// aggregate; Kafka's KStreamWindowAggregate). A record at `ts` updates every window it falls in
// that is still open: a window takes records while its end > observed stream time - grace, where
// the observed stream time is the largest timestamp this processor has seen. Each closed window a
// record falls in counts one dropped (late) record. A record with a null key is dropped and
// counted; a null value is passed to the aggregator, as Kafka does. The result's timestamp is the
// largest timestamp aggregated into the window. With emit_strategy::on_window_close nothing is
// forwarded on update; windows are forwarded once, after they close (final_emitter.hpp).
#pragma once

#include <algorithm>
#include <climits>
#include <memory>
#include <optional>
#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/offset_hold.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/null_value_guard.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/ops/aggregate_fold.hpp>
#include <kstreams/dsl/ops/final_emitter.hpp>
#include <kstreams/dsl/ops/window_store_access.hpp>
#include <kstreams/dsl/ops/windowed_forwarder.hpp>
#include <kstreams/dsl/time_windows.hpp>
#include <kstreams/metrics.hpp>

namespace kstreams::dsl_detail {

template <class K, class V, class Agg, class Fold>
class window_aggregate_node final : public kstreams::detail::node {
public:
    window_aggregate_node(std::string name, std::string store, std::shared_ptr<const table_info> info,
                          time_windows windows, Fold fold, bool emit_final, serde_ref<K> key_serde)
        : node(std::move(name)), store_name_(std::move(store)), info_(std::move(info)), windows_(windows),
          fold_(std::move(fold)), emit_final_(emit_final), key_serde_(std::move(key_serde)) {}

    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        store_ = &timestamped_window_store<K, Agg>(ctx, store_name_, *this);
        if (emit_final_) emitter_.init(ctx, store_name_);
        send_old_ = info_->send_old_values;
        forwarder_.init(*this, *store_, send_old_, !emit_final_);
        hold_ = kstreams::detail::offset_hold_of(ctx, store_name_, *this);
        // Recovered by recomputation and emitting on close: a commit first emits what closed, so
        // that what the commit notes as emitted is all that closed (see recover()).
        if (hold_ && emit_final_) {
            retention_ = window_store_retention<K, Agg>(*store_, windows_.size() + windows_.grace());
            hold_->before_commit = [this] {
                maybe_forward_final({}, observed_stream_time_ - windows_.grace(), true);
                hold_->advance(observed_stream_time_, emitter_.last_close_time());
            };
        }
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
        observed_stream_time_ = std::max(observed_stream_time_, r.timestamp);
        const std::int64_t close_time = observed_stream_time_ - windows_.grace();
        std::int64_t last_end = INT64_MIN;
        windows_.for_each_window(r.timestamp, [&](const window& w) {
            if (w.end <= close_time) {
                ctx_->record_dropped(metric::dropped_late, *this);
                return;
            }
            last_end = std::max(last_end, w.end);
            if (hides_unemitted(w.start)) maybe_forward_final(r.headers, close_time, true);
            const auto old = store_->fetch(r.key, w.start);
            std::optional<Agg> base = old ? std::optional<Agg>(old->value) : fold_.initial();
            const std::int64_t ts = old ? std::max(r.timestamp, old->timestamp) : r.timestamp;
            std::optional<Agg> next = fold_(r.key, r, std::as_const(base));
            // A null result (an empty optional aggregate) deletes the window's row.
            if (next) store_->put(r.key, {*next, ts}, w.start);
            else store_->remove(r.key, w.start);
            record<windowed<K>, change<Agg>> out{{r.key, w}, {std::move(next), std::nullopt}, ts, r.headers};
            // Kafka passes the window's starting aggregate (the initializer's) as the old value.
            if (send_old_) out.value.old_value = std::move(base);
            if (!emit_final_) forwarder_.maybe_forward(out);
        });
        if (emit_final_) maybe_forward_final(r.headers, close_time);
        if (hold_) {
            // The record is needed until its last window closes (emitting on close: is emitted).
            hold_->advance(observed_stream_time_, emit_final_ ? emitter_.last_close_time() : close_time);
            if (last_end != INT64_MIN) hold_->hold(last_end);
        }
    }

private:
    /// After a restart, before the first record: the stream time and the emitted close time noted
    /// at the commit processing resumes from, so that records of windows closed by then are late
    /// again and no final is emitted twice.
    void recover() {
        recovered_ = true;
        observed_stream_time_ = std::max(observed_stream_time_, hold_->recovered_stream_time());
        if (emit_final_ && hold_->recovered_watermark() > emitter_.last_close_time())
            emitter_.emitted(hold_->recovered_watermark());
    }

    /// Recovered by recomputation, emitting on close: whether writing a window starting at
    /// `start` moves the store's clock (the latest start written) so far that the store no
    /// longer shows a closed window not emitted yet (a window store shows nothing at or before
    /// its clock minus its retention, and drops whole segments behind that). They go out first,
    /// as a commit's emission would: uncached, a write moves the clock before the record's own
    /// emission looks, and the changelog variant (Kafka's) loses them (conformance scenario
    /// window_emit_on_close_uncached_jump); cached, a cache eviction may write it at any record.
    /// The record's own windows are open, so what goes out is what its emission would find.
    bool hides_unemitted(std::int64_t start) {
        return hold_ && emit_final_ && start - retention_ >= unemitted_from();
    }
    /// The earliest start of a window that may have closed since the last emission.
    std::int64_t unemitted_from() {
        const std::int64_t last = emitter_.last_close_time();
        return last == -1 ? 0 : std::max<std::int64_t>(0, last - windows_.size()) + 1;
    }

    /// Windows that closed since the last emission: starts in [lower, close time - size].
    /// `now`: at a commit, whatever the emit interval says.
    void maybe_forward_final(const headers& hdrs, std::int64_t close_time, bool now = false) {
        if (now ? !emitter_.closed_since(close_time) : !emitter_.should_emit(*ctx_, close_time)) return;
        const std::int64_t upper = close_time - windows_.size();
        if (upper < 0) return;
        const std::int64_t last = emitter_.last_close_time();
        const std::int64_t lower = unemitted_from();
        // Kafka skips the look when no window starts in (lower - 1, upper].
        if (last != -1 && windows_.windows_for(upper) == windows_.windows_for(lower - 1)) return;
        auto rows = store_->fetch_all(lower, upper).to_vector();
        final_emitter::sort_time_first(rows, key_serde_, [](const auto& kv) { return kv.key.window.start; },
                                       [](const auto&) { return std::int64_t{0}; });
        for (auto& kv : rows)
            forward(record<windowed<K>, change<Agg>>{kv.key, {std::move(kv.value.value), std::nullopt}, kv.value.timestamp, hdrs});
        emitter_.emitted(close_time);
    }

    std::string store_name_;
    std::shared_ptr<const table_info> info_;
    time_windows windows_;
    Fold fold_;
    window_store<K, value_and_timestamp<Agg>>* store_ = nullptr;
    bool send_old_ = false;
    std::int64_t observed_stream_time_ = -1;  // Kafka's NO_TIMESTAMP
    windowed_forwarder<K, Agg> forwarder_;
    bool emit_final_;
    serde_ref<K> key_serde_;
    final_emitter emitter_;
    kstreams::detail::offset_hold* hold_ = nullptr;  ///< recovered by recomputation
    std::int64_t retention_ = 0;                      ///< the store's, when recovered by recomputation emitting on close
    bool recovered_ = false;
};

}  // namespace kstreams::dsl_detail
