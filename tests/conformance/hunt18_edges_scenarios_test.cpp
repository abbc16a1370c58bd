// Conformance: the edge scenarios of the eighteenth hunt (java/.../Hunt18Scenarios.java, second
// half), compared with Java Kafka Streams' outputs: windows near the largest timestamp under a
// continuing processing handler, sliding windows there, Kafka's deserializers on odd bytes, Double
// keys of NaN and -0.0, UUID keys in two spellings, windowed topics read back, a stream merged
// with itself, suppression and caches sized with headers, a global table of Long keys and Double
// values, and builder misuse rejected or accepted.
#include <doctest/doctest.h>

#include <bit>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/list_serde.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/uuid_serde.hpp>

#include "harness.hpp"
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
using type::x;

namespace {

const str continue_deserialization = "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler";
const str continue_processing = "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler";

/// Java's Double.toString for the short binary fractions these scenarios use ("2.5", "0.125").
str show_double(double d) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, d);
    return str(buf, r.ptr);
}

/// Hunt18Scenarios.rejected: "rejected" when building with `build` throws (at a DSL call or at
/// build()), else "accepted".
str rejected(const std::function<void(streams_builder&)>& build) {
    try {
        streams_builder b;
        build(b);
        b.build();
        return "accepted";
    } catch (const std::exception&) {
        return "rejected";
    }
}

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("windows_near_long_max_continue") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count(), "out-tumbling");
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms).advance_by(5ms)).count(), "out-hopping");
    harness h("windows_near_long_max_continue", b.build(), {{"processing.exception.handler", continue_processing}});
    h.input("in", s, s).output("out-tumbling", s, l).output("out-hopping", s, l);
    const i64 max = std::numeric_limits<i64>::max();
    h.pipe("in", S("a"), S("m12"), max - 12);
    h.pipe("in", S("a"), S("m0"), max);
    h.dropped();
    h.pipe("in", S("a"), S("m9"), max - 9);
    h.pipe("in", S("b"), S("m3"), max - 3);
    h.dropped();
    h.finish();
}

TEST_CASE("sliding_near_long_max") {
    streams_builder b;
    show_to(b.stream<str, str>("in").group_by_key().windowed_by(sliding_windows::of_time_difference_and_grace(5ms, 10ms)).count(), "out");
    harness h("sliding_near_long_max", b.build());
    h.input("in", s, s).output("out", s, l);
    const i64 max = std::numeric_limits<i64>::max();
    h.pipe("in", S("a"), S("m20"), max - 20);
    h.pipe("in", S("a"), S("m10"), max - 10);
    h.pipe("in", S("a"), S("m12"), max - 12);
    h.dropped();
    try {
        h.pipe("in", S("a"), S("m0"), max);
        h.pipe("in", S("a"), S("m2"), max - 2);
        h.dropped();
    } catch (const std::exception&) {
        h.line("! failed");
    }
    h.finish();
}

