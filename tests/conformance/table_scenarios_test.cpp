// Conformance: table scenarios (sources, filter, map_values, to_stream, table groupings with
// adder and subtractor, to_table), written as java/.../Main.java writes them, compared with Java
// Kafka Streams' outputs.
#include <doctest/doctest.h>

#include <optional>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using str = std::string;
using ostr = std::optional<std::string>;
using i64 = std::int64_t;
using type::l;
using type::s;

namespace {
void table_group_by_reduce(const char* scenario, bool cached) {
    streams_builder b;
    auto m = materialized<>{};
    if (!cached) m = m.with_caching_disabled();
    b.table<str, str>("users")
        .group_by([](const str&, const str& r) { return std::pair<str, i64>(r, 1); })
        .reduce([](i64 agg, i64 v) { return agg + v; }, [](i64 agg, i64 v) { return agg - v; }, m)
        .to_stream()
        .to("out");
    harness h(scenario, b.build());
    h.input("users", s, s).output("out", s, l);
    user_moves(h);
    h.finish();
}
}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("table_source_plain") {
    streams_builder b;
    b.table<str, str>("in").to_stream().to("out");
    harness h("table_source_plain", b.build());
    h.input("in", s, s).output("out", s, s);
    table_inputs(h);
    h.finish();
}

TEST_CASE("table_source_materialized") {
    streams_builder b;
    b.table<str, str>("in", materialized<>::as("t")).to_stream().to("out");
    harness h("table_source_materialized", b.build());
    h.input("in", s, s).output("out", s, s);
    table_inputs(h);
    h.finish();
}

TEST_CASE("table_source_materialized_uncached") {
    streams_builder b;
    b.table<str, str>("in", materialized<>::as("t").with_caching_disabled()).to_stream().to("out");
    harness h("table_source_materialized_uncached", b.build());
    h.input("in", s, s).output("out", s, s);
    table_inputs(h);
    h.finish();
}

TEST_CASE("table_filter_map_values") {
    streams_builder b;
    auto t = b.table<str, str>("in");
    t.filter([](const str&, const str& v) { return v.size() > 1; }).to_stream().to("out-filter");
    t.filter_not([](const str&, const str& v) { return v.size() > 1; }).to_stream().to("out-filter-not");
    t.map_values([](const str& v) { return v + "!"; }).to_stream().to("out-map-values");
    harness h("table_filter_map_values", b.build());
    h.input("in", s, s).output("out-filter", s, s).output("out-filter-not", s, s).output("out-map-values", s, s);
    table_inputs(h);
    h.finish();
}

TEST_CASE("table_map_values_with_key") {
    streams_builder b;
    b.table<str, str>("in")
        .map_values([](const str& k, const str& v) { return k + "=" + v; }, named::as("mv"))
        .filter([](const str& k, const str&) { return k != "c"; })
        .to_stream()
        .to("out");
    harness h("table_map_values_with_key", b.build());
    h.input("in", s, s).output("out", s, s);
    table_inputs(h);
    h.finish();
}

TEST_CASE("table_filter_materialized") {
    streams_builder b;
    b.table<str, str>("in").filter([](const str&, const str& v) { return v.size() > 1; }, materialized<>::as("filtered"))
        .to_stream()
        .to("out");
    harness h("table_filter_materialized", b.build());
    h.input("in", s, s).output("out", s, s);
    table_inputs(h);
    h.finish();
}

// Materialized map_values and filter_not under a regrouping: the old values the subtractor needs
// come from the operators' own stores.
TEST_CASE("table_map_values_materialized") {
    streams_builder b;
    b.table<str, str>("users")
        .map_values([](const str& r) { return "region-" + r; }, materialized<>::as("mapped"))
        .filter_not([](const str&, const str& r) { return r == "region-us"; }, named::as("not-us"),
                    materialized<>::as("not-us-store").with_caching_disabled())
        .group_by([](const str& u, const str& r) { return std::pair<str, str>(r, u); })
        .count()
        .to_stream()
        .to("out");
    harness h("table_map_values_materialized", b.build());
    h.input("users", s, s).output("out", s, l);
    user_moves(h);
    h.finish();
}

