// Conformance: scenarios of the nineteenth hunt, written as java/.../Hunt19Scenarios.java writes
// them, compared with Java Kafka Streams' outputs: sessions merged out of order under suppression
// and emission on close; suppression bounded by records and bytes (early emission, shutdown);
// cogroups of three streams over hopping and session windows; table joins over versioned stores;
// foreign keys moving back and forth under a cached result; stream joins against versioned tables
// with grace; global joins whose key mapper returns null; merge, repartition and to_table chains;
// split branches joined; unmaterialized table views feeding aggregations; flat_map with headers
// into windows; Processor API stores flushed by punctuations; null keys and values at tables and
// windows; generated names.
#include <doctest/doctest.h>

#include <cctype>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/state/stores.hpp>

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

auto empty_init = [] { return str(); };
auto slash = [](const str&, const str& v, const str& agg) { return agg + "/" + v; };
auto plus_v = [](const str&, const str& v, const str& agg) { return agg + "+" + v; };
auto minus_v = [](const str&, const str& v, const str& agg) { return agg + "-" + v; };
auto bar_merge = [](const str&, const str& a, const str& c) { return a + "|" + c; };
auto comma = [](const str& a, const str& c) { return a + "," + c; };

materialized<> versioned(const str& name, std::chrono::milliseconds retention) {
    return materialized<>::as(stores::persistent_versioned_key_value_store(name, retention));
}

/// Hunt19Scenarios.sessionsOutOfOrder: merges of two and three, the grace boundary, another key.
void sessions_out_of_order(harness& h) {
    for (const auto& [k, t] : std::vector<std::pair<str, i64>>{{"a", 10}, {"a", 20}, {"b", 12}, {"a", 15}, {"a", 28}, {"b", 30}, {"a", 3},
                                                               {"a", 24}, {"a", 40}, {"b", 19}, {"b", 60}, {"a", 35}, {"a", 90}})
        h.pipe("in", S(k), S(std::to_string(t)), t);
}

/// Hunt19Scenarios.Summer: sums value lengths per key in the store "sums"; a punctuation every
/// 5 ms forwards each stored key's sum (at the punctuation's time), then deletes it.
struct summer final : processor<ostr, ostr, str, i64> {
    punctuation_type kind;
    key_value_store<str, i64>* sums = nullptr;
    explicit summer(punctuation_type k) : kind(k) {}
    void init(context_type& ctx) override {
        processor::init(ctx);
        sums = &ctx.get_state_store<key_value_store<str, i64>>("sums");
        ctx.schedule(5ms, kind, [this](i64 t) {
            std::vector<str> keys;
            for (auto it = sums->all(); it.has_next();) {
                const auto kv = it.next();
                keys.push_back(kv.key);
                context().forward(record<str, i64>{kv.key, kv.value, t});
            }
            for (const auto& k : keys) sums->remove(k);
        });
    }
    void process(const record<ostr, ostr>& r) override {
        if (!r.key || !r.value) return;
        sums->put(*r.key, sums->get(*r.key).value_or(0) + static_cast<i64>(r.value->size()));
    }
};

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("session_cached_merges_out_of_order") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto w = session_windows::of_inactivity_gap_and_grace(5ms, 3ms);
    show_to(g.windowed_by(w).count(materialized<>::as("sess-count")), "out-count");
    show_to(g.windowed_by(w).reduce(comma), "out-reduce");
    harness h("session_cached_merges_out_of_order", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-reduce", s, s);
    sessions_out_of_order(h);
    h.finish();
}

TEST_CASE("suppress_max_bytes_table_regroup") {
    streams_builder b;
    b.table<str, str>("in")
        .group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k); })
        .reduce([](const str& a, const str& c) { return a + c; },
                [](const str& a, const str& c) {
                    str r = a;
                    for (auto i = r.find(c); i != str::npos && !c.empty(); i = r.find(c)) r.erase(i, c.size());
                    return r;
                })
        .suppress(suppressed::until_time_limit(20ms, buffer_config::max_bytes(170).emit_early_when_full()))
        .to_stream()
        .to("out");
    harness h("suppress_max_bytes_table_regroup", b.build());
    h.input("in", s, s).output("out", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("b1"), 2, {"h=x"});
    h.pipe("in", S("k3"), S("c1"), 3);
    h.pipe("in", S("k1"), S("b2"), 4, {"h=yy"});
    h.pipe("in", S("k4"), S("a2"), 5);
    h.pipe("in", S("k2"), null, 6);
    h.pipe("in", S("k5"), S("d1"), 30);
    h.pipe("in", S("k6"), S("d2"), 31, {"hh=zzz"});
    h.finish();
}

TEST_CASE("suppress_hopping_max_records_early") {
    streams_builder b;
    show_to(b.stream<str, str>("in")
                .group_by_key()
                .windowed_by(time_windows::of_size_and_grace(10ms, 5ms).advance_by(5ms))
                .count()
                .suppress(suppressed::until_time_limit(6ms, buffer_config::max_records(2).emit_early_when_full())),
            "out");
    harness h("suppress_hopping_max_records_early", b.build());
    h.input("in", s, s).output("out", s, l);
    for (const auto& [k, v, t] : std::vector<std::tuple<str, str, i64>>{
             {"a", "1", 1}, {"a", "2", 7}, {"b", "3", 8}, {"a", "4", 3}, {"b", "5", 16}, {"a", "6", 25}, {"a", "7", 12}, {"c", "8", 40}})
        h.pipe("in", S(k), S(v), t);
    h.finish();
}