TEST_CASE("serde_deserialize_edges") {
    streams_builder b;
    b.stream<str, bool>("in-bool").map_values([](bool v) { return str(v ? "true" : "false"); }).to("out");
    b.stream<str, std::int16_t>("in-short").map_values([](std::int16_t v) { return std::to_string(v); }).to("out");
    b.stream<str, float>("in-float").map_values([](float v) { return std::to_string(std::bit_cast<std::int32_t>(v)); }).to("out");
    b.stream<str, double>("in-double").map_values([](double v) { return std::to_string(std::bit_cast<i64>(v)); }).to("out");
    b.stream<str, uuid>("in-uuid").map_values([](const uuid& v) { return v.to_string(); }).to("out");
    b.stream<uuid, str>("in-uuid-key").select_key([](const uuid& k, const str&) { return k.to_string(); }).to("out");
    harness h("serde_deserialize_edges", b.build(), {{"deserialization.exception.handler", continue_deserialization}});
    h.input("in-bool", s, s).input("in-short", s, s).input("in-float", s, s).input("in-double", s, s).input("in-uuid", s, s);
    h.input("in-uuid-key", s, s).output("out", s, s);
    i64 t = 1;
    for (const str v : {"0", "1", "", "ab"}) h.pipe("in-bool", S("b"), S(v), t++);
    for (const str v : {"ab", "a", "abc"}) h.pipe("in-short", S("s"), S(v), t++);
    for (const str v : {"abcd", "abcdefgh"}) h.pipe("in-float", S("f"), S(v), t++);
    for (const str v : {"abcdefgh", "abcd", ""}) h.pipe("in-double", S("d"), S(v), t++);
    for (const str v : {"1-2-3-4-5", "ABCDEF01-2345-6789-ABCD-EF0123456789", "+1-2-3-4-5", "123456789-0-0-0-0", "-1-2-3-4-5",
                        "1-2-3-4", "1-2-3-4-5-6", "", "00000000-0000-0000-0000-0000000000001", "0-0-0-0-1234567890123",
                        "g-0-0-0-0", "1-2-3-4-+5"})
        h.pipe("in-uuid", S("u"), S(v), t++);
    h.pipe("in-uuid-key", S("a-b-c-d-e"), S("k"), t++);
    h.pipe("in-uuid-key", S("x"), S("k2"), t++);
    h.dropped();
    h.finish();
}

TEST_CASE("double_keys_nan_zero") {
    streams_builder b;
    auto st = b.stream<str, i64>("in");
    st.group_by([](const str&, i64 v) { return std::bit_cast<double>(v); })
        .count(materialized<>::as("by-double"))
        .to_stream()
        .to("out-count");
    st.group_by_key()
        .aggregate([] { return std::vector<double>(); },
                   [](const str&, i64 v, std::vector<double> agg) {
                       agg.push_back(std::bit_cast<double>(v));
                       return agg;
                   },
                   materialized<>::as("doubles"))
        .to_stream()
        .to("out-list");
    harness h("double_keys_nan_zero", b.build());
    h.input("in", s, l).output("out-count", x, l).output("out-list", s, x);
    const std::vector<i64> in{0, std::numeric_limits<i64>::min(), 0x7ff8000000000000, static_cast<i64>(0xfff8000000000000ULL),
                              0x7ff0000000000001, 0};
    i64 t = 1;
    for (const i64 v : in) h.pipe("in", S("k"), L(v), t++);
    h.finish();
}

TEST_CASE("uuid_keys_table_join") {
    streams_builder b;
    auto users = b.table<uuid, str>("users");
    b.stream<uuid, str>("clicks").left_join(users, [](const str& c, const ostr& u) { return c + "@" + show(u); }).to("out");
    users.to_stream().to("out-users");
    harness h("uuid_keys_table_join", b.build());
    h.input("users", s, s).input("clicks", s, s).output("out", s, s).output("out-users", s, s);
    h.pipe("users", S("0000000a-0000-0000-0000-00000000000b"), S("ann"), 1);
    h.pipe("clicks", S("0000000A-0000-0000-0000-00000000000B"), S("c1"), 2);
    h.pipe("users", S("A-0-0-0-B"), S("bo"), 3);
    h.pipe("clicks", S("a-0-0-0-b"), S("c2"), 4);
    h.pipe("users", S("0000000A-0000-0000-0000-00000000000B"), null, 5);
    h.pipe("clicks", S("0000000a-0000-0000-0000-00000000000b"), S("c3"), 6);
    h.finish();
}

