// The Processor API: the lowest level a topology is written at; the DSL is built on it.
#pragma once

#include <chrono>
#include <concepts>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>

#include <kstreams/context_info.hpp>
#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/error.hpp>
#include <kstreams/punctuation.hpp>
#include <kstreams/record.hpp>
#include <kstreams/serde.hpp>
#include <kstreams/task_id.hpp>

namespace kstreams {

class state_store;

/// What a processor sees of its task: forwarding, punctuation, stores, metadata and time, and (from
/// context_info) the app's configuration, the task's directory and user metrics.
template <class KOut, class VOut>
class processor_context : public context_info {
public:
    processor_context(detail::node& self, detail::task_context& task) : context_info(task), self_(&self) {}

    /// Passes a record to every child of this processor.
    void forward(const record<KOut, VOut>& r) const { self_->forward(r); }
    /// Passes a record to the named child only; throws streams_error if there is no such child.
    void forward(const record<KOut, VOut>& r, std::string_view child) const {
        self_->forward_to(self_->child_named(child), r);
    }

    /// Calls `callback` every `interval` of stream time or wall-clock time, until cancelled.
    cancellable schedule(std::chrono::milliseconds interval, punctuation_type type,
                         punctuator callback) const {
        return task_->schedule(*self_, interval, type, std::move(callback));
    }

    /// The store of this name connected to this processor, as type S (for example
    /// key_value_store<K, V>). Throws topology_error if it is not connected or not an S.
    template <class S>
    S& get_state_store(std::string_view name) const {
        state_store& s = task_->store(name, *self_);
        if (auto* typed = dynamic_cast<S*>(&s)) return *typed;
        throw topology_error("processor " + self_->name() + ": store " + std::string(name) +
                             " is not a " + typeid(S).name());
    }

    /// Topic, partition and offset of the record being processed; nullopt inside a punctuation.
    std::optional<record_metadata> metadata() const {
        const record_metadata* m = task_->current_metadata();
        return m ? std::optional<record_metadata>(*m) : std::nullopt;
    }
    std::int64_t current_stream_time_ms() const { return task_->stream_time(); }
    std::int64_t current_system_time_ms() const { return task_->wall_clock_time(); }
    /// Asks the runtime to commit soon (after the current record).
    void commit() const { task_->request_commit(); }
    const std::string& processor_name() const { return self_->name(); }
    /// The default serde of the output key type, or of T (Kafka's keySerde(): kstreams picks
    /// serdes by type, so the default serde is the type's, kstreams::serde<T>).
    template <class T = KOut>
    kstreams::serde<T> key_serde() const {
        static_assert(require_default_serde<T>());
        return {};
    }
    /// The default serde of the output value type, or of T (Kafka's valueSerde()).
    template <class T = VOut>
    kstreams::serde<T> value_serde() const {
        static_assert(require_default_serde<T>());
        return {};
    }

private:
    detail::node* self_;
};

namespace detail {

/// What processor<> and async_processor<> (kstreams/async.hpp) share: their types, init() with the
/// context, close().
template <class KIn, class VIn, class KOut, class VOut>
class processor_base {
public:
    using key_in = KIn;
    using value_in = VIn;
    using key_out = KOut;
    using value_out = VOut;
    using context_type = processor_context<KOut, VOut>;

    virtual ~processor_base() = default;
    virtual void init(context_type& ctx) { context_ = &ctx; }
    virtual void close() {}

protected:
    context_type& context() const { return *context_; }

private:
    context_type* context_ = nullptr;
};

}  // namespace detail

/// A processor: init() once, process() for each record, close() at the end. One instance per task.
template <class KIn, class VIn, class KOut, class VOut>
class processor : public detail::processor_base<KIn, VIn, KOut, VOut> {
public:
    virtual void process(const record<KIn, VIn>& r) = 0;
};

/// A processor whose key passes through unchanged (process_values in the DSL).
template <class K, class VIn, class VOut>
using fixed_key_processor = processor<K, VIn, K, VOut>;

template <class P>
concept processor_type = requires {
    typename P::key_in;
    typename P::value_in;
    typename P::key_out;
    typename P::value_out;
} && std::derived_from<P, processor<typename P::key_in, typename P::value_in, typename P::key_out,
                                    typename P::value_out>>;

namespace detail {

/// Runs an async processor (defined in kstreams/async.hpp, which such a processor's definition
/// includes); the marker lets topology.hpp and kstream.hpp accept one without pulling in Asio.
template <class P>
class async_processor_node;
template <class P>
concept async_processor_marked = requires { P::kstreams_async_processor; };

/// Runs a user processor inside the erased graph.
template <processor_type P>
class processor_node final : public node {
public:
    using in_record = record<typename P::key_in, typename P::value_in>;
    processor_node(std::string name, std::unique_ptr<P> p) : node(std::move(name)), p_(std::move(p)) {}

    void init(task_context& ctx) override {
        node::init(ctx);
        context_.emplace(*this, ctx);
        p_->init(*context_);
    }
    void process_erased(const void* rec) override { p_->process(*static_cast<const in_record*>(rec)); }
    void close() override { p_->close(); }

private:
    std::unique_ptr<P> p_;
    std::optional<processor_context<typename P::key_out, typename P::value_out>> context_;
};

}  // namespace detail
}  // namespace kstreams
