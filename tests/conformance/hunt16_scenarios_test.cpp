// Conformance: scenarios of the sixteenth hunt, written as java/.../Hunt16Scenarios.java writes
// them, compared with Java Kafka Streams' outputs: the test driver's store getters (plain views of
// timestamped stores, which getter accepts which store), windowed tables filtered, joined and
// regrouped, sliding and session windows suppressed or emitted on close with several keys,
// cogroups with sliding and session windows, table joins over a reduce that deletes, stream joins
// at exact window bounds with no grace, windowed counts after repartition(), FK joins against a
// join result, window stores with a short retention read through the driver.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>

#include "harness.hpp"
#include "store_entries.hpp"
#include "windowed_show.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using ostr = std::optional<std::string>;
using i64 = std::int64_t;
using olong = std::optional<std::int64_t>;
using type::l;
using type::s;

namespace {

auto concat = [](const str& x, const str& y) { return x + "+" + y; };

str show_long(const olong& v) { return v ? std::to_string(*v) : str("null"); }

/// value@timestamp, or null (valid_to left out: Java's metered versioned store never sets it on
/// reads, kstreams' does).
template <class V>
str version(const std::optional<versioned_record<V>>& r) {
    if (!r) return "null";
    return show_value(r->value) + "@" + std::to_string(r->timestamp);
}

/// Forwards its record untouched (a processor that holds stores).
struct pass : processor<str, str, str, str> {
    void process(const record<str, str>& r) override { context().forward(r); }
};

/// The list without the first `v` ("a,b,a" less "a" is "b,a"); null when nothing is left.
ostr remove_one(const str& agg, const str& v) {
    auto parts = split(agg, ',');
    for (auto it = parts.begin(); it != parts.end(); ++it) {
        if (*it == v) {
            parts.erase(it);
            break;
        }
    }
    if (parts.empty()) return std::nullopt;
    str out = parts.front();
    for (std::size_t i = 1; i < parts.size(); ++i) out += "," + parts[i];
    return out;
}

/// Users ("users": user -> region) grouped by region into "user,user" lists; the subtractor
/// deletes a region left empty (Hunt16Scenarios.usersPerRegion).
ktable<str, ostr> users_per_region(streams_builder& b) {
    return b.table<str, str>("users")
        .group_by([](const str& u, const str& r) { return std::pair<str, ostr>(r, u); },
                  grouped<>{}.with_key_serde(serde<str>{}).with_value_serde(serde<ostr>{}))
        .reduce([](const ostr& agg, const ostr& v) { return ostr(*agg + "," + *v); },
                [](const ostr& agg, const ostr& v) { return remove_one(*agg, *v); });
}

/// "ok" when the getter accepts the store, "none" where Java's returns null (kstreams throws
/// std::invalid_argument).
template <class F>
str try_get(F getter) {
    try {
        getter();
        return "ok";
    } catch (const std::invalid_argument&) {
        return "none";
    }
}

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("driver_store_reads") {
    streams_builder b;
    b.table<str, str>("tin", materialized<>::as("t"));
    b.table<str, str>("vin", materialized<>::as(stores::persistent_versioned_key_value_store("v", 100ms)));
    auto g = b.stream<str, str>("in").group_by_key();
    g.count(materialized<>::as("cnt"));
    g.count(materialized<>::as(stores::in_memory_key_value_store("cnt-mem")));
    g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count(materialized<>::as("wcnt"));
    g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count(materialized<>::as("wcnt-mem").with_in_memory_store());
    g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(5ms)).count(materialized<>::as("scnt"));
    harness h("driver_store_reads", b.build());
    h.input("tin", s, s).input("vin", s, s).input("in", s, s);
    h.pipe("tin", S("b"), S("B"), 3);
    h.pipe("tin", S("a"), S("A"), 4);
    h.pipe("tin", S("c"), S("C"), 5);
    h.pipe("tin", S("c"), null, 6);
    h.pipe("vin", S("a"), S("v10"), 10);
    h.pipe("vin", S("a"), S("v20"), 20);
    h.pipe("vin", S("a"), null, 30);
    h.pipe("in", S("b"), S("1"), 12);
    h.pipe("in", S("a"), S("2"), 1);
    h.pipe("in", S("a"), S("3"), 14);
    h.pipe("in", S("ab"), S("4"), 2);
    h.pipe("in", S("a"), S("5"), 3);
    h.pipe("in", S("b"), S("6"), 25);
    auto& d = h.driver();
    h.line("= t " + entries(d.get_key_value_store<str, str>("t").all()) + "| " +
           entries(d.get_timestamped_key_value_store<str, str>("t").all()));
    for (const str name : {"cnt", "cnt-mem"}) {
        h.line("= " + name + " " + entries(d.get_key_value_store<str, i64>(name).all()) + "| " +
               entries(d.get_key_value_store<str, i64>(name).range(str("a"), str("b"))) + "| " +
               entries(d.get_key_value_store<str, i64>(name).reverse_all()) + "| " +
               entries(d.get_timestamped_key_value_store<str, i64>(name).all()));
    }
    for (const str name : {"wcnt", "wcnt-mem"}) {
        auto& w = d.get_window_store<str, i64>(name);
        const auto at10 = w.fetch(str("a"), 10);
        h.line("= " + name + " " + entries(w.all()) + "| " + entries(w.fetch_all(0, 9)) + "| " + entries(w.fetch(str("a"), 0, 100)) +
               "| " + (at10 ? std::to_string(*at10) : str("null")) + "| " + entries(w.backward_all()) + "| " +
               entries(d.get_timestamped_window_store<str, i64>(name).all()));
    }
    auto& sc = d.get_session_store<str, i64>("scnt");
    h.line("= scnt " + entries(sc.fetch(str("a"))) + "| " + entries(sc.find_sessions(str("b"), 0, 100)) + "| " +
           entries(sc.fetch(ostr("a"), ostr("b"))));
    auto& v = d.get_versioned_key_value_store<str, str>("v");
    h.line("= v " + version(v.get("a")) + " " + version(v.get("a", 15)) + " " + version(v.get("a", 25)) + " " + version(v.get("a", 5)));
    h.finish();
}

