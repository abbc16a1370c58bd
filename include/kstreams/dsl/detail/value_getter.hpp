// Value getters (Kafka's KTableValueGetterSupplier): how a join reads a table's current row for a
// key. A materialized table answers from its store; an unmaterialized filter / map_values (or
// table-table join) view computes the row from its parent's getter; a source table that is not
// kept yet is materialized when a join first asks (Kafka's KTableSource.materialize()). The
// supplier is fixed when the join is added to the graph (as Kafka fixes it), and names the
// stores the join processor must be connected to.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/detail/graph.hpp>
#include <kstreams/dsl/ops/store_access.hpp>
#include <kstreams/dsl/ops/window_store_access.hpp>
#include <kstreams/error.hpp>
#include <kstreams/state/timestamped_key_value_store.hpp>
#include <kstreams/state/window_store.hpp>
#include <kstreams/state/versioned_key_value_store.hpp>

namespace kstreams::dsl_detail {

/// One task's reader of a table's rows. init() runs in the join processor's init().
template <class K, class V>
class value_getter {
public:
    virtual ~value_getter() = default;
    virtual void init(kstreams::detail::task_context& ctx, const kstreams::detail::node& self) = 0;
    /// The row of `key` and its timestamp, or nullopt when the row is absent.
    virtual std::optional<value_and_timestamp<V>> get(const K& key) = 0;
    /// Whether the rows come from a versioned store (known after init): then get(key, as_of)
    /// answers the row as of a time (Kafka's KTableValueGetter.isVersioned).
    virtual bool is_versioned() const { return false; }
    virtual std::optional<value_and_timestamp<V>> get(const K& key, std::int64_t /*as_of*/) { return get(key); }
    /// Runs in the join processor's close() (Kafka's KTableValueGetter.close()): a getter over
    /// other getters closes them, a transform_values getter its transformer.
    virtual void close() {}
};

template <class K, class V>
struct value_getter_supplier {
    std::function<std::unique_ptr<value_getter<K, V>>()> make;
    std::vector<std::string> store_names;  ///< to connect to the processor that reads
};

/// What an unmaterialized table node stores in table_info::view: its getter from its parent's.
template <class K, class V>
using table_view = std::function<value_getter_supplier<K, V>(builder_state&)>;

template <class K, class V>
class store_value_getter final : public value_getter<K, V> {
public:
    explicit store_value_getter(std::string store) : store_name_(std::move(store)) {}
    void init(kstreams::detail::task_context& ctx, const kstreams::detail::node& self) override {
        versioned_ = dynamic_cast<versioned_key_value_store<K, V>*>(&ctx.store(store_name_, self));
        if (!versioned_) store_ = &timestamped_store<K, V>(ctx, store_name_, self);
    }
    std::optional<value_and_timestamp<V>> get(const K& key) override {
        if (versioned_) return row(versioned_->get(key));
        return store_->get(key);
    }
    bool is_versioned() const override { return versioned_ != nullptr; }
    std::optional<value_and_timestamp<V>> get(const K& key, std::int64_t as_of) override {
        if (versioned_) return row(versioned_->get(key, as_of));
        return store_->get(key);
    }

private:
    static std::optional<value_and_timestamp<V>> row(std::optional<versioned_record<V>> r) {
        if (!r) return std::nullopt;
        return value_and_timestamp<V>{std::move(r->value), r->timestamp};
    }
    std::string store_name_;
    timestamped_key_value_store<K, V>* store_ = nullptr;
    versioned_key_value_store<K, V>* versioned_ = nullptr;
};

/// The getter of a windowed aggregation's table (key windowed<K>), as Kafka's: a time or sliding
/// window's row from its window store by key and start; a session's from its session store by key,
/// start and end, timestamped with the session's end.
template <class K, class V>
class windowed_store_value_getter final : public value_getter<windowed<K>, V> {
public:
    explicit windowed_store_value_getter(std::string store) : store_name_(std::move(store)) {}
    void init(kstreams::detail::task_context& ctx, const kstreams::detail::node& self) override {
        state_store& s = ctx.store(store_name_, self);
        windows_ = dynamic_cast<window_store<K, value_and_timestamp<V>>*>(&s);
        if (!windows_) sessions_ = &typed_session_store_of<K, V>(ctx, store_name_, self);
    }
    std::optional<value_and_timestamp<V>> get(const windowed<K>& key) override {
        if (windows_) return windows_->fetch(key.key, key.window.start);
        auto v = sessions_->fetch_session(key.key, key.window.start, key.window.end);
        if (!v) return std::nullopt;
        return value_and_timestamp<V>{std::move(*v), key.window.end};
    }

private:
    std::string store_name_;
    window_store<K, value_and_timestamp<V>>* windows_ = nullptr;
    session_store<K, V>* sessions_ = nullptr;
};

template <class T>
struct windowed_key : std::false_type {};
template <class K>
struct windowed_key<windowed<K>> : std::true_type {
    using inner = K;
};

/// A getter computing its rows from another getter's: f(key, parent row) -> row.
template <class K, class VIn, class V, class F>
class derived_value_getter final : public value_getter<K, V> {
public:
    derived_value_getter(std::unique_ptr<value_getter<K, VIn>> parent, F f) : parent_(std::move(parent)), f_(std::move(f)) {}
    void init(kstreams::detail::task_context& ctx, const kstreams::detail::node& self) override { parent_->init(ctx, self); }
    void close() override { parent_->close(); }
    std::optional<value_and_timestamp<V>> get(const K& key) override { return f_(key, parent_->get(key)); }
    bool is_versioned() const override { return parent_->is_versioned(); }
    std::optional<value_and_timestamp<V>> get(const K& key, std::int64_t as_of) override {
        return f_(key, parent_->get(key, as_of));
    }

private:
    std::unique_ptr<value_getter<K, VIn>> parent_;
    F f_;
};

/// Whether table node `node` gives a versioned table (Kafka's isVersionedOrVersionedUpstream): a
/// node with a store of its own by the kind of that store, an unmaterialized view by its parents.
inline bool output_versioned(builder_state& b, std::size_t node) {
    const graph_node& g = b.at(node);
    if (!g.table) return false;
    const table_info& t = *g.table;
    if (t.materialized) return t.versioned_store;
    if (!t.join_parents.empty()) {
        for (std::size_t p : t.join_parents)
            if (!output_versioned(b, p)) return false;
        return true;
    }
    return t.parent_table && output_versioned(b, *t.parent_table);
}

/// The getter of table node `node` (of key K, value V), materializing a source table if needed.
template <class K, class V>
value_getter_supplier<K, V> value_getter_of(builder_state& b, std::size_t node) {
    graph_node& g = b.at(node);
    if (!g.table) throw topology_error("DSL node " + g.name + " is not a table");
    table_info& t = *g.table;
    // A view also stands for a table whose store other nodes own (a cogroup's merge).
    if (t.view && (!t.materialized || g.stores.empty())) return (*static_cast<const table_view<K, V>*>(t.view.get()))(b);
    if (!t.parent_table) t.materialized = true;  // a source table: keep it now
    if (!t.materialized || g.stores.empty())
        throw topology_error("DSL node " + g.name + ": a join needs this table's values, but it keeps no store");
    const std::string store = g.stores.front()->name();
    if constexpr (windowed_key<K>::value) {
        using inner = typename windowed_key<K>::inner;
        return {[store] { return std::unique_ptr<value_getter<K, V>>(std::make_unique<windowed_store_value_getter<inner, V>>(store)); },
                {store}};
    } else {
        return {[store] { return std::unique_ptr<value_getter<K, V>>(std::make_unique<store_value_getter<K, V>>(store)); }, {store}};
    }
}

/// The view of an unmaterialized node of value V computed from parent node `parent` (value VIn)
/// by f(key, std::optional<value_and_timestamp<VIn>>) -> std::optional<value_and_timestamp<V>>.
template <class K, class VIn, class V, class F>
std::shared_ptr<const void> derived_view(std::size_t parent, F f) {
    table_view<K, V> view = [parent, f](builder_state& b) {
        value_getter_supplier<K, VIn> p = value_getter_of<K, VIn>(b, parent);
        return value_getter_supplier<K, V>{[make = p.make, f] {
                                                return std::unique_ptr<value_getter<K, V>>(
                                                    std::make_unique<derived_value_getter<K, VIn, V, F>>(make(), f));
                                            },
                                            p.store_names};
    };
    return std::make_shared<const table_view<K, V>>(std::move(view));
}

}  // namespace kstreams::dsl_detail
