// Conformance: windowed stream-stream joins, written as java/.../JoinScenarios.java writes them,
// compared with Java Kafka Streams' outputs.
#include <doctest/doctest.h>

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
}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("stream_join_inner") {
    streams_builder b;
    auto l = b.stream<str, str>("left");
    auto r = b.stream<str, str>("right");
    l.join(r, [](const str& a, const str& c) { return a + "+" + c; }, join_windows::of_time_difference_and_grace(10ms, 5ms))
        .to("out");
    harness h("stream_join_inner", b.build());
    h.input("left", s, s).input("right", s, s).output("out", s, s);
    h.pipe("left", S("a"), S("L1"), 100);
    h.pipe("right", S("a"), S("R1"), 90);
    h.pipe("right", S("a"), S("R2"), 110);
    h.pipe("right", S("a"), S("R3"), 111);
    h.pipe("left", S("a"), S("L2"), 105);
    h.pipe("right", S("b"), S("R4"), 100);
    h.pipe("right", S("b"), S("R4"), 100);
    h.pipe("left", S("b"), S("L3"), 95);
    h.pipe("left", null, S("L4"), 100);
    h.pipe("right", S("a"), null, 100);
    h.pipe("right", S("c"), S("R5"), 200);
    h.pipe("left", S("a"), S("L5"), 104);
    h.pipe("right", S("a"), S("R6"), 101);
    h.pipe("left", S("a"), S("L6"), 102);
    h.finish();
}

TEST_CASE("stream_join_rekeyed_asymmetric") {
    streams_builder b;
    auto l = b.stream<str, str>("left").select_key([](const str& v) { return v.substr(0, 1); });
    auto r = b.stream<str, str>("right");
    l.join(r, [](const str& k, const str& a, const str& c) { return k + ":" + a + "+" + c; },
           join_windows::of_time_difference_with_no_grace(0ms).after(5ms))
        .to("out");
    harness h("stream_join_rekeyed_asymmetric", b.build());
    h.input("left", s, s).input("right", s, s).output("out", s, s);
    h.pipe("left", S("x"), S("a1"), 100);
    h.pipe("right", S("a"), S("R99"), 99);
    h.pipe("right", S("a"), S("R105"), 105);
    h.pipe("right", S("a"), S("R106"), 106);
    h.pipe("left", S("y"), S("a2"), 101);
    h.pipe("right", S("b"), S("Rb"), 50);
    h.pipe("left", S("z"), S("b1"), 45);
    h.pipe("left", S("z"), S("b2"), 50);
    h.finish();
}

TEST_CASE("stream_join_left") {
    streams_builder b;
    auto l = b.stream<std::optional<str>, str>("left");
    auto r = b.stream<std::optional<str>, str>("right");
    l.left_join(r, [](const str& a, const std::optional<str>& c) { return a + "+" + show(c); },
                join_windows::of_time_difference_with_no_grace(10ms))
        .to("out");
    harness h("stream_join_left", b.build());
    h.input("left", s, s).input("right", s, s).output("out", s, s);
    h.pipe("left", S("a"), S("L1"), 100);
    h.pipe("left", S("b"), S("L2"), 105);
    h.pipe("right", S("b"), S("R1"), 108);
    h.pipe("right", S("c"), S("R2"), 120);
    h.pipe("left", S("d"), S("L3"), 125);
    h.pipe("left", S("e"), S("L4"), 90);
    h.pipe("left", null, S("L5"), 130);
    h.pipe("right", null, S("R3"), 130);
    h.pipe("left", S("a"), S("L6"), 200);
    h.finish();
}

TEST_CASE("stream_join_left_rekeyed_null_keys") {
    using okey = std::optional<str>;
    streams_builder b;
    auto l = b.stream<str, str>("left").select_key([](const str& v) -> okey {
        if (v.rfind("n", 0) == 0) return std::nullopt;
        return v.substr(0, 1);
    });
    auto r = b.stream<okey, str>("right");
    l.left_join(r, [](const okey& k, const str& a, const std::optional<str>& c) { return show(k) + ":" + a + "+" + show(c); },
                join_windows::of_time_difference_with_no_grace(10ms), stream_joined<>::as("st").with_name("lj"))
        .to("out");
    harness h("stream_join_left_rekeyed_null_keys", b.build());
    h.input("left", s, s).input("right", s, s).output("out", s, s);
    h.pipe("right", S("a"), S("R1"), 10);
    h.pipe("left", S("x"), S("a1"), 12);
    h.pipe("left", S("y"), S("n1"), 13);
    h.pipe("left", S("z"), S("b1"), 14);
    h.pipe("right", S("q"), S("R2"), 40);
    h.pipe("left", S("w"), S("a2"), 41);
    h.finish();
}

TEST_CASE("stream_join_outer_named") {
    streams_builder b;
    auto l = b.stream<str, str>("left");
    auto r = b.stream<str, str>("right");
    l.outer_join(r, [](const std::optional<str>& a, const std::optional<str>& c) { return show(a) + "+" + show(c); },
                 join_windows::of_time_difference_and_grace(10ms, 3ms),
                 stream_joined_with(serde<str>{}, serde<str>{}, serde<str>{}).with_name("j").with_store_name("js"))
        .to("out");
    harness h("stream_join_outer_named", b.build());
    h.input("left", s, s).input("right", s, s).output("out", s, s);
    h.pipe("right", S("r"), S("R1"), 100);
    h.pipe("left", S("l"), S("L1"), 101);
    h.pipe("left", S("m"), S("L2"), 102);
    h.pipe("right", S("m"), S("R2"), 103);
    h.pipe("left", S("z"), S("Z"), 130);
    h.pipe("right", S("late"), S("R3"), 110);
    h.pipe("left", S("late2"), S("L3"), 116);
    h.finish();
}

}  // TEST_SUITE
