// Conformance: more table and window scenarios, written as java/.../MoreScenarios.java writes
// them, compared with Java Kafka Streams' outputs: old values through suppress and through joins
// of views into a regrouping, hopping windows whose advance does not divide their size, sliding
// windows at their exact bounds, emit-on-close for aggregate and reduce (with headers), time
// limits on windowed tables.
#include <doctest/doctest.h>

#include <cctype>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <kstreams/dsl.hpp>

#include "harness.hpp"
#include "windowed_show.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using ostr = std::optional<std::string>;
using type::l;
using type::s;

namespace {

auto concat = [](const str& a, const str& v) { return a + "+" + v; };
auto slash = [](const str&, const str& v, const str& agg) { return agg + "/" + v; };
auto by_first_letter = [](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k); };

str upper(str v) {
    for (auto& c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return v;
}

/// MoreScenarios.pipeCounted: pipes a record, then prints the drops counted so far.
void pipe_counted(harness& h, const str& topic, const datum& key, const datum& value, std::int64_t ts) {
    h.pipe(topic, key, value, ts);
    h.dropped();
}

/// MoreScenarios.letterOrNull: no key for values starting with "n", else the first letter.
ostr letter_or_null(const str& v) { return v.rfind("n", 0) == 0 ? ostr() : ostr(v.substr(0, 1)); }

/// MoreScenarios.Spread: for a value "t1,t2,..." forwards one record per time, valued "v<t>", at
/// that time.
struct spread_processor : processor<str, str, str, str> {
    void process(const record<str, str>& r) override {
        for (const auto& t : split(r.value, ',')) context().forward(record<str, str>{r.key, "v" + t, std::stoll(t)});
    }
};

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("table_suppress_regroup") {
    streams_builder b;
    auto sup = b.table<str, str>("in").suppress(suppressed::until_time_limit(10ms, buffer_config::unbounded()));
    sup.group_by(by_first_letter).count().to_stream().to("out-count");
    sup.map_values([](const str& v) { return v + "!"; }).to_stream().to("out-mapped");
    harness h("table_suppress_regroup", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-mapped", s, s);
    h.pipe("in", S("a"), S("x1"), 10);
    h.pipe("in", S("b"), S("y1"), 12);
    h.pipe("in", S("a"), S("x2"), 15);
    h.pipe("in", S("a"), S("y2"), 18);
    h.pipe("in", S("c"), S("x3"), 25);
    h.pipe("in", S("b"), null, 26);
    h.pipe("in", S("a"), S("z1"), 27);
    h.pipe("in", S("d"), S("y4"), 40);
    h.pipe("in", S("c"), null, 41);
    h.pipe("in", S("c"), S("z2"), 42);
    h.pipe("in", S("e"), S("x5"), 60);
    h.finish();
}

TEST_CASE("table_join_regroup") {
    streams_builder b;
    auto lt = b.table<str, str>("left").filter([](const str& v) { return v.rfind("x", 0) != 0; });
    auto rt = b.table<str, str>("right");
    lt.left_join(rt, [](const str& x, const ostr& y) { return x + "+" + show(y); })
        .map_values([](const str& v) { return upper(v); })
        .group_by(by_first_letter)
        .reduce([](const str& agg, const str& v) { return agg + "," + v; }, [](const str& agg, const str& v) { return agg + "-" + v; })
        .to_stream()
        .to("out-left");
    lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); })
        .group_by(by_first_letter)
        .count()
        .to_stream()
        .to("out-outer");
    harness h("table_join_regroup", b.build());
    h.input("left", s, s).input("right", s, s).output("out-left", s, s).output("out-outer", s, l);
    h.pipe("left", S("k1"), S("a1"), 1);
    h.pipe("right", S("k1"), S("r1"), 2);
    h.pipe("left", S("k2"), S("b1"), 3);
    h.pipe("left", S("k1"), S("b2"), 4);
    h.pipe("right", S("k2"), S("s1"), 5);
    h.pipe("left", S("k2"), S("x1"), 6);
    h.pipe("right", S("k3"), S("t1"), 7);
    h.pipe("left", S("k1"), null, 8);
    h.pipe("right", S("k1"), null, 9);
    h.pipe("left", S("k3"), S("a3"), 10);
    h.pipe("right", S("k3"), null, 11);
    h.pipe("left", S("k3"), S("x3"), 12);
    h.pipe("left", S("k2"), S("a4"), 13);
    h.finish();
}

