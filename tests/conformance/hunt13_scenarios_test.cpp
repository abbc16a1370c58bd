// Conformance: scenarios of the thirteenth hunt, written as java/.../Hunt13Scenarios.java writes
// them, compared with Java Kafka Streams' outputs: windows with out-of-order and late records over
// several keys in both emit strategies, cached and uncached; session merges of three sessions and
// late merges; suppression with small eager buffers; table regroupings whose key changes; chains of
// table views into joins; three-table join chains with tombstones first; foreign keys flipping back
// and forth; null keys and values at stream-table and stream-global-table joins; versioned tables
// with a join grace; repartitions with partition counts; merges of re-keyed streams; split chains;
// flat_map with repeated keys; to_table regroupings; timestamps and headers of outputs.
#include <doctest/doctest.h>

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>

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

namespace {

auto concat = [](const str& x, const str& y) { return x + "+" + y; };
auto slash = [](const str&, const str& v, const str& agg) { return agg + "/" + v; };
auto init = [] { return str(); };
auto plus_v = [](const str&, const str& v, const str& agg) { return agg + "+" + v; };
auto minus_v = [](const str&, const str& v, const str& agg) { return agg + "-" + v; };

str upper(str v) {
    for (auto& c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return v;
}

/// Hunt13Scenarios.kv: a named store, cached or not.
materialized<> kv(const str& name, bool cached) {
    return cached ? materialized<>::as(name) : materialized<>::as(name).with_caching_disabled();
}

/// Hunt13Scenarios.pipeCounted: pipes a record, then prints the drops counted so far.
void pipe_counted(harness& h, const str& topic, const datum& key, const datum& value, i64 ts) {
    h.pipe(topic, key, value, ts);
    h.dropped();
}

/// Hunt13Scenarios.windowInputs: several keys, out of order, late for some windows.
void window_inputs(harness& h) {
    h.pipe("in", S("a"), S("a1"), 1);
    h.pipe("in", S("b"), S("b2"), 2);
    h.pipe("in", S("a"), S("a8"), 8);
    h.pipe("in", S("c"), S("c5"), 5);
    h.pipe("in", S("a"), S("a12"), 12);
    h.pipe("in", S("b"), S("b3"), 3);
    h.pipe("in", S("b"), S("b14"), 14);
    h.pipe("in", S("a"), S("a6"), 6);
    h.pipe("in", S("c"), S("c20"), 20);
    h.pipe("in", S("a"), S("a9"), 9);
    h.pipe("in", S("b"), S("b10"), 10);
    h.pipe("in", S("a"), S("a21"), 21);
    h.pipe("in", S("c"), S("c13"), 13);
    h.pipe("in", S("a"), S("a30"), 30);
    h.pipe("in", S("b"), S("b22"), 22);
    h.pipe("in", S("a"), S("a17"), 17);
    h.pipe("in", S("c"), S("c45"), 45);
}

ostr fk_of(const str& v) {
    if (v.starts_with("none")) return std::nullopt;
    return v.substr(0, v.find(':'));
}

/// Hunt13Scenarios' global key mapper: a null value maps to the key, "n..." to no key.
ostr global_key(const ostr& k, const ostr& v) {
    if (!v) return k;
    if (v->starts_with("n")) return std::nullopt;
    return v;
}

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("hopping_uneven_emit_both") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto w = time_windows::of_size_and_grace(7ms, 2ms).advance_by(3ms);
    show_to(g.windowed_by(w).count(), "out-count");
    show_to(g.windowed_by(w).aggregate(init, slash, materialized<>::as("hop-agg").with_caching_disabled()), "out-agg");
    show_to(g.windowed_by(w).emit_strategy(emit_strategy::on_window_close()).aggregate(init, slash, materialized<>::as("hop-close")),
            "out-close");
    harness h("hopping_uneven_emit_both", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-agg", s, s).output("out-close", s, s);
    window_inputs(h);
    h.dropped();
    h.finish();
}

TEST_CASE("tumbling_cached_uncached_late") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto w = time_windows::of_size_and_grace(10ms, 3ms);
    show_to(g.windowed_by(w).reduce(concat), "out-cached");
    show_to(g.windowed_by(w).reduce(concat, materialized<>::as("tum-uncached").with_caching_disabled()), "out-uncached");
    show_to(g.windowed_by(w)
                .emit_strategy(emit_strategy::on_window_close())
                .reduce(concat, materialized<>::as("tum-close").with_caching_disabled()),
            "out-close");
    harness h("tumbling_cached_uncached_late", b.build());
    h.input("in", s, s).output("out-cached", s, s).output("out-uncached", s, s).output("out-close", s, s);
    window_inputs(h);
    h.dropped();
    h.finish();
}

TEST_CASE("session_three_merges_late") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto w = session_windows::of_inactivity_gap_and_grace(5ms, 10ms);
    show_to(g.windowed_by(w).count(), "out-count");
    show_to(g.windowed_by(w).aggregate(init, slash, [](const str&, const str& x, const str& y) { return "[" + x + "|" + y + "]"; },
                                       materialized<>::as("sess-agg").with_caching_disabled()),
            "out-agg");
    show_to(g.windowed_by(w).reduce(concat), "out-reduce");
    show_to(g.windowed_by(w).emit_strategy(emit_strategy::on_window_close()).reduce(concat, materialized<>::as("sess-close")), "out-close");
    harness h("session_three_merges_late", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-agg", s, s).output("out-reduce", s, s).output("out-close", s, s);
    h.pipe("in", S("a"), S("a0"), 0);
    h.pipe("in", S("a"), S("a10"), 10);
    h.pipe("in", S("a"), S("a20"), 20);
    h.pipe("in", S("b"), S("b3"), 3);
    h.pipe("in", S("a"), S("a5"), 5);
    h.pipe("in", S("a"), S("a15"), 15);
    h.pipe("in", S("b"), S("b12"), 12);
    h.pipe("in", S("a"), S("a3"), 3);
    h.pipe("in", S("b"), S("b8"), 8);
    h.pipe("in", S("a"), S("a40"), 40);
    h.pipe("in", S("a"), S("a22"), 22);
    h.pipe("in", S("b"), S("b27"), 27);
    h.pipe("in", S("a"), S("a31"), 31);
    h.pipe("in", S("a"), S("a36"), 36);
    h.pipe("in", S("b"), S("b60"), 60);
    h.dropped();
    h.finish();
}

TEST_CASE("sliding_out_of_order_keys") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto w = sliding_windows::of_time_difference_and_grace(5ms, 4ms);
    show_to(g.windowed_by(w).count(), "out-count");
    show_to(g.windowed_by(w).aggregate(init, slash, materialized<>::as("sl-agg").with_caching_disabled()), "out-agg");
    show_to(g.windowed_by(w).emit_strategy(emit_strategy::on_window_close()).aggregate(init, slash, materialized<>::as("sl-close")),
            "out-close");
    harness h("sliding_out_of_order_keys", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-agg", s, s).output("out-close", s, s);
    window_inputs(h);
    h.dropped();
    h.finish();
}

TEST_CASE("suppress_eager_small_buffers") {
    streams_builder b;
    auto t = b.table<str, str>("in");
    t.suppress(suppressed::until_time_limit(10ms, buffer_config::max_records(1).emit_early_when_full())).to_stream().to("out-one");
    t.suppress(suppressed::until_time_limit(10ms, buffer_config::max_records(2).emit_early_when_full()).with_name("two"))
        .to_stream()
        .to("out-two");
    t.suppress(suppressed::until_time_limit(10ms, buffer_config::max_bytes(120).emit_early_when_full())).to_stream().to("out-bytes");
    harness h("suppress_eager_small_buffers", b.build());
    h.input("in", s, s).output("out-one", s, s).output("out-two", s, s).output("out-bytes", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("b"), S("2"), 2);
    h.pipe("in", S("a"), S("3"), 3);
    h.pipe("in", S("c"), S("4"), 4);
    h.pipe("in", S("c"), null, 5);
    h.pipe("in", S("d"), S("6"), 6);
    h.pipe("in", S("a"), S("7"), 12);
    h.pipe("in", S("b"), S("8"), 13);
    h.pipe("in", S("e"), S("9"), 14);
    h.pipe("in", S("e"), S("10"), 30);
    h.finish();
}

TEST_CASE("suppress_final_hopping_sessions") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms).advance_by(4ms))
                .count()
                .suppress(suppressed::until_window_closes(buffer_config::unbounded())),
            "out-hopping");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(3ms))
                .reduce(concat)
                .suppress(suppressed::until_window_closes(buffer_config::max_records(10).shut_down_when_full())),
            "out-sessions");
    harness h("suppress_final_hopping_sessions", b.build());
    h.input("in", s, s).output("out-hopping", s, l).output("out-sessions", s, s);
    window_inputs(h);
    h.finish();
}

