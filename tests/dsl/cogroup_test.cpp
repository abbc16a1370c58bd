// Cogroup through the test driver: a join reads the cogrouped table from the shared store, a
// windowed cogroup's final results through suppress (the grace found through its processors), a
// generic aggregator with the aggregate type given.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "window_rows.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

TEST_CASE("a stream joins a cogrouped table: its rows are read from the store the aggregations share") {
    streams_builder b;
    auto words = b.stream<str, str>("words").group_by_key();
    auto numbers = b.stream<str, std::int64_t>("numbers").group_by_key();
    auto t = words.cogroup([](const str&, const str& w, std::int64_t n) { return n + static_cast<std::int64_t>(w.size()); })
                 .cogroup(numbers, [](const str&, std::int64_t v, std::int64_t n) { return n + v; })
                 .aggregate([] { return std::int64_t{0}; });
    b.stream<str, str>("lookups").join(t, [](const str& l, std::int64_t n) { return l + "=" + std::to_string(n); }).to("out");
    topology topo = b.build();
    test::topology_test_driver d(topo);
    d.create_input_topic<str, str>("words").pipe_input("a", "abc", 1);
    d.create_input_topic<str, std::int64_t>("numbers").pipe_input("a", 10, 2);
    auto lookups = d.create_input_topic<str, str>("lookups");
    lookups.pipe_input("a", "x", 3);
    lookups.pipe_input("b", "y", 4);
    auto out = d.create_output_topic<str, str>("out");
    CHECK(out.read_value() == "x=13");
    CHECK(out.is_empty());
}

TEST_CASE("a windowed cogroup's final results through suppress, with the aggregate type given for a generic aggregator") {
    streams_builder b;
    auto a = b.stream<str, str>("a").group_by_key();
    auto c = b.stream<str, str>("c").group_by_key();
    auto count = [](const auto&, const auto&, std::int64_t n) { return n + 1; };
    a.cogroup<std::int64_t>(count)
        .cogroup(c, count)
        .windowed_by(time_windows::of_size_and_grace(10ms, 5ms))
        .aggregate([] { return std::int64_t{0}; })
        .suppress(suppressed::until_window_closes(buffer_config::unbounded()))
        .to_stream()
        .select_key([](const windowed<str>& k, std::int64_t) { return window_rows::show(k); })
        .to("out");
    topology topo = b.build();
    test::topology_test_driver d(topo);
    auto ai = d.create_input_topic<str, str>("a");
    auto ci = d.create_input_topic<str, str>("c");
    ai.pipe_input("k", "x", 1);
    ci.pipe_input("k", "x", 2);
    ai.pipe_input("k", "x", 14);
    CHECK(window_rows::read(d).empty());  // [0,10) closes at stream time 15
    ci.pipe_input("k", "x", 15);
    CHECK(window_rows::read(d) == window_rows::rows{{"k@0/10", 2, 2}});
}
