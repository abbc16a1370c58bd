// split(): branches of a stream. branch(pred, branched::as(name)) adds a branch; the first branch
// whose predicate holds takes a record; default_branch() takes the rest, or no_default_branch()
// drops them. The result maps branch names (split's name, or KSTREAM-BRANCH-<n>, followed by the
// branch's name or position from 1; the default branch is position 0) to streams.
// branched::with_function / with_consumer run a chain on the branch's stream at once, as Kafka's
// Branched does (so the chain's operators are numbered before the next branch's).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/dsl/detail/handle.hpp>
#include <kstreams/dsl/options.hpp>
#include <kstreams/dsl/ops/branch.hpp>
#include <kstreams/dsl/ops/passthrough.hpp>

namespace kstreams {

template <class K, class V> class kstream;

template <class K, class V>
class branched_kstream {
public:
    template <class F, class B = branched>
    branched_kstream& branch(F pred, B b = {}) {
        static_assert(dsl_detail::kv_invocable<F, K, V>, "kstreams: branch(): the predicate must take (key, value) or (value) of this stream's types");
        take(add_branch(
                 [pred](const record<K, V>& r) mutable {
                     return static_cast<bool>(dsl_detail::call_kv(pred, r.key, r.value, r.key_null, r.value_null));
                 },
                        b.name, index_++),
             b);
        return *this;
    }
    template <class B = branched>
    std::map<std::string, kstream<K, V>> default_branch(B b = {}) {
        take(add_branch([](const record<K, V>&) { return true; }, b.name, 0), b);
        return std::move(result_);
    }
    std::map<std::string, kstream<K, V>> no_default_branch() { return std::move(result_); }

private:
    template <class, class> friend class kstream;

    branched_kstream(const kstream<K, V>& parent, std::string splitter, std::size_t node,
                     std::shared_ptr<dsl_detail::branch_spec<K, V>> spec)
        : parent_(parent), splitter_(std::move(splitter)), node_(node), spec_(std::move(spec)) {}

    std::pair<std::string, kstream<K, V>> add_branch(std::function<bool(const record<K, V>&)> pred,
                                                      const std::string& branch_name, int index) {
        const std::string name = splitter_ + (branch_name.empty() ? std::to_string(index) : branch_name);
        parent_.b_->new_processor_name(name);  // Kafka Streams burns an index per branch
        spec_->predicates.push_back(std::move(pred));
        spec_->children.push_back(name);
        const std::size_t i = parent_.b_->add(
            dsl_detail::processor_node_of<K, V, K, V, dsl_detail::passthrough_node<K, V>>(name, {node_}));
        return {name, kstream<K, V>(parent_.b_, i, parent_.repartition_required_, parent_.key_serde_, parent_.value_serde_)};
    }
    void take(std::pair<std::string, kstream<K, V>> branch, const branched&) {
        result_.insert_or_assign(std::move(branch.first), std::move(branch.second));
    }
    template <class Fn>
    void take(std::pair<std::string, kstream<K, V>> branch, branched_function<Fn>& b) {
        using result = std::invoke_result_t<Fn&, kstream<K, V>>;
        if constexpr (std::is_same_v<result, kstream<K, V>>) {
            result_.insert_or_assign(std::move(branch.first), b.chain(std::move(branch.second)));
        } else {
            static_assert(std::is_same_v<result, std::optional<kstream<K, V>>>,
                          "kstreams: branched::with_function(): the chain must take this stream and return a "
                          "kstream of the same key and value types (or a std::optional of one; empty leaves the "
                          "branch out of split's result)");
            if (auto s = b.chain(std::move(branch.second))) result_.insert_or_assign(std::move(branch.first), std::move(*s));
        }
    }
    template <class Fn>
    void take(std::pair<std::string, kstream<K, V>> branch, branched_consumer<Fn>& b) {
        static_assert(std::is_invocable_v<Fn&, kstream<K, V>>,
                      "kstreams: branched::with_consumer(): the chain must take this stream");
        b.chain(std::move(branch.second));
    }

    kstream<K, V> parent_;
    std::string splitter_;
    std::size_t node_;
    std::shared_ptr<dsl_detail::branch_spec<K, V>> spec_;
    std::map<std::string, kstream<K, V>> result_;
    int index_ = 1;
};

}  // namespace kstreams
