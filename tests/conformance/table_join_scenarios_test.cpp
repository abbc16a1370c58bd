// Conformance: stream-table joins, written as java/.../TableJoinScenarios.java writes them, compared
// with Java Kafka Streams' outputs.
#include <doctest/doctest.h>

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using str = std::string;
using okey = std::optional<str>;
using type::l;
using type::s;

namespace {
str show(const std::optional<str>& v) { return v ? *v : str("null"); }

/// TableJoinScenarios.orders: rows arriving, changing and deleted between stream records.
void orders(harness& h) {
    h.pipe("orders", S("alice"), S("o1"), 10);
    h.pipe("users", S("alice"), S("paris"), 20);
    h.pipe("orders", S("alice"), S("o2"), 15);
    h.pipe("users", S("bob"), S("rome"), 5);
    h.pipe("orders", S("bob"), S("o3"), 30);
    h.pipe("users", S("alice"), S("oslo"), 40);
    h.pipe("orders", S("alice"), S("o4"), 35);
    h.pipe("orders", null, S("o5"), 36);
    h.pipe("orders", S("bob"), null, 37);
    h.pipe("users", S("bob"), null, 50);
    h.pipe("orders", S("bob"), S("o6"), 45);
    h.pipe("users", null, S("nowhere"), 51);
    h.pipe("users", S("carol"), S("lima"), 52);
    h.pipe("orders", S("carol"), S("o7"), 1);
    h.pipe("orders", S("alice"), S("xo8"), 60);
}
}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("stream_table_join_inner") {
    streams_builder b;
    auto users = b.table<str, str>("users");
    b.stream<str, str>("orders").join(users, [](const str& k, const str& o, const str& u) { return k + ":" + o + "@" + u; }).to("out");
    harness h("stream_table_join_inner", b.build());
    h.input("orders", s, s).input("users", s, s).output("out", s, s);
    orders(h);
    h.finish();
}

TEST_CASE("stream_table_join_left") {
    streams_builder b;
    auto users = b.table<str, str>("users");
    b.stream<str, str>("orders").left_join(users, [](const str& o, const std::optional<str>& u) { return o + "@" + show(u); }).to("out");
    harness h("stream_table_join_left", b.build());
    h.input("orders", s, s).input("users", s, s).output("out", s, s);
    orders(h);
    h.finish();
}

TEST_CASE("stream_table_join_views") {
    streams_builder b;
    auto users = b.table<str, str>("users", materialized<>::as("users-store"));
    auto lengths = users.filter([](const str& v) { return v.rfind("o", 0) != 0; }).map_values([](const str& v) {
        return static_cast<std::int64_t>(v.size());
    });
    lengths.to_stream().to("lengths");
    auto orders_stream = b.stream<str, str>("orders");
    orders_stream.join(lengths, [](const str& o, std::int64_t n) { return o + "#" + std::to_string(n); }).to("out");
    orders_stream.left_join(users.filter_not([](const str& v) { return v.rfind("r", 0) == 0; }),
                            [](const str& o, const std::optional<str>& u) { return o + "@" + show(u); })
        .to("out-left");
    harness h("stream_table_join_views", b.build());
    h.input("orders", s, s).input("users", s, s).output("out", s, s).output("out-left", s, s).output("lengths", s, l);
    orders(h);
    h.finish();
}

TEST_CASE("stream_table_join_materialized_view") {
    streams_builder b;
    auto users = b.table<str, str>("users");
    auto upper = users.map_values(
        [](str v) {
            for (char& c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            return v;
        },
        materialized<>::as("upper-store").with_value_serde(serde<str>{}));
    auto unmat = users.filter([](const str& v) { return v.size() > 4; });
    auto orders_stream = b.stream<str, str>("orders");
    orders_stream.join(upper, [](const str& o, const str& u) { return o + "@" + u; }).to("out");
    orders_stream.join(unmat, [](const str& o, const str& u) { return o + "~" + u; }).to("out-long");
    harness h("stream_table_join_materialized_view", b.build());
    h.input("orders", s, s).input("users", s, s).output("out", s, s).output("out-long", s, s);
    orders(h);
    h.finish();
}

TEST_CASE("stream_table_join_rekeyed") {
    streams_builder b;
    auto users = b.table<okey, str>("users");
    auto by_user = b.stream<okey, std::optional<str>>("orders").select_key([](const okey& k, const std::optional<str>& v) -> okey {
        if (v && v->rfind("x", 0) == 0) return std::nullopt;
        return k;
    });
    by_user.join(users, [](const std::optional<str>& o, const str& u) { return show(o) + "@" + u; }).to("out");
    by_user
        .left_join(users,
                   [](const okey& k, const std::optional<str>& o, const std::optional<str>& u) {
                       return show(k) + ":" + show(o) + "@" + show(u);
                   },
                   joined<>::as("enrich").with_key_serde(serde<okey>{}).with_value_serde(serde<std::optional<str>>{}))
        .to("out-left");
    harness h("stream_table_join_rekeyed", b.build());
    h.input("orders", s, s).input("users", s, s).output("out", s, s).output("out-left", s, s);
    orders(h);
    h.finish();
}

namespace {
/// TableJoinScenarios.sides: two tables updated in turn.
void sides(harness& h) {
    h.pipe("left", S("a"), S("L1"), 10);
    h.pipe("right", S("a"), S("R1"), 5);
    h.pipe("right", S("b"), S("R2"), 20);
    h.pipe("left", S("a"), S("L2"), 8);
    h.pipe("right", S("a"), S("R3"), 30);
    h.pipe("left", S("b"), S("L3"), 25);
    h.pipe("left", S("c"), S("L4"), 26);
    h.pipe("right", S("c"), null, 27);
    h.pipe("left", S("a"), null, 40);
    h.pipe("right", S("a"), null, 41);
    h.pipe("right", S("a"), S("R4"), 42);
    h.pipe("left", null, S("L5"), 43);
    h.pipe("right", null, S("R5"), 44);
    h.pipe("right", S("b"), null, 45);
    h.pipe("left", S("b"), null, 46);
    h.pipe("left", S("d"), null, 47);
    h.pipe("right", S("c"), S("R6"), 3);
    h.pipe("left", S("c"), S("xL7"), 50);
}
using ostr = std::optional<str>;
}  // namespace

TEST_CASE("table_table_join_kinds") {
    streams_builder b;
    auto lt = b.table<str, str>("left");
    auto rt = b.table<str, str>("right");
    lt.join(rt, [](const str& x, const str& y) { return x + "+" + y; }).to_stream().to("out-inner");
    lt.left_join(rt, [](const str& x, const ostr& y) { return x + "+" + show(y); }).to_stream().to("out-left");
    lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); }).to_stream().to("out-outer");
    harness h("table_table_join_kinds", b.build());
    h.input("left", s, s).input("right", s, s).output("out-inner", s, s).output("out-left", s, s).output("out-outer", s, s);
    sides(h);
    h.finish();
}

