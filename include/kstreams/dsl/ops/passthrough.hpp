// A node that forwards what it gets: merge, and the branches of split.
#pragma once

#include <kstreams/detail/node.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

template <class K, class V>
class passthrough_node final : public kstreams::detail::node {
public:
    using node::node;
    void process_erased(const void* p) override { forward(*static_cast<const record<K, V>*>(p)); }
};

}  // namespace kstreams::dsl_detail