TEST_CASE("window_hopping_uneven") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto w = time_windows::of_size_and_grace(10ms, 4ms).advance_by(3ms);
    show_to(g.windowed_by(w).count(), "out-count");
    show_to(g.windowed_by(w)
                .emit_strategy(emit_strategy::on_window_close())
                .aggregate([] { return str(); }, slash, materialized<>::as("hop-close").with_in_memory_store()),
            "out-close");
    harness h("window_hopping_uneven", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-close", s, s);
    h.pipe("in", S("a"), S("v0"), 0);
    h.pipe("in", S("a"), S("v2"), 2);
    h.pipe("in", S("a"), S("v7"), 7);
    h.pipe("in", S("b"), S("w9"), 9);
    h.pipe("in", S("a"), S("v11"), 11);
    h.pipe("in", S("a"), S("v3"), 3);
    h.pipe("in", S("a"), S("v17"), 17);
    h.pipe("in", S("a"), S("v5"), 5);
    h.pipe("in", S("a"), S("v6"), 6);
    h.pipe("in", S("b"), S("w30"), 30);
    h.pipe("in", S("a"), S("v20"), 20);
    h.pipe("in", S("a"), S("v19"), 19);
    h.finish();
}

TEST_CASE("window_sliding_bounds") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto w = sliding_windows::of_time_difference_with_no_grace(5ms);
    show_to(g.windowed_by(w).reduce(concat, materialized<>::as("slide-r").with_caching_disabled()), "out-reduce");
    show_to(g.windowed_by(w).count(), "out-count");
    show_to(g.windowed_by(sliding_windows::of_time_difference_and_grace(5ms, 2ms))
                .emit_strategy(emit_strategy::on_window_close())
                .aggregate([] { return str(); }, slash, materialized<>::as("slide-close")),
            "out-close");
    harness h("window_sliding_bounds", b.build());
    h.input("in", s, s).output("out-reduce", s, s).output("out-count", s, l).output("out-close", s, s);
    h.pipe("in", S("a"), S("p0"), 0);
    h.pipe("in", S("a"), S("p5"), 5);
    h.pipe("in", S("a"), S("p10"), 10);
    h.pipe("in", S("a"), S("q10"), 10);
    h.pipe("in", S("a"), S("p7"), 7);
    h.pipe("in", S("a"), S("p15"), 15);
    h.pipe("in", S("a"), S("p21"), 21);
    h.pipe("in", S("a"), S("p16"), 16);
    h.pipe("in", S("a"), S("q21"), 21);
    h.pipe("in", S("a"), S("p26"), 26);
    h.pipe("in", S("a"), S("p40"), 40);
    h.finish();
}

TEST_CASE("emit_on_close_headers") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 2ms)).emit_strategy(emit_strategy::on_window_close()).reduce(concat),
            "out-tumbling");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_and_grace(5ms, 2ms))
                .emit_strategy(emit_strategy::on_window_close())
                .aggregate([] { return str(); }, slash, [](const str&, const str& x, const str& y) { return x + "|" + y; },
                           materialized<>::as("sess-close").with_caching_disabled()),
            "out-session");
    harness h("emit_on_close_headers", b.build());
    h.input("in", s, s).output("out-tumbling", s, s).output("out-session", s, s);
    h.pipe("in", S("a"), S("h1"), 1, {"n=1"});
    h.pipe("in", S("b"), S("h4"), 4, {"n=4"});
    h.pipe("in", S("a"), S("h8"), 8, {"n=8"});
    h.pipe("in", S("a"), S("h13"), 13, {"n=13"});
    h.pipe("in", S("b"), S("h11"), 11);
    h.pipe("in", S("a"), S("h25"), 25, {"n=25"});
    h.pipe("in", S("a"), S("h9"), 9, {"n=9"});
    h.pipe("in", S("b"), S("h40"), 40, {"n=40", "m=x"});
    h.finish();
}

