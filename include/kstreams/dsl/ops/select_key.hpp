// select_key: a new key computed from key and value (key-changing); the value is kept.
#pragma once

#include <optional>

#include <kstreams/detail/node.hpp>
#include <kstreams/dsl/detail/callable.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

template <class K, class V, class K2, class F>
class select_key_node final : public kstreams::detail::node {
public:
    select_key_node(std::string name, F f) : node(std::move(name)), f_(std::move(f)) {}
    void process_erased(const void* p) override { forward_in_context(apply(*static_cast<const record<K, V>*>(p))); }
    bool fusable() const override { return true; }
    const void* step(const void* p) override { return &out_.emplace(apply(*static_cast<const record<K, V>*>(p))); }

private:
    record<K2, V> apply(const record<K, V>& r) {
        return {K2(call_kv(f_, r.key, r.value, r.key_null, r.value_null)), r.value, r.timestamp, r.headers, false, r.value_null};
    }

    F f_;
    std::optional<record<K2, V>> out_;  ///< step()'s output
};

}  // namespace kstreams::dsl_detail
