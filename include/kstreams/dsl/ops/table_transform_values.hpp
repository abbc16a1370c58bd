// ktable transform_values (Kafka's KTableTransformValues): a value transformer of the user's on
// each update. Unlike map_values, the transformer sees deletes (a null value) and may turn them
// into rows. Unmaterialized, old values (when downstream asks for them) are the transformer's
// result for the old value, and a join reads the table through a getter that runs a transformer
// instance of its own on the parent's row; materialized, the result is kept in its own store,
// which answers the old values and the joins.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kstreams/detail/node.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/detail/value_getter.hpp>
#include <kstreams/dsl/ops/table_materializer.hpp>
#include <kstreams/dsl/value_transformer.hpp>

namespace kstreams::dsl_detail {

namespace names {
inline constexpr std::string_view table_transform_values = "KTABLE-TRANSFORMVALUES-";
}  // namespace names

/// Runs transformer `t` on a row value in the DSL's form (nullopt = null) and gives the result in
/// that form.
template <class T, class K, class V>
std::optional<typename T::value_out> run_transformer(T& t, const K& key, const std::optional<V>& v) {
    using VOut = typename T::value_out;
    nullable<V> in;
    if constexpr (is_optional_v<V>) {
        if (v) in = *v;
    } else {
        in = v;
    }
    nullable<VOut> out = t.transform(key, in);
    if constexpr (is_optional_v<VOut>) {
        if (!out) return std::nullopt;
        return std::optional<VOut>(std::move(out));
    } else {
        return out;
    }
}

template <class K, class V, class VOut, class Supplier>
class table_transform_values_node final : public kstreams::detail::node {
public:
    using transformer = typename std::invoke_result_t<Supplier&>::element_type;

    table_transform_values_node(std::string name, std::shared_ptr<const table_info> info, Supplier supplier,
                                std::string store = {})
        : node(std::move(name)), info_(std::move(info)), supplier_(std::move(supplier)), store_(std::move(store)) {}
    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        send_old_ = info_->send_old_values;
        transformer_ = supplier_();
        if (!transformer_) throw topology_error("transform_values " + name() + ": the supplier returned no transformer");
        context_.emplace(*this, ctx);
        transformer_->init(*context_);
        if (info_->materialized) materializer_.init(ctx, *this, store_, send_old_);
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, change<V>>*>(p);
        change<VOut> c{run_transformer(*transformer_, r.key, r.value.new_value), std::nullopt, r.value.is_latest};
        if (send_old_)
            c.old_value = materializer_.active() ? materializer_.stored(r.key)
                                                 : run_transformer(*transformer_, r.key, r.value.old_value);
        record<K, change<VOut>> out{r.key, std::move(c), r.timestamp, r.headers};
        if (materializer_.active()) materializer_.write_and_forward(out);
        else forward(out);
    }
    void close() override {
        if (transformer_) transformer_->close();
    }

private:
    std::shared_ptr<const table_info> info_;
    Supplier supplier_;
    std::string store_;
    bool send_old_ = false;
    std::unique_ptr<transformer> transformer_;
    std::optional<value_transformer_context> context_;
    table_materializer<K, VOut> materializer_;
};

/// The rows of an unmaterialized transform_values, for a join: the parent's row through a
/// transformer of the getter's own (initialized in the join processor's init, with the join
/// processor's stores), timestamped with the parent row's timestamp (-1 when the parent has no
/// row and the transformer made one anyway).
template <class K, class V, class VOut, class Supplier>
class transform_values_getter final : public value_getter<K, VOut> {
public:
    using transformer = typename std::invoke_result_t<Supplier&>::element_type;

    transform_values_getter(std::unique_ptr<value_getter<K, V>> parent, Supplier supplier)
        : parent_(std::move(parent)), supplier_(std::move(supplier)) {}
    void init(kstreams::detail::task_context& ctx, const kstreams::detail::node& self) override {
        parent_->init(ctx, self);
        transformer_ = supplier_();
        if (!transformer_) throw topology_error("transform_values: the supplier returned no transformer");
        context_.emplace(self, ctx);
        transformer_->init(*context_);
    }
    std::optional<value_and_timestamp<VOut>> get(const K& key) override { return row(key, parent_->get(key)); }
    bool is_versioned() const override { return parent_->is_versioned(); }
    std::optional<value_and_timestamp<VOut>> get(const K& key, std::int64_t as_of) override {
        return row(key, parent_->get(key, as_of));
    }
    void close() override {
        parent_->close();
        if (transformer_) transformer_->close();
    }

private:
    /// The transformer runs as if on a record of the row's own: its timestamp (-1 for none), no
    /// headers, no topic, partition or offset (Kafka's getter sets that record context).
    std::optional<value_and_timestamp<VOut>> row(const K& key, std::optional<value_and_timestamp<V>> p) {
        const std::int64_t ts = p ? p->timestamp : -1;
        std::optional<V> in;
        if (p) in = std::move(p->value);
        struct restore {
            value_transformer_context& c;
            ~restore() { c.row_timestamp_.reset(); }
        } guard{*context_};
        context_->row_timestamp_ = ts;
        std::optional<VOut> out = run_transformer(*transformer_, key, in);
        if (!out) return std::nullopt;
        return value_and_timestamp<VOut>{std::move(*out), ts};
    }
    std::unique_ptr<value_getter<K, V>> parent_;
    Supplier supplier_;
    std::unique_ptr<transformer> transformer_;
    std::optional<value_transformer_context> context_;
};

/// The view of an unmaterialized transform_values over parent node `parent`. As Kafka's, a join
/// reading it is connected to the parent's stores only, not to the transformer's: a transformer
/// that reads a store of its own (not a global one) cannot be read through a join (the store is
/// not connected to the join processor, a topology_error when the task starts, as Kafka's
/// StreamsException); materialize the transform_values for that.
template <class K, class V, class VOut, class Supplier>
std::shared_ptr<const void> transform_values_view(std::size_t parent, Supplier supplier) {
    table_view<K, VOut> view = [parent, supplier](builder_state& b) {
        value_getter_supplier<K, V> p = value_getter_of<K, V>(b, parent);
        return value_getter_supplier<K, VOut>{[make = p.make, supplier] {
                                                  return std::unique_ptr<value_getter<K, VOut>>(
                                                      std::make_unique<transform_values_getter<K, V, VOut, Supplier>>(make(), supplier));
                                              },
                                              std::move(p.store_names)};
    };
    return std::make_shared<const table_view<K, VOut>>(std::move(view));
}

}  // namespace kstreams::dsl_detail