TEST_CASE("driver_store_writes") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    g.count(materialized<>::as("cnt").with_caching_disabled().with_logging_disabled()).to_stream().to("out-count");
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count(materialized<>::as("wcnt").with_caching_disabled().with_logging_disabled()),
            "out-window");
    harness h("driver_store_writes", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-window", s, l);
    h.pipe("in", S("a"), S("1"), 5);
    auto& d = h.driver();
    d.get_key_value_store<str, i64>("cnt").put("a", 10);
    d.get_key_value_store<str, i64>("cnt").put("b", 20);
    d.get_window_store<str, i64>("wcnt").put("a", 5, 10);
    d.get_window_store<str, i64>("wcnt").put("b", 7, 0);
    h.line("= cnt " + entries(d.get_timestamped_key_value_store<str, i64>("cnt").all()));
    h.line("= wcnt " + entries(d.get_timestamped_window_store<str, i64>("wcnt").all()));
    h.pipe("in", S("a"), S("2"), 12);
    h.pipe("in", S("b"), S("3"), 6);
    h.pipe("in", S("a"), S("4"), 3);
    h.line("= cnt " + entries(d.get_timestamped_key_value_store<str, i64>("cnt").all()));
    h.line("= wcnt " + entries(d.get_timestamped_window_store<str, i64>("wcnt").all()));
    h.finish();
}

TEST_CASE("driver_store_getters") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, i64>(stores::in_memory_key_value_store("pkv")));
    b.add_state_store(stores::timestamped_key_value_store_builder<str, i64>(stores::persistent_timestamped_key_value_store("ptkv")));
    b.add_state_store(stores::window_store_builder<str, i64>(stores::in_memory_window_store("pw", 100ms, 10ms, false)));
    b.add_state_store(stores::timestamped_window_store_builder<str, i64>(stores::persistent_timestamped_window_store("ptw", 100ms, 10ms, false)));
    b.add_state_store(stores::session_store_builder<str, i64>(stores::in_memory_session_store("ps", 100ms)));
    b.add_state_store(stores::versioned_key_value_store_builder<str, i64>(stores::persistent_versioned_key_value_store("pv", 100ms)));
    b.stream<str, str>("in").process([] { return std::make_unique<pass>(); }, {"pkv", "ptkv", "pw", "ptw", "ps", "pv"});
    auto g = b.stream<str, str>("in2").group_by_key();
    g.count(materialized<>::as("cnt"));
    g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count(materialized<>::as("wcnt"));
    g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(5ms)).count(materialized<>::as("scnt"));
    b.table<str, i64>("vin", materialized<>::as(stores::persistent_versioned_key_value_store("v", 100ms)));
    harness h("driver_store_getters", b.build());
    h.input("in", s, s);
    auto& d = h.driver();
    for (const str name : {"pkv", "ptkv", "pw", "ptw", "ps", "pv", "cnt", "wcnt", "scnt", "v"}) {
        h.line("= " + name + " kv:" + try_get([&] { d.get_key_value_store<str, i64>(name); }) +
               " tkv:" + try_get([&] { d.get_timestamped_key_value_store<str, i64>(name); }) +
               " vkv:" + try_get([&] { d.get_versioned_key_value_store<str, i64>(name); }) +
               " w:" + try_get([&] { d.get_window_store<str, i64>(name); }) +
               " tw:" + try_get([&] { d.get_timestamped_window_store<str, i64>(name); }) +
               " s:" + try_get([&] { d.get_session_store<str, i64>(name); }));
    }
    h.finish();
}

