// ktable::suppress through the test driver: the buffer restored from its changelog after a
// restart, the strict/eager buffer types, Kafka's error for window close on a table without
// windows, a join reading a suppressed table, the buffer's store and changelog config.
#include <doctest/doctest.h>

#include <map>
#include <type_traits>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "window_rows.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {
using window_rows::rows;
using window_rows::read;
using window_rows::final_counts;


// The buffer config kinds are types: until_window_closes takes a strict one only.
static_assert(!std::is_convertible_v<eager_buffer_config, strict_buffer_config>);
static_assert(std::is_same_v<decltype(buffer_config::max_records(1)), eager_buffer_config>);
static_assert(std::is_same_v<decltype(buffer_config::max_records(1).shut_down_when_full()), strict_buffer_config>);
static_assert(std::is_same_v<decltype(buffer_config::unbounded().with_max_bytes(10)), strict_buffer_config>);
static_assert(std::is_same_v<decltype(buffer_config::unbounded().emit_early_when_full()), eager_buffer_config>);
}  // namespace

TEST_CASE("a suppress buffer is restored from its changelog: what it held is emitted after a restart") {
    std::map<std::string, std::vector<test::produced_record>> changelogs;
    {
        topology t = final_counts();
        test::topology_test_driver d(t);
        auto in = d.create_input_topic<str, str>("in");
        in.pipe_input("a", "x", 1);
        in.pipe_input("b", "x", 3);
        in.pipe_input("a", "x", 7);
        in.pipe_input("a", "x", 12);
        CHECK(read(d).empty());  // [0,10) closes at stream time 15
        changelogs = d.changelog_records();
    }
    REQUIRE(changelogs.count("test-app-final-store-changelog") == 1);
    const auto& log = changelogs.at("test-app-final-store-changelog");
    REQUIRE_FALSE(log.empty());
    CHECK(log.front().timestamp == -1);  // no timestamp of its own: the producer stamps it
    REQUIRE(log.front().headers.last("v") != nullptr);
    CHECK(log.front().headers.last("v")->value == std::string(1, '\x03'));

    topology t = final_counts();
    test::driver_config cfg;
    cfg.changelogs = changelogs;
    test::topology_test_driver d(t, cfg);
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("c", "x", 16);
    CHECK(read(d) == rows{{"a@0/10", 2, 7}, {"b@0/10", 1, 3}});
    in.pipe_input("c", "x", 30);
    CHECK(read(d) == rows{{"a@10/20", 1, 12}, {"c@10/20", 1, 16}});
}

TEST_CASE("a buffer without logging has no changelog") {
    streams_builder b;
    b.table<str, str>("in")
        .suppress(suppressed::until_time_limit(5ms, buffer_config::max_bytes(1000).with_logging_disabled()))
        .to_stream()
        .to("out");
    topology t = b.build();
    bool found = false;
    for (const auto& s : t.model().stores)
        if (s.builder->name() == "KTABLE-SUPPRESS-STATE-STORE-0000000004") {
            found = true;
            CHECK_FALSE(s.builder->logging_enabled());
        }
    CHECK(found);
}

TEST_CASE("until_window_closes on a table without windowed aggregation upstream is Kafka's error") {
    streams_builder b;
    auto t = b.table<windowed<str>, str>("in");
    CHECK_THROWS_WITH_AS(t.suppress(suppressed::until_window_closes(buffer_config::unbounded())),
                         doctest::Contains("Window close time is only defined for windowed computations"), topology_error);
}

TEST_CASE("a join reads a suppressed table as last emitted: a buffered key's prior value") {
    streams_builder b;
    auto t = b.table<str, str>("t").suppress(suppressed::until_time_limit(100ms, buffer_config::unbounded()));
    b.stream<str, str>("s").join(t, [](const str& l, const str& r) { return l + "=" + r; }).to("out");
    topology topo = b.build();
    test::topology_test_driver d(topo);
    auto ti = d.create_input_topic<str, str>("t");
    auto si = d.create_input_topic<str, str>("s");
    auto out = d.create_output_topic<str, str>("out");
    ti.pipe_input("a", "1", 10);  // buffered; its prior value is null: the table shows no row yet
    si.pipe_input("a", "x", 11);
    CHECK(out.is_empty());
    ti.pipe_input("b", "2", 120);  // emits a=1
    ti.pipe_input("a", "3", 130);  // buffered again; the join still sees 1
    si.pipe_input("a", "y", 131);
    CHECK(out.read_value() == "y=1");
    si.pipe_input("b", "z", 132);  // b is buffered with no prior value: no row
    CHECK(out.is_empty());
}
