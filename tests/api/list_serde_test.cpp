// Kafka's ListSerde for std::vector<T> (<kstreams/list_serde.hpp>): Java's bytes for both
// strategies, null elements, bad bytes refused, and a DSL aggregation into a list.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/list_serde.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;
using str = std::string;

namespace {
str hex(const str& s) {
    static const char* digits = "0123456789abcdef";
    str out;
    for (unsigned char c : s) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}
template <class T>
str bytes_of(const std::vector<T>& v) {
    str out;
    serde<std::vector<T>>{}.serialize(v, out);
    return out;
}
}  // namespace

TEST_CASE("list serde writes Java's ListSerializer bytes and reads them back") {
    // VARIABLE_SIZE (1): count, then length and bytes per element, -1 for null.
    CHECK(hex(bytes_of<str>({"a", "bc"})) == "01" "00000002" "00000001" "61" "00000002" "6263");
    CHECK(hex(bytes_of<std::optional<str>>({"a", std::nullopt})) == "01" "00000002" "00000001" "61" "ffffffff");
    // CONSTANT_SIZE (0): null count and indexes, count, then the non-null elements.
    CHECK(hex(bytes_of<std::int64_t>({1, 2})) == "00" "00000000" "00000002" "0000000000000001" "0000000000000002");
    CHECK(hex(bytes_of<std::optional<std::int32_t>>({1, std::nullopt, 3})) ==
          "00" "00000001" "00000001" "00000003" "00000001" "00000003");
    CHECK(hex(bytes_of<str>({})) == "01" "00000000");

    const std::vector<std::optional<std::int32_t>> ints{1, std::nullopt, 3};
    CHECK(serde<std::vector<std::optional<std::int32_t>>>{}.deserialize(bytes_of(ints)) == ints);
    const std::vector<std::vector<str>> nested{{"x"}, {}, {"y", "z"}};
    CHECK(serde<std::vector<std::vector<str>>>{}.deserialize(bytes_of(nested)) == nested);
}

TEST_CASE("list serde refuses bytes that are not a list of its element type") {
    const serde<std::vector<std::int64_t>> longs;
    CHECK_THROWS_AS(longs.deserialize(""), deserialization_error);
    CHECK_THROWS_AS(longs.deserialize(bytes_of<str>({"a"})), deserialization_error);  // strategy 1, not 0
    str truncated = bytes_of<std::int64_t>({1, 2});
    truncated.pop_back();
    CHECK_THROWS_AS(longs.deserialize(truncated), deserialization_error);
    CHECK_THROWS_AS(serde<std::vector<str>>{}.deserialize(bytes_of<str>({"a"}) + "x"), deserialization_error);
}

TEST_CASE("an aggregation collects values into a list kept and sent with the list serde") {
    streams_builder b;
    b.stream<str, str>("in")
        .group_by_key()
        .aggregate([] { return std::vector<str>{}; },
                   [](const str&, const str& v, std::vector<str> agg) {
                       agg.push_back(v);
                       return agg;
                   },
                   materialized<>::as("lists"))
        .to_stream()
        .to("out");
    test::topology_test_driver d(b.build());
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("k", "a", 1);
    in.pipe_input("k", "b", 2);
    auto out = d.create_output_topic<str, std::vector<str>>("out").read_values_to_list();
    CHECK(out == std::vector<std::vector<str>>{{"a"}, {"a", "b"}});
    CHECK(d.get_key_value_store<str, std::vector<str>>("lists").get("k") == std::vector<str>{"a", "b"});
}
