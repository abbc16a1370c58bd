// Conformance: scenarios of the tenth hunt, written as java/.../Hunt10Scenarios.java writes them,
// compared with Java Kafka Streams' outputs: every window kind at the grace boundary (grace 0 and
// 5), merges and windows reaching records past the store's retention (RocksDB and in memory,
// cached or not), final results of windowed cogroups and of sliding and session windows without
// grace, chains of table views into table-table joins of every kind, to_table then joins,
// foreign-key joins with a (key, value) extractor and partitioners, sinks with partitioners and
// topic extractors reading headers, negative timestamps at every kind of source, grouped-table
// aggregations on each store.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/state/window_stores.hpp>

#include "harness.hpp"
#include "timestamp_from_value.hpp"
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

const auto concat = [](const str& x, const str& y) { return x + "+" + y; };

/// Hunt10Scenarios.graceInputs: values "v<ts>" on key a (and b) around the grace boundaries of
/// 10 ms windows.
void grace_inputs(harness& h) {
    for (i64 t : {0, 10, 9, 14, 4, 15, 9, 5, 25, 15, 14, 30, 20, 19, 45, 35, 34, 36})
        h.pipe("in", S("a"), S("v" + std::to_string(t)), t);
    h.pipe("in", S("b"), S("v44"), 44);
    h.pipe("in", S("b"), S("v33"), 33);
    h.dropped();
}

/// Hunt10Scenarios.Numbered: "value#n", n counting the transformer's calls for the key; a delete
/// becomes "gone#n" on even calls.
struct numbered final : value_transformer_with_key<str, str, str> {
    std::map<str, int> calls;
    std::optional<str> transform(const str& key, const std::optional<str>& value) override {
        const int n = ++calls[key];
        if (!value) return n % 2 == 0 ? std::optional<str>("gone#" + std::to_string(n)) : std::nullopt;
        return *value + "#" + std::to_string(n);
    }
};

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("window_grace_exact") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    for (int grace : {0, 5}) {
        const std::chrono::milliseconds gr(grace);
        const str n = std::to_string(grace);
        show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, gr)).reduce(concat), "out-tumbling-" + n);
        show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, gr).advance_by(5ms))
                    .reduce(concat, materialized<>::as("hop-" + n).with_caching_disabled()),
                "out-hopping-" + n);
        show_to(g.windowed_by(sliding_windows::of_time_difference_and_grace(10ms, gr))
                    .reduce(concat, materialized<>::as("slide-" + n).with_caching_disabled()),
                "out-sliding-" + n);
        show_to(g.windowed_by(session_windows::of_inactivity_gap_and_grace(10ms, gr))
                    .reduce(concat, materialized<>::as("sess-" + n).with_caching_disabled()),
                "out-session-" + n);
    }
    harness h("window_grace_exact", b.build());
    h.input("in", s, s);
    for (const char* k : {"tumbling", "hopping", "sliding", "session"})
        for (const char* grace : {"0", "5"}) h.output(str("out-") + k + "-" + grace, s, s);
    grace_inputs(h);
    h.finish();
}

TEST_CASE("window_retention_reach") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    for (const str kind : {"rocks", "mem"}) {
        for (bool cached : {true, false}) {
            const str n = kind + (cached ? "-cached" : "-uncached");
            auto ms = materialized<>::as("sess-" + n);
            auto mw = materialized<>::as("slide-" + n);
            if (kind == "mem") {
                ms = ms.with_in_memory_store();
                mw = mw.with_in_memory_store();
            }
            if (!cached) {
                ms = ms.with_caching_disabled();
                mw = mw.with_caching_disabled();
            }
            show_to(g.windowed_by(session_windows::of_inactivity_gap_and_grace(10ms, 5ms)).reduce(concat, ms),
                    "out-session-" + n);
            show_to(g.windowed_by(sliding_windows::of_time_difference_and_grace(10ms, 5ms)).reduce(concat, mw),
                    "out-sliding-" + n);
        }
    }
    harness h("window_retention_reach", b.build());
    h.input("in", s, s);
    for (const str kind : {"rocks", "mem"})
        for (const str c : {"-cached", "-uncached"}) {
            h.output("out-session-" + kind + c, s, s);
            h.output("out-sliding-" + kind + c, s, s);
        }
    for (i64 t : {0, 20, 10, 40, 52, 36, 46, 70, 61, 66}) h.pipe("in", S("a"), S("s" + std::to_string(t)), t);
    h.dropped();
    h.finish();
}

