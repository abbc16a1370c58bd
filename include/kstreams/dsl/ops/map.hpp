// map: a new key and value for each record (key-changing); timestamp and headers are kept.
#pragma once

#include <kstreams/detail/node.hpp>
#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/dsl/detail/null_value_guard.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

template <class K, class V, class K2, class V2, class F>
class map_node final : public kstreams::detail::node {
public:
    map_node(std::string name, F f) : node(std::move(name)), f_(std::move(f)) {}
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        if (drop_null_value_for<F>(r, *this)) return;
        auto kv = call_kv(f_, r.key, r.value, r.key_null, r.value_null);
        forward_in_context(record<K2, V2>{K2(pair_key(std::move(kv))), V2(pair_value(std::move(kv))), r.timestamp, r.headers});
    }

private:
    F f_;
};

}  // namespace kstreams::dsl_detail