TEST_CASE("sliding_suppressed_and_joined") {
    streams_builder b;
    auto c = b.stream<str, str>("in").group_by_key().windowed_by(sliding_windows::of_time_difference_and_grace(5ms, 2ms)).count();
    show_to(c.suppress(suppressed::until_window_closes(buffer_config::unbounded())), "out-final");
    auto r = b.stream<str, str>("other").group_by_key().windowed_by(sliding_windows::of_time_difference_and_grace(5ms, 2ms)).reduce(concat);
    show_to(c.join(r, [](i64 n, const str& x) { return std::to_string(n) + ":" + x; }), "out-join");
    harness h("sliding_suppressed_and_joined", b.build());
    h.input("in", s, s).input("other", s, s).output("out-final", s, l).output("out-join", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 4);
    h.pipe("other", S("a"), S("x"), 3);
    h.pipe("in", S("b"), S("3"), 3);
    h.pipe("other", S("a"), S("y"), 8);
    h.pipe("in", S("a"), S("4"), 9);
    h.pipe("other", S("b"), S("z"), 12);
    h.pipe("in", S("a"), S("5"), 6);
    h.pipe("in", S("b"), S("6"), 14);
    h.pipe("other", S("a"), S("w"), 20);
    h.pipe("in", S("a"), S("7"), 30);
    h.finish();
}

TEST_CASE("windowed_table_filter_materialized") {
    streams_builder b;
    auto c = b.stream<str, str>("in").group_by_key().windowed_by(time_windows::of_size_and_grace(10ms, 5ms)).count(materialized<>::as("wc"));
    auto even = c.filter([](i64 v) { return v % 2 == 0; },
                         materialized<>::as("wc-even").with_key_serde(time_windowed_serde<str>{serde<str>{}, 10}).with_value_serde(serde<i64>{}));
    show_to(even, "out-even");
    c.to_stream()
        .map([](const windowed<str>& w, i64 v) { return std::pair<str, i64>(w.key + "#" + std::to_string(w.window.start), v); })
        .group_by_key(grouped<>{}.with_key_serde(serde<str>{}).with_value_serde(serde<i64>{}))
        .reduce([](i64 x, i64 y) { return x + y; })
        .to_stream()
        .to("out-sum");
    harness h("windowed_table_filter_materialized", b.build());
    h.input("in", s, s).output("out-even", s, l).output("out-sum", s, l);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 5);
    h.pipe("in", S("b"), S("3"), 7);
    h.pipe("in", S("a"), S("4"), 12);
    h.pipe("in", S("a"), S("5"), 9);
    h.pipe("in", S("b"), S("6"), 16);
    h.pipe("in", S("a"), S("7"), 3);
    h.pipe("in", S("a"), S("8"), 14);
    h.line("= wc-even " + entries(h.driver().get_key_value_store<windowed<str>, i64>("wc-even").all()));
    h.finish();
}

TEST_CASE("windowed_tables_left_outer") {
    streams_builder b;
    auto ca = b.stream<str, str>("a").group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).count();
    auto cb = b.stream<str, str>("b").group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).count();
    show_to(ca.left_join(cb, [](i64 x, const olong& y) { return std::to_string(x) + "/" + show_long(y); }), "out-left");
    show_to(ca.outer_join(cb, [](const olong& x, const olong& y) { return show_long(x) + "/" + show_long(y); }), "out-outer");
    harness h("windowed_tables_left_outer", b.build());
    h.input("a", s, s).input("b", s, s).output("out-left", s, s).output("out-outer", s, s);
    h.pipe("a", S("k"), S("1"), 1);
    h.pipe("a", S("k"), S("2"), 2);
    h.pipe("a", S("j"), S("3"), 5);
    h.pipe("b", S("k"), S("4"), 3);
    h.pipe("b", S("j"), S("5"), 12);
    h.pipe("a", S("k"), S("6"), 11);
    h.pipe("b", S("k"), S("7"), 4);
    h.pipe("b", S("m"), S("8"), 13);
    h.pipe("a", S("j"), S("9"), 25);
    h.dropped();
    h.finish();
}

TEST_CASE("cogroup_sliding_suppressed") {
    streams_builder b;
    auto g1 = b.stream<str, str>("a").group_by_key();
    auto g2 = b.stream<str, str>("b").group_by_key();
    auto t = g1.cogroup([](const str&, const str& v, const str& agg) { return agg + "1" + v; })
                 .cogroup(g2, [](const str&, const str& v, const str& agg) { return agg + "2" + v; })
                 .windowed_by(sliding_windows::of_time_difference_and_grace(5ms, 2ms))
                 .aggregate([] { return str(); });
    show_to(t, "out-all");
    show_to(t.suppress(suppressed::until_window_closes(buffer_config::unbounded())), "out-final");
    harness h("cogroup_sliding_suppressed", b.build());
    h.input("a", s, s).input("b", s, s).output("out-all", s, s).output("out-final", s, s);
    h.pipe("a", S("k"), S("p"), 2);
    h.pipe("b", S("k"), S("q"), 5);
    h.pipe("a", S("k"), S("r"), 9);
    h.pipe("b", S("m"), S("s"), 4);
    h.pipe("a", S("k"), S("t"), 3);
    h.pipe("b", S("k"), S("u"), 16);
    h.pipe("a", S("m"), S("v"), 30);
    h.finish();
}

