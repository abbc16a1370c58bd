// Conformance: scenarios of the twenty-first hunt, written as java/.../Hunt21Scenarios.java writes
// them, compared with Java Kafka Streams' outputs. Internal topics read as bytes (hex): versioned
// store changelogs (out of order, tombstones, history retention); cogroup changelogs (plain,
// tumbling, hopping, session, sliding); sliding, session and hopping window store changelogs, with
// emit-on-close; cached aggregate and table source changelogs (with and without source-topic
// reuse); table-table join stores; the foreign-key join's topics for an inner join and a filtered
// view; repartition topics of a windowed table's regrouping, of repartition() with headers and of
// select_key before joins. Then topology descriptions of named, merged, split, processor-API,
// global-store and optimized topologies.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <kstreams/dsl.hpp>
#include <kstreams/state/stores.hpp>

#include "harness.hpp"
#include "windowed_show.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using ostr = std::optional<std::string>;
using i64 = std::int64_t;
using type::l;
using type::s;
using type::x;

namespace {

std::map<str, str> opt(const char* setting) {
    if (!setting) return {};
    return {{"topology.optimization", setting}};
}

auto concat = [](const str& a, const str& v) { return a + "+" + v; };
auto plus = [](const str&, const str& v, const str& agg) { return agg + "+" + v; };
auto hash = [](const str&, const str& v, const str& agg) { return agg + "#" + v; };
auto bar = [](const str&, const str& a, const str& b) { return a + "|" + b; };
auto init = [] { return str(); };
auto first_letter = [](const str&, const str& v) { return std::pair<str, str>(v.substr(0, 1), v); };

/// Hunt21Scenarios.cogroupInputs: two streams of one key space, out of order, late records.
void cogroup_inputs(harness& h) {
    h.pipe("in1", S("a"), S("x1"), 1, {"h=1"});
    h.pipe("in2", S("a"), S("y2"), 7);
    h.pipe("in1", S("a"), S("x3"), 12);
    h.pipe("in2", S("b"), S("y4"), 3, {"h=2"});
    h.pipe("in1", S("a"), S("x5"), 4);
    h.pipe("in1", S("a"), S("x6"), 25);
    h.pipe("in2", S("a"), S("y7"), 9);
    h.pipe("in2", S("b"), S("y8"), 22);
    h.pipe("in1", S("a"), S("x9"), 21);
}

/// Hunt21Scenarios.windowInputs: one stream for window stores: out of order, two keys, late.
void window_inputs(harness& h) {
    h.pipe("in", S("a"), S("w10"), 10, {"h=1"});
    h.pipe("in", S("a"), S("w15"), 15);
    h.pipe("in", S("a"), S("w5"), 5);
    h.pipe("in", S("b"), S("v12"), 12);
    h.pipe("in", S("a"), S("w25"), 25);
    h.pipe("in", S("a"), S("w22"), 22, {"h=2"});
    h.pipe("in", S("a"), S("w9"), 9);
    h.pipe("in", S("b"), S("v40"), 40);
    h.pipe("in", S("a"), S("w33"), 33);
    h.pipe("in", S("a"), S("w60"), 60);
}

/// Hunt21Scenarios.fkInputs: orders against customers with headers: a match, a miss, a foreign
/// key change, no foreign key, customer updates and deletes, an order deleted.
void fk_inputs(harness& h) {
    h.pipe("customers", S("c1"), S("Alice"), 5, {"from=c"});
    h.pipe("orders", S("o1"), S("c1:apple"), 10, {"from=o", "n=1"});
    h.pipe("orders", S("o2"), S("c2:pear"), 11);
    h.pipe("customers", S("c2"), S("Bob"), 12, {"from=c2"});
    h.pipe("orders", S("o1"), S("c2:apple"), 13, {"from=move"});
    h.pipe("orders", S("o2"), S("none"), 14);
    h.pipe("customers", S("c1"), S("Al"), 15);
    h.pipe("orders", S("o3"), S("c1:fig"), 16);
    h.pipe("customers", S("c2"), null, 17, {"from=del"});
    h.pipe("orders", S("o3"), null, 18, {"from=odel"});
    h.pipe("orders", S("o2"), S("c1:pear"), 19);
    h.pipe("orders", S("o4"), null, 20);
}

/// Hunt21Scenarios.twoSides: left and right records keyed by the value's first letter later.
void two_sides(harness& h) {
    h.pipe("left", S("k1"), S("a1"), 10, {"h=1"});
    h.pipe("right", S("k2"), S("a2"), 12);
    h.pipe("left", S("k3"), S("b3"), 8);
    h.pipe("right", S("k4"), S("b4"), 9, {"h=2"});
    h.pipe("left", null, S("a5"), 14);
    h.pipe("right", S("k6"), S("c6"), 30);
    h.pipe("left", S("k7"), S("c7"), 31);
}

}  // namespace

