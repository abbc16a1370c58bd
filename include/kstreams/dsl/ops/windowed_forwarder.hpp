// How windowed aggregations pass on their results (Kafka's TimestampedTupleForwarder over a window
// store): at once without a record cache; with one, the cache's flush forwards what it writes down
// (the latest aggregate per window, with the timestamp and headers of the record that wrote it).
// Sessions (session_forwarder) are the same but timestamped with the session's end.
#pragma once

#include <climits>
#include <cstdint>
#include <optional>

#include <kstreams/detail/node.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/record.hpp>
#include <kstreams/state/session_store.hpp>
#include <kstreams/state/timestamped_key_value_store.hpp>
#include <kstreams/state/window_store.hpp>

namespace kstreams::dsl_detail {

template <class K, class V>
class windowed_forwarder {
public:
    /// `by_cache` false: always forward at once (emit on window close, which never goes through the cache).
    template <class Store>
    void init(kstreams::detail::node& self, Store& store, bool send_old_values, bool by_cache = true) {
        self_ = &self;
        if (!by_cache) return;
        by_cache_ = store.set_flush_listener(
            [this, send_old_values](const windowed<K>& key, std::optional<value_and_timestamp<V>> nv,
                                    std::optional<value_and_timestamp<V>> ov, std::int64_t ts, const headers& hdrs) {
                if (key.window.end < skip_ending_before_) return;
                record<windowed<K>, change<V>> r{key, {}, nv ? nv->timestamp : ts, hdrs};
                if (nv) r.value.new_value = std::move(nv->value);
                if (send_old_values && ov) r.value.old_value = std::move(ov->value);
                self_->forward(r);
            },
            send_old_values);
    }
    void maybe_forward(const record<windowed<K>, change<V>>& r) const {
        if (!by_cache_ && r.key.window.end >= skip_ending_before_) self_->forward(r);
    }
    /// Recovery by recomputation: windows ending before `end` closed before the commit processing
    /// resumed from, and their results went out then. Replayed records rebuild them in part
    /// (later windows start from them); what they would forward again is not forwarded.
    void skip_windows_ending_before(std::int64_t end) { skip_ending_before_ = end; }

private:
    kstreams::detail::node* self_ = nullptr;
    bool by_cache_ = false;
    std::int64_t skip_ending_before_ = INT64_MIN;
};

/// The same over a session store (Kafka's SessionTupleForwarder): a session's results carry its
/// end as their timestamp, through the cache as well.
template <class K, class V>
class session_forwarder {
public:
    void init(kstreams::detail::node& self, session_store<K, V>& store, bool send_old_values, bool by_cache = true) {
        self_ = &self;
        if (!by_cache) return;
        by_cache_ = store.set_flush_listener(
            [this, send_old_values](const windowed<K>& key, std::optional<V> nv, std::optional<V> ov, std::int64_t,
                                    const headers& hdrs) {
                if (suppressed_) return;
                record<windowed<K>, change<V>> r{key, {std::move(nv), std::nullopt}, key.window.end, hdrs};
                if (send_old_values) r.value.old_value = std::move(ov);
                self_->forward(r);
            },
            send_old_values);
    }
    void maybe_forward(const record<windowed<K>, change<V>>& r) const {
        if (!by_cache_ && !suppressed_) self_->forward(r);
    }
    /// Recovery by recomputation: while records processed before the commit are replayed, what
    /// they write went out before that commit (or belongs to sessions done with by then, rebuilt
    /// in part): nothing is forwarded, through the cache neither.
    void suppress(bool on) { suppressed_ = on; }
    bool suppressed() const { return suppressed_; }

private:
    kstreams::detail::node* self_ = nullptr;
    bool by_cache_ = false;
    bool suppressed_ = false;
};

}  // namespace kstreams::dsl_detail
