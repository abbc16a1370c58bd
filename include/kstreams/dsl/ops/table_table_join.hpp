// Table-table join processors (Kafka's KTableKTableInnerJoin, -LeftJoin, -RightJoin, -OuterJoin
// and KTableKTableJoinMerger). Each side's processor takes its table's changes, reads the other
// table's row through a value getter and forwards the joined change, timestamped with the larger
// of the two rows' timestamps (an absent row counts as -1). Both sides meet in KTABLE-MERGE, which
// keeps the result in a store when materialized. Old joined values are computed only when a
// downstream operator asks for them. Records with a null key are dropped (and counted), and so
// are out-of-order updates of a side whose table is versioned (Kafka's versioned semantics).
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
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/detail/value_getter.hpp>
#include <kstreams/dsl/ops/table_map_values.hpp>
#include <kstreams/dsl/ops/table_materializer.hpp>
#include <kstreams/metrics.hpp>

namespace kstreams::dsl_detail {

/// What one side's processor does when the other row or its own rows are absent.
/// inner: needs the other row; left: this is the left table of a left join (emits without the
/// other row); right: this is the right table of a left join (needs the other, left, row);
/// outer: emits unless both rows are absent.
enum class table_join_mode { inner, left, right, outer };

/// joiner(key, left or nullptr, right or nullptr) as a nullable row (a joiner returning an empty
/// optional gives an absent row).
template <class K, class VL, class VR, class VOut, class Fn>
std::optional<VOut> joined_row(Fn& fn, const K& key, const VL* l, const VR* r) {
    return null_if_empty(std::optional<VOut>(VOut(fn(key, l, r))));
}

template <class K, class VThis, class VOther, class VOut, class Fn, bool ThisIsLeft>
class table_join_node final : public kstreams::detail::node {
public:
    table_join_node(std::string name, value_getter_supplier<K, VOther> other, Fn fn, table_join_mode mode,
                    std::shared_ptr<const table_info> result, bool versioned_semantics = false)
        : node(std::move(name)), other_(std::move(other)), fn_(std::move(fn)), mode_(mode), result_(std::move(result)),
          versioned_(versioned_semantics) {}

    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        send_old_ = result_->send_old_values;
        getter_ = other_.make();
        getter_->init(ctx, *this);
    }
    void close() override {
        if (getter_) getter_->close();
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, change<VThis>>*>(p);
        if (has_null_key(r)) {
            ctx_->record_dropped(metric::dropped_null_key, *this);
            return;
        }
        if (versioned_ && !r.value.is_latest) {
            ctx_->record_dropped("dropped-records.out-of-order", *this);
            return;
        }
        const std::optional<value_and_timestamp<VOther>> other = getter_->get(r.key);
        const VOther* o = other ? &other->value : nullptr;
        const VThis* nv = r.value.new_value ? &*r.value.new_value : nullptr;
        const VThis* ov = r.value.old_value ? &*r.value.old_value : nullptr;
        const bool needs_other = mode_ == table_join_mode::inner || mode_ == table_join_mode::right;
        if (needs_other && !o) return;
        if (!o && !nv && !ov) return;
        const std::int64_t ts = std::max(r.timestamp, o ? other->timestamp : std::int64_t{-1});
        // Which of (this, other) must be present for a joined value (the right side of a left
        // join joins even its own absent row with the left row).
        const bool own_optional = mode_ == table_join_mode::right || mode_ == table_join_mode::outer;
        const bool other_optional = mode_ == table_join_mode::left || mode_ == table_join_mode::outer;
        auto join = [&](const VThis* mine) -> std::optional<VOut> {
            if ((!mine && !own_optional) || (!o && !other_optional) || (!mine && !o)) return std::nullopt;
            return apply(r.key, mine, o);
        };
        change<VOut> c{join(nv), send_old_ ? join(ov) : std::nullopt, r.value.is_latest};
        forward(record<K, change<VOut>>{r.key, std::move(c), ts, r.headers});
    }

private:
    std::optional<VOut> apply(const K& k, const VThis* mine, const VOther* other) {
        if constexpr (ThisIsLeft) return joined_row<K, VThis, VOther, VOut>(fn_, k, mine, other);
        else return joined_row<K, VOther, VThis, VOut>(fn_, k, other, mine);
    }

