// Conformance: issue D's last foreign-key join checks, written as java/.../JoinD12Scenarios.java
// writes them, compared with Java Kafka Streams' outputs: the subscription store's changelog
// (bytes, timestamps, headers), stale responses dropped and counted, out-of-order updates of
// versioned tables on either side, streams_builder::add_global_store, stream_joined's store
// suppliers, aggregations onto versioned stores.
#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <string>

#include <kstreams/dsl.hpp>
#include <kstreams/processor.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/state/window_stores.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using type::s;
using type::x;

namespace {
str show(const std::optional<str>& v) { return v ? *v : str("null"); }
str left_joined(const str& o, const std::optional<str>& c) { return o + "/" + show(c); }
str inner_joined(const str& o, const str& c) { return o + "/" + c; }

/// A global store's update processor: keeps the value upper-cased, deletes on null.
struct upper_into_store final : processor<str, str, str, str> {
    explicit upper_into_store(str name) : name(std::move(name)) {}
    str name;
    key_value_store<str, str>* store = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        store = &ctx.get_state_store<key_value_store<str, str>>(name);
    }
    void process(const record<str, str>& r) override {
        if (has_null_value(r)) {
            store->remove(r.key);
            return;
        }
        str v = r.value;
        for (char& c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        store->put(r.key, v);
    }
};

/// A stream processor reading both global stores without being connected to them.
struct look_up final : processor<str, str, str, str> {
    key_value_store<str, str>* codes = nullptr;
    key_value_store<str, str>* names = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        codes = &ctx.get_state_store<key_value_store<str, str>>("codes");
        names = &ctx.get_state_store<key_value_store<str, str>>("names");
    }
    void process(const record<str, str>& r) override {
        context().forward(r.with_value(show(codes->get(r.value)) + "," + show(names->get(r.value))));
    }
};
/// What kstreams says of a join within 10 ms, grace 5, with `sj`, in the words Kafka's message
/// begins with ("accepted" if nothing).
template <class SJ>
str refusal(const SJ& sj) {
    streams_builder b;
    try {
        b.stream<str, str>("left").join(b.stream<str, str>("right"), inner_joined,
                                        join_windows::of_time_difference_and_grace(10ms, 5ms), sj);
        return "accepted";
    } catch (const topology_error& e) {
        const str m = e.what();
        for (const str k : {"Window settings mismatch", "The StoreSupplier must set retainDuplicates=true, found retainDuplicates=false",
                            "Both StoreSuppliers have the same name.  StoreSuppliers must provide unique names"})
            if (m.rfind(k, 0) == 0) return k;
        return m;
    }
}
}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("aggregate_versioned_store") {
    streams_builder b;
    auto in = b.stream<str, str>("in");
    in.group_by_key().count(materialized<>::as(stores::persistent_versioned_key_value_store("counts", 50ms))).to_stream().to("out-count");
    in.group_by_key()
        .reduce([](const str& a, const str& v) { return a + "+" + v; },
                materialized<>::as(stores::persistent_versioned_key_value_store("reduced", 50ms)))
        .to_stream()
        .to("out-reduce");
    b.table<str, str>("users")
        .group_by([](const str& u, const str& r) { return std::pair<str, str>(r, u); })
        .count(materialized<>::as(stores::persistent_versioned_key_value_store("per-region", 50ms)))
        .to_stream()
        .to("out-region");
    harness h("aggregate_versioned_store", b.build());
    h.input("in", s, s).input("users", s, s).output("out-count", s, type::l).output("out-reduce", s, s).output("out-region", s, type::l);
    h.pipe("in", S("a"), S("1"), 10);
    h.pipe("in", S("a"), S("2"), 20);
    h.pipe("in", S("a"), S("3"), 15);
    h.pipe("in", S("b"), S("4"), 5);
    h.pipe("in", S("a"), S("5"), 100);
    h.pipe("in", S("a"), S("6"), 30);
    h.pipe("in", S("c"), S("7"), 10);
    h.pipe("in", S("c"), S("8"), 11);
    h.pipe("in", S("a"), null, 101);
    h.pipe("users", S("alice"), S("eu"), 10);
    h.pipe("users", S("bob"), S("eu"), 20);
    h.pipe("users", S("alice"), S("us"), 15);
    h.pipe("users", S("bob"), null, 30);
    h.pipe("users", S("carol"), S("eu"), 5);
    h.pipe("users", S("dave"), S("asia"), 150);
    h.pipe("users", S("erin"), S("eu"), 40);
    h.pipe("users", S("fred"), S("af"), 60);
    h.dropped();
    h.finish();
}

