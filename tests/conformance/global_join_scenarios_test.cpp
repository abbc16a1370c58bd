// Conformance: stream-global-table joins and global stores, written as
// java/.../GlobalJoinScenarios.java writes them, compared with Java Kafka Streams' outputs.
#include <doctest/doctest.h>

#include <cctype>
#include <memory>
#include <optional>
#include <string>

#include <kstreams/dsl.hpp>
#include <kstreams/state/stores.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using str = std::string;
using ostr = std::optional<str>;
using type::s;

namespace {
str show(const ostr& v) { return v ? *v : str("null"); }

/// GlobalJoinScenarios.USER_OF: "user:item" -> user; no ':' -> null.
ostr user_of(const str& v) {
    const auto i = v.find(':');
    if (i == str::npos) return std::nullopt;
    return v.substr(0, i);
}

/// GlobalJoinScenarios.orders.
void orders(harness& h) {
    h.pipe("orders", S("k1"), S("alice:o1"), 10);
    h.pipe("users", S("alice"), S("paris"), 20);
    h.pipe("orders", S("k2"), S("alice:o2"), 15);
    h.pipe("orders", null, S("alice:o3"), 16);
    h.pipe("orders", S("k4"), S("nobody"), 17);
    h.pipe("orders", S("k5"), null, 18);
    h.pipe("users", S("bob"), S("rome"), 5);
    h.pipe("orders", S("k6"), S("bob:o6"), 30);
    h.pipe("users", S("alice"), S("oslo"), 40);
    h.pipe("orders", S("k7"), S("alice:o7"), 35);
    h.pipe("users", S("bob"), null, 50);
    h.pipe("orders", S("k8"), S("bob:o8"), 45);
    h.pipe("users", null, S("nowhere"), 51);
    h.pipe("orders", S("k9"), S(":o9"), 52);
    h.pipe("users", S(""), S("empty"), 53);
    h.pipe("orders", S("k10"), S(":o10"), 54);
    h.pipe("users", S("carol"), S("lima"), 1);
    h.pipe("orders", S("k11"), S("carol:o11"), 2);
}

/// GlobalJoinScenarios.UpperUpdater: keeps the upper-cased value; a null value deletes.
struct upper_updater final : processor<ostr, ostr, ostr, ostr> {
    key_value_store<str, str>* store = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        store = &ctx.get_state_store<key_value_store<str, str>>("global-kv");
    }
    void process(const record<ostr, ostr>& r) override {
        if (!r.key) return;
        if (!r.value) {
            store->remove(*r.key);
            return;
        }
        str v = *r.value;
        for (char& c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        store->put(*r.key, v);
    }
};

/// GlobalJoinScenarios.Lookup: reads the global store it is not connected to.
struct lookup final : processor<ostr, str, ostr, str> {
    key_value_store<str, str>* store = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        store = &ctx.get_state_store<key_value_store<str, str>>("global-kv");
    }
    void process(const record<ostr, str>& r) override {
        ostr row = r.key ? store->get(*r.key) : std::nullopt;
        context().forward(r.with_value(r.value + "@" + show(row)));
    }
};
}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("global_table_join_inner") {
    streams_builder b;
    auto users = b.global_table<str, str>("users");
    b.stream<ostr, str>("orders")
        .join(users, [](const ostr&, const str& v) { return user_of(v); },
              [](const ostr& k, const str& o, const str& u) { return show(k) + ":" + o + "@" + u; })
        .to("out");
    harness h("global_table_join_inner", b.build());
    h.input("orders", s, s).input("users", s, s).output("out", s, s);
    orders(h);
    h.finish();
}

TEST_CASE("global_table_join_left") {
    streams_builder b;
    auto users = b.global_table<str, str>("users");
    b.stream<ostr, str>("orders")
        .left_join(users, [](const str& v) { return user_of(v); },
                   [](const str& o, const ostr& u) { return o + "@" + show(u); })
        .to("out");
    harness h("global_table_join_left", b.build());
    h.input("orders", s, s).input("users", s, s).output("out", s, s);
    orders(h);
    h.finish();
}

TEST_CASE("global_table_join_rekeyed") {
    streams_builder b;
    auto orders_stream = b.stream<ostr, ostr>("orders");
    auto users = b.global_table<str, str>("users", materialized<>::as("users-store"));
    auto by_item = orders_stream.select_key([](const ostr&, const ostr& v) -> ostr {
        if (!v) return std::nullopt;
        return v->substr(v->find(':') + 1);
    });
    by_item
        .join(users, [](const ostr& v) { return v ? user_of(*v) : std::nullopt; },
              [](const ostr& o, const str& u) { return show(o) + "@" + u; }, named::as("enrich"))
        .to("out");
    by_item
        .left_join(users, [](const ostr& k, const ostr&) { return k; },
                   [](const ostr& k, const ostr& o, const ostr& u) { return show(k) + ":" + show(o) + "@" + show(u); })
        .to("out-left");
    harness h("global_table_join_rekeyed", b.build());
    h.input("orders", s, s).input("users", s, s).output("out", s, s).output("out-left", s, s);
    orders(h);
    h.pipe("users", S("o2"), S("item-row"), 60);
    h.pipe("orders", S("k12"), S("x:o2"), 61);
    h.finish();
}

TEST_CASE("global_store_processor") {
    topology t;
    auto store = stores::key_value_store_builder<str, str>(stores::in_memory_key_value_store("global-kv"));
    store.with_logging_disabled();
    t.add_global_store<ostr, ostr>(std::move(store), "global-source", "users", "global-updater",
                                   [] { return std::make_unique<upper_updater>(); });
    t.add_source<ostr, str>("src", {"orders"});
    t.add_processor("lookup", [] { return std::make_unique<lookup>(); }, {"src"});
    t.add_sink<ostr, str>("sink", "out", {"lookup"});
    harness h("global_store_processor", std::move(t));
    h.input("orders", s, s).input("users", s, s).output("out", s, s);
    h.pipe("orders", S("alice"), S("o1"), 10);
    h.pipe("users", S("alice"), S("paris"), 20);
    h.pipe("orders", S("alice"), S("o2"), 15);
    h.pipe("users", S("alice"), null, 30);
    h.pipe("orders", S("alice"), S("o3"), 31);
    h.pipe("users", null, S("x"), 32);
    h.pipe("orders", null, S("o4"), 33);
    h.finish();
}

}  // TEST_SUITE