TEST_SUITE("conformance") {

// ---- versioned stores ----

TEST_CASE("wire_versioned_table_changelog") {
    streams_builder b;
    b.table<str, str>("in", materialized<>::as(stores::persistent_versioned_key_value_store("vt", 10ms))).to_stream().to("out");
    harness h("wire_versioned_table_changelog", b.build());
    h.input("in", s, s).output("out", s, s).output("conformance-vt-changelog", s, x);
    h.pipe("in", S("a"), S("A10"), 10, {"h=1"});
    h.pipe("in", S("a"), S("A5"), 5);
    h.pipe("in", S("a"), S("A20"), 20);
    h.pipe("in", S("a"), null, 15);
    h.pipe("in", S("b"), null, 3);
    h.pipe("in", S("a"), S("A1"), 1);
    h.pipe("in", S("b"), S("B30"), 30, {"h=2"});
    h.pipe("in", S("a"), S("A8"), 8);
    h.pipe("in", S("a"), null, 40);
    h.pipe("in", S("c"), S("C35"), 35);
    h.pipe("in", S("a"), null, 41);
    h.dropped();
    h.finish();
}

TEST_CASE("wire_to_table_versioned_regroup") {
    streams_builder b;
    auto tv = b.stream<str, str>("updates").to_table(materialized<>::as(stores::persistent_versioned_key_value_store("tv", 5ms)));
    tv.group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k); }, grouped<>::as("tvg"))
        .count(materialized<>::as("tvc"))
        .to_stream()
        .to("out-count");
    harness h("wire_to_table_versioned_regroup", b.build());
    h.input("updates", s, s).output("out-count", s, l);
    h.output("conformance-tv-changelog", s, x).output("conformance-tvg-repartition", s, x).output("conformance-tvc-changelog", s, x);
    h.pipe("updates", S("a"), S("x1"), 10, {"h=1"});
    h.pipe("updates", S("a"), S("y2"), 5);
    h.pipe("updates", S("b"), S("x3"), 12);
    h.pipe("updates", S("a"), null, 20);
    h.pipe("updates", S("a"), S("z4"), 18);
    h.pipe("updates", S("b"), S("y5"), 30, {"h=2"});
    h.pipe("updates", S("c"), S("x6"), 1);
    h.pipe("updates", S("a"), S("x7"), 31);
    h.dropped();
    h.finish();
}

// ---- cogroup ----

TEST_CASE("wire_cogroup_changelog") {
    streams_builder b;
    auto g1 = b.stream<str, str>("in1").group_by_key();
    auto g2 = b.stream<str, str>("in2").group_by_key();
    g1.cogroup(plus).cogroup(g2, hash).aggregate(init, materialized<>::as("cg")).to_stream().to("out");
    harness h("wire_cogroup_changelog", b.build());
    h.input("in1", s, s).input("in2", s, s).output("out", s, s).output("conformance-cg-changelog", s, x);
    cogroup_inputs(h);
    h.finish();
}