TEST_CASE("stream_joined_store_suppliers") {
    streams_builder b;
    auto left = b.stream<str, str>("left");
    auto right = b.stream<str, str>("right");
    auto mine = stores::in_memory_window_store("mine", 25ms, 20ms, true);
    auto theirs = stores::persistent_window_store("theirs", 25ms, 20ms, true);
    left.left_join(right, [](const str& l, const std::optional<str>& r) { return l + "+" + show(r); },
                   join_windows::of_time_difference_and_grace(10ms, 5ms),
                   stream_joined_with(serde<str>{}, serde<str>{}, serde<str>{}).with_this_store_supplier(mine).with_other_store_supplier(theirs))
        .to("out");
    harness h("stream_joined_store_suppliers", b.build());
    h.input("left", s, s)
        .input("right", s, s)
        .output("out", s, s)
        .output("conformance-mine-changelog", x, x)
        .output("conformance-theirs-changelog", x, x);
    h.pipe("left", S("a"), S("L1"), 10, {"h=1"});
    h.pipe("right", S("a"), S("R1"), 15);
    h.pipe("left", S("b"), S("L2"), 20);
    h.pipe("right", S("a"), S("R2"), 40);
    h.pipe("left", S("c"), S("L3"), 60);
    auto with = [](std::shared_ptr<const window_bytes_store_supplier> t, std::shared_ptr<const window_bytes_store_supplier> o) {
        return stream_joined<>{}.with_this_store_supplier(std::move(t)).with_other_store_supplier(std::move(o));
    };
    h.line("! retention " + refusal(with(stores::in_memory_window_store("x", 30ms, 20ms, true), nullptr)));
    h.line("! size " + refusal(with(stores::in_memory_window_store("x", 25ms, 10ms, true), nullptr)));
    h.line("! duplicates " + refusal(with(stores::in_memory_window_store("x", 25ms, 20ms, false), nullptr)));
    h.line("! other duplicates " + refusal(with(nullptr, stores::in_memory_window_store("x", 25ms, 20ms, false))));
    h.line("! same names " + refusal(with(stores::in_memory_window_store("x", 25ms, 20ms, true),
                                          stores::persistent_window_store("x", 25ms, 20ms, true))));
    h.line("! matching " + refusal(with(stores::in_memory_window_store("x", 25ms, 20ms, true),
                                        stores::persistent_window_store("y", 25ms, 20ms, true))));
    h.finish();
}

TEST_CASE("builder_add_global_store") {
    streams_builder b;
    b.add_global_store<str, str>(stores::key_value_store_builder<str, str>(stores::in_memory_key_value_store("codes")),
                                 "codes-topic", consumed<>{}, [] { return std::make_unique<upper_into_store>("codes"); });
    auto names = stores::key_value_store_builder<str, str>(stores::persistent_key_value_store("names"));
    names.with_logging_enabled();
    b.add_global_store<str, str>(names, "names-topic", consumed<>{}.with_name("names-in"),
                                 [] { return std::make_unique<upper_into_store>("names"); });
    b.stream<str, str>("in").process([] { return std::make_unique<look_up>(); }).to("out");
    harness h("builder_add_global_store", b.build());
    h.input("codes-topic", s, s).input("names-topic", s, s).input("in", s, s).output("out", s, s);
    h.pipe("codes-topic", S("a"), S("alpha"), 1);
    h.pipe("names-topic", S("a"), S("ann"), 2);
    h.pipe("in", S("k1"), S("a"), 3);
    h.pipe("codes-topic", S("a"), null, 4);
    h.pipe("names-topic", S("b"), S("bob"), 5);
    h.pipe("in", S("k2"), S("a"), 6);
    h.pipe("in", S("k3"), S("b"), 7);
    h.finish();
}

