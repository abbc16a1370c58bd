// Windowed stream-stream join (Kafka's KStreamImplJoin, KStreamJoinWindow, KStreamKStreamJoin).
// Each side runs: KSTREAM-WINDOWED (forwards the record, then keeps it in this side's window
// store) -> KSTREAM-JOINTHIS / -JOINOTHER (looks the record's partners up in the other side's store)
// -> KSTREAM-MERGE. The two join processors of a task share one stream time: the largest timestamp
// either side has seen (Kafka's per-task TimeTracker). Left/outer joins park a record without
// partner in a shared "outer" key-value store (key = 8-byte BE timestamp ‖ side byte ‖ key, so it
// iterates in timestamp order) and emit it null-padded once stream time passes t + after + grace
// (for the right side: t + before + grace); a later partner deletes it. A Bloom filter of the
// store's keys (<kstreams/dsl/detail/parked_key_filter.hpp>) spares the store the lookups of keys
// it does not hold. Recovered by recomputation, the processors hold input offsets and judge
// replayed records as <kstreams/dsl/detail/join_recompute.hpp> says.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <kstreams/detail/internal_configs.hpp>
#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/detail/join_recompute.hpp>
#include <kstreams/dsl/detail/joiner_args.hpp>
#include <kstreams/dsl/detail/parked_key_filter.hpp>
#include <kstreams/dsl/join_windows.hpp>
#include <kstreams/dsl/serde_ref.hpp>
#include <kstreams/error.hpp>
#include <kstreams/metrics.hpp>
#include <kstreams/serde.hpp>
#include <kstreams/state/key_value_store.hpp>
#include <kstreams/state/window_store.hpp>

