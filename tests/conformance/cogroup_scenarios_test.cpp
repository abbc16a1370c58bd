// Conformance: cogroup (KIP-150), written as java/.../CogroupScenarios.java writes it, compared with
// Java Kafka Streams' outputs: streams of different value types into one aggregate, one re-keyed
// through a repartition topic, unwindowed and over time, sliding and session windows.
#include <doctest/doctest.h>

#include <cstdint>
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
using olong = std::optional<std::int64_t>;
using type::l;
using type::s;

namespace {

void inputs(harness& h) {
    h.pipe("in1", S("a"), S("x1"), 1);
    h.pipe("in2", S("a"), L(5), 2);
    h.pipe("in3", S("k1"), S("a3"), 3);
    h.pipe("in1", S("b"), S("y4"), 4);
    h.pipe("in2", S("b"), null, 5);
    h.pipe("in1", null, S("n6"), 6);
    h.pipe("in3", S("k2"), S("b7"), 7);
    h.pipe("in1", S("a"), S("x12"), 12);
    h.pipe("in2", S("a"), L(13), 13);
    h.pipe("in1", S("a"), S("x3"), 3);
    h.pipe("in2", S("b"), L(30), 30);
    h.pipe("in1", S("a"), S("x20"), 20);
    h.pipe("in1", S("b"), S("y41"), 41);
    h.pipe("in2", S("a"), L(1), 1);
}

str show_long(const olong& v) { return v ? std::to_string(*v) : str("null"); }

auto plus = [](const str&, const ostr& v, const str& agg) { return agg + "+" + show(v); };
auto hash = [](const str&, const olong& v, const str& agg) { return agg + "#" + show_long(v); };
auto at = [](const str&, const ostr& v, const str& agg) { return agg + "@" + show(v); };
auto first_letter = [](const ostr&, const ostr& v) { return v->substr(0, 1); };

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("cogroup_unwindowed") {
    streams_builder b;
    auto g1 = b.stream<str, ostr>("in1").group_by_key();
    auto g2 = b.stream<str, olong>("in2").group_by_key();
    auto g3 = b.stream<str, ostr>("in3").select_key(first_letter).group_by_key();
    g1.cogroup(plus).cogroup(g2, hash).cogroup(g3, at).aggregate([] { return str(); }).to_stream().to("out");
    g2.cogroup([](const str&, const olong& v, std::int64_t agg) { return agg + *v; })
        .cogroup(g1, [](const str&, const ostr& v, std::int64_t agg) { return agg + static_cast<std::int64_t>(v->size()); })
        .aggregate([] { return std::int64_t{100}; }, named::as("sums"), materialized<>::as("sums-store"))
        .to_stream()
        .to("out-sums");
    harness h("cogroup_unwindowed", b.build());
    h.input("in1", s, s).input("in2", s, l).input("in3", s, s).output("out", s, s).output("out-sums", s, l);
    inputs(h);
    h.finish();
}

TEST_CASE("cogroup_windowed") {
    streams_builder b;
    auto g1 = b.stream<str, ostr>("in1").group_by_key();
    auto g2 = b.stream<str, olong>("in2").group_by_key();
    auto g3 = b.stream<str, ostr>("in3").select_key(first_letter).group_by_key(grouped<>::as("rekeyed"));
    auto init = [] { return str(); };
    show_to(g1.cogroup(plus).cogroup(g2, hash).cogroup(g3, at).windowed_by(time_windows::of_size_and_grace(10ms, 5ms)).aggregate(init),
            "out-tumbling");
    show_to(g1.cogroup(plus).cogroup(g2, hash).windowed_by(sliding_windows::of_time_difference_and_grace(10ms, 5ms)).aggregate(init),
            "out-sliding");
    show_to(g1.cogroup(plus)
                .cogroup(g2, hash)
                .windowed_by(session_windows::of_inactivity_gap_and_grace(10ms, 5ms))
                .aggregate(init, [](const str&, const str& x, const str& y) { return x + "|" + y; }, named::as("sessions")),
            "out-session");
    harness h("cogroup_windowed", b.build());
    h.input("in1", s, s).input("in2", s, l).input("in3", s, s);
    h.output("out-tumbling", s, s).output("out-sliding", s, s).output("out-session", s, s);
    inputs(h);
    h.finish();
}

}  // TEST_SUITE
