// What Kafka Streams commits as an input partition's offset metadata (TopicPartitionMetadata):
// base64 of a version byte, the partition time (8 bytes, big-endian) and, from version 2, the
// processor metadata (a 4-byte count, then per entry a 4-byte key length, the key in UTF-8 and an
// 8-byte value). kstreams writes version 2 when processors set metadata, and reads 1 and 2.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace kstreams::detail {

using processor_metadata_map = std::map<std::string, std::int64_t, std::less<>>;

struct topic_partition_metadata {
    std::int64_t partition_time = -1;
    processor_metadata_map processors;
};

std::string encode_topic_partition_metadata(const topic_partition_metadata& m);
/// nullopt when `text` is not Kafka Streams' metadata (not base64, an unknown version, short).
std::optional<topic_partition_metadata> decode_topic_partition_metadata(std::string_view text);

}  // namespace kstreams::detail