TEST_CASE("cogroup_session_suppressed") {
    streams_builder b;
    auto g1 = b.stream<str, str>("a").group_by_key();
    auto g2 = b.stream<str, str>("b").group_by_key();
    auto t = g1.cogroup([](const str&, const str& v, const str& agg) { return agg + "1" + v; })
                 .cogroup(g2, [](const str&, const str& v, const str& agg) { return agg + "2" + v; })
                 .windowed_by(session_windows::of_inactivity_gap_and_grace(5ms, 2ms))
                 .aggregate([] { return str(); }, [](const str&, const str& x, const str& y) { return x + "|" + y; });
    show_to(t, "out-all");
    show_to(t.suppress(suppressed::until_window_closes(buffer_config::unbounded())), "out-final");
    harness h("cogroup_session_suppressed", b.build());
    h.input("a", s, s).input("b", s, s).output("out-all", s, s).output("out-final", s, s);
    h.pipe("a", S("k"), S("p"), 1);
    h.pipe("b", S("k"), S("q"), 12);
    h.pipe("a", S("k"), S("r"), 6);
    h.pipe("b", S("m"), S("s"), 8);
    h.pipe("a", S("k"), S("t"), 19);
    h.pipe("b", S("k"), S("u"), 4);
    h.pipe("a", S("m"), S("v"), 10);
    h.pipe("b", S("m"), S("w"), 40);
    h.finish();
}

TEST_CASE("table_joins_after_deleting_reduce") {
    streams_builder b;
    auto per_region = users_per_region(b);
    auto regions = b.table<str, str>("regions");
    per_region.join(regions, [](const ostr& m, const str& i) { return *m + "@" + i; }).to_stream().to("out-inner");
    per_region.left_join(regions, [](const ostr& m, const ostr& i) { return *m + "@" + show(i); }).to_stream().to("out-left");
    per_region.outer_join(regions, [](const ostr& m, const ostr& i) { return show(m) + "@" + show(i); }).to_stream().to("out-outer");
    harness h("table_joins_after_deleting_reduce", b.build());
    h.input("users", s, s).input("regions", s, s).output("out-inner", s, s).output("out-left", s, s).output("out-outer", s, s);
    h.pipe("regions", S("eu"), S("EU"), 1);
    h.pipe("regions", S("us"), S("US"), 2);
    h.pipe("users", S("alice"), S("eu"), 3);
    h.pipe("users", S("bob"), S("eu"), 4);
    h.pipe("users", S("alice"), S("us"), 5);
    h.pipe("users", S("bob"), null, 6);
    h.pipe("users", S("carol"), S("ap"), 7);
    h.pipe("regions", S("eu"), null, 8);
    h.pipe("users", S("dave"), S("eu"), 9);
    h.pipe("regions", S("ap"), S("AP"), 10);
    h.pipe("users", S("carol"), null, 11);
    h.pipe("users", S("alice"), null, 12);
    h.finish();
}

TEST_CASE("stream_joins_no_grace_boundaries") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    lt.left_join(rt, [](const str& x, const ostr& y) { return x + "/" + show(y); },
                 join_windows::of_time_difference_with_no_grace(5ms).before(2ms))
        .to("out-left");
    lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + "|" + show(y); }, join_windows::of_time_difference_with_no_grace(3ms))
        .to("out-outer");
    harness h("stream_joins_no_grace_boundaries", b.build());
    h.input("left", s, s).input("right", s, s).output("out-left", s, s).output("out-outer", s, s);
    h.pipe("left", S("k"), S("l10"), 10);
    h.pipe("right", S("k"), S("r15"), 15);
    h.pipe("right", S("k"), S("r8"), 8);
    h.pipe("right", S("k"), S("r7"), 7);
    h.pipe("left", S("m"), S("l16"), 16);
    h.pipe("right", S("m"), S("r21"), 21);
    h.pipe("left", S("n"), S("l17"), 17);
    h.pipe("left", S("n"), S("l15"), 15);
    h.pipe("left", S("n"), S("l16"), 16);
    h.pipe("right", S("n"), S("r22"), 22);
    h.pipe("right", S("p"), S("r30"), 30);
    h.pipe("left", S("p"), S("l40"), 40);
    h.dropped();
    h.finish();
}