TEST_CASE("suppress_final_cogroup_no_grace") {
    streams_builder b;
    auto g1 = b.stream<str, str>("in1").group_by_key();
    auto g2 = b.stream<str, str>("in2").group_by_key();
    const auto plus = [](const str&, const str& v, const str& agg) { return agg + "+" + v; };
    const auto hash = [](const str&, const str& v, const str& agg) { return agg + "#" + v; };
    const auto init = [] { return str(); };
    const auto m = materialized_with(serde<str>{}, serde<str>{});
    const auto final_results = suppressed::until_window_closes(buffer_config::unbounded());
    show_to(g1.cogroup(plus).cogroup(g2, hash).windowed_by(time_windows::of_size_and_grace(10ms, 2ms)).aggregate(init, m)
                .suppress(final_results),
            "out-cogroup-tumbling");
    show_to(g1.cogroup(plus)
                .cogroup(g2, hash)
                .windowed_by(session_windows::of_inactivity_gap_and_grace(5ms, 2ms))
                .aggregate(init, [](const str&, const str& x, const str& y) { return x + "|" + y; }, m)
                .suppress(final_results),
            "out-cogroup-session");
    show_to(g1.windowed_by(sliding_windows::of_time_difference_with_no_grace(5ms)).reduce(concat).suppress(final_results),
            "out-sliding");
    show_to(g1.windowed_by(session_windows::of_inactivity_gap_with_no_grace(5ms)).reduce(concat).suppress(final_results),
            "out-session");
    harness h("suppress_final_cogroup_no_grace", b.build());
    h.input("in1", s, s).input("in2", s, s).output("out-cogroup-tumbling", s, s).output("out-cogroup-session", s, s);
    h.output("out-sliding", s, s).output("out-session", s, s);
    h.pipe("in1", S("a"), S("a1"), 1);
    h.pipe("in2", S("a"), S("b3"), 3);
    h.pipe("in1", S("b"), S("c5"), 5);
    h.pipe("in1", S("a"), S("a6"), 6);
    h.pipe("in2", S("b"), S("d11"), 11);
    h.pipe("in1", S("a"), S("a12"), 12);
    h.pipe("in2", S("a"), S("b9"), 9);
    h.pipe("in1", S("a"), S("a17"), 17);
    h.pipe("in1", S("a"), S("a11"), 11);
    h.pipe("in2", S("b"), S("d24"), 24);
    h.pipe("in1", S("a"), S("a22"), 22);
    h.pipe("in1", S("b"), S("c40"), 40);
    h.finish();
}

