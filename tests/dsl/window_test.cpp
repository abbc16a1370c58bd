// Windowed aggregations through the test driver: late records dropped and counted per closed
// window, null keys dropped and counted, the window store queryable and restored from its
// changelog, the store's retention and changelog settings, the windowed key serdes.
#include <doctest/doctest.h>

#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "lib/runtime/internal_topic_config.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {
using counts = std::vector<std::pair<str, std::int64_t>>;

str show(const windowed<str>& w) {
    return w.key + "@" + std::to_string(w.window.start) + "/" + std::to_string(w.window.end);
}

topology hopping_count(materialized<> m) {
    streams_builder b;
    b.stream<str, str>("in")
        .group_by_key()
        .windowed_by(time_windows::of_size_and_grace(10ms, 2ms).advance_by(5ms))
        .count(m)
        .to_stream()
        .map([](const windowed<str>& w, std::int64_t n) { return key_value<str, std::int64_t>{show(w), n}; })
        .to("out");
    return b.build();
}

counts read(test::topology_test_driver& d) {
    counts out;
    for (const auto& r : d.create_output_topic<str, std::int64_t>("out").read_records_to_list()) out.emplace_back(r.key, r.value);
    return out;
}
}  // namespace

TEST_CASE("a late record is dropped and counted once per closed window it falls in") {
    topology t = hopping_count(materialized<>::as("counts"));
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 20);  // windows [15,25) and [20,30); stream time 20, closes below 18
    CHECK(read(d) == counts{{"a@15/25", 1}, {"a@20/30", 1}});
    in.pipe_input("a", "x", 12);  // [5,15) closed (15 <= 18), [10,20) open (20 > 18)
    CHECK(read(d) == counts{{"a@10/20", 1}});
    CHECK(d.metrics().value(metric::dropped_late) == 1);
    in.pipe_input("a", "x", 3);  // [0,10) and [-5,5)->none before 0: only [0,10), closed
    in.pipe_input("a", "x", 8);  // [0,10) and [5,15), both closed
    CHECK(read(d).empty());
    CHECK(d.metrics().value(metric::dropped_late) == 4);
    in.pipe_value("x", 21);
    CHECK(d.metrics().value(metric::dropped_null_key) == 1);
    CHECK(d.metrics().value(metric::dropped_records) == 5);
}

TEST_CASE("the window store holds each window's count and the largest timestamp in it") {
    topology t = hopping_count(materialized<>::as("counts").with_in_memory_store());
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 7);
    in.pipe_input("a", "x", 6);
    in.pipe_input("b", "x", 1);
    auto& store = d.get_window_store<str, value_and_timestamp<std::int64_t>>("counts");
    CHECK(store.fetch("a", 0) == value_and_timestamp<std::int64_t>{2, 7});
    CHECK(store.fetch("a", 5) == value_and_timestamp<std::int64_t>{2, 7});
    CHECK(store.fetch("b", 0) == value_and_timestamp<std::int64_t>{1, 1});
    CHECK_FALSE(store.fetch("b", 5).has_value());
}

TEST_CASE("a windowed count restores its windows from the changelog") {
    std::map<std::string, std::vector<test::produced_record>> changelogs;
    {
        topology t = hopping_count(materialized<>::as("counts").with_in_memory_store());
        test::topology_test_driver d(t);
        auto in = d.create_input_topic<str, str>("in");
        in.pipe_input("a", "x", 7);
        in.pipe_input("a", "x", 11);
        changelogs = d.changelog_records();
    }
    REQUIRE(changelogs.count("test-app-counts-changelog") == 1);
    topology t = hopping_count(materialized<>::as("counts").with_in_memory_store());
    test::driver_config cfg;
    cfg.changelogs = changelogs;
    test::topology_test_driver d(t, cfg);
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 9);
    CHECK(read(d) == counts{{"a@0/10", 2}, {"a@5/15", 3}});
}

TEST_CASE("the window store's changelog is compact,delete and kept a day past the retention") {
    topology t = hopping_count(materialized<>::as("counts").with_retention(1000ms));
    const auto& stores = t.model().stores;
    REQUIRE(stores.size() == 1);
    constexpr std::int64_t day = 24 * 60 * 60 * 1000;  // windowstore.changelog.additional.retention.ms
    auto changelog = [](const topology& t) {
        return kstreams::detail::changelog_topic_config(t.model().stores.front().builder->logging().topic_config, {}, day);
    };
    CHECK(changelog(t).at("cleanup.policy") == "compact,delete");
    CHECK(changelog(t).at("retention.ms") == std::to_string(1000 + day));
    // By default the windows are kept for size + grace.
    CHECK(changelog(hopping_count(materialized<>::as("counts"))).at("retention.ms") == std::to_string(12 + day));
}

TEST_CASE("a retention shorter than window size plus grace is refused when the topology is written") {
    CHECK_THROWS_WITH_AS(hopping_count(materialized<>::as("counts").with_retention(11ms)),
                         doctest::Contains("retention period of window store counts"), topology_error);
}

TEST_CASE("time_windows refuses sizes, graces and advances Kafka refuses") {
    CHECK_THROWS_AS(time_windows::of_size_with_no_grace(0ms), std::invalid_argument);
    CHECK_THROWS_AS(time_windows::of_size_and_grace(10ms, -1ms), std::invalid_argument);
    CHECK_THROWS_AS(time_windows::of_size_with_no_grace(10ms).advance_by(0ms), std::invalid_argument);
    CHECK_THROWS_AS(time_windows::of_size_with_no_grace(10ms).advance_by(11ms), std::invalid_argument);
    const auto w = time_windows::of_size_with_no_grace(10ms).advance_by(3ms).windows_for(10);
    CHECK(w == std::vector<window>{{3, 13}, {6, 16}, {9, 19}});
}

TEST_CASE("windowed key serdes write Kafka's bytes and read them back") {
    const windowed<str> k{"ab", {16, 26}};
    std::string bytes;
    windowed_serdes::time_windowed<str>(10ms).serialize(k, bytes);
    CHECK(bytes == std::string("ab\0\0\0\0\0\0\0\x10", 10));
    CHECK(windowed_serdes::time_windowed<str>(10ms).deserialize(bytes) == k);
    // Without a window size the end is unknown: the largest time, as Kafka's.
    CHECK(serde<windowed<str>>{}.deserialize(bytes).window.end == INT64_MAX);
    std::string session;
    windowed_serdes::session_windowed<str>().serialize(k, session);
    CHECK(session == std::string("ab\0\0\0\0\0\0\0\x1a\0\0\0\0\0\0\0\x10", 18));
    CHECK(windowed_serdes::session_windowed<str>().deserialize(session) == k);
    CHECK_THROWS_AS(windowed_serdes::time_windowed<str>(10ms).deserialize("short"), deserialization_error);
}
