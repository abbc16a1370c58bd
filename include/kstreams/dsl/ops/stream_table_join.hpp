// Stream-table join (Kafka's KStreamKTableJoinProcessor), also used for global tables with a key
// mapper: each stream record looks its (mapped) key up in the table through a value getter; a
// table update never triggers anything. The result keeps the stream record's key, timestamp and
// headers. A record with a null value is dropped (and counted), and so is one whose join key is
// null, except in a left join, which passes it on joined with an absent row. An inner join emits
// nothing when the row is absent. A versioned table (directly, or through unmaterialized views of
// one) is read as of the stream record's timestamp (KIP-914).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/detail/value_getter.hpp>
#include <kstreams/metrics.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

/// The join key of a stream-table join: the stream's own key.
struct same_key {
    template <class K, class V>
    std::optional<K> operator()(const record<K, V>& r) const {
        if (has_null_key(r)) return std::nullopt;
        return r.key;
    }
};

/// KSTREAM-JOIN / KSTREAM-LEFTJOIN. `map_key(record) -> std::optional<KT>` gives the table key
/// (nullopt: null); `fn(key, stream value, table row or nullptr) -> VOut` calls the user's joiner.
template <class K, class V, class KT, class VT, class VOut, class MapKey, class Fn>
class stream_table_join_node final : public kstreams::detail::node {
public:
    stream_table_join_node(std::string name, value_getter_supplier<KT, VT> table, MapKey map_key, Fn fn, bool left)
        : node(std::move(name)), table_(std::move(table)), map_key_(std::move(map_key)), fn_(std::move(fn)), left_(left) {}

    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        getter_ = table_.make();
        getter_->init(ctx, *this);
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
        std::optional<value_and_timestamp<VT>> row;
        if (key) row = getter_->is_versioned() ? getter_->get(*key, r.timestamp) : getter_->get(*key);
        if (!row && !left_) return;
        forward(record<K, VOut>{r.key, fn_(r.key, &r.value, row ? &row->value : nullptr), r.timestamp, r.headers, r.key_null, false});
    }

private:
    value_getter_supplier<KT, VT> table_;
    MapKey map_key_;
    Fn fn_;
    bool left_;
    std::unique_ptr<value_getter<KT, VT>> getter_;
};

}  // namespace kstreams::dsl_detail