TEST_CASE("suppress_shutdown_when_full_time_limit") {
    streams_builder b;
    b.stream<str, str>("in")
        .group_by_key()
        .count()
        .suppress(suppressed::until_time_limit(10ms, buffer_config::max_records(1).shut_down_when_full()))
        .to_stream()
        .to("out");
    harness h("suppress_shutdown_when_full_time_limit", b.build());
    h.input("in", s, s).output("out", s, l);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 2);
    h.pipe("in", S("a"), S("3"), 12);
    try {
        h.pipe("in", S("b"), S("4"), 13);
    } catch (const std::exception&) {
        h.line("! failed");
    }
    h.finish();
}

TEST_CASE("cogroup_hopping_three_streams") {
    streams_builder b;
    auto g1 = b.stream<str, str>("in1").group_by_key();
    auto g2 = b.stream<str, str>("in2").group_by_key();
    auto g3 = b.stream<str, str>("in3").group_by([](const str& v) { return v.substr(0, 1); });
    show_to(g1.cogroup([](const str&, const str& v, const str& agg) { return agg + "1" + v; })
                .cogroup(g2, [](const str&, const str& v, const str& agg) { return agg + "2" + v; })
                .cogroup(g3, [](const str&, const str& v, const str& agg) { return agg + "3" + v; })
                .windowed_by(time_windows::of_size_and_grace(10ms, 2ms).advance_by(5ms))
                .aggregate(empty_init, named::as("cg"), materialized<>::as("cg-hop")),
            "out");
    harness h("cogroup_hopping_three_streams", b.build());
    h.input("in1", s, s).input("in2", s, s).input("in3", s, s).output("out", s, s);
    h.pipe("in1", S("a"), S("p"), 1);
    h.pipe("in2", S("a"), S("q"), 6);
    h.pipe("in3", S("x"), S("ar"), 4);
    h.pipe("in1", S("b"), S("s"), 9);
    h.pipe("in3", S("y"), S("bt"), 12);
    h.pipe("in2", S("a"), S("u"), 3);
    h.pipe("in1", S("a"), S("v"), 20);
    h.pipe("in2", S("a"), S("w"), 11);
    h.pipe("in3", null, S("ax"), 21);
    h.pipe("in1", null, S("n"), 22);
    h.dropped();
    h.finish();
}

TEST_CASE("cogroup_sessions_out_of_order_uncached") {
    streams_builder b;
    auto g1 = b.stream<str, str>("in1").group_by_key();
    auto g2 = b.stream<str, str>("in2").group_by_key();
    show_to(g1.cogroup([](const str&, const str& v, const str& agg) { return agg + "1" + v; })
                .cogroup(g2, [](const str&, const str& v, const str& agg) { return agg + "2" + v; })
                .windowed_by(session_windows::of_inactivity_gap_and_grace(4ms, 1ms))
                .aggregate(empty_init, bar_merge, materialized<>::as("cg-sess").with_caching_disabled()),
            "out");
    harness h("cogroup_sessions_out_of_order_uncached", b.build());
    h.input("in1", s, s).input("in2", s, s).output("out", s, s);
    h.pipe("in1", S("a"), S("p"), 10);
    h.pipe("in2", S("a"), S("q"), 18);
    h.pipe("in2", S("a"), S("r"), 14);
    h.pipe("in1", S("a"), S("s"), 5);
    h.pipe("in1", S("a"), S("t"), 30);
    h.pipe("in2", S("a"), S("u"), 22);
    h.pipe("in2", S("a"), S("late"), 20);
    h.dropped();
    h.finish();
}

TEST_CASE("cogroup_rekeyed_time_limit") {
    streams_builder b;
    auto g1 = b.stream<str, str>("in1").group_by_key();
    auto g2 = b.stream<str, str>("in2").group_by([](const str& v) { return v.substr(0, 1); });
    g1.cogroup([](const str&, const str& v, const str& agg) { return agg + "1" + v; })
        .cogroup(g2, [](const str&, const str& v, const str& agg) { return agg + "2" + v; })
        .aggregate(empty_init)
        .suppress(suppressed::until_time_limit(5ms, buffer_config::unbounded()))
        .to_stream()
        .to("out");
    harness h("cogroup_rekeyed_time_limit", b.build());
    h.input("in1", s, s).input("in2", s, s).output("out", s, s);
    h.pipe("in1", S("a"), S("p"), 1);
    h.pipe("in2", S("k"), S("aq"), 2);
    h.pipe("in1", S("b"), S("r"), 3);
    h.pipe("in2", S("k"), S("bs"), 7);
    h.pipe("in1", S("a"), S("t"), 9);
    h.pipe("in2", S("k"), S("az"), 20);
    h.finish();
}

