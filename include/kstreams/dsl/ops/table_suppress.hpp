// ktable::suppress (Kafka's KTableSuppressProcessorSupplier): each update is buffered, in bytes, at
// a buffer time (the window end for until_window_closes, the record's timestamp for
// until_time_limit; an update of a buffered key keeps the key's first time). After each record, the
// node's own stream time (the largest timestamp it has seen) decides: every key whose buffer time
// <= stream time - wait (the grace for final results) is emitted, oldest first, with the value,
// old value, timestamp and headers of its latest update. A buffer over its bounds then either
// emits its oldest keys until it is within them, or fails with Kafka's "buffer exceeded its max
// capacity". Final results drop the tombstones they would emit.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/suppress_buffer.hpp>
#include <kstreams/dsl/detail/value_getter.hpp>
#include <kstreams/dsl/serde_ref.hpp>
#include <kstreams/dsl/suppressed.hpp>
#include <kstreams/error.hpp>
#include <kstreams/state/window_store.hpp>

namespace kstreams::dsl_detail {

template <class T>
struct is_windowed : std::false_type {};
template <class K>
struct is_windowed<windowed<K>> : std::true_type {};

/// The buffer store connected to `self`, or a topology_error.
inline suppress_buffer& suppress_buffer_of(kstreams::detail::task_context& ctx, const std::string& store,
                                           const kstreams::detail::node& self) {
    auto* b = dynamic_cast<suppress_buffer*>(&ctx.store(store, self));
    if (!b) throw topology_error("processor " + self.name() + ": store " + store + " is not a suppress buffer");
    return *b;
}

/// The grace suppress(until_window_closes) waits past a window's end: that of the windowed
/// aggregation upstream (the largest, if several), or Kafka's error when there is none.
inline std::int64_t window_close_grace(builder_state& b, std::size_t node, const std::string& chain = {}) {
    const graph_node& g = b.at(node);
    if (g.window_close_grace) return *g.window_close_grace;
    const std::string next = chain.empty() ? g.name : g.name + "->" + chain;
    if (g.parents.empty())
        throw topology_error("Window close time is only defined for windowed computations. Got [" + next + "].");
    std::int64_t grace = -1;
    for (std::size_t p : g.parents) grace = std::max(grace, window_close_grace(b, p, next));
    return grace;
}

/// The serde a suppress buffer writes T with: the table's, else T's default serde (Kafka's buffer
/// falls back to the default serdes, e.g. after an unmaterialized join whose result has none);
/// empty when T has neither.
template <class T>
serde_ref<T> buffer_serde(const serde_ref<T>& table_serde) {
    if (table_serde) return table_serde;
    if constexpr (has_default_serde<T>) return serde_ref<T>(serde<T>{});
    else return {};
}

template <class K, class V>
class table_suppress_node final : public kstreams::detail::node {
public:
    /// `final_results`: until_window_closes (buffer time = window end, wait = `wait_ms` = the
    /// grace upstream, tombstones dropped); else until_time_limit(wait_ms).
    table_suppress_node(std::string name, std::string store, buffer_limits limits, bool final_results,
                        std::int64_t wait_ms, serde_ref<K> key_serde, serde_ref<V> value_serde)
        : node(std::move(name)), store_(std::move(store)), limits_(std::move(limits)), final_results_(final_results),
          wait_ms_(wait_ms), key_serde_(std::move(key_serde)), value_serde_(std::move(value_serde)) {}

    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        buffer_ = &suppress_buffer_of(ctx, store_, *this);
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, change<V>>*>(p);
        if (r.timestamp > observed_stream_time_) observed_stream_time_ = r.timestamp;
        std::int64_t time = r.timestamp;
        if constexpr (is_windowed<K>::value)
            if (final_results_) time = r.key.window.end;
        key_bytes_.clear();
        key_serde_.serialize(r.key, key_bytes_);
        buffered_context c{r.timestamp, -1, {}, -1, r.headers};
        if (const record_metadata* m = ctx_->current_metadata()) {
            c.offset = m->offset;
            c.topic = std::string(m->topic);
            c.partition = m->partition;
        } else {
            c.partition = ctx_->id().partition;
        }
        buffer_->put(time, key_bytes_, bytes_of(r.value.new_value), bytes_of(r.value.old_value), std::move(c));
        enforce_constraints();
    }

private:
    std::optional<std::string> bytes_of(const std::optional<V>& v) const {
        if (!v) return std::nullopt;
        std::string out;
        value_serde_.serialize(*v, out);
        return out;
    }
    std::optional<V> value_of(const std::optional<std::string>& b) const {
        if (!b) return std::nullopt;
        return std::optional<V>(value_serde_.deserialize(*b));
    }
    bool over_capacity() const {
        return buffer_->num_records() > limits_.max_records || buffer_->buffer_size() > limits_.max_bytes;
    }
    void enforce_constraints() {
        const std::int64_t expiry = observed_stream_time_ - wait_ms_;
        auto emit = [this](const buffer_eviction& e) {
            if (!e.new_value && final_results_) return;  // Kafka's safeToDropTombstones
            record<K, change<V>> out{key_serde_.deserialize(e.key), {value_of(e.new_value), value_of(e.old_value)},
                                     e.context.timestamp, e.context.hdrs};
            forward(out);
        };
        buffer_->evict_while([&] { return buffer_->min_timestamp() <= expiry; }, emit);
        if (!over_capacity()) return;
        if (!limits_.shut_down_when_full) {
            buffer_->evict_while([this] { return over_capacity(); }, emit);
            return;
        }
        throw streams_error(name() + " buffer exceeded its max capacity. Currently [" + std::to_string(buffer_->num_records()) +
                            "/" + std::to_string(limits_.max_records) + "] records and [" +
                            std::to_string(buffer_->buffer_size()) + "/" + std::to_string(limits_.max_bytes) + "] bytes.");
    }