TEST_CASE("table_regroup_key_change_order") {
    streams_builder b;
    auto g = b.table<str, str>("in").group_by(
        [](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k + ":" + v); }, grouped<>::as("by-letter"));
    g.aggregate(init, plus_v, minus_v, kv("agg-uncached", false)).to_stream().to("out-uncached");
    g.aggregate(init, plus_v, minus_v, kv("agg-cached", true)).to_stream().to("out-cached");
    g.reduce([](const str& x, const str& y) { return x + "&" + y; }, [](const str& x, const str& y) { return x + "~" + y; }, kv("red", false))
        .to_stream()
        .to("out-reduce");
    harness h("table_regroup_key_change_order", b.build());
    h.input("in", s, s).output("out-uncached", s, s).output("out-cached", s, s).output("out-reduce", s, s);
    h.pipe("in", S("k1"), S("x1"), 1);
    h.pipe("in", S("k2"), S("x2"), 2);
    h.pipe("in", S("k1"), S("x3"), 3);
    h.pipe("in", S("k1"), S("y4"), 4);
    h.pipe("in", S("k2"), S("y5"), 5);
    h.pipe("in", S("k3"), null, 6);
    h.pipe("in", S("k1"), null, 7);
    h.pipe("in", S("k1"), S("y8"), 8);
    h.pipe("in", S("k2"), S("y5"), 9);
    h.pipe("in", S("k2"), S("x10"), 3);
    h.finish();
}

TEST_CASE("table_view_chains_into_joins") {
    streams_builder b;
    auto left = b.table<str, str>("left");
    auto right = b.table<str, str>("right");
    auto f = left.filter([](const str& v) { return !v.starts_with("x"); });
    auto mv = f.map_values([](const str& v) { return upper(v); }, materialized<>::as("mv").with_value_serde(serde<str>{}));
    mv.join(right, [](const str& x, const str& y) { return x + "*" + y; }).to_stream().to("out-join");
    left.map_values([](const str& v) { return v + "!"; })
        .left_join(right, [](const str& x, const ostr& y) { return x + "*" + show(y); })
        .filter([](const str& v) { return !v.ends_with("null"); })
        .to_stream()
        .to("out-left-filtered");
    b.stream<str, str>("events").join(f, [](const str& e, const str& v) { return e + "@" + v; }).to("out-stream");
    harness h("table_view_chains_into_joins", b.build());
    h.input("left", s, s).input("right", s, s).input("events", s, s);
    h.output("out-join", s, s).output("out-left-filtered", s, s).output("out-stream", s, s);
    h.pipe("right", S("a"), S("R1"), 1);
    h.pipe("left", S("a"), S("l2"), 2);
    h.pipe("events", S("a"), S("e3"), 3);
    h.pipe("left", S("a"), S("xl4"), 4);
    h.pipe("events", S("a"), S("e5"), 5);
    h.pipe("left", S("b"), S("l6"), 6);
    h.pipe("right", S("b"), S("R7"), 7);
    h.pipe("right", S("a"), null, 8);
    h.pipe("left", S("a"), S("l9"), 9);
    h.pipe("left", S("b"), null, 10);
    h.pipe("events", S("b"), S("e11"), 11);
    h.pipe("right", S("a"), S("R12"), 12);
    h.pipe("left", S("a"), S("xl13"), 13);
    h.finish();
}

TEST_CASE("three_table_join_chain") {
    streams_builder b;
    auto t1 = b.table<str, str>("t1");
    auto t2 = b.table<str, str>("t2");
    auto t3 = b.table<str, str>("t3");
    auto j12 = t1.join(t2, [](const str& x, const str& y) { return x + "," + y; });
    j12.left_join(t3, [](const str& x, const ostr& y) { return x + "," + show(y); }).to_stream().to("out-left");
    j12.outer_join(t3, [](const ostr& x, const ostr& y) { return show(x) + "," + show(y); }).to_stream().to("out-outer");
    t1.outer_join(t2, [](const ostr& x, const ostr& y) { return show(x) + "|" + show(y); })
        .outer_join(t3, [](const ostr& x, const ostr& y) { return show(x) + "|" + show(y); })
        .to_stream()
        .to("out-outer3");
    harness h("three_table_join_chain", b.build());
    h.input("t1", s, s).input("t2", s, s).input("t3", s, s).output("out-left", s, s).output("out-outer", s, s).output("out-outer3", s, s);
    h.pipe("t3", S("k"), null, 1);
    h.pipe("t1", S("k"), null, 2);
    h.pipe("t2", S("k"), null, 3);
    h.pipe("t1", S("k"), S("A"), 10);
    h.pipe("t3", S("k"), S("C"), 5);
    h.pipe("t2", S("k"), S("B"), 7);
    h.pipe("t3", S("k"), S("C2"), 20);
    h.pipe("t1", S("k"), null, 15);
    h.pipe("t2", S("k"), S("B2"), 16);
    h.pipe("t1", S("k"), S("A2"), 12);
    h.pipe("t3", S("k"), null, 25);
    h.pipe("t2", S("k"), null, 30);
    h.pipe("t3", S("m"), S("M"), 4);
    h.finish();
}

