// Looking up the timestamped store an aggregation or a table node owns.
#pragma once

#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/error.hpp>
#include <kstreams/state/timestamped_key_value_store.hpp>

namespace kstreams::dsl_detail {

template <class K, class V>
timestamped_key_value_store<K, V>& timestamped_store(kstreams::detail::task_context& ctx,
                                                     const std::string& store, const kstreams::detail::node& self) {
    state_store& s = ctx.store(store, self);
    if (auto* typed = dynamic_cast<timestamped_key_value_store<K, V>*>(&s)) return *typed;
    throw topology_error("processor " + self.name() + ": store " + store +
                         " is not a timestamped key-value store of the processor's key and value types");
}

}  // namespace kstreams::dsl_detail
