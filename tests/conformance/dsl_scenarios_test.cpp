// Conformance: DSL scenarios (non-string serdes end to end, aggregates with their own value
// serde, table chains, many-to-one table groupings, to_table after a repartition, named
// aggregations, pattern sources, to_stream(mapper) into split), written as
// java/.../DslScenarios.java writes them.
#include <doctest/doctest.h>

#include <cctype>
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using str = std::string;
using ostr = std::optional<std::string>;
using i64 = std::int64_t;
using i32 = std::int32_t;
using oi64 = std::optional<std::int64_t>;
using type::b;
using type::d;
using type::i;
using type::l;
using type::s;

namespace {
/// Java's String.toUpperCase for ASCII.
str upper(str s) {
    for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}
}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("dsl_long_keys_double_values") {
    streams_builder sb;
    auto st = sb.stream<oi64, double>("in");
    st.select_key([](const oi64& k, const double&) { return k ? *k % 3 : i64(-1); })
        .repartition(repartitioned<>::as("mod"))
        .group_by_key()
        .reduce([](double a, double v) { return a + v; })
        .to_stream()
        .to("out-sum");
    // As Java's `v == null ? 0 : floor(v)`: declared optional, the mapper sees the null (a plain
    // double would not be called with it: the record would be dropped and counted).
    st.map([](const oi64& k, const std::optional<double>& v) {
          return std::pair<i32, i64>(v ? static_cast<i32>(std::floor(*v)) : 0, k ? *k : -1);
      })
        .group_by_key()
        .aggregate([] { return str(); }, [](const i32&, const i64& v, const str& agg) { return agg + "," + std::to_string(v); })
        .to_stream()
        .to("out-agg");
    harness h("dsl_long_keys_double_values", sb.build());
    h.input("in", l, d).output("out-sum", l, d).output("out-agg", i, s);
    h.pipe("in", L(1), D(1.5), 1);
    h.pipe("in", L(4), D(2.25), 2);
    h.pipe("in", L(2), D(-3.0), 3);
    h.pipe("in", L(7), D(1.75), 4);
    h.pipe("in", null, D(0.5), 5);
    h.pipe("in", L(5), null, 6);
    h.pipe("in", L(-2), D(2.0), 7);
    h.finish();
}

TEST_CASE("dsl_byte_array_keys_values") {
    streams_builder sb;
    sb.stream<bytes, bytes>("in")
        .map_values([](const bytes& v) { return upper(str(reinterpret_cast<const char*>(v.data()), v.size())); })
        .group_by_key()
        .count()
        .to_stream()
        .to("out-count");
    sb.table<bytes, bytes>("tin", materialized<>::as("bt"))
        .map_values([](const bytes& v) { return static_cast<i32>(v.size()); })
        .to_stream()
        .to("out-len");
    harness h("dsl_byte_array_keys_values", sb.build());
    h.input("in", b, b).input("tin", b, b).output("out-count", b, l).output("out-len", b, i);
    h.pipe("in", S("k1"), S("a"), 1);
    h.pipe("in", S("k2"), S("b"), 2);
    h.pipe("in", S("k1"), S("c"), 3);
    h.pipe("in", S(""), S("d"), 4);
    h.pipe("tin", S("t1"), S("xyz"), 5);
    h.pipe("tin", S("t1"), S("xyz"), 6);
    h.pipe("tin", S("t2"), S(""), 7);
    h.pipe("tin", S("t1"), null, 8);
    h.finish();
}

TEST_CASE("dsl_aggregate_value_serde") {
    streams_builder sb;
    sb.stream<str, str>("in")
        .group_by_key()
        .aggregate([] { return i64(0); }, [](const str&, const str& v, i64 agg) { return agg + static_cast<i64>(v.size()); },
                   materialized<>::as("len-sum").with_value_serde(serde<i64>{}))
        .to_stream()
        .to("out-len");
    sb.table<str, str>("users")
        .group_by([](const str& u, const str& r) { return std::pair<str, str>(r, u); })
        .aggregate([] { return i32(0); }, [](const str&, const str&, i32 agg) { return agg + 1; },
                   [](const str&, const str&, i32 agg) { return agg - 1; },
                   materialized<>::as("per-region").with_key_serde(serde<str>{}).with_value_serde(serde<i32>{}))
        .to_stream()
        .to("out-regions");
    harness h("dsl_aggregate_value_serde", sb.build());
    h.input("in", s, s).input("users", s, s).output("out-len", s, l).output("out-regions", s, i);
    h.pipe("in", S("a"), S("xx"), 1);
    h.pipe("in", S("a"), S("yyy"), 2);
    h.pipe("in", S("b"), S(""), 3);
    h.pipe("in", S("a"), null, 4);
    user_moves(h);
    h.finish();
}

