// ktable to_stream: the table's changelog as a stream; a deleted row is a record with a null value.
#pragma once

#include <kstreams/detail/node.hpp>
#include <kstreams/dsl/change.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

template <class K, class V>
class table_to_stream_node final : public kstreams::detail::node {
public:
    using node::node;
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, change<V>>*>(p);
        forward(with_nullable_value<K, V>(r, r.value.new_value, r.key));
    }
};

}  // namespace kstreams::dsl_detail
