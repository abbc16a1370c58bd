// Conformance: windowed aggregations, written as java/.../WindowScenarios.java writes them,
// compared with Java Kafka Streams' outputs. Windowed keys are shown as "key@start/end".
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using ostr = std::optional<std::string>;
using type::l;
using type::s;
using type::x;

namespace {

str show(const windowed<str>& w) {
    return w.key + "@" + std::to_string(w.window.start) + "/" + std::to_string(w.window.end);
}
str show(const ostr& v) { return v ? *v : str("null"); }

template <class K, class V>
void show_to(const ktable<windowed<K>, V>& t, const str& topic) {
    t.to_stream().map([](const windowed<K>& w, const V& v) { return key_value<str, V>{show(w), v}; }).to(topic);
}

void tumbling_inputs(harness& h) {
    h.pipe("in", S("a"), S("v0"), 0);
    h.pipe("in", S("a"), S("v9"), 9);
    h.pipe("in", S("a"), S("v10"), 10);
    h.pipe("in", S("b"), S("v5"), 5);
    h.pipe("in", null, S("vnull"), 6);
    h.pipe("in", S("a"), null, 11);
    h.pipe("in", S("a"), S("v4"), 4);
    h.pipe("in", S("a"), S("v24"), 24);
    h.pipe("in", S("a"), S("v12"), 12);
    h.pipe("in", S("b"), S("v25"), 25);
    h.pipe("in", S("a"), S("v13"), 13);
    h.pipe("in", S("a"), S("v19"), 19);
    h.pipe("in", S("a"), S("v20"), 20);
    h.pipe("in", S("b"), S("v3"), 3);
}

void hopping_inputs(harness& h) {
    h.pipe("in", S("a"), S("x0"), 0);
    h.pipe("in", S("a"), S("x7"), 7);
    h.pipe("in", S("b"), S("y7"), 7);
    h.pipe("in", S("a"), S("x12"), 12);
    h.pipe("in", S("a"), S("x9"), 9);
    h.pipe("in", S("b"), S("y10"), 10);
    h.pipe("in", S("a"), S("x4"), 4);
    h.pipe("in", S("a"), S("x30"), 30);
    h.pipe("in", S("b"), S("y24"), 24);
    h.pipe("in", S("b"), S("y25"), 25);
}

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("window_tumbling_count") {
    streams_builder b;
    auto c = b.stream<str, str>("in").group_by_key().windowed_by(time_windows::of_size_and_grace(10ms, 5ms)).count();
    show_to(c, "out");
    c.to_stream().to("out-bytes");
    harness h("window_tumbling_count", b.build());
    h.input("in", s, s).output("out", s, l).output("out-bytes", x, l);
    tumbling_inputs(h);
    h.finish();
}

TEST_CASE("window_tumbling_reduce_aggregate") {
    streams_builder b;
    auto g = b.stream<str, ostr>("in").group_by_key();
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms))
                .reduce([](const ostr& a, const ostr& v) { return ostr(show(a) + "+" + show(v)); }, named::as("win-reduce"),
                        materialized<>::as("reduce-store").with_in_memory_store().with_caching_disabled()),
            "out-reduce");
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 5ms))
                .aggregate([] { return str(); }, [](const str&, const ostr& v, const str& agg) { return agg + "/" + show(v); },
                           materialized<>::as("agg-store").with_retention(100ms).with_logging_disabled()),
            "out-agg");
    harness h("window_tumbling_reduce_aggregate", b.build());
    h.input("in", s, s).output("out-reduce", s, s).output("out-agg", s, s);
    tumbling_inputs(h);
    h.finish();
}

TEST_CASE("window_hopping") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by(
        [](const str& k, const str&) {
            str u = k;
            for (char& ch : u) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
            return u;
        },
        grouped<>::as("regroup"));
    const auto w = time_windows::of_size_with_no_grace(10ms).advance_by(5ms);
    show_to(g.windowed_by(w).count(materialized<>{}), "out-count");
    show_to(g.windowed_by(w).aggregate([] { return str(); }, [](const str&, const str& v, const str& agg) { return agg + v; },
                                       materialized<>::as("hop-agg").with_caching_disabled()),
            "out-agg");
    harness h("window_hopping", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-agg", s, s);
    hopping_inputs(h);
    h.finish();
}

TEST_CASE("window_table_join") {
    streams_builder b;
    auto in = b.stream<str, str>("in");
    auto in2 = b.stream<str, str>("in2");
    const auto pair = [](std::int64_t x, std::int64_t y) { return std::to_string(x) + ":" + std::to_string(y); };
    const auto maybe = [](const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : str("null"); };
    const auto w = time_windows::of_size_with_no_grace(10ms);
    auto left = in.group_by_key().windowed_by(w).count();
    auto right = in2.group_by_key().windowed_by(w).count();
    show_to(left.join(right, pair), "out-join");
    show_to(left.left_join(right, [&](std::int64_t x, const std::optional<std::int64_t>& y) { return std::to_string(x) + ":" + maybe(y); }),
            "out-left");
    const auto gap = session_windows::of_inactivity_gap_with_no_grace(5ms);
    auto s1 = in.group_by_key().windowed_by(gap).count();
    auto s2 = in2.group_by_key().windowed_by(gap).count();
    // select_key, not map: the sessions a merge replaces arrive as tombstones, which it keeps.
    s1.outer_join(s2, [&](const std::optional<std::int64_t>& x, const std::optional<std::int64_t>& y) { return maybe(x) + ":" + maybe(y); })
        .to_stream()
        .select_key([](const windowed<str>& k, const str&) { return show(k); })
        .to("out-session-outer");
    harness h("window_table_join", b.build());
    h.input("in", s, s).input("in2", s, s).output("out-join", s, s).output("out-left", s, s).output("out-session-outer", s, s);
    h.pipe("in", S("a"), S("1"), 0);
    h.pipe("in2", S("a"), S("2"), 3);
    h.pipe("in", S("a"), S("3"), 5);
    h.pipe("in", S("b"), S("4"), 6);
    h.pipe("in2", S("a"), S("5"), 12);
    h.pipe("in", S("a"), S("6"), 14);
    h.pipe("in2", S("b"), S("7"), 9);
    h.pipe("in2", S("a"), S("8"), 8);
    h.pipe("in", S("b"), S("9"), 30);
    h.finish();
}

TEST_CASE("window_unlimited") {
    streams_builder b;
    auto g = b.stream<str, ostr>("in").group_by_key();
    auto c = g.windowed_by(unlimited_windows::of()).count();
    show_to(c, "out");
    c.to_stream().to("out-bytes");
    show_to(g.windowed_by(unlimited_windows::of().start_on(10ms))
                .aggregate([] { return str(); }, [](const str&, const ostr& v, const str& agg) { return agg + "/" + show(v); },
                           materialized<>::as("from-10").with_caching_disabled()),
            "out-from");
    harness h("window_unlimited", b.build());
    h.input("in", s, s).output("out", s, l).output("out-bytes", x, l).output("out-from", s, s);
    tumbling_inputs(h);
    h.pipe("in", S("a"), S("late"), 1);
    h.dropped();
    h.finish();
}

}  // TEST_SUITE
