// Conformance: versioned tables, written as java/.../VersionedScenarios.java writes them, compared
// with Java Kafka Streams' outputs.
#include <doctest/doctest.h>

#include <chrono>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using type::l;
using type::s;

namespace {
str show(const std::optional<str>& v) { return v ? *v : str("null"); }

materialized<> versioned(const str& name, std::chrono::milliseconds retention) {
    return materialized<>::as(stores::persistent_versioned_key_value_store(name, retention));
}

void versioned_inputs(harness& h) {
    h.pipe("in", S("a"), S("v1"), 10);
    h.pipe("in", S("a"), S("v2"), 20);
    h.pipe("in", S("a"), S("v0"), 15);
    h.pipe("in", S("a"), S("v2b"), 20);
    h.pipe("in", S("b"), S("w1"), 30);
    h.pipe("in", S("a"), null, 25);
    h.pipe("in", S("a"), S("v3"), 22);
    h.pipe("in", S("a"), S("v4"), 5);
    h.pipe("in", S("a"), S("v5"), 10);
    h.pipe("in", S("c"), null, 31);
    h.pipe("in", null, S("n"), 32);
    h.pipe("in", S("a"), S("xv6"), 40);
    h.pipe("in", S("a"), S("v7"), 35);
    h.pipe("in", S("b"), null, 12);
    h.pipe("in", S("b"), S("w2"), 21);
    h.pipe("in", S("b"), S("xw3"), 41);
    h.pipe("in", S("b"), S("w4"), 36);
}

void versioned_sides(harness& h) {
    h.pipe("left", S("a"), S("L1"), 10);
    h.pipe("right", S("a"), S("R1"), 12);
    h.pipe("left", S("a"), S("L0"), 5);
    h.pipe("right", S("a"), S("R0"), 11);
    h.pipe("left", S("a"), S("L2"), 20);
    h.pipe("right", S("b"), S("R2"), 21);
    h.pipe("left", S("b"), S("xL3"), 22);
    h.pipe("left", S("b"), S("L4"), 15);
    h.pipe("right", S("a"), null, 30);
    h.pipe("right", S("a"), S("R3"), 25);
    h.pipe("left", S("a"), null, 31);
    h.pipe("left", S("a"), S("L5"), 28);
    h.pipe("left", S("c"), S("L6"), 2);
    h.pipe("left", S("b"), S("L7"), 40);
    h.pipe("right", S("b"), null, 35);
    h.pipe("left", S("b"), S("xL8"), 39);
}

void as_of_orders(harness& h) {
    h.pipe("users", S("alice"), S("paris"), 10);
    h.pipe("users", S("alice"), S("oslo"), 20);
    h.pipe("orders", S("alice"), S("o1"), 5);
    h.pipe("orders", S("alice"), S("o2"), 15);
    h.pipe("orders", S("alice"), S("o3"), 25);
    h.pipe("users", S("alice"), null, 30);
    h.pipe("orders", S("alice"), S("o4"), 35);
    h.pipe("orders", S("alice"), S("o5"), 22);
    h.pipe("users", S("alice"), S("rome"), 17);
    h.pipe("orders", S("alice"), S("o6"), 18);
    h.pipe("orders", S("alice"), S("o7"), 16);
    h.pipe("users", S("bob"), S("lima"), 40);
    h.pipe("orders", S("bob"), S("o8"), 45);
    h.pipe("orders", S("alice"), S("o9"), 5);
    h.pipe("orders", S("bob"), S("o10"), 9);
    h.pipe("users", S("carol"), S("kiev"), 1);
    h.pipe("orders", S("carol"), S("o11"), 50);
    h.pipe("users", S("carol"), S("york"), 45);
    h.pipe("orders", S("carol"), S("o12"), 100);
    h.pipe("users", S("dave"), S("nice"), 60);
    h.pipe("orders", S("dave"), S("o13"), 20);
    h.pipe("orders", S("dave"), S("o14"), 70);
    h.pipe("orders", null, S("o15"), 71);
    h.pipe("orders", S("alice"), null, 72);
    h.pipe("orders", S("erin"), S("o16"), 73);
}
void grace_orders(harness& h) {
    h.pipe("users", S("alice"), S("paris"), 10);
    h.pipe("orders", S("alice"), S("o1"), 12, {"h=1"});
    h.pipe("users", S("alice"), S("oslo"), 14);
    h.pipe("orders", S("bob"), S("o2"), 15);
    h.pipe("orders", S("alice"), S("o3"), 11);
    h.pipe("orders", S("alice"), S("o4"), 25);
    h.pipe("users", S("bob"), S("rome"), 13);
    h.pipe("orders", S("bob"), S("o5"), 30);
    h.pipe("orders", S("carol"), S("o6"), 3);
    h.pipe("orders", S("bob"), S("o7"), 26);
    h.pipe("orders", S("alice"), S("o8"), 26);
    h.pipe("orders", S("alice"), S("o9"), 26);
    h.pipe("users", S("alice"), S("rome"), 27);
    h.pipe("orders", S("alice"), S("o10"), 40);
    h.pipe("orders", S("alice"), null, 42);
    h.pipe("orders", S("dave"), S("o11"), 100);
}
}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("versioned_table_source") {
    streams_builder b;
    auto t = b.table<str, str>("in", versioned("vstore", 20ms));
    t.to_stream().to("out");
    t.filter([](const str& v) { return v.rfind("x", 0) != 0; }).to_stream().to("out-filter");
    t.map_values([](const str& v) { return static_cast<std::int64_t>(v.size()); }).to_stream().to("out-len");
    harness h("versioned_table_source", b.build());
    h.input("in", s, s).output("out", s, s).output("out-filter", s, s).output("out-len", s, l)
        .output("conformance-vstore-changelog", s, s);
    versioned_inputs(h);
    h.finish();
}

