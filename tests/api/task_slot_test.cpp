// task_context::task_slot: state the processors of one task share (as both sides of a
// stream-stream join share their time tracker), made once per task and typed.
#include <doctest/doctest.h>

#include <kstreams/detail/topology_writer.hpp>
#include <kstreams/error.hpp>
#include <kstreams/test/topology_test_driver.hpp>
#include <kstreams/topology.hpp>

using namespace kstreams;

namespace {
using str = std::string;
using str_record = record<str, str>;

/// Counts every record it sees in the task's slot "seen" (of type Count) and forwards the count.
template <class Count>
struct slot_counter final : detail::node {
    using node::node;
    Count* seen = nullptr;
    void init(detail::task_context& ctx) override {
        node::init(ctx);
        seen = &ctx.task_slot<Count>("seen");
    }
    void process_erased(const void* p) override {
        const auto& r = *static_cast<const str_record*>(p);
        *seen += 1;
        forward(str_record{r.key, std::to_string(static_cast<long long>(*seen)), r.timestamp});
    }
};

template <class Count>
void add_counter(topology& t, const str& name) {
    detail::node_def def;
    def.name = name;
    def.parents = {"src"};
    def.in_type = typeid(str_record);
    def.out_type = typeid(str_record);
    def.make = [name] { return std::make_unique<slot_counter<Count>>(name); };
    detail::topology_writer::add_node(t, std::move(def));
}
}  // namespace

TEST_CASE("two processors of a task share one slot, made once") {
    topology t;
    t.add_source<str, str>("src", {"in"});
    add_counter<int>(t, "first");
    add_counter<int>(t, "second");
    t.add_sink<str, str>("out-first", "first", {"first"}).add_sink<str, str>("out-second", "second", {"second"});
    test::topology_test_driver driver(t);
    auto in = driver.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 1);
    in.pipe_input("b", "y", 2);
    // Each record reaches "first" then "second": both count into the same value.
    CHECK(driver.create_output_topic<str, str>("first").read_values_to_list() == std::vector<str>{"1", "3"});
    CHECK(driver.create_output_topic<str, str>("second").read_values_to_list() == std::vector<str>{"2", "4"});
}

TEST_CASE("a slot asked for as two types is a topology error naming it") {
    topology t;
    t.add_source<str, str>("src", {"in"});
    add_counter<int>(t, "as-int");
    add_counter<double>(t, "as-double");
    CHECK_THROWS_WITH_AS(test::topology_test_driver{t}, doctest::Contains("task slot seen"), topology_error);
}
