// The client's edges on the real broker: close(timeout) bounds the producer's flush; a fatal
// thread error goes RUNNING -> PENDING_ERROR -> ERROR; records skipped by log-and-continue are not
// counted as processed; a missing sink topic fails the start; a tombstone is never mapped into a
// real value by a function taking a plain value type; under exactly_once_v2 a record the broker
// refuses, let go by the production handler, stops the thread instead of looping.
#include <doctest/doctest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/streams.hpp>

#include "tests/integration/broker_fixture.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {

/// Waits until `pred` holds or `timeout` passes.
template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!pred()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(50ms);
    }
    return true;
}

}  // namespace

TEST_CASE("close(timeout) bounds the producer's flush: records for an unreachable sink cluster do not hold it") {
    const auto in = test::unique("bound-in"), out = test::unique("bound-out");
    test::create_topics({{in, 1}});
    streams_builder b;
    b.stream<str, str>(in).to(out);
    const topology topo = b.build();
    auto cfg = test::broker_config(test::unique("bound"), test::temp_state_dir("bound"));
    cfg.sink_bootstrap_servers = "127.0.0.1:1";  // nothing listens: the sink records never leave
    cfg.commit_interval = 60s;                   // no commit (and its flush) before the close
    std::chrono::steady_clock::duration took{};
    {
        kafka_streams app(topo, cfg);
        app.start();
        REQUIRE(app.wait_until(streams_state::running, 60s));
        test::topic_writer writer(test::broker());
        writer.send(in, str("k"), str("v"));
        writer.flush();
        REQUIRE(eventually([&] { return app.metrics().value("records-processed") == 1; }, 60s));
        const auto start = std::chrono::steady_clock::now();
        CHECK_FALSE(app.close(2s));  // the records could not be delivered in time
        took = std::chrono::steady_clock::now() - start;
        CHECK(took < 4s);
        // The destructor waits for the threads: they end soon after the close's deadline.
    }
    const auto total = std::chrono::duration_cast<std::chrono::seconds>(took);
    CHECK(total < 10s);
}

TEST_CASE("a fatal error in a stream thread goes RUNNING -> PENDING_ERROR -> ERROR, never through REBALANCING") {
    const auto in = test::unique("fatal-in"), out = test::unique("fatal-out");
    test::create_topics({{in, 1}, {out, 1}});
    streams_builder b;
    b.stream<str, str>(in)
        .peek([](const str&, const str& v) {
            if (v == "boom") throw std::runtime_error("boom");
        })
        .to(out);
    const topology topo = b.build();
    kafka_streams app(topo, test::broker_config(test::unique("fatal"), test::temp_state_dir("fatal")));
    std::mutex m;
    std::vector<std::pair<streams_state, streams_state>> seen;
    app.set_state_listener([&](streams_state now, streams_state old) {
        std::lock_guard lock(m);
        seen.emplace_back(old, now);
    });
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));
    test::topic_writer writer(test::broker());
    writer.send(in, str("k"), str("boom"));
    writer.flush();
    REQUIRE(eventually([&] { return app.state() == streams_state::error; }, 60s));
    std::lock_guard lock(m);
    REQUIRE(seen.size() >= 2);
    CHECK(seen[seen.size() - 2] == std::pair{streams_state::running, streams_state::pending_error});
    CHECK(seen.back() == std::pair{streams_state::pending_error, streams_state::error});
}

TEST_CASE("records skipped by log-and-continue are counted as skipped, not as processed") {
    const auto in = test::unique("skip-in"), out = test::unique("skip-out");
    test::create_topics({{in, 1}, {out, 1}});
    streams_builder b;
    b.stream<str, std::int64_t>(in).to(out);
    const topology topo = b.build();
    auto cfg = test::broker_config(test::unique("skip"), test::temp_state_dir("skip"));
    cfg.log_and_continue_on_deserialization_error = true;
    kafka_streams app(topo, cfg);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));
    test::topic_writer writer(test::broker());
    writer.send_typed(in, str("a"), std::int64_t{1});
    writer.send(in, str("b"), str("bad"));  // 3 bytes: not an int64
    writer.send_typed(in, str("c"), std::int64_t{3});
    writer.flush();
    test::topic_reader reader(test::broker(), {out});
    CHECK(reader.read(2, 60s).size() == 2);
    CHECK(eventually([&] { return app.metrics().value("skipped-records.deserialization-error") == 1; }, 30s));
    CHECK(app.metrics().value("records-processed") == 2);
    CHECK(app.close(60s));
}

