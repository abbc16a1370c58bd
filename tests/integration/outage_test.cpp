// Broker outages on the real broker: the broker process stops mid-run and starts again on the same
// data and address (scripts/kafka-broker pause / resume). Within task.timeout.ms the app goes on and
// loses nothing; past it the app reaches ERROR naming what did not answer. At start, the same:
// start() returns in REBALANCING, and the app runs once the broker is up, or reaches ERROR naming
// the bootstrap servers when it is not up within task.timeout.ms. Never a silent hang.
#include <doctest/doctest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/error.hpp>
#include <kstreams/streams.hpp>

#include "tests/integration/broker_control.hpp"
#include "tests/integration/broker_fixture.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using test::broker_control;
using test::controllable;
using test::outage;

namespace {

/// Passes records through, each waiting while `hold` is set.
topology held_pass_through(const std::string& in, const std::string& out, std::atomic<bool>& hold) {
    streams_builder b;
    b.stream<std::string, std::string>(in)
        .peek([&hold](const std::string&, const std::string&) {
            while (hold) std::this_thread::sleep_for(5ms);
        })
        .to(out);
    return b.build();
}

std::set<std::string> read_values(test::topic_reader& reader, std::size_t n, std::chrono::seconds timeout) {
    std::set<std::string> seen;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (seen.size() < n && std::chrono::steady_clock::now() < deadline)
        for (auto& r : reader.read_until_quiet(200ms)) seen.insert(*r.value);
    return seen;
}

}  // namespace

TEST_CASE("the broker stops mid-run and comes back on its data within task.timeout.ms: the app goes on, nothing lost") {
    if (!controllable()) return;
    const auto in = test::unique("outage-in"), out = test::unique("outage-out");
    test::create_topics({{in, 1}, {out, 1}});
    std::atomic<bool> hold{false};
    auto cfg = test::broker_config(test::unique("outage-short"), test::temp_state_dir("outage-short"));
    cfg.task_timeout = 120s;
    kafka_streams app(held_pass_through(in, out, hold), cfg);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));
    test::topic_writer writer(test::broker());
    test::topic_reader reader(test::broker(), {out});
    for (int i = 0; i < 20; ++i) writer.send(in, std::string("k"), "a" + std::to_string(i));
    writer.flush();
    REQUIRE(read_values(reader, 20, 60s).size() == 20);
    {
        outage down;
        std::this_thread::sleep_for(2s);
        for (int i = 0; i < 20; ++i) writer.send(in, std::string("k"), "b" + std::to_string(i));  // buffered
        std::this_thread::sleep_for(2s);
        down.end();
    }
    writer.flush();
    const auto seen = read_values(reader, 20, 120s);
    CHECK(seen.size() == 20);  // every b, at least once
    CHECK(app.error() == nullptr);
    CHECK(app.wait_until(streams_state::running, 60s));
    CHECK(app.close(60s));
}

TEST_CASE("the broker stays down longer than task.timeout.ms: the app reaches ERROR, naming the bound") {
    if (!controllable()) return;
    const auto in = test::unique("outage-in"), out = test::unique("outage-out");
    test::create_topics({{in, 1}, {out, 1}});
    std::atomic<bool> hold{false};
    auto cfg = test::broker_config(test::unique("outage-long"), test::temp_state_dir("outage-long"));
    cfg.task_timeout = 5s;
    kafka_streams app(held_pass_through(in, out, hold), cfg);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));
    hold = true;  // records fetched before the outage are processed during it
    {
        test::topic_writer writer(test::broker());
        for (int i = 0; i < 20; ++i) writer.send(in, std::string("k"), "v" + std::to_string(i));
        writer.flush();
    }
    std::this_thread::sleep_for(1s);
    {
        outage down;
        const auto since = std::chrono::steady_clock::now();
        hold = false;
        CHECK(app.wait_until(streams_state::error, 60s));
        CHECK(std::chrono::steady_clock::now() - since < 40s);
    }
    REQUIRE(app.error() != nullptr);
    try {
        std::rethrow_exception(app.error());
    } catch (const std::exception& e) {
        CHECK_MESSAGE(std::string(e.what()).find("5000 ms") != std::string::npos, e.what());
    }
    CHECK(app.close(60s));
}

TEST_CASE("the app starts while the broker is down: REBALANCING until it is back, then RUNNING and every result") {
    if (!controllable()) return;
    const auto in = test::unique("outage-in"), out = test::unique("outage-out");
    test::create_topics({{in, 2}, {out, 1}});
    std::atomic<bool> hold{false};
    auto cfg = test::broker_config(test::unique("outage-start"), test::temp_state_dir("outage-start"));
    cfg.task_timeout = 120s;
    kafka_streams app(held_pass_through(in, out, hold), cfg);
    {
        outage down;
        const auto before = std::chrono::steady_clock::now();
        app.start();  // as Kafka's: start() needs no cluster
        CHECK(std::chrono::steady_clock::now() - before < 2s);
        CHECK(app.state() == streams_state::rebalancing);
        std::this_thread::sleep_for(3s);
        CHECK(app.state() == streams_state::rebalancing);
        CHECK(app.error() == nullptr);
    }
    REQUIRE(app.wait_until(streams_state::running, 90s));
    test::topic_writer writer(test::broker());
    for (int i = 0; i < 20; ++i) writer.send(in, "k" + std::to_string(i), "v" + std::to_string(i));
    writer.flush();
    test::topic_reader reader(test::broker(), {out});
    CHECK(read_values(reader, 20, 60s).size() == 20);
    CHECK(app.error() == nullptr);
    CHECK(app.close(60s));
}

