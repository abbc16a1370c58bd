// Stream-table join (Kafka's KStreamKTableJoinProcessor), also used for global tables with a key
// mapper: each stream record looks its (mapped) key up in the table through a value getter; a
// table update never triggers anything. The result keeps the stream record's key, timestamp and
// headers. A record with a null value is dropped (and counted), and so is one whose join key is
// null, except in a left join, which passes it on joined with an absent row. An inner join emits
// nothing when the row is absent. A versioned table (directly, or through unmaterialized views of
// one) is read as of the stream record's timestamp (KIP-914).
// With a grace period (KIP-923) each stream record waits in a buffer store (Kafka's time-ordered
// buffer, `<join>-Buffer`, logged) until the largest timestamp buffered minus the grace reaches it;
// then the buffered records go through the join in timestamp order (then key bytes, then arrival),
// each with its own timestamp and headers. A record already older than that joins at once.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/detail/join_buffer.hpp>
#include <kstreams/dsl/detail/value_getter.hpp>
#include <kstreams/dsl/serde_ref.hpp>
#include <kstreams/metrics.hpp>
#include <kstreams/record.hpp>
#include <kstreams/state/key_value_store.hpp>

namespace kstreams::dsl_detail {

/// The join key of a stream-table join: the stream's own key.
struct same_key {
    template <class K, class V>
    std::optional<K> operator()(const record<K, V>& r) const {
        if (has_null_key(r)) return std::nullopt;
        return r.key;
    }
};

/// A stream-table join's grace period and its buffer store (of the stream's keys and values).
template <class K, class V>
struct join_grace {
    std::int64_t grace = 0;
    std::string store;
    serde_ref<K> key_serde;
    serde_ref<V> value_serde;
};

/// KSTREAM-JOIN / KSTREAM-LEFTJOIN. `map_key(record) -> std::optional<KT>` gives the table key
/// (nullopt: null); `fn(key, stream value, table row or nullptr) -> VOut` calls the user's joiner.
template <class K, class V, class KT, class VT, class VOut, class MapKey, class Fn>
class stream_table_join_node final : public kstreams::detail::node {
public:
    stream_table_join_node(std::string name, value_getter_supplier<KT, VT> table, MapKey map_key, Fn fn, bool left,
                           std::optional<join_grace<K, V>> grace = std::nullopt)
        : node(std::move(name)), table_(std::move(table)), map_key_(std::move(map_key)), fn_(std::move(fn)), left_(left),
          grace_(std::move(grace)) {}

    void close() override {
        if (getter_) getter_->close();
    }
    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        getter_ = table_.make();
        getter_->init(ctx, *this);
        if (!grace_) return;
        if (!getter_->is_versioned())
            throw topology_error("processor " + name() + ": KTable must be versioned to use a grace period in a stream table join.");
        buffer_ = dynamic_cast<key_value_store<std::string, std::string>*>(&ctx.store(grace_->store, *this));
        if (!buffer_) throw topology_error("processor " + name() + ": store " + grace_->store + " is not the join's buffer");
        for (auto it = buffer_->all(); it.has_next();)
            buffer_time_ = std::max(buffer_time_, join_buffer_key_time(it.next().key));
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        if (has_null_value(r)) {
            ctx_->record_dropped(metric::dropped_null_value, *this);
            return;
        }
        const std::optional<KT> key = map_key_(r);
        if (!key && !left_) {
            ctx_->record_dropped(metric::dropped_null_key, *this);
            return;
        }
        // Kafka's buffer takes no null key (it throws); such a left-join record joins at once.
        if (!grace_ || buffer_time_ - grace_->grace > r.timestamp || has_null_key(r)) {
            join(r, key);
            return;
        }
        seqnum_ = (seqnum_ + 1) & 0x7fffffff;
        std::string k, v;
        grace_->key_serde.serialize(r.key, k);
        grace_->value_serde.serialize(r.value, v);
        buffer_->put(join_buffer_key(r.timestamp, k, seqnum_), join_buffer_value(v, r.timestamp, ctx_->current_metadata(), r.headers));
        buffer_time_ = std::max(buffer_time_, r.timestamp);
        evict();
    }

private:
    void evict() {
        const std::int64_t limit = buffer_time_ - grace_->grace;
        std::vector<key_value<std::string, std::string>> due;
        for (auto it = buffer_->all(); it.has_next();) {
            auto kv = it.next();
            if (join_buffer_key_time(kv.key) > limit) break;
            due.push_back(std::move(kv));
        }
        for (auto& kv : due) {
            join_buffer_entry e = read_join_buffer_value(kv.value);
            record<K, V> r{grace_->key_serde.deserialize(join_buffer_key_bytes(kv.key)), grace_->value_serde.deserialize(e.value),
                           e.timestamp, std::move(e.hdrs)};
            join(r, map_key_(r));
            buffer_->erase(kv.key);
        }
    }
    void join(const record<K, V>& r, const std::optional<KT>& key) {
        std::optional<value_and_timestamp<VT>> row;
        if (key) row = getter_->is_versioned() ? getter_->get(*key, r.timestamp) : getter_->get(*key);
        if (!row && !left_) return;
        // The row was read for this record alone: the joiner's optional takes its value, no copy.
        forward(record<K, VOut>{r.key, fn_.taking_right(r.key, &r.value, row ? &row->value : nullptr), r.timestamp, r.headers,
                                r.key_null, false});
    }

    value_getter_supplier<KT, VT> table_;
    MapKey map_key_;
    Fn fn_;
    bool left_;
    std::optional<join_grace<K, V>> grace_;
    std::unique_ptr<value_getter<KT, VT>> getter_;
    key_value_store<std::string, std::string>* buffer_ = nullptr;
    std::int64_t buffer_time_ = -1;  ///< the largest timestamp buffered (Kafka's store stream time)
    std::int32_t seqnum_ = 0;
};

}  // namespace kstreams::dsl_detail
