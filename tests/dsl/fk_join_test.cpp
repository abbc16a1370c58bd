// Foreign-key joins: the value hash against Kafka's Murmur3.hash128 (values printed by Java), the
// wire formats' round trips and Kafka's older subscription version, and what the test driver
// cannot produce on its own: a stale response (one for a left value that changed since), which the
// resolver drops.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;
using namespace kstreams::dsl_detail;
using str = std::string;

namespace {
str hex(const value_hash& h) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%016llx %016llx", static_cast<unsigned long long>(h[0]), static_cast<unsigned long long>(h[1]));
    return buf;
}
str bytes_from(std::size_t n) {
    str b;
    for (std::size_t i = 0; i < n; ++i) b.push_back(static_cast<char>(0x80 + i * 3));
    return b;
}
str hex_bytes(const str& b) {
    str out;
    char buf[4];
    for (unsigned char c : b) {
        std::snprintf(buf, sizeof buf, "%02x", c);
        out += buf;
    }
    return out;
}
}  // namespace

TEST_CASE("the value hash is Kafka's Murmur3.hash128, every tail length and bytes above 0x7f") {
    CHECK(hex(murmur3_hash128("")) == "9d2764a018e32942 8c3cf3b035938518");
    CHECK(hex(murmur3_hash128("a")) == "3361634e7e0f5188 e9c7dda24eae326b");
    CHECK(hex(murmur3_hash128("c1:apple")) == "7f826ca2ad0acacd 5256bf1af57f693b");
    CHECK(hex(murmur3_hash128("0123456789abcde")) == "c480e6b5c0016979 a0d033624a7f7904");
    CHECK(hex(murmur3_hash128("0123456789abcdef")) == "1a6e941ec6a76967 d7d82808f505d6b1");
    CHECK(hex(murmur3_hash128("0123456789abcdefg")) == "a93635c3ece7b605 aeed6784d1b08b32");
    CHECK(hex(murmur3_hash128("the quick brown fox jumps over it")) == "8707158dc38e7a44 ae79405ed0687071");
    CHECK(hex(murmur3_hash128(bytes_from(1))) == "973b628ff7e83a3a d102d17f98f2517e");
    CHECK(hex(murmur3_hash128(bytes_from(7))) == "6f31e913a7cd0efd 6d860e2b35b5d5db");
    CHECK(hex(murmur3_hash128(bytes_from(9))) == "91d248c44d0cb163 5e214c767c3d88ef");
    CHECK(hex(murmur3_hash128(bytes_from(23))) == "a5c4f54008df5c0d 785aa0f6870b1eef");
    CHECK(hex(murmur3_hash128(bytes_from(40))) == "3c480ceee93f6481 3689d0b89e4904b9");
}

TEST_CASE("subscriptions and responses round-trip; a version 0 subscription has no partition") {
    subscription_wrapper_serde ws;
    subscription_wrapper w{murmur3_hash128("v"), fk_instruction::propagate_only_if_fk_val, "pk", 3};
    str bytes;
    ws.serialize(w, bytes);
    CHECK(ws.deserialize(bytes) == w);
    subscription_wrapper deleted{std::nullopt, fk_instruction::delete_key_and_propagate, "o3", 0};
    bytes.clear();
    ws.serialize(deleted, bytes);
    CHECK(hex_bytes(bytes) == "81016f3300000000");  // as Java wrote it (conformance fk_join_wire)
    CHECK(ws.deserialize(bytes) == deleted);
    // Version 0 (Kafka before 3.5): no partition after the primary key.
    const subscription_wrapper v0 = ws.deserialize(str("\x80\x02pk", 4));
    CHECK(v0.version == 0);
    CHECK(v0.primary_key == "pk");
    CHECK_FALSE(v0.primary_partition);
    CHECK_THROWS_AS(ws.deserialize(str("\x01\x02short", 7)), deserialization_error);

    subscription_response_serde rs;
    subscription_response r{murmur3_hash128("v"), str("Bob"), std::nullopt};
    bytes.clear();
    rs.serialize(r, bytes);
    CHECK(rs.deserialize(bytes) == r);
    // Kafka reads no value bytes as a null foreign value (so an empty right value is a null).
    subscription_response empty{std::nullopt, str(""), std::nullopt};
    bytes.clear();
    rs.serialize(empty, bytes);
    CHECK(hex_bytes(bytes) == "80");
    CHECK_FALSE(rs.deserialize(bytes).foreign_value);
}

