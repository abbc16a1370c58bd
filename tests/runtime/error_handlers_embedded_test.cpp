// Error handlers and the dead-letter queue in the Kafka runtime, on the embedded cluster.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/embedded_cluster.hpp>
#include <kstreams/error.hpp>
#include <kstreams/error_handlers.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

#include "tests/support/await_records.hpp"
#include "tests/support/process_state_dir.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;
using ostr = std::optional<str>;

namespace {

streams_config errors_config(const std::string& app, const std::string& bootstrap) {
    streams_config c;
    c.application_id = app;
    c.bootstrap_servers = bootstrap;
    c.commit_interval = 200ms;
    c.state_dir = kstreams::test::process_state_dir("kstreams-errors-test");
    c.consumer["session.timeout.ms"] = "6000";
    c.kafka["log_level"] = "3";
    return c;
}

topology numbers_topology() {
    streams_builder b;
    b.stream<str, std::int64_t>("eh-in").map_values([](std::int64_t v) { return v * 10; }).to("eh-out");
    return b.build();
}

}  // namespace

KSTREAMS_CO_TEST_CASE("the Kafka runtime writes a record it cannot deserialize to the dead-letter queue, as Kafka 4.4") {
    embedded_cluster cluster;
    for (const char* t : {"eh-in", "eh-out", "eh-dlq"}) cluster.create_topic(t, 1);
    auto config = errors_config("eh-dlq", cluster.bootstrap_servers());
    config.log_and_continue_on_deserialization_error = true;
    config.errors.dead_letter_queue_topic = "eh-dlq";
    kafka_streams app(numbers_topology(), config);
    app.start();
    test::topic_writer writer(cluster.bootstrap_servers());
    writer.send("eh-in", str("bad"), str("xyz"), 5'000);
    writer.send_typed<str, std::int64_t>("eh-in", "good", 4, 6'000);
    writer.flush();
    test::topic_reader out(cluster.bootstrap_servers(), {"eh-out"});
    auto good = co_await test::next_records(out, 1, 60s);
    CHECK(good.front().value_as<std::int64_t>() == 40);
    test::topic_reader dlq(cluster.bootstrap_servers(), {"eh-dlq"});
    auto letters = co_await test::next_records(dlq, 1, 60s);
    const auto& l = letters.front();
    CHECK(l.key == ostr("bad"));
    CHECK(l.value == ostr("xyz"));
    CHECK(l.timestamp == 5'000);
    std::vector<std::pair<str, ostr>> hs;
    for (const auto& h : l.hdrs) hs.emplace_back(h.key, h.value);
    REQUIRE(hs.size() == 6);
    CHECK(hs[0] == std::pair<str, ostr>{"__streams.errors.exception", "kstreams::deserialization_error"});
    CHECK(hs[1].first == "__streams.errors.message");
    CHECK(hs[2].first == "__streams.errors.stacktrace");
    CHECK(hs[3] == std::pair<str, ostr>{"__streams.errors.topic", "eh-in"});
    CHECK(hs[4] == std::pair<str, ostr>{"__streams.errors.partition", "0"});
    CHECK(hs[5] == std::pair<str, ostr>{"__streams.errors.offset", "0"});
    CHECK(app.metrics().value("dead-letter-queue-records") == 1);
    CHECK(app.metrics().value(metric::skipped_deserialization) == 1);
    CHECK(app.close(30s));
}

KSTREAMS_CO_TEST_CASE("production.exception.handler: a record too large to send goes to the handler, which resumes with a dead-letter record") {
    embedded_cluster cluster;
    for (const char* t : {"ep-in", "ep-out", "ep-dlq"}) cluster.create_topic(t, 1);
    streams_builder b;
    b.stream<str, str>("ep-in").to("ep-out");
    auto config = errors_config("ep-resume", cluster.bootstrap_servers());
    config.producer["message.max.bytes"] = "1000";
    std::mutex m;
    std::vector<str> failed;
    config.errors.production = [&](const error_handler_context& ctx, const failed_record& r, std::exception_ptr) {
        std::lock_guard l(m);
        // The source record's raw bytes were released when the sink sent it (Kafka's).
        failed.push_back(str(r.topic) + " " + std::to_string(r.value ? r.value->size() : 0) + " " +
                         str(ctx.processor_node_id) + (ctx.source_raw_key || ctx.source_raw_value ? " raw" : ""));
        dead_letter_record letter;
        letter.topic = "ep-dlq";
        letter.key = str(r.key.value_or(""));
        letter.value = "too large";
        letter.timestamp = r.timestamp;
        return handler_response::resume({letter});
    };
    kafka_streams app(b.build(), config);
    app.start();
    test::topic_writer writer(cluster.bootstrap_servers());
    writer.send("ep-in", str("big"), str(3000, 'x'), 1'000);
    writer.send("ep-in", str("small"), str("ok"), 2'000);
    writer.flush();
    test::topic_reader out(cluster.bootstrap_servers(), {"ep-out"});
    auto recs = co_await test::next_records(out, 1, 60s);
    CHECK(*recs.front().key == "small");
    test::topic_reader dlq(cluster.bootstrap_servers(), {"ep-dlq"});
    auto letters = co_await test::next_records(dlq, 1, 60s);
    CHECK(*letters.front().key == "big");
    CHECK(*letters.front().value == "too large");
    {
        std::lock_guard l(m);
        CHECK(failed == std::vector<str>{"ep-out 3000 KSTREAM-SINK-0000000001"});
    }
    CHECK(app.metrics().value(metric::dropped_production_error) == 1);
    CHECK(app.close(30s));
}

TEST_CASE("production.exception.handler answering fail stops the app (ERROR)") {
    embedded_cluster cluster;
    for (const char* t : {"ef-in", "ef-out"}) cluster.create_topic(t, 1);
    streams_builder b;
    b.stream<str, str>("ef-in").to("ef-out");
    auto config = errors_config("ef-fail", cluster.bootstrap_servers());
    config.producer["message.max.bytes"] = "1000";
    std::atomic<int> calls{0};
    config.errors.production = [&](const error_handler_context&, const failed_record&, std::exception_ptr) {
        ++calls;
        return handler_response::fail();
    };
    kafka_streams app(b.build(), config);
    app.start();
    test::topic_writer writer(cluster.bootstrap_servers());
    writer.send("ef-in", str("big"), str(3000, 'x'), 1'000);
    writer.flush();
    CHECK(app.wait_until(streams_state::error, 60s));
    CHECK(calls.load() == 1);
    REQUIRE(app.error());
    CHECK_THROWS_WITH_AS(std::rethrow_exception(app.error()), doctest::Contains("production exception handler is set to fail"),
                         streams_error);
    app.close(10s);
}