    std::string store_;
    buffer_limits limits_;
    bool final_results_;
    std::int64_t wait_ms_;
    serde_ref<K> key_serde_;
    serde_ref<V> value_serde_;
    suppress_buffer* buffer_ = nullptr;
    std::int64_t observed_stream_time_ = -1;  // Kafka's NO_TIMESTAMP
    std::string key_bytes_;
};

/// What a join reads of a suppressed table (Kafka's suppress view): the prior value of a buffered
/// key (what was last emitted for it, as far as the buffer knows; timestamp unknown, -1), else
/// the parent's row.
template <class K, class V>
class suppress_value_getter final : public value_getter<K, V> {
public:
    suppress_value_getter(std::unique_ptr<value_getter<K, V>> parent, std::string store, serde_ref<K> ks, serde_ref<V> vs)
        : parent_(std::move(parent)), store_(std::move(store)), key_serde_(std::move(ks)), value_serde_(std::move(vs)) {}
    void init(kstreams::detail::task_context& ctx, const kstreams::detail::node& self) override {
        parent_->init(ctx, self);
        buffer_ = &suppress_buffer_of(ctx, store_, self);
    }
    void close() override { parent_->close(); }
    std::optional<value_and_timestamp<V>> get(const K& key) override {
        std::string k;
        key_serde_.serialize(key, k);
        if (auto prior = buffer_->prior_value(k)) {
            if (!*prior) return std::nullopt;
            return value_and_timestamp<V>{V(value_serde_.deserialize(**prior)), -1};
        }
        return parent_->get(key);
    }

private:
    std::unique_ptr<value_getter<K, V>> parent_;
    std::string store_;
    serde_ref<K> key_serde_;
    serde_ref<V> value_serde_;
    suppress_buffer* buffer_ = nullptr;
};

/// The view of a suppress node `store` over its parent table `parent`.
template <class K, class V>
std::shared_ptr<const void> suppress_view(std::size_t parent, std::string store, serde_ref<K> ks, serde_ref<V> vs) {
    table_view<K, V> view = [parent, store, ks, vs](builder_state& b) {
        value_getter_supplier<K, V> p = value_getter_of<K, V>(b, parent);
        std::vector<std::string> stores{store};
        stores.insert(stores.end(), p.store_names.begin(), p.store_names.end());
        return value_getter_supplier<K, V>{[make = p.make, store, ks, vs] {
                                               return std::unique_ptr<value_getter<K, V>>(
                                                   std::make_unique<suppress_value_getter<K, V>>(make(), store, ks, vs));
                                           },
                                           std::move(stores)};
    };
    return std::make_shared<const table_view<K, V>>(std::move(view));
}

}  // namespace kstreams::dsl_detail