TEST_CASE("repartition_then_windowed") {
    streams_builder b;
    auto rp = b.stream<str, str>("in").select_key([](const str& v) { return v.substr(0, 1); }).repartition(repartitioned<>::as("rp"));
    show_to(rp.group_by_key().windowed_by(time_windows::of_size_and_grace(10ms, 3ms)).count(), "out-tumbling");
    show_to(rp.group_by_key().windowed_by(sliding_windows::of_time_difference_and_grace(4ms, 1ms)).reduce(concat), "out-sliding");
    harness h("repartition_then_windowed", b.build());
    h.input("in", s, s).output("out-tumbling", s, l).output("out-sliding", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("b2"), 2);
    h.pipe("in", S("k3"), S("a9"), 9);
    h.pipe("in", S("k4"), S("b12"), 12);
    h.pipe("in", S("k5"), S("a8"), 8);
    h.pipe("in", S("k6"), S("a13"), 13);
    h.pipe("in", S("k7"), S("b6"), 6);
    h.pipe("in", S("k8"), S("a14"), 14);
    h.pipe("in", S("k9"), S("b10"), 10);
    h.dropped();
    h.finish();
}

TEST_CASE("fk_join_on_join_result") {
    streams_builder b;
    auto customers = b.table<str, str>("customers");
    auto tiers = b.table<str, str>("tiers");
    auto enriched = customers.join(tiers, [](const str& c, const str& t) { return c + "/" + t; });
    auto orders = b.table<str, str>("orders");
    auto fk_of = [](const str& v) { return split(v, ':')[0]; };
    orders.join(enriched, fk_of, [](const str& o, const str& c) { return o + "=" + c; }).to_stream().to("out-inner");
    orders.left_join(enriched, fk_of, [](const str& o, const ostr& c) { return o + "=" + show(c); }).to_stream().to("out-left");
    harness h("fk_join_on_join_result", b.build());
    h.input("customers", s, s).input("tiers", s, s).input("orders", s, s).output("out-inner", s, s).output("out-left", s, s);
    h.pipe("customers", S("c1"), S("Ann"), 1);
    h.pipe("orders", S("o1"), S("c1:book"), 2);
    h.pipe("tiers", S("c1"), S("gold"), 3);
    h.pipe("orders", S("o2"), S("c2:pen"), 4);
    h.pipe("customers", S("c2"), S("Bo"), 5);
    h.pipe("tiers", S("c2"), S("tin"), 6);
    h.pipe("tiers", S("c1"), null, 7);
    h.pipe("orders", S("o1"), S("c2:book"), 8);
    h.pipe("customers", S("c2"), S("Bob"), 9);
    h.pipe("orders", S("o2"), null, 10);
    h.pipe("customers", S("c2"), null, 11);
    h.finish();
}

TEST_CASE("emit_on_close_sliding_session_keys") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(sliding_windows::of_time_difference_and_grace(5ms, 3ms)).emit_strategy(emit_strategy::on_window_close()).count(),
            "out-sliding");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_and_grace(4ms, 3ms)).emit_strategy(emit_strategy::on_window_close()).count(),
            "out-session");
    harness h("emit_on_close_sliding_session_keys", b.build());
    h.input("in", s, s).output("out-sliding", s, l).output("out-session", s, l);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("b"), S("2"), 2);
    h.pipe("in", S("c"), S("3"), 4);
    h.advance_wall_clock(2000);
    h.pipe("in", S("a"), S("4"), 9);
    h.advance_wall_clock(2000);
    h.pipe("in", S("b"), S("5"), 6);
    h.advance_wall_clock(2000);
    h.pipe("in", S("a"), S("6"), 10);
    h.advance_wall_clock(2000);
    h.pipe("in", S("c"), S("7"), 12);
    h.advance_wall_clock(2000);
    h.pipe("in", S("b"), S("8"), 18);
    h.pipe("in", S("a"), S("9"), 17);
    h.advance_wall_clock(2000);
    h.pipe("in", S("c"), S("10"), 30);
    h.advance_wall_clock(2000);
    h.pipe("in", S("a"), S("11"), 60);
    h.dropped();
    h.finish();
}

TEST_CASE("window_retention_reads") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count(materialized<>::as("r-db").with_retention(20ms));
    g.windowed_by(time_windows::of_size_with_no_grace(10ms))
        .count(materialized<>::as("r-mem").with_retention(20ms).with_in_memory_store().with_caching_disabled());
    g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(3ms)).count(materialized<>::as("s-db").with_retention(20ms));
    harness h("window_retention_reads", b.build());
    h.input("in", s, s);
    auto& d = h.driver();
    for (const i64 t : {1, 5, 12, 25, 31, 33, 47, 70}) {
        h.pipe("in", S("a"), S("x"), t);
        str line = "=";
        for (const str name : {"r-db", "r-mem"}) {
            auto& w = d.get_window_store<str, i64>(name);
            const auto at0 = w.fetch(str("a"), 0);
            line += " " + name + ": " + entries(w.all()) + "| " + entries(w.fetch(str("a"), 0, 100)) + "| " +
                    (at0 ? std::to_string(*at0) : str("null"));
        }
        line += " s-db: " + entries(d.get_session_store<str, i64>("s-db").fetch(str("a")));
        h.line(line);
    }
    h.finish();
}