TEST_CASE("suppress_time_limit_windowed") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms))
                .count()
                .suppress(suppressed::until_time_limit(5ms, buffer_config::max_records(1))),
            "out-count");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(4ms))
                .reduce(concat)
                .suppress(suppressed::until_time_limit(3ms, buffer_config::unbounded())),
            "out-session");
    harness h("suppress_time_limit_windowed", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-session", s, s);
    h.pipe("in", S("a"), S("t1"), 1);
    h.pipe("in", S("a"), S("t2"), 2);
    h.pipe("in", S("b"), S("t3"), 3);
    h.pipe("in", S("a"), S("t6"), 6);
    h.pipe("in", S("a"), S("t9"), 9);
    h.pipe("in", S("b"), S("t12"), 12);
    h.pipe("in", S("a"), S("t14"), 14);
    h.pipe("in", S("a"), S("t30"), 30);
    h.finish();
}

TEST_CASE("dropped_records_aggregations") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    auto g = st.group_by_key();
    g.count().to_stream().to("out-count");
    g.reduce(concat).to_stream().to("out-reduce");
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count(), "out-window");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(5ms)).count(), "out-session");
    show_to(g.windowed_by(sliding_windows::of_time_difference_with_no_grace(5ms)).count(), "out-sliding");
    st.group_by([](const ostr& v) { return v ? letter_or_null(*v) : ostr("none"); }).count().to_stream().to("out-regrouped");
    harness h("dropped_records_aggregations", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-reduce", s, s).output("out-window", s, l);
    h.output("out-session", s, l).output("out-sliding", s, l).output("out-regrouped", s, l);
    pipe_counted(h, "in", S("a"), S("v1"), 1);
    pipe_counted(h, "in", null, S("v2"), 2);
    pipe_counted(h, "in", S("a"), null, 3);
    pipe_counted(h, "in", S("b"), S("v20"), 20);
    pipe_counted(h, "in", S("a"), S("v5"), 5);
    pipe_counted(h, "in", S("a"), S("nx"), 21);
    pipe_counted(h, "in", null, S("nx"), 22);
    pipe_counted(h, "in", S("b"), S("v19"), 19);
    h.finish();
}

TEST_CASE("dropped_records_joins") {
    streams_builder b;
    auto t = b.table<str, str>("table");
    auto st = b.stream<str, ostr>("in");
    st.join(t, [](const ostr& x, const str& y) { return show(x) + "@" + y; }).to("out-inner");
    st.left_join(t, [](const ostr& x, const ostr& y) { return show(x) + "@" + show(y); }).to("out-left");
    st.join(b.stream<str, ostr>("in2"), [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); },
            join_windows::of_time_difference_with_no_grace(10ms))
        .to("out-ss");
    t.join(b.table<str, str>("table2"), [](const str& x, const str& y) { return x + "&" + y; }).to_stream().to("out-tt");
    harness h("dropped_records_joins", b.build());
    h.input("table", s, s).input("table2", s, s).input("in", s, s).input("in2", s, s);
    h.output("out-inner", s, s).output("out-left", s, s).output("out-ss", s, s).output("out-tt", s, s);
    pipe_counted(h, "table", S("k1"), S("T1"), 1);
    pipe_counted(h, "table", null, S("Tn"), 2);
    pipe_counted(h, "table2", null, S("Un"), 3);
    pipe_counted(h, "table2", S("k1"), S("U1"), 4);
    pipe_counted(h, "in", S("k1"), S("a"), 5);
    pipe_counted(h, "in", null, S("b"), 6);
    pipe_counted(h, "in", S("k1"), null, 7);
    pipe_counted(h, "in", S("k2"), S("c"), 8);
    pipe_counted(h, "in2", S("k1"), S("d"), 9);
    pipe_counted(h, "in2", null, S("e"), 10);
    pipe_counted(h, "in2", S("k1"), null, 11);
    pipe_counted(h, "table", S("k1"), null, 12);
    h.finish();
}