TEST_CASE("table_joins_versioned_out_of_order") {
    streams_builder b;
    auto left = b.table<str, str>("left", versioned("lv", 30ms));
    auto right = b.table<str, str>("right", versioned("rv", 30ms));
    left.left_join(right, [](const str& a, const ostr& c) { return a + "|" + show(c); }).to_stream().to("out-left");
    left.outer_join(right, [](const ostr& a, const ostr& c) { return show(a) + "|" + show(c); }, materialized<>::as("outer-res"))
        .to_stream()
        .to("out-outer");
    left.join(right, [](const str& a, const str& c) { return a + "|" + c; })
        .group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 2), k); })
        .count()
        .to_stream()
        .to("out-count");
    harness h("table_joins_versioned_out_of_order", b.build());
    h.input("left", s, s).input("right", s, s).output("out-left", s, s).output("out-outer", s, s).output("out-count", s, l);
    h.pipe("left", S("a"), S("L1"), 10);
    h.pipe("right", S("a"), S("R1"), 12);
    h.pipe("left", S("a"), S("L0"), 5);
    h.pipe("right", S("a"), S("R0"), 11);
    h.pipe("left", S("b"), S("L2"), 20);
    h.pipe("right", S("a"), null, 25);
    h.pipe("right", S("a"), S("R2"), 22);
    h.pipe("left", S("a"), S("L3"), 30);
    h.pipe("right", S("b"), S("R3"), 18);
    h.pipe("left", S("b"), null, 40);
    h.pipe("left", S("b"), S("L4"), 35);
    h.pipe("right", S("c"), null, 41);
    h.finish();
}

TEST_CASE("fk_join_back_and_forth_cached") {
    streams_builder b;
    auto orders = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    orders.left_join(customers, fk, [](const str& o, const ostr& c) { return o + "/" + show(c); }, materialized<>::as("fk-left"))
        .to_stream()
        .to("out-left");
    orders.join(customers, fk, [](const str& o, const str& c) { return o + "/" + c; }, materialized<>::as("fk-inner").with_caching_disabled())
        .to_stream()
        .to("out-inner");
    harness h("fk_join_back_and_forth_cached", b.build());
    h.input("orders", s, s).input("customers", s, s).output("out-left", s, s).output("out-inner", s, s);
    h.pipe("customers", S("c1"), S("Ann"), 1);
    h.pipe("orders", S("o1"), S("c1:a"), 2);
    h.pipe("orders", S("o1"), S("c2:a"), 3);
    h.pipe("orders", S("o1"), S("c1:a"), 4);
    h.pipe("customers", S("c2"), S("Ben"), 5);
    h.pipe("orders", S("o1"), S("c2:b"), 6);
    h.pipe("orders", S("o1"), S("none"), 7);
    h.pipe("orders", S("o1"), S("c2:c"), 8);
    h.pipe("customers", S("c2"), null, 9);
    h.pipe("orders", S("o2"), null, 10);
    h.pipe("orders", S("o1"), null, 11);
    h.pipe("orders", S("o1"), S("c1:d"), 12);
    h.pipe("customers", S("c1"), S("Ann2"), 13);
    h.finish();
}

TEST_CASE("fk_join_same_key_value_changes") {
    streams_builder b;
    auto orders = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    orders.join(customers, fk, [](const str& o, const str& c) { return o + "/" + c; }).to_stream().to("out-inner");
    orders.left_join(customers, fk, [](const str& o, const ostr& c) { return o + "/" + show(c); })
        .group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(v.find('/') + 1), k); })
        .count()
        .to_stream()
        .to("out-count");
    harness h("fk_join_same_key_value_changes", b.build());
    h.input("orders", s, s).input("customers", s, s).output("out-inner", s, s).output("out-count", s, l);
    h.pipe("orders", S("o1"), S("c1:a"), 1);
    h.pipe("orders", S("o1"), S("c1:b"), 2);
    h.pipe("customers", S("c1"), S("Ann"), 3);
    h.pipe("orders", S("o2"), S("c1:x"), 4);
    h.pipe("orders", S("o1"), S("c1:b"), 5);
    h.pipe("customers", S("c1"), null, 6);
    h.pipe("orders", S("o2"), S("c1:y"), 7);
    h.pipe("customers", S("c1"), S("Ann2"), 8);
    h.pipe("customers", S("c1"), S("Ann2"), 9);
    h.pipe("orders", S("o2"), null, 10);
    h.finish();
}

TEST_CASE("stream_versioned_table_grace_out_of_order") {
    streams_builder b;
    auto t = b.table<str, str>("t", versioned("tv", 100ms));
    auto st = b.stream<str, str>("s");
    st.join(t, [](const str& v, const str& u) { return v + "@" + u; }, joined<>::as("j").with_grace_period(6ms)).to("out-inner");
    st.left_join(t, [](const str& v, const ostr& u) { return v + "@" + show(u); }, joined<>::as("lj").with_grace_period(6ms)).to("out-left");
    harness h("stream_versioned_table_grace_out_of_order", b.build());
    h.input("t", s, s).input("s", s, s).output("out-inner", s, s).output("out-left", s, s);
    h.pipe("t", S("a"), S("A10"), 10);
    h.pipe("s", S("a"), S("s12"), 12);
    h.pipe("t", S("a"), S("A5"), 5);
    h.pipe("s", S("a"), S("s7"), 7);
    h.pipe("s", S("a"), S("s3"), 3);
    h.pipe("t", S("a"), S("A20"), 20);
    h.pipe("s", S("a"), S("s21"), 21);
    h.pipe("s", S("a"), S("s14"), 14);
    h.pipe("s", S("a"), null, 23);
    h.pipe("s", S("b"), S("sb"), 24);
    h.pipe("s", S("a"), S("s1"), 1);
    h.pipe("t", S("a"), null, 30);
    h.pipe("s", S("a"), S("s31"), 31);
    h.pipe("s", S("a"), S("s40"), 40);
    h.dropped();
    h.finish();
}