TEST_CASE("fk_join_key_flips") {
    streams_builder b;
    auto orders = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    orders.join(customers, fk_of, [](const str& o, const str& c) { return o + "/" + c; }).to_stream().to("out-inner");
    orders.left_join(customers, fk_of, [](const str& o, const ostr& c) { return o + "/" + show(c); }).to_stream().to("out-left");
    harness h("fk_join_key_flips", b.build());
    h.input("orders", s, s).input("customers", s, s).output("out-inner", s, s).output("out-left", s, s);
    h.pipe("customers", S("c1"), S("Ann"), 1);
    h.pipe("customers", S("c2"), S("Ben"), 2);
    h.pipe("orders", S("o1"), S("c1:a"), 3);
    h.pipe("orders", S("o1"), S("c2:b"), 4);
    h.pipe("orders", S("o1"), S("c1:c"), 5);
    h.pipe("customers", S("c1"), null, 6);
    h.pipe("orders", S("o1"), S("c1:d"), 7);
    h.pipe("customers", S("c1"), S("Ann2"), 8);
    h.pipe("orders", S("o1"), S("none"), 9);
    h.pipe("orders", S("o1"), S("c1:e"), 10);
    h.pipe("customers", S("c2"), null, 11);
    h.pipe("orders", S("o1"), S("c2:f"), 12);
    h.pipe("customers", S("c2"), S("Ben2"), 13);
    h.pipe("orders", S("o1"), S("c2:f"), 14);
    h.pipe("orders", S("o1"), null, 15);
    h.pipe("customers", S("c2"), S("Ben3"), 16);
    h.finish();
}

TEST_CASE("stream_table_global_nulls") {
    streams_builder b;
    auto t = b.table<ostr, str>("table");
    auto gt = b.global_table<str, str>("global");
    auto st = b.stream<ostr, ostr>("in");
    st.join(t, [](const ostr& v, const str& r) { return show(v) + "@" + r; }).to("out-inner");
    st.left_join(t, [](const ostr& v, const ostr& r) { return show(v) + "@" + show(r); }).to("out-left");
    st.join(gt, global_key, [](const ostr& k, const ostr& v, const str& r) { return show(k) + ":" + show(v) + "@" + r; }).to("out-ginner");
    st.left_join(gt, global_key, [](const ostr& k, const ostr& v, const ostr& r) { return show(k) + ":" + show(v) + "@" + show(r); })
        .to("out-gleft");
    harness h("stream_table_global_nulls", b.build());
    h.input("table", s, s).input("global", s, s).input("in", s, s);
    h.output("out-inner", s, s).output("out-left", s, s).output("out-ginner", s, s).output("out-gleft", s, s);
    pipe_counted(h, "table", S("k"), S("T"), 1);
    pipe_counted(h, "table", null, S("Tn"), 2);
    pipe_counted(h, "global", S("g"), S("G"), 3);
    pipe_counted(h, "global", null, S("Gn"), 4);
    pipe_counted(h, "global", S("k"), S("Gk"), 5);
    pipe_counted(h, "in", S("k"), S("g"), 6);
    pipe_counted(h, "in", S("k"), null, 7);
    pipe_counted(h, "in", null, S("g"), 8);
    pipe_counted(h, "in", null, null, 9);
    pipe_counted(h, "in", S("k"), S("nope"), 10);
    pipe_counted(h, "in", S("z"), S("k"), 11);
    pipe_counted(h, "global", S("g"), null, 12);
    pipe_counted(h, "in", S("k"), S("g"), 13);
    pipe_counted(h, "table", S("k"), null, 14);
    pipe_counted(h, "in", S("k"), S("k"), 15);
    h.finish();
}

TEST_CASE("versioned_out_of_order_grace") {
    streams_builder b;
    auto users = b.table<str, str>("users", materialized<>::as(stores::persistent_versioned_key_value_store("vusers", 30ms)));
    auto orders = b.stream<str, str>("orders");
    orders.join(users, [](const str& o, const str& u) { return o + "@" + u; }, joined<>::as("vj").with_grace_period(5ms)).to("out-inner");
    orders.left_join(users, [](const str& o, const ostr& u) { return o + "@" + show(u); }, joined<>::as("vl").with_grace_period(5ms))
        .to("out-left");
    harness h("versioned_out_of_order_grace", b.build());
    h.input("users", s, s).input("orders", s, s).output("out-inner", s, s).output("out-left", s, s);
    h.pipe("users", S("u"), S("v10"), 10);
    h.pipe("users", S("u"), S("v20"), 20);
    h.pipe("users", S("u"), S("v15"), 15);
    h.pipe("orders", S("u"), S("o17"), 17);
    h.pipe("orders", S("u"), S("o12"), 12);
    h.pipe("users", S("u"), S("v11"), 11);
    h.pipe("orders", S("u"), S("o21"), 21);
    h.pipe("orders", S("u"), S("o9"), 9);
    h.pipe("users", S("u"), null, 18);
    h.pipe("orders", S("u"), S("o19"), 19);
    h.pipe("orders", S("w"), S("o22"), 22);
    h.pipe("users", S("w"), S("w5"), 5);
    h.pipe("orders", S("u"), S("o30"), 30);
    h.pipe("orders", S("w"), S("o6"), 6);
    h.pipe("orders", S("u"), S("o40"), 40);
    h.dropped();
    h.finish();
}

TEST_CASE("repartition_counts_and_groupings") {
    streams_builder b;
    auto st = b.stream<ostr, str>("in");
    st.select_key([](const ostr&, const str& v) { return v.substr(0, 1); })
        .repartition(repartitioned<>::as("rp3").with_number_of_partitions(3))
        .group_by_key()
        .count()
        .to_stream()
        .to("out-rp");
    st.select_key([](const ostr&, const str& v) { return v.substr(v.size() - 1); })
        .group_by_key(grouped<>::as("last"))
        .reduce(concat)
        .to_stream()
        .to("out-last");
    st.map([](const ostr& k, const str& v) { return std::pair<ostr, str>(ostr(show(k) + show(k)), v); })
        .repartition(repartitioned<>{}.with_key_serde(serde<ostr>{}).with_value_serde(serde<str>{}).with_number_of_partitions(2))
        .group_by_key()
        .count(materialized<>::as("dbl"))
        .to_stream()
        .to("out-dbl");
    harness h("repartition_counts_and_groupings", b.build());
    h.input("in", s, s).output("out-rp", s, l).output("out-last", s, s).output("out-dbl", s, l);
    h.pipe("in", S("k1"), S("ab"), 1);
    h.pipe("in", S("k2"), S("bb"), 2);
    h.pipe("in", S("k1"), S("ac"), 3);
    h.pipe("in", null, S("cb"), 4);
    h.pipe("in", S("k3"), S("a"), 5);
    h.finish();
}

TEST_CASE("merge_rekeyed_streams") {
    streams_builder b;
    auto a = b.stream<str, str>("in-a").select_key([](const str&, const str& v) { return v.substr(0, 1); });
    auto c = b.stream<str, str>("in-b").map([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k + v); });
    auto m = a.merge(c);
    m.group_by_key().count().to_stream().to("out-count");
    m.join(b.table<str, str>("table"), [](const str& v, const str& t) { return v + "@" + t; }).to("out-join");
    a.merge(b.stream<str, str>("in-c")).group_by_key().reduce(concat).to_stream().to("out-mixed");
    harness h("merge_rekeyed_streams", b.build());
    h.input("in-a", s, s).input("in-b", s, s).input("in-c", s, s).input("table", s, s);
    h.output("out-count", s, l).output("out-join", s, s).output("out-mixed", s, s);
    h.pipe("table", S("x"), S("TX"), 1);
    h.pipe("in-a", S("k1"), S("x1"), 2);
    h.pipe("in-b", S("k2"), S("x2"), 3);
    h.pipe("in-c", S("x"), S("c4"), 4);
    h.pipe("in-b", S("k3"), S("y5"), 5);
    h.pipe("in-a", S("k4"), S("y6"), 6);
    h.pipe("table", S("y"), S("TY"), 7);
    h.pipe("in-a", S("k5"), S("y8"), 8);
    h.pipe("in-c", S("y"), S("c9"), 9);
    h.finish();
}

