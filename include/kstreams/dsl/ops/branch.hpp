// split: one node that sends each record to the first branch whose predicate holds; the default
// branch (a predicate that always holds, last) takes the rest, or the record is dropped.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <kstreams/detail/node.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

template <class K, class V>
struct branch_spec {
    std::vector<std::function<bool(const record<K, V>&)>> predicates;
    std::vector<std::string> children;  ///< the branch nodes, in predicate order
};

template <class K, class V>
class branch_node final : public kstreams::detail::node {
public:
    branch_node(std::string name, std::shared_ptr<const branch_spec<K, V>> spec)
        : node(std::move(name)), spec_(std::move(spec)) {}
    void init(kstreams::detail::task_context& ctx) override {
        node::init(ctx);
        targets_.clear();
        for (const auto& c : spec_->children) targets_.push_back(&child_named(c));
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        for (std::size_t i = 0; i < targets_.size(); ++i)
            if (spec_->predicates[i](r)) {
                forward_to(*targets_[i], r);
                return;
            }
    }

private:
    std::shared_ptr<const branch_spec<K, V>> spec_;
    std::vector<node*> targets_;
};

}  // namespace kstreams::dsl_detail
