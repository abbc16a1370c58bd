// A user's store supplier in materialized, wherever Kafka takes one: materialized<>::as(key-value,
// window or session bytes store supplier) names and makes the store; a supplier of the wrong kind
// for the operator is a topology_error naming the store and what it needs (Kafka's types rule it
// out at compile time; here one materialized serves every operator).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <string>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "window_rows.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {
using window_rows::show;

template <class Windowed, class Materialized>
topology windowed_count(const Windowed& w, const Materialized& m) {
    streams_builder b;
    w(b.stream<str, str>("in").group_by_key())
        .count(m)
        .to_stream()
        .select_key([](const windowed<str>& k, std::int64_t) { return show(k); })
        .to("out");
    return b.build();
}

auto sessions = [](auto g) { return g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(10ms)); };
auto tumbling = [](auto g) { return g.windowed_by(time_windows::of_size_with_no_grace(10ms)); };
auto sliding = [](auto g) { return g.windowed_by(sliding_windows::of_time_difference_with_no_grace(10ms)); };
}  // namespace

TEST_CASE("a session aggregation keeps its sessions in the store a user's session supplier makes") {
    const topology t = windowed_count(sessions, materialized<>::as(stores::in_memory_session_store("my-sessions", 1h)));
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 1);
    in.pipe_input("a", "x", 5);
    CHECK_FALSE(d.get_state_store("my-sessions").persistent());  // in memory, as the supplier says
    CHECK(d.get_session_store<str, std::int64_t>("my-sessions").fetch_session("a", 1, 5) == 2);
    const std::vector<std::string> topics = d.produced_topic_names();
    CHECK(std::find(topics.begin(), topics.end(), "test-app-my-sessions-changelog") != topics.end());
}

TEST_CASE("a store supplier of the wrong kind for the operator is a topology_error naming the store") {
    const auto kv = materialized<>::as(stores::in_memory_key_value_store("kv"));
    const auto window = materialized<>::as(stores::in_memory_window_store("win", 1h, 10ms, false));
    const auto session = materialized<>::as(stores::in_memory_session_store("ses", 1h));
    CHECK_THROWS_WITH_AS(windowed_count(sessions, kv),
                         "store kv: materialized with a key-value store supplier, but a session aggregation keeps a "
                         "session store (materialized<>::as(session_bytes_store_supplier))",
                         topology_error);
    CHECK_THROWS_WITH_AS(windowed_count(sessions, window), doctest::Contains("store win: materialized with a window store supplier"),
                         topology_error);
    CHECK_THROWS_WITH_AS(windowed_count(tumbling, session),
                         "store ses: materialized with a session store supplier, but a windowed aggregation keeps a "
                         "window store (materialized<>::as(window_bytes_store_supplier))",
                         topology_error);
    CHECK_THROWS_WITH_AS(windowed_count(sliding, kv), doctest::Contains("store kv: materialized with a key-value store supplier"),
                         topology_error);
    auto count_in = [](const auto& m) {
        streams_builder b;
        b.stream<str, str>("in").group_by_key().count(m);
    };
    auto table_in = [](const auto& m) {
        streams_builder b;
        b.table<str, str>("t", m);
    };
    CHECK_THROWS_WITH_AS(count_in(window),
                         "store win: materialized with a window store supplier, but a table or aggregation keeps a "
                         "key-value store (materialized<>::as(key_value_bytes_store_supplier))",
                         topology_error);
    CHECK_THROWS_WITH_AS(table_in(session), doctest::Contains("store ses: materialized with a session store supplier"),
                         topology_error);
    // The right kinds build.
    CHECK_NOTHROW(windowed_count(sessions, session));
    CHECK_NOTHROW(windowed_count(tumbling, window));
    CHECK_NOTHROW(count_in(kv));
    CHECK_NOTHROW(table_in(kv));
}