TEST_CASE("table_join_view_chains") {
    streams_builder b;
    auto lt = b.table<str, str>("left");
    auto rt = b.table<str, str>("right");
    auto lv = lt.filter_not([](const str&, const str& v) { return v.rfind("x", 0) == 0; }).map_values([](const str& v) {
        str u = v;
        for (auto& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return u;
    });
    auto rv = rt.transform_values([] { return std::make_unique<numbered>(); }, materialized<>::as("rt"));
    auto rf = rt.filter([](const str&, const str& v) { return v.rfind("y", 0) != 0; },
                        materialized<>::as("rf").with_caching_disabled());
    lv.join(rv, [](const str& x, const str& y) { return x + "*" + y; }).to_stream().to("out-inner");
    lv.left_join(rf, [](const str& x, const ostr& y) { return x + "*" + show(y); },
                 materialized<>::as("lj").with_caching_disabled())
        .to_stream()
        .to("out-left");
    lv.outer_join(rf, [](const ostr& x, const ostr& y) { return show(x) + "*" + show(y); }, materialized<>::as("oj"))
        .to_stream()
        .to("out-outer-cached");
    rv.outer_join(lv, [](const ostr& x, const ostr& y) { return show(x) + "*" + show(y); })
        .filter([](const str&, const str& v) { return v.find("null") == str::npos; })
        .to_stream()
        .to("out-outer-filtered");
    harness h("table_join_view_chains", b.build());
    h.input("left", s, s).input("right", s, s).output("out-inner", s, s).output("out-left", s, s);
    h.output("out-outer-cached", s, s).output("out-outer-filtered", s, s);
    h.pipe("left", S("a"), S("l1"), 10);
    h.pipe("right", S("a"), S("r1"), 5);
    h.pipe("right", S("b"), S("r2"), 12);
    h.pipe("left", S("b"), S("xl2"), 3);
    h.pipe("left", S("b"), S("l3"), 20);
    h.pipe("right", S("a"), S("y4"), 8);
    h.pipe("right", S("a"), null, 25);
    h.pipe("left", S("a"), S("xl5"), 7);
    h.pipe("right", S("a"), S("r6"), 30);
    h.pipe("left", S("a"), S("l7"), 2);
    h.pipe("left", S("b"), null, 40);
    h.pipe("right", S("b"), null, 41);
    h.pipe("left", S("c"), null, 42);
    h.pipe("right", S("c"), null, 43);
    h.pipe("right", S("c"), S("r8"), 44);
    h.pipe("left", S("c"), S("xl9"), 45);
    h.pipe("left", S("c"), S("l10"), 46);
    h.pipe("right", S("c"), S("y11"), 1);
    h.finish();
}

TEST_CASE("to_table_then_join") {
    streams_builder b;
    auto t = b.stream<str, str>("in").to_table();
    auto m = b.stream<str, ostr>("in2")
                 .map_values([](const ostr& v) { return v ? ostr(*v + "!") : ostr(); })
                 .to_table(materialized<>::as("m"));
    b.stream<str, str>("st").join(t, [](const str& x, const str& y) { return x + "@" + y; }).to("out-stream");
    t.left_join(m, [](const str& x, const ostr& y) { return x + "&" + show(y); }).to_stream().to("out-left");
    m.join(t, [](const ostr& x, const str& y) { return *x + "&" + y; })
        .group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k); })
        .count()
        .to_stream()
        .to("out-count");
    harness h("to_table_then_join", b.build());
    h.input("in", s, s).input("in2", s, s).input("st", s, s).output("out-stream", s, s).output("out-left", s, s);
    h.output("out-count", s, l);
    h.pipe("in", S("a"), S("t1"), 1);
    h.pipe("st", S("a"), S("s1"), 2);
    h.pipe("in2", S("a"), S("m1"), 3);
    h.pipe("in", S("a"), S("t2"), 4);
    h.pipe("in2", S("a"), null, 5);
    h.pipe("st", S("b"), S("s2"), 6);
    h.pipe("in", S("b"), S("u1"), 7);
    h.pipe("in2", S("b"), S("n1"), 8);
    h.pipe("in", S("a"), null, 9);
    h.pipe("st", S("a"), S("s3"), 10);
    h.pipe("in2", S("b"), S("t3"), 11);
    h.pipe("in", S("b"), null, 12);
    h.finish();
}

