// Stateless kstream operators through the test driver: each forwards exactly what Kafka Streams
// forwards, with the input's timestamp and headers.
#include <doctest/doctest.h>

#include <ranges>
#include <vector>

#include <range/v3/view/iota.hpp>
#include <range/v3/view/transform.hpp>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;
using kv = key_value<std::string, std::string>;

namespace {
/// Holds the topology: the driver keeps a reference to it.
struct fixture {
    topology topo;
    test::topology_test_driver driver;
    test::test_input_topic<std::string, std::string> in;
    explicit fixture(topology t)
        : topo(std::move(t)), driver(topo), in(driver.create_input_topic<std::string, std::string>("in")) {}
    template <class K = std::string, class V = std::string>
    std::vector<key_value<K, V>> out(const std::string& topic = "out") {
        return driver.create_output_topic<K, V>(topic).read_key_values_to_list();
    }
};
}  // namespace

TEST_CASE("filter and filter_not keep and drop by predicate") {
    streams_builder b;
    auto s = b.stream<std::string, std::string>("in");
    s.filter([](const std::string& k, const std::string&) { return k == "a"; }).to("out");
    s.filter_not([](const std::string& v) { return v == "x"; }).to("out2");
    fixture p(b.build());
    p.in.pipe_input("a", "x", 1);
    p.in.pipe_input("b", "y", 2);
    CHECK(p.out() == std::vector<kv>{{"a", "x"}});
    CHECK(p.out("out2") == std::vector<kv>{{"b", "y"}});
}

TEST_CASE("map, map_values and select_key transform and keep timestamp and headers") {
    streams_builder b;
    auto s = b.stream<std::string, std::string>("in");
    s.map([](const std::string& k, const std::string& v) { return std::pair{v, static_cast<std::int64_t>(k.size())}; }).to("m");
    s.map_values([](const std::string& v) { return v + "!"; }).to("mv");
    s.map_values([](const std::string& k, const std::string& v) { return k + v; }).to("mvk");
    s.select_key([](const std::string&, const std::string& v) { return v; }).to("sk");
    fixture p(b.build());
    record<std::string, std::string> r{"key", "val", 42, headers{{"h", "1"}}};
    p.in.pipe_record(r);
    auto m = p.driver.create_output_topic<std::string, std::int64_t>("m").read_record();
    CHECK(m.key == "val");
    CHECK(m.value == 3);
    CHECK(m.timestamp == 42);
    CHECK(m.headers == headers{{"h", "1"}});
    CHECK(p.out("mv") == std::vector<kv>{{"key", "val!"}});
    CHECK(p.out("mvk") == std::vector<kv>{{"key", "keyval"}});
    CHECK(p.out("sk") == std::vector<kv>{{"val", "val"}});
}

TEST_CASE("flat_map and flat_map_values accept containers, std views and range-v3 views") {
    streams_builder b;
    auto s = b.stream<std::string, std::string>("in");
    s.flat_map([](const std::string& k, const std::string& v) {
         return std::vector<std::pair<std::string, std::string>>{{k + "1", v}, {k + "2", v}};
     }).to("fm");
    s.flat_map_values([](const std::string& v) { return std::views::iota(0, static_cast<int>(v.size())) | std::views::transform([](int i) { return std::to_string(i); }); })
        .to("fmv-std");
    s.flat_map_values([](const std::string& v) { return ranges::views::iota(0, static_cast<int>(v.size())) | ranges::views::transform([](int i) { return std::to_string(i * 10); }); })
        .to("fmv-rv3");
    s.flat_map_values([](const std::string&) { return std::vector<std::string>{}; }).to("empty");
    fixture p(b.build());
    p.in.pipe_input("k", "ab", 7);
    CHECK(p.out("fm") == std::vector<kv>{{"k1", "ab"}, {"k2", "ab"}});
    CHECK(p.out("fmv-std") == std::vector<kv>{{"k", "0"}, {"k", "1"}});
    CHECK(p.out("fmv-rv3") == std::vector<kv>{{"k", "0"}, {"k", "10"}});
    CHECK(p.out("empty").empty());
}