TEST_CASE("wire_cogroup_windowed_changelogs") {
    streams_builder b;
    auto g1 = b.stream<str, str>("in1").group_by_key();
    auto g2 = b.stream<str, str>("in2").group_by_key();
    show_to(g1.cogroup(plus).cogroup(g2, hash).windowed_by(time_windows::of_size_and_grace(10ms, 5ms)).aggregate(init, materialized<>::as("cgt")),
            "out-t");
    show_to(g1.cogroup(plus)
                .cogroup(g2, hash)
                .windowed_by(time_windows::of_size_and_grace(10ms, 5ms).advance_by(5ms))
                .aggregate(init, materialized<>::as("cgh").with_caching_disabled()),
            "out-h");
    harness h("wire_cogroup_windowed_changelogs", b.build());
    h.input("in1", s, s).input("in2", s, s).output("out-t", s, s).output("out-h", s, s);
    h.output("conformance-cgt-changelog", x, x).output("conformance-cgh-changelog", x, x);
    cogroup_inputs(h);
    h.dropped();
    h.finish();
}

TEST_CASE("wire_cogroup_session_changelog") {
    streams_builder b;
    auto g1 = b.stream<str, str>("in1").group_by_key();
    auto g2 = b.stream<str, str>("in2").group_by_key();
    show_to(g1.cogroup(plus)
                .cogroup(g2, hash)
                .windowed_by(session_windows::of_inactivity_gap_and_grace(5ms, 3ms))
                .aggregate(init, bar, materialized<>::as("cgs").with_caching_disabled()),
            "out");
    harness h("wire_cogroup_session_changelog", b.build());
    h.input("in1", s, s).input("in2", s, s).output("out", s, s).output("conformance-cgs-changelog", x, x);
    cogroup_inputs(h);
    h.pipe("in1", S("a"), S("x10"), 15);
    h.pipe("in2", S("a"), S("y11"), 19);
    h.dropped();
    h.finish();
}

TEST_CASE("wire_cogroup_sliding_changelog") {
    streams_builder b;
    auto g1 = b.stream<str, str>("in1").group_by_key();
    auto g2 = b.stream<str, str>("in2").group_by_key();
    show_to(g1.cogroup(plus)
                .cogroup(g2, hash)
                .windowed_by(sliding_windows::of_time_difference_and_grace(6ms, 4ms))
                .aggregate(init, materialized<>::as("cgsl").with_caching_disabled()),
            "out");
    harness h("wire_cogroup_sliding_changelog", b.build());
    h.input("in1", s, s).input("in2", s, s).output("out", s, s).output("conformance-cgsl-changelog", x, x);
    cogroup_inputs(h);
    h.dropped();
    h.finish();
}

// ---- window stores ----

TEST_CASE("wire_sliding_reduce_changelog") {
    streams_builder b;
    show_to(b.stream<str, str>("in")
                .group_by_key()
                .windowed_by(sliding_windows::of_time_difference_and_grace(10ms, 5ms))
                .reduce(concat, materialized<>::as("sl").with_caching_disabled()),
            "out");
    harness h("wire_sliding_reduce_changelog", b.build());
    h.input("in", s, s).output("out", s, s).output("conformance-sl-changelog", x, x);
    window_inputs(h);
    h.dropped();
    h.finish();
}

TEST_CASE("wire_session_merge_changelogs") {
    streams_builder b;
    auto g = b.stream<str, ostr>("in").group_by_key();
    const auto w = session_windows::of_inactivity_gap_and_grace(10ms, 5ms);
    show_to(g.windowed_by(w).reduce([](const ostr& a, const ostr& v) { return ostr(show(a) + "+" + show(v)); },
                                    materialized<>::as("ss").with_caching_disabled()),
            "out");
    g.windowed_by(w).count(materialized<>::as("sc"));
    harness h("wire_session_merge_changelogs", b.build());
    h.input("in", s, s).output("out", s, s).output("conformance-ss-changelog", x, x).output("conformance-sc-changelog", x, x);
    session_inputs(h);
    h.dropped();
    h.finish();
}

TEST_CASE("wire_hopping_changelogs") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto w = time_windows::of_size_and_grace(10ms, 3ms).advance_by(4ms);
    show_to(g.windowed_by(w).reduce(concat, materialized<>::as("hop").with_caching_disabled()), "out");
    g.windowed_by(w).count(materialized<>::as("hopc"));
    harness h("wire_hopping_changelogs", b.build());
    h.input("in", s, s).output("out", s, s).output("conformance-hop-changelog", x, x).output("conformance-hopc-changelog", x, x);
    window_inputs(h);
    h.dropped();
    h.finish();
}