TEST_CASE("split_rekeyed_branches") {
    using stream = kstream<ostr, str>;
    streams_builder b;
    auto br = b.stream<ostr, str>("in")
                  .split(named::as("s-"))
                  .branch([](const str& v) { return v.starts_with("a"); },
                          branched::with_function([](stream ks) { return ks.select_key([](const ostr&, const str& v) { return ostr(v); }); }, "a"))
                  .branch([](const str& v) { return v.starts_with("b"); },
                          branched::with_function([](stream ks) { return ks.map_values([](const str& v) { return v + "!"; }); }, "b"))
                  .default_branch(branched::with_function(
                      [](stream ks) {
                          ks.group_by_key().count().to_stream().to("out-count");
                          return ks;
                      },
                      "rest"));
    br.at("s-a").merge(br.at("s-b")).merge(br.at("s-rest")).to("out-all");
    br.at("s-a").group_by_key().count().to_stream().to("out-a-count");
    harness h("split_rekeyed_branches", b.build());
    h.input("in", s, s).output("out-all", s, s).output("out-count", s, l).output("out-a-count", s, l);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("b2"), 2);
    h.pipe("in", S("k3"), S("c3"), 3);
    h.pipe("in", S("k1"), S("a1"), 4);
    h.pipe("in", null, S("c5"), 5);
    h.pipe("in", S("k3"), S("c6"), 6);
    h.finish();
}

TEST_CASE("flat_map_repeated_keys") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    auto fm = st.flat_map([](const str&, const str& v) {
        std::vector<std::pair<str, str>> r;
        for (const auto& p : split(v, ',')) r.emplace_back(p.substr(0, 1), p);
        return r;
    });
    fm.group_by_key().count(materialized<>::as("fm-cached")).to_stream().to("out-cached");
    fm.group_by_key().count(materialized<>::as("fm-uncached").with_caching_disabled()).to_stream().to("out-uncached");
    st.flat_map_values([](const str& v) { return split(v, ','); }).group_by_key().reduce(concat, kv("fv-reduce", true)).to_stream().to("out-fv");
    fm.to_table(materialized<>::as("fm-table").with_caching_disabled()).to_stream().to("out-table");
    harness h("flat_map_repeated_keys", b.build());
    h.input("in", s, s).output("out-cached", s, l).output("out-uncached", s, l).output("out-fv", s, s).output("out-table", s, s);
    h.pipe("in", S("k1"), S("a1,a2,b1"), 1);
    h.pipe("in", S("k2"), S("b2,b3"), 2);
    h.pipe("in", S("k1"), S("a3"), 0);
    h.pipe("in", S("k1"), S("c1,c1,c1"), 5);
    h.finish();
}

TEST_CASE("to_table_regrouped") {
    streams_builder b;
    auto t = b.stream<ostr, ostr>("in").to_table(materialized<>::as("tt"));
    t.group_by([](const ostr&, const ostr& v) { return std::pair<str, str>(v->substr(0, 1), *v); }).count().to_stream().to("out-count");
    t.group_by([](const ostr& k, const ostr& v) { return std::pair<str, str>(v->substr(0, 1), *k); })
        .aggregate(init, plus_v, minus_v, kv("tt-agg", false))
        .to_stream()
        .to("out-agg");
    harness h("to_table_regrouped", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-agg", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("a2"), 2);
    h.pipe("in", S("k1"), S("b1"), 3);
    h.pipe("in", S("k3"), null, 4);
    h.pipe("in", S("k2"), null, 5);
    h.pipe("in", null, S("a9"), 6);
    h.pipe("in", S("k1"), S("b2"), 7);
    h.finish();
}

TEST_CASE("table_join_timestamps") {
    streams_builder b;
    auto lt = b.table<str, str>("left");
    auto rt = b.table<str, str>("right");
    lt.join(rt, [](const str& x, const str& y) { return x + y; }).map_values([](const str& v) { return v + "!"; }).to_stream().to("out-inner");
    lt.left_join(rt, [](const str& x, const ostr& y) { return x + show(y); })
        .filter([](const str& v) { return v.find('x') == str::npos; })
        .to_stream()
        .to("out-left");
    lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + show(y); }, materialized<>::as("outer")).to_stream().to("out-outer");
    harness h("table_join_timestamps", b.build());
    h.input("left", s, s).input("right", s, s).output("out-inner", s, s).output("out-left", s, s).output("out-outer", s, s);
    h.pipe("left", S("k"), S("L50"), 50);
    h.pipe("right", S("k"), S("R10"), 10);
    h.pipe("right", S("k"), S("R60"), 60);
    h.pipe("left", S("k"), S("L20"), 20);
    h.pipe("left", S("k"), S("xL5"), 5);
    h.pipe("right", S("k"), null, 1);
    h.pipe("left", S("k"), null, 30);
    h.pipe("right", S("k"), S("R2"), 2);
    h.pipe("left", S("j"), S("J3"), 3);
    h.finish();
}

TEST_CASE("headers_split_merge_suppress") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    auto br = st.split(named::as("h-"))
                  .branch([](const str& v) { return v.starts_with("a"); }, branched::as("a"))
                  .default_branch(branched::as("o"));
    br.at("h-a").merge(br.at("h-o").map_values([](const str& v) { return v + "?"; })).to("out-merged");
    st.flat_map([](const str& k, const str& v) { return std::vector<std::pair<str, str>>{{v, k}, {k, v}}; })
        .repartition(repartitioned<>::as("hdr"))
        .to("out-rp");
    st.to_table().suppress(suppressed::until_time_limit(5ms, buffer_config::unbounded())).to_stream().to("out-suppressed");
    harness h("headers_split_merge_suppress", b.build());
    h.input("in", s, s).output("out-merged", s, s).output("out-rp", s, s).output("out-suppressed", s, s);
    h.pipe("in", S("k1"), S("a1"), 1, {"h=1"});
    h.pipe("in", S("k2"), S("b2"), 2, {"h=2", "x=y"});
    h.pipe("in", S("k1"), S("a3"), 3);
    h.pipe("in", S("k1"), S("c4"), 4, {"h=4"});
    h.pipe("in", S("k3"), S("a9"), 9, {"h=9"});
    h.pipe("in", S("k3"), S("a20"), 20, {"h=20"});
    h.finish();
}

