// value_transformer_with_key<K, V, VOut> (Kafka's ValueTransformerWithKey), what
// ktable::transform_values runs: one instance per task (and one more per task for each join that
// reads the unmaterialized result through it), init() with a context that reaches the stores
// named in transform_values() and schedules punctuations, but cannot forward (Kafka's
// ForwardingDisabledProcessorContext), transform() per update, close() at the end.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>

#include <kstreams/detail/node.hpp>
#include <kstreams/context_info.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/error.hpp>
#include <kstreams/punctuation.hpp>
#include <kstreams/record.hpp>
#include <kstreams/task_id.hpp>

namespace kstreams {

class state_store;

namespace dsl_detail {
template <class K, class V, class VOut, class Supplier>
class transform_values_getter;
}  // namespace dsl_detail

/// T where Kafka has a nullable T: std::optional<T>, or T itself when it already is an optional.
template <class T>
using nullable = std::conditional_t<is_optional_v<T>, T, std::optional<T>>;

/// What a value transformer sees of its task: stores, punctuation, the record being processed and
/// time. Forwarding is not offered: the transformer's result is what goes downstream.
class value_transformer_context : public context_info {
public:
    value_transformer_context(const detail::node& owner, detail::task_context& task)
        : context_info(task), owner_(&owner) {}

    /// The store of this name connected to the operator (named in transform_values()), as type S.
    template <class S>
    S& get_state_store(std::string_view name) const {
        state_store& s = task_->store(name, *owner_);
        if (auto* typed = dynamic_cast<S*>(&s)) return *typed;
        throw topology_error("transform_values " + owner_->name() + ": store " + std::string(name) + " is not a " +
                             typeid(S).name());
    }
    /// Calls `callback` every `interval` of stream or wall-clock time, until cancelled.
    cancellable schedule(std::chrono::milliseconds interval, punctuation_type type, punctuator callback) const {
        return task_->schedule(const_cast<detail::node&>(*owner_), interval, type, std::move(callback));
    }
    /// Topic, partition and offset of the record being processed; nullopt inside a punctuation,
    /// and while a join reads an unmaterialized table through the transformer (the row comes from
    /// no input record: Kafka gives topic null, partition and offset -1 there).
    std::optional<record_metadata> metadata() const {
        if (row_timestamp_) return std::nullopt;
        const record_metadata* m = task_->current_metadata();
        return m ? std::optional<record_metadata>(*m) : std::nullopt;
    }
    /// The timestamp of the record being processed (Kafka's ProcessorContext.timestamp()); while a
    /// join reads an unmaterialized table through the transformer, the parent row's timestamp (-1
    /// for no row), as Kafka's KTableTransformValuesGetter sets it.
    std::int64_t timestamp() const { return row_timestamp_ ? *row_timestamp_ : task_->current_record().timestamp; }
    /// Its headers (empty inside a punctuation, and while a join reads through the transformer).
    kstreams::headers headers() const {
        if (row_timestamp_) return {};
        const kstreams::headers* h = task_->current_record().hdrs;
        return h ? *h : kstreams::headers{};
    }
    std::int64_t current_stream_time_ms() const { return task_->stream_time(); }
    std::int64_t current_system_time_ms() const { return task_->wall_clock_time(); }
    /// Asks the runtime to commit soon.
    void commit() const { task_->request_commit(); }

private:
    template <class K, class V, class VOut, class Supplier>
    friend class dsl_detail::transform_values_getter;

    const detail::node* owner_;
    std::optional<std::int64_t> row_timestamp_;  ///< set while a join's getter runs the transformer
};

/// Kafka's ValueTransformerWithKey: transform(key, value) gives the new value of a row. A null
/// value (a deleted or absent row) comes as nullopt, and returning nullopt deletes the row.
template <class K, class V, class VOut>
class value_transformer_with_key {
public:
    using key_type = K;
    using value_in = V;
    using value_out = VOut;

    virtual ~value_transformer_with_key() = default;
    virtual void init(value_transformer_context& ctx) { context_ = &ctx; }
    virtual nullable<VOut> transform(const K& key, const nullable<V>& value) = 0;
    virtual void close() {}

protected:
    value_transformer_context& context() const { return *context_; }

private:
    value_transformer_context* context_ = nullptr;
};

template <class T>
concept value_transformer_type = requires {
    typename T::key_type;
    typename T::value_in;
    typename T::value_out;
} && std::derived_from<T, value_transformer_with_key<typename T::key_type, typename T::value_in, typename T::value_out>>;

}  // namespace kstreams