TEST_CASE("windowed_results_rekeyed_downstream") {
    streams_builder b;
    auto c = b.stream<str, str>("in").group_by_key().windowed_by(time_windows::of_size_and_grace(10ms, 2ms)).count();
    auto limits = b.table<str, str>("limits");
    c.to_stream()
        .map([](const windowed<str>& w, i64 v) { return std::pair<str, str>(w.key, std::to_string(w.window.start) + ":" + std::to_string(v)); })
        .join(limits, [](const str& v, const str& lim) { return v + "<=" + lim; })
        .to("out-join");
    c.suppress(suppressed::until_window_closes(buffer_config::unbounded()))
        .to_stream()
        .group_by([](const windowed<str>& w, i64) { return w.key; }, grouped<>{}.with_key_serde(serde<str>{}).with_value_serde(serde<i64>{}))
        .count()
        .to_stream()
        .to("out-closed");
    harness h("windowed_results_rekeyed_downstream", b.build());
    h.input("in", s, s).input("limits", s, s).output("out-join", s, s).output("out-closed", s, l);
    h.pipe("limits", S("a"), S("A"), 0);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("b"), S("2"), 3);
    h.pipe("in", S("a"), S("3"), 11);
    h.pipe("limits", S("b"), S("B"), 5);
    h.pipe("in", S("b"), S("4"), 13);
    h.pipe("in", S("a"), S("5"), 9);
    h.pipe("in", S("a"), S("6"), 25);
    h.pipe("limits", S("a"), null, 26);
    h.pipe("in", S("a"), S("7"), 27);
    h.pipe("in", S("b"), S("8"), 40);
    h.finish();
}

TEST_CASE("session_results_to_table") {
    streams_builder b;
    auto sess = b.stream<str, str>("in").group_by_key().windowed_by(session_windows::of_inactivity_gap_and_grace(5ms, 5ms)).reduce(concat);
    auto changes = sess.to_stream();
    changes.filter([](const windowed<str>&, const ostr& v) { return !v; })
        .map([](const windowed<str>& w, const ostr&) { return std::pair<str, str>(show(w), "gone"); })
        .to("out-gone");
    auto latest = changes.filter([](const windowed<str>&, const ostr& v) { return v.has_value(); })
                      .map([](const windowed<str>& w, const str& v) {
                          return std::pair<str, str>(w.key, std::to_string(w.window.start) + "-" + std::to_string(w.window.end) + ":" + v);
                      })
                      .to_table(materialized<>{}.with_key_serde(serde<str>{}).with_value_serde(serde<str>{}));
    latest.join(latest.map_values([](const str& v) { return static_cast<std::int32_t>(v.size()); }),
                [](const str& v, std::int32_t n) { return v + "#" + std::to_string(n); })
        .to_stream()
        .to("out-latest");
    harness h("session_results_to_table", b.build());
    h.input("in", s, s).output("out-gone", s, s).output("out-latest", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 10);
    h.pipe("in", S("b"), S("3"), 4);
    h.pipe("in", S("a"), S("4"), 5);
    h.pipe("in", S("b"), S("5"), 20);
    h.pipe("in", S("a"), S("6"), 3);
    h.pipe("in", S("b"), S("7"), 14);
    h.finish();
}

TEST_CASE("hopping_joined_tumbling") {
    streams_builder b;
    auto hop = b.stream<str, str>("in").group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms).advance_by(5ms)).count();
    auto tum = b.stream<str, str>("other").group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).reduce(concat);
    show_to(hop.join(tum, [](i64 n, const str& x) { return std::to_string(n) + ":" + x; }), "out-inner");
    show_to(tum.left_join(hop, [](const str& x, const olong& n) { return x + ":" + show_long(n); }), "out-left");
    harness h("hopping_joined_tumbling", b.build());
    h.input("in", s, s).input("other", s, s).output("out-inner", s, s).output("out-left", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("other", S("a"), S("x"), 2);
    h.pipe("in", S("a"), S("2"), 7);
    h.pipe("other", S("a"), S("y"), 8);
    h.pipe("in", S("a"), S("3"), 12);
    h.pipe("other", S("a"), S("z"), 13);
    h.pipe("other", S("b"), S("w"), 14);
    h.pipe("in", S("b"), S("4"), 16);
    h.finish();
}