TEST_CASE("fk_subscription_store_changelog") {
    streams_builder b;
    auto orders = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    orders.left_join(customers, fk, left_joined, table_joined<>::as("fk")).to_stream().to("out");
    harness h("fk_subscription_store_changelog", b.build());
    h.input("orders", s, s)
        .input("customers", s, s)
        .output("out", s, s)
        .output("conformance-fk-subscription-store-changelog", x, x)
        .output("conformance-orders-STATE-STORE-0000000000-changelog", s, s);
    h.pipe("customers", S("c1"), S("Alice"), 5, {"from=customers"});
    h.pipe("orders", S("o1"), S("c1:apple"), 10, {"from=orders", "n=1"});
    h.pipe("orders", S("o2"), S("c2:pear"), 11);
    h.pipe("orders", S("o1"), S("c1:plum"), 12, {"from=update"});
    h.pipe("customers", S("c1"), S("Alicia"), 13, {"from=customer-update"});
    h.pipe("orders", S("o1"), S("c2:apple"), 14, {"from=move"});
    h.pipe("orders", S("o2"), null, 15, {"from=delete"});
    h.pipe("orders", S("o3"), S("none"), 16, {"from=nofk"});
    h.pipe("orders", S("o1"), null, 17);
    h.finish();
}

TEST_CASE("fk_subscription_store_changelog_inner") {
    streams_builder b;
    auto orders = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    orders.join(customers, fk, inner_joined, table_joined<>::as("fk")).to_stream().to("out");
    harness h("fk_subscription_store_changelog_inner", b.build());
    h.input("orders", s, s)
        .input("customers", s, s)
        .output("out", s, s)
        .output("conformance-fk-subscription-store-changelog", x, x);
    h.pipe("customers", S("c1"), S("Alice"), 5);
    h.pipe("orders", S("o1"), S("c1:apple"), 10, {"h=1"});
    h.pipe("orders", S("o1"), S("none"), 11, {"h=2"});
    h.pipe("orders", S("o1"), S("c1:fig"), 12, {"h=3"});
    h.pipe("orders", S("o1"), null, 13, {"h=4"});
    h.pipe("orders", S("o2"), null, 14, {"h=5"});
    h.dropped();
    h.finish();
}

TEST_CASE("fk_stale_response_dropped") {
    streams_builder b;
    auto orders = b.stream<str, str>("orders")
                      .flat_map_values([](const str& v) { return split(v, ','); })
                      .to_table(materialized_with(serde<str>{}, serde<str>{}).with_caching_disabled());
    auto customers = b.table<str, str>("customers");
    orders.left_join(customers, fk, left_joined).to_stream().to("out");
    orders.join(customers, fk, inner_joined).to_stream().to("out-inner");
    harness h("fk_stale_response_dropped", b.build());
    h.input("orders", s, s).input("customers", s, s).output("out", s, s).output("out-inner", s, s);
    h.pipe("customers", S("c1"), S("Alice"), 1);
    h.pipe("customers", S("c2"), S("Bob"), 2);
    h.pipe("orders", S("o1"), S("c1:apple,c1:plum"), 10);
    h.dropped();
    h.pipe("orders", S("o1"), S("c1:fig,c2:fig"), 11);
    h.dropped();
    h.pipe("orders", S("o2"), S("c2:kiwi,none,c1:kiwi"), 12);
    h.dropped();
    h.pipe("customers", S("c1"), S("Alicia"), 13);
    h.dropped();
    h.finish();
}

TEST_CASE("fk_join_versioned_out_of_order") {
    auto versioned = [](const str& name) {
        return materialized<>::as(stores::persistent_versioned_key_value_store(name, 100ms));
    };
    streams_builder b;
    auto orders = b.table<str, str>("orders", versioned("orders-v"));
    auto customers = b.table<str, str>("customers", versioned("customers-v"));
    orders.left_join(customers, fk, left_joined).to_stream().to("out");
    harness h("fk_join_versioned_out_of_order", b.build());
    h.input("orders", s, s).input("customers", s, s).output("out", s, s);
    h.pipe("customers", S("c1"), S("Alice"), 10);
    h.pipe("orders", S("o1"), S("c1:apple"), 20);
    h.pipe("orders", S("o1"), S("c2:old"), 15);
    h.dropped();
    h.pipe("customers", S("c1"), S("Old"), 5);
    h.dropped();
    h.pipe("customers", S("c1"), S("Alicia"), 30);
    h.pipe("orders", S("o1"), null, 12);
    h.dropped();
    h.pipe("customers", S("c1"), null, 8);
    h.dropped();
    h.pipe("orders", S("o1"), S("c1:plum"), 40);
    h.finish();
}

}  // TEST_SUITE