TEST_CASE("peek and foreach see every record; peek passes it on") {
    streams_builder b;
    std::vector<std::string> peeked, seen;
    auto s = b.stream<std::string, std::string>("in");
    s.peek([&](const std::string& k, const std::string& v) { peeked.push_back(k + v); }).to("out");
    s.foreach([&](const std::string& k, const std::string&) { seen.push_back(k); });
    fixture p(b.build());
    p.in.pipe_input("a", "1", 0);
    p.in.pipe_input("b", "2", 0);
    CHECK(peeked == std::vector<std::string>{"a1", "b2"});
    CHECK(seen == std::vector<std::string>{"a", "b"});
    CHECK(p.out().size() == 2);
}

TEST_CASE("to writes with produced serdes, a topic-name extractor and a partitioner") {
    streams_builder b;
    auto s = b.stream<std::string, std::string>("in");
    bool partitioner_called = false;
    s.map_values([](const std::string& v) { return static_cast<std::int32_t>(v.size()); })
        .to("ints", produced<>{}.with_stream_partitioner([&](std::string_view, const std::string&, const std::int32_t&, std::int32_t n) {
            partitioner_called = true;
            return std::optional<std::int32_t>(n - 1);
        }));
    s.to([](const record<std::string, std::string>& r) { return "topic-" + r.key; });
    fixture p(b.build());
    p.in.pipe_input("x", "hello", 0);
    CHECK(p.driver.create_output_topic<std::string, std::int32_t>("ints").read_value() == 5);
    CHECK(partitioner_called);
    CHECK(p.out("topic-x") == std::vector<kv>{{"x", "hello"}});
}

TEST_CASE("a topic-name extractor may route by where the record came from (source topic, partition, offset)") {
    streams_builder b;
    auto s = b.stream<std::string, std::string>(std::vector<std::string>{"in", "in2"});
    s.to([](const record<std::string, std::string>& r, const record_metadata* source) {
        return "from-" + std::string(source->topic) + "-" + std::to_string(source->offset) + "-" + r.value;
    });
    fixture p(b.build());
    auto in2 = p.driver.create_input_topic<std::string, std::string>("in2");
    p.in.pipe_input("k", "a", 0);
    in2.pipe_input("k", "b", 0);
    p.in.pipe_input("k", "c", 0);
    CHECK(p.out("from-in-0-a") == std::vector<kv>{{"k", "a"}});
    CHECK(p.out("from-in2-0-b") == std::vector<kv>{{"k", "b"}});
    CHECK(p.out("from-in-1-c") == std::vector<kv>{{"k", "c"}});
}

TEST_CASE("null keys and values pass stateless operators and reach sinks as nulls") {
    streams_builder b;
    b.stream<std::string, std::string>("in").filter([](const std::string&, const std::string&) { return true; }).to("out");
    fixture p(b.build());
    p.in.pipe_value("v", 3);
    p.in.pipe_input("k", std::nullopt, 4);
    auto& q = p.driver.produced("out");
    REQUIRE(q.size() == 2);
    CHECK_FALSE(q[0].key.has_value());
    CHECK(q[0].value == "v");
    CHECK(q[1].key == "k");
    CHECK_FALSE(q[1].value.has_value());
}

TEST_CASE("a stream over several topics and over a pattern") {
    streams_builder b;
    b.stream<std::string, std::string>({"a", "b"}).to("out");
    b.stream_pattern<std::string, std::string>("pat-.*").to("out2");
    const topology t = b.build();
    test::topology_test_driver d(t);
    d.create_input_topic<std::string, std::string>("a").pipe_input("1", "x", 0);
    d.create_input_topic<std::string, std::string>("b").pipe_input("2", "y", 0);
    d.pipe_raw("pat-1", std::string("3"), std::string("z"), 0);
    CHECK(d.create_output_topic<std::string, std::string>("out").read_key_values_to_list() == std::vector<kv>{{"1", "x"}, {"2", "y"}});
    CHECK(d.create_output_topic<std::string, std::string>("out2").read_key_values_to_list() == std::vector<kv>{{"3", "z"}});
}