TEST_CASE("windowed_topics_read_back") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    g.windowed_by(time_windows::of_size_with_no_grace(10ms))
        .count()
        .to_stream()
        .to("wins", produced<>{}.with_key_serde(time_windowed_serde<str>{{}, 10}));
    g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(4ms))
        .count()
        .to_stream()
        .to("sessions", produced<>{}.with_key_serde(session_windowed_serde<str>{}));
    b.stream<windowed<str>, i64>("wins", consumed<>{}.with_key_serde(time_windowed_serde<str>{{}, 7}))
        .map([](const windowed<str>& w, i64 v) { return std::pair<str, str>(show(w), std::to_string(v)); })
        .to("out-wins");
    b.stream<windowed<str>, i64>("sessions", consumed<>{}.with_key_serde(session_windowed_serde<str>{}))
        .map([](const windowed<str>& w, const olong& v) { return std::pair<str, str>(show(w), v ? std::to_string(*v) : str("null")); })
        .to("out-sessions");
    harness h("windowed_topics_read_back", b.build());
    h.input("in", s, s).output("out-wins", s, s).output("out-sessions", s, s);
    h.pipe("in", S("a"), S("1"), 3);
    h.pipe("in", S("a"), S("2"), 6);
    h.pipe("in", S("b"), S("3"), 12);
    h.pipe("in", S("a"), S("4"), 8);
    h.finish();
}

TEST_CASE("merge_with_itself") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    st.merge(st).to("out-twice");
    st.merge(st.filter([](const str& v) { return v.starts_with("a"); })).group_by_key().count().to_stream().to("out-count");
    harness h("merge_with_itself", b.build());
    h.input("in", s, s).output("out-twice", s, s).output("out-count", s, l);
    h.pipe("in", S("k"), S("a1"), 1);
    h.pipe("in", S("k"), S("b2"), 2);
    h.pipe("in", null, S("a3"), 3);
    h.finish();
}

TEST_CASE("suppress_bytes_with_headers") {
    streams_builder b;
    b.stream<str, str>("in")
        .group_by_key()
        .count()
        .suppress(suppressed::until_time_limit(50ms, buffer_config::max_bytes(160).emit_early_when_full()))
        .to_stream()
        .to("out");
    harness h("suppress_bytes_with_headers", b.build());
    h.input("in", s, s).output("out", s, l);
    h.pipe("in", S("k1"), S("v"), 1);
    h.pipe("in", S("k2"), S("v"), 2, {"h=1"});
    h.pipe("in", S("k3"), S("v"), 3, {"long-header-key=long-header-value"});
    h.pipe("in", S("k1"), S("v"), 4);
    h.pipe("in", S("k4"), S("v"), 5);
    h.pipe("in", S("k5"), S("v"), 6, {"a=b", "c=d"});
    h.pipe("in", S("k2"), S("v"), 7);
    h.pipe("in", S("k6"), S("v"), 60);
    h.finish();
}

TEST_CASE("cache_bytes_with_headers") {
    streams_builder b;
    b.stream<str, str>("in").group_by_key().count().to_stream().to("out-count");
    b.table<str, str>("tab", materialized<>::as("tab-store")).to_stream().to("out-table");
    harness h("cache_bytes_with_headers", b.build(), {{"statestore.cache.max.bytes", "300"}});
    h.input("in", s, s).input("tab", s, s).output("out-count", s, l).output("out-table", s, s);
    const str big = "header-key-of-some-length=header-value-of-some-length";
    h.pipe("in", S("k1"), S("v"), 1, {big});
    h.pipe("in", S("k2"), S("v"), 2);
    h.pipe("in", S("k1"), S("v"), 3, {big, big});
    h.pipe("tab", S("t1"), S("x"), 4, {big});
    h.pipe("tab", S("t2"), S("y"), 5);
    h.pipe("in", S("k3"), S("v"), 6, {big});
    h.pipe("tab", S("t1"), S("z"), 7);
    h.finish();
}