TEST_CASE("wire_emit_on_close_time_windows") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 2ms)).emit_strategy(emit_strategy::on_window_close()).reduce(concat, materialized<>::as("teoc")),
            "out-t");
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 2ms).advance_by(5ms))
                .emit_strategy(emit_strategy::on_window_close())
                .reduce(concat, materialized<>::as("heoc")),
            "out-h");
    harness h("wire_emit_on_close_time_windows", b.build());
    h.input("in", s, s).output("out-t", s, s).output("out-h", s, s);
    h.output("conformance-teoc-changelog", x, x).output("conformance-heoc-changelog", x, x);
    window_inputs(h);
    h.dropped();
    h.finish();
}

TEST_CASE("wire_emit_on_close_session") {
    streams_builder b;
    show_to(b.stream<str, ostr>("in")
                .group_by_key()
                .windowed_by(session_windows::of_inactivity_gap_and_grace(10ms, 5ms))
                .emit_strategy(emit_strategy::on_window_close())
                .reduce([](const ostr& a, const ostr& v) { return ostr(show(a) + "+" + show(v)); }, materialized<>::as("seoc")),
            "out");
    harness h("wire_emit_on_close_session", b.build());
    h.input("in", s, s).output("out", s, s).output("conformance-seoc-changelog", x, x);
    session_inputs(h);
    h.dropped();
    h.finish();
}

TEST_CASE("wire_emit_on_close_sliding") {
    streams_builder b;
    show_to(b.stream<str, str>("in")
                .group_by_key()
                .windowed_by(sliding_windows::of_time_difference_and_grace(10ms, 5ms))
                .emit_strategy(emit_strategy::on_window_close())
                .reduce(concat, materialized<>::as("sleoc")),
            "out");
    harness h("wire_emit_on_close_sliding", b.build());
    h.input("in", s, s).output("out", s, s).output("conformance-sleoc-changelog", x, x);
    window_inputs(h);
    h.dropped();
    h.finish();
}

TEST_CASE("wire_suppress_session_sliding_changelogs") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(session_windows::of_inactivity_gap_and_grace(5ms, 2ms))
                .count()
                .suppress(suppressed::until_window_closes(buffer_config::unbounded()).with_name("sup-s")),
            "out-s");
    show_to(g.windowed_by(sliding_windows::of_time_difference_and_grace(5ms, 2ms))
                .count()
                .suppress(suppressed::until_window_closes(buffer_config::unbounded()).with_name("sup-sl")),
            "out-sl");
    harness h("wire_suppress_session_sliding_changelogs", b.build());
    h.input("in", s, s).output("out-s", s, l).output("out-sl", s, l);
    h.output("conformance-sup-s-store-changelog", x, x).output("conformance-sup-sl-store-changelog", x, x);
    window_inputs(h);
    h.dropped();
    h.finish();
}

TEST_CASE("wire_to_table_cached_changelog") {
    streams_builder b;
    auto t = b.stream<str, str>("in").to_table(named::as("tt-node"), materialized<>::as("tt"));
    t.to_stream().to("out");
    t.map_values([](const str& v) { return v + "!"; }, materialized<>::as("ttm").with_caching_disabled()).to_stream().to("out-m");
    harness h("wire_to_table_cached_changelog", b.build());
    h.input("in", s, s).output("out", s, s).output("out-m", s, s);
    h.output("conformance-tt-changelog", s, x).output("conformance-ttm-changelog", s, x);
    h.pipe("in", S("a"), S("1"), 10, {"h=1"});
    h.pipe("in", S("a"), S("2"), 5);
    h.pipe("in", S("b"), null, 6);
    h.pipe("in", S("a"), null, 7, {"h=2"});
    h.pipe("in", S("b"), S("3"), 8);
    h.finish();
}

TEST_CASE("wire_unlimited_windows_changelog") {
    streams_builder b;
    show_to(b.stream<str, str>("in")
                .group_by_key()
                .windowed_by(unlimited_windows::of().start_on(8ms))
                .reduce(concat, materialized<>::as("unl").with_caching_disabled()),
            "out");
    harness h("wire_unlimited_windows_changelog", b.build());
    h.input("in", s, s).output("out", s, s).output("conformance-unl-changelog", x, x);
    window_inputs(h);
    h.dropped();
    h.finish();
}

