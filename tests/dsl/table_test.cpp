// KTable semantics through the test driver: table sources (emit on change when materialized),
// filter and map_values tombstones, to_stream, table groupings with subtract-before-add.
#include <doctest/doctest.h>

#include <optional>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;
using str = std::string;
using ostr = std::optional<str>;

namespace {
struct fixture {
    topology topo;
    test::topology_test_driver driver;
    test::test_input_topic<str, str> in;
    explicit fixture(topology t) : topo(std::move(t)), driver(topo), in(driver.create_input_topic<str, str>("in")) {}
    /// key=value, or key=null for a tombstone.
    std::vector<str> out(const str& topic = "out") {
        std::vector<str> v;
        for (auto& p : driver.produced(topic)) v.push_back(p.key.value_or("null") + "=" + p.value.value_or("null"));
        driver.produced(topic).clear();
        return v;
    }
    std::vector<str> out_int(const str& topic = "out") {
        std::vector<str> v;
        for (auto& r : driver.create_output_topic<str, std::int64_t>(topic).read_records_to_list())
            v.push_back(r.key + "=" + (r.value_null ? str("null") : std::to_string(r.value)) + "@" + std::to_string(r.timestamp));
        return v;
    }
};
using strs = std::vector<str>;
}  // namespace

TEST_CASE("an unmaterialized table forwards every update, tombstones for unseen keys included") {
    streams_builder b;
    b.table<str, str>("in").to_stream().to("out");
    fixture f(b.build());
    f.in.pipe_input("a", "1", 1);
    f.in.pipe_input("a", "1", 2);
    f.in.pipe_input("b", std::nullopt, 3);
    f.in.pipe_value("no-key", 4);  // null key: dropped and counted
    CHECK(f.out() == strs{"a=1", "a=1", "b=null"});
    CHECK(f.driver.metrics().value(metric::dropped_null_key) == 1);
}

TEST_CASE("a materialized table forwards every update; with its cache a delete of an absent key is not forwarded") {
    streams_builder b;
    b.table<str, str>("in", materialized<>::as("t")).to_stream().to("out");
    fixture f(b.build());
    f.in.pipe_input("a", "1", 10);
    f.in.pipe_input("a", "1", 11);         // same value, newer: forwarded too (Kafka Streams 4.4)
    f.in.pipe_input("a", "1", 5);          // same value but older (out of order): an update
    f.in.pipe_input("a", "2", 12);
    f.in.pipe_input("b", std::nullopt, 13);  // delete of an absent key: nothing
    f.in.pipe_input("a", std::nullopt, 14);
    f.in.pipe_input("a", std::nullopt, 15);  // already absent
    CHECK(f.out() == strs{"a=1", "a=1", "a=1", "a=2", "a=null"});
    auto& store = f.driver.get_key_value_store<str, value_and_timestamp<str>>("t");
    CHECK_FALSE(store.get("a").has_value());
}

TEST_CASE("ktable filter turns failing updates into tombstones, even for unseen keys") {
    streams_builder b;
    auto t = b.table<str, str>("in");
    t.filter([](const str&, const str& v) { return v.size() > 1; }).to_stream().to("out");
    t.filter_not([](const str& v) { return v.size() > 1; }).to_stream().to("not");
    fixture f(b.build());
    f.in.pipe_input("a", "x", 1);
    f.in.pipe_input("a", "xx", 2);
    f.in.pipe_input("a", std::nullopt, 3);
    CHECK(f.out() == strs{"a=null", "a=xx", "a=null"});
    CHECK(f.out("not") == strs{"a=x", "a=null", "a=null"});
}

TEST_CASE("ktable filter drops an update whose old and new rows are both absent when old values are needed") {
    streams_builder b;
    auto filtered = b.table<str, str>("in").filter([](const str& v) { return v != "drop"; });
    filtered.to_stream().to("out");
    filtered.group_by([](const str& k, const str& v) { return std::pair{v, k}; }).count().to_stream().to("counts");
    fixture f(b.build());
    f.in.pipe_input("a", "drop", 1);  // absent before and after: not forwarded
    f.in.pipe_input("a", "x", 2);
    f.in.pipe_input("a", "drop", 3);  // x leaves: a tombstone
    CHECK(f.out() == strs{"a=x", "a=null"});
    CHECK(f.out_int("counts") == strs{"x=1@2", "x=0@3"});
}

