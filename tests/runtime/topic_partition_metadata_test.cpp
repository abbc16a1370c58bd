// Kafka Streams' offset metadata (lib/runtime/topic_partition_metadata.hpp): partition time and
// processor metadata, base64, as Kafka's TopicPartitionMetadata writes and reads it.
#include <doctest/doctest.h>

#include "lib/runtime/topic_partition_metadata.hpp"

using namespace kstreams::detail;

TEST_CASE("topic partition metadata: version 2 with processor metadata, byte for byte as Kafka's") {
    // Kafka's TopicPartitionMetadata(100, {"some_key": 100}).encode()
    const std::string kafka = "AgAAAAAAAABkAAAAAQAAAAhzb21lX2tleQAAAAAAAABk";
    CHECK(encode_topic_partition_metadata({100, {{"some_key", 100}}}) == kafka);
    const auto m = decode_topic_partition_metadata(kafka);
    REQUIRE(m);
    CHECK(m->partition_time == 100);
    CHECK(m->processors == processor_metadata_map{{"some_key", 100}});
    // No processor metadata: the version byte and the partition time only.
    CHECK(encode_topic_partition_metadata({100, {}}) == "AgAAAAAAAABk");
}

TEST_CASE("topic partition metadata: version 1 (partition time only) is read; what is not Kafka's is not") {
    const auto v1 = decode_topic_partition_metadata("AQAAAAAAAABk");
    REQUIRE(v1);
    CHECK(v1->partition_time == 100);
    CHECK(v1->processors.empty());
    CHECK(!decode_topic_partition_metadata("kstreams-recompute:1:5;"));
    CHECK(!decode_topic_partition_metadata("AwAAAAAAAABk"));  // version 3: unknown
    CHECK(!decode_topic_partition_metadata("AgAAAAAAAABkAAAAAQAAAAhzb21l"));  // cut inside an entry
    CHECK(!decode_topic_partition_metadata(""));
}
