// Conformance: more windowed stream-stream joins, written as java/.../JoinMoreScenarios.java
// writes them, compared with Java Kafka Streams' outputs: the order of an outer join's unmatched
// records (ties in time, both sides, several keys) as stream time and the wall clock move, many
// partners per key, records inside and after the grace, zero-width and one-sided windows.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using type::s;

namespace {
str show(const std::optional<str>& v) { return v ? *v : str("null"); }
str show(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : str("null"); }
}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("stream_join_outer_emit_order") {
    streams_builder b;
    auto l = b.stream<str, str>("left");
    auto r = b.stream<str, str>("right");
    l.outer_join(r, [](const std::optional<str>& a, const std::optional<str>& c) { return show(a) + "+" + show(c); },
                 join_windows::of_time_difference_with_no_grace(10ms))
        .to("out");
    harness h("stream_join_outer_emit_order", b.build());
    h.input("left", s, s).input("right", s, s).output("out", s, s);
    h.pipe("left", S("b"), S("L1"), 100);
    h.pipe("left", S("a"), S("L2"), 100);
    h.pipe("right", S("c"), S("R1"), 100);
    h.pipe("right", S("a0"), S("R2"), 99);
    h.pipe("left", S("d"), S("L3"), 101);
    h.pipe("right", S("b"), S("R3"), 100);
    h.pipe("right", S("a"), S("R4"), 100);
    h.pipe("left", S("e"), S("L4"), 100);
    h.pipe("right", S("e"), S("R5"), 100);
    h.pipe("left", S("f"), S("L5"), 115);
    h.advance_wall_clock(1000);
    h.pipe("right", S("g"), S("R6"), 121);
    h.pipe("left", S("h"), S("L6"), 111);
    h.advance_wall_clock(1000);
    h.pipe("left", S("i"), S("L7"), 140);
    h.pipe("right", S("i"), S("R7"), 131);
    h.advance_wall_clock(1000);
    h.pipe("right", S("j"), S("R8"), 160);
    h.finish();
}

TEST_CASE("stream_join_left_partners_grace") {
    streams_builder b;
    auto l = b.stream<str, str>("left");
    auto r = b.stream<str, std::int64_t>("right");
    l.left_join(r,
                [](const str& k, const str& a, const std::optional<std::int64_t>& c) { return k + ":" + a + "+" + show(c); },
                join_windows::of_time_difference_and_grace(10ms, 5ms))
        .to("out");
    harness h("stream_join_left_partners_grace", b.build());
    h.input("left", s, s).input("right", s, type::l).output("out", s, s);
    h.pipe("right", S("a"), L(1), 100);
    h.pipe("right", S("a"), L(2), 105);
    h.pipe("right", S("a"), L(3), 95);
    h.pipe("left", S("a"), S("L1"), 100);
    h.pipe("left", S("a"), S("L2"), 103);
    h.pipe("right", S("a"), L(4), 101);
    h.pipe("left", S("a"), S("L3"), 92);
    h.pipe("left", S("a"), S("L4"), 80);
    h.pipe("right", S("a"), L(5), 84);
    h.pipe("left", S("b"), S("L5"), 106);
    h.pipe("left", S("b"), S("L6"), 106);
    h.pipe("right", S("a"), null, 104);
    h.pipe("left", S("a"), null, 104);
    h.pipe("right", S("x"), L(6), 118);
    h.advance_wall_clock(1000);
    h.pipe("right", S("x"), L(7), 125);
    h.pipe("left", S("c"), S("L7"), 126);
    h.advance_wall_clock(1000);
    h.pipe("right", S("x"), L(8), 150);
    h.finish();
}

TEST_CASE("stream_join_zero_window") {
    streams_builder b;
    auto l = b.stream<str, str>("left");
    auto r = b.stream<str, str>("right");
    l.join(r, [](const str& a, const str& c) { return a + "+" + c; }, join_windows::of_time_difference_and_grace(0ms, 2ms))
        .to("same");
    l.left_join(r, [](const str& a, const std::optional<str>& c) { return a + "+" + show(c); },
                join_windows::of_time_difference_with_no_grace(0ms).before(5ms))
        .to("before");
    harness h("stream_join_zero_window", b.build());
    h.input("left", s, s).input("right", s, s).output("same", s, s).output("before", s, s);
    h.pipe("left", S("a"), S("L1"), 10);
    h.pipe("right", S("a"), S("R1"), 10);
    h.pipe("right", S("a"), S("R2"), 11);
    h.pipe("right", S("a"), S("R3"), 6);
    h.pipe("left", S("a"), S("L2"), 11);
    h.pipe("left", S("a"), S("L3"), 9);
    h.pipe("right", S("a"), S("R4"), 9);
    h.pipe("left", S("b"), S("L4"), 20);
    h.pipe("right", S("b"), S("R5"), 15);
    h.pipe("left", S("b"), S("L5"), 20);
    h.advance_wall_clock(1000);
    h.pipe("left", S("z"), S("L6"), 40);
    h.finish();
}

}  // TEST_SUITE
