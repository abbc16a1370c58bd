// Conformance: null keys and repartition topics (a stream repartition's filter drops null-key
// records unless a left/outer join is downstream of it), written as
// java/.../NullKeyScenarios.java writes them; the repartition topics are read as outputs.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using ostr = std::optional<str>;
using type::l;
using type::s;

namespace {
str show(const ostr& v) { return v ? *v : str("null"); }
ostr before_comma(const str& v) {
    const auto at = v.find(',');
    return at == str::npos ? std::nullopt : ostr(v.substr(0, at));
}
/// left and right re-keyed by before_comma, joined by `join` into "out"; reads both repartition topics.
template <class Join>
void both_sides_rekeyed(const str& scenario, Join join, bool one_more) {
    streams_builder b;
    auto left = b.stream<str, str>("left").select_key(before_comma);  // left first: Kafka's names follow call order
    auto right = b.stream<str, str>("right").select_key(before_comma);
    join(left, right).to("out");
    harness h(scenario, b.build());
    h.input("left", s, s).input("right", s, s).output("out", s, s);
    h.output("conformance-KSTREAM-KEY-SELECT-0000000001-repartition", s, s);
    h.output("conformance-KSTREAM-KEY-SELECT-0000000003-repartition", s, s);
    h.pipe("left", S("x"), S("x"), 0);
    h.pipe("left", S("y"), S("a,1"), 1);
    h.pipe("right", S("z"), S("a,2"), 2);
    h.pipe("right", S("w"), S("w"), 3);
    if (one_more) h.pipe("left", S("v"), S("b,3"), 30);
    h.finish();
}
}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("null_keys_inner_join_repartition") {
    both_sides_rekeyed("null_keys_inner_join_repartition", [](auto l, auto r) {
        return l.join(r, [](const str& a, const str& c) { return a + "+" + c; }, join_windows::of_time_difference_and_grace(10ms, 5ms));
    }, false);
}

TEST_CASE("null_keys_outer_join_repartition") {
    both_sides_rekeyed("null_keys_outer_join_repartition", [](auto l, auto r) {
        return l.outer_join(r, [](const ostr& k, const ostr& a, const ostr& c) { return show(k) + ":" + show(a) + "+" + show(c); },
                            join_windows::of_time_difference_and_grace(10ms, 5ms));
    }, true);
}

TEST_CASE("null_keys_left_join_downstream") {
    streams_builder b;
    auto rekeyed = b.stream<str, str>("left").select_key(before_comma);
    auto once = rekeyed.repartition(repartitioned<>::as("through"));
    auto inner = once.join(b.stream<ostr, str>("right"), [](const str& a, const str& c) { return a + "+" + c; },
                           join_windows::of_time_difference_with_no_grace(10ms));
    inner.left_join(b.stream<ostr, str>("third"), [](const str& a, const ostr& c) { return a + "+" + show(c); },
                    join_windows::of_time_difference_with_no_grace(10ms))
        .to("out");
    rekeyed.group_by_key(grouped<>::as("counted")).count().to_stream().to("counts");
    harness h("null_keys_left_join_downstream", b.build());
    h.input("left", s, s).input("right", s, s).input("third", s, s).output("out", s, s).output("counts", s, l);
    h.output("conformance-through-repartition", s, s).output("conformance-counted-repartition", s, s);
    h.pipe("left", S("x"), S("x"), 0);
    h.pipe("right", S("a"), S("R"), 1);
    h.pipe("left", S("y"), S("a,1"), 2);
    h.pipe("third", S("q"), S("T"), 3);
    h.pipe("left", S("z"), S("z"), 40);
    h.finish();
}

}  // TEST_SUITE