TEST_CASE("dropped_records_tables") {
    streams_builder b;
    auto glob = b.global_table<str, str>("glob");
    auto st = b.stream<str, ostr>("in");
    auto mapper = [](const ostr&, const ostr& v) { return v ? letter_or_null(*v) : ostr("a"); };
    st.join(glob, mapper, [](const ostr& x, const str& y) { return show(x) + "@" + y; }).to("out-global");
    st.left_join(glob, mapper, [](const ostr& x, const ostr& y) { return show(x) + "@" + show(y); }).to("out-global-left");
    auto orders = b.table<str, str>("orders");
    auto cust = b.table<str, str>("cust");
    orders.join(cust, letter_or_null, [](const str& x, const str& y) { return x + "/" + y; }).to_stream().to("out-fk");
    orders.left_join(cust, letter_or_null, [](const str& x, const ostr& y) { return x + "/" + show(y); }).to_stream().to("out-fk-left");
    cust.group_by([](const str& k, const str& v) { return std::pair<ostr, str>(letter_or_null(v), k); }).count().to_stream().to("out-grouped");
    harness h("dropped_records_tables", b.build());
    h.input("glob", s, s).input("in", s, s).input("orders", s, s).input("cust", s, s);
    h.output("out-global", s, s).output("out-global-left", s, s).output("out-fk", s, s).output("out-fk-left", s, s);
    h.output("out-grouped", s, l);
    pipe_counted(h, "glob", S("a"), S("G1"), 1);
    pipe_counted(h, "glob", null, S("Gn"), 2);
    pipe_counted(h, "in", S("k1"), S("a1"), 3);
    pipe_counted(h, "in", S("k2"), S("n1"), 4);
    pipe_counted(h, "in", null, S("a2"), 5);
    pipe_counted(h, "in", S("k3"), null, 6);
    pipe_counted(h, "cust", S("a"), S("Ann"), 7);
    pipe_counted(h, "cust", S("n"), S("nobody"), 8);
    pipe_counted(h, "orders", S("o1"), S("a-1"), 9);
    pipe_counted(h, "orders", S("o2"), S("n-2"), 10);
    pipe_counted(h, "orders", null, S("a-3"), 11);
    pipe_counted(h, "orders", S("o1"), S("n-1"), 12);
    pipe_counted(h, "cust", S("a"), S("nan"), 13);
    pipe_counted(h, "cust", S("n"), null, 14);
    h.finish();
}

TEST_CASE("forwarded_times_windows") {
    streams_builder b;
    auto g = b.stream<str, str>("in").process([] { return std::make_unique<spread_processor>(); }).group_by_key();
    auto tumbling = g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count(materialized_with(serde<str>{}, serde<std::int64_t>{}));
    show_to(tumbling, "out-tumbling");
    const auto gap = session_windows::of_inactivity_gap_with_no_grace(5ms);
    show_to(g.windowed_by(gap).count(), "out-session");
    show_to(g.windowed_by(gap).aggregate([] { return str(); }, slash, [](const str&, const str& x, const str& y) { return x + "|" + y; },
                                         materialized<>::as("spread-sessions").with_caching_disabled()),
            "out-session-agg");
    show_to(g.windowed_by(sliding_windows::of_time_difference_with_no_grace(5ms)).count(), "out-sliding");
    show_to(tumbling.suppress(suppressed::until_window_closes(buffer_config::unbounded())), "out-final");
    harness h("forwarded_times_windows", b.build());
    h.input("in", s, s).output("out-tumbling", s, l).output("out-session", s, l).output("out-session-agg", s, s);
    h.output("out-sliding", s, l).output("out-final", s, l);
    pipe_counted(h, "in", S("a"), S("0,8,4"), 1);
    pipe_counted(h, "in", S("a"), S("20,3"), 2);
    pipe_counted(h, "in", S("b"), S("5,5,30"), 3);
    pipe_counted(h, "in", S("a"), S("21,12,22"), 4);
    pipe_counted(h, "in", S("a"), S("40"), 5);
    h.finish();
}

