// A stream joined with itself, planned with one store (topology.optimization
// single.store.self.join; Kafka's KStreamKStreamSelfJoin). It replaces both join processors and
// the merge: KSTREAM-WINDOWED forwards the record, then keeps it; this processor, named as the
// join's merge node, joins the record with the stored ones as the this-side join would
// (joiner(record, stored)), then as the other side would (joiner(stored, record)) including the
// record itself, placed where its timestamp falls, so the output is the inner join's record for
// record. Kafka plans a left or outer self-join the same way: as an inner join.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/ops/stream_join.hpp>
#include <kstreams/error.hpp>
#include <kstreams/metrics.hpp>
#include <kstreams/state/window_store.hpp>

namespace kstreams::dsl_detail {

struct self_join_spec {
    std::string store;
    std::int64_t before = 0;     ///< the windows' before
    std::int64_t after = 0;      ///< the windows' after
    std::int64_t retention = 0;  ///< before + after + grace
};

template <class K, class V, class VOut, class Fn>
class stream_self_join_node final : public kstreams::detail::node {
public:
    stream_self_join_node(std::string name, self_join_spec spec, Fn fn)
        : node(std::move(name)), spec_(std::move(spec)), fn_(std::move(fn)) {}

    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        store_ = dynamic_cast<window_store<K, V>*>(&ctx.store(spec_.store, *this));
        if (!store_) throw topology_error("processor " + name() + ": store " + spec_.store + " is not a window store of the join's types");
    }

    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        if (has_null_key(r) || has_null_value(r)) {
            ctx_->record_dropped(has_null_key(r) ? metric::dropped_null_key : metric::dropped_null_value, *this);
            return;
        }
        const std::int64_t t = r.timestamp;
        stream_time_ = std::max(stream_time_, t);
        const bool emit_self = t > java_add(java_add(stream_time_, -spec_.retention), 1);
        auto emit = [&](const V* l, const V* rr, std::int64_t ts) {
            forward(record<K, VOut>{r.key, fn_(r.key, l, rr), ts, r.headers, false, false});
        };
        // The record as this side: joined with what is stored in [t - before, t + after].
        auto it = store_->fetch(r.key, std::max<std::int64_t>(0, java_add(t, -spec_.before)),
                                std::max<std::int64_t>(0, java_add(t, spec_.after)));
        while (it.has_next()) {
            const auto other = it.next();
            emit(&r.value, &other.value, std::max(t, other.key));
        }
        // The record as the other side, itself included at its place in timestamp order.
        bool emitted_self = false;
        auto it2 = store_->fetch(r.key, std::max<std::int64_t>(0, java_add(t, -spec_.after)),
                                 std::max<std::int64_t>(0, java_add(t, spec_.before)));
        while (it2.has_next()) {
            const auto other = it2.next();
            if (t < other.key && !emitted_self && emit_self) {
                emitted_self = true;
                emit(&r.value, &r.value, t);
            }
            emit(&other.value, &r.value, std::max(t, other.key));
        }
        if (!emitted_self && emit_self) emit(&r.value, &r.value, t);
    }

private:
    self_join_spec spec_;
    Fn fn_;
    window_store<K, V>* store_ = nullptr;
    std::int64_t stream_time_ = -1;
};

}  // namespace kstreams::dsl_detail