TEST_CASE("null_keys_windowed_cogroup") {
    streams_builder b;
    auto g1 = b.stream<str, ostr>("in").group_by_key();
    auto g2 = b.stream<str, ostr>("in2").group_by_key();
    const auto one = [](const str&, const ostr& v, const str& agg) { return agg + "/" + show(v); };
    const auto two = [](const str&, const ostr& v, const str& agg) { return agg + "#" + show(v); };
    show_to(g1.windowed_by(time_windows::of_size_with_no_grace(10ms).advance_by(5ms)).emit_strategy(emit_strategy::on_window_close()).count(),
            "out-hop");
    g1.cogroup(one).cogroup(g2, two).aggregate(init).to_stream().to("out-cogroup");
    show_to(g1.cogroup(one)
                .cogroup(g2, two)
                .windowed_by(session_windows::of_inactivity_gap_with_no_grace(5ms))
                .aggregate(init, [](const str&, const str& x, const str& y) { return x + "|" + y; }),
            "out-cogroup-session");
    harness h("null_keys_windowed_cogroup", b.build());
    h.input("in", s, s).input("in2", s, s).output("out-hop", s, l).output("out-cogroup", s, s).output("out-cogroup-session", s, s);
    pipe_counted(h, "in", S("a"), S("1"), 1);
    pipe_counted(h, "in", null, S("2"), 2);
    pipe_counted(h, "in2", null, S("3"), 3);
    pipe_counted(h, "in2", S("a"), null, 4);
    pipe_counted(h, "in", S("a"), null, 5);
    pipe_counted(h, "in2", S("a"), S("6"), 8);
    pipe_counted(h, "in", S("b"), S("7"), 20);
    pipe_counted(h, "in2", null, null, 21);
    pipe_counted(h, "in", S("a"), S("8"), 2);
    h.finish();
}

TEST_CASE("windowed_table_views") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    auto c = g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count();
    show_to(c.filter([](i64 v) { return v > 1; }), "out-filter");
    show_to(c.map_values([](i64 v) { return "n" + std::to_string(v); }, materialized<>::as("wmv").with_value_serde(serde<str>{})), "out-mapped");
    g.count().filter([](i64 v) { return v % 2 == 0; }).to_stream().to("out-even");
    g.count(materialized<>::as("cnt2").with_caching_disabled())
        .filter([](const str&, i64 v) { return v % 2 == 1; }, materialized<>::as("odd"))
        .to_stream()
        .to("out-odd");
    harness h("windowed_table_views", b.build());
    h.input("in", s, s).output("out-filter", s, l).output("out-mapped", s, s).output("out-even", s, l).output("out-odd", s, l);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 2);
    h.pipe("in", S("b"), S("3"), 3);
    h.pipe("in", S("a"), S("4"), 12);
    h.pipe("in", S("a"), S("5"), 5);
    h.pipe("in", S("b"), S("6"), 15);
    h.pipe("in", S("a"), S("7"), 16);
    h.finish();
}

TEST_CASE("suppressed_table_joins") {
    streams_builder b;
    auto sup = b.table<str, str>("in", materialized<>::as("src")).suppress(suppressed::until_time_limit(10ms, buffer_config::unbounded()));
    b.stream<str, str>("events").left_join(sup, [](const str& e, const ostr& v) { return e + "@" + show(v); }).to("out-stream");
    sup.join(b.table<str, str>("other"), [](const str& x, const str& y) { return x + "&" + y; }).to_stream().to("out-table");
    sup.filter([](const str& v) { return !v.starts_with("x"); }).to_stream().to("out-filter");
    harness h("suppressed_table_joins", b.build());
    h.input("in", s, s).input("events", s, s).input("other", s, s);
    h.output("out-stream", s, s).output("out-table", s, s).output("out-filter", s, s);
    h.pipe("other", S("a"), S("O1"), 1);
    h.pipe("in", S("a"), S("v2"), 2);
    h.pipe("events", S("a"), S("e3"), 3);
    h.pipe("in", S("a"), S("xv4"), 4);
    h.pipe("in", S("b"), S("w5"), 5);
    h.pipe("events", S("a"), S("e13"), 13);
    h.pipe("in", S("c"), S("u15"), 15);
    h.pipe("events", S("a"), S("e16"), 16);
    h.pipe("in", S("a"), null, 17);
    h.pipe("other", S("b"), S("O18"), 18);
    h.pipe("events", S("b"), S("e19"), 19);
    h.pipe("in", S("d"), S("z40"), 40);
    h.pipe("events", S("a"), S("e41"), 41);
    h.finish();
}

TEST_CASE("stream_join_many_per_key") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    const auto w = join_windows::of_time_difference_and_grace(3ms, 2ms);
    lt.left_join(rt, [](const str& x, const ostr& y) { return x + "+" + show(y); }, w).to("out-left");
    lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); }, w).to("out-outer");
    lt.join(rt, concat, w).to("out-inner");
    harness h("stream_join_many_per_key", b.build());
    h.input("left", s, s).input("right", s, s).output("out-left", s, s).output("out-outer", s, s).output("out-inner", s, s);
    h.pipe("left", S("k"), S("L10"), 10);
    h.pipe("left", S("k"), S("L11"), 11);
    h.pipe("right", S("j"), S("Rj12"), 12);
    h.pipe("right", S("k"), S("R13"), 13);
    h.pipe("left", S("k"), S("L10b"), 10);
    h.pipe("right", S("k"), S("R8"), 8);
    h.pipe("left", S("j"), S("Lj5"), 5);
    h.pipe("right", S("k"), S("R20"), 20);
    h.pipe("left", S("k"), S("L17"), 17);
    h.pipe("right", S("k"), S("R13"), 13);
    h.pipe("left", S("k"), S("L30"), 30);
    h.pipe("right", S("j"), S("Rj40"), 40);
    h.dropped();
    h.finish();
}

TEST_CASE("table_map_null_regroup") {
    streams_builder b;
    auto t = b.table<str, str>("in");
    auto m = t.map_values([](const str& v) { return v.starts_with("n") ? ostr() : ostr(upper(v)); });
    m.group_by([](const str& k, const ostr& v) { return std::pair<str, str>(v->substr(0, 1), k); })
        .aggregate(init, plus_v, minus_v, kv("mn-agg", false))
        .to_stream()
        .to("out-agg");
    t.filter_not([](const str& v) { return v.starts_with("x"); }, materialized<>::as("fnot"))
        .group_by([](const str&, const str& v) { return std::pair<str, str>(v.substr(0, 1), v); })
        .count()
        .to_stream()
        .to("out-count");
    m.to_stream().to("out-mapped");
    harness h("table_map_null_regroup", b.build());
    h.input("in", s, s).output("out-agg", s, s).output("out-count", s, l).output("out-mapped", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k1"), S("n2"), 2);
    h.pipe("in", S("k1"), S("a3"), 3);
    h.pipe("in", S("k2"), S("x4"), 4);
    h.pipe("in", S("k2"), S("b5"), 5);
    h.pipe("in", S("k2"), S("x6"), 6);
    h.pipe("in", S("k1"), null, 7);
    h.pipe("in", S("k3"), S("n8"), 8);
    h.pipe("in", S("k3"), null, 9);
    h.finish();
}

TEST_CASE("count_rekeyed_to_table") {
    streams_builder b;
    auto c = b.stream<str, str>("in").group_by([](const str&, const str& v) { return v; }).count();
    auto back = c.to_stream().map([](const str& k, i64 v) { return std::pair<str, str>(k + std::to_string(v), k); }).to_table();
    back.to_stream().to("out-back");
    c.to_stream()
        .map_values([](i64 v) { return std::to_string(v); })
        .to_table(materialized<>::as("cs"))
        .left_join(back, [](const str& x, const ostr& y) { return x + "|" + show(y); })
        .to_stream()
        .to("out-join");
    harness h("count_rekeyed_to_table", b.build());
    h.input("in", s, s).output("out-back", s, s).output("out-join", s, s);
    h.pipe("in", S("k1"), S("a"), 1);
    h.pipe("in", S("k2"), S("a"), 2);
    h.pipe("in", S("k3"), S("b"), 3);
    h.pipe("in", S("k4"), S("a1"), 4);
    h.finish();
}

TEST_CASE("final_by_suppress_and_emit") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto w = time_windows::of_size_and_grace(8ms, 3ms).advance_by(4ms);
    show_to(g.windowed_by(w).reduce(concat).suppress(suppressed::until_window_closes(buffer_config::unbounded())), "out-suppress");
    show_to(g.windowed_by(w).emit_strategy(emit_strategy::on_window_close()).reduce(concat), "out-emit");
    harness h("final_by_suppress_and_emit", b.build());
    h.input("in", s, s).output("out-suppress", s, s).output("out-emit", s, s);
    window_inputs(h);
    h.finish();
}

