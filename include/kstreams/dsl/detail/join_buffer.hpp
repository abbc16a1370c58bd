// The byte layout of a stream-table join's grace buffer (Kafka's RocksDBTimeOrderedKeyValueBuffer,
// KIP-923), so that its changelog is Kafka's: key `0x00 ‖ 8-byte BE timestamp ‖ key bytes ‖ 4-byte
// BE sequence number` (the time-first schema's prefix, then time first, so the store's order is
// the buffer's), value Kafka's BufferValue (the record context: timestamp, offset, topic,
// partition, headers; no prior or old value; the new value) followed by an 8-byte buffer time of 0.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <kstreams/record.hpp>

namespace kstreams {
class store_builder;
}

namespace kstreams::dsl_detail {

/// The buffer's store: persistent, logged without timestamps or headers, never cached; defined in
/// lib/state/join_buffer_store.cpp.
std::shared_ptr<store_builder> join_buffer_store(std::string name);

std::string join_buffer_key(std::int64_t timestamp, std::string_view key, std::int32_t seqnum);
std::int64_t join_buffer_key_time(std::string_view buffer_key);
std::string_view join_buffer_key_bytes(std::string_view buffer_key);

/// `md` may be null (a record not from a topic): offset -1, no topic, partition -1.
std::string join_buffer_value(std::string_view value, std::int64_t timestamp, const record_metadata* md,
                              const headers& hdrs);

struct join_buffer_entry {
    std::int64_t timestamp = 0;
    std::string value;  ///< the stream value's bytes
    headers hdrs;
};
join_buffer_entry read_join_buffer_value(std::string_view bytes);

}  // namespace kstreams::dsl_detail
