// The error handlers and the dead-letter queue (Kafka Streams 4.4: deserialization.exception.handler,
// processing.exception.handler (KIP-1033), errors.dead.letter.queue.topic.name (KIP-1034)), through
// the test driver, where dead-letter records are read like an output topic.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/error.hpp>
#include <kstreams/error_handlers.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;
using str = std::string;
using ostr = std::optional<str>;

namespace {

/// in (string keys, int64 values) -> out, so a value that is not 8 bytes cannot be deserialized.
topology numbers_topology() {
    streams_builder b;
    b.stream<str, std::int64_t>("in").map_values([](std::int64_t v) { return v * 10; }).to("out");
    return b.build();
}

/// in (strings) -> map_values that throws on "boom" -> out, and the same records -> copy.
topology throwing_topology() {
    streams_builder b;
    auto s = b.stream<str, str>("in");
    s.map_values([](const str& v) -> str {
         if (v == "boom") throw std::runtime_error("cannot map boom");
         return v + "!";
     }).to("out");
    s.to("copy");
    return b.build();
}

std::vector<std::pair<str, ostr>> header_list(const headers& h) {
    std::vector<std::pair<str, ostr>> out;
    for (const auto& x : h) out.emplace_back(x.key, x.value);
    return out;
}

}  // namespace

TEST_CASE("deserialization errors: log-and-fail by default, log-and-continue skips and counts") {
    {
        test::topology_test_driver d(numbers_topology());
        auto in = d.create_input_topic<str, str>("in");
        CHECK_THROWS_WITH_AS(in.pipe_input("k", "abc", 1), doctest::Contains("could not deserialize the value"), streams_error);
    }
    test::topology_test_driver d(numbers_topology(),
                                 test::driver_config::from_properties(
                                     {{"deserialization.exception.handler",
                                       "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler"}}));
    auto in = d.create_input_topic<str, str>("in");
    auto nums = d.create_input_topic<str, std::int64_t>("in");
    auto out = d.create_output_topic<str, std::int64_t>("out");
    in.pipe_input("k", "abc", 1);
    nums.pipe_input("k", 4, 2);
    CHECK(out.read_values_to_list() == std::vector<std::int64_t>{40});
    CHECK(d.metrics().value(metric::skipped_deserialization) == 1);
}

TEST_CASE("a deserialization error goes to the dead-letter queue: raw key and value, timestamp, headers as Kafka 4.4 writes them") {
    test::driver_config config = test::driver_config::from_properties(
        {{"deserialization.exception.handler", "LogAndContinueExceptionHandler"},
         {"errors.dead.letter.queue.topic.name", "dlq"}});
    test::topology_test_driver d(numbers_topology(), config);
    auto in = d.create_input_topic<str, str>("in");
    auto dlq = d.create_output_topic<std::optional<str>, std::optional<str>>("dlq");
    record<str, str> r{"key-1", "abc", 1234};
    r.headers.add("trace", str("t-1"));
    in.pipe_record(r);
    REQUIRE(!dlq.is_empty());
    auto letter = dlq.read_record();
    CHECK(dlq.is_empty());
    CHECK(letter.key == ostr("key-1"));      // the source's raw key bytes
    CHECK(letter.value == ostr("abc"));      // and raw value bytes
    CHECK(letter.timestamp == 1234);
    const auto hs = header_list(letter.headers);
    REQUIRE(hs.size() == 7);
    CHECK(hs[0] == std::pair<str, ostr>{"trace", "t-1"});  // the source record's headers first
    CHECK(hs[1] == std::pair<str, ostr>{"__streams.errors.exception", "kstreams::deserialization_error"});
    REQUIRE(hs[2].second);
    CHECK(hs[2].first == "__streams.errors.message");
    CHECK(hs[2].second->find("int64") != str::npos);
    CHECK(hs[3] == std::pair<str, ostr>{"__streams.errors.stacktrace", "kstreams::deserialization_error: " + *hs[2].second});
    CHECK(hs[4] == std::pair<str, ostr>{"__streams.errors.topic", "in"});
    CHECK(hs[5] == std::pair<str, ostr>{"__streams.errors.partition", "0"});
    CHECK(hs[6] == std::pair<str, ostr>{"__streams.errors.offset", "0"});
    CHECK(d.metrics().value("dead-letter-queue-records") == 1);
}