// ---- key-value stores: caches, source-topic reuse, table joins ----

namespace {
void cached_tables(const char* scenario, const char* setting) {
    streams_builder b;
    auto src = b.table<str, str>("in", materialized<>::as("src"));
    src.to_stream().to("out-src");
    src.group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k); }, grouped<>::as("byv"))
        .count(materialized<>::as("cc"))
        .to_stream()
        .to("out-count");
    b.stream<str, str>("in2").group_by_key().reduce(concat, materialized<>::as("red")).to_stream().to("out-red");
    harness h(scenario, b.build(opt(setting)), opt(setting));
    h.input("in", s, s).input("in2", s, s).output("out-src", s, s).output("out-count", s, l).output("out-red", s, s);
    h.output("conformance-src-changelog", s, x).output("conformance-byv-repartition", s, x).output("conformance-cc-changelog", s, x);
    h.output("conformance-red-changelog", s, x);
    h.pipe("in", S("k1"), S("a1"), 10, {"h=1"});
    h.pipe("in2", S("x"), S("r1"), 11, {"g=1"});
    h.pipe("in", S("k2"), S("a2"), 5);
    h.pipe("in", S("k1"), S("b1"), 12);
    h.pipe("in2", S("x"), S("r2"), 3);
    h.pipe("in", S("k2"), null, 13, {"h=2"});
    h.pipe("in", S("k3"), null, 14);
    h.pipe("in2", S("y"), S("r3"), 15);
    h.pipe("in", S("k1"), S("b1"), 16);
    h.finish();
}
}  // namespace

TEST_CASE("wire_cached_table_changelogs") { cached_tables("wire_cached_table_changelogs", nullptr); }
TEST_CASE("wire_cached_table_changelogs_optimized") { cached_tables("wire_cached_table_changelogs_optimized", "all"); }

TEST_CASE("wire_table_join_changelogs") {
    streams_builder b;
    auto lt = b.table<str, str>("lt");
    auto rt = b.table<str, str>("rt");
    lt.join(rt, [](const str& x1, const str& y1) { return x1 + "+" + y1; }, materialized<>::as("tj").with_caching_disabled()).to_stream().to("out-j");
    lt.left_join(rt, [](const str& x1, const ostr& y1) { return x1 + "+" + show(y1); }, named::as("tl"), materialized<>::as("tlj"))
        .to_stream()
        .to("out-l");
    lt.outer_join(rt, [](const ostr& x1, const ostr& y1) { return show(x1) + "+" + show(y1); },
                  materialized<>::as("toj").with_caching_disabled())
        .to_stream()
        .to("out-o");
    harness h("wire_table_join_changelogs", b.build());
    h.input("lt", s, s).input("rt", s, s).output("out-j", s, s).output("out-l", s, s).output("out-o", s, s);
    h.output("conformance-tj-changelog", s, x).output("conformance-tlj-changelog", s, x).output("conformance-toj-changelog", s, x);
    h.pipe("lt", S("a"), S("L1"), 10, {"h=1"});
    h.pipe("rt", S("a"), S("R1"), 5);
    h.pipe("rt", S("b"), S("R2"), 12, {"h=2"});
    h.pipe("lt", S("a"), S("L2"), 3);
    h.pipe("rt", S("a"), null, 14);
    h.pipe("lt", S("b"), null, 15);
    h.pipe("rt", S("b"), null, 16);
    h.pipe("lt", S("c"), S("L3"), 17);
    h.finish();
}

// ---- foreign-key joins ----

TEST_CASE("wire_fk_inner_topics_headers") {
    streams_builder b;
    auto orders = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    orders.join(customers, fk, [](const str& o, const str& c) { return o + "/" + c; }, table_joined<>::as("fki"))
        .to_stream()
        .to("out");
    harness h("wire_fk_inner_topics_headers", b.build());
    h.input("orders", s, s).input("customers", s, s).output("out", s, s);
    h.output("conformance-fki-subscription-registration-topic", s, x).output("conformance-fki-subscription-response-topic", s, x);
    fk_inputs(h);
    h.finish();
}