TEST_CASE("a response for a left value that changed since it subscribed is dropped (stale)") {
    streams_builder b;
    auto orders = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    orders.join(customers, [](const str& v) { return v.substr(0, v.find(':')); },
                [](const str& o, const str& c) { return o + "/" + c; }, table_joined<>::as("fk"))
        .to_stream()
        .to("out");
    test::topology_test_driver driver(b.build());
    auto in_orders = driver.create_input_topic<str, str>("orders");
    auto in_customers = driver.create_input_topic<str, str>("customers");
    auto out = driver.create_output_topic<str, str>("out");
    in_customers.pipe_input("c1", "Alice", 1);
    in_orders.pipe_input("o1", "c1:apple", 2);
    REQUIRE(out.read_records_to_list().size() == 1);

    // Responses as the right side would send them: for the current value, and for an older one.
    auto response = [](const str& left_value, const str& right_value) {
        str bytes;
        subscription_response_serde{}.serialize({murmur3_hash128(left_value), right_value, 0}, bytes);
        return bytes;
    };
    str topic;  // <application.id>-fk-subscription-response-topic
    for (const str& t : driver.produced_topic_names())
        if (t.ends_with("-fk-subscription-response-topic")) topic = t;
    REQUIRE_FALSE(topic.empty());
    driver.pipe_raw(topic, str("o1"), response("c1:pear", "Stale"), 3);
    CHECK(out.read_records_to_list().empty());
    CHECK(driver.metrics().value("dropped-records.stale-response") == 1);
    driver.pipe_raw(topic, str("o1"), response("c1:apple", "Fresh"), 4);
    const auto recs = out.read_records_to_list();
    REQUIRE(recs.size() == 1);
    CHECK(recs[0].value == "c1:apple/Fresh");
    CHECK(recs[0].timestamp == 4);
}

TEST_CASE("table_joined's partitioners place subscriptions by foreign key and responses by primary key") {
    auto seen = std::make_shared<std::vector<str>>();
    streams_builder b;
    auto orders = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    auto tj = table_joined<>::as("fk")
                  .with_partitioner([seen](std::string_view topic, const str& key, std::int32_t n) -> std::optional<std::int32_t> {
                      seen->push_back("response " + str(topic.substr(topic.find("fk-"))) + " " + key + " of " + std::to_string(n));
                      return 0;
                  })
                  .with_other_partitioner([seen](std::string_view topic, const str& key, std::int32_t n) -> std::optional<std::int32_t> {
                      seen->push_back("subscription " + str(topic.substr(topic.find("fk-"))) + " " + key + " of " + std::to_string(n));
                      return 0;
                  });
    orders.left_join(customers, [](const str& v) { return v.substr(0, v.find(':')); },
                     [](const str& o, const std::optional<str>& c) { return o + "/" + c.value_or("null"); }, tj)
        .to_stream()
        .to("out");
    test::topology_test_driver driver(b.build());
    auto in_orders = driver.create_input_topic<str, str>("orders");
    auto in_customers = driver.create_input_topic<str, str>("customers");
    auto out = driver.create_output_topic<str, str>("out");
    in_customers.pipe_input("c1", "Alice", 1);
    in_orders.pipe_input("o1", "c1:apple", 2);
    in_orders.pipe_input("o1", "c2:apple", 3);
    CHECK(*seen == std::vector<str>{
                       "subscription fk-subscription-registration-topic c1 of 1",
                       "response fk-subscription-response-topic o1 of 1",
                       "subscription fk-subscription-registration-topic c1 of 1",
                       "subscription fk-subscription-registration-topic c2 of 1",
                       "response fk-subscription-response-topic o1 of 1",
                   });
    const auto recs = out.read_records_to_list();
    REQUIRE(recs.size() == 2);
    CHECK(recs[1].value == "c2:apple/null");
}
