// Conformance: topology.optimization (streams_builder::build(properties)) and the repartition topic
// a re-keyed stream's joins share, written as java/.../OptimizationScenarios.java writes them.
#include <doctest/doctest.h>

#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using ostr = std::optional<str>;
using type::l;
using type::s;

namespace {

str show(const ostr& v) { return v ? *v : str("null"); }
str first_char(const str& v) { return v.substr(0, 1); }
const join_windows w = join_windows::of_time_difference_with_no_grace(10ms);

std::map<str, str> opt(const char* setting) {
    if (!setting) return {};
    return {{"topology.optimization", setting}};
}

/// Two table sources (one with a store name, one materialized because a join reads it).
void table_sources(const char* scenario, const char* setting) {
    streams_builder b;
    auto users = b.table<str, str>("users", materialized<>::as("user-store"));
    auto regions = b.table<str, str>("regions");
    b.stream<str, str>("clicks")
        .join(users, [](const str& c, const str& u) { return c + "@" + u; })
        .left_join(regions, [](const str& x, const ostr& r) { return x + "/" + show(r); })
        .to("out");
    harness h(scenario, b.build(opt(setting)), opt(setting));
    h.input("users", s, s).input("regions", s, s).input("clicks", s, s).output("out", s, s);
    h.pipe("users", S("alice"), S("eu"), 1);
    h.pipe("regions", S("alice"), S("north"), 2);
    h.pipe("clicks", S("alice"), S("p1"), 5);
    h.pipe("users", S("alice"), null, 6);
    h.pipe("clicks", S("alice"), S("p2"), 7);
    h.pipe("users", S("bob"), S("us"), 9);
    h.pipe("clicks", S("bob"), S("p3"), 10);
    h.finish();
}

/// One re-keyed stream: an unnamed grouping below a filter, one beside it, a named one.
void groupings(const char* scenario, const char* setting) {
    streams_builder b;
    auto rekeyed = b.stream<str, str>("in").select_key(first_char);
    auto kept = rekeyed.filter([](const str& v) { return !v.ends_with("x"); });
    kept.group_by_key().count().to_stream().to("counts");
    rekeyed.group_by_key().reduce([](const str& a, const str& c) { return a + "," + c; }).to_stream().to("reduced");
    rekeyed.group_by_key(grouped<>::as("named"))
        .aggregate([] { return str(); }, [](const str&, const str& v, const str& agg) { return agg + v; })
        .to_stream()
        .to("aggregated");
    rekeyed.to("rekeyed");
    kept.to("kept");
    harness h(scenario, b.build(opt(setting)), opt(setting));
    h.input("in", s, s).output("counts", s, l).output("reduced", s, s).output("aggregated", s, s).output("rekeyed", s, s).output("kept", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("b2"), 2);
    h.pipe("in", S("k3"), S("ax"), 3);
    h.pipe("in", S("k4"), S("a3"), 4);
    h.pipe("in", null, S("b4"), 5);
    h.finish();
}

/// One re-keyed stream joined with two streams (an inner and a left join), named or not.
void joined_twice(const char* scenario, const char* setting, bool named) {
    streams_builder b;
    auto rekeyed = b.stream<str, str>("in").select_key(first_char);
    auto jx = named ? stream_joined<>{}.with_name("jx") : stream_joined<>{};
    auto jy = named ? stream_joined<>{}.with_name("jy") : stream_joined<>{};
    rekeyed.join(b.stream<str, str>("x"), [](const str& a, const str& c) { return a + "+" + c; }, w, jx).to("out-x");
    rekeyed.left_join(b.stream<str, str>("y"), [](const str& a, const ostr& c) { return a + "+" + show(c); }, w, jy).to("out-y");
    harness h(scenario, b.build(opt(setting)), opt(setting));
    h.input("in", s, s).input("x", s, s).input("y", s, s).output("out-x", s, s).output("out-y", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("x", S("a"), S("X1"), 2);
    h.pipe("y", S("a"), S("Y1"), 3);
    h.pipe("in", S("k2"), S("b2"), 4);
    h.pipe("in", S("k3"), S("c3"), 30);
    h.finish();
}

/// One re-keyed stream aggregated, joined with a stream and joined with a table.
void aggregated_and_joined(const char* scenario, const char* setting) {
    streams_builder b;
    auto rekeyed = b.stream<str, str>("in").select_key(first_char);
    rekeyed.group_by_key().count().to_stream().to("counts");
    rekeyed.join(b.stream<str, str>("x"), [](const str& a, const str& c) { return a + "+" + c; }, w).to("out-x");
    rekeyed.join(b.table<str, str>("t"), [](const str& a, const str& t) { return a + "/" + t; }).to("out-t");
    harness h(scenario, b.build(opt(setting)), opt(setting));
    h.input("in", s, s).input("x", s, s).input("t", s, s).output("counts", s, l).output("out-x", s, s).output("out-t", s, s);
    h.pipe("t", S("a"), S("T1"), 0);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("x", S("a"), S("X1"), 2);
    h.pipe("in", S("k2"), S("a2"), 3);
    h.pipe("in", S("k3"), S("b3"), 4);
    h.finish();
}

/// Re-keys to its value (Java's r.withKey(r.value())).
struct key_from_value : processor<str, str, str, str> {
    void process(const record<str, str>& r) override { context().forward(r.with_key(r.value)); }
};

/// A stream joined with itself.
void self_join(const char* scenario, const char* setting, bool left) {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    if (left) st.left_join(st, [](const str& a, const ostr& c) { return a + "+" + show(c); }, w).to("out");
    else st.join(st, [](const str& a, const str& c) { return a + "+" + c; }, w).to("out");
    harness h(scenario, b.build(opt(setting)), opt(setting));
    h.input("in", s, s).output("out", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 5);
    h.pipe("in", S("b"), S("3"), 6);
    h.pipe("in", S("a"), S("4"), 20);
    h.pipe("in", null, S("5"), 21);
    h.pipe("in", S("a"), S("6"), 40);
    h.finish();
}

/// A table source, a re-keyed stream aggregated and joined with it, a self-join.
void everything(const char* scenario, const char* setting) {
    streams_builder b;
    auto users = b.table<str, str>("users", materialized<>::as("user-store"));
    auto rekeyed = b.stream<str, str>("in").select_key(first_char);
    rekeyed.group_by_key().count().to_stream().to("counts");
    rekeyed.join(users, [](const str& v, const str& u) { return v + "@" + u; }).to("enriched");
    auto st = b.stream<str, str>("self");
    st.join(st, [](const str& a, const str& c) { return a + "+" + c; }, w).to("pairs");
    harness h(scenario, b.build(opt(setting)), opt(setting));
    h.input("users", s, s).input("in", s, s).input("self", s, s).output("counts", s, l).output("enriched", s, s).output("pairs", s, s);
    h.pipe("users", S("a"), S("alice"), 0);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("b2"), 2);
    h.pipe("self", S("s"), S("1"), 3);
    h.pipe("self", S("s"), S("2"), 4);
    h.finish();
}

ostr before_comma(const str& v) {
    const auto at = v.find(',');
    return at == str::npos ? std::nullopt : ostr(v.substr(0, at));
}

/// A stream re-keyed to null now and then, counted and left-joined: the join's repartition topic
/// keeps null keys, the count's drops them; merged, the one topic keeps them.
void null_keys(const char* scenario, const char* setting, std::vector<str> topics) {
    streams_builder b;
    auto rekeyed = b.stream<str, str>("in").select_key(before_comma);
    rekeyed.group_by_key().count().to_stream().to("counts");
    rekeyed.left_join(b.stream<ostr, str>("x"), [](const str& a, const ostr& c) { return a + "+" + show(c); }, w).to("out");
    harness h(scenario, b.build(opt(setting)), opt(setting));
    h.input("in", s, s).input("x", s, s).output("counts", s, l).output("out", s, s);
    for (const auto& t : topics) h.output(t, s, s);
    h.pipe("in", S("k1"), S("a,1"), 1);
    h.pipe("in", S("k2"), S("nocomma"), 2);
    h.pipe("x", S("a"), S("X"), 3);
    h.pipe("in", S("k3"), S("b,2"), 30);
    h.finish();
}

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("opt_null_keys_none") {
    null_keys("opt_null_keys_none", nullptr,
              {"conformance-KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition", "conformance-KSTREAM-KEY-SELECT-0000000001-repartition"});
}
TEST_CASE("opt_null_keys_merge") {
    null_keys("opt_null_keys_merge", "merge.repartition.topics", {"conformance-KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition"});
}

TEST_CASE("opt_table_sources_none") { table_sources("opt_table_sources_none", nullptr); }
TEST_CASE("opt_table_sources_reuse") { table_sources("opt_table_sources_reuse", "reuse.ktable.source.topics"); }
TEST_CASE("opt_groupings_none") { groupings("opt_groupings_none", "none"); }
TEST_CASE("opt_groupings_merge") { groupings("opt_groupings_merge", "merge.repartition.topics"); }
TEST_CASE("rekeyed_joined_twice") { joined_twice("rekeyed_joined_twice", nullptr, false); }
TEST_CASE("rekeyed_joined_twice_named") { joined_twice("rekeyed_joined_twice_named", nullptr, true); }
TEST_CASE("opt_joined_twice_merge") { joined_twice("opt_joined_twice_merge", "merge.repartition.topics", false); }
TEST_CASE("opt_joined_twice_named_merge") { joined_twice("opt_joined_twice_named_merge", "merge.repartition.topics", true); }
TEST_CASE("rekeyed_aggregated_and_joined") { aggregated_and_joined("rekeyed_aggregated_and_joined", nullptr); }
TEST_CASE("opt_aggregated_and_joined_merge") { aggregated_and_joined("opt_aggregated_and_joined_merge", "merge.repartition.topics"); }

TEST_CASE("opt_merged_then_grouped_merge") {
    streams_builder b;
    auto a = b.stream<str, str>("in-a").select_key(first_char);
    auto c = b.stream<str, str>("in-b").map([](const str&, const str& v) {
        str upper = v;
        for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        return key_value<str, str>{first_char(v), upper};
    });
    a.merge(c).group_by_key().count().to_stream().to("counts");
    harness h("opt_merged_then_grouped_merge", b.build(opt("merge.repartition.topics")), opt("merge.repartition.topics"));
    h.input("in-a", s, s).input("in-b", s, s).output("counts", s, l);
    h.pipe("in-a", S("k1"), S("a1"), 1);
    h.pipe("in-b", S("k2"), S("a2"), 2);
    h.pipe("in-b", S("k3"), S("b3"), 3);
    h.finish();
}

TEST_CASE("opt_value_changed_merge") {
    streams_builder b;
    auto rekeyed = b.stream<str, str>("in").select_key(first_char);
    rekeyed.map_values([](const str& v) { return v + "!"; }).group_by_key().count().to_stream().to("counts");
    rekeyed.group_by_key().count().to_stream().to("counts2");
    auto processed = b.stream<str, str>("in2").process([] { return std::make_unique<key_from_value>(); });
    processed.group_by_key().count().to_stream().to("counts3");
    processed.group_by_key().reduce([](const str& x, const str& y) { return x + y; }).to_stream().to("reduced3");
    harness h("opt_value_changed_merge", b.build(opt("merge.repartition.topics")), opt("merge.repartition.topics"));
    h.input("in", s, s).input("in2", s, s).output("counts", s, l).output("counts2", s, l).output("counts3", s, l).output("reduced3", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in2", S("k2"), S("v"), 2);
    h.finish();
}

TEST_CASE("opt_self_join_none") { self_join("opt_self_join_none", nullptr, false); }
TEST_CASE("opt_self_join_single_store") { self_join("opt_self_join_single_store", "single.store.self.join", false); }
TEST_CASE("opt_self_left_join_single_store") { self_join("opt_self_left_join_single_store", "single.store.self.join", true); }
TEST_CASE("opt_all") { everything("opt_all", "all"); }
TEST_CASE("opt_list") { everything("opt_list", "merge.repartition.topics, reuse.ktable.source.topics"); }

}  // TEST_SUITE