namespace kstreams::dsl_detail {

/// Calls the user's joiner with the left and right values (nullptr = no partner) in the shapes
/// of <kstreams/dsl/detail/joiner_args.hpp>: inner (l, r), left (l, optional r), outer
/// (optional l, optional r), each with or without the key in front; an optional value type is
/// passed as is, nullopt for a missing partner.
template <class K, class V1, class V2, class F, join_kind Kind>
struct join_call {
    static constexpr bool left_missing = Kind == join_kind::outer;
    static constexpr bool right_missing = Kind != join_kind::inner;
    using shape = joiner_shape<F, K, V1, left_missing, V2, right_missing>;
    using L = typename shape::left_arg;
    using R = typename shape::right_arg;
    static constexpr bool with_key = shape::with_key;
    static constexpr bool valid = shape::invocable;
    static constexpr bool ok = valid && shape::not_over_wrapped;
    static decltype(auto) call(F& f, const K& k, const L& l, const R& r) {
        if constexpr (with_key) return std::invoke(f, k, l, r);
        else return std::invoke(f, l, r);
    }
    using result = std::decay_t<decltype(call(std::declval<F&>(), std::declval<const K&>(), std::declval<const L&>(),
                                              std::declval<const R&>()))>;
    static result apply(F& f, const K& k, const V1* l, const V2* r) {
        return call(f, k, joiner_arg<V1, left_missing>(l), joiner_arg<V2, right_missing>(r));
    }
    /// As apply, with a right value the caller gives away (moved, not copied, into an optional).
    static result apply_taking_right(F& f, const K& k, const V1* l, V2* r) {
        return call(f, k, joiner_arg<V1, left_missing>(l), joiner_arg_taken<V2, right_missing>(r));
    }
};

/// The joiner as the join processors call it: (key, left or nullptr, right or nullptr).
template <class K, class V1, class V2, class F, join_kind Kind>
struct join_fn {
    F f;
    auto operator()(const K& k, const V1* l, const V2* r) { return join_call<K, V1, V2, F, Kind>::apply(f, k, l, r); }
    /// For a right value read for this call only (a table's row): it may be moved from.
    auto taking_right(const K& k, const V1* l, V2* r) { return join_call<K, V1, V2, F, Kind>::apply_taking_right(f, k, l, r); }
};

/// a + b wrapping around as Java's long arithmetic does (Kafka's checks rely on it: an empty outer
/// store's min time Long.MAX_VALUE plus the window wraps negative).
inline std::int64_t java_add(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

/// Kafka's TimeTracker: what the two join processors of one task share.
struct join_time_tracker {
    std::int64_t stream_time = -1;  // Kafka's NO_TIMESTAMP
    std::int64_t min_time = INT64_MAX;
    std::int64_t next_time_to_emit = 0;
    std::int64_t emitted_time = -1;  ///< the stream time of the last look for records to emit
    join_recovery recovery;          ///< recovered by recomputation
    parked_key_filter parked;        ///< left/outer joins: the outer store's keys
};

/// What a side's KSTREAM-WINDOWED needs to hold offsets when its buffer is recovered by
/// recomputation.
struct join_buffer_spec {
    std::string tracker_slot;
    std::int64_t retention = 0;  ///< the buffer's: before + after + grace
    bool outer = false;          ///< a left/outer join: records are held until records without partner were emitted
};

/// KSTREAM-WINDOWED: forwards the record, then keeps it (unless its key or value is null) in this
/// side's window store, retaining duplicates. A record older than the retention period is not kept.
template <class K, class V>
class join_window_node final : public kstreams::detail::node {
public:
    join_window_node(std::string name, std::string store, join_buffer_spec spec = {})
        : node(std::move(name)), store_name_(std::move(store)), spec_(std::move(spec)), clock_(spec_.retention) {}
    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        store_ = dynamic_cast<window_store<K, V>*>(&ctx.store(store_name_, *this));
        if (!store_) throw topology_error("processor " + name() + ": store " + store_name_ + " is not a window store of the join's types");
        hold_ = kstreams::detail::offset_hold_of(ctx, store_name_, *this);
        if (hold_) tracker_ = &ctx.task_slot<join_time_tracker>(spec_.tracker_slot);
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        forward(r);
        if (has_null_key(r) || has_null_value(r)) return;
        if (hold_) {
            // Put as the store would have the first time; held while the buffer can show it and
            // (left/outer) until the join emitted what had no partner by then.
            const bool kept = clock_.admit(*hold_, r.timestamp);
            const std::int64_t emitted = spec_.outer ? tracker_->emitted_time : clock_.time();
            hold_->advance(clock_.time(), std::min(clock_.time(), emitted));
            if (!kept) return;
            hold_->hold(clock_.release(r.timestamp));
        }
        store_->put(r.key, r.value, r.timestamp);
    }

private:
    std::string store_name_;
    join_buffer_spec spec_;
    window_store<K, V>* store_ = nullptr;
    kstreams::detail::offset_hold* hold_ = nullptr;  ///< recovered by recomputation
    join_time_tracker* tracker_ = nullptr;
    join_buffer_clock clock_;
};

/// Parameters of one side's join processor.
struct join_side_spec {
    std::string other_store;
    std::string outer_store;  ///< empty: none (inner join)
    std::int64_t join_before = 0;  ///< this side's look-back (the other side's: windows' after)
    std::int64_t join_after = 0;
    std::int64_t windows_before = 0;
    std::int64_t windows_after = 0;
    std::int64_t grace = 0;
    bool outer = false;  ///< this side emits records without partner
    /// The task slot of the join's time tracker, shared by both sides (one per task).
    std::string tracker_slot;
};

/// The byte layout of the outer store, shared by both sides (Kafka's TimestampedKeyAndJoinSide and
/// LeftOrRightValue): key `8-byte BE timestamp ‖ 1 byte (1 = left) ‖ key`; value a list of
/// `4-byte BE length ‖ 1 byte (1 = left) ‖ value`.
template <class K, class V1, class V2>
struct outer_store_codec {
    serde_ref<K> key;
    serde_ref<V1> left;
    serde_ref<V2> right;

