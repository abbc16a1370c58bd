// Every wiring mistake throws topology_error when the topology is validated (describe(), the test
// driver, the runtime), and the message names the node (and the store or topic) at fault.
#include <doctest/doctest.h>

#include <kstreams/state/stores.hpp>
#include <kstreams/test/topology_test_driver.hpp>
#include <kstreams/topology.hpp>

using namespace kstreams;

namespace {
using str = std::string;

struct pass : processor<str, str, str, str> {
    void process(const record<str, str>& r) override { context().forward(r); }
};
struct takes_numbers : processor<str, std::int64_t, str, std::int64_t> {
    void process(const record<str, std::int64_t>& r) override { context().forward(r); }
};
auto pass_supplier() {
    return [] { return std::make_unique<pass>(); };
}
auto store(const std::string& name) {
    return stores::key_value_store_builder<str, str>(stores::in_memory_key_value_store(name));
}

/// The message of the topology_error validate() throws; fails the test if it does not throw.
std::string error_of(const topology& t) {
    try {
        t.validate();
    } catch (const topology_error& e) {
        return e.what();
    }
    FAIL("validate() did not throw");
    return {};
}

void check_mentions(const std::string& message, std::initializer_list<const char*> words) {
    INFO("message: " << message);
    CHECK(message.rfind("Invalid topology: ", 0) == 0);
    for (const char* w : words) CHECK(message.find(w) != std::string::npos);
}
}  // namespace

TEST_CASE("a valid topology validates") {
    topology t;
    t.add_source<str, str>("src", {"in"}).add_processor("p", pass_supplier(), {"src"}).add_sink<str, str>("out", "o", {"p"});
    CHECK_NOTHROW(t.validate());
}

TEST_CASE("two nodes with one name") {
    topology t;
    t.add_source<str, str>("src", {"in"}).add_processor("twice", pass_supplier(), {"src"}).add_sink<str, str>("twice", "o", {"src"});
    check_mentions(error_of(t), {"twice", "already added"});
}

TEST_CASE("a parent that does not exist") {
    topology t;
    t.add_source<str, str>("src", {"in"}).add_processor("p", pass_supplier(), {"nowhere"});
    check_mentions(error_of(t), {"nowhere", "p"});
}

TEST_CASE("a sink used as a parent") {
    topology t;
    t.add_source<str, str>("src", {"in"}).add_sink<str, str>("sink-1", "o", {"src"}).add_processor("after-sink", pass_supplier(), {"sink-1"});
    check_mentions(error_of(t), {"Sink sink-1 cannot be used as a parent", "after-sink"});
}

TEST_CASE("a node that is its own parent") {
    topology t;
    t.add_source<str, str>("src", {"in"}).add_processor("selfish", pass_supplier(), {"src", "selfish"});
    check_mentions(error_of(t), {"Processor selfish cannot be a predecessor of itself"});
}

TEST_CASE("a parent named twice") {
    topology t;
    t.add_source<str, str>("src", {"in"}).add_processor("p", pass_supplier(), {"src", "src"});
    check_mentions(error_of(t), {"Processor p", "src", "twice"});
}

TEST_CASE("a cycle is reported with the nodes on it") {
    topology t;
    t.add_source<str, str>("src", {"in"})
        .add_processor("a", pass_supplier(), {"src", "c"})
        .add_processor("b", pass_supplier(), {"a"})
        .add_processor("c", pass_supplier(), {"b"});
    check_mentions(error_of(t), {"cycle", "a -> b -> c -> a"});
}

TEST_CASE("a child whose input type differs from what its parent forwards") {
    topology t;
    t.add_source<str, str>("src", {"in"}).add_processor("numbers", [] { return std::make_unique<takes_numbers>(); }, {"src"});
    check_mentions(error_of(t), {"Processor numbers", "src", "long", "basic_string"});
}

TEST_CASE("a sink whose types differ from its parent's") {
    topology t;
    t.add_source<str, str>("src", {"in"}).add_sink<str, std::int64_t>("typed-sink", "o", {"src"});
    check_mentions(error_of(t), {"Sink typed-sink", "src"});
}

TEST_CASE("a store that was never added") {
    topology t;
    t.add_source<str, str>("src", {"in"}).add_processor("p", pass_supplier(), {"src"}, {"ghost-store"});
    check_mentions(error_of(t), {"StateStore ghost-store is not added", "processor p"});

    topology u;
    u.add_source<str, str>("src", {"in"}).add_processor("p", pass_supplier(), {"src"}).connect_processor_and_state_stores("p", {"ghost"});
    check_mentions(error_of(u), {"ghost", "p"});
}

TEST_CASE("a store connected to a processor that does not exist") {
    topology t;
    t.add_source<str, str>("src", {"in"}).add_state_store(store("s"), {"no-such-processor"});
    check_mentions(error_of(t), {"Processor no-such-processor is not added", "store s"});
}