TEST_CASE("global_join_mapper_null") {
    streams_builder b;
    auto g = b.global_table<str, str>("glob");
    auto st = b.stream<ostr, ostr>("in");
    const auto first_letter = [](const ostr&, const ostr& v) -> ostr {
        if (!v || v->starts_with("-")) return std::nullopt;
        return v->substr(0, 1);
    };
    st.join(g, first_letter, [](const ostr& k, const ostr& v, const str& gv) { return show(k) + ":" + show(v) + "=" + gv; }).to("out-inner");
    st.left_join(g, first_letter, [](const ostr& v, const ostr& gv) { return show(v) + "=" + show(gv); })
        .group_by_key()
        .count()
        .to_stream()
        .to("out-left-count");
    st.left_join(g, [](const ostr& k, const ostr&) { return k; }, [](const ostr& v, const ostr& gv) { return show(v) + "=" + show(gv); })
        .to("out-by-key");
    harness h("global_join_mapper_null", b.build());
    h.input("glob", s, s).input("in", s, s).output("out-inner", s, s).output("out-left-count", s, l).output("out-by-key", s, s);
    h.pipe("glob", S("x"), S("X"), 1);
    h.pipe("glob", S("k"), S("K"), 1);
    h.pipe("in", S("k"), S("xa"), 2);
    h.pipe("in", S("k"), S("-a"), 3);
    h.pipe("in", null, S("xb"), 4);
    h.pipe("in", S("k"), null, 5);
    h.pipe("in", S("j"), S("ya"), 6);
    h.pipe("glob", S("x"), null, 7);
    h.pipe("in", S("k"), S("xc"), 8);
    h.dropped();
    h.finish();
}

TEST_CASE("merge_repartition_to_table_join") {
    streams_builder b;
    auto m = b.stream<str, str>("in1").merge(b.stream<str, str>("in2").select_key([](const str& v) { return v.substr(0, 1); }));
    auto t = m.repartition(repartitioned<>::as("merged")).to_table(materialized<>::as("merged-table"));
    t.join(b.table<str, str>("names"), [](const str& a, const str& c) { return a + "&" + c; }).to_stream().to("out-join");
    t.to_stream().to("out-table");
    harness h("merge_repartition_to_table_join", b.build());
    h.input("in1", s, s).input("in2", s, s).input("names", s, s).output("out-join", s, s).output("out-table", s, s);
    h.pipe("names", S("a"), S("N"), 1);
    h.pipe("in1", S("a"), S("v1"), 2);
    h.pipe("in2", S("z"), S("a2"), 3);
    h.pipe("in1", null, S("v3"), 4);
    h.pipe("in1", S("a"), null, 5);
    h.pipe("in2", S("y"), S("b6"), 6);
    h.pipe("names", S("b"), S("M"), 7);
    h.pipe("in1", S("b"), S("v8"), 8);
    h.finish();
}

TEST_CASE("to_table_null_values_left_joined") {
    streams_builder b;
    auto t = b.stream<str, str>("updates").map_values([](const ostr& v) { return !v || *v == "del" ? ostr() : v; }).to_table();
    b.stream<str, str>("in").left_join(t, [](const str& v, const ostr& u) { return v + "=" + show(u); }).to("out-left");
    t.to_stream().to("out-table");
    t.group_by([](const str& k, const ostr& v) { return std::pair<str, str>(*v, k); }).count().to_stream().to("out-count");
    harness h("to_table_null_values_left_joined", b.build());
    h.input("updates", s, s).input("in", s, s).output("out-left", s, s).output("out-table", s, s).output("out-count", s, l);
    h.pipe("updates", S("a"), S("x"), 1);
    h.pipe("in", S("a"), S("1"), 2);
    h.pipe("updates", S("a"), S("del"), 3);
    h.pipe("in", S("a"), S("2"), 4);
    h.pipe("updates", S("b"), null, 5);
    h.pipe("updates", S("b"), S("x"), 6);
    h.pipe("updates", S("a"), S("x"), 7);
    h.pipe("updates", null, S("y"), 8);
    h.pipe("in", S("b"), S("3"), 9);
    h.finish();
}

TEST_CASE("repartitioned_merge_windowed") {
    streams_builder b;
    auto r1 = b.stream<str, str>("in1").select_key([](const str& v) { return v.substr(0, 1); }).repartition();
    auto r2 = b.stream<str, str>("in2").select_key([](const str& v) { return v.substr(0, 1); }).repartition(repartitioned<>::as("r2"));
    show_to(r1.merge(r2).group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).count(), "out");
    harness h("repartitioned_merge_windowed", b.build());
    h.input("in1", s, s).input("in2", s, s).output("out", s, l);
    h.pipe("in1", S("k"), S("a1"), 1);
    h.pipe("in2", S("k"), S("a2"), 5);
    h.pipe("in1", S("k"), S("b3"), 11);
    h.pipe("in2", S("k"), S("a4"), 9);
    h.pipe("in2", null, S("a5"), 12);
    h.pipe("in1", S("k"), S("a6"), 22);
    h.dropped();
    h.finish();
}