TEST_CASE("fk_join_key_value_extractor") {
    streams_builder b;
    auto orders_table = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    const auto p = [](std::string_view, const str&, std::int32_t) { return std::optional<std::int32_t>(0); };
    orders_table
        .join(customers, [](const str& k, const str& v) { return v == "self" ? ostr(k) : fk(v); },
              [](const str& o, const str& c) { return o + "/" + c; }, table_joined_with(p, p))
        .to_stream()
        .to("out-inner");
    orders_table
        .left_join(customers,
                   [](const str& k, const str& v) {
                       if (v.rfind("none", 0) == 0) return ostr();
                       return ostr(k.substr(0, 1) + (v == "self" ? k : *fk(v)));
                   },
                   [](const str& o, const ostr& c) { return o + "/" + show(c); },
                   table_joined<>::as("lfk").with_partitioner(p))
        .to_stream()
        .to("out-left");
    harness h("fk_join_key_value_extractor", b.build());
    h.input("orders", s, s).input("customers", s, s).output("out-inner", s, s).output("out-left", s, s);
    h.pipe("customers", S("c1"), S("Ann"), 1);
    h.pipe("customers", S("oc1"), S("Oan"), 2);
    h.pipe("orders", S("o"), S("c1:x"), 3);
    h.pipe("orders", S("o"), S("c2:x"), 4);
    h.pipe("orders", S("o"), S("c1:y"), 5);
    h.pipe("customers", S("c2"), S("Ben"), 6);
    h.pipe("orders", S("o"), S("c2:z"), 7);
    h.pipe("orders", S("o"), S("c1:z"), 8);
    h.pipe("customers", S("oc2"), S("Oben"), 9);
    h.pipe("orders", S("o"), S("none"), 10);
    h.pipe("orders", S("o"), S("c2:w"), 11);
    h.pipe("customers", S("c2"), null, 12);
    h.pipe("customers", S("oc2"), null, 13);
    h.pipe("orders", S("c1"), S("self"), 14);
    h.pipe("customers", S("c1"), S("Anna"), 15);
    h.pipe("orders", S("c1"), null, 16);
    h.pipe("orders", S("o"), null, 17);
    h.pipe("customers", S("c2"), S("Bea"), 18);
    h.finish();
}

TEST_CASE("sink_partitioner_extractor_headers") {
    streams_builder b;
    auto st = b.stream<ostr, str>("in");
    const auto zero = [](std::string_view, const ostr&, const str&, std::int32_t) { return std::optional<std::int32_t>(0); };
    st.to("out-part", produced<>{}.with_stream_partitioner(zero));
    st.repartition(repartitioned<>::as("rp").with_number_of_partitions(1).with_stream_partitioner(zero))
        .group_by_key()
        .count()
        .to_stream()
        .to("out-count");
    const contextual_topic_name_extractor<ostr, str> by_header = [](const record<ostr, str>& r, const record_metadata* src) {
        const header* route = r.headers.last("route");
        return route ? "out-" + route->value.value_or("null") : "out-" + (src ? str(src->topic) : str("?"));
    };
    st.map_values([](const str& v) { return v + "!"; }).to(by_header);
    harness h("sink_partitioner_extractor_headers", b.build());
    h.input("in", s, s).output("out-part", s, s).output("out-count", s, l).output("out-x", s, s).output("out-y", s, s);
    h.output("out-in", s, s);
    h.pipe("in", S("a"), S("v1"), 1, {"route=x"});
    h.pipe("in", S("b"), S("v2"), 2);
    h.pipe("in", S("a"), S("v3"), 3, {"route=y", "route=x"});
    h.pipe("in", S("c"), S("v4"), 4, {"other=1"});
    h.pipe("in", null, S("v5"), 5, {"route=y"});
    h.finish();
}

TEST_CASE("invalid_timestamps_sources") {
    streams_builder b;
    const auto c = consumed<>{}.with_timestamp_extractor(from_value);
    b.stream<str, str>("in", c).to("out-stream");
    b.table<str, str>("tab", c).to_stream().to("out-table");
    b.table<str, str>("tab2", c, materialized<>::as("tab2-store")).to_stream().to("out-table-mat");
    auto g = b.global_table<str, str>("glob", c);
    b.stream<str, str>("orders")
        .left_join(g, [](const str&, const str& v) { return v; }, [](const str& o, const ostr& x) { return o + "=" + show(x); })
        .to("out-global");
    harness h("invalid_timestamps_sources", b.build());
    h.input("in", s, s).input("tab", s, s).input("tab2", s, s).input("glob", s, s).input("orders", s, s);
    h.output("out-stream", s, s).output("out-table", s, s).output("out-table-mat", s, s).output("out-global", s, s);
    h.pipe("in", S("a"), S("5:v1"), 1);
    h.pipe("in", S("a"), S("-1:v2"), 2);
    h.pipe("in", S("a"), S("p:v3"), 3);
    h.pipe("in", S("a"), S("3:v4"), 4);
    h.pipe("in", S("a"), S("p:v5"), 5);
    h.pipe("tab", S("t"), S("4:x1"), 6);
    h.pipe("tab", S("t"), S("-2:x2"), 7);
    h.pipe("tab", S("t"), S("p:x3"), 8);
    h.pipe("tab2", S("t"), S("4:x1"), 6);
    h.pipe("tab2", S("t"), S("-2:x2"), 7);
    h.pipe("tab2", S("t"), null, 8);
    h.pipe("glob", S("g"), S("-1:y1"), 9);
    h.pipe("glob", S("g2"), S("2:y2"), 10);
    h.pipe("orders", S("o"), S("g"), 11);
    h.pipe("orders", S("o"), S("g2"), 12);
    h.dropped();
    h.finish();
}

