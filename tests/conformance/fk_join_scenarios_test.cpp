// Conformance: foreign-key table-table joins (KIP-213), written as java/.../FkJoinScenarios.java
// writes them, compared with Java Kafka Streams' outputs (the internal topics' bytes included).
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using str = std::string;
using type::l;
using type::s;
using type::x;

namespace {
str show(const std::optional<str>& v) { return v ? *v : str("null"); }

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("fk_join_inner") {
    streams_builder b;
    auto orders_table = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    orders_table.join(customers, fk, [](const str& o, const str& c) { return o + "/" + c; }).to_stream().to("out");
    harness h("fk_join_inner", b.build());
    h.input("orders", s, s).input("customers", s, s).output("out", s, s);
    fk_orders(h);
    h.finish();
}

TEST_CASE("fk_join_left") {
    streams_builder b;
    auto orders_table = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    orders_table.left_join(customers, fk, [](const str& o, const std::optional<str>& c) { return o + "/" + show(c); })
        .to_stream()
        .to("out");
    harness h("fk_join_left", b.build());
    h.input("orders", s, s).input("customers", s, s).output("out", s, s);
    fk_orders(h);
    h.finish();
}

TEST_CASE("fk_join_wire") {
    streams_builder b;
    auto orders_table = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    auto joined = orders_table.left_join(
        customers, [](const str& k, const str& v) { return k == "o6" ? std::nullopt : fk(v); },
        [](const str& o, const std::optional<str>& c) { return o + "/" + show(c); }, table_joined<>::as("fk"),
        materialized<>::as("fk-result").with_caching_disabled());
    joined.to_stream().to("out");
    harness h("fk_join_wire", b.build());
    h.input("orders", s, s)
        .input("customers", s, s)
        .output("out", s, s)
        .output("conformance-fk-subscription-registration-topic", s, x)
        .output("conformance-fk-subscription-response-topic", s, x);
    fk_orders(h);
    h.finish();
}

TEST_CASE("fk_join_views") {
    streams_builder b;
    auto orders_table = b.table<str, str>("orders").map_values([](str v) {
        for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return v;
    });
    auto customers = b.table<str, str>("customers").filter([](const str&, const str& v) { return v.rfind("Bo", 0) != 0; });
    auto joined = orders_table.join(customers, fk, [](const str& o, const str& c) { return o + "/" + c; },
                                    materialized_with(serde<str>{}, serde<str>{}));
    joined.filter([](const str&, const str& v) { return v.find("fig") == str::npos; }).to_stream().to("out");
    auto notes = b.table<str, str>("notes");
    joined.join(notes, [](const str& j, const str& n) { return j + "+" + n; }).to_stream().to("out-notes");
    harness h("fk_join_views", b.build());
    h.input("orders", s, s).input("customers", s, s).input("notes", s, s).output("out", s, s).output("out-notes", s, s);
    h.pipe("notes", S("o1"), S("n1"), 1);
    h.pipe("notes", S("o4"), S("n4"), 2);
    fk_orders(h);
    h.finish();
}

TEST_CASE("fk_join_headers") {
    streams_builder b;
    auto orders_table = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    orders_table.left_join(customers, fk, [](const str& o, const std::optional<str>& c) { return o + "/" + show(c); })
        .to_stream()
        .to("out");
    harness h("fk_join_headers", b.build());
    h.input("orders", s, s).input("customers", s, s).output("out", s, s);
    h.pipe("customers", S("c1"), S("Alice"), 5, {"from=customers"});
    h.pipe("orders", S("o1"), S("c1:apple"), 10, {"from=orders", "n=1"});
    h.pipe("orders", S("o2"), S("c2:pear"), 11);
    h.pipe("customers", S("c1"), S("Alicia"), 12, {"from=update"});
    h.pipe("orders", S("o1"), S("c2:apple"), 13, {"from=move"});
    h.pipe("orders", S("o2"), null, 14, {"from=delete"});
    h.finish();
}

TEST_CASE("fk_join_optimized") {
    streams_builder b;
    auto orders_table = b.stream<str, str>("orders").group_by_key().reduce([](const str&, const str& v) { return v; });
    auto customers = b.table<str, str>("customers");
    orders_table.left_join(customers, fk, [](const str& o, const std::optional<str>& c) { return o + "/" + show(c); })
        .to_stream()
        .to("out");
    const std::map<str, str> props{{"topology.optimization", "all"}};
    harness h("fk_join_optimized", b.build(props), props);
    h.input("orders", s, s).input("customers", s, s).output("out", s, s);
    fk_orders(h);
    h.finish();
}

TEST_CASE("fk_join_long_keys") {
    streams_builder b;
    auto items = b.table<std::int64_t, str>("items");
    auto shops = b.table<std::int64_t, str>("shops");
    items
        .join(shops, [](const str& v) { return static_cast<std::int64_t>(std::stoll(v.substr(0, v.find(':')))); },
              [](const str& i, const str& s) { return i + "@" + s; }, table_joined<>::as("shop"))
        .to_stream()
        .to("out");
    harness h("fk_join_long_keys", b.build());
    h.input("items", l, s)
        .input("shops", l, s)
        .output("out", l, s)
        .output("conformance-shop-subscription-registration-topic", x, x)
        .output("conformance-shop-subscription-response-topic", x, x);
    h.pipe("shops", L(1), S("north"), 1);
    h.pipe("items", L(10), S("1:hat"), 2);
    h.pipe("items", L(11), S("2:cap"), 3);
    h.pipe("shops", L(2), S("south"), 4);
    h.pipe("items", L(10), S("2:hat"), 5);
    h.pipe("shops", L(2), S("west"), 6);
    h.pipe("items", L(11), null, 7);
    h.finish();
}

}  // TEST_SUITE
