// Async processors (beyond Kafka Streams, which has none): a processor whose process() is a
// coroutine that may co_await, for example a lookup on the application's executor.
//
//     struct enrich final : kstreams::async_processor<std::string, std::string, std::string, std::string> {
//         kstreams::awaitable<void> process(kstreams::record<std::string, std::string> r,
//                                           kstreams::async_forwarder<std::string, std::string> out) override {
//             auto ex = co_await boost::asio::this_coro::executor;  // the task's executor
//             std::string extra = co_await my_service.lookup(ex, r.key);
//             out.forward(r.with_value(r.value + extra));
//         }
//     };
//     builder.stream<std::string, std::string>("in").process_async([] { return std::make_unique<enrich>(); });
//     stream.map_values_async([](const std::string& v) -> kstreams::awaitable<std::string> { ... });
//
// Rules: records of one key are processed one after the other, in order; records of different keys
// overlap, up to `max_async_in_flight_per_task` records in flight per task (the runtime stops
// feeding a task at the bound). A commit covers only input offsets whose records have completed, so
// after a crash a record in flight is processed again. Punctuations and closing wait for the records
// in flight. An exception escaping process() stops the task as a synchronous processor's does,
// naming the record. Forward through `out` (it restores the record's metadata and context for the
// processors downstream); stores written by the async processor itself after a co_await see the
// record context of whatever ran last, so write state downstream or before the first co_await.
//
// Opt-in: this header pulls in Asio's awaitable and co_spawn, which the rest of the public API
// (kstream.hpp, topology.hpp) never does; include it where async processors are written.
#pragma once

#include <concepts>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/dsl/detail/null_value_guard.hpp>
#include <kstreams/error.hpp>
#include <kstreams/processor.hpp>
#include <kstreams/record.hpp>

namespace kstreams {

template <class T = void>
using awaitable = boost::asio::awaitable<T>;

namespace detail {

/// The task side of async processing, implemented by the runtime's task.
class async_host {
public:
    virtual ~async_host() = default;
    /// Where async processors run: the task's executor (the thread that runs the task).
    virtual boost::asio::any_io_executor executor() = 0;
    /// An async node took the record being processed: until end_async(), commits do not pass its
    /// input offset and the task counts it in flight. Returns the token for the calls below.
    virtual void* begin_async() = 0;
    /// Runs fn(arg) as if the token's input record were being processed (its metadata).
    virtual void resume_async(void* token, void (*fn)(void*), void* arg) = 0;
    /// The record's processing threw: the task fails with an error naming the record and `where`.
    virtual void fail_async(void* token, std::exception_ptr e, const node& where) noexcept = 0;
    /// The record completed (or failed).
    virtual void end_async(void* token) noexcept = 0;
    /// Topic, partition and offset of the token's input record; nullptr for one that came from a
    /// punctuation or a cache flush.
    virtual const record_metadata* async_metadata(void* token) const = 0;
};

/// What an async node shares with its coroutines: they may outlive the node (a task closed
/// without waiting), and then they only finish without touching the task.
struct async_node_core {
    node* self = nullptr;
    async_host* host = nullptr;
    bool alive = false;
};

}  // namespace detail

/// Forwards the results of one in-flight record downstream, with that record's metadata.
template <class K, class V>
class async_forwarder {
public:
    async_forwarder(std::shared_ptr<detail::async_node_core> core, void* token)
        : core_(std::move(core)), token_(token) {
        if (!core_->alive) return;
        if (const record_metadata* m = core_->host->async_metadata(token_)) {
            topic_ = std::string(m->topic);
            partition_ = m->partition;
            offset_ = m->offset;
            anchored_ = true;
        }
    }