TEST_CASE("grouped_table_store_kinds") {
    streams_builder b;
    auto g = b.table<str, str>("users").group_by([](const str& k, const str& v) { return std::pair<str, str>(v, k); });
    g.count(materialized<>::as(stores::in_memory_key_value_store("cnt-mem")).with_caching_disabled())
        .to_stream()
        .to("out-count-mem");
    g.reduce(concat, [](const str& x, const str& y) { return x + "-" + y; },
             materialized<>::as(stores::persistent_key_value_store("red-rocks")).with_caching_disabled())
        .to_stream()
        .to("out-reduce-rocks");
    g.aggregate([] { return str(); }, [](const str& k, const str&, const str& agg) { return agg + "+" + k; },
                [](const str& k, const str&, const str& agg) { return agg + "-" + k; },
                materialized<>::as(stores::in_memory_key_value_store("agg-mem")).with_caching_enabled())
        .to_stream()
        .to("out-agg-mem-cached");
    harness h("grouped_table_store_kinds", b.build());
    h.input("users", s, s).output("out-count-mem", s, l).output("out-reduce-rocks", s, s).output("out-agg-mem-cached", s, s);
    user_moves(h);
    h.finish();
}


TEST_CASE("docs_join_semantics") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    auto tl = b.table<str, str>("tleft");
    auto tr = b.table<str, str>("tright");
    const auto w = join_windows::of_time_difference_with_no_grace(10ms);
    lt.join(rt, [](const str& x, const str& y) { return x + "+" + y; }, w).to("out-ss-inner");
    lt.left_join(rt, [](const str& x, const ostr& y) { return x + "+" + show(y); }, w).to("out-ss-left");
    lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); }, w).to("out-ss-outer");
    lt.join(tr, [](const str& x, const str& y) { return x + "+" + y; }).to("out-st-inner");
    lt.left_join(tr, [](const str& x, const ostr& y) { return x + "+" + show(y); }).to("out-st-left");
    tl.join(tr, [](const str& x, const str& y) { return x + "+" + y; }).to_stream().to("out-tt-inner");
    tl.left_join(tr, [](const str& x, const ostr& y) { return x + "+" + show(y); }).to_stream().to("out-tt-left");
    tl.outer_join(tr, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); }).to_stream().to("out-tt-outer");
    harness h("docs_join_semantics", b.build());
    h.input("left", s, s).input("right", s, s).input("tleft", s, s).input("tright", s, s);
    for (const char* o : {"ss-inner", "ss-left", "ss-outer", "st-inner", "st-left", "tt-inner", "tt-left", "tt-outer"})
        h.output(str("out-") + o, s, s);
    const std::vector<std::pair<str, datum>> walk = {
        {"left", null}, {"right", null}, {"left", S("A")}, {"right", S("a")}, {"left", S("B")}, {"right", S("b")},
        {"left", null}, {"right", null}, {"left", S("C")}, {"right", S("c")}, {"right", null}, {"left", null},
        {"right", null}, {"right", S("d")}, {"left", S("D")}};
    for (std::size_t i = 0; i < walk.size(); ++i) {
        h.pipe(walk[i].first, S("k"), walk[i].second, static_cast<i64>(i + 1));
        h.pipe("t" + walk[i].first, S("k"), walk[i].second, static_cast<i64>(i + 1));
    }
    h.pipe("left", S("k"), S("E"), 40);
    h.pipe("tleft", S("k"), S("E"), 40);
    h.dropped();
    h.finish();
}

