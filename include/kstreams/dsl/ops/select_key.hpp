// select_key: a new key computed from key and value (key-changing); the value is kept.
#pragma once

#include <kstreams/detail/node.hpp>
#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

template <class K, class V, class K2, class F>
class select_key_node final : public kstreams::detail::node {
public:
    select_key_node(std::string name, F f) : node(std::move(name)), f_(std::move(f)) {}
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        forward_in_context(record<K2, V>{K2(call_kv(f_, r.key, r.value, r.key_null, r.value_null)), r.value, r.timestamp, r.headers, false, r.value_null});
    }

private:
    F f_;
};

}  // namespace kstreams::dsl_detail