    /// Passes a record to every child of the processor (nothing if its task was closed meanwhile).
    void forward(const record<K, V>& r) const { run(r, nullptr); }
    /// Passes a record to the named child only; throws streams_error if there is no such child.
    void forward(const record<K, V>& r, std::string_view child) const { run(r, &child); }
    /// Topic, partition and offset of the input record this one came from (valid across co_await,
    /// unlike the processor context's, which follows whatever the task runs, and still after the
    /// task closed); nullopt for a record forwarded by a punctuation.
    std::optional<record_metadata> metadata() const {
        if (!anchored_) return std::nullopt;
        return record_metadata{topic_, partition_, offset_};
    }

private:
    struct call {
        detail::node* self;
        const record<K, V>* r;
        const std::string_view* child;
    };
    void run(const record<K, V>& r, const std::string_view* child) const {
        if (!core_->alive) return;
        call c{core_->self, &r, child};
        core_->host->resume_async(token_, &thunk, &c);
    }
    static void thunk(void* p) {
        auto& c = *static_cast<call*>(p);
        if (c.child) {
            c.self->forward_to(c.self->child_named(*c.child), *c.r);
        } else {
            c.self->forward(*c.r);
        }
    }

    std::shared_ptr<detail::async_node_core> core_;
    void* token_;
    std::string topic_;  ///< the input record's metadata, kept: the task may close meanwhile
    std::int32_t partition_ = -1;
    std::int64_t offset_ = -1;
    bool anchored_ = false;
};

/// A processor whose process() is a coroutine. One instance per task; init() and close() as for
/// processor<>. process() gets its record by value (it lives in the coroutine) and forwards
/// through `out`.
template <class KIn, class VIn, class KOut, class VOut>
class async_processor : public detail::processor_base<KIn, VIn, KOut, VOut> {
public:
    static constexpr bool kstreams_async_processor = true;
    virtual awaitable<void> process(record<KIn, VIn> r, async_forwarder<KOut, VOut> out) = 0;
};

template <class P>
concept async_processor_type =
    std::derived_from<P, async_processor<typename P::key_in, typename P::value_in, typename P::key_out,
                                         typename P::value_out>>;

namespace detail {

/// The key chains of an async node: one coroutine per key with records in flight; the records of
/// a busy key wait behind it, in order.
template <class K, class V, class KOut, class VOut>
class async_core : public async_node_core {
public:
    static_assert(std::totally_ordered<K>,
                  "kstreams: an async processor keeps the records of one key in order, so its key type needs "
                  "operator< and operator==");
    using in_record = record<K, V>;
    using key_slot = std::pair<bool, K>;  ///< (null key, key)

    virtual ~async_core() = default;
    /// The user's part for one record.
    virtual awaitable<void> call(in_record r, async_forwarder<KOut, VOut> out) = 0;

    static void accept(const std::shared_ptr<async_core>& core, const in_record& r) {
        void* token = core->host->begin_async();
        key_slot key{has_null_key(r), r.key};
        auto [it, fresh] = core->chains_.try_emplace(key);
        if (!fresh) {
            it->second.push_back({r, token});
            return;
        }
        boost::asio::co_spawn(core->host->executor(), drive(core, std::move(key), r, token),
                              [](std::exception_ptr) {});  // drive() routes every error itself
    }

private:
    struct waiting {
        in_record r;
        void* token;
    };

    /// Runs the records of one key one after the other until none is waiting.
    static awaitable<void> drive(std::shared_ptr<async_core> core, key_slot key, in_record r, void* token) {
        for (;;) {
            if (!core->alive) co_return;  // the task closed before the record started
            std::exception_ptr error;
            try {
                co_await core->call(std::move(r), async_forwarder<KOut, VOut>(core, token));
            } catch (...) {
                error = std::current_exception();
            }
            if (!core->alive) co_return;  // the task closed without waiting: drop the result
            if (error) core->host->fail_async(token, error, *core->self);
            core->host->end_async(token);
            auto it = core->chains_.find(key);
            if (it == core->chains_.end() || it->second.empty()) {
                if (it != core->chains_.end()) core->chains_.erase(it);
                co_return;
            }
            r = std::move(it->second.front().r);
            token = it->second.front().token;
            it->second.pop_front();
        }
    }

