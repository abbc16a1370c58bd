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

}  // TEST_SUITE