TEST_CASE("global_table_long_double") {
    streams_builder b;
    auto prices = b.global_table<i64, double>("prices");
    auto st = b.stream<str, str>("orders");
    const auto by_value = [](const str&, const str& v) { return static_cast<i64>(std::stoll(v)); };
    st.join(prices, by_value, [](const str& v, double p) { return v + "=" + show_double(p); }).to("out-join");
    st.left_join(prices, by_value, [](const str& v, const std::optional<double>& p) { return v + "=" + (p ? show_double(*p) : str("null")); })
        .to("out-left");
    harness h("global_table_long_double", b.build());
    h.input("prices", l, type::d).input("orders", s, s).output("out-join", s, s).output("out-left", s, s);
    h.pipe("prices", L(1), D(2.5), 1);
    h.pipe("orders", S("o1"), S("1"), 2);
    h.pipe("orders", S("o2"), S("2"), 3);
    h.pipe("prices", L(2), D(0.125), 4);
    h.pipe("orders", S("o3"), S("2"), 5);
    h.pipe("prices", L(1), null, 6);
    h.pipe("orders", S("o4"), S("1"), 7);
    h.finish();
}

TEST_CASE("builder_misuse_rejected") {
    streams_builder ok;
    ok.stream<str, str>("in").to("out");
    harness h("builder_misuse_rejected", ok.build());
    h.input("in", s, s).output("out", s, s);
    const auto windowed_count = [](auto windows, std::chrono::milliseconds retention) {
        return [windows, retention](streams_builder& b) {
            b.stream<str, str>("in").group_by_key().windowed_by(windows).count(materialized<>::as("r").with_retention(retention));
        };
    };
    h.line("window retention below size+grace: " + rejected(windowed_count(time_windows::of_size_and_grace(10ms, 5ms), 14ms)));
    h.line("window retention equal to size+grace: " + rejected(windowed_count(time_windows::of_size_and_grace(10ms, 5ms), 15ms)));
    h.line("session retention below gap+grace: " + rejected(windowed_count(session_windows::of_inactivity_gap_and_grace(10ms, 5ms), 14ms)));
    h.line("sliding retention below difference+grace: " +
           rejected(windowed_count(sliding_windows::of_time_difference_and_grace(10ms, 5ms), 14ms)));
    h.line("duplicate store name: " + rejected([](streams_builder& b) {
               auto g = b.stream<str, str>("in").group_by_key();
               g.count(materialized<>::as("dup"));
               g.reduce([](const str& a, const str& c) { return a + c; }, materialized<>::as("dup"));
           }));
    h.line("duplicate source topic: " + rejected([](streams_builder& b) {
               b.stream<str, str>("in").to("o1");
               b.stream<str, str>("in").to("o2");
           }));
    h.line("duplicate processor name: " + rejected([](streams_builder& b) {
               auto st = b.stream<str, str>("in");
               st.filter([](const str&) { return true; }, named::as("f")).to("o1");
               st.map_values([](const str& v) { return v; }, named::as("f")).to("o2");
           }));
    h.line("store name with a space: " + rejected([](streams_builder& b) {
               b.stream<str, str>("in").group_by_key().count(materialized<>::as("bad name"));
           }));
    h.line("processor name with a colon: " + rejected([](streams_builder& b) {
               b.stream<str, str>("in").filter([](const str&) { return true; }, named::as("a:b")).to("o");
           }));
    h.line("repartition name of 250 characters: " + rejected([](streams_builder& b) {
               b.stream<str, str>("in").repartition(repartitioned<>::as(str(250, 'x'))).to("o");
           }));
    h.line("repartition name of 200 characters: " + rejected([](streams_builder& b) {
               b.stream<str, str>("in").repartition(repartitioned<>::as(str(200, 'x'))).to("o");
           }));
    h.line("two repartitions of one name: " + rejected([](streams_builder& b) {
               auto st = b.stream<str, str>("in");
               st.repartition(repartitioned<>::as("rp")).to("o1");
               st.map_values([](const str& v) { return v; }).repartition(repartitioned<>::as("rp")).to("o2");
           }));
    h.line("two groupings of one name: " + rejected([](streams_builder& b) {
               auto st = b.stream<str, str>("in");
               st.select_key([](const str& v) { return v; }).group_by_key(grouped<>::as("g")).count();
               st.select_key([](const str& k, const str& v) { return k + v; }).group_by_key(grouped<>::as("g")).count();
           }));
    h.line("two stream joins of one store name: " + rejected([](streams_builder& b) {
               auto lt = b.stream<str, str>("l");
               auto rt = b.stream<str, str>("r");
               const auto w = join_windows::of_time_difference_with_no_grace(5ms);
               lt.join(rt, [](const str& a, const str& c) { return a + c; }, w, stream_joined<>::as("j")).to("o1");
               lt.left_join(rt, [](const str& a, const ostr& c) { return a + show(c); }, w, stream_joined<>::as("j")).to("o2");
           }));
    h.line("join windows before+after negative: " +
           rejected([](streams_builder&) { join_windows::of_time_difference_with_no_grace(5ms).before(-6ms); }));
    h.line("join windows after negative within before: " +
           rejected([](streams_builder&) { join_windows::of_time_difference_with_no_grace(5ms).after(-3ms); }));
    h.line("session gap zero: " + rejected([](streams_builder&) { session_windows::of_inactivity_gap_with_no_grace(0ms); }));
    h.line("sliding difference zero: " + rejected([](streams_builder&) { sliding_windows::of_time_difference_with_no_grace(0ms); }));
    h.line("hopping advance above size: " +
           rejected([](streams_builder&) { time_windows::of_size_with_no_grace(5ms).advance_by(6ms); }));
    h.line("suppress time limit negative: " +
           rejected([](streams_builder&) { suppressed::until_time_limit(-1ms, buffer_config::unbounded()); }));
    h.line("buffer of zero records: " + rejected([](streams_builder&) { buffer_config::max_records(0); }));
    h.pipe("in", S("k"), S("v"), 1);
    h.finish();
}