TEST_CASE("ktable map_values maps rows; nullopt makes the row absent") {
    streams_builder b;
    b.table<str, str>("in")
        .map_values([](const str& v) -> ostr { return v == "none" ? ostr{} : ostr{v + "!"}; })
        .to_stream()
        .to("out");
    fixture f(b.build());
    f.in.pipe_input("a", "1", 1);
    f.in.pipe_input("a", "none", 2);
    f.in.pipe_input("b", std::nullopt, 3);
    CHECK(f.out() == strs{"a=1!", "a=null", "b=null"});
}

TEST_CASE("table group_by count: the old row is subtracted before the new one is added") {
    streams_builder b;
    b.table<str, str>("in")
        .group_by([](const str& user, const str& region) { return std::pair{region, user}; })
        .count()
        .to_stream()
        .to("out");
    fixture f(b.build());
    f.in.pipe_input("alice", "eu", 1);
    f.in.pipe_input("bob", "eu", 2);
    f.in.pipe_input("alice", "us", 3);  // eu loses alice, then us gains her
    f.in.pipe_input("alice", "us", 4);  // same group: subtract and add in one step, one update
    f.in.pipe_input("bob", std::nullopt, 5);
    CHECK(f.out_int() == strs{"eu=1@1", "eu=2@2", "eu=1@3", "us=1@3", "us=1@4", "eu=0@5"});
}

TEST_CASE("table aggregate and reduce call the subtractor before the adder, in one update per key") {
    std::vector<str> calls;
    streams_builder b;
    auto t = b.table<str, str>("in");
    t.group_by([](const str&, const str& v) { return std::pair{str("all"), static_cast<std::int64_t>(std::stoll(v))}; },
               grouped<>::as("sum"))
        .aggregate([] { return std::int64_t{0}; },
                   [&](const str&, std::int64_t v, std::int64_t agg) { calls.push_back("+" + std::to_string(v)); return agg + v; },
                   [&](const str&, std::int64_t v, std::int64_t agg) { calls.push_back("-" + std::to_string(v)); return agg - v; })
        .to_stream()
        .to("out");
    t.group_by([](const str&, const str& v) { return std::pair{str("all"), static_cast<std::int64_t>(std::stoll(v))}; })
        .reduce([](std::int64_t agg, std::int64_t v) { return agg + v; }, [](std::int64_t agg, std::int64_t v) { return agg - v; })
        .to_stream()
        .to("reduced");
    fixture f(b.build());
    f.in.pipe_input("a", "5", 1);
    f.in.pipe_input("a", "7", 2);
    f.in.pipe_input("b", "1", 3);
    CHECK(calls == strs{"+5", "-5", "+7", "+1"});
    CHECK(f.out_int() == strs{"all=5@1", "all=7@2", "all=8@3"});
    CHECK(f.out_int("reduced") == strs{"all=5@1", "all=7@2", "all=8@3"});
    // The grouping's name names the repartition topic.
    CHECK(f.driver.produced("test-app-sum-repartition").size() == 3);
}

TEST_CASE("to_table: a stream read as a table, repartitioned after a key change") {
    streams_builder b;
    auto s = b.stream<str, str>("in");
    s.to_table(materialized<>::as("latest")).to_stream().to("out");
    s.select_key([](const str&, const str& v) { return v; }).to_table().to_stream().to("by-value");
    fixture f(b.build());
    f.in.pipe_input("a", "1", 1);
    f.in.pipe_input("a", std::nullopt, 2);
    CHECK(f.out() == strs{"a=1", "a=null"});
    // A null value reaches the key selector as str{} (declare std::optional<str> to see nulls).
    CHECK(f.out("by-value") == strs{"1=1", "=null"});
    CHECK(f.driver.get_key_value_store<str, value_and_timestamp<str>>("latest").approximate_num_entries() == 0);
}

TEST_CASE("to_stream(mapper) re-keys the changelog stream, and a grouping after it repartitions") {
    streams_builder b;
    auto st = b.table<str, str>("in").to_stream([](const str& k, const str& v) { return v + ":" + k; });
    st.to("out");
    st.group_by_key().count().to_stream().to("counts");
    topology t = b.build();
    const str described = t.describe().to_string();
    CHECK(described.find("KTABLE-TOSTREAM-0000000003") != str::npos);
    CHECK(described.find("KSTREAM-KEY-SELECT-0000000004") != str::npos);
    CHECK(described.find("-repartition") != str::npos);
    fixture f(std::move(t));
    f.in.pipe_input("a", "x", 1);
    f.in.pipe_input("b", "x", 2);
    CHECK(f.out() == strs{"x:a=x", "x:b=x"});
    CHECK(f.out_int("counts") == strs{"x:a=1@1", "x:b=1@2"});
}
