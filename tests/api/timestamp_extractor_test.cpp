// Timestamp extractors (Kafka's built-ins and one of one's own over the deserialized record) on a
// source and as the default (default.timestamp.extractor), through the test driver.
#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/error.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topology_test_driver.hpp>
#include <kstreams/timestamp_extractors.hpp>

using namespace kstreams;
using str = std::string;

namespace {

topology pass_through(timestamp_extractor e) {
    streams_builder b;
    b.stream<str, str>("in", consumed<>{}.with_timestamp_extractor(std::move(e))).to("out");
    return b.build();
}

std::vector<std::int64_t> times(test::topology_test_driver& d) {
    std::vector<std::int64_t> out;
    for (const auto& r : d.create_output_topic<str, str>("out").read_records_to_list()) out.push_back(r.timestamp);
    return out;
}

}  // namespace

TEST_CASE("Kafka's built-in extractors by class name, simple or qualified") {
    for (const char* name : {"FailOnInvalidTimestamp", "org.apache.kafka.streams.processor.LogAndSkipOnInvalidTimestamp",
                             "UsePartitionTimeOnInvalidTimestamp", "org.apache.kafka.streams.processor.WallclockTimestampExtractor"}) {
        CAPTURE(name);
        CHECK(timestamp_extractors::by_class_name(name).has_value());
    }
    CHECK_FALSE(timestamp_extractors::by_class_name("com.example.MyExtractor").has_value());
}

TEST_CASE("LogAndSkipOnInvalidTimestamp skips records with negative timestamps and counts them") {
    test::topology_test_driver d(pass_through(timestamp_extractors::log_and_skip_on_invalid_timestamp()));
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "1", 5);
    in.pipe_input("a", "2", -1);
    in.pipe_input("a", "3", 7);
    CHECK(times(d) == std::vector<std::int64_t>{5, 7});
    CHECK(d.metrics().value(metric::skipped_invalid_timestamp) == 1);
}

TEST_CASE("UsePartitionTimeOnInvalidTimestamp gives a negative timestamp the partition's time, or fails before it has one") {
    {
        test::topology_test_driver d(pass_through(timestamp_extractors::use_partition_time_on_invalid_timestamp()));
        auto in = d.create_input_topic<str, str>("in");
        in.pipe_input("a", "1", 5);
        in.pipe_input("a", "2", 9);
        in.pipe_input("a", "3", -1);
        CHECK(times(d) == std::vector<std::int64_t>{5, 9, 9});
    }
    test::topology_test_driver d(pass_through(timestamp_extractors::use_partition_time_on_invalid_timestamp()));
    auto in = d.create_input_topic<str, str>("in");
    CHECK_THROWS_WITH_AS(in.pipe_input("a", "1", -1), doctest::Contains("partition time is unknown"), streams_error);
}

TEST_CASE("FailOnInvalidTimestamp fails on a negative timestamp; from_record reads the deserialized record") {
    streams_builder b;
    b.stream<str, str>("in", consumed<>{}.with_timestamp_extractor(timestamp_extractors::fail_on_invalid_timestamp())).to("out");
    b.stream<str, str>("by-value", consumed<>{}.with_timestamp_extractor(timestamp_extractors::from_record<str, str>(
                                        [](const str& v, std::int64_t) { return std::stoll(v); })))
        .to("out");
    b.stream<str, str>("by-key", consumed<>{}.with_timestamp_extractor(timestamp_extractors::from_record<str, str>(
                                      [](const str& k, const str&, std::int64_t partition_time) {
                                          return k == "prev" ? partition_time : std::stoll(k);
                                      })))
        .to("out");
    test::topology_test_driver d(b.build());
    auto by_value = d.create_input_topic<str, str>("by-value");
    by_value.pipe_input("k", "42", -5);  // the value's timestamp, not the record's
    auto by_key = d.create_input_topic<str, str>("by-key");
    by_key.pipe_input("50", "v", 1);
    by_key.pipe_input("prev", "v", 2);
    CHECK(times(d) == std::vector<std::int64_t>{42, 50, 50});
    auto in = d.create_input_topic<str, str>("in");
    CHECK_THROWS_WITH_AS(in.pipe_input("a", "1", -1), doctest::Contains("invalid (negative) timestamp"), streams_error);
}

TEST_CASE("WallclockTimestampExtractor stamps records with the system clock") {
    test::topology_test_driver d(pass_through(*timestamp_extractors::by_class_name("WallclockTimestampExtractor")));
    auto in = d.create_input_topic<str, str>("in");
    const auto before = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch()).count();
    in.pipe_input("a", "1", 5);
    const auto t = times(d);
    REQUIRE(t.size() == 1);
    CHECK(t[0] >= before);
}

TEST_CASE("default.timestamp.extractor names Kafka's built-in extractors, for the application and the test driver") {
    CHECK(streams_config::from_properties({{"default.timestamp.extractor", "WallclockTimestampExtractor"}})
              .default_timestamp_extractor);
    CHECK(test::driver_config::from_properties({{"default.timestamp.extractor", "WallclockTimestampExtractor"}})
              .default_timestamp_extractor);
    CHECK_THROWS_AS(streams_config::from_properties({{"default.timestamp.extractor", "com.example.MyExtractor"}}),
                    std::invalid_argument);
    CHECK_THROWS_AS(test::driver_config::from_properties({{"default.timestamp.extractor", "com.example.MyExtractor"}}),
                    std::invalid_argument);
}

TEST_CASE("the test driver's default extractor serves the sources without one; a source's own wins") {
    streams_builder b;
    b.stream<str, str>("in").to("out");
    b.stream<str, str>("by-value", consumed<>{}.with_timestamp_extractor(timestamp_extractors::from_record<str, str>(
                                        [](const str& v, std::int64_t) { return std::stoll(v); })))
        .to("out");
    test::topology_test_driver d(b.build(), test::driver_config::from_properties(
                                                {{"default.timestamp.extractor", "LogAndSkipOnInvalidTimestamp"}}));
    auto by_value = d.create_input_topic<str, str>("by-value");
    by_value.pipe_input("k", "42", -5);  // its own extractor: the value's timestamp, not skipped
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "1", 5);
    in.pipe_input("a", "2", -1);  // the default skips it
    in.pipe_input("a", "3", 6);
    CHECK(times(d) == std::vector<std::int64_t>{42, 5, 6});
}

TEST_CASE("get_timestamped_window_store reads a windowed aggregation's store with the timestamps") {
    streams_builder b;
    b.stream<str, str>("in")
        .group_by_key()
        .windowed_by(time_windows::of_size_with_no_grace(std::chrono::milliseconds(10)))
        .count(materialized<>::as("counts"));
    test::topology_test_driver d(b.build());
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "1", 3);
    in.pipe_input("a", "2", 7);
    auto& store = d.get_timestamped_window_store<str, std::int64_t>("counts");
    auto v = store.fetch("a", 0);
    REQUIRE(v.has_value());
    CHECK(v->value == 2);
    CHECK(v->timestamp == 7);
}