TEST_CASE("names_checked_by_option") {
    streams_builder ok;
    ok.stream<str, str>("in").to("out");
    harness h("names_checked_by_option", ok.build());
    h.input("in", s, s).output("out", s, s);
    using use = std::function<void(streams_builder&, const str&)>;
    const auto yes = [](const str&) { return true; };
    const auto both = [](const str& a, const str& c) { return a + c; };
    const std::vector<std::pair<str, use>> uses{
        {"Named", [&](streams_builder& b, const str& n) { b.stream<str, str>("in").filter(yes, named::as(n)).to("o"); }},
        {"Materialized", [](streams_builder& b, const str& n) { b.stream<str, str>("in").group_by_key().count(materialized<>::as(n)); }},
        {"Grouped",
         [](streams_builder& b, const str& n) {
             b.stream<str, str>("in").select_key([](const str& v) { return v; }).group_by_key(grouped<>::as(n)).count();
         }},
        {"Repartitioned", [](streams_builder& b, const str& n) { b.stream<str, str>("in").repartition(repartitioned<>::as(n)).to("o"); }},
        {"StreamJoined",
         [&](streams_builder& b, const str& n) {
             b.stream<str, str>("in")
                 .join(b.stream<str, str>("in2"), both, join_windows::of_time_difference_with_no_grace(5ms), stream_joined<>::as(n))
                 .to("o");
         }},
        {"Joined", [&](streams_builder& b, const str& n) { b.stream<str, str>("in").join(b.table<str, str>("t"), both, joined<>::as(n)).to("o"); }},
        {"Suppressed",
         [](streams_builder& b, const str& n) {
             b.table<str, str>("t").suppress(suppressed::until_time_limit(5ms, buffer_config::unbounded()).with_name(n));
         }},
        {"Consumed", [](streams_builder& b, const str& n) { b.stream<str, str>("in", consumed<>{}.with_name(n)).to("o"); }},
        {"Produced", [](streams_builder& b, const str& n) { b.stream<str, str>("in").to("o", produced<>{}.with_name(n)); }},
    };
    for (const auto& [option, f] : uses) {
        str line = option + ":";
        for (const str& n : std::vector<str>{"a b", str(250, 'x'), "", ".", ".."})
            line += " " + rejected([&, g = f](streams_builder& b) { g(b, n); });
        h.line(line);
    }
    h.finish();
}

