// The type-erased processor graph node the runtime wires together. Typed processors, sources and
// sinks (templates instantiated in user code) derive from it; the runtime sees only this.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <kstreams/detail/task_context.hpp>
#include <kstreams/record.hpp>

namespace kstreams::detail {

/// Raw bytes of a record as read from Kafka (or piped into the test driver).
struct raw_record {
    std::string_view topic;
    std::int32_t partition = 0;
    std::int64_t offset = 0;
    std::int64_t timestamp = 0;
    std::optional<std::string_view> key;
    std::optional<std::string_view> value;
    const kstreams::headers* hdrs = nullptr;
};

class node {
public:
    explicit node(std::string name) : name_(std::move(name)) {}
    node(const node&) = delete;
    node& operator=(const node&) = delete;
    virtual ~node() = default;

    /// Called once per task before any record, children already wired.
    virtual void init(task_context& ctx) { ctx_ = &ctx; }
    /// `rec` points to a record<K,V> of this node's input type (checked when the topology is built).
    virtual void process_erased(const void* rec) = 0;
    virtual void close() {}

    const std::string& name() const { return name_; }
    const std::vector<node*>& children() const { return children_; }
    void add_child(node* child) { children_.push_back(child); }
    /// The child with this name; throws streams_error naming both nodes if there is none.
    node& child_named(std::string_view name) const;
    task_context& context() const { return *ctx_; }

    /// Passes a record to every child; while they process it, the task's current record context
    /// is this record's timestamp and headers (restored afterwards, as Kafka's forward).
    template <class K, class V>
    void forward(const record<K, V>& r) const {
        if (!ctx_) {
            for (node* c : children_) c->process_erased(&r);
            return;
        }
        const context_scope scope(*ctx_, {r.timestamp, &r.headers});
        for (node* c : children_) process_child(*c, &r);
    }

    /// forward() for an operator whose output keeps the timestamp and headers of the record it
    /// processes (map_values, filter, map, select_key, peek): the current record context already
    /// is that record's (its parent's forward set it), so a single child runs in it as it is, with
    /// no context of its own. Only what a child changes in a context (a sink marks the raw bytes
    /// released) is put back afterwards, as forward() does; errors are handled as there.
    template <class K, class V>
    void forward_in_context(const record<K, V>& r) const {
        if (!ctx_ || children_.size() != 1) {
            forward(r);
            return;
        }
        const released_scope scope(ctx_->current_record_);
        process_child(*children_.front(), &r);
    }

    /// Passes a record to one child (Kafka's forward(record, childName), a split's branch): the
    /// same record context and error handling as forward().
    template <class K, class V>
    void forward_to(node& child, const record<K, V>& r) const {
        if (!ctx_) {
            child.process_erased(&r);
            return;
        }
        const context_scope scope(*ctx_, {r.timestamp, &r.headers});
        process_child(child, &r);
    }

protected:
    task_context* ctx_ = nullptr;

private:
    /// One child processes a forwarded record; what it throws goes to the processing handler
    /// (KIP-1033), which rethrows or drops the record at that child.
    void process_child(node& child, const void* rec) const {
        try {
            child.process_erased(rec);
        } catch (...) {
            ctx_->processing_failed(child);
        }
    }
    struct context_scope {
        // Each forward's context is a copy of the current one (Kafka's): raw bytes released before
        // stay released in it, and what a sink releases in it is back once the forward returns.
        context_scope(task_context& ctx, record_context rc) : ctx_(ctx), saved_(ctx.current_record_) {
            rc.raw_released = saved_.raw_released;
            ctx.current_record_ = rc;
        }
        ~context_scope() { ctx_.current_record_ = saved_; }
        context_scope(const context_scope&) = delete;
        context_scope& operator=(const context_scope&) = delete;
        task_context& ctx_;
        record_context saved_;
    };
    /// forward_in_context's part of context_scope: the raw-released flag back on the way out.
    struct released_scope {
        explicit released_scope(record_context& rc) : rc_(rc), saved_(rc.raw_released) {}
        ~released_scope() { rc_.raw_released = saved_; }
        released_scope(const released_scope&) = delete;
        released_scope& operator=(const released_scope&) = delete;
        record_context& rc_;
        bool saved_;
    };

private:
    std::string name_;
    std::vector<node*> children_;
};

/// A source: turns raw bytes into a typed record and forwards it.
class source_node : public node {
public:
    using node::node;
    /// Deserializes and forwards; a deserialization failure goes to the task's handler.
    virtual void process_raw(const raw_record& raw, std::int64_t timestamp) = 0;
    void process_erased(const void*) override;
};

}  // namespace kstreams::detail