TEST_CASE("wire_fk_left_filtered_view") {
    streams_builder b;
    auto orders = b.table<str, str>("orders").filter([](const str&, const str& v) { return v.find("pear") == str::npos; });
    auto customers = b.table<str, str>("customers");
    orders.left_join(customers, fk, [](const str& o, const ostr& c) { return o + "/" + show(c); }, table_joined<>::as("fkl"))
        .to_stream()
        .to("out");
    harness h("wire_fk_left_filtered_view", b.build());
    h.input("orders", s, s).input("customers", s, s).output("out", s, s);
    h.output("conformance-fkl-subscription-registration-topic", s, x).output("conformance-fkl-subscription-response-topic", s, x);
    h.output("conformance-fkl-subscription-store-changelog", x, x);
    fk_inputs(h);
    h.finish();
}

// ---- repartition topics ----

TEST_CASE("wire_windowed_table_regroup_repartition") {
    streams_builder b;
    b.stream<str, str>("in")
        .group_by_key()
        .windowed_by(time_windows::of_size_with_no_grace(10ms))
        .count(materialized<>::as("wc").with_caching_disabled())
        .group_by([](const windowed<str>& w, const i64& c) { return std::pair<str, i64>(w.key, c); }, grouped<>::as("wgb"))
        .reduce([](i64 a, i64 c) { return a + c; }, [](i64 a, i64 c) { return a - c; }, materialized<>::as("wsum").with_caching_disabled())
        .to_stream()
        .to("out");
    harness h("wire_windowed_table_regroup_repartition", b.build());
    h.input("in", s, s).output("out", s, l).output("conformance-wgb-repartition", s, x).output("conformance-wc-changelog", x, x);
    window_inputs(h);
    h.dropped();
    h.finish();
}

TEST_CASE("wire_repartition_headers_timestamps") {
    streams_builder b;
    auto rp = b.stream<str, ostr>("in").repartition(repartitioned<>::as("rp"));
    rp.to("out-rp");
    rp.group_by([](const str&, const ostr& v) { return v ? v->substr(0, 1) : str("none"); }, grouped<>::as("gb"))
        .count()
        .to_stream()
        .to("out-count");
    harness h("wire_repartition_headers_timestamps", b.build());
    h.input("in", s, s).output("out-rp", s, s).output("out-count", s, l);
    h.output("conformance-rp-repartition", s, s).output("conformance-gb-repartition", s, s);
    h.pipe("in", S("k1"), S("a1"), 10, {"h=1", "h=2"});
    h.pipe("in", S("k2"), S("b2"), 5, {"x="});
    h.pipe("in", null, S("a3"), 12, {"n=null-key"});
    h.pipe("in", S("k4"), null, 7, {"n=null-value"});
    h.pipe("in", S("k1"), S("a5"), 3);
    h.dropped();
    h.finish();
}

TEST_CASE("wire_select_key_stream_join_repartitions") {
    streams_builder b;
    auto by_letter = [](const str&, const str& v) { return v.substr(0, 1); };
    auto lt = b.stream<str, str>("left").select_key(by_letter);
    auto rt = b.stream<str, str>("right").select_key(by_letter);
    lt.join(rt, [](const str& x1, const str& y1) { return x1 + "+" + y1; }, join_windows::of_time_difference_and_grace(5ms, 2ms),
            stream_joined<>{}.with_name("sj"))
        .to("out");
    harness h("wire_select_key_stream_join_repartitions", b.build());
    h.input("left", s, s).input("right", s, s).output("out", s, s);
    h.output("conformance-sj-left-repartition", s, s).output("conformance-sj-right-repartition", s, s);
    two_sides(h);
    h.finish();
}