TEST_CASE("sliding_exact_boundaries") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto w = sliding_windows::of_time_difference_and_grace(10ms, 20ms);
    show_to(g.windowed_by(w).reduce(concat, materialized<>::as("sr").with_caching_disabled()), "out-reduce");
    show_to(g.windowed_by(w).aggregate([] { return str(); }, [](const str&, const str& v, const str& agg) { return agg + "/" + v; }),
            "out-agg");
    show_to(g.windowed_by(w).emit_strategy(emit_strategy::on_window_close()).count(), "out-close");
    harness h("sliding_exact_boundaries", b.build());
    h.input("in", s, s).output("out-reduce", s, s).output("out-agg", s, s).output("out-close", s, l);
    for (i64 t : {10, 20, 0, 30, 15, 5, 25, 20, 40, 30, 9, 60, 41, 50, 70, 80, 59})
        h.pipe("in", S("a"), S("v" + std::to_string(t)), t);
    h.dropped();
    h.finish();
}

TEST_CASE("merged_streams_windowed") {
    streams_builder b;
    auto m = b.stream<str, str>("in1").merge(b.stream<str, str>("in2").map_values([](const str& v) { return v + "'"; }));
    auto g = m.group_by_key();
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count(), "out-count");
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms)).emit_strategy(emit_strategy::on_window_close()).reduce(concat),
            "out-close");
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 3ms).advance_by(10ms)).reduce(concat), "out-hopping");
    harness h("merged_streams_windowed", b.build());
    h.input("in1", s, s).input("in2", s, s).output("out-count", s, l).output("out-close", s, s).output("out-hopping", s, s);
    h.pipe("in1", S("a"), S("x1"), 1);
    h.pipe("in2", S("a"), S("y12"), 12);
    h.pipe("in1", S("a"), S("x8"), 8);
    h.pipe("in1", S("b"), S("x9"), 9);
    h.pipe("in2", S("b"), S("y11"), 11);
    h.pipe("in1", S("a"), S("x21"), 21);
    h.pipe("in2", S("a"), S("y19"), 19);
    h.pipe("in2", S("a"), S("y18"), 18);
    h.pipe("in1", S("b"), S("x30"), 30);
    h.pipe("in2", S("a"), S("y29"), 29);
    h.dropped();
    h.finish();
}

TEST_CASE("suppress_time_limit_join") {
    streams_builder b;
    auto lt = b.table<str, str>("left");
    auto rt = b.table<str, str>("right");
    lt.join(rt, [](const str& x, const str& y) { return x + "+" + y; })
        .suppress(suppressed::until_time_limit(5ms, buffer_config::max_records(2).emit_early_when_full()))
        .to_stream()
        .to("out-inner");
    lt.left_join(rt, [](const str& x, const ostr& y) { return x + "+" + show(y); }, materialized<>::as("lj"))
        .suppress(suppressed::until_time_limit(0ms, buffer_config::unbounded()))
        .to_stream()
        .to("out-left");
    harness h("suppress_time_limit_join", b.build());
    h.input("left", s, s).input("right", s, s).output("out-inner", s, s).output("out-left", s, s);
    h.pipe("left", S("a"), S("l1"), 1);
    h.pipe("right", S("a"), S("r1"), 2);
    h.pipe("left", S("b"), S("l2"), 3);
    h.pipe("right", S("b"), S("r2"), 4);
    h.pipe("right", S("c"), S("r3"), 5);
    h.pipe("left", S("c"), S("l3"), 6);
    h.pipe("left", S("a"), S("l4"), 6);
    h.pipe("right", S("a"), null, 8);
    h.pipe("left", S("d"), S("l5"), 20);
    h.pipe("right", S("b"), S("r6"), 21);
    h.pipe("left", S("b"), null, 22);
    h.pipe("right", S("d"), S("r7"), 40);
    h.finish();
}


