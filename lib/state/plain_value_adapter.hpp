// A persistent key-value store that keeps plain values under a store of timestamped values (Kafka's
// KeyValueToTimestampedKeyValueByteStoreAdapter): a DSL table or aggregation materialized with
// stores::persistent_key_value_store (not the timestamped one) stores each value without its
// timestamp and reads every row back with timestamp -1 (Kafka's NO_TIMESTAMP), so an aggregation's
// result takes the record's timestamp and a join the other side's. In-memory stores keep
// timestamped values as they are (Kafka's InMemoryTimestampedKeyValueStoreMarker).
#pragma once

#include <memory>

#include <kstreams/state/bytes_store.hpp>
#include <kstreams/state/window_store.hpp>

namespace kstreams::state {

/// `inner` put behind the adapter when it is a persistent store of plain values; else as it is.
std::unique_ptr<bytes_key_value_store> adapt_plain_values(std::unique_ptr<bytes_key_value_store> inner);
/// The same for window stores (Kafka's WindowToTimestampedWindowByteStoreAdapter): a store made by
/// stores::persistent_window_store under a windowed aggregation reads its windows back with
/// timestamp -1.
std::unique_ptr<bytes_window_store> adapt_plain_values(std::unique_ptr<bytes_window_store> inner);

}  // namespace kstreams::state