    std::string encode_key(std::int64_t ts, bool is_left, const K& k) const {
        std::string out;
        kstreams::detail::put_big_endian(ts, out);
        out.push_back(is_left ? 1 : 0);
        key.serialize(k, out);
        return out;
    }
    /// encode_key's bytes with the timestamp left to set_timestamp: one key serialization for
    /// the many timestamps one record's partners come with.
    std::string encode_key_prefix(bool is_left, const K& k) const { return encode_key(0, is_left, k); }
    static void set_timestamp(std::string& encoded, std::int64_t ts) {
        auto u = static_cast<std::uint64_t>(ts);
        for (int i = 7; i >= 0; --i, u >>= 8) encoded[static_cast<std::size_t>(i)] = static_cast<char>(u & 0xff);
    }
    /// The decoders throw deserialization_error on bytes too short for what they say (a store
    /// restored from a changelog someone else wrote).
    static std::int64_t timestamp_of(std::string_view k) {
        check_key(k);
        return kstreams::detail::get_big_endian<std::int64_t>(k);
    }
    static bool is_left(std::string_view k) { return k.size() > 8 && k[8] == 1; }
    K decode_key(std::string_view k) const {
        check_key(k);
        return key.deserialize(k.substr(9));
    }
    /// The items go as Kafka's ListSerializer writes a list of byte arrays (its ListValueStore):
    /// 0x01 (variable-size items), a 4-byte count, then per item a 4-byte length and the item.
    template <class V>
    static void append(std::string& list, bool is_left, const serde_ref<V>& s, const V& v) {
        std::string item(1, is_left ? 1 : 0);
        s.serialize(v, item);
        const std::int32_t count = list.empty() ? 0 : item_count(list);
        std::string header(1, '\x01');
        kstreams::detail::put_big_endian(count + 1, header);
        if (list.empty()) list = std::move(header);
        else list.replace(0, header.size(), header);
        kstreams::detail::put_big_endian(static_cast<std::int32_t>(item.size()), list);
        list += item;
    }
    /// Calls f(view of one item) per list entry.
    template <class F>
    static void for_each_item(std::string_view list, F f) {
        std::int32_t count = item_count(list);
        list.remove_prefix(5);
        for (; count > 0; --count) {
            const std::int32_t n = list.size() < 4 ? -1 : kstreams::detail::get_big_endian<std::int32_t>(list);
            if (n < 0 || static_cast<std::size_t>(n) > list.size() - 4)
                throw deserialization_error("stream join outer store value: an item's length runs past the " +
                                            std::to_string(list.size()) + " bytes left");
            f(list.substr(4, static_cast<std::size_t>(n)));
            list.remove_prefix(4 + static_cast<std::size_t>(n));
        }
        if (!list.empty())
            throw deserialization_error("stream join outer store value: " + std::to_string(list.size()) +
                                        " bytes after the items its count names");
    }

private:
    static std::int32_t item_count(std::string_view list) {
        if (list.size() < 5 || list[0] != 1)
            throw deserialization_error("stream join outer store value: not a list as Kafka's ListSerializer writes it "
                                        "(0x01 and a 4-byte count first)");
        const auto count = kstreams::detail::get_big_endian<std::int32_t>(list.substr(1));
        if (count < 0) throw deserialization_error("stream join outer store value: a negative item count");
        return count;
    }
    static void check_key(std::string_view k) {
        if (k.size() < 9)
            throw deserialization_error("stream join outer store key: " + std::to_string(k.size()) +
                                        " bytes, fewer than the 9 of its timestamp and join side");
    }
};

/// KSTREAM-JOINTHIS (ThisIsLeft) or KSTREAM-JOINOTHER: joins each record of its side with the
/// other side's stored records, result timestamp max(this, other).
template <class K, class VThis, class VOther, class VOut, class Fn, bool ThisIsLeft>
class stream_join_node final : public kstreams::detail::node {
    using VL = std::conditional_t<ThisIsLeft, VThis, VOther>;
    using VR = std::conditional_t<ThisIsLeft, VOther, VThis>;
    using codec_t = outer_store_codec<K, VL, VR>;

public:
    stream_join_node(std::string name, join_side_spec spec, codec_t codec, Fn fn)
        : node(std::move(name)), spec_(std::move(spec)), codec_(std::move(codec)), fn_(std::move(fn)) {}

    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        other_ = dynamic_cast<window_store<K, VOther>*>(&ctx.store(spec_.other_store, *this));
        if (!other_) throw topology_error("processor " + name() + ": store " + spec_.other_store + " is not a window store of the join's types");
        if (!spec_.outer_store.empty()) {
            outer_ = dynamic_cast<key_value_store<std::string, std::string>*>(&ctx.store(spec_.outer_store, *this));
            if (!outer_) throw topology_error("processor " + name() + ": store " + spec_.outer_store + " is not the join's outer store");
        }
        tracker_ = &ctx.task_slot<join_time_tracker>(spec_.tracker_slot);
        hold_ = kstreams::detail::offset_hold_of(ctx, spec_.other_store, *this);
        if (hold_) {
            tracker_->recovery.holds[ThisIsLeft ? 0 : 1] = hold_;
            hold_->before_commit = [this] { tracker_->recovery.note(tracker_->min_time); };
        }
        emit_interval_ms_ = kstreams::detail::internal_config::milliseconds(
            ctx, kstreams::detail::internal_config::outer_join_emit_interval_ms, 1000);
    }

    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, VThis>*>(p);
        const std::int64_t t = r.timestamp;
        join_time_tracker& tt = *tracker_;
        const bool replaying = hold_ && replay(tt);
        if (!replaying) tt.stream_time = std::max(tt.stream_time, t);
        // Replaying, the join's stream time is not known (it depends on the order the partitions
        // were taken in): the commit's stays noted.
        if (hold_) tt.recovery.advance(replaying ? -1 : tt.stream_time, tt.emitted_time);
        if (spec_.outer && has_null_key(r) && !has_null_value(r)) {
            if (replaying) return;  // went out before the commit
            // Left/outer joins pass a null-key record on at once, null-padded.
            forward(record<K, VOut>{r.key, apply(r.key, &r.value, nullptr), t, r.headers, r.key_null, false});
            return;
        }
        if (has_null_key(r) || has_null_value(r)) {
            ctx_->record_dropped(has_null_key(r) ? metric::dropped_null_key : metric::dropped_null_value, *this);
            return;
        }
        // Replaying: whether the commit named it as waiting for a partner (nullopt: not known).
        const std::optional<bool> waited = replaying ? hold_->take_mark() : std::optional<bool>{};
        if (outer_ && !tt.parked.built()) tt.parked.build(*outer_);
        if (outer_ && !replaying && t == tt.stream_time) emit_non_joined(r);