TEST_CASE("default_dsl_store_in_memory") {
    const std::map<str, str> props{{"dsl.store.suppliers.class", "org.apache.kafka.streams.state.BuiltInDslStoreSuppliers$InMemoryDslStoreSuppliers"}};
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    g.count(materialized<>::as("cnt")).to_stream().to("out-count");
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count(materialized<>::as("wcnt")), "out-window");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(5ms)).count(materialized<>::as("scnt")), "out-session");
    auto other = b.stream<str, str>("other");
    b.stream<str, str>("in").join(other, [](const str& x, const str& y) { return x + "&" + y; }, join_windows::of_time_difference_with_no_grace(5ms)).to("out-join");
    harness h("default_dsl_store_in_memory", b.build(props), props);
    h.input("in", s, s).input("other", s, s).output("out-count", s, l).output("out-window", s, l).output("out-session", s, l).output("out-join", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("other", S("a"), S("x"), 3);
    h.pipe("in", S("a"), S("2"), 4);
    h.pipe("in", S("b"), S("3"), 12);
    h.pipe("in", S("a"), S("4"), 2);
    h.pipe("other", S("a"), S("y"), 20);
    h.line("= cnt " + entries(h.driver().get_key_value_store<str, i64>("cnt").all()) + "| wcnt " +
           entries(h.driver().get_window_store<str, i64>("wcnt").all()) + "| scnt " +
           entries(h.driver().get_session_store<str, i64>("scnt").fetch(str("a"))));
    h.finish();
}

TEST_CASE("outer_join_asymmetric_expiry") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + "|" + show(y); },
                  join_windows::of_time_difference_and_grace(4ms, 2ms).before(1ms))
        .to("out");
    harness h("outer_join_asymmetric_expiry", b.build());
    h.input("left", s, s).input("right", s, s).output("out", s, s);
    h.pipe("left", S("a"), S("l1"), 1);
    h.pipe("right", S("b"), S("r2"), 2);
    h.pipe("left", S("b"), S("l5"), 5);
    h.pipe("right", S("a"), S("r9"), 9);
    h.pipe("right", S("c"), S("r3"), 3);
    h.pipe("left", S("c"), S("l12"), 12);
    h.pipe("right", S("d"), S("r6"), 6);
    h.pipe("right", S("c"), S("r11"), 11);
    h.pipe("left", S("x"), S("l20"), 20);
    h.pipe("right", S("y"), S("r30"), 30);
    h.pipe("left", S("c"), S("l13"), 13);
    h.pipe("left", S("z"), S("l31"), 31);
    h.dropped();
    h.finish();
}

TEST_CASE("stream_table_join_deleting_reduce") {
    streams_builder b;
    auto per_region = users_per_region(b);
    auto events = b.stream<str, str>("events");
    events.join(per_region, [](const str& e, const ostr& m) { return e + ">" + *m; }).to("out-inner");
    events.left_join(per_region, [](const str& e, const ostr& m) { return e + ">" + show(m); }).to("out-left");
    harness h("stream_table_join_deleting_reduce", b.build());
    h.input("users", s, s).input("events", s, s).output("out-inner", s, s).output("out-left", s, s);
    h.pipe("users", S("alice"), S("eu"), 1);
    h.pipe("events", S("eu"), S("e1"), 2);
    h.pipe("users", S("bob"), S("eu"), 3);
    h.pipe("events", S("eu"), S("e2"), 4);
    h.pipe("events", S("us"), S("e3"), 5);
    h.pipe("users", S("alice"), null, 6);
    h.pipe("users", S("bob"), S("us"), 7);
    h.pipe("events", S("eu"), S("e4"), 8);
    h.pipe("events", S("us"), S("e5"), 9);
    h.pipe("events", null, S("e6"), 10);
    h.finish();
}

TEST_CASE("opt_all_windowed_groupings_and_table") {
    const std::map<str, str> props{{"topology.optimization", "all"}};
    streams_builder b;
    auto t = b.table<str, str>("tin", materialized<>::as("tin-store"));
    auto rk = b.stream<str, str>("in").select_key([](const str& v) { return v.substr(0, 1); });
    show_to(rk.group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).count(), "out-w");
    show_to(rk.group_by_key().windowed_by(session_windows::of_inactivity_gap_with_no_grace(5ms)).count(), "out-s");
    rk.join(t, [](const str& v, const str& tv) { return v + "&" + tv; }).to("out-j");
    harness h("opt_all_windowed_groupings_and_table", b.build(props), props);
    h.input("tin", s, s).input("in", s, s).output("out-w", s, l).output("out-s", s, l).output("out-j", s, s);
    h.pipe("tin", S("a"), S("TA"), 1);
    h.pipe("in", S("k1"), S("a1"), 2);
    h.pipe("in", S("k2"), S("b2"), 3);
    h.pipe("in", S("k3"), S("a3"), 6);
    h.pipe("tin", S("b"), S("TB"), 7);
    h.pipe("in", S("k4"), S("b4"), 12);
    h.pipe("in", S("k5"), S("a5"), 4);
    h.pipe("tin", S("a"), null, 13);
    h.pipe("in", S("k6"), S("a6"), 14);
    h.finish();
}

