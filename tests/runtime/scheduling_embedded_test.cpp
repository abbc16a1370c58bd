// Scheduling on the app's executor: num.stream.threads OS threads shared by the stream threads, a
// strand per task, so tasks move between OS threads, and the results are those of one thread.
#include <doctest/doctest.h>

#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <kstreams/dsl.hpp>
#include <kstreams/embedded_cluster.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

using namespace kstreams;
using namespace std::chrono_literals;

namespace {

constexpr int keys = 64;
constexpr int per_key = 250;

streams_config config(const std::string& app, const std::string& bootstrap, int threads) {
    streams_config c;
    c.application_id = app;
    c.bootstrap_servers = bootstrap;
    c.num_stream_threads = threads;
    c.commit_interval = 200ms;
    c.state_dir = std::filesystem::temp_directory_path() / ("kstreams-sched-test-" + std::to_string(::getpid()));
    c.consumer["session.timeout.ms"] = "6000";
    c.kafka["log_level"] = "3";
    return c;
}

/// Which OS threads processed each key (a key is always on the same task).
struct thread_log {
    std::mutex m;
    std::map<std::string, std::set<std::thread::id>> by_key;
    std::set<std::thread::id> all;
    void saw(const std::string& key) {
        std::lock_guard lock(m);
        by_key[key].insert(std::this_thread::get_id());
        all.insert(std::this_thread::get_id());
    }
};

/// Counts per key, from `in` to `out`, noting the thread of each record.
topology counting(const std::string& in, const std::string& out, thread_log& log) {
    streams_builder b;
    b.stream<std::string, std::string>(in)
        .peek([&log](const std::string& k, const std::string&) { log.saw(k); })
        .group_by_key()
        .count()
        .to_stream()
        .to(out);
    return b.build();
}

/// Waits until the app has been RUNNING for `quiet` without a rebalance (the stream threads join
/// the group one after another: records processed before a rebalance would be processed again).
void wait_stable(kafka_streams& app, std::mutex& m, std::chrono::steady_clock::time_point& last_change,
                 std::chrono::milliseconds quiet) {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (std::chrono::steady_clock::now() < deadline) {
        REQUIRE(app.wait_until(streams_state::running, 60s));
        {
            std::lock_guard lock(m);
            if (std::chrono::steady_clock::now() - last_change >= quiet) return;
        }
        std::this_thread::sleep_for(100ms);
    }
    FAIL("the app did not settle into RUNNING");
}

/// Runs the app, writes the input once its group is stable, and reads until every key's latest
/// count is per_key; returns the latest counts.
std::map<std::string, std::int64_t> run(const std::string& bootstrap, const std::string& app, int threads,
                                        thread_log& log) {
    const std::string out = app + "-out";
    const topology topo = counting("sched-in-" + app, out, log);
    kafka_streams streams(topo, config(app, bootstrap, threads));
    std::mutex m;
    auto last_change = std::chrono::steady_clock::now();
    streams.set_state_listener([&](streams_state, streams_state) {
        std::lock_guard lock(m);
        last_change = std::chrono::steady_clock::now();
    });
    streams.start();
    wait_stable(streams, m, last_change, 3s);
    {
        test::topic_writer writer(bootstrap);
        for (int i = 0; i < per_key; ++i)
            for (int k = 0; k < keys; ++k) writer.send("sched-in-" + app, "k" + std::to_string(k), std::to_string(i));
        writer.flush();
    }
    test::topic_reader reader(bootstrap, {out});
    std::map<std::string, std::int64_t> latest;
    const auto deadline = std::chrono::steady_clock::now() + 120s;
    auto done = [&] {
        if (latest.size() != static_cast<std::size_t>(keys)) return false;
        for (const auto& [k, n] : latest)
            if (n != per_key) return false;
        return true;
    };
    while (!done() && std::chrono::steady_clock::now() < deadline) {
        if (auto r = reader.try_next()) latest[*r->key] = r->value_as<std::int64_t>();
        else std::this_thread::sleep_for(5ms);
    }
    CHECK(streams.close(60s));
    CHECK(streams.error() == nullptr);
    CHECK(streams.metrics().value("records-processed") == static_cast<std::uint64_t>(keys * per_key));
    return latest;
}

}  // namespace

TEST_CASE("4 stream threads run 8 tasks on strands that move between OS threads, with the results of 1 thread") {
    embedded_cluster cluster(1);
    cluster.create_topic("sched-in-sched-1", 8);
    cluster.create_topic("sched-in-sched-4", 8);
    thread_log one_log, four_log;
    const auto one = run(cluster.bootstrap_servers(), "sched-1", 1, one_log);
    const auto four = run(cluster.bootstrap_servers(), "sched-4", 4, four_log);
    CHECK(one.size() == static_cast<std::size_t>(keys));
    CHECK(four == one);
    CHECK(one_log.all.size() == 1);
    // The tasks of all four stream threads ran on more than one OS thread, and some task (all
    // records of a key are on one task) moved between OS threads over time.
    CHECK(four_log.all.size() > 1);
    std::size_t moved = 0;
    for (const auto& [k, threads] : four_log.by_key) moved += threads.size() > 1 ? 1 : 0;
    CHECK_MESSAGE(moved > 0, "no task ran on more than one OS thread");
}