TEST_CASE("plain_store_timestamps") {
    streams_builder b;
    auto ta = b.table<str, str>("ta", materialized<>::as(stores::in_memory_key_value_store("ta-store")));
    auto tb = b.table<str, str>("tb", materialized<>::as(stores::persistent_key_value_store("tb-store")));
    auto tc = b.table<str, str>("tc");
    auto td = b.table<str, str>("td", materialized<>::as(stores::in_memory_key_value_store("td-store")).with_caching_disabled());
    const auto plus = [](const str& x, const str& y) { return x + "+" + y; };
    tc.join(td, plus).to_stream().to("out-cd");
    ta.join(tc, plus).to_stream().to("out-ac");
    tc.join(tb, plus).to_stream().to("out-cb");
    ta.outer_join(tb, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); }).to_stream().to("out-ab");
    ta.filter([](const str&, const str& v) { return v.rfind("x", 0) != 0; }, materialized<>::as(stores::in_memory_key_value_store("fa")))
        .join(tc, [](const str& x, const str& y) { return x + "*" + y; })
        .to_stream()
        .to("out-fc");
    auto cnt = b.stream<str, str>("st").group_by_key().count(materialized<>::as(stores::in_memory_key_value_store("cnt")));
    cnt.to_stream().to("out-count");
    tc.join(cnt, [](const str& x, i64 n) { return x + "#" + std::to_string(n); }).to_stream().to("out-cnt-join");
    b.stream<str, str>("probe").join(ta, [](const str& x, const str& y) { return x + "@" + y; }).to("out-probe");
    harness h("plain_store_timestamps", b.build());
    h.input("ta", s, s).input("tb", s, s).input("tc", s, s).input("td", s, s).input("st", s, s).input("probe", s, s);
    h.output("out-cd", s, s).output("out-ac", s, s).output("out-cb", s, s).output("out-ab", s, s).output("out-fc", s, s);
    h.output("out-count", s, l).output("out-cnt-join", s, s).output("out-probe", s, s);
    h.pipe("ta", S("k"), S("a1"), 10);
    h.pipe("td", S("k"), S("d1"), 15);
    h.pipe("tb", S("k"), S("b1"), 20);
    h.pipe("tc", S("k"), S("c1"), 5);
    h.pipe("ta", S("k"), S("a2"), 3);
    h.pipe("tb", S("k"), S("b2"), 4);
    h.pipe("st", S("k"), S("s"), 30);
    h.pipe("tc", S("k"), S("c2"), 6);
    h.pipe("st", S("k"), S("s"), 2);
    h.pipe("ta", S("k"), S("xa3"), 7);
    h.pipe("tc", S("k"), S("c3"), 1);
    h.pipe("probe", S("k"), S("p"), 0);
    h.pipe("ta", S("k"), null, 8);
    h.pipe("tb", S("k"), null, 9);
    h.pipe("td", S("k"), S("d2"), 2);
    h.pipe("tc", S("k"), S("c4"), 3);
    h.finish();
}


TEST_CASE("stream_join_expired_dropped") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    const auto w = join_windows::of_time_difference_and_grace(10ms, 5ms);
    lt.join(rt, [](const str& x, const str& y) { return x + "+" + y; }, w).to("out-inner");
    lt.left_join(rt, [](const str& x, const ostr& y) { return x + "+" + show(y); }, join_windows::of_time_difference_with_no_grace(10ms))
        .to("out-left");
    lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); }, w.before(2ms)).to("out-outer");
    harness h("stream_join_expired_dropped", b.build());
    h.input("left", s, s).input("right", s, s).output("out-inner", s, s).output("out-left", s, s).output("out-outer", s, s);
    h.pipe("left", S("a"), S("L100"), 100);
    h.pipe("right", S("a"), S("R100"), 100);
    h.pipe("left", S("a"), S("L84"), 84);
    h.pipe("left", S("a"), S("L85"), 85);
    h.pipe("right", S("a"), S("R90"), 90);
    h.pipe("right", S("a"), S("R84"), 84);
    h.dropped();
    h.pipe("left", S("b"), S("L120"), 120);
    h.pipe("right", S("a"), S("R105"), 105);
    h.pipe("right", S("b"), S("R112"), 112);
    h.pipe("left", S("a"), S("L104"), 104);
    h.pipe("left", S("b"), S("L109"), 109);
    h.pipe("left", S("c"), S("L140"), 140);
    h.dropped();
    h.finish();
}