TEST_CASE("log-and-fail with a dead-letter queue writes the dead-letter record, then fails") {
    test::driver_config config = test::driver_config::from_properties({{"errors.dead.letter.queue.topic.name", "dlq"}});
    test::topology_test_driver d(numbers_topology(), config);
    auto in = d.create_input_topic<str, str>("in");
    auto dlq = d.create_output_topic<str, str>("dlq");
    CHECK_THROWS_AS(in.pipe_input("k", "abc", 1), streams_error);
    CHECK(dlq.read_key_value() == key_value<str, str>{"k", "abc"});
}

TEST_CASE("processing errors: log-and-fail by default, naming the processor, topic, partition and offset") {
    test::topology_test_driver d(throwing_topology());
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "fine", 1);
    CHECK_THROWS_WITH_AS(in.pipe_input("b", "boom", 2),
                         doctest::Contains("exception in processor KSTREAM-MAPVALUES-0000000001 while processing a "
                                           "record at topic in, partition 0, offset 1: cannot map boom"),
                         streams_error);
}

TEST_CASE("processing errors: continue drops the record and goes on with the next (KIP-1033)") {
    test::topology_test_driver d(throwing_topology(),
                                 test::driver_config::from_properties(
                                     {{"processing.exception.handler",
                                       "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler"},
                                      {"errors.dead.letter.queue.topic.name", "dlq"}}));
    auto in = d.create_input_topic<str, str>("in");
    auto out = d.create_output_topic<str, str>("out");
    auto copy = d.create_output_topic<str, str>("copy");
    auto dlq = d.create_output_topic<str, str>("dlq");
    in.pipe_input("a", "one", 1);
    in.pipe_input("b", "boom", 2);
    in.pipe_input("c", "two", 3);
    CHECK(out.read_values_to_list() == std::vector<str>{"one!", "two!"});
    // Dropped at the processor that threw only: its sibling, the sink to "copy", still gets it.
    CHECK(copy.read_values_to_list() == std::vector<str>{"one", "boom", "two"});
    auto letter = dlq.read_record();
    CHECK(letter.key == "b");
    CHECK(letter.value == "boom");
    CHECK(letter.timestamp == 2);
    const auto hs = header_list(letter.headers);
    REQUIRE(hs.size() == 6);
    CHECK(hs[0] == std::pair<str, ostr>{"__streams.errors.exception", "std::runtime_error"});
    CHECK(hs[1] == std::pair<str, ostr>{"__streams.errors.message", "cannot map boom"});
    CHECK(hs[2] == std::pair<str, ostr>{"__streams.errors.stacktrace", "std::runtime_error: cannot map boom"});
    CHECK(hs[3] == std::pair<str, ostr>{"__streams.errors.topic", "in"});
    CHECK(hs[4] == std::pair<str, ostr>{"__streams.errors.partition", "0"});
    CHECK(hs[5] == std::pair<str, ostr>{"__streams.errors.offset", "1"});
    CHECK(d.metrics().value("dropped-records.processing-error") == 1);
    CHECK(d.metrics().value(metric::dropped_records) == 1);
}