TEST_CASE("split_branches_joined") {
    streams_builder b;
    using stream = kstream<str, str>;
    auto br = b.stream<str, str>("in")
                  .split(named::as("s-"))
                  .branch([](const str& v) { return v.starts_with("l"); }, branched::as("left"))
                  .branch([](const str& v) { return v.starts_with("r"); }, branched::as("right"))
                  .default_branch(branched::with_function(
                      [](stream ks) { return ks.filter([](const str& v) { return v.size() > 1; }); }, "rest"));
    br.at("s-left")
        .outer_join(br.at("s-right"), [](const ostr& a, const ostr& c) { return show(a) + "+" + show(c); },
                    join_windows::of_time_difference_and_grace(3ms, 1ms))
        .to("out-join");
    br.at("s-rest").group_by_key().count().to_stream().to("out-rest");
    harness h("split_branches_joined", b.build());
    h.input("in", s, s).output("out-join", s, s).output("out-rest", s, l);
    h.pipe("in", S("a"), S("l1"), 1);
    h.pipe("in", S("a"), S("r2"), 2);
    h.pipe("in", S("a"), S("xx"), 3);
    h.pipe("in", S("b"), S("l4"), 4);
    h.pipe("in", S("a"), S("x"), 5);
    h.pipe("in", S("a"), S("r9"), 9);
    h.pipe("in", S("b"), S("yy"), 12);
    h.pipe("in", null, S("zz"), 13);
    h.finish();
}

TEST_CASE("table_views_unmaterialized_aggregate") {
    streams_builder b;
    auto view = b.table<str, str>("in").filter([](const str& v) { return !v.starts_with("x"); }).map_values([](const str& v) {
        str u = v;
        for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return u;
    });
    view.group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k); })
        .aggregate(empty_init, plus_v, minus_v, materialized<>::as("view-agg").with_caching_disabled())
        .to_stream()
        .to("out-agg");
    view.to_stream().to("out-view");
    harness h("table_views_unmaterialized_aggregate", b.build());
    h.input("in", s, s).output("out-agg", s, s).output("out-view", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("b1"), 2);
    h.pipe("in", S("k1"), S("xa"), 3);
    h.pipe("in", S("k3"), S("xb"), 4);
    h.pipe("in", S("k1"), S("b2"), 5);
    h.pipe("in", S("k2"), null, 6);
    h.pipe("in", S("k2"), S("a3"), 7);
    h.pipe("in", S("k4"), null, 8);
    h.finish();
}

TEST_CASE("table_map_values_filter_materialized_count") {
    streams_builder b;
    auto t = b.table<str, str>("in")
                 .map_values([](const str& v) { return v.size() > 2 ? ostr() : ostr(v + v); }, materialized<>::as("mv"))
                 .filter([](const ostr& v) { return !v->starts_with("b"); }, materialized<>::as("flt"));
    t.group_by([](const str& k, const ostr& v) { return std::pair<str, str>(*v, k); }).count().to_stream().to("out-count");
    t.to_stream().to("out-table");
    harness h("table_map_values_filter_materialized_count", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-table", s, s);
    h.pipe("in", S("k1"), S("a"), 1);
    h.pipe("in", S("k2"), S("a"), 2);
    h.pipe("in", S("k1"), S("long"), 3);
    h.pipe("in", S("k2"), S("b"), 4);
    h.pipe("in", S("k3"), S("c"), 5);
    h.pipe("in", S("k3"), S("c"), 6);
    h.pipe("in", S("k2"), S("a"), 7);
    h.pipe("in", S("k3"), null, 8);
    h.finish();
}

TEST_CASE("flat_map_headers_windowed") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    auto words = st.flat_map_values([](const str& v) { return split(v, ' '); });
    words.to("out-words");
    show_to(words.group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).count(), "out-count");
    st.flat_map([](const str& k, const str& v) {
          std::vector<std::pair<str, str>> r;
          for (const auto& w : split(v, ' ')) r.emplace_back(w, k);
          return r;
      })
        .group_by_key()
        .reduce([](const str& a, const str& c) { return a + c; })
        .to_stream()
        .to("out-by-word");
    harness h("flat_map_headers_windowed", b.build());
    h.input("in", s, s).output("out-words", s, s).output("out-count", s, l).output("out-by-word", s, s);
    h.pipe("in", S("a"), S("x y"), 1, {"h=1"});
    h.pipe("in", S("b"), S("y"), 4, {"h=2", "g=3"});
    h.pipe("in", S("a"), S(""), 6);
    h.pipe("in", S("a"), S("x x"), 12, {"h=4"});
    h.finish();
}