    value_getter_supplier<K, VOther> other_;
    Fn fn_;
    table_join_mode mode_;
    std::shared_ptr<const table_info> result_;
    bool versioned_;
    bool send_old_ = false;
    std::unique_ptr<value_getter<K, VOther>> getter_;
};

/// KTABLE-MERGE: both sides' joined changes; written to the result's store when materialized,
/// old values dropped unless asked for.
template <class K, class V>
class table_join_merger_node final : public kstreams::detail::node {
public:
    table_join_merger_node(std::string name, std::shared_ptr<const table_info> info, std::string store)
        : node(std::move(name)), info_(std::move(info)), store_(std::move(store)) {}
    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        send_old_ = info_->send_old_values;
        if (info_->materialized) materializer_.init(ctx, *this, store_, send_old_);
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, change<V>>*>(p);
        if (materializer_.active()) {
            materializer_.write_and_forward(r);
        } else if (send_old_) {
            forward(r);
        } else {
            forward(record<K, change<V>>{r.key, {r.value.new_value, std::nullopt, r.value.is_latest}, r.timestamp, r.headers});
        }
    }

private:
    std::shared_ptr<const table_info> info_;
    std::string store_;
    bool send_old_ = false;
    table_materializer<K, V> materializer_;
};

/// The rows of an unmaterialized join result, computed from both tables' getters (Kafka's
/// KTableKTable*JoinValueGetter): inner needs both rows, left the left row, outer either.
template <class K, class VL, class VR, class VOut, class Fn>
class table_join_value_getter final : public value_getter<K, VOut> {
public:
    table_join_value_getter(std::unique_ptr<value_getter<K, VL>> left, std::unique_ptr<value_getter<K, VR>> right, Fn fn,
                            table_join_mode mode)
        : left_(std::move(left)), right_(std::move(right)), fn_(std::move(fn)), mode_(mode) {}
    void init(kstreams::detail::task_context& ctx, const kstreams::detail::node& self) override {
        left_->init(ctx, self);
        right_->init(ctx, self);
    }
    void close() override {
        left_->close();
        right_->close();
    }
    std::optional<value_and_timestamp<VOut>> get(const K& key) override {
        std::optional<value_and_timestamp<VOut>> out;
        const auto l = left_->get(key);
        if (!l && mode_ != table_join_mode::outer) return out;
        const auto r = right_->get(key);
        if (!r && (mode_ == table_join_mode::inner || !l)) return out;
        const std::int64_t ts = std::max(l ? l->timestamp : std::int64_t{-1}, r ? r->timestamp : std::int64_t{-1});
        if (auto v = joined_row<K, VL, VR, VOut>(fn_, key, l ? &l->value : nullptr, r ? &r->value : nullptr))
            out = value_and_timestamp<VOut>{std::move(*v), ts};
        return out;
    }

private:
    std::unique_ptr<value_getter<K, VL>> left_;
    std::unique_ptr<value_getter<K, VR>> right_;
    Fn fn_;
    table_join_mode mode_;
};

template <class K, class VL, class VR, class VOut, class Fn>
std::shared_ptr<const void> table_join_view(std::size_t left, std::size_t right, Fn fn, table_join_mode mode) {
    table_view<K, VOut> view = [left, right, fn, mode](builder_state& b) {
        value_getter_supplier<K, VL> l = value_getter_of<K, VL>(b, left);
        value_getter_supplier<K, VR> r = value_getter_of<K, VR>(b, right);
        std::vector<std::string> stores = l.store_names;
        for (const std::string& s : r.store_names)
            if (std::find(stores.begin(), stores.end(), s) == stores.end()) stores.push_back(s);
        return value_getter_supplier<K, VOut>{[lm = l.make, rm = r.make, fn, mode] {
                                                  return std::unique_ptr<value_getter<K, VOut>>(
                                                      std::make_unique<table_join_value_getter<K, VL, VR, VOut, Fn>>(lm(), rm(), fn, mode));
                                              },
                                              std::move(stores)};
    };
    return std::make_shared<const table_view<K, VOut>>(std::move(view));
}

}  // namespace kstreams::dsl_detail