TEST_CASE("a processing exception handler of your own sees the processor that threw, topic, partition, offset, raw record and exception") {
    test::driver_config config;
    std::vector<str> seen;
    config.errors.processing = [&](const error_handler_context& ctx, std::exception_ptr e) {
        try {
            std::rethrow_exception(e);
        } catch (const std::exception& ex) {
            seen.push_back(str(ctx.processor_node_id) + " " + str(ctx.topic) + "/" + std::to_string(ctx.partition) + "@" +
                           std::to_string(ctx.offset) + " t=" + std::to_string(ctx.timestamp) + " " +
                           str(ctx.source_raw_key.value_or("-")) + "=" + str(ctx.source_raw_value.value_or("-")) + " " +
                           ctx.task_id.to_string() + " " + ex.what());
        }
        // A dead-letter record of its own, then resume.
        dead_letter_record r = build_dead_letter_record("my-dlq", ctx, e);
        r.value = "custom";
        return handler_response::resume({r});
    };
    test::topology_test_driver d(throwing_topology(), config);
    auto in = d.create_input_topic<str, str>("in");
    auto out = d.create_output_topic<str, str>("out");
    auto dlq = d.create_output_topic<str, str>("my-dlq");
    in.pipe_input("x", "boom", 7);
    in.pipe_input("y", "ok", 8);
    CHECK(seen == std::vector<str>{"KSTREAM-MAPVALUES-0000000001 in/0@0 t=7 x=boom 0_0 cannot map boom"});
    CHECK(out.read_values_to_list() == std::vector<str>{"ok!"});
    CHECK(dlq.read_key_value() == key_value<str, str>{"x", "custom"});
}

TEST_CASE("a handler answering fail after writing dead-letter records: the records are there, the pipe throws") {
    test::driver_config config;
    config.errors.processing = [](const error_handler_context& ctx, std::exception_ptr e) {
        return handler_response::fail({build_dead_letter_record("dlq", ctx, e)});
    };
    test::topology_test_driver d(throwing_topology(), config);
    auto in = d.create_input_topic<str, str>("in");
    auto dlq = d.create_output_topic<str, str>("dlq");
    CHECK_THROWS_WITH_AS(in.pipe_input("b", "boom", 2), doctest::Contains("processing exception handler (processing.exception.handler) is set to fail"),
                         streams_error);
    CHECK(dlq.read_key_value() == key_value<str, str>{"b", "boom"});
}

TEST_CASE("handler names from properties: Kafka's class names, simple or qualified; others are refused") {
    auto c = streams_config::from_properties({{"deserialization.exception.handler", "LogAndContinueExceptionHandler"},
                                              {"processing.exception.handler",
                                               "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler"},
                                              {"production.exception.handler", "DefaultProductionExceptionHandler"},
                                              {"errors.dead.letter.queue.topic.name", "app-dlq"}});
    CHECK(c.log_and_continue_on_deserialization_error);
    CHECK(c.errors.log_and_continue_on_processing_error);
    CHECK(c.on_production_error == production_error_policy::fail);
    CHECK(c.errors.dead_letter_queue_topic == "app-dlq");
    CHECK_FALSE(streams_config::from_properties({{"default.deserialization.exception.handler", "LogAndFailExceptionHandler"}})
                    .log_and_continue_on_deserialization_error);
    CHECK_THROWS_AS(streams_config::from_properties({{"processing.exception.handler", "com.acme.MyHandler"}}),
                    std::invalid_argument);
    // KIP-1034's spelling of Kafka's errors.dead.letter.queue.topic.name is read too.
    CHECK(streams_config::from_properties({{"errors.deadletterqueue.topic.name", "kip-dlq"}}).errors.dead_letter_queue_topic ==
          "kip-dlq");
}

namespace {

/// Strings whose serializer throws on "bad".
struct picky_serde {
    void serialize(const str& v, std::string& out) const {
        if (v == "bad") throw std::invalid_argument("cannot write bad");
        out += v;
    }
    str deserialize(std::string_view in) const { return str(in); }
};

/// in -> map_values -> out (picky), and in -> copy.
topology picky_topology() {
    streams_builder b;
    auto s = b.stream<str, str>("in");
    s.map_values([](const str& v) { return v; }).to("out", produced<>{}.with_value_serde(picky_serde{}));
    s.to("copy");
    return b.build();
}

}  // namespace