        const std::int64_t from = std::max<std::int64_t>(0, java_add(t, -spec_.join_before));
        const std::int64_t to = std::max<std::int64_t>(0, java_add(t, spec_.join_after));
        auto it = other_->fetch(r.key, from, to);
        bool matched = false;
        std::string partner_key;  // a partner's outer store key: the timestamp set per partner
        if (outer_) partner_key = codec_.encode_key_prefix(!ThisIsLeft, r.key);
        while (it.has_next()) {
            const auto other = it.next();
            if (outer_) {
                // A partner arrived: the other record is no longer waiting to be emitted alone.
                codec_t::set_timestamp(partner_key, other.key);
                // Unless the commit named it as waiting: then this record, processed before the
                // commit, did not match it (it came later in the replay than the first time).
                if (replaying && tt.recovery.named.count(partner_key)) continue;
                if (parked_list(partner_key)) {
                    outer_->remove(partner_key);
                    if (hold_) tt.recovery.gone(partner_key, !ThisIsLeft);
                }
            }
            matched = true;
            forward(record<K, VOut>{r.key, apply(r.key, &r.value, &other.value), std::max(t, other.key), r.headers, false, false});
        }
        if (!spec_.outer || matched) return;
        const std::int64_t release = saturated_add(close_time(t, ThisIsLeft), 1);
        if (replaying) {
            // Waiting at the commit: parked again (unless a record replayed after it matches it).
            // Not waiting: emitted before the commit (at once, or once its window closed) or
            // matched. Not known (the commit had more waiting records than its metadata names):
            // parked again unless its window had closed by the commit's last emission, which
            // errs toward a result without partner emitted twice, never one lost.
            if (!outer_ || !waited.value_or(window_open(t, ThisIsLeft, tt.recovery.commit_emitted))) return;
        } else if (!outer_ || to < tt.stream_time) {
            forward(record<K, VOut>{r.key, apply(r.key, &r.value, nullptr), t, r.headers, false, false});
            return;
        }
        tt.min_time = std::min(tt.min_time, t);
        const std::string k = codec_.encode_key(t, ThisIsLeft, r.key);
        std::string list = parked_list(k).value_or(std::string());
        codec_t::append(list, ThisIsLeft, this_serde(), r.value);
        outer_->put(k, list);
        if (tt.parked.added(k)) tt.parked.build(*outer_);
        if (hold_) {
            // Held and marked as waiting until emitted or matched (a replayed record parked after
            // the join emitted past its window goes out at the next emission).
            const std::int64_t until = std::max(release, saturated_add(tt.emitted_time, 1));
            hold_->hold(until);
            tt.recovery.parked(k, *hold_, until, waited.value_or(false));
        }
    }