TEST_CASE("wire_select_key_table_join_repartition") {
    streams_builder b;
    auto tab = b.table<str, str>("tab");
    b.stream<str, str>("left")
        .select_key([](const str&, const str& v) { return v.substr(0, 1); })
        .left_join(tab, [](const str& x1, const ostr& y1) { return x1 + "/" + show(y1); }, joined<>{}.with_name("stj"))
        .to("out");
    harness h("wire_select_key_table_join_repartition", b.build());
    h.input("left", s, s).input("tab", s, s).output("out", s, s);
    h.output("conformance-stj-repartition", s, s);
    h.pipe("tab", S("a"), S("TA"), 1);
    h.pipe("left", S("k1"), S("a1"), 10, {"h=1"});
    h.pipe("left", S("k3"), S("b3"), 8);
    h.pipe("tab", S("b"), S("TB"), 9);
    h.pipe("left", null, S("a5"), 14);
    h.pipe("left", S("k7"), S("c7"), 31, {"h=2"});
    h.pipe("tab", S("a"), null, 32);
    h.pipe("left", S("k8"), S("a8"), 33);
    h.finish();
}

// ---- topology descriptions ----

namespace {
struct tag_processor final : processor<str, str, str, str> {
    void process(const record<str, str>& r) override { context().forward(r.with_value(r.value + "#")); }
};
struct tag_values final : fixed_key_processor<str, str, str> {
    void process(const record<str, str>& r) override { context().forward(r.with_value(r.value + "~")); }
};
struct into_store final : processor<str, str, str, str> {
    void init(context_type& ctx) override {
        processor::init(ctx);
        store = &ctx.get_state_store<key_value_store<str, str>>("gs");
    }
    void process(const record<str, str>& r) override { store->put(r.key, r.value); }
    key_value_store<str, str>* store = nullptr;
};
}  // namespace

TEST_CASE("describe_named_everything") {
    streams_builder b;
    auto st = b.stream<str, str>("in", consumed<>{}.with_name("src"));
    auto f = st.filter([](const str&, const str& v) { return !v.empty(); }, named::as("keep"))
                 .map_values([](const str& v) { return v + "!"; }, named::as("bang"))
                 .select_key([](const str&, const str& v) { return v.substr(0, 1); }, named::as("rekey"));
    f.group_by_key(grouped<>::as("grp")).count(named::as("cnt"), materialized<>::as("cnt-store")).to_stream(named::as("cnt-out")).to("out-count", produced<>{}.with_name("cnt-sink"));
    auto other = b.stream<str, str>("other", consumed<>{}.with_name("other-src"));
    f.join(other, [](const str& x1, const str& y1) { return x1 + "+" + y1; }, join_windows::of_time_difference_with_no_grace(5ms),
           stream_joined<>{}.with_name("jn").with_store_name("jn-store"))
        .to("out-join", produced<>{}.with_name("join-sink"));
    auto tab = b.table<str, str>("tab", consumed<>{}.with_name("tab-src"), materialized<>::as("tab-store"));
    tab.filter([](const str&, const str& v) { return v.size() > 1; }, named::as("tab-keep"))
        .join(tab, [](const str& x1, const str& y1) { return x1 + y1; }, named::as("self"))
        .to_stream(named::as("self-out"))
        .to("out-self", produced<>{}.with_name("self-sink"));
    harness h("describe_named_everything", b.build());
    h.input("in", s, s).input("other", s, s).input("tab", s, s).output("out-count", s, l).output("out-join", s, s).output("out-self", s, s);
    h.pipe("tab", S("a"), S("ab"), 1);
    h.pipe("in", S("k"), S("ax"), 2);
    h.pipe("other", S("a!"), S("o"), 3);
    h.pipe("other", S("a"), S("o2"), 4);
    h.finish();
}

TEST_CASE("describe_merge_split_processors") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, str>(stores::in_memory_key_value_store("seen")));
    auto st = b.stream<str, str>("in");
    auto br = st.split(named::as("sp-"))
                  .branch([](const str&, const str& v) { return v.starts_with("a"); }, branched::as("a"))
                  .branch([](const str&, const str& v) { return v.starts_with("b"); }, branched::as("b"))
                  .default_branch(branched::as("rest"));
    auto merged = br.at("sp-a").merge(br.at("sp-b"), named::as("ab"));
    merged.process([] { return std::make_unique<tag_processor>(); }, named::as("tagger"), {"seen"})
        .process_values([] { return std::make_unique<tag_values>(); }, named::as("tilde"), {"seen"})
        .to("out");
    br.at("sp-rest").merge(b.stream<str, str>("in2")).to("out-rest");
    harness h("describe_merge_split_processors", b.build());
    h.input("in", s, s).input("in2", s, s).output("out", s, s).output("out-rest", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("b2"), 2);
    h.pipe("in", S("k3"), S("c3"), 3);
    h.pipe("in2", S("k4"), S("d4"), 4);
    h.finish();
}