TEST_CASE("papi_stream_time_flush_reduced") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, i64>(stores::in_memory_key_value_store("sums")));
    auto sums = b.stream<ostr, ostr>("in").process([] { return std::make_unique<summer>(punctuation_type::stream_time); }, {"sums"});
    sums.to("out-flush");
    sums.group_by_key().reduce(std::plus<i64>()).to_stream().to("out-total");
    harness h("papi_stream_time_flush_reduced", b.build());
    h.input("in", s, s).output("out-flush", s, l).output("out-total", s, l);
    h.pipe("in", S("a"), S("xx"), 1);
    h.pipe("in", S("b"), S("y"), 3);
    h.pipe("in", S("a"), S("zzz"), 4);
    h.pipe("in", S("a"), S("w"), 6);
    h.pipe("in", null, S("n"), 7);
    h.pipe("in", S("b"), S("vv"), 12);
    h.pipe("in", S("c"), S("u"), 2);
    h.pipe("in", S("c"), S("t"), 15);
    h.finish();
}

TEST_CASE("papi_wall_clock_flush_windowed") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, i64>(stores::persistent_key_value_store("sums")));
    auto sums = b.stream<ostr, ostr>("in").process([] { return std::make_unique<summer>(punctuation_type::wall_clock_time); }, {"sums"});
    sums.to("out-flush");
    show_to(sums.group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).count(), "out-windowed");
    harness h("papi_wall_clock_flush_windowed", b.build());
    h.input("in", s, s).output("out-flush", s, l).output("out-windowed", s, l);
    h.pipe("in", S("a"), S("xx"), 1);
    h.pipe("in", S("b"), S("y"), 3);
    h.advance_wall_clock(5);
    h.pipe("in", S("a"), S("zzz"), 4);
    h.advance_wall_clock(3);
    h.advance_wall_clock(4);
    h.pipe("in", S("a"), S("w"), 30);
    h.advance_wall_clock(12);
    h.finish();
}

TEST_CASE("extractor_through_repartition_join") {
    streams_builder b;
    const auto c = consumed<>{}.with_timestamp_extractor(from_value);
    auto st = b.stream<str, str>("in", c);
    auto t = b.table<str, str>("tab", c);
    auto rekeyed = st.select_key([](const str& v) { return v.substr(v.find(':') + 1, 1); });
    rekeyed.join(t, [](const str& a, const str& d) { return a + "=" + d; }).to("out-join");
    show_to(rekeyed.group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).count(), "out-count");
    harness h("extractor_through_repartition_join", b.build());
    h.input("in", s, s).input("tab", s, s).output("out-join", s, s).output("out-count", s, l);
    h.pipe("tab", S("a"), S("5:A"), 100);
    h.pipe("in", S("k"), S("8:ax"), 1);
    h.pipe("in", S("k"), S("3:ay"), 2);
    h.pipe("tab", S("a"), S("p:A2"), 3);
    h.pipe("in", S("k"), S("p:az"), 50);
    h.pipe("in", S("k"), S("25:bq"), 4);
    h.pipe("in", S("k"), S("9:aw"), 5);
    h.dropped();
    h.finish();
}

TEST_CASE("table_tombstones_unknown_keys") {
    streams_builder b;
    auto t = b.table<str, str>("in");
    auto m = b.table<str, str>("in2", materialized<>::as("in2-store"));
    t.map_values([](const str& v) { return v + "!"; }).to_stream().to("out-mapped");
    t.join(m, [](const str& a, const str& c) { return a + "&" + c; }).to_stream().to("out-join");
    m.filter([](const str&) { return true; }).to_stream().to("out-filtered");
    t.group_by([](const str& k, const str& v) { return std::pair<str, str>(v, k); }).count().to_stream().to("out-count");
    harness h("table_tombstones_unknown_keys", b.build());
    h.input("in", s, s).input("in2", s, s).output("out-mapped", s, s).output("out-join", s, s).output("out-filtered", s, s);
    h.output("out-count", s, l);
    h.pipe("in", S("a"), null, 1);
    h.pipe("in2", S("a"), null, 2);
    h.pipe("in", S("a"), S("x"), 3);
    h.pipe("in2", S("a"), S("y"), 4);
    h.pipe("in2", S("b"), null, 5);
    h.pipe("in", S("a"), null, 6);
    h.pipe("in", S("a"), null, 7);
    h.pipe("in2", S("a"), null, 8);
    h.pipe("in2", S("a"), null, 9);
    h.finish();
}

TEST_CASE("null_keys_values_session_sliding") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(5ms)).count(), "out-session");
    show_to(g.windowed_by(sliding_windows::of_time_difference_with_no_grace(5ms)).count(), "out-sliding");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(5ms))
                .reduce([](const str& a, const ostr& c) { return a + show(c); }, materialized<>::as("sr").with_caching_disabled()),
            "out-session-reduce");
    harness h("null_keys_values_session_sliding", b.build());
    h.input("in", s, s).output("out-session", s, l).output("out-sliding", s, l).output("out-session-reduce", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", null, S("2"), 2);
    h.pipe("in", S("a"), null, 3);
    h.pipe("in", S("a"), S("4"), 4);
    h.dropped();
    h.pipe("in", null, null, 5);
    h.pipe("in", S("a"), S("20"), 20);
    h.dropped();
    h.finish();
}

