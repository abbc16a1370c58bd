// Before a grouping's repartition topic: a record with a null key cannot be grouped, so it is
// dropped here instead of travelling through Kafka. Not counted in dropped-records: Kafka's is a
// plain KStreamFilter (k != null), which counts nothing.
#pragma once

#include <kstreams/detail/node.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

template <class K, class V>
class drop_null_key_node final : public kstreams::detail::node {
public:
    using node::node;
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        if (!has_null_key(r)) forward(r);
    }
};

}  // namespace kstreams::dsl_detail
