// map_values: a new value for each record; the key (and so the partitioning) is kept.
#pragma once

#include <kstreams/detail/node.hpp>
#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/dsl/detail/null_value_guard.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

template <class K, class V, class V2, class F>
class map_values_node final : public kstreams::detail::node {
public:
    map_values_node(std::string name, F f) : node(std::move(name)), f_(std::move(f)) {}
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        if (drop_null_value_for<F>(r, *this)) return;
        forward_in_context(record<K, V2>{r.key, V2(call_kv(f_, r.key, r.value, r.key_null, r.value_null)), r.timestamp, r.headers, r.key_null, false});
    }

private:
    F f_;
};

}  // namespace kstreams::dsl_detail
