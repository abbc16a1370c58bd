#include <doctest/doctest.h>

#include <kstreams/state/stores.hpp>
#include <kstreams/test/topology_test_driver.hpp>
#include <kstreams/topology.hpp>

using namespace kstreams;

namespace {
struct upper_case : processor<std::string, std::string, std::string, std::string> {
    void process(const record<std::string, std::string>& r) override {
        std::string v = r.value;
        for (auto& c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        context().forward(r.with_value(v));
    }
};

struct counting : processor<std::string, std::string, std::string, std::int64_t> {
    key_value_store<std::string, std::int64_t>* store = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        store = &ctx.get_state_store<key_value_store<std::string, std::int64_t>>("counts");
    }
    void process(const record<std::string, std::string>& r) override {
        const std::int64_t n = store->get(r.key).value_or(0) + 1;
        store->put(r.key, n);
        context().forward(r.with_value(n));
    }
};
}  // namespace

TEST_CASE("a processor transforms and forwards to a sink") {
    topology t;
    t.add_source<std::string, std::string>("src", {"in"})
        .add_processor("upper", [] { return std::make_unique<upper_case>(); }, {"src"})
        .add_sink<std::string, std::string>("sink", "out", {"upper"});
    test::topology_test_driver driver(t);
    auto in = driver.create_input_topic<std::string, std::string>("in");
    auto out = driver.create_output_topic<std::string, std::string>("out");
    in.pipe_input("k", "hello", 42);
    auto r = out.read_record();
    CHECK(r.key == "k");
    CHECK(r.value == "HELLO");
    CHECK(r.timestamp == 42);
    CHECK(out.is_empty());
    CHECK_THROWS_AS(out.read_value(), test::empty_topic_error);
}

TEST_CASE("a processor counts in a connected key-value store") {
    topology t;
    t.add_source<std::string, std::string>("src", {"in"})
        .add_processor("count", [] { return std::make_unique<counting>(); }, {"src"})
        .add_state_store(stores::key_value_store_builder<std::string, std::int64_t>(stores::in_memory_key_value_store("counts")),
                         {"count"})
        .add_sink<std::string, std::int64_t>("sink", "out", {"count"});
    test::topology_test_driver driver(t);
    auto in = driver.create_input_topic<std::string, std::string>("in");
    auto out = driver.create_output_topic<std::string, std::int64_t>("out");
    in.pipe_input("a", "x", 1);
    in.pipe_input("a", "y", 2);
    in.pipe_input("b", "z", 3);
    CHECK(out.read_key_values_to_map() == std::map<std::string, std::int64_t>{{"a", 2}, {"b", 1}});
    CHECK(driver.get_key_value_store<std::string, std::int64_t>("counts").get("a") == 2);
}
