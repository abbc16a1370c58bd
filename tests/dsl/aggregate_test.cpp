// Stream groupings and aggregations through the test driver: count, reduce, aggregate; results
// with the largest timestamp seen; null keys and values dropped and counted; repartitioned
// groupings give the same results as co-partitioned ones.
#include <doctest/doctest.h>

#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;
using str = std::string;

namespace {
struct fixture {
    topology topo;
    test::topology_test_driver driver;
    test::test_input_topic<str, str> in;
    explicit fixture(topology t) : topo(std::move(t)), driver(topo), in(driver.create_input_topic<str, str>("in")) {}
    template <class V>
    std::vector<record<str, V>> out(const str& topic = "out") {
        return driver.create_output_topic<str, V>(topic).read_records_to_list();
    }
};
template <class V>
std::vector<std::pair<str, V>> kvs(const std::vector<record<str, V>>& rs) {
    std::vector<std::pair<str, V>> out;
    for (const auto& r : rs) out.emplace_back(r.key, r.value);
    return out;
}
template <class V>
std::vector<std::int64_t> times(const std::vector<record<str, V>>& rs) {
    std::vector<std::int64_t> out;
    for (const auto& r : rs) out.push_back(r.timestamp);
    return out;
}
}  // namespace

TEST_CASE("group_by_key count emits every update with the largest timestamp so far") {
    streams_builder b;
    b.stream<str, str>("in").group_by_key().count().to_stream().to("out");
    fixture f(b.build());
    f.in.pipe_input("a", "x", 10);
    f.in.pipe_input("b", "x", 5);
    f.in.pipe_input("a", "y", 3);
    f.in.pipe_input("a", "z", 20);
    const auto rs = f.out<std::int64_t>();
    CHECK(kvs(rs) == std::vector<std::pair<str, std::int64_t>>{{"a", 1}, {"b", 1}, {"a", 2}, {"a", 3}});
    CHECK(times(rs) == std::vector<std::int64_t>{10, 5, 10, 20});
}

TEST_CASE("group_by re-keys through a repartition topic and counts per new key") {
    streams_builder b;
    b.stream<str, str>("in")
        .group_by([](const str&, const str& v) { return v; })
        .count(materialized<>::as("counts"))
        .to_stream()
        .to("out");
    fixture f(b.build());
    f.in.pipe_input("u1", "eu", 1);
    f.in.pipe_input("u2", "us", 2);
    f.in.pipe_input("u3", "eu", 3);
    CHECK(kvs(f.out<std::int64_t>()) == std::vector<std::pair<str, std::int64_t>>{{"eu", 1}, {"us", 1}, {"eu", 2}});
    CHECK(f.driver.create_output_topic<str, str>("test-app-counts-repartition").get_queue_size() == 3);
    auto& store = f.driver.get_key_value_store<str, value_and_timestamp<std::int64_t>>("counts");
    CHECK(store.get("eu") == value_and_timestamp<std::int64_t>{2, 3});
}

TEST_CASE("null keys are dropped, not counted, before the repartition topic; the aggregation counts null keys and values") {
    streams_builder b;
    b.stream<str, str>("in").select_key([](const str&, const str& v) { return v; }).group_by_key().count().to_stream().to("out");
    b.stream<str, str>("in2").group_by_key().count(materialized<>::as("direct")).to_stream().to("out2");
    b.stream<str, std::optional<str>>("in3")
        .select_key([](const str&, const std::optional<str>& v) { return v; })
        .group_by_key()
        .count()
        .to_stream()
        .to("out3");
    fixture f(b.build());
    auto in2 = f.driver.create_input_topic<str, str>("in2");
    auto in3 = f.driver.create_input_topic<str, str>("in3");
    in3.pipe_input("k", "v", 1);
    // Key becomes null: dropped before the repartition topic by a filter that counts nothing, as
    // Kafka's (KStreamFilter k != null).
    in3.pipe_input("k", std::nullopt, 2);
    CHECK(f.out<std::int64_t>("out3").size() == 1);
    CHECK(f.driver.metrics().value(metric::dropped_records) == 0);

    in2.pipe_value("v", 3);                // null key, no repartition: dropped by the aggregation
    in2.pipe_input("k", std::nullopt, 4);  // null value: dropped by the aggregation
    in2.pipe_input("k", "v", 5);
    CHECK(kvs(f.out<std::int64_t>("out2")) == std::vector<std::pair<str, std::int64_t>>{{"k", 1}});
    CHECK(f.driver.metrics().value(metric::dropped_null_key) == 1);
    CHECK(f.driver.metrics().value(metric::dropped_null_value) == 1);
}

TEST_CASE("reduce combines values per key") {
    streams_builder b;
    b.stream<str, str>("in").group_by_key().reduce([](const str& agg, const str& v) { return agg + "+" + v; }).to_stream().to("out");
    fixture f(b.build());
    f.in.pipe_input("a", "1", 5);
    f.in.pipe_input("a", "2", 4);
    f.in.pipe_input("b", "3", 6);
    const auto rs = f.out<str>();
    CHECK(kvs(rs) == std::vector<std::pair<str, str>>{{"a", "1"}, {"a", "1+2"}, {"b", "3"}});
    CHECK(times(rs) == std::vector<std::int64_t>{5, 5, 6});
}

