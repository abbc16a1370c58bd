// A broker outage mid-run, on the embedded cluster: within task.timeout.ms the app goes on; past it
// the stream thread fails saying what did not answer, and the app reaches ERROR (never a silent hang).
#include <doctest/doctest.h>

#include <atomic>
#include <map>
#include <thread>

#include <kstreams/dsl.hpp>
#include <kstreams/embedded_cluster.hpp>
#include <kstreams/error.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>
#include "tests/support/process_state_dir.hpp"

using namespace kstreams;
using namespace std::chrono_literals;

namespace {

streams_config outage_config(const std::string& app, const std::string& bootstrap, std::chrono::milliseconds task_timeout) {
    streams_config c;
    c.application_id = app;
    c.bootstrap_servers = bootstrap;
    c.commit_interval = 200ms;
    c.task_timeout = task_timeout;
    c.state_dir = kstreams::test::process_state_dir("kstreams-outage-test");
    c.consumer["session.timeout.ms"] = "6000";
    c.kafka["log_level"] = "0";
    return c;
}

/// Passes records through, each waiting while `hold` is set (so that records fetched before an
/// outage are processed during it).
topology held_pass_through(const std::string& in, const std::string& out, std::atomic<bool>& hold) {
    streams_builder b;
    b.stream<std::string, std::string>(in)
        .peek([&hold](const std::string&, const std::string&) {
            while (hold) std::this_thread::sleep_for(5ms);
        })
        .to(out);
    return b.build();
}

}  // namespace

TEST_CASE("a broker outage longer than task.timeout.ms puts the app in ERROR, naming what did not answer") {
    embedded_cluster cluster;
    cluster.create_topic("outage-in", 1);
    cluster.create_topic("outage-out", 1);
    std::atomic<bool> hold{false};
    kafka_streams app(held_pass_through("outage-in", "outage-out", hold),
                      outage_config("outage-long", cluster.bootstrap_servers(), 3s));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    hold = true;
    {
        test::topic_writer writer(cluster.bootstrap_servers());
        for (int i = 0; i < 20; ++i) writer.send("outage-in", "k", "v" + std::to_string(i));
        writer.flush();
    }
    std::this_thread::sleep_for(1s);  // fetched, held in processing
    cluster.set_brokers_up(false);
    const auto down = std::chrono::steady_clock::now();
    hold = false;
    // The outputs cannot be delivered: the commit's flush gives up after task.timeout.ms.
    CHECK(app.wait_until(streams_state::error, 60s));
    CHECK(app.state() == streams_state::error);
    CHECK(std::chrono::steady_clock::now() - down < 30s);
    REQUIRE(app.error() != nullptr);
    try {
        std::rethrow_exception(app.error());
    } catch (const std::exception& e) {
        const std::string what = e.what();
        CHECK_MESSAGE(what.find("3000 ms") != std::string::npos, what);
    }
    cluster.set_brokers_up(true);
    CHECK(app.close(60s));
}

TEST_CASE("a broker outage shorter than task.timeout.ms: the app goes on and nothing is lost") {
    embedded_cluster cluster;
    cluster.create_topic("blip-in", 1);
    cluster.create_topic("blip-out", 1);
    std::atomic<bool> hold{false};
    kafka_streams app(held_pass_through("blip-in", "blip-out", hold),
                      outage_config("outage-short", cluster.bootstrap_servers(), 60s));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    hold = true;
    {
        test::topic_writer writer(cluster.bootstrap_servers());
        for (int i = 0; i < 20; ++i) writer.send("blip-in", "k", "v" + std::to_string(i));
        writer.flush();
    }
    std::this_thread::sleep_for(1s);
    cluster.set_brokers_up(false);
    hold = false;
    std::this_thread::sleep_for(3s);
    cluster.set_brokers_up(true);
    test::topic_reader reader(cluster.bootstrap_servers(), {"blip-out"});
    std::map<std::string, int> seen;
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (seen.size() < 20 && std::chrono::steady_clock::now() < deadline)
        if (auto r = reader.try_next()) ++seen[*r->value];
        else std::this_thread::sleep_for(10ms);
    CHECK(seen.size() == 20);  // at least once each
    CHECK(app.error() == nullptr);
    CHECK(app.state() != streams_state::error);
    CHECK(app.close(60s));
}
