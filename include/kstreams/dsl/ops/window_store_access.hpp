// Looking up the timestamped window or session store a windowed aggregation owns.
#pragma once

#include <cstdint>
#include <string>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/error.hpp>
#include <kstreams/state/session_store.hpp>
#include <kstreams/state/timestamped_key_value_store.hpp>
#include <kstreams/state/window_store.hpp>

namespace kstreams::dsl_detail {

template <class K, class V>
window_store<K, value_and_timestamp<V>>& timestamped_window_store(kstreams::detail::task_context& ctx, const std::string& store,
                                                                  const kstreams::detail::node& self) {
    state_store& s = ctx.store(store, self);
    if (auto* typed = dynamic_cast<window_store<K, value_and_timestamp<V>>*>(&s)) return *typed;
    throw topology_error("processor " + self.name() + ": store " + store +
                         " is not a timestamped window store of the processor's key and value types");
}

/// A windowed aggregation's store's retention if it says (kstreams' own stores), else `shortest`,
/// the least its windows need (the store then shows a window for less time, not more).
template <class K, class V>
std::int64_t window_store_retention(window_store<K, value_and_timestamp<V>>& store, std::int64_t shortest) {
    using typed = wrapped_store<window_store<K, value_and_timestamp<V>>, bytes_window_store>;
    if (auto* own = dynamic_cast<typed*>(&store)) return own->wrapped().retention_period();
    return shortest;
}

template <class K, class V>
session_store<K, V>& typed_session_store_of(kstreams::detail::task_context& ctx, const std::string& store,
                                            const kstreams::detail::node& self) {
    state_store& s = ctx.store(store, self);
    if (auto* typed = dynamic_cast<session_store<K, V>*>(&s)) return *typed;
    throw topology_error("processor " + self.name() + ": store " + store +
                         " is not a session store of the processor's key and value types");
}

}  // namespace kstreams::dsl_detail