TEST_CASE("dsl_table_chain_mixes") {
    streams_builder sb;
    auto t1 = sb.table<str, str>("in").filter([](const str& v) { return v.size() < 3; });
    t1.to_stream().to("out-1");
    auto t2 = t1.map_values([](const str& v) { return v + "m"; }, materialized<>::as("mv"));
    t2.to_stream().to("out-2");
    auto t3 = t2.filter([](const str& v) { return !v.starts_with("2"); }, materialized<>::as("f3").with_caching_disabled());
    t3.to_stream().to("out-3");
    auto t4 = t3.map_values([](const str& k, const str& v) { return k + v; });
    t4.to_stream().to("out-4");
    t4.filter_not([](const str& v) { return v.starts_with("c"); }, materialized<>::as("f5")).to_stream().to("out-5");
    harness h("dsl_table_chain_mixes", sb.build());
    h.input("in", s, s);
    h.output("out-1", s, s).output("out-2", s, s).output("out-3", s, s).output("out-4", s, s).output("out-5", s, s);
    table_inputs(h);
    h.pipe("in", S("b"), S("2x"), 19);
    h.pipe("in", S("b"), S("1"), 20);
    h.pipe("in", S("c"), S("4444"), 21);
    h.pipe("in", S("b"), null, 22);
    h.finish();
}

TEST_CASE("dsl_table_group_by_many_to_one") {
    streams_builder sb;
    auto t = sb.table<str, str>("in");
    t.group_by([](const str& k, const str&) { return std::pair<str, str>("all", k); })
        .reduce([](const str& agg, const str& v) { return agg + "+" + v; }, [](const str& agg, const str& v) { return agg + "-" + v; })
        .to_stream()
        .to("out-all");
    t.group_by([](const str&, const str& v) { return std::pair<str, str>(v.substr(0, 1), v); })
        .count(materialized<>::as("by-first").with_caching_disabled())
        .to_stream()
        .to("out-first");
    harness h("dsl_table_group_by_many_to_one", sb.build());
    h.input("in", s, s).output("out-all", s, s).output("out-first", s, l);
    h.pipe("in", S("a"), S("x1"), 1);
    h.pipe("in", S("b"), S("x2"), 2);
    h.pipe("in", S("c"), S("y1"), 3);
    h.pipe("in", S("a"), S("y2"), 4);
    h.pipe("in", S("b"), null, 5);
    h.pipe("in", S("a"), null, 6);
    h.pipe("in", S("c"), null, 7);
    h.pipe("in", S("c"), null, 8);
    h.finish();
}

TEST_CASE("dsl_to_table_repartitioned") {
    streams_builder sb;
    auto t = sb.stream<ostr, ostr>("in")
                 .select_key([](const ostr& k, const ostr&) { return k ? k->substr(0, 1) : str("none"); })
                 .repartition(repartitioned<>::as("rk"))
                 .to_table(named::as("tt"), materialized<>::as("tt-store").with_caching_disabled());
    t.to_stream().to("out");
    t.filter([](const ostr& v) { return v && v->size() > 1; }).to_stream().to("out-f");
    harness h("dsl_to_table_repartitioned", sb.build());
    h.input("in", s, s).output("out", s, s).output("out-f", s, s);
    h.pipe("in", S("a1"), S("1"), 1);
    h.pipe("in", S("a2"), S("22"), 2);
    h.pipe("in", S("b1"), S("3"), 3);
    h.pipe("in", S("a3"), null, 4);
    h.pipe("in", null, S("44"), 5);
    h.pipe("in", S("b2"), S("55"), 6);
    h.pipe("in", S("b3"), S("55"), 7);
    h.finish();
}

TEST_CASE("dsl_named_stream_aggregations") {
    streams_builder sb;
    auto g = sb.stream<str, str>("in").group_by([](const str& v) { return v; }, grouped<>::as("by-v"));
    g.count(named::as("cnt"), materialized<>::as("cnt-store")).to_stream(named::as("cnt-out")).to("out-count");
    g.aggregate([] { return i64(0); }, [](const str&, const str&, i64 agg) { return agg + 1; }, named::as("agg"),
                materialized<>::as("agg-store").with_value_serde(serde<i64>{}))
        .to_stream()
        .to("out-agg");
    g.reduce([](const str& a, const str& c) { return a + c; }, named::as("red"), materialized<>::as("red-store"))
        .to_stream(named::as("red-out"))
        .to("out-red", produced<>{}.with_name("red-sink"));
    harness h("dsl_named_stream_aggregations", sb.build());
    h.input("in", s, s).output("out-count", s, l).output("out-agg", s, l).output("out-red", s, s);
    h.pipe("in", S("1"), S("x"), 1);
    h.pipe("in", S("2"), S("y"), 2);
    h.pipe("in", S("3"), S("x"), 3);
    h.pipe("in", S("4"), null, 4);
    h.pipe("in", null, S("y"), 5);
    h.finish();
}