TEST_CASE("table_table_join_materialized") {
    streams_builder b;
    auto lt = b.table<str, str>("left");
    auto rt = b.table<str, str>("right");
    auto inner = lt.join(rt, [](const str& x, const str& y) { return x + "+" + y; }, named::as("tj"),
                         materialized<>::as("tj-store").with_caching_disabled());
    inner.filter([](const str& v) { return v.rfind("L2", 0) != 0; }).to_stream().to("out-inner");
    auto left = lt.left_join(rt, [](const str& x, const ostr& y) { return x + "+" + show(y); },
                             materialized_with(serde<str>{}, serde<str>{}));
    left.to_stream().to("out-left");
    auto outer = lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); });
    outer.group_by([](const str&, const str& v) { return key_value<str, str>{v.substr(0, 1), v}; }, grouped_with(serde<str>{}, serde<str>{}))
        .count()
        .to_stream()
        .to("out-count");
    harness h("table_table_join_materialized", b.build());
    h.input("left", s, s).input("right", s, s).output("out-inner", s, s).output("out-left", s, s).output("out-count", s, l);
    sides(h);
    h.finish();
}

TEST_CASE("table_table_join_views") {
    streams_builder b;
    auto lt = b.table<str, str>("left").filter([](const str& v) { return v.rfind("x", 0) != 0; });
    auto rt = b.table<str, str>("right").map_values([](str v) {
        for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return v;
    });
    auto j = lt.join(rt, [](const str& x, const str& y) { return x + "+" + y; });
    j.to_stream().to("out-inner");
    auto o = lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); });
    o.to_stream().to("out-outer");
    auto third = b.table<str, str>("third");
    j.left_join(third, [](const str& x, const ostr& y) { return x + "/" + show(y); }).to_stream().to("out-chain");
    b.stream<str, str>("orders").join(o, [](const str& v, const str& t) { return v + "@" + t; }).to("out-orders");
    harness h("table_table_join_views", b.build());
    h.input("left", s, s).input("right", s, s).input("third", s, s).input("orders", s, s);
    h.output("out-inner", s, s).output("out-outer", s, s).output("out-chain", s, s).output("out-orders", s, s);
    h.pipe("third", S("a"), S("T1"), 1);
    h.pipe("third", S("c"), S("T2"), 2);
    sides(h);
    h.pipe("orders", S("a"), S("o1"), 60);
    h.pipe("orders", S("c"), S("o2"), 61);
    h.pipe("orders", S("b"), S("o3"), 62);
    h.pipe("third", S("a"), null, 63);
    h.pipe("right", S("c"), S("R7"), 64);
    h.finish();
}

TEST_CASE("table_join_aggregates") {
    streams_builder b;
    auto counts = b.stream<str, str>("clicks").group_by_key().count();
    auto names = b.stream<str, str>("names").to_table();
    b.stream<str, str>("orders")
        .left_join(counts, [](const str& o, const std::optional<std::int64_t>& n) { return o + "#" + (n ? std::to_string(*n) : str("null")); })
        .to("out-orders");
    names.join(counts, [](const str& nm, std::int64_t n) { return nm + "=" + std::to_string(n); }).to_stream().to("out-joined");
    harness h("table_join_aggregates", b.build());
    h.input("clicks", s, s).input("names", s, s).input("orders", s, s).output("out-orders", s, s).output("out-joined", s, s);
    h.pipe("clicks", S("a"), S("c1"), 5);
    h.pipe("orders", S("a"), S("o1"), 6);
    h.pipe("names", S("a"), S("Ann"), 7);
    h.pipe("clicks", S("a"), S("c2"), 8);
    h.pipe("orders", S("b"), S("o2"), 9);
    h.pipe("names", S("b"), S("Bob"), 10);
    h.pipe("clicks", S("b"), S("c3"), 4);
    h.pipe("names", S("a"), null, 11);
    h.pipe("orders", S("a"), S("o3"), 12);
    h.finish();
}

}  // TEST_SUITE