TEST_CASE("a store connected to a source or a sink") {
    topology t;
    t.add_source<str, str>("source-1", {"in"}).add_state_store(store("s"), {"source-1"});
    check_mentions(error_of(t), {"state store s", "source source-1"});

    topology u;
    u.add_source<str, str>("src", {"in"}).add_sink<str, str>("sink-1", "o", {"src"}).add_state_store(store("s"), {"sink-1"});
    check_mentions(error_of(u), {"state store s", "sink sink-1"});
}

TEST_CASE("connecting a processor to no stores at all") {
    topology t;
    t.add_source<str, str>("src", {"in"}).add_processor("p", pass_supplier(), {"src"}).connect_processor_and_state_stores("p", {});
    check_mentions(error_of(t), {"processor p", "at least one state store"});
}

TEST_CASE("two different stores with one name; the same builder twice is fine") {
    topology t;
    t.add_source<str, str>("src", {"in"}).add_processor("p", pass_supplier(), {"src"}).add_state_store(store("dup"), {"p"}).add_state_store(store("dup"));
    check_mentions(error_of(t), {"A different StateStore has already been added with the name dup"});

    auto shared = std::make_shared<const key_value_store_builder<str, str>>(store("same"));
    topology u;
    u.add_source<str, str>("src", {"in"}).add_processor("p", pass_supplier(), {"src"}).add_processor("q", pass_supplier(), {"src"});
    u.add_state_store(shared, {"p"}).add_state_store(shared, {"q"});
    CHECK_NOTHROW(u.validate());
}

TEST_CASE("a topic read by two sources") {
    topology t;
    t.add_source<str, str>("first", {"shared-topic"}).add_source<str, str>("second", {"other", "shared-topic"});
    check_mentions(error_of(t), {"Topic shared-topic has already been registered", "first", "second"});
}

TEST_CASE("a pattern that matches a topic another source reads, and the reverse") {
    topology t;
    t.add_source<str, str>("by-name", {"foo"}).add_source_pattern<str, str>("by-pattern", "f.*");
    check_mentions(error_of(t), {"Pattern f.*", "by-pattern", "foo", "by-name"});

    topology u;
    u.add_source_pattern<str, str>("by-pattern", "f.*").add_source<str, str>("by-name", {"foo"});
    check_mentions(error_of(u), {"Topic foo", "by-name", "f.*", "by-pattern"});
}

TEST_CASE("an invalid regular expression names the source") {
    topology t;
    t.add_source<str, str>("by-name", {"foo"}).add_source_pattern<str, str>("broken", "f(");
    check_mentions(error_of(t), {"broken", "f("});
}

TEST_CASE("a source without topics") {
    topology t;
    t.add_source<str, str>("empty-source", {});
    check_mentions(error_of(t), {"source empty-source", "at least one topic"});
}

TEST_CASE("a processor not connected to any source (no parents)") {
    topology t;
    t.add_source<str, str>("src", {"in"}).add_processor("orphan", pass_supplier(), {});
    check_mentions(error_of(t), {"Processor orphan", "not connected to any source"});
}

TEST_CASE("describe() and the test driver validate too") {
    topology t;
    t.add_source<str, str>("src", {"in"}).add_processor("p", pass_supplier(), {"missing"});
    CHECK_THROWS_AS(t.describe(), topology_error);
    CHECK_THROWS_AS(test::topology_test_driver{t}, topology_error);
}

namespace {
struct asks_for_store : processor<str, str, str, str> {
    void init(context_type& ctx) override {
        processor::init(ctx);
        ctx.get_state_store<key_value_store<str, str>>("store");
    }
    void process(const record<str, str>&) override {}
};
}  // namespace

TEST_CASE("a processor that asks at init for a store it is not connected to") {
    // Kafka's TopologyTest.shouldThrowOnUnassignedStateStoreAccess: goodGuy is connected, badGuy not.
    topology t;
    t.add_source<str, str>("source", {"topic"})
        .add_processor("goodGuy", [] { return std::make_unique<asks_for_store>(); }, {"source"})
        .add_state_store(store("store"), {"goodGuy"})
        .add_processor("badGuy", [] { return std::make_unique<asks_for_store>(); }, {"source"});
    CHECK_NOTHROW(t.validate());
    std::string message;
    try {
        test::topology_test_driver driver(t);
    } catch (const topology_error& e) {
        message = e.what();
    }
    INFO(message);
    CHECK(message.find("processor badGuy") != std::string::npos);
    CHECK(message.find("store store") != std::string::npos);
}

TEST_CASE("a processor that asks for a store that does not exist anywhere") {
    topology t;
    t.add_source<str, str>("source", {"topic"}).add_processor("lonely", [] { return std::make_unique<asks_for_store>(); }, {"source"});
    std::string message;
    try {
        test::topology_test_driver driver(t);
    } catch (const topology_error& e) {
        message = e.what();
    }
    INFO(message);
    CHECK(message.find("processor lonely") != std::string::npos);
    CHECK(message.find("store") != std::string::npos);
}