TEST_CASE("headers_table_joins_aggregates") {
    streams_builder b;
    auto lt = b.table<str, str>("left", materialized<>::as("lh").with_caching_disabled());
    auto rt = b.table<str, str>("right", materialized<>::as("rh").with_caching_disabled());
    auto j = lt.outer_join(rt, [](const ostr& a, const ostr& c) { return show(a) + "|" + show(c); });
    j.to_stream().to("out-join");
    j.group_by([](const str& k, const str&) { return std::pair<str, str>("all", k); })
        .aggregate(empty_init, plus_v, minus_v, materialized<>::as("hagg").with_caching_disabled())
        .to_stream()
        .to("out-agg");
    lt.to_stream()
        .outer_join(rt.to_stream(), [](const ostr& a, const ostr& c) { return show(a) + "^" + show(c); },
                    join_windows::of_time_difference_and_grace(2ms, 0ms))
        .to("out-ss");
    harness h("headers_table_joins_aggregates", b.build());
    h.input("left", s, s).input("right", s, s).output("out-join", s, s).output("out-agg", s, s).output("out-ss", s, s);
    h.pipe("left", S("a"), S("L1"), 1, {"h=l1"});
    h.pipe("right", S("a"), S("R1"), 2, {"h=r1", "x=1"});
    h.pipe("right", S("b"), S("R2"), 3);
    h.pipe("left", S("a"), null, 4, {"h=del"});
    h.pipe("left", S("c"), S("L3"), 10, {"h=l3"});
    h.pipe("right", S("b"), null, 11, {"h=rdel"});
    h.finish();
}

TEST_CASE("describe_unnamed_cogroup_fk_process") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, i64>(stores::in_memory_key_value_store("sums")));
    auto g1 = b.stream<str, str>("in1").group_by_key();
    auto g2 = b.stream<str, str>("in2").group_by([](const str& v) { return v; });
    show_to(g1.cogroup([](const str&, const str& v, const str& agg) { return agg + v; })
                .cogroup(g2, [](const str&, const str& v, const str& agg) { return agg + "'" + v; })
                .windowed_by(time_windows::of_size_with_no_grace(10ms))
                .aggregate(empty_init),
            "out-cg");
    auto orders = b.table<str, str>("orders");
    orders.join(b.table<str, str>("customers"), fk, [](const str& o, const str& c) { return o + "/" + c; })
        .suppress(suppressed::until_time_limit(1ms, buffer_config::max_records(5)))
        .to_stream()
        .to("out-fk");
    b.stream<ostr, ostr>("in3").process([] { return std::make_unique<summer>(punctuation_type::stream_time); }, {"sums"}).to("out-sums");
    harness h("describe_unnamed_cogroup_fk_process", b.build());
    h.input("in1", s, s).input("in2", s, s).input("orders", s, s).input("customers", s, s).input("in3", s, s);
    h.output("out-cg", s, s).output("out-fk", s, s).output("out-sums", s, l);
    h.pipe("in1", S("a"), S("p"), 1);
    h.pipe("in2", S("k"), S("a"), 2);
    h.pipe("customers", S("c1"), S("Ann"), 3);
    h.pipe("orders", S("o1"), S("c1:x"), 4);
    h.pipe("in3", S("a"), S("xyz"), 5);
    h.pipe("in1", S("a"), S("q"), 12);
    h.pipe("in3", S("a"), S("w"), 13);
    h.pipe("orders", S("o2"), S("c1:y"), 14);
    h.finish();
}

TEST_CASE("outer_join_windowed_final") {
    streams_builder b;
    auto j = b.stream<str, str>("left").outer_join(b.stream<str, str>("right"),
                                                   [](const ostr& a, const ostr& c) { return show(a) + "+" + show(c); },
                                                   join_windows::of_time_difference_and_grace(2ms, 1ms));
    j.to("out-join");
    show_to(j.group_by_key()
                .windowed_by(time_windows::of_size_and_grace(5ms, 1ms))
                .reduce(comma)
                .suppress(suppressed::until_window_closes(buffer_config::unbounded())),
            "out-final");
    harness h("outer_join_windowed_final", b.build());
    h.input("left", s, s).input("right", s, s).output("out-join", s, s).output("out-final", s, s);
    h.pipe("left", S("a"), S("l1"), 1);
    h.pipe("right", S("a"), S("r2"), 2);
    h.pipe("left", S("b"), S("l3"), 3);
    h.pipe("right", S("c"), S("r4"), 4);
    h.pipe("left", S("a"), S("l8"), 8);
    h.pipe("right", S("b"), S("r12"), 12);
    h.pipe("left", S("a"), S("l20"), 20);
    h.pipe("right", S("z"), S("r30"), 30);
    h.finish();
}

TEST_CASE("windowed_count_to_table_joined") {
    streams_builder b;
    auto counts = b.stream<str, str>("in")
                      .group_by_key()
                      .windowed_by(time_windows::of_size_with_no_grace(10ms))
                      .count()
                      .to_stream()
                      .select_key([](const windowed<str>& w, i64) { return w.key; })
                      .to_table();
    counts.join(b.table<str, str>("names"), [](i64 c, const str& n) { return n + "#" + std::to_string(c); }).to_stream().to("out-join");
    counts.group_by([](const str&, i64 c) { return std::pair<str, i64>(c % 2 == 0 ? "even" : "odd", c); })
        .reduce(std::plus<i64>(), std::minus<i64>())
        .to_stream()
        .to("out-parity");
    harness h("windowed_count_to_table_joined", b.build());
    h.input("names", s, s).input("in", s, s).output("out-join", s, s).output("out-parity", s, l);
    h.pipe("names", S("a"), S("A"), 0);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 2);
    h.pipe("in", S("b"), S("3"), 3);
    h.pipe("in", S("a"), S("4"), 14);
    h.pipe("in", S("a"), S("5"), 5);
    h.pipe("names", S("b"), S("B"), 6);
    h.pipe("in", S("b"), S("6"), 16);
    h.finish();
}

