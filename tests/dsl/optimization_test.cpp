// topology.optimization beyond what tests/conformance compares with Kafka Streams: the values
// Kafka's StreamsConfig accepts and refuses, the topology Kafka refuses to merge, what a reused
// source topic does to the model, and the test driver's properties (driver_config::from_properties).
#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;
using props = std::map<std::string, std::string>;

namespace {
topology rekeyed_count(const props& p) {
    streams_builder b;
    b.stream<str, str>("in").select_key([](const str& v) { return v; }).group_by_key().count().to_stream().to("out");
    return b.build(p);
}
}  // namespace

TEST_CASE("topology.optimization: none, all and lists of the three are accepted; anything else throws, as Kafka's StreamsConfig") {
    for (const char* ok : {"none", "all", "reuse.ktable.source.topics", "merge.repartition.topics, single.store.self.join",
                           "reuse.ktable.source.topics,merge.repartition.topics,single.store.self.join"})
        CHECK_NOTHROW(rekeyed_count({{"topology.optimization", ok}}));
    for (const char* bad : {"", "bogus", "none,all", "all,merge.repartition.topics", "none, reuse.ktable.source.topics"})
        CHECK_THROWS_AS(rekeyed_count({{"topology.optimization", bad}}), std::invalid_argument);
    // Other keys are not the builder's business.
    CHECK_NOTHROW(rekeyed_count({{"application.id", "x"}, {"num.stream.threads", "2"}}));
}

TEST_CASE("merge.repartition.topics: names the merged topic's nodes after it; without it the same graph is unchanged") {
    const auto plain = rekeyed_count({});
    const auto merged = rekeyed_count({{"topology.optimization", "merge.repartition.topics"}});
    REQUIRE(plain.model().repartition_topics.size() == 1);
    REQUIRE(merged.model().repartition_topics.size() == 1);
    CHECK(merged.model().repartition_topics[0].name == plain.model().repartition_topics[0].name);
    const std::string text = merged.describe().to_string();
    CHECK(text.find("KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition-sink") != std::string::npos);
    CHECK(text.find("KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition-source") != std::string::npos);
    CHECK(plain.describe().to_string().find("-repartition-sink") == std::string::npos);
}

TEST_CASE("merge.repartition.topics: two repartitions below one operation after the key change is refused, as Kafka refuses it") {
    streams_builder b;
    auto kept = b.stream<str, str>("in").select_key([](const str& v) { return v; }).filter([](const str& v) { return !v.empty(); });
    kept.group_by_key().count().to_stream().to("counts");
    kept.group_by_key().reduce([](const str& a, const str& c) { return a + c; }).to_stream().to("reduced");
    CHECK_NOTHROW(b.build());
    CHECK_THROWS_AS(b.build({{"topology.optimization", "merge.repartition.topics"}}), topology_error);
}

TEST_CASE("reuse.ktable.source.topics: a table()'s store has no changelog and names its source topic; to_table()'s keeps its own") {
    streams_builder b;
    auto t = b.table<str, str>("users", materialized<>::as("user-store"));
    b.stream<str, str>("clicks").to_table(materialized<>::as("latest-click")).join(t, [](const str& c, const str& u) { return c + u; })
        .to_stream()
        .to("out");
    for (bool reuse : {false, true}) {
        const topology topo = reuse ? b.build({{"topology.optimization", "reuse.ktable.source.topics"}}) : b.build();
        std::map<std::string, std::pair<bool, std::string>> stores;  // name -> (logged, source topic)
        for (const auto& s : topo.model().stores) stores[s.builder->name()] = {s.builder->logging_enabled(), s.source_topic_changelog};
        CHECK(stores.at("user-store") == std::pair<bool, std::string>(!reuse, reuse ? "users" : ""));
        CHECK(stores.at("latest-click") == std::pair<bool, std::string>(true, ""));
    }
}

TEST_CASE("single.store.self.join: a stream joined with another stream keeps both stores") {
    streams_builder b;
    auto a = b.stream<str, str>("a");
    a.join(b.stream<str, str>("b"), [](const str& x, const str& y) { return x + y; }, join_windows::of_time_difference_with_no_grace(5ms))
        .to("out");
    CHECK(b.build({{"topology.optimization", "all"}}).model().stores.size() == 2);
}

TEST_CASE("driver_config::from_properties: Kafka Streams properties as TopologyTestDriver(topology, properties) reads them") {
    const auto c = test::driver_config::from_properties({{"application.id", "my-app"},
                                                         {"statestore.cache.max.bytes", "1234"},
                                                         {"state.dir", "/tmp/kstreams-driver-props"},
                                                         {"default.deserialization.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler"},
                                                         {"__emit.interval.ms.kstreams.outer.join.spurious.results.fix__", "1000"},
                                                         {"__emit.interval.ms.kstreams.windowed.aggregation__", "500"},
                                                         {"topology.optimization", "all"},
                                                         {"default.key.serde", "org.apache.kafka.common.serialization.Serdes$StringSerde"},
                                                         {"bootstrap.servers", "dummy:1234"},
                                                         {"some.client.setting", "x"}});
    CHECK(c.application_id == "my-app");
    CHECK(c.cache_max_bytes == 1234);
    CHECK(c.state_dir == "/tmp/kstreams-driver-props");
    CHECK(c.log_and_continue_on_deserialization_error);
    CHECK(c.outer_join_emit_interval_ms == 1000);
    CHECK(c.windowed_aggregation_emit_interval_ms == 500);
    const auto d = test::driver_config::from_properties({});
    CHECK(d.application_id == test::driver_config{}.application_id);
    CHECK(d.outer_join_emit_interval_ms == 0);  // as Kafka's TopologyTestDriver, unless told
    CHECK(d.windowed_aggregation_emit_interval_ms == 0);
    CHECK_THROWS_AS(test::driver_config::from_properties({{"statestore.cache.max.bytes", "lots"}}), std::invalid_argument);
    CHECK_THROWS_AS(test::driver_config::from_properties({{"__emit.interval.ms.kstreams.windowed.aggregation__", "-1"}}),
                    std::invalid_argument);
}

TEST_CASE("driver properties: the outer-join emit interval throttles null-padded results by the driver's wall clock") {
    auto run = [](const char* interval) {
        streams_builder b;
        b.stream<str, str>("left")
            .left_join(b.stream<str, str>("right"), [](const str& l, const std::optional<str>& r) { return l + "+" + r.value_or("null"); },
                       join_windows::of_time_difference_with_no_grace(10ms))
            .to("out");
        test::topology_test_driver d(b.build(),
                                     test::driver_config::from_properties({{"__emit.interval.ms.kstreams.outer.join.spurious.results.fix__", interval}}));
        auto in = d.create_input_topic<str, str>("left");
        auto out = d.create_output_topic<str, str>("out");
        in.pipe_input("a", "A", 0);
        in.pipe_input("b", "B", 100);  // a's window has closed
        const auto at_once = out.read_values_to_list();
        d.advance_wall_clock_time(1000ms);
        in.pipe_input("c", "C", 101);
        return std::make_pair(at_once, out.read_values_to_list());
    };
    CHECK(run("0") == std::make_pair(std::vector<str>{"A+null"}, std::vector<str>{}));
    CHECK(run("1000") == std::make_pair(std::vector<str>{}, std::vector<str>{"A+null"}));
}