TEST_CASE("sliding_views_suppressed") {
    streams_builder b;
    auto c = b.stream<str, str>("in").group_by_key().windowed_by(sliding_windows::of_time_difference_and_grace(4ms, 1ms)).count();
    show_to(c.filter([](i64 v) { return v >= 2; }).suppress(suppressed::until_window_closes(buffer_config::unbounded())), "out-filter");
    show_to(c.map_values([](i64 v) { return "n" + std::to_string(v); }).suppress(suppressed::until_window_closes(buffer_config::unbounded())),
            "out-mapped");
    harness h("sliding_views_suppressed", b.build());
    h.input("in", s, s).output("out-filter", s, l).output("out-mapped", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 3);
    h.pipe("in", S("b"), S("3"), 2);
    h.pipe("in", S("a"), S("4"), 6);
    h.pipe("in", S("a"), S("5"), 4);
    h.pipe("in", S("b"), S("6"), 9);
    h.pipe("in", S("a"), S("7"), 12);
    h.pipe("in", S("b"), S("8"), 20);
    h.finish();
}

TEST_CASE("global_join_then_windowed") {
    streams_builder b;
    auto users = b.global_table<str, str>("users");
    auto regions = b.stream<str, str>("clicks").join(users, [](const str& k, const str&) { return k; },
                                                     [](const str&, const str& u) { return u; });
    show_to(regions.group_by([](const str&, const str& region) { return region; })
                .windowed_by(time_windows::of_size_and_grace(10ms, 2ms))
                .count(),
            "out-count");
    harness h("global_join_then_windowed", b.build());
    h.input("users", s, s).input("clicks", s, s).output("out-count", s, l);
    h.pipe("users", S("u1"), S("eu"), 0);
    h.pipe("users", S("u2"), S("us"), 0);
    h.pipe("clicks", S("u1"), S("c"), 1);
    h.pipe("clicks", S("u2"), S("c"), 3);
    h.pipe("clicks", S("u3"), S("c"), 4);
    h.pipe("clicks", S("u1"), S("c"), 12);
    h.pipe("users", S("u1"), S("us"), 13);
    h.pipe("clicks", S("u1"), S("c"), 14);
    h.pipe("clicks", S("u2"), S("c"), 8);
    h.pipe("clicks", S("u2"), S("c"), 9);
    h.pipe("clicks", S("u1"), S("c"), 30);
    h.dropped();
    h.finish();
}

TEST_CASE("split_windowed_merge") {
    streams_builder b;
    auto m = b.stream<str, str>("in")
                 .split(named::as("s-"))
                 .branch([](const str& v) { return v.starts_with("a"); }, branched::as("a"))
                 .default_branch(branched::as("rest"));
    auto wa = m.at("s-a").group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).count().to_stream(
        [](const windowed<str>& w, i64) { return w.key + "@" + std::to_string(w.window.start); });
    auto wr = m.at("s-rest").group_by_key().windowed_by(session_windows::of_inactivity_gap_with_no_grace(3ms)).count().to_stream(
        [](const windowed<str>& w, i64) { return w.key + "@" + std::to_string(w.window.start) + "/" + std::to_string(w.window.end); });
    wa.merge(wr).to("out");
    harness h("split_windowed_merge", b.build());
    h.input("in", s, s).output("out", s, l);
    h.pipe("in", S("k"), S("a1"), 1);
    h.pipe("in", S("k"), S("b2"), 2);
    h.pipe("in", S("k"), S("a3"), 3);
    h.pipe("in", S("k"), S("b4"), 4);
    h.pipe("in", S("j"), S("b5"), 5);
    h.pipe("in", S("k"), S("b9"), 9);
    h.pipe("in", S("k"), S("b6"), 6);
    h.pipe("in", S("k"), S("a12"), 12);
    h.pipe("in", S("k"), S("b20"), 20);
    h.finish();
}

TEST_CASE("versioned_to_table_join_grace") {
    streams_builder b;
    auto t = b.stream<str, str>("updates").to_table(materialized<>::as(stores::persistent_versioned_key_value_store("vt", 50ms)));
    auto orders = b.stream<str, str>("orders");
    orders.join(t, [](const str& o, const str& u) { return o + "@" + u; }, joined<>{}.with_grace_period(5ms)).to("out");
    orders.left_join(t, [](const str& o, const ostr& u) { return o + "@" + show(u); }).to("out-left");
    harness h("versioned_to_table_join_grace", b.build());
    h.input("updates", s, s).input("orders", s, s).output("out", s, s).output("out-left", s, s);
    h.pipe("updates", S("a"), S("A1"), 10);
    h.pipe("orders", S("a"), S("o1"), 12);
    h.pipe("updates", S("a"), S("A0"), 5);
    h.pipe("orders", S("a"), S("o2"), 7);
    h.pipe("updates", S("a"), null, 15);
    h.pipe("orders", S("a"), S("o3"), 16);
    h.pipe("orders", S("a"), S("o4"), 11);
    h.pipe("updates", S("b"), S("B"), 20);
    h.pipe("orders", S("b"), S("o5"), 21);
    h.pipe("orders", S("a"), S("o6"), 30);
    h.pipe("orders", S("b"), S("o7"), 40);
    h.finish();
}

}  // TEST_SUITE
