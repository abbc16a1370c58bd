// Conformance: sliding and session windows, written as java/.../WindowKindScenarios.java writes
// them, compared with Java Kafka Streams' outputs (emit on window update and on window close). Windowed keys are shown as "key@start/end".
#include <doctest/doctest.h>

#include <optional>
#include <string>

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
using type::x;

namespace {

void sliding_inputs(harness& h) {
    h.pipe("in", S("a"), S("e5"), 5);
    h.pipe("in", S("a"), S("e2"), 2);
    h.pipe("in", S("a"), S("e8"), 8);
    h.pipe("in", S("a"), S("v12"), 12);
    h.pipe("in", S("b"), S("w10"), 10);
    h.pipe("in", S("a"), S("v30"), 30);
    h.pipe("in", S("a"), S("v22"), 22);
    h.pipe("in", S("a"), S("v14"), 14);
    h.pipe("in", S("a"), S("v15"), 15);
    h.pipe("in", S("a"), null, 31);
    h.pipe("in", null, S("vnull"), 31);
    h.pipe("in", S("a"), S("v26"), 26);
    h.pipe("in", S("a"), S("v40"), 40);
    h.pipe("in", S("a"), S("v41"), 41);
    h.pipe("in", S("a"), S("v40b"), 40);
    h.pipe("in", S("b"), S("w50"), 50);
    h.pipe("in", S("b"), S("w39"), 39);
    h.pipe("in", S("b"), S("w60"), 60);
}

auto concat = [](const ostr& a, const ostr& v) { return ostr(show(a) + "+" + show(v)); };

/// Writes strings reversed: shows which serde wrote a topic.
struct reversed_serde {
    void serialize(const str& v, std::string& out) const { out.append(v.rbegin(), v.rend()); }
    str deserialize(std::string_view in) const { return str(in.rbegin(), in.rend()); }
};

void close_inputs(harness& h) {
    h.pipe("in", S("a"), S("c1"), 1);
    h.pipe("in", S("b"), S("c3"), 3);
    h.pipe("in", S("a"), S("c9"), 9);
    h.pipe("in", S("a"), S("c12"), 12);
    h.pipe("in", S("b"), S("c14"), 14);
    h.pipe("in", S("a"), S("c15"), 15);
    h.pipe("in", S("a"), S("c4"), 4);
    h.pipe("in", S("b"), S("c20"), 20);
    h.pipe("in", S("a"), S("c26"), 26);
    h.pipe("in", S("a"), S("c27"), 27);
    h.pipe("in", S("b"), S("c33"), 33);
    h.pipe("in", S("a"), S("c45"), 45);
    h.pipe("in", S("b"), S("c70"), 70);
    h.pipe("in", S("a"), S("c71"), 71);
    h.pipe("in", S("a"), S("c100"), 100);
}


}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("window_sliding") {
    streams_builder b;
    auto g = b.stream<str, ostr>("in").group_by_key();
    const auto w = sliding_windows::of_time_difference_and_grace(10ms, 5ms);
    auto c = g.windowed_by(w).count();
    show_to(c, "out-count");
    c.to_stream().to("out-bytes");
    show_to(g.windowed_by(w).aggregate([] { return str(); }, [](const str&, const ostr& v, const str& agg) { return agg + "/" + show(v); },
                                       materialized<>::as("slide-agg").with_in_memory_store().with_caching_disabled()),
            "out-agg");
    show_to(g.windowed_by(sliding_windows::of_time_difference_with_no_grace(10ms))
                .reduce(concat, named::as("slide-reduce"), materialized<>::as("slide-reduce-store").with_caching_disabled()),
            "out-reduce");
    harness h("window_sliding", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-bytes", x, l).output("out-agg", s, s).output("out-reduce", s, s);
    sliding_inputs(h);
    h.finish();
}

TEST_CASE("window_session") {
    streams_builder b;
    auto g = b.stream<str, ostr>("in").group_by_key();
    const auto w = session_windows::of_inactivity_gap_and_grace(10ms, 5ms);
    auto c = g.windowed_by(w).count();
    show_to(c, "out-count");
    c.to_stream().to("out-bytes");
    show_to(g.windowed_by(w).aggregate([] { return str(); }, [](const str&, const ostr& v, const str& agg) { return agg + "/" + show(v); },
                                       [](const str&, const str& a, const str& b2) { return a + "|" + b2; },
                                       materialized<>::as("session-agg").with_in_memory_store().with_caching_disabled()),
            "out-agg");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(10ms))
                .reduce(concat, named::as("session-reduce"), materialized<>::as("session-reduce-store").with_caching_disabled()),
            "out-reduce");
    harness h("window_session", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-bytes", x, l).output("out-agg", s, s).output("out-reduce", s, s);
    session_inputs(h);
    h.finish();
}

