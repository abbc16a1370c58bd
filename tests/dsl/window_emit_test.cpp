// emit_strategy::on_window_close through the test driver: each window once, after it closes, in
// time order; nothing on update; late records still dropped; the emit interval setting.
#include <doctest/doctest.h>

#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "window_rows.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {
using window_rows::rows;
using window_rows::read;
using window_rows::count_on_close;


}  // namespace

TEST_CASE("a time window emitting on close forwards its final count once, when stream time passes end + grace") {
    topology t = count_on_close([](auto g) { return g.windowed_by(time_windows::of_size_and_grace(10ms, 2ms)); });
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("b", "x", 5);
    in.pipe_input("a", "x", 7);
    in.pipe_input("a", "x", 11);
    CHECK(read(d).empty());  // [0,10) closes at stream time 12
    in.pipe_input("a", "x", 12);
    CHECK(read(d) == rows{{"a@0/10", 1, 7}, {"b@0/10", 1, 5}});  // by start, then by key
    in.pipe_input("a", "x", 3);  // late: dropped, nothing emitted again
    CHECK(d.metrics().value(metric::dropped_late) == 1);
    in.pipe_input("a", "x", 40);
    CHECK(read(d) == rows{{"a@10/20", 2, 12}});
}

TEST_CASE("sliding windows and sessions emitting on close forward each closed window once") {
    topology t = count_on_close([](auto g) { return g.windowed_by(sliding_windows::of_time_difference_with_no_grace(10ms)); });
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 20);
    CHECK(read(d).empty());
    in.pipe_input("a", "x", 25);  // [10,20] ends before stream time 25: closed
    CHECK(read(d) == rows{{"a@10/20", 1, 20}});
    in.pipe_input("a", "x", 40);  // [15,25] and 20's right window [21,31] close; [30,40] stays open
    CHECK(read(d) == rows{{"a@15/25", 2, 25}, {"a@21/31", 1, 25}});

    topology s = count_on_close([](auto g) { return g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(10ms)); });
    test::topology_test_driver ds(s);
    auto sin = ds.create_input_topic<str, str>("in");
    sin.pipe_input("a", "x", 0);
    sin.pipe_input("a", "x", 5);
    sin.pipe_input("a", "x", 15);  // the session [0,5] closes when stream time passes 5 + 10
    CHECK(read(ds).empty());
    sin.pipe_input("b", "x", 26);
    CHECK(read(ds) == rows{{"a@0/15", 3, 15}});
}

TEST_CASE("the windowed emit interval is Kafka's internal setting, 1 s by default") {
    CHECK(streams_config{}.windowed_emit_interval == 1000ms);
    const auto c = streams_config::from_properties(
        {{"application.id", "x"}, {"__emit.interval.ms.kstreams.windowed.aggregation__", "250"}});
    CHECK(c.windowed_emit_interval == 250ms);
}

TEST_CASE("emitting on close looks for closed windows at most once per windowed emit interval of wall-clock time") {
    auto run = [](const char* interval) {
        topology t = count_on_close([](auto g) { return g.windowed_by(time_windows::of_size_with_no_grace(10ms)); });
        test::topology_test_driver d(
            t, test::driver_config::from_properties({{"__emit.interval.ms.kstreams.windowed.aggregation__", interval}}));
        auto in = d.create_input_topic<str, str>("in");
        in.pipe_input("a", "x", 0);   // looks (nothing closed yet): the next look is due an interval later
        in.pipe_input("b", "x", 15);  // closes [0,10)
        const rows at_once = read(d);
        d.advance_wall_clock_time(1000ms);
        in.pipe_input("c", "x", 16);
        return std::make_pair(at_once, read(d));
    };
    CHECK(run("0") == std::make_pair(rows{{"a@0/10", 1, 0}}, rows{}));  // the driver's default, as Kafka's
    CHECK(run("1000") == std::make_pair(rows{}, rows{{"a@0/10", 1, 0}}));  // an application's default
}
