// Sliding and session windows through the test driver: the windows a sliding record creates on
// both sides, session merges forwarding the replaced sessions as tombstones first, drops counted
// (null keys, null values for sliding windows, late records), the stores' retention and changelogs.
#include <doctest/doctest.h>

#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "lib/runtime/internal_topic_config.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {
using rows = std::vector<std::tuple<str, std::optional<std::int64_t>, std::int64_t>>;  // key@start/end, count, ts

str show(const windowed<str>& w) {
    return w.key + "@" + std::to_string(w.window.start) + "/" + std::to_string(w.window.end);
}

template <class Windows, class M = materialized<>>
topology windowed_count(Windows w, M m = {}) {
    streams_builder b;
    b.stream<str, std::optional<str>>("in")
        .group_by_key()
        .windowed_by(w)
        .count(m)
        .to_stream()
        .select_key([](const windowed<str>& k, std::int64_t) { return show(k); })  // keeps tombstones
        .to("out");
    return b.build();
}

rows read(test::topology_test_driver& d) {
    rows out;
    for (const auto& r : d.create_output_topic<str, std::optional<std::int64_t>>("out").read_records_to_list())
        out.emplace_back(r.key, r.value, r.timestamp);
    return out;
}
constexpr std::int64_t day = 24 * 60 * 60 * 1000;
}  // namespace

TEST_CASE("a sliding record updates the windows it falls in and creates its left and right windows") {
    topology t = windowed_count(sliding_windows::of_time_difference_and_grace(10ms, 5ms),
                                materialized<>::as("s").with_caching_disabled());
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, std::optional<str>>("in");
    in.pipe_input("a", "x", 20);
    CHECK(read(d) == rows{{"a@10/20", 1, 20}});
    // 25: left window [15,25] takes 20 too; 20's right window [21,31] is created with 25 in it.
    in.pipe_input("a", "x", 25);
    CHECK(read(d) == rows{{"a@21/31", 1, 25}, {"a@15/25", 2, 25}});
    // 22, out of order: updates [15,25]; its own left [12,22] holds 20; its right [23,33] holds 25.
    in.pipe_input("a", "x", 22);
    CHECK(read(d) == rows{{"a@21/31", 2, 25}, {"a@15/25", 3, 25}, {"a@12/22", 2, 22}, {"a@23/33", 1, 25}});
    auto& store = d.get_window_store<str, value_and_timestamp<std::int64_t>>("s");
    CHECK(store.fetch("a", 12) == value_and_timestamp<std::int64_t>{2, 22});
}

TEST_CASE("sliding windows drop null values and late records and count them") {
    topology t = windowed_count(sliding_windows::of_time_difference_and_grace(10ms, 5ms));
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, std::optional<str>>("in");
    in.pipe_input("a", "x", 30);
    in.pipe_input("a", std::nullopt, 31);
    CHECK(d.metrics().value(metric::dropped_null_value) == 1);
    read(d);
    in.pipe_input("a", "x", 14);  // 14 + 10 < 30 - 5: all its windows are closed
    CHECK(d.metrics().value(metric::dropped_late) == 1);
    CHECK(read(d).empty());
    // 22 + 10 >= 25: it goes into [20,30] and seeds its right window, but its own left window
    // [12,22] is closed: dropped there and counted.
    in.pipe_input("a", "x", 22);
    CHECK(read(d) == rows{{"a@20/30", 2, 30}, {"a@23/33", 1, 30}});
    CHECK(d.metrics().value(metric::dropped_late) == 2);
    in.pipe_value("x", 40);
    CHECK(d.metrics().value(metric::dropped_null_key) == 1);
}

TEST_CASE("a session merge forwards each replaced session as a tombstone before the merged one") {
    // A longer retention than gap + grace: the store would no longer return [0,0] once a session
    // ends at 20 (Kafka's stores return nothing older than their retention).
    topology t = windowed_count(session_windows::of_inactivity_gap_with_no_grace(10ms),
                                materialized<>::as("s").with_caching_disabled().with_retention(100ms));
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, std::optional<str>>("in");
    in.pipe_input("a", "x", 0);
    in.pipe_input("a", "x", 20);
    CHECK(read(d) == rows{{"a@0/0", 1, 0}, {"a@20/20", 1, 20}});
    in.pipe_input("a", std::nullopt, 10);  // within the gap of both: one session [0,20]; a null value counts
    CHECK(read(d) == rows{{"a@0/0", std::nullopt, 0}, {"a@20/20", std::nullopt, 20}, {"a@0/20", 3, 20}});
    auto& store = d.get_session_store<str, std::int64_t>("s");
    CHECK(store.fetch_session("a", 0, 20) == 3);
    CHECK_FALSE(store.fetch_session("a", 0, 0).has_value());
    in.pipe_input("a", "x", 31);  // 11 after the session's end: a new session
    CHECK(read(d) == rows{{"a@31/31", 1, 31}});
}

TEST_CASE("a session closes gap + grace after its end") {
    topology t = windowed_count(session_windows::of_inactivity_gap_and_grace(10ms, 5ms));
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, std::optional<str>>("in");
    in.pipe_input("a", "x", 100);
    in.pipe_input("b", "x", 85);  // 85 == 100 - 10 - 5: still open
    CHECK(d.metrics().value(metric::dropped_late) == 0);
    in.pipe_input("c", "x", 84);
    CHECK(d.metrics().value(metric::dropped_late) == 1);
}

TEST_CASE("sliding and session stores keep what their windows need, their changelogs a day more") {
    auto retention = [](const topology& t) {
        return kstreams::detail::changelog_topic_config(t.model().stores.front().builder->logging().topic_config, {}, day)
            .at("retention.ms");
    };
    CHECK(retention(windowed_count(sliding_windows::of_time_difference_and_grace(10ms, 5ms))) == std::to_string(25 + day));
    CHECK(retention(windowed_count(session_windows::of_inactivity_gap_and_grace(10ms, 5ms))) == std::to_string(15 + day));
    CHECK(retention(windowed_count(session_windows::of_inactivity_gap_and_grace(10ms, 5ms),
                                   materialized<>::as("s").with_retention(100ms))) == std::to_string(100 + day));
    CHECK_THROWS_WITH_AS(windowed_count(sliding_windows::of_time_difference_and_grace(10ms, 5ms),
                                        materialized<>::as("s").with_retention(24ms)),
                         doctest::Contains("retention period of window store s"), topology_error);
    CHECK_THROWS_WITH_AS(windowed_count(session_windows::of_inactivity_gap_and_grace(10ms, 5ms),
                                        materialized<>::as("s").with_retention(14ms)),
                         doctest::Contains("retention period of session store s"), topology_error);
    CHECK_THROWS_AS(sliding_windows::of_time_difference_with_no_grace(-1ms), std::invalid_argument);
    CHECK_THROWS_AS(session_windows::of_inactivity_gap_and_grace(10ms, -1ms), std::invalid_argument);
}