TEST_CASE("the broker stays down past task.timeout.ms at start: ERROR within the bound, naming the bootstrap servers") {
    if (!controllable()) return;
    const auto in = test::unique("outage-in"), out = test::unique("outage-out");
    test::create_topics({{in, 1}, {out, 1}});
    std::atomic<bool> hold{false};
    auto cfg = test::broker_config(test::unique("outage-never"), test::temp_state_dir("outage-never"));
    cfg.task_timeout = 4s;
    kafka_streams app(held_pass_through(in, out, hold), cfg);
    std::mutex m;
    std::vector<streams_state> states;
    app.set_state_listener([&](streams_state now, streams_state) {
        std::lock_guard lock(m);
        states.push_back(now);
    });
    std::exception_ptr handled;
    app.set_uncaught_exception_handler([&](std::exception_ptr e) {
        std::lock_guard lock(m);
        handled = e;
        return uncaught_exception_response::shutdown_client;
    });
    outage down;
    const auto before = std::chrono::steady_clock::now();
    app.start();
    CHECK(app.state() == streams_state::rebalancing);
    CHECK(app.wait_until(streams_state::error, 60s));
    const auto took = std::chrono::steady_clock::now() - before;
    CHECK(took >= 4s);
    CHECK(took < 30s);
    REQUIRE(app.error() != nullptr);
    try {
        std::rethrow_exception(app.error());
    } catch (const std::exception& e) {
        const std::string what = e.what();
        CHECK_MESSAGE(what.find("bootstrap.servers=" + test::broker() + " within task.timeout.ms (4000 ms)") !=
                          std::string::npos,
                      what);
    }
    CHECK(app.close(30s));
    std::lock_guard lock(m);
    CHECK(handled == app.error());
    CHECK(states == std::vector{streams_state::rebalancing, streams_state::pending_error, streams_state::error});
}

TEST_CASE("a dead address at start: start() returns, the app reaches ERROR within task.timeout.ms, not a hang") {
    auto cfg = test::broker_config(test::unique("dead-address"), test::temp_state_dir("dead-address"));
    cfg.bootstrap_servers = "127.0.0.1:1";
    cfg.task_timeout = 3s;
    streams_builder b;
    b.stream<std::string, std::string>("anything").to("elsewhere");
    kafka_streams app(b.build(), cfg);
    const auto before = std::chrono::steady_clock::now();
    const auto error = test::start_error(app);
    CHECK(std::chrono::steady_clock::now() - before < 20s);
    CHECK(app.state() == streams_state::error);
    CHECK_MESSAGE(error.find("bootstrap.servers=127.0.0.1:1 within task.timeout.ms (3000 ms)") != std::string::npos, error);
}

/// Stops the broker from answering (SIGSTOP: its sockets stay open) for the guard's life.
struct hang {
    hang() { broker_control("freeze"); }
    ~hang() { broker_control("thaw"); }
};

/// A running pass-through app that has processed 20 records.
std::unique_ptr<kafka_streams> running_app(const std::string& name, std::atomic<bool>& hold) {
    const auto in = test::unique("outage-in"), out = test::unique("outage-out");
    test::create_topics({{in, 1}, {out, 1}});
    auto cfg = test::broker_config(test::unique(name), test::temp_state_dir(name));
    cfg.task_timeout = 120s;
    auto app = std::make_unique<kafka_streams>(held_pass_through(in, out, hold), cfg);
    app->start();
    REQUIRE(app->wait_until(streams_state::running, 60s));
    test::topic_writer writer(test::broker());
    for (int i = 0; i < 20; ++i) writer.send(in, std::string("k"), "v" + std::to_string(i));
    writer.flush();
    test::topic_reader reader(test::broker(), {out});
    REQUIRE(read_values(reader, 20, 60s).size() == 20);
    return app;
}

/// close(2 s) and destruction of `app`, timed.
std::chrono::milliseconds timed_close(std::unique_ptr<kafka_streams> app) {
    const auto since = std::chrono::steady_clock::now();
    app->close(2s);  // returns by its timeout, whether or not the clients let go
    CHECK(std::chrono::steady_clock::now() - since < 6s);
    app.reset();  // the client's threads and librdkafka handles are gone
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - since);
}

/// A running app, then the broker made unavailable by `Guard`, then close(2 s) and destruction.
template <class Guard>
void check_bounded_close(const std::string& name) {
    std::atomic<bool> hold{false};
    auto app = running_app(name, hold);
    Guard unavailable;
    std::this_thread::sleep_for(1s);
    const auto took = timed_close(std::move(app));
    // Generous against a slow machine; without a bound the consumer's close waits for the
    // coordinator and the producer for its own flush, for tens of seconds.
    CHECK_MESSAGE(took < 12s, "close(2s) and destruction took " << took.count() << " ms");
}

TEST_CASE("close(timeout) while the broker is down or hung bounds every client's shutdown, the group leave included") {
    if (!controllable()) return;
    SUBCASE("the broker is down") { check_bounded_close<outage>("outage-close-down"); }
    SUBCASE("the broker hangs") { check_bounded_close<hang>("outage-close-hung"); }
}
