// Timestamp extractors (Kafka's TimestampExtractor implementations), for
// consumed::with_timestamp_extractor and source_options::extractor. An extractor gets
// the record as it came from Kafka and the partition's time so far (the largest timestamp
// extracted from it, -1 before the first); a negative result skips the record (counted in
// `skipped-records`), an exception stops the stream thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/topology_model.hpp>
#include <kstreams/serde.hpp>

namespace kstreams::timestamp_extractors {

/// Kafka's FailOnInvalidTimestamp (what a source without an extractor does): the record's own
/// timestamp; a negative one stops the stream thread with an error naming the record.
timestamp_extractor fail_on_invalid_timestamp();
/// Kafka's LogAndSkipOnInvalidTimestamp: the record's own timestamp; a record with a negative one
/// is skipped (logged and counted).
timestamp_extractor log_and_skip_on_invalid_timestamp();
/// Kafka's UsePartitionTimeOnInvalidTimestamp: a negative timestamp is replaced by the partition's
/// time so far; before the partition has one, the stream thread stops.
timestamp_extractor use_partition_time_on_invalid_timestamp();
/// Kafka's WallclockTimestampExtractor: the system's clock (milliseconds since the epoch) when the
/// record is read, whatever the record says (the test driver's manual clock is not this clock).
timestamp_extractor wall_clock();

/// One of the above by Kafka's class name, simple or qualified (`WallclockTimestampExtractor`,
/// `org.apache.kafka.streams.processor.FailOnInvalidTimestamp`, ...); nullopt for another name.
std::optional<timestamp_extractor> by_class_name(std::string_view name);

/// An extractor of one's own over the deserialized record: f(key, value, partition_time) ->
/// timestamp (or f(value, partition_time)). A null key or value on the wire comes as K{} / V{}
/// (declare std::optional types to see them as nullopt); a key or value that cannot be
/// deserialized throws as a source would.
template <class K, class V, class F, class KS = default_serde_t<K>, class VS = default_serde_t<V>>
timestamp_extractor from_record(F f, KS ks = KS{}, VS vs = VS{}) {
    return [f = std::move(f), ks = std::move(ks), vs = std::move(vs)](const detail::raw_record& r,
                                                                      std::int64_t partition_time) mutable -> std::int64_t {
        K key = r.key ? K(ks.deserialize(*r.key)) : K{};
        V value = r.value ? V(vs.deserialize(*r.value)) : V{};
        if constexpr (std::is_invocable_v<F&, const K&, const V&, std::int64_t>)
            return f(key, value, partition_time);
        else
            return f(value, partition_time);
    };
}

}  // namespace kstreams::timestamp_extractors
