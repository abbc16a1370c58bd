// split(): branches of a stream. branch(pred, branched::as(name)) adds a branch; the first branch
// whose predicate holds takes a record; default_branch() takes the rest, or no_default_branch()
// drops them. The result maps branch names (split's name, or KSTREAM-BRANCH-<n>, followed by the
// branch's name or position from 1; the default branch is position 0) to streams.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/ops/branch.hpp>
#include <kstreams/dsl/ops/passthrough.hpp>

namespace kstreams {

template <class K, class V> class kstream;

template <class K, class V>
class branched_kstream {
public:
    template <class F>
    branched_kstream& branch(F pred, branched b = {}) {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: branch(): the predicate must take (key, value) or (value) of this stream's types");
        add_branch([pred](const K& k, const V& v) mutable { return static_cast<bool>(dsl_detail::call_kv(pred, k, v)); }, b,
                   index_++);
        return *this;
    }
    std::map<std::string, kstream<K, V>> default_branch(branched b = {}) {
        add_branch([](const K&, const V&) { return true; }, b, 0);
        return std::move(result_);
    }
    std::map<std::string, kstream<K, V>> no_default_branch() { return std::move(result_); }

private:
    template <class, class> friend class kstream;

    branched_kstream(const kstream<K, V>& parent, std::string splitter, std::size_t node,
                     std::shared_ptr<dsl_detail::branch_spec<K, V>> spec)
        : parent_(parent), splitter_(std::move(splitter)), node_(node), spec_(std::move(spec)) {}

    void add_branch(std::function<bool(const K&, const V&)> pred, const branched& b, int index) {
        const std::string name = splitter_ + (b.name.empty() ? std::to_string(index) : b.name);
        parent_.b_->new_processor_name(name);  // Kafka Streams burns an index per branch
        spec_->predicates.push_back(std::move(pred));
        spec_->children.push_back(name);
        const std::size_t i = parent_.b_->add(
            dsl_detail::processor_node_of<K, V, K, V, dsl_detail::passthrough_node<K, V>>(name, {node_}));
        result_.insert_or_assign(name, kstream<K, V>(parent_.b_, i, parent_.repartition_required_, parent_.key_serde_, parent_.value_serde_));
    }

    kstream<K, V> parent_;
    std::string splitter_;
    std::size_t node_;
    std::shared_ptr<dsl_detail::branch_spec<K, V>> spec_;
    std::map<std::string, kstream<K, V>> result_;
    int index_ = 1;
};

}  // namespace kstreams