TEST_CASE("a missing sink topic fails the start, naming it, as a missing source topic does") {
    const auto in = test::unique("sink-in"), out = test::unique("sink-absent");
    test::create_topics({{in, 1}});
    streams_builder b;
    b.stream<str, str>(in).to(out);
    const topology topo = b.build();
    kafka_streams app(topo, test::broker_config(test::unique("sink"), test::temp_state_dir("sink")));
    const str expected = "sink topic " + out;
    const auto error = test::start_error(app);
    CHECK_MESSAGE(error.find(expected) != std::string::npos, error);
    CHECK(app.state() == streams_state::error);
}

TEST_CASE("a tombstone meeting map_values with a plain value type is dropped and counted, not written as a real value") {
    const auto in = test::unique("tomb-in"), mapped = test::unique("tomb-mapped"), copied = test::unique("tomb-copied");
    test::create_topics({{in, 1}, {mapped, 1}, {copied, 1}});
    streams_builder b;
    auto s = b.stream<str, str>(in);
    s.map_values([](const str& v) { return v + "!"; }).to(mapped);
    s.to(copied);  // no function: the tombstone passes on, as Kafka's
    const topology topo = b.build();
    kafka_streams app(topo, test::broker_config(test::unique("tomb"), test::temp_state_dir("tomb")));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));
    test::topic_writer writer(test::broker());
    writer.send(in, str("a"), str("x"));
    writer.send(in, str("b"), std::nullopt);
    writer.send(in, str("c"), str("y"));
    writer.flush();
    test::topic_reader copies(test::broker(), {copied});
    const auto copied_records = copies.read(3, 60s);
    REQUIRE(copied_records.size() == 3);
    CHECK_FALSE(copied_records[1].value.has_value());
    test::topic_reader maps(test::broker(), {mapped});
    const auto mapped_records = maps.read(2, 60s);
    REQUIRE(mapped_records.size() == 2);
    CHECK(mapped_records[0].value == std::optional<str>("x!"));
    CHECK(mapped_records[1].value == std::optional<str>("y!"));
    CHECK_THROWS(maps.read(1, 2s));  // nothing more (before the fix: "!" for b)
    CHECK(app.metrics().value("dropped-records.null-value-plain-type") == 1);
    CHECK(app.close(60s));
}

TEST_CASE("exactly_once_v2: a record the broker refuses, let go by the production handler, still aborts the transaction "
          "and the thread stops (no endless retry)") {
    const auto in = test::unique("eos-refused-in"), out = test::unique("eos-refused-out");
    {
        kafka::topic_admin admin({{"bootstrap.servers", test::broker()}, {"log_level", "3"}}, 30s, nullptr);
        admin.create_topics({{in, 1, 1, {}}, {out, 1, 1, {{"max.message.bytes", "1000"}}}});
    }
    streams_builder b;
    b.stream<str, str>(in).to(out);
    auto config = test::broker_config(test::unique("eos-refused"), test::temp_state_dir("eos-refused"));
    config.guarantee = processing_guarantee::exactly_once_v2;
    std::atomic<int> let_go{0};
    config.errors.production = [&](const error_handler_context&, const failed_record&, std::exception_ptr) {
        ++let_go;
        return handler_response::resume();
    };
    kafka_streams app(b.build(), config);
    app.start();
    test::topic_writer writer(test::broker());
    writer.send(in, str("big"), str(3000, 'x'));  // the producer sends it; the topic refuses it
    writer.send(in, str("small"), str("ok"));
    writer.flush();
    // Before: the aborted transaction sent the task back to its last commit, the big record
    // failed again, for ever. Kafka's commit fails with a StreamsException instead.
    REQUIRE(eventually([&] { return app.state() == streams_state::error; }, 60s));
    CHECK(let_go.load() >= 1);
    CHECK_THROWS_WITH_AS(std::rethrow_exception(app.error()), doctest::Contains("let go still aborts the transaction"),
                         streams_error);
    test::topic_reader reader(test::broker(), {out}, {{"isolation.level", "read_committed"}});
    CHECK(reader.read_until_quiet(2s).empty());  // nothing of the aborted transaction
}