TEST_CASE("window_emit_on_close") {
    streams_builder b;
    auto g = b.stream<str, ostr>("in").group_by_key();
    const auto close = emit_strategy::on_window_close();
    const auto tumbling = time_windows::of_size_and_grace(10ms, 3ms);
    show_to(g.windowed_by(tumbling).emit_strategy(close).count(), "tumbling-rocks");
    show_to(g.windowed_by(tumbling).emit_strategy(close).count(materialized<>::as("tumbling-mem").with_in_memory_store()),
            "tumbling-mem");
    show_to(g.windowed_by(tumbling).emit_strategy(close).count(
                materialized<>::as("tumbling-mem-long").with_in_memory_store().with_retention(100ms)),
            "tumbling-mem-long");
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms).advance_by(5ms)).emit_strategy(close).count(materialized<>::as("hopping")),
            "hopping");
    const auto sliding = sliding_windows::of_time_difference_and_grace(10ms, 3ms);
    show_to(g.windowed_by(sliding).emit_strategy(close).count(materialized<>::as("sliding-rocks")), "sliding-rocks");
    show_to(g.windowed_by(sliding).emit_strategy(close).count(materialized<>::as("sliding-mem").with_in_memory_store()),
            "sliding-mem");
    const auto session = session_windows::of_inactivity_gap_and_grace(10ms, 3ms);
    show_to(g.windowed_by(session).emit_strategy(close).count(materialized<>::as("session-rocks")), "session-rocks");
    show_to(g.windowed_by(session).emit_strategy(close).count(materialized<>::as("session-mem").with_in_memory_store()),
            "session-mem");
    show_to(g.windowed_by(session).emit_strategy(close).count(
                materialized<>::as("session-mem-long").with_in_memory_store().with_retention(100ms)),
            "session-mem-long");
    harness h("window_emit_on_close", b.build());
    h.input("in", s, s);
    for (const char* t : {"tumbling-rocks", "tumbling-mem", "tumbling-mem-long", "hopping", "sliding-rocks", "sliding-mem",
                          "session-rocks", "session-mem", "session-mem-long"})
        h.output(t, s, l);
    close_inputs(h);
    h.finish();
}

TEST_CASE("session_emit_on_close_segment_jump") {
    streams_builder b;
    auto g = b.stream<str, ostr>("in").group_by_key();
    const auto w = session_windows::of_inactivity_gap_with_no_grace(300ms);
    show_to(g.windowed_by(w).emit_strategy(emit_strategy::on_window_close()).count(materialized<>::as("session-rocks")),
            "session-rocks");
    show_to(g.windowed_by(w).emit_strategy(emit_strategy::on_window_close()).count(
                materialized<>::as("session-mem-long").with_in_memory_store().with_retention(5min)),
            "session-mem-long");
    harness h("session_emit_on_close_segment_jump", b.build());
    h.input("in", s, s).output("session-rocks", s, l).output("session-mem-long", s, l);
    for (const auto& [key, ts] : {std::pair{"a", 59000}, {"b", 59800}, {"a", 200000}, {"b", 200100}, {"c", 201000}})
        h.pipe("in", S(key), S("x"), ts);
    h.finish();
}