private:
    VOut apply(const K& k, const VThis* mine, const VOther* other) {
        if constexpr (ThisIsLeft) return fn_(k, mine, other);
        else return fn_(k, other, mine);
    }
    /// What the outer store holds under `k`: read only when the filter cannot say it holds nothing.
    std::optional<std::string> parked_list(const std::string& k) {
        if (!tracker_->parked.may_hold(k)) return std::nullopt;
        auto list = outer_->get(k);
        if (!list) tracker_->parked.false_positive();
        return list;
    }
    const serde_ref<VThis>& this_serde() const {
        if constexpr (ThisIsLeft) return codec_.left;
        else return codec_.right;
    }

    /// The last stream time at which a record at `ts` of that side may still find a partner.
    std::int64_t close_time(std::int64_t ts, bool is_left) const {
        return java_add(java_add(ts, is_left ? spec_.windows_after : spec_.windows_before), spec_.grace);
    }
    bool window_open(std::int64_t ts, bool is_left) const { return window_open(ts, is_left, tracker_->stream_time); }
    bool window_open(std::int64_t ts, bool is_left, std::int64_t stream_time) const {
        return close_time(ts, is_left) >= stream_time;
    }
    static std::int64_t saturated_add(std::int64_t a, std::int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

    /// Recovered by recomputation: whether the record being processed is replayed; the first
    /// record past the replay brings back the commit's stream time.
    bool replay(join_time_tracker& tt) {
        join_recovery& rec = tt.recovery;
        if (!rec.started) {
            rec.start();
            tt.emitted_time = std::max(tt.emitted_time, rec.commit_emitted);
        }
        if (hold_->replaying()) return true;
        if (!rec.caught_up) {
            rec.caught_up = true;
            tt.stream_time = std::max(tt.stream_time, rec.commit_stream_time);
            if (rec.commit_min_time) tt.min_time = *rec.commit_min_time;
        }
        return false;
    }

    /// Emits, in timestamp order, the parked records whose window has closed (Kafka's
    /// emitNonJoinedOuterRecords, throttled to one look per emit interval of wall-clock time: 1 s
    /// in an application, none in the test driver).
    template <class R>
    void emit_non_joined(const R& current) {
        join_time_tracker& tt = *tracker_;
        if (java_add(java_add(tt.min_time, spec_.join_after), spec_.grace) >= tt.stream_time) return;
        const std::int64_t now = ctx_->wall_clock_time();
        if (now < tt.next_time_to_emit) return;
        tt.next_time_to_emit = now + emit_interval_ms_;
        tt.min_time = INT64_MAX;
        tt.emitted_time = std::max(tt.emitted_time, tt.stream_time);  // all that closed goes out below

        struct parked {
            std::string key;
            std::string list;
        };
        std::vector<parked> due;
        {
            bool left_open = false, right_open = false;
            auto it = outer_->all();
            while (it.has_next()) {
                auto kv = it.next();
                const std::int64_t ts = codec_t::timestamp_of(kv.key);
                const bool is_left = codec_t::is_left(kv.key);
                tt.min_time = ts;
                if (left_open && right_open) break;
                if (window_open(ts, is_left)) {
                    (is_left ? left_open : right_open) = true;
                    continue;
                }
                due.push_back({std::move(kv.key), std::move(kv.value)});
            }
        }
        for (const parked& d : due) {
            const K key = codec_.decode_key(d.key);
            const std::int64_t ts = codec_t::timestamp_of(d.key);
            codec_t::for_each_item(d.list, [&](std::string_view item) {
                if (item.empty()) return;
                auto joined = [&]() -> VOut {
                    if (item[0] == 1) {
                        const VL v = codec_.left.deserialize(item.substr(1));
                        return fn_(key, &v, static_cast<const VR*>(nullptr));
                    }
                    const VR v = codec_.right.deserialize(item.substr(1));
                    return fn_(key, static_cast<const VL*>(nullptr), &v);
                };
                forward(record<K, VOut>{key, joined(), ts, current.headers, false, false});
            });
            outer_->remove(d.key);
            if (hold_) tt.recovery.gone(d.key, codec_t::is_left(d.key));
        }
        if (hold_) tt.recovery.advance(tt.stream_time, tt.emitted_time);
    }

    join_side_spec spec_;
    codec_t codec_;
    Fn fn_;
    window_store<K, VOther>* other_ = nullptr;
    key_value_store<std::string, std::string>* outer_ = nullptr;
    join_time_tracker* tracker_ = nullptr;
    kstreams::detail::offset_hold* hold_ = nullptr;  ///< recovered by recomputation
    std::int64_t emit_interval_ms_ = 1000;
};

}  // namespace kstreams::dsl_detail