TEST_CASE("dropped_records_more") {
    streams_builder b;
    auto st = b.stream<str, ostr>("in");
    auto st2 = b.stream<str, ostr>("in2");
    const auto w = join_windows::of_time_difference_with_no_grace(10ms);
    auto both = [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); };
    st.left_join(st2, both, w).to("out-left");
    st.outer_join(st2, both, w).to("out-outer");
    auto v = b.table<str, str>("vt", materialized<>::as(stores::persistent_versioned_key_value_store("vt-store", 10ms)));
    v.to_stream().to("out-v");
    v.join(b.table<str, str>("t2"), [](const str& x, const str& y) { return x + "&" + y; }).to_stream().to("out-vjoin");
    st2.left_join(v, [](const ostr& x, const ostr& y) { return show(x) + "@" + show(y); }).to("out-stream-table");
    harness h("dropped_records_more", b.build());
    h.input("in", s, s).input("in2", s, s).input("vt", s, s).input("t2", s, s);
    h.output("out-left", s, s).output("out-outer", s, s).output("out-v", s, s).output("out-vjoin", s, s).output("out-stream-table", s, s);
    pipe_counted(h, "in", S("a"), S("x"), 1);
    pipe_counted(h, "in", null, S("y"), 2);
    pipe_counted(h, "in", S("a"), null, 3);
    pipe_counted(h, "in2", S("a"), S("z"), 4);
    pipe_counted(h, "in2", null, S("w"), 5);
    pipe_counted(h, "in2", S("a"), null, 6);
    pipe_counted(h, "t2", S("a"), S("T"), 7);
    pipe_counted(h, "vt", S("a"), S("1"), 100);
    pipe_counted(h, "vt", S("a"), S("2"), 50);
    pipe_counted(h, "vt", S("a"), S("3"), 95);
    pipe_counted(h, "in", S("a"), S("late"), 80);
    pipe_counted(h, "in2", S("a"), S("q"), 101);
    h.finish();
}

TEST_CASE("windowed_long_key_bytes") {
    streams_builder b;
    auto g = b.stream<std::int64_t, str>("in").group_by_key();
    g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count(materialized<>::as("long-counts")).to_stream().to("out-time");
    g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(5ms)).count().to_stream().to("out-session");
    harness h("windowed_long_key_bytes", b.build());
    h.input("in", l, s).output("out-time", type::x, l).output("out-session", type::x, l);
    h.output("conformance-long-counts-changelog", type::x, type::x);
    h.pipe("in", L(1), S("a"), 1);
    h.pipe("in", L(258), S("b"), 3);
    h.pipe("in", L(1), S("c"), 12);
    h.pipe("in", L(1), S("d"), 4);
    h.pipe("in", L(-5), S("e"), 20);
    h.finish();
}

TEST_CASE("table_self_join") {
    streams_builder b;
    auto t = b.table<str, str>("in");
    t.join(t, [](const str& x, const str& y) { return x + "=" + y; }).to_stream().to("out-inner");
    t.left_join(t, [](const str& x, const ostr& y) { return x + "=" + show(y); }).to_stream().to("out-left");
    t.outer_join(t, [](const ostr& x, const ostr& y) { return show(x) + "=" + show(y); }).to_stream().to("out-outer");
    harness h("table_self_join", b.build());
    h.input("in", s, s).output("out-inner", s, s).output("out-left", s, s).output("out-outer", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 2);
    h.pipe("in", S("b"), S("3"), 3);
    h.pipe("in", S("a"), null, 4);
    h.pipe("in", S("c"), null, 5);
    h.finish();
}

}  // TEST_SUITE
