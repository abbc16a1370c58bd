// Global tables and global stores: what the topology accepts, the test driver's global task, and
// the join's key mapper (record-for-record semantics are in tests/conformance).
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>

#include <kstreams/dsl.hpp>
#include <kstreams/error.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;
using str = std::string;
using ostr = std::optional<str>;

namespace {
struct keep_value final : processor<str, str, str, str> {
    key_value_store<str, str>* store = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        store = &ctx.get_state_store<key_value_store<str, str>>("g");
    }
    void process(const record<str, str>& r) override { store->put(r.key, r.value); }
};
/// A stream processor that reads the global store "g" and then tries to write it.
struct writes_global final : processor<str, str, str, str> {
    key_value_store<str, str>* store = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        store = &ctx.get_state_store<key_value_store<str, str>>("g");
    }
    void process(const record<str, str>& r) override {
        context().forward(record<str, str>{r.key, store->get(r.key).value_or("-"), r.timestamp});
        if (r.value == "write") store->put(r.key, "from a stream processor");
    }
};
struct pass final : processor<str, str, str, str> {
    void process(const record<str, str>& r) override { context().forward(r); }
};

kstreams::key_value_store_builder<str, str> global_builder(bool logging) {
    auto b = stores::key_value_store_builder<str, str>(stores::in_memory_key_value_store("g"));
    if (!logging) b.with_logging_disabled();
    return b;
}
}  // namespace

TEST_CASE("a global store must not be logged, nor connected to a stream processor") {
    {
        topology t;
        t.add_global_store<str, str>(global_builder(true), "gs", "g-topic", "gp", [] { return std::make_unique<keep_value>(); });
        CHECK_THROWS_WITH_AS(t.validate(), doctest::Contains("StateStore g for global table must not have logging enabled"),
                             topology_error);
    }
    {
        topology t;
        t.add_global_store<str, str>(global_builder(false), "gs", "g-topic", "gp", [] { return std::make_unique<keep_value>(); });
        t.add_source<str, str>("src", {"in"});
        t.add_processor("p", [] { return std::make_unique<pass>(); }, {"src"}, {"g"});
        CHECK_THROWS_WITH_AS(t.validate(), doctest::Contains("Global StateStore g can be used by a Processor without being specified"),
                             topology_error);
    }
    {
        topology t;
        t.add_global_store<str, str>(global_builder(false), "gs", "g-topic", "gp", [] { return std::make_unique<keep_value>(); });
        t.add_processor("p", [] { return std::make_unique<pass>(); }, {"gs"});
        CHECK_THROWS_WITH_AS(t.validate(), doctest::Contains("cannot read from gs: it belongs to a global store"), topology_error);
    }
    {
        topology t;
        t.add_global_store<str, str>(global_builder(false), "gs", "in", "gp", [] { return std::make_unique<keep_value>(); });
        t.add_source<str, str>("src", {"in"});
        CHECK_THROWS_WITH_AS(t.validate(), doctest::Contains("Topic in has already been registered"), topology_error);
    }
}

TEST_CASE("the test driver keeps the global store: queryable, listed, updated by records the topology sends to its topic") {
    streams_builder b;
    auto users = b.global_table<str, str>("users", materialized<>::as("users-store").with_in_memory_store());
    b.stream<str, str>("raw-users").to("users");
    b.stream<str, str>("orders")
        .left_join(users, [](const str& k, const str&) { return k; },
                   [](const str& o, const ostr& u) { return o + "@" + u.value_or("-"); })
        .to("out");
    test::topology_test_driver d(b.build());
    auto raw = d.create_input_topic<str, str>("raw-users");
    auto orders = d.create_input_topic<str, str>("orders");
    auto users_in = d.create_input_topic<str, str>("users");
    auto out = d.create_output_topic<str, str>("out");
    CHECK(d.state_store_names() == std::vector<str>{"users-store"});
    raw.pipe_input("alice", "paris", 1);
    orders.pipe_input("alice", "o1", 2);
    CHECK(out.read_value() == "o1@paris");
    users_in.pipe_input("alice", std::nullopt, 3);
    orders.pipe_input("alice", "o2", 4);
    CHECK(out.read_value() == "o2@-");
    users_in.pipe_input("bob", "rome", 5);
    auto& store = d.get_key_value_store<str, str>("users-store");
    CHECK(store.get("bob") == ostr("rome"));
    CHECK_FALSE(store.get("alice"));
}

TEST_CASE("a global store is read only for stream processors, as Kafka's: reads work, a write fails the record") {
    topology t;
    t.add_global_store<str, str>(global_builder(false), "gs", "g-topic", "gp", [] { return std::make_unique<keep_value>(); });
    t.add_source<str, str>("src", {"in"});
    t.add_processor("p", [] { return std::make_unique<writes_global>(); }, {"src"});
    t.add_sink<str, str>("sink", "out", {"p"});
    test::topology_test_driver d(std::move(t));
    auto global_in = d.create_input_topic<str, str>("g-topic");
    auto in = d.create_input_topic<str, str>("in");
    auto out = d.create_output_topic<str, str>("out");
    global_in.pipe_input("a", "from the global topic", 1);
    in.pipe_input("a", "read", 2);
    CHECK(out.read_value() == "from the global topic");
    CHECK_THROWS_WITH_AS(in.pipe_input("a", "write", 3), doctest::Contains("Global store g is read only"), streams_error);
    // The global topic's update processor and a test's own access still write it.
    global_in.pipe_input("b", "updated", 4);
    auto& g = d.get_key_value_store<str, str>("g");
    g.put("c", "put by the test");
    CHECK(g.get("b") == ostr("updated"));
    CHECK(g.get("c") == ostr("put by the test"));
    CHECK(g.get("a") == ostr("from the global topic"));
}