    std::map<key_slot, std::deque<waiting>> chains_;
};

/// The graph node of an async processor or DSL operator: it copies each record into its core.
template <class K, class V, class KOut, class VOut>
class async_node_base : public node {
public:
    using core_type = async_core<K, V, KOut, VOut>;
    async_node_base(std::string name, std::shared_ptr<core_type> core) : node(std::move(name)), core_(std::move(core)) {}

    void init(task_context& ctx) override {
        node::init(ctx);
        core_->self = this;
        core_->host = ctx.async();
        if (!core_->host)
            throw topology_error("processor " + name() + " is asynchronous and this runner does not run async processors");
        core_->alive = true;
    }
    void process_erased(const void* rec) override {
        core_type::accept(core_, *static_cast<const record<K, V>*>(rec));
    }
    void close() override { core_->alive = false; }

protected:
    std::shared_ptr<core_type> core_;
};

/// Runs a user async_processor.
template <class P>
class async_processor_node final
    : public async_node_base<typename P::key_in, typename P::value_in, typename P::key_out, typename P::value_out> {
    using base = async_node_base<typename P::key_in, typename P::value_in, typename P::key_out, typename P::value_out>;
    struct core final : base::core_type {
        std::shared_ptr<P> p;  // shared with the coroutines: they may run on after the node closed
        std::optional<processor_context<typename P::key_out, typename P::value_out>> context;
        awaitable<void> call(typename base::core_type::in_record r,
                             async_forwarder<typename P::key_out, typename P::value_out> out) override {
            co_await p->process(std::move(r), std::move(out));
        }
    };

public:
    async_processor_node(std::string name, std::unique_ptr<P> p) : base(std::move(name), make_core(std::move(p))) {}

    void init(task_context& ctx) override {
        base::init(ctx);
        core& c = static_cast<core&>(*this->core_);
        c.context.emplace(*this, ctx);
        c.p->init(*c.context);
    }
    void close() override {
        base::close();
        static_cast<core&>(*this->core_).p->close();
    }

private:
    static std::shared_ptr<core> make_core(std::unique_ptr<P> p) {
        auto c = std::make_shared<core>();
        c->p = std::move(p);
        return c;
    }
};

}  // namespace detail

namespace dsl_detail {

/// map_values_async: f(value) or f(key, value) returns awaitable<V2>, the new value.
template <class K, class V, class V2, class F>
class async_map_values_node final : public kstreams::detail::async_node_base<K, V, K, V2> {
    using base = kstreams::detail::async_node_base<K, V, K, V2>;
    struct core final : base::core_type {
        explicit core(F fn) : f(std::move(fn)) {}
        F f;
        static constexpr bool two = std::invocable<F&, const K&, const V&>;
        static constexpr bool optional_key = two && !is_optional_v<K> && declares_optional<F, 2, 0, K>();
        static constexpr bool optional_value =
            !is_optional_v<V> && declares_optional<F, two ? 2 : 1, two ? 1 : 0, V>();
        awaitable<void> call(record<K, V> r, async_forwarder<K, V2> out) override {
            // As call_kv with Kafka's nulls, but the arguments live in this frame: f's coroutine
            // starts suspended and may hold them by reference (a temporary optional would be gone).
            decltype(auto) key = declared_argument<optional_key>(r.key, r.key_null);
            decltype(auto) value = declared_argument<optional_value>(r.value, r.value_null);
            V2 v = co_await [&] {
                if constexpr (two) return std::invoke(f, key, value);
                else return std::invoke(f, value);
            }();
            out.forward(record<K, V2>{r.key, std::move(v), r.timestamp, r.headers, r.key_null, false});
        }
    };

public:
    async_map_values_node(std::string name, F f) : base(std::move(name), std::make_shared<core>(std::move(f))) {}
    /// As map_values: a null value reaches only a function declaring std::optional for it.
    void process_erased(const void* rec) override {
        if (drop_null_value_for<F>(*static_cast<const record<K, V>*>(rec), *this)) return;
        base::process_erased(rec);
    }
};

}  // namespace dsl_detail
}  // namespace kstreams