TEST_CASE("versioned_table_ops") {
    streams_builder b;
    auto left = b.table<str, str>("left", versioned("lstore", 20ms));
    auto right = b.table<str, str>("right", versioned("rstore", 20ms));
    left.join(right, [](const str& a, const str& c) { return a + "+" + c; }).to_stream().to("out-join");
    left.left_join(right, [](const str& a, const std::optional<str>& c) { return a + "+" + show(c); }).to_stream().to("out-left");
    auto keep = [](const str& v) { return v.rfind("x", 0) != 0; };
    left.filter(keep, versioned("fstore", 20ms)).to_stream().to("out-fv");
    left.filter(keep, materialized<>::as("fplain").with_caching_disabled()).to_stream().to("out-fp");
    left.group_by([](const str&, const str& v) { return key_value<str, str>{v.substr(0, 1), v}; })
        .count()
        .to_stream()
        .to("out-count");
    harness h("versioned_table_ops", b.build());
    h.input("left", s, s).input("right", s, s).output("out-join", s, s).output("out-left", s, s).output("out-fv", s, s)
        .output("out-fp", s, s).output("out-count", s, l);
    versioned_sides(h);
    h.finish();
}

TEST_CASE("versioned_stream_table_join") {
    streams_builder b;
    auto users = b.table<str, str>("users", versioned("users", 30ms));
    auto orders = b.stream<str, str>("orders");
    orders.join(users, [](const str& k, const str& o, const str& u) { return k + ":" + o + "@" + u; }).to("out");
    orders.left_join(users, [](const str& o, const std::optional<str>& u) { return o + "@" + show(u); }).to("out-left");
    auto upper = users.map_values([](str v) {
        for (char& c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return v;
    });
    orders.left_join(upper, [](const str& o, const std::optional<str>& u) { return o + "^" + show(u); }).to("out-view");
    harness h("versioned_stream_table_join", b.build());
    h.input("orders", s, s).input("users", s, s).output("out", s, s).output("out-left", s, s).output("out-view", s, s);
    as_of_orders(h);
    h.finish();
}

TEST_CASE("versioned_join_grace") {
    streams_builder b;
    auto users = b.table<str, str>("users", versioned("users", 100ms));
    auto orders = b.stream<str, str>("orders");
    orders.join(users, [](const str& k, const str& o, const str& u) { return k + ":" + o + "@" + u; },
                joined<>{}.with_grace_period(10ms))
        .to("out");
    orders.left_join(users, [](const str& o, const std::optional<str>& u) { return o + "@" + show(u); },
                     joined<>::as("graceful").with_grace_period(5ms))
        .to("out-left");
    harness h("versioned_join_grace", b.build());
    h.input("orders", s, s).input("users", s, s).output("out", s, s).output("out-left", s, s);
    grace_orders(h);
    h.finish();
}

}  // TEST_SUITE
