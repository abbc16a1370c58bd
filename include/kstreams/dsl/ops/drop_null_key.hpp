// Before a grouping's repartition topic: a record with a null key cannot be grouped, so it is
// dropped here (and counted) instead of travelling through Kafka.
#pragma once

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/metrics.hpp>
#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

template <class K, class V>
class drop_null_key_node final : public kstreams::detail::node {
public:
    using node::node;
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const record<K, V>*>(p);
        if (has_null_key(r)) {
            ctx_->record_dropped(metric::dropped_null_key, *this);
            return;
        }
        forward(r);
    }
};

}  // namespace kstreams::dsl_detail