TEST_CASE("window_emit_on_close_uncached_jump") {
    // Kafka Streams loses finals here (recovery by recomputation does not: tests/dsl).
    streams_builder b;
    auto g = b.stream<str, ostr>("in").group_by_key();
    const auto close = emit_strategy::on_window_close();
    const auto tumbling = time_windows::of_size_with_no_grace(1000ms);
    show_to(g.windowed_by(tumbling).emit_strategy(close).count(materialized<>::as("tumbling-rocks").with_caching_disabled()),
            "tumbling-rocks");
    show_to(g.windowed_by(tumbling).emit_strategy(close).count(
                materialized<>::as("tumbling-mem").with_in_memory_store().with_caching_disabled()),
            "tumbling-mem");
    show_to(g.windowed_by(tumbling).emit_strategy(close).count(
                materialized<>::as("tumbling-mem-long").with_in_memory_store().with_retention(1h).with_caching_disabled()),
            "tumbling-mem-long");
    show_to(g.windowed_by(time_windows::of_size_and_grace(1000ms, 300ms))
                .emit_strategy(close)
                .count(materialized<>::as("graced-rocks").with_caching_disabled()),
            "graced-rocks");
    const auto hopping = time_windows::of_size_with_no_grace(1000ms).advance_by(500ms);
    show_to(g.windowed_by(hopping).emit_strategy(close).count(materialized<>::as("hopping-rocks").with_caching_disabled()),
            "hopping-rocks");
    show_to(g.windowed_by(hopping).emit_strategy(close).count(
                materialized<>::as("hopping-mem").with_in_memory_store().with_caching_disabled()),
            "hopping-mem");
    const auto sliding = sliding_windows::of_time_difference_with_no_grace(1000ms);
    show_to(g.windowed_by(sliding).emit_strategy(close).count(materialized<>::as("sliding-rocks")), "sliding-rocks");
    show_to(g.windowed_by(sliding).emit_strategy(close).count(
                materialized<>::as("sliding-mem-long").with_in_memory_store().with_retention(1h)),
            "sliding-mem-long");
    harness h("window_emit_on_close_uncached_jump", b.build());
    h.input("in", s, s);
    for (const char* t : {"tumbling-rocks", "tumbling-mem", "tumbling-mem-long", "graced-rocks", "hopping-rocks", "hopping-mem",
                          "sliding-rocks", "sliding-mem-long"})
        h.output(t, s, l);
    for (const auto& [key, ts] : {std::pair{"a", 58100}, {"b", 58900}, {"a", 59200}, {"b", 60400}, {"a", 61700},
                                  {"b", 62300}, {"a", 300050}, {"b", 300600}, {"a", 301500}, {"c", 900000}})
        h.pipe("in", S(key), S("x"), ts);
    h.finish();
}

TEST_CASE("reduce_inherits_value_serde") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key(grouped<>{}.with_value_serde(reversed_serde{}));
    auto plus = [](const str& x, const str& y) { return x + "+" + y; };
    g.reduce(plus).to_stream().to("out");
    g.windowed_by(time_windows::of_size_with_no_grace(10ms)).reduce(plus).to_stream()
        .select_key([](const windowed<str>& w, const str&) { return show(w); })
        .to("out-window");
    g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(10ms)).reduce(plus).to_stream()
        .select_key([](const windowed<str>& w, const str&) { return show(w); })
        .to("out-session");
    harness h("reduce_inherits_value_serde", b.build());
    h.input("in", s, s).output("out", s, s).output("out-window", s, s).output("out-session", s, s);
    h.pipe("in", S("a"), S("ab"), 1);
    h.pipe("in", S("a"), S("cd"), 2);
    h.pipe("in", S("b"), S("ef"), 15);
    h.finish();
}

}  // TEST_SUITE