TEST_CASE("aggregate folds from the initializer with materialized serdes and store name") {
    streams_builder b;
    b.stream<str, str>("in")
        .map_values([](const str& v) { return static_cast<std::int32_t>(v.size()); })
        .group_by_key(grouped<>{}.with_value_serde(serde<std::int32_t>{}))
        .aggregate([] { return std::int64_t{100}; },
                   [](const str&, std::int32_t len, std::int64_t agg) { return agg + len; },
                   materialized<>::as("lengths").with_value_serde(serde<std::int64_t>{}).with_caching_disabled())
        .to_stream()
        .to("out");
    fixture f(b.build());
    f.in.pipe_input("a", "xyz", 1);
    f.in.pipe_input("a", "xy", 2);
    CHECK(kvs(f.out<std::int64_t>()) == std::vector<std::pair<str, std::int64_t>>{{"a", 103}, {"a", 105}});
    CHECK(f.driver.get_key_value_store<str, value_and_timestamp<std::int64_t>>("lengths").get("a")->value == 105);
}

TEST_CASE("aggregations of one unnamed grouping each read their own repartition topic and see every record once") {
    streams_builder b;
    auto g = b.stream<str, str>("in").select_key([](const str&, const str& v) { return v; }).group_by_key();
    g.count().to_stream().to("counts");
    g.reduce([](const str& a, const str& v) { return a + v; }).to_stream().to("concat");
    fixture f(b.build());
    f.in.pipe_input("1", "a", 0);
    f.in.pipe_input("2", "a", 0);
    CHECK(kvs(f.out<std::int64_t>("counts")) == std::vector<std::pair<str, std::int64_t>>{{"a", 1}, {"a", 2}});
    CHECK(kvs(f.out<str>("concat")) == std::vector<std::pair<str, str>>{{"a", "a"}, {"a", "aa"}});
    // counts, concat and a repartition topic each, besides the two stores' changelogs
    auto names = f.driver.produced_topic_names();
    std::erase_if(names, [](const str& n) { return n.ends_with("-changelog"); });
    CHECK(names.size() == 4);
}

TEST_CASE("stored aggregates use Kafka's timestamped layout: 8-byte big-endian timestamp, then the value") {
    value_and_timestamp_serde<std::int64_t> s;
    std::string bytes;
    s.serialize({7, 0x0102}, bytes);
    CHECK(bytes == std::string("\x00\x00\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x00\x00\x00\x07", 16));
}

TEST_CASE("a count kept in an LRU map (stores::lru_map) forgets the least recently used key past its size") {
    streams_builder b;
    b.stream<str, str>("in")
        .group_by_key()
        .count(materialized<>::as(stores::lru_map("counts", 2)).with_caching_disabled())
        .to_stream()
        .to("out");
    fixture f(b.build());
    for (const char* k : {"a", "b", "a", "c", "b", "a"}) f.in.pipe_input(k, "v", 1);
    // c evicts b (a was used later), b then evicts a.
    CHECK(kvs(f.out<std::int64_t>()) ==
          std::vector<std::pair<str, std::int64_t>>{{"a", 1}, {"b", 1}, {"a", 2}, {"c", 1}, {"b", 1}, {"a", 1}});
}

TEST_CASE("an aggregation onto a versioned store keeps every version of its rows and forwards every update (no cache)") {
    streams_builder b;
    b.stream<str, str>("in")
        .group_by_key()
        .aggregate([] { return str(); }, [](const str&, const str& v, const str& agg) { return agg + v; },
                   materialized<>::as(stores::persistent_versioned_key_value_store("agg", std::chrono::milliseconds(100))))
        .to_stream()
        .to("out");
    fixture f(b.build());
    f.in.pipe_input("a", "x", 10);
    f.in.pipe_input("a", "y", 20);
    f.in.pipe_input("a", "z", 15);  // out of order: the row's timestamp stays 20
    auto& store = f.driver.get_versioned_key_value_store<str, str>("agg");
    REQUIRE(store.get("a"));
    CHECK(store.get("a")->value == "xyz");
    CHECK(store.get("a")->timestamp == 20);
    CHECK(store.get("a", 12)->value == "x");  // the history: as of 12, the first version
    CHECK(store.get("a", 19)->value == "x");
    // Older than the history retention behind the store's stream time (200 - 100): not stored,
    // not forwarded, counted.
    f.in.pipe_input("b", "w", 200);
    f.in.pipe_input("c", "v", 50);
    CHECK_FALSE(store.get("c"));
    CHECK(f.driver.metrics().value("dropped-records.expired") == 1);
    const auto rs = f.out<str>();
    CHECK(kvs(rs) == std::vector<std::pair<str, str>>{{"a", "x"}, {"a", "xy"}, {"a", "xyz"}, {"b", "w"}});
    CHECK(times(rs) == std::vector<std::int64_t>{10, 20, 20, 200});
    // Range queries are not what a versioned store answers.
    auto as_plain = [&] { f.driver.get_timestamped_key_value_store<str, str>("agg"); };
    CHECK_THROWS(as_plain());
}

TEST_CASE("a cogroup aggregates onto a versioned store too") {
    streams_builder b;
    auto words = b.stream<str, str>("in").group_by_key();
    auto more = b.stream<str, str>("more").group_by_key();
    words.cogroup([](const str&, const str& w, const str& agg) { return agg + w; })
        .cogroup(more, [](const str&, const str& w, const str& agg) { return agg + "|" + w; })
        .aggregate([] { return str(); }, materialized<>::as(stores::in_memory_versioned_key_value_store("co", std::chrono::milliseconds(100))))
        .to_stream()
        .to("out");
    fixture f(b.build());
    f.in.pipe_input("a", "x", 10);
    f.driver.create_input_topic<str, str>("more").pipe_input("a", "y", 20);
    auto& store = f.driver.get_versioned_key_value_store<str, str>("co");
    CHECK(store.get("a")->value == "x|y");
    CHECK(store.get("a", 15)->value == "x");
    CHECK(kvs(f.out<str>()) == std::vector<std::pair<str, str>>{{"a", "x"}, {"a", "x|y"}});
}