TEST_CASE("sliding_emit_on_close_grace") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto w = sliding_windows::of_time_difference_and_grace(5ms, 3ms);
    show_to(g.windowed_by(w).emit_strategy(emit_strategy::on_window_close()).reduce(comma), "out-close");
    show_to(g.windowed_by(w).count().suppress(suppressed::until_window_closes(buffer_config::unbounded())), "out-final");
    harness h("sliding_emit_on_close_grace", b.build());
    h.input("in", s, s).output("out-close", s, s).output("out-final", s, l);
    for (const i64 t : {10, 12, 8, 20, 14, 11, 30, 50}) h.pipe("in", S("a"), S(std::to_string(t)), t);
    h.dropped();
    h.finish();
}

TEST_CASE("tumbling_emit_on_close_aggregate") {
    streams_builder b;
    show_to(b.stream<str, str>("in")
                .group_by_key()
                .windowed_by(time_windows::of_size_and_grace(10ms, 4ms))
                .emit_strategy(emit_strategy::on_window_close())
                .aggregate(empty_init, slash, materialized<>::as("tum-close").with_caching_disabled()),
            "out");
    harness h("tumbling_emit_on_close_aggregate", b.build());
    h.input("in", s, s).output("out", s, s);
    for (const auto& [k, v, t] : std::vector<std::tuple<str, str, i64>>{{"a", "1", 1}, {"b", "2", 5}, {"a", "3", 12}, {"a", "4", 9}, {"b", "5", 14},
                                                                        {"a", "6", 3}, {"c", "7", 35}, {"a", "8", 21}, {"a", "9", 60}})
        h.pipe("in", S(k), S(v), t);
    h.dropped();
    h.finish();
}

TEST_CASE("stream_table_left_rekeyed_counted") {
    streams_builder b;
    auto t = b.table<ostr, str>("t");
    b.stream<str, str>("in")
        .select_key([](const str& v) { return v.starts_with("-") ? ostr() : ostr(v.substr(0, 1)); })
        .left_join(t, [](const str&, const ostr& u) { return show(u); })
        .group_by([](const ostr&, const str& v) { return v; })
        .count()
        .to_stream()
        .to("out");
    harness h("stream_table_left_rekeyed_counted", b.build());
    h.input("t", s, s).input("in", s, s).output("out", s, l);
    h.pipe("t", S("a"), S("A"), 1);
    h.pipe("in", S("k"), S("a1"), 2);
    h.pipe("in", S("k"), S("-2"), 3);
    h.pipe("in", S("k"), S("b3"), 4);
    h.pipe("t", S("b"), S("A"), 5);
    h.pipe("in", S("k"), S("b4"), 6);
    h.dropped();
    h.finish();
}

TEST_CASE("table_join_chain_filter_cached") {
    streams_builder b;
    auto x = b.table<str, str>("x");
    auto y = b.table<str, str>("y");
    auto z = b.table<str, str>("z");
    x.join(y, [](const str& a, const str& c) { return a + c; }, materialized<>::as("xy"))
        .filter([](const str& v) { return v.find('0') == str::npos; })
        .left_join(z, [](const str& a, const ostr& c) { return a + "/" + show(c); }, materialized<>::as("xyz"))
        .to_stream()
        .to("out");
    harness h("table_join_chain_filter_cached", b.build());
    h.input("x", s, s).input("y", s, s).input("z", s, s).output("out", s, s);
    h.pipe("x", S("a"), S("1"), 1);
    h.pipe("z", S("a"), S("Z"), 2);
    h.pipe("y", S("a"), S("2"), 3);
    h.pipe("y", S("a"), S("0"), 4);
    h.pipe("z", S("a"), S("Z2"), 5);
    h.pipe("y", S("a"), S("3"), 6);
    h.pipe("x", S("a"), null, 7);
    h.finish();
}

TEST_CASE("session_final_bounded_buffer") {
    streams_builder b;
    show_to(b.stream<str, str>("in")
                .group_by_key()
                .windowed_by(session_windows::of_inactivity_gap_and_grace(3ms, 2ms))
                .count(materialized<>::as("sfb"))
                .suppress(suppressed::until_window_closes(buffer_config::max_records(3).shut_down_when_full()).with_name("sfb-sup")),
            "out");
    harness h("session_final_bounded_buffer", b.build());
    h.input("in", s, s).output("out", s, l);
    for (const auto& [k, v, t] : std::vector<std::tuple<str, str, i64>>{
             {"a", "1", 1}, {"a", "2", 3}, {"b", "3", 2}, {"a", "4", 10}, {"b", "5", 12}, {"c", "6", 13}, {"a", "7", 30}})
        h.pipe("in", S(k), S(v), t);
    h.finish();
}

}  // TEST_SUITE