TEST_CASE("dsl_pattern_two_subtopologies") {
    streams_builder sb;
    sb.stream_pattern<ostr, str>("p-.*")
        .map_values([](const str& v) { return upper(v); })
        .to("out-p");
    sb.stream<str, str>("q").group_by_key().count().to_stream().to("out-q");
    harness h("dsl_pattern_two_subtopologies", sb.build());
    h.input("p-a", s, s).input("p-b", s, s).input("q", s, s).output("out-p", s, s).output("out-q", s, l);
    h.pipe("p-a", S("1"), S("x"), 1);
    h.pipe("q", S("k"), S("v"), 2);
    h.pipe("p-b", S("2"), S("y"), 3);
    h.pipe("q", S("k"), S("w"), 4);
    h.pipe("p-a", null, S("z"), 5);
    h.finish();
}

TEST_CASE("dsl_to_stream_mapper_split") {
    using stream = kstream<str, ostr>;
    streams_builder sb;
    auto m = sb.table<str, ostr>("in")
                 .to_stream([](const str& k, const ostr& v) { return v ? v->substr(0, 1) : k; })
                 .split(named::as("x-"))
                 .branch([](const ostr& v) { return v && v->size() > 1; },
                         branched::with_function([](stream ks) { return ks.map_values([](const ostr& v) { return ostr(*v + "!"); }); }, "long"))
                 .default_branch(branched::with_function(
                     [](stream ks) {
                         return ks.group_by_key().reduce([](const ostr& a, const ostr& c) { return ostr(*a + *c); }).to_stream();
                     },
                     "short"));
    for (auto& [name, st] : m) st.to("out-" + name);
    harness h("dsl_to_stream_mapper_split", sb.build());
    h.input("in", s, s).output("out-x-long", s, s).output("out-x-short", s, s);
    h.pipe("in", S("a"), S("p1"), 1);
    h.pipe("in", S("b"), S("q"), 2);
    h.pipe("in", S("c"), S("q"), 3);
    h.pipe("in", S("a"), null, 4);
    h.pipe("in", S("d"), S("pp"), 5);
    h.finish();
}

TEST_CASE("dsl_long_keyed_table_regroup") {
    streams_builder sb;
    auto t = sb.table<i64, ostr>("in");  // optional values: the flat_map sees tombstones
    t.group_by([](const i64& k, const ostr& v) { return std::pair<i64, i64>(static_cast<i64>(v->size()), k); })
        .reduce([](i64 a, i64 v) { return a + v; }, [](i64 a, i64 v) { return a - v; })
        .to_stream()
        .to("out-sum");
    t.to_stream()
        .flat_map([](const i64&, const ostr& v) {
            std::vector<std::pair<i32, str>> r;
            if (v)
                for (auto& w : split(*v, ' ')) r.emplace_back(static_cast<i32>(w.size()), w);
            return r;
        })
        .group_by_key()
        .count(materialized<>::as("by-len").with_key_serde(serde<i32>{}))
        .to_stream()
        .to("out-len");
    harness h("dsl_long_keyed_table_regroup", sb.build());
    h.input("in", l, s).output("out-sum", l, l).output("out-len", i, l);
    h.pipe("in", L(10), S("ab cd"), 1);
    h.pipe("in", L(20), S("xyzzy"), 2);
    h.pipe("in", L(10), S("q"), 3);
    h.pipe("in", L(-5), S("ab"), 4);
    h.pipe("in", L(20), null, 5);
    h.pipe("in", L(30), S(""), 6);
    h.finish();
}

TEST_CASE("dsl_double_table_chain") {
    streams_builder sb;
    auto half = sb.stream<str, str>("in").group_by_key().count().map_values(
        [](const i64& c) { return static_cast<double>(c) / 2.0; }, materialized<>::as("half").with_value_serde(serde<double>{}));
    half.to_stream().to("out-half");
    half.filter([](const double& v) { return v >= 1.0; }).to_stream().to("out-big");
    sb.stream<str, double>("nums")
        .group_by_key()
        .reduce([](double a, double v) { return std::max(a, v); }, materialized<>::as("max").with_caching_disabled())
        .to_stream()
        .to("out-max");
    harness h("dsl_double_table_chain", sb.build());
    h.input("in", s, s).input("nums", s, d).output("out-half", s, d).output("out-big", s, d).output("out-max", s, d);
    h.pipe("in", S("a"), S("x"), 1);
    h.pipe("in", S("a"), S("y"), 2);
    h.pipe("in", S("b"), S("z"), 3);
    h.pipe("in", S("a"), S("w"), 4);
    h.pipe("nums", S("n"), D(1.25), 5);
    h.pipe("nums", S("n"), D(-7.5), 6);
    h.pipe("nums", S("n"), D(3.0), 7);
    h.pipe("nums", S("m"), null, 8);
    h.finish();
}

}  // TEST_SUITE
