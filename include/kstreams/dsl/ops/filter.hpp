// filter / filter_not: forwards the records for which the predicate holds (or does not).
#pragma once

#include <kstreams/detail/node.hpp>
#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

template <class K, class V, class F>
class filter_node final : public kstreams::detail::node {
public:
    filter_node(std::string name, F f, bool negate) : node(std::move(name)), f_(std::move(f)), negate_(negate) {}
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        if (static_cast<bool>(call_kv(f_, r.key, r.value, r.key_null, r.value_null)) != negate_) forward_in_context(r);
    }

private:
    F f_;
    bool negate_;
};

}  // namespace kstreams::dsl_detail