TEST_CASE("a sink's serialization error goes to the production handler: resume drops the record there and counts it") {
    test::driver_config config;
    std::vector<str> seen;
    config.errors.production = [&](const error_handler_context& ctx, const failed_record& r, std::exception_ptr) {
        seen.push_back(str(ctx.processor_node_id) + " " + str(r.topic) + " t=" + std::to_string(r.timestamp));
        return handler_response::resume();
    };
    test::topology_test_driver d(picky_topology(), config);
    auto in = d.create_input_topic<str, str>("in");
    auto out = d.create_output_topic<str, str>("out");
    auto copy = d.create_output_topic<str, str>("copy");
    in.pipe_input("a", "bad", 1);
    in.pipe_input("b", "good", 2);
    CHECK(seen == std::vector<str>{"KSTREAM-SINK-0000000002 out t=1"});
    CHECK(out.read_values_to_list() == std::vector<str>{"good"});
    CHECK(copy.read_values_to_list() == std::vector<str>{"bad", "good"});
    CHECK(d.metrics().value(metric::dropped_production_error) == 1);
    CHECK(d.metrics().value(metric::dropped_records) == 1);
}

TEST_CASE("the test driver reads production.exception.handler: a handler that continues drops what a sink cannot serialize") {
    test::topology_test_driver d(picky_topology(), test::driver_config::from_properties(
                                                       {{"production.exception.handler", "com.acme.AlwaysContinueHandler"}}));
    auto in = d.create_input_topic<str, str>("in");
    auto out = d.create_output_topic<str, str>("out");
    in.pipe_input("a", "bad", 1);
    in.pipe_input("b", "good", 2);
    CHECK(out.read_values_to_list() == std::vector<str>{"good"});
    CHECK(d.metrics().value(metric::dropped_production_error) == 1);
}

TEST_CASE("a sink's serialization error the production handler fails is the forwarding processor's error, as Kafka's") {
    // The processing handler continues at the map_values that forwarded to the sink.
    test::topology_test_driver d(picky_topology(),
                                 test::driver_config::from_properties(
                                     {{"processing.exception.handler",
                                       "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler"}}));
    auto in = d.create_input_topic<str, str>("in");
    auto out = d.create_output_topic<str, str>("out");
    in.pipe_input("a", "bad", 1);
    in.pipe_input("b", "good", 2);
    CHECK(out.read_values_to_list() == std::vector<str>{"good"});
    CHECK(d.metrics().value("dropped-records.processing-error") == 1);
    // Without handlers it fails, naming the record Kafka's way.
    test::topology_test_driver f(picky_topology());
    auto fin = f.create_input_topic<str, str>("in");
    CHECK_THROWS_WITH_AS(fin.pipe_input("a", "bad", 1),
                         doctest::Contains("Unable to serialize record. ProducerRecord(topic=[out], partition=[null], "
                                           "timestamp=[1]): cannot write bad"),
                         streams_error);
}

TEST_CASE("at metrics.recording.level DEBUG a sink's error is still its parent's, and under a source it fails the task") {
    // DEBUG counts each node's records through a stand-in between parent and child; the sink
    // behind it must still be told from a processor.
    test::driver_config config;
    config.metrics_recording_level = metrics_recording_level::debug;
    std::vector<str> seen;
    config.errors.processing = [&](const error_handler_context& ctx, std::exception_ptr) {
        seen.push_back(str(ctx.processor_node_id));
        return handler_response::resume();
    };
    {
        test::topology_test_driver d(picky_topology(), config);
        auto in = d.create_input_topic<str, str>("in");
        auto out = d.create_output_topic<str, str>("out");
        auto copy = d.create_output_topic<str, str>("copy");
        in.pipe_input("a", "bad", 1);
        in.pipe_input("b", "good", 2);
        CHECK(seen == std::vector<str>{"KSTREAM-MAPVALUES-0000000001"});
        CHECK(out.read_values_to_list() == std::vector<str>{"good"});
        CHECK(copy.read_values_to_list() == std::vector<str>{"bad", "good"});
    }
    streams_builder b;
    b.stream<str, str>("in").to("out", produced<>{}.with_value_serde(picky_serde{}));
    test::topology_test_driver d(b.build(), config);
    auto in = d.create_input_topic<str, str>("in");
    CHECK_THROWS_AS(in.pipe_input("a", "bad", 1), streams_error);
}