TEST_CASE("session_gap_zero") {
    streams_builder b;
    show_to(b.stream<str, str>("in")
                .group_by_key()
                .windowed_by(session_windows::of_inactivity_gap_and_grace(0ms, 3ms))
                .reduce([](const str& a, const str& c) { return a + "+" + c; }, materialized<>::as("g0").with_caching_disabled()),
            "out");
    harness h("session_gap_zero", b.build());
    h.input("in", s, s).output("out", s, s);
    for (const auto& [v, t] : std::vector<std::pair<str, i64>>{{"1", 5}, {"2", 5}, {"3", 6}, {"4", 4}, {"5", 6}, {"6", 2}})
        h.pipe("in", S("a"), S(v), t);
    h.dropped();
    h.finish();
}

TEST_CASE("stream_join_near_long_max") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    const auto w = join_windows::of_time_difference_and_grace(5ms, 3ms);
    lt.join(rt, [](const str& a, const str& c) { return a + "&" + c; }, w).to("out-inner");
    lt.outer_join(rt, [](const ostr& a, const ostr& c) { return show(a) + "&" + show(c); }, w).to("out-outer");
    harness h("stream_join_near_long_max", b.build());
    h.input("left", s, s).input("right", s, s).output("out-inner", s, s).output("out-outer", s, s);
    const i64 max = std::numeric_limits<i64>::max();
    h.pipe("left", S("a"), S("L20"), max - 20);
    h.pipe("right", S("a"), S("R17"), max - 17);
    h.pipe("left", S("b"), S("Lb4"), max - 4);
    h.pipe("right", S("a"), S("R2"), max - 2);
    h.pipe("left", S("a"), S("L0"), max);
    h.pipe("right", S("c"), S("Rc1"), max - 1);
    h.dropped();
    h.finish();
}

TEST_CASE("store_suppliers_misfit") {
    streams_builder ok;
    ok.stream<str, str>("in").to("out");
    harness h("store_suppliers_misfit", ok.build());
    h.input("in", s, s).output("out", s, s);
    const auto windowed_count = [](time_windows w, std::chrono::milliseconds retention, std::chrono::milliseconds size, bool dups) {
        return [=](streams_builder& b) {
            b.stream<str, str>("in").group_by_key().windowed_by(w).count(
                materialized<>::as(stores::in_memory_window_store("w", retention, size, dups)));
        };
    };
    const auto join = [](std::chrono::milliseconds size, bool dups) {
        return [=](streams_builder& b) {
            b.stream<str, str>("l")
                .join(b.stream<str, str>("r"), [](const str& a, const str& c) { return a + c; },
                      join_windows::of_time_difference_with_no_grace(5ms),
                      stream_joined<>{}
                          .with_this_store_supplier(stores::in_memory_window_store("j1", 10ms, size, dups))
                          .with_other_store_supplier(stores::in_memory_window_store("j2", 10ms, 10ms, true)))
                .to("o");
        };
    };
    h.line("window store of another size: " + rejected(windowed_count(time_windows::of_size_with_no_grace(10ms), 100ms, 7ms, false)));
    h.line("window store keeping duplicates: " + rejected(windowed_count(time_windows::of_size_with_no_grace(10ms), 100ms, 10ms, true)));
    h.line("window store of short retention: " + rejected(windowed_count(time_windows::of_size_and_grace(10ms, 5ms), 12ms, 10ms, false)));
    h.line("join store not keeping duplicates: " + rejected(join(10ms, false)));
    h.line("join store of another window size: " + rejected(join(7ms, true)));
    h.line("tumbling size zero: " + rejected([](streams_builder&) { time_windows::of_size_with_no_grace(0ms); }));
    h.line("session grace negative: " + rejected([](streams_builder&) { session_windows::of_inactivity_gap_and_grace(5ms, -1ms); }));
    h.line("negative time limit applied: " + rejected([](streams_builder& b) {
               b.table<str, str>("t").suppress(suppressed::until_time_limit(-1ms, buffer_config::unbounded())).to_stream().to("o");
           }));
    h.finish();
}

}  // TEST_SUITE