TEST_CASE("cogroup_sessions_three") {
    streams_builder b;
    auto g1 = b.stream<str, str>("in1").group_by_key();
    auto g2 = b.stream<str, str>("in2").group_by_key();
    auto g3 = b.stream<str, str>("in3").group_by_key();
    show_to(g1.cogroup([](const str&, const str& v, const str& agg) { return agg + "1" + v; })
                .cogroup(g2, [](const str&, const str& v, const str& agg) { return agg + "2" + v; })
                .cogroup(g3, [](const str&, const str& v, const str& agg) { return agg + "3" + v; })
                .windowed_by(session_windows::of_inactivity_gap_and_grace(4ms, 2ms))
                .aggregate(init, [](const str&, const str& x, const str& y) { return "(" + x + "," + y + ")"; }),
            "out");
    harness h("cogroup_sessions_three", b.build());
    h.input("in1", s, s).input("in2", s, s).input("in3", s, s).output("out", s, s);
    h.pipe("in1", S("a"), S("p"), 0);
    h.pipe("in2", S("a"), S("q"), 8);
    h.pipe("in3", S("a"), S("r"), 4);
    h.pipe("in1", S("b"), S("s"), 5);
    h.pipe("in2", S("a"), S("t"), 15);
    h.pipe("in3", S("a"), S("u"), 10);
    h.pipe("in1", S("a"), S("v"), 2);
    h.pipe("in2", S("b"), S("w"), 20);
    h.pipe("in3", S("a"), S("x"), 12);
    h.dropped();
    h.finish();
}

TEST_CASE("outer_join_filter_regroup") {
    streams_builder b;
    auto j = b.table<str, str>("left").outer_join(b.table<str, str>("right"),
                                                  [](const ostr& x, const ostr& y) { return show(x) + "|" + show(y); },
                                                  materialized<>::as("oj").with_caching_disabled());
    j.filter([](const str& v) { return v.find("null") == str::npos; }, materialized<>::as("ojf")).to_stream().to("out-full");
    j.group_by([](const str&, const str& v) { return std::pair<str, str>(v.substr(0, 1), v); }).count().to_stream().to("out-count");
    harness h("outer_join_filter_regroup", b.build());
    h.input("left", s, s).input("right", s, s).output("out-full", s, s).output("out-count", s, l);
    h.pipe("left", S("a"), S("L1"), 1);
    h.pipe("right", S("a"), S("R2"), 2);
    h.pipe("right", S("b"), S("R3"), 3);
    h.pipe("left", S("a"), null, 4);
    h.pipe("left", S("b"), S("L5"), 5);
    h.pipe("right", S("a"), null, 6);
    h.pipe("right", S("b"), null, 7);
    h.pipe("left", S("b"), null, 8);
    h.finish();
}

TEST_CASE("global_table_updates_rekeyed") {
    streams_builder b;
    auto gt = b.global_table<str, str>("global", materialized<>::as("gstore"));
    auto st = b.stream<str, str>("in").select_key([](const str&, const str& v) { return v.substr(0, 1); });
    st.join(gt, [](const str& k, const str&) { return k; }, [](const str& k, const str& v, const str& g) { return k + ":" + v + "@" + g; })
        .to("out-inner");
    st.left_join(gt, [](const str&, const str& v) { return v.substr(1); }, [](const str& v, const ostr& g) { return v + "@" + show(g); })
        .to("out-left");
    st.group_by_key().count().to_stream().to("out-count");
    harness h("global_table_updates_rekeyed", b.build());
    h.input("global", s, s).input("in", s, s).output("out-inner", s, s).output("out-left", s, s).output("out-count", s, l);
    h.pipe("global", S("a"), null, 1);
    h.pipe("in", S("k"), S("ab"), 2);
    h.pipe("global", S("a"), S("GA"), 3);
    h.pipe("global", S("b"), S("GB"), 4);
    h.pipe("in", S("k"), S("ab"), 5);
    h.pipe("global", S("a"), null, 6);
    h.pipe("in", S("k"), S("ba"), 7);
    h.pipe("in", S("k"), S("ab"), 8);
    h.finish();
}

TEST_CASE("named_grouping_windowed_shared") {
    streams_builder b;
    auto g = b.stream<ostr, str>("in").group_by([](const ostr&, const str& v) { return v.substr(0, 1); }, grouped<>::as("g"));
    g.count().to_stream().to("out-count");
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count(), "out-tumbling");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(5ms)).reduce(concat), "out-session");
    show_to(g.windowed_by(sliding_windows::of_time_difference_with_no_grace(5ms)).aggregate(init, slash), "out-sliding");
    harness h("named_grouping_windowed_shared", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-tumbling", s, l).output("out-session", s, s).output("out-sliding", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("a2"), 4);
    h.pipe("in", S("k3"), S("b3"), 6);
    h.pipe("in", null, S("a4"), 12);
    h.pipe("in", S("k1"), S("b5"), 3);
    h.finish();
}

TEST_CASE("named_table_grouping_named_ops") {
    streams_builder b;
    auto g = b.table<str, str>("in").group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k); },
                                              grouped<>::as("tg"));
    g.count(named::as("cnt")).to_stream().to("out-count");
    g.reduce([](const str& x, const str& y) { return x + "&" + y; }, [](const str& x, const str& y) { return x + "~" + y; }, named::as("red"),
             kv("red-store", true))
        .to_stream()
        .to("out-reduce");
    g.aggregate(init, plus_v, minus_v, named::as("agg"), kv("agg-store", false)).to_stream().to("out-agg");
    harness h("named_table_grouping_named_ops", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-reduce", s, s).output("out-agg", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("a2"), 2);
    h.pipe("in", S("k1"), S("b3"), 3);
    h.pipe("in", S("k2"), null, 4);
    h.finish();
}