TEST_CASE("plain_persistent_stores") {
    streams_builder b;
    auto t1 = b.table<str, str>("t1", materialized<>::as(stores::persistent_key_value_store("t1-store")).with_caching_disabled());
    auto t2 = b.table<str, str>(
        "t2", materialized<>::as(stores::persistent_timestamped_key_value_store("t2-store")).with_caching_disabled());
    t2.join(t1, [](const str& x, const str& y) { return x + "+" + y; }).to_stream().to("out-join");
    auto g = b.stream<str, str>("in").group_by_key();
    g.count(materialized<>::as(stores::persistent_key_value_store("cnt-plain")).with_caching_disabled())
        .to_stream()
        .to("out-count-plain");
    g.count(materialized<>::as(stores::in_memory_key_value_store("cnt-mem")).with_caching_disabled()).to_stream().to("out-count-mem");
    g.reduce(concat, materialized<>::as(stores::persistent_key_value_store("red-cached"))).to_stream().to("out-reduce-cached");
    const auto tumbling = time_windows::of_size_with_no_grace(10ms);
    show_to(g.windowed_by(tumbling).count(
                materialized<>::as(stores::persistent_window_store("w-plain", 100ms, 10ms, false)).with_caching_disabled()),
            "out-window-plain");
    show_to(g.windowed_by(tumbling).count(
                materialized<>::as(stores::in_memory_window_store("w-mem", 100ms, 10ms, false)).with_caching_disabled()),
            "out-window-mem");
    show_to(g.windowed_by(tumbling).count(
                materialized<>::as(stores::persistent_timestamped_window_store("w-ts", 100ms, 10ms, false)).with_caching_disabled()),
            "out-window-ts");
    harness h("plain_persistent_stores", b.build());
    h.input("t1", s, s).input("t2", s, s).input("in", s, s).output("out-join", s, s).output("out-count-plain", s, l);
    h.output("out-count-mem", s, l).output("out-reduce-cached", s, s).output("out-window-plain", s, l);
    h.output("out-window-mem", s, l).output("out-window-ts", s, l);
    h.pipe("t1", S("k"), S("a"), 20);
    h.pipe("t2", S("k"), S("x"), 5);
    h.pipe("t1", S("k"), S("b"), 3);
    h.pipe("t2", S("k"), S("y"), 2);
    h.pipe("in", S("k"), S("v"), 8);
    h.pipe("in", S("k"), S("w"), 4);
    h.pipe("in", S("k"), S("u"), 6);
    h.pipe("in", S("j"), S("z"), 15);
    h.pipe("in", S("j"), S("z"), 12);
    h.finish();
}


TEST_CASE("plain_window_stores_sliding") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto w = sliding_windows::of_time_difference_and_grace(10ms, 20ms);
    show_to(g.windowed_by(w).reduce(
                concat, materialized<>::as(stores::persistent_window_store("sl-plain", 100ms, 10ms, false)).with_caching_disabled()),
            "out-sliding-plain");
    show_to(g.windowed_by(w).reduce(concat, materialized<>::as(stores::persistent_window_store("sl-cached", 100ms, 10ms, false))),
            "out-sliding-cached");
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 20ms).advance_by(5ms))
                .reduce(concat,
                        materialized<>::as(stores::persistent_window_store("hop-plain", 100ms, 10ms, false)).with_caching_disabled()),
            "out-hopping-plain");
    harness h("plain_window_stores_sliding", b.build());
    h.input("in", s, s).output("out-sliding-plain", s, s).output("out-sliding-cached", s, s).output("out-hopping-plain", s, s);
    for (i64 t : {10, 20, 0, 15, 5, 25, 12, 40, 33, 31}) h.pipe("in", S("a"), S("v" + std::to_string(t)), t);
    h.finish();
}

}  // TEST_SUITE