TEST_CASE("describe_global_stores") {
    streams_builder b;
    b.add_global_store<str, str>(stores::key_value_store_builder<str, str>(stores::in_memory_key_value_store("gs")).with_logging_disabled(),
                                 "gs-topic", consumed<>{}.with_name("gs-src"), [] { return std::make_unique<into_store>(); });
    auto glob = b.global_table<str, str>("glob", consumed<>{}.with_name("glob-src"), materialized<>::as("glob-store"));
    auto glob2 = b.global_table<str, str>("glob2");
    b.stream<str, str>("in")
        .join(glob, [](const str&, const str& v) { return v; }, [](const str& x1, const str& y1) { return x1 + "#" + y1; }, named::as("gj"))
        .left_join(glob2, [](const str& k, const str&) { return k; }, [](const str& x1, const ostr& y1) { return x1 + "%" + show(y1); })
        .to("out");
    harness h("describe_global_stores", b.build());
    h.input("gs-topic", s, s).input("glob", s, s).input("glob2", s, s).input("in", s, s).output("out", s, s);
    h.pipe("glob", S("g"), S("G"), 1);
    h.pipe("glob2", S("k"), S("K"), 2);
    h.pipe("gs-topic", S("s"), S("S"), 3);
    h.pipe("in", S("k"), S("g"), 4);
    h.finish();
}

namespace {
void optimized_repartitions(const char* scenario, const char* setting) {
    streams_builder b;
    auto rekeyed = b.stream<str, str>("in").select_key([](const str&, const str& v) { return v.substr(0, 1); });
    rekeyed.group_by_key().count().to_stream().to("out-count");
    rekeyed.group_by_key().reduce(concat).to_stream().to("out-reduce");
    rekeyed.join(b.table<str, str>("tab"), [](const str& x1, const str& y1) { return x1 + "/" + y1; }).to("out-join");
    rekeyed.repartition(repartitioned<>::as("explicit")).to("out-explicit");
    harness h(scenario, b.build(opt(setting)), opt(setting));
    h.input("in", s, s).input("tab", s, s).output("out-count", s, l).output("out-reduce", s, s).output("out-join", s, s).output("out-explicit", s, s);
    h.pipe("tab", S("a"), S("TA"), 1);
    h.pipe("in", S("k1"), S("a1"), 2);
    h.pipe("in", S("k2"), S("a2"), 3);
    h.pipe("in", S("k3"), S("b3"), 4);
    h.finish();
}
}  // namespace

TEST_CASE("describe_repartitions_none") { optimized_repartitions("describe_repartitions_none", nullptr); }
TEST_CASE("describe_repartitions_all") { optimized_repartitions("describe_repartitions_all", "all"); }

TEST_CASE("describe_table_ops_named") {
    streams_builder b;
    auto t = b.table<str, str>("in", consumed<>{}.with_name("tsrc"), materialized<>::as("tsrc-store"));
    auto mv = t.map_values([](const str& v) { return v + "!"; }, named::as("tbang"), materialized<>::as("tbang-store"));
    mv.filter_not([](const str&, const str& v) { return v.starts_with("x"); }, named::as("tnox"))
        .suppress(suppressed::until_time_limit(5ms, buffer_config::unbounded()).with_name("tsup"))
        .to_stream(named::as("tstream"))
        .to("out", produced<>{}.with_name("tsink"));
    mv.group_by(first_letter, grouped<>::as("tgroup"))
        .aggregate(init, [](const str&, const str& v, const str& a) { return a + "+" + v; },
                   [](const str&, const str& v, const str& a) { return a + "-" + v; }, named::as("tagg"), materialized<>::as("tagg-store"))
        .to_stream()
        .to("out-agg");
    harness h("describe_table_ops_named", b.build());
    h.input("in", s, s).output("out", s, s).output("out-agg", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("x2"), 2);
    h.pipe("in", S("k1"), S("b1"), 9);
    h.finish();
}

}  // TEST_SUITE