TEST_CASE("unnamed_table_grouping_named_ops") {
    streams_builder b;
    auto g = b.table<str, str>("in").group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k); });
    g.count(named::as("cnt")).to_stream().to("out-count");
    g.reduce([](const str& x, const str& y) { return x + "&" + y; }, [](const str& x, const str& y) { return x + "~" + y; }, named::as("red"),
             kv("red-store", true))
        .to_stream()
        .to("out-reduce");
    harness h("unnamed_table_grouping_named_ops", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-reduce", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("a2"), 2);
    h.pipe("in", S("k1"), S("b3"), 3);
    h.pipe("in", S("k2"), null, 4);
    h.finish();
}

TEST_CASE("repartition_null_keys_counted") {
    streams_builder b;
    auto st = b.stream<ostr, str>("in");
    st.repartition(repartitioned<>::as("keep")).group_by_key().count().to_stream().to("out-kept");
    st.select_key([](const ostr&, const str& v) { return v.starts_with("n") ? ostr() : ostr(v); }).group_by_key().count().to_stream().to("out-rekeyed");
    st.repartition().to("out-rp");
    harness h("repartition_null_keys_counted", b.build());
    h.input("in", s, s).output("out-kept", s, l).output("out-rekeyed", s, l).output("out-rp", s, s);
    pipe_counted(h, "in", S("k"), S("v1"), 1);
    pipe_counted(h, "in", null, S("v2"), 2);
    pipe_counted(h, "in", S("k"), S("n3"), 3);
    pipe_counted(h, "in", null, S("n4"), 4);
    h.finish();
}

TEST_CASE("stream_left_join_no_grace_late") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    lt.left_join(rt, [](const str& x, const ostr& y) { return x + "+" + show(y); }, join_windows::of_time_difference_with_no_grace(5ms))
        .to("out");
    harness h("stream_left_join_no_grace_late", b.build());
    h.input("left", s, s).input("right", s, s).output("out", s, s);
    pipe_counted(h, "left", S("k"), S("L10"), 10);
    pipe_counted(h, "right", S("k"), S("R14"), 14);
    pipe_counted(h, "left", S("k"), S("L20"), 20);
    pipe_counted(h, "left", S("k"), S("L9"), 9);
    pipe_counted(h, "right", S("k"), S("R15"), 15);
    pipe_counted(h, "right", S("k"), S("R14b"), 14);
    pipe_counted(h, "left", S("j"), S("Lj14"), 14);
    pipe_counted(h, "right", S("x"), S("Rx26"), 26);
    pipe_counted(h, "left", S("k"), S("L21"), 21);
    pipe_counted(h, "right", S("k"), S("R30"), 30);
    h.finish();
}

TEST_CASE("cogroup_rekeyed_named") {
    streams_builder b;
    const auto first = [](const ostr&, const str& v) { return v.substr(0, 1); };
    auto g1 = b.stream<ostr, str>("in1").group_by(first, grouped<>::as("c1"));
    auto g2 = b.stream<ostr, str>("in2").select_key(first).group_by_key();
    const auto two = [](const str&, const str& v, const str& agg) { return agg + "2" + v; };
    g1.cogroup([](const str&, const str& v, const str& agg) { return agg + "1" + v; })
        .cogroup(g2, two)
        .aggregate(init, named::as("co"), kv("co-store", false))
        .to_stream()
        .to("out");
    auto g1w = b.stream<ostr, str>("in3").group_by(first, grouped<>::as("c3"));
    show_to(g1w.cogroup([](const str&, const str& v, const str& agg) { return agg + "3" + v; })
                .cogroup(g2, two)
                .windowed_by(time_windows::of_size_with_no_grace(10ms))
                .aggregate(init),
            "out-windowed");
    harness h("cogroup_rekeyed_named", b.build());
    h.input("in1", s, s).input("in2", s, s).input("in3", s, s).output("out", s, s).output("out-windowed", s, s);
    h.pipe("in1", S("k1"), S("a1"), 1);
    h.pipe("in3", S("k1"), S("a0"), 0);
    h.pipe("in2", S("k2"), S("a2"), 2);
    h.pipe("in1", S("k3"), S("b3"), 3);
    h.pipe("in2", null, S("b4"), 12);
    h.finish();
}

TEST_CASE("to_table_rekeyed_named") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    st.select_key([](const str&, const str& v) { return v.substr(0, 1); })
        .to_table(named::as("tt"), materialized<>::as("tt-store"))
        .to_stream()
        .to("out-named");
    st.map([](const str& k, const str& v) { return std::pair<str, str>(v.substr(1), k); }).to_table().to_stream().to("out-unnamed");
    harness h("to_table_rekeyed_named", b.build());
    h.input("in", s, s).output("out-named", s, s).output("out-unnamed", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("a2"), 2);
    h.pipe("in", S("k3"), S("b1"), 3);
    h.finish();
}

TEST_CASE("named_windowed_ops") {
    streams_builder b;
    auto g = b.stream<str, str>("in", consumed<>{}.with_name("src")).group_by_key(grouped<>::as("gk"));
    g.windowed_by(time_windows::of_size_with_no_grace(10ms))
        .count(named::as("wc"), materialized<>{})
        .suppress(suppressed::until_window_closes(buffer_config::unbounded()).with_name("final"))
        .to_stream(named::as("final-stream"))
        .select_key([](const windowed<str>& w, i64) { return show(w); }, named::as("show"))
        .to("out-count", produced<>{}.with_name("sink-count"));
    show_to(g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(5ms)).reduce(concat, named::as("sr"), materialized<>::as("sr-store")),
            "out-session");
    show_to(g.windowed_by(sliding_windows::of_time_difference_with_no_grace(5ms))
                .emit_strategy(emit_strategy::on_window_close())
                .aggregate(init, slash, named::as("sa"), materialized<>::as("sa-store")),
            "out-sliding");
    harness h("named_windowed_ops", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-session", s, s).output("out-sliding", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 4);
    h.pipe("in", S("b"), S("3"), 8);
    h.pipe("in", S("a"), S("4"), 12);
    h.pipe("in", S("a"), S("5"), 25);
    h.finish();
}

TEST_CASE("sliding_same_times_early") {
    streams_builder b;
    show_to(b.stream<str, str>("in")
                .group_by_key()
                .windowed_by(sliding_windows::of_time_difference_and_grace(4ms, 3ms))
                .aggregate(init, slash, materialized<>::as("sst").with_caching_disabled()),
            "out");
    harness h("sliding_same_times_early", b.build());
    h.input("in", s, s).output("out", s, s);
    h.pipe("in", S("a"), S("p2"), 2);
    h.pipe("in", S("a"), S("q2"), 2);
    h.pipe("in", S("a"), S("p0"), 0);
    h.pipe("in", S("a"), S("p5"), 5);
    h.pipe("in", S("a"), S("q5"), 5);
    h.pipe("in", S("a"), S("p3"), 3);
    h.pipe("in", S("a"), S("p12"), 12);
    h.pipe("in", S("a"), S("p5b"), 5);
    h.pipe("in", S("a"), S("p4"), 4);
    h.pipe("in", S("a"), S("p9"), 9);
    h.pipe("in", S("a"), S("p8"), 8);
    h.dropped();
    h.finish();
}

