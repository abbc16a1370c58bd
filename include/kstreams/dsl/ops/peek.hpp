// peek: calls a function for each record, then forwards it unchanged.
#pragma once

#include <kstreams/detail/node.hpp>
#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

template <class K, class V, class F>
class peek_node final : public kstreams::detail::node {
public:
    peek_node(std::string name, F f) : node(std::move(name)), f_(std::move(f)) {}
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        call_kv(f_, r.key, r.value, r.key_null, r.value_null);
        forward_in_context(r);
    }

private:
    F f_;
};

}  // namespace kstreams::dsl_detail
