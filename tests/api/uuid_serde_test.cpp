// Kafka's UUIDSerde for kstreams::uuid: Java's UUID.toString() text, and what UUID.fromString()
// takes (including its short forms), anything else a deserialization_error.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include <kstreams/dsl.hpp>
#include <kstreams/error.hpp>
#include <kstreams/test/topology_test_driver.hpp>
#include <kstreams/uuid_serde.hpp>

using namespace kstreams;

TEST_CASE("uuid text as Java's UUID.toString and fromString") {
    const uuid u{0x123e4567e89b12d3ULL, 0xa456426614174000ULL};
    std::string bytes;
    serde<uuid>{}.serialize(u, bytes);
    CHECK(bytes == "123e4567-e89b-12d3-a456-426614174000");
    CHECK(serde<uuid>{}.deserialize("123E4567-E89B-12D3-A456-426614174000") == u);
    // Java's lenient form: five groups of hex, each masked to its width.
    CHECK(uuid::from_string("1-2-3-4-5")->to_string() == "00000001-0002-0003-0004-000000000005");
    CHECK(uuid::from_string("+1-2-3-4-5").has_value());
    CHECK(uuid::from_string("12345-2-3-4-5")->to_string() == "00012345-0002-0003-0004-000000000005");
    CHECK(uuid::from_string("1-12345-3-4-5")->to_string() == "00000001-2345-0003-0004-000000000005");
    for (const char* bad : {"", "1-2-3-4", "1-2-3-4-5-6", "1--3-4-5", "x-2-3-4-5", "123e4567-e89b-12d3-a456-4266141740000",
                            "123e4567e89b12d3a456426614174000"}) {
        CAPTURE(bad);
        CHECK_FALSE(uuid::from_string(bad).has_value());
        CHECK_THROWS_AS(serde<uuid>{}.deserialize(bad), deserialization_error);
    }
    CHECK(serde<uuid>{}.deserialize(u.to_string()) == u);
    CHECK(uuid{} == serde<uuid>{}.deserialize("00000000-0000-0000-0000-000000000000"));
}

TEST_CASE("uuid is a default serde: keys and values of a pipeline") {
    streams_builder b;
    b.stream<uuid, uuid>("in").map_values([](const uuid& v) { return uuid{v.least, v.most}; }).to("out");
    test::topology_test_driver d(b.build());
    auto in = d.create_input_topic<uuid, uuid>("in");
    in.pipe_input(uuid{1, 2}, uuid{3, 4}, 1);
    const auto& p = d.produced("out");
    REQUIRE(p.size() == 1);
    CHECK(p[0].key == std::optional<std::string>("00000000-0000-0001-0000-000000000002"));
    CHECK(p[0].value == std::optional<std::string>("00000000-0000-0004-0000-000000000003"));
}