TEST_CASE("table_group_by_reduce") { table_group_by_reduce("table_group_by_reduce", true); }
TEST_CASE("table_group_by_reduce_uncached") { table_group_by_reduce("table_group_by_reduce_uncached", false); }

TEST_CASE("table_group_by_aggregate") {
    streams_builder b;
    auto users = b.table<str, str>("users");
    users.group_by([](const str& u, const str& r) { return std::pair<str, str>(r, u); })
        .aggregate([] { return str(); }, [](const str&, const str& v, const str& agg) { return agg + "+" + v; },
                   [](const str&, const str& v, const str& agg) { return agg + "-" + v; })
        .to_stream()
        .to("out-agg");
    users.group_by([](const str& u, const str& r) { return std::pair<str, str>(r, u); })
        .count(materialized<>::as("region-count").with_caching_disabled())
        .to_stream()
        .to("out-count");
    harness h("table_group_by_aggregate", b.build());
    h.input("users", s, s).output("out-agg", s, s).output("out-count", s, l);
    user_moves(h);
    h.finish();
}

// Two aggregations of one grouped table: each has its own repartition topic.
TEST_CASE("grouped_table_two_aggregations") {
    streams_builder b;
    auto g = b.table<str, str>("users").group_by([](const str& u, const str& r) { return std::pair<str, str>(r, u); });
    g.count().to_stream().to("out-count");
    g.reduce([](const str& a, const str& v) { return a + "+" + v; }, [](const str& a, const str& v) { return a + "-" + v; })
        .to_stream()
        .to("out-reduce");
    harness h("grouped_table_two_aggregations", b.build());
    h.input("users", s, s).output("out-count", s, l).output("out-reduce", s, s);
    user_moves(h);
    h.finish();
}

// Table filters: after a materialized source (old values known: no tombstone for a row failing
// before and after), after an unmaterialized one later materialized for a sibling group_by (the
// filter came first: tombstones), after a materialized map_values.
TEST_CASE("table_filter_old_values") {
    streams_builder b;
    const auto longer = [](const str&, const str& v) { return v.size() > 1; };
    b.table<str, str>("in", materialized<>::as("src")).filter(longer).to_stream().to("out-a");
    auto t = b.table<str, str>("in2");
    t.filter(longer).to_stream().to("out-b");
    t.group_by([](const str& k, const str& v) { return std::pair<str, str>(v, k); }).count().to_stream().to("out-count");
    b.table<str, str>("in3")
        .map_values([](const str& v) { return v + "!"; }, materialized<>::as("mv"))
        .filter_not([](const str&, const str& v) { return v.size() > 2; })
        .to_stream()
        .to("out-c");
    harness h("table_filter_old_values", b.build());
    h.input("in", s, s).input("in2", s, s).input("in3", s, s);
    h.output("out-a", s, s).output("out-b", s, s).output("out-count", s, l).output("out-c", s, s);
    for (const char* topic : {"in", "in2", "in3"}) {
        h.pipe(topic, S("a"), S("1"), 1);
        h.pipe(topic, S("a"), S("22"), 2);
        h.pipe(topic, S("a"), S("3"), 3);
        h.pipe(topic, S("a"), S("4"), 4);
        h.pipe(topic, S("b"), null, 5);
        h.pipe(topic, S("a"), null, 6);
    }
    h.finish();
}

TEST_CASE("to_table") {
    streams_builder b;
    auto st = b.stream<str, ostr>("in");
    st.to_table().to_stream().to("out");
    st.filter([](const ostr& v) { return v.has_value(); })
        .select_key([](const str&, const ostr& v) { return *v; })
        .to_table(named{}, materialized<>::as("by-value"))
        .to_stream()
        .to("out-rekeyed");
    harness h("to_table", b.build());
    h.input("in", s, s).output("out", s, s).output("out-rekeyed", s, s);
    h.pipe("in", S("a"), S("1"), 5);
    h.pipe("in", S("a"), S("1"), 6);
    h.pipe("in", null, S("2"), 7);
    h.pipe("in", S("b"), null, 8);
    h.pipe("in", S("a"), null, 9);
    h.pipe("in", S("c"), S("1"), 3);
    h.finish();
}

}  // TEST_SUITE