TEST_CASE("session_gap_edges") {
    streams_builder b;
    show_to(b.stream<str, str>("in")
                .group_by_key()
                .windowed_by(session_windows::of_inactivity_gap_and_grace(3ms, 2ms))
                .aggregate(init, slash, [](const str&, const str& x, const str& y) { return x + "|" + y; },
                           materialized<>::as("sg").with_caching_disabled()),
            "out");
    harness h("session_gap_edges", b.build());
    h.input("in", s, s).output("out", s, s);
    h.pipe("in", S("a"), S("p0"), 0);
    h.pipe("in", S("a"), S("p3"), 3);
    h.pipe("in", S("a"), S("p10"), 10);
    h.pipe("in", S("a"), S("p7"), 7);
    h.pipe("in", S("a"), S("p10b"), 10);
    h.pipe("in", S("a"), S("p16"), 16);
    h.pipe("in", S("a"), S("p13"), 13);
    h.pipe("in", S("a"), S("p20"), 20);
    h.pipe("in", S("a"), S("p12"), 12);
    h.pipe("in", S("a"), S("p14"), 14);
    h.dropped();
    h.finish();
}

TEST_CASE("window_size_one_and_equal_advance") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(time_windows::of_size_and_grace(1ms, 1ms)).count(), "out-one");
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(5ms).advance_by(5ms)).count(), "out-equal");
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(3ms).advance_by(1ms)).count(), "out-step");
    harness h("window_size_one_and_equal_advance", b.build());
    h.input("in", s, s).output("out-one", s, l).output("out-equal", s, l).output("out-step", s, l);
    h.pipe("in", S("a"), S("1"), 0);
    h.pipe("in", S("a"), S("2"), 1);
    h.pipe("in", S("a"), S("3"), 1);
    h.pipe("in", S("a"), S("4"), 4);
    h.pipe("in", S("a"), S("5"), 2);
    h.pipe("in", S("a"), S("6"), 5);
    h.pipe("in", S("a"), S("7"), 3);
    h.dropped();
    h.finish();
}

TEST_CASE("table_aggregate_unchanged_results") {
    streams_builder b;
    auto g = b.table<str, str>("in").group_by([](const str&, const str& v) { return std::pair<str, str>("all", v); });
    const auto add_once = [](const str&, const str& v, const str& agg) { return agg.find(v) != str::npos ? agg : agg + v; };
    const auto keep = [](const str&, const str&, const str& agg) { return agg; };
    g.aggregate(init, add_once, keep, kv("same-uncached", false)).to_stream().to("out-uncached");
    g.aggregate(init, add_once, keep, kv("same-cached", true)).to_stream().to("out-cached");
    g.count().to_stream().to("out-count");
    harness h("table_aggregate_unchanged_results", b.build());
    h.input("in", s, s).output("out-uncached", s, s).output("out-cached", s, s).output("out-count", s, l);
    h.pipe("in", S("k1"), S("x"), 1);
    h.pipe("in", S("k1"), S("x"), 2);
    h.pipe("in", S("k2"), S("x"), 3);
    h.pipe("in", S("k1"), S("y"), 4);
    h.pipe("in", S("k2"), null, 5);
    h.pipe("in", S("k2"), null, 6);
    h.finish();
}

TEST_CASE("named_sources_global") {
    streams_builder b;
    auto st = b.stream<str, str>("in", consumed<>{}.with_name("in-src"));
    auto t = b.table<str, str>("table", consumed<>{}.with_name("table-src"), materialized<>::as("table-store"));
    auto gt = b.global_table<str, str>("global", consumed<>{}.with_name("global-src"), materialized<>::as("global-store"));
    st.join(t, [](const str& v, const str& r) { return v + "@" + r; }, joined<>::as("tj"))
        .left_join(gt, [](const str& k, const str&) { return k; }, [](const str& v, const ostr& r) { return v + "#" + show(r); }, named::as("gj"))
        .to("out", produced<>{}.with_name("out-sink"));
    harness h("named_sources_global", b.build());
    h.input("in", s, s).input("table", s, s).input("global", s, s).output("out", s, s);
    h.pipe("table", S("k"), S("T"), 1);
    h.pipe("in", S("k"), S("v2"), 2);
    h.pipe("global", S("k"), S("G"), 3);
    h.pipe("in", S("k"), S("v4"), 4);
    h.finish();
}

TEST_CASE("stream_joined_with_own_table") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    auto early = st.map_values([](const str& v) { return v + "'"; });
    auto t = st.to_table(materialized<>::as("own"));
    st.left_join(t, [](const str& v, const ostr& r) { return v + "@" + show(r); }).to("out-after");
    early.left_join(t, [](const str& v, const ostr& r) { return v + "@" + show(r); }).to("out-before");
    harness h("stream_joined_with_own_table", b.build());
    h.input("in", s, s).output("out-after", s, s).output("out-before", s, s);
    h.pipe("in", S("k"), S("v1"), 1);
    h.pipe("in", S("k"), S("v2"), 2);
    h.pipe("in", S("j"), S("w3"), 3);
    h.pipe("in", S("k"), S("v4"), 0);
    h.finish();
}

TEST_CASE("fan_in_same_topic_order") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    st.map_values([](const str& v) { return "direct:" + v; }).to("out");
    st.select_key([](const str&, const str& v) { return v; }).repartition().map_values([](const str& v) { return "rp:" + v; }).to("out");
    st.group_by_key().count().to_stream().map_values([](i64 v) { return "count:" + std::to_string(v); }).to("out");
    st.map_values([](const str& v) { return "late:" + v; }).to("out");
    harness h("fan_in_same_topic_order", b.build());
    h.input("in", s, s).output("out", s, s);
    h.pipe("in", S("k"), S("a"), 1);
    h.pipe("in", S("k"), S("b"), 2);
    h.pipe("in", S("j"), S("c"), 1);
    h.finish();
}

TEST_CASE("suppress_time_limit_updates") {
    streams_builder b;
    b.table<str, str>("in").suppress(suppressed::until_time_limit(10ms, buffer_config::unbounded())).to_stream().to("out");
    b.stream<str, str>("in2")
        .group_by_key()
        .count()
        .suppress(suppressed::until_time_limit(10ms, buffer_config::max_records(5)))
        .to_stream()
        .to("out-count");
    harness h("suppress_time_limit_updates", b.build());
    h.input("in", s, s).input("in2", s, s).output("out", s, s).output("out-count", s, l);
    h.pipe("in", S("a"), S("1"), 0);
    h.pipe("in", S("a"), S("2"), 8);
    h.pipe("in", S("c"), S("3"), 10);
    h.pipe("in", S("c"), S("4"), 17);
    h.pipe("in", S("d"), S("5"), 18);
    h.pipe("in", S("d"), S("6"), 5);
    h.pipe("in", S("e"), S("7"), 40);
    h.pipe("in2", S("a"), S("x"), 0);
    h.pipe("in2", S("a"), S("x"), 8);
    h.pipe("in2", S("b"), S("x"), 10);
    h.pipe("in2", S("b"), S("x"), 18);
    h.pipe("in2", S("c"), S("x"), 30);
    h.finish();
}

}  // TEST_SUITE
