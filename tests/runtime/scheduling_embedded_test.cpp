// Scheduling on the app's executor: num.stream.threads OS threads shared by the stream threads, a
// strand per task, so tasks move between OS threads, and the results are those of one thread.
#include <doctest/doctest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <kstreams/dsl.hpp>
#include <kstreams/embedded_cluster.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>
#include "tests/support/process_state_dir.hpp"

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
    c.state_dir = kstreams::test::process_state_dir("kstreams-sched-test");
    // Long enough that a loaded machine does not drop a member mid-run (its records would be
    // counted twice, and the counts would never equal per_key).
    c.consumer["session.timeout.ms"] = "30000";
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
    // 120 s: on the embedded cluster a rejoin can wait a whole session timeout (30 s here) per
    // stream thread joining, and the threads may join in separate rounds.
    const auto deadline = std::chrono::steady_clock::now() + 120s;
    while (std::chrono::steady_clock::now() < deadline) {
        REQUIRE(app.wait_until(streams_state::running, 120s));
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
    auto done = [&] {
        if (latest.size() != static_cast<std::size_t>(keys)) return false;
        for (const auto& [k, n] : latest)
            if (n != per_key) return false;
        return true;
    };
    // Gives up only once no result came for 60 s (a slow, loaded machine still makes progress).
    auto last_result = std::chrono::steady_clock::now();
    while (!done() && std::chrono::steady_clock::now() - last_result < 60s) {
        if (auto r = reader.try_next()) {
            latest[*r->key] = r->value_as<std::int64_t>();
            last_result = std::chrono::steady_clock::now();
        } else {
            std::this_thread::sleep_for(5ms);
        }
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

TEST_CASE("a slow task does not hold up the other tasks of its stream thread; the results are those without the delay") {
    embedded_cluster cluster(1);
    cluster.create_topic("slow-in", 4);
    // Records of key "slow" (all on partition 0) take 100 ms each; the others none.
    constexpr int slow = 40, fast_per_partition = 30;
    std::atomic<int> slow_done{0};
    streams_builder b;
    b.stream<std::string, std::string>("slow-in")
        .peek([&slow_done](const std::string& k, const std::string&) {
            if (k != "slow") return;
            std::this_thread::sleep_for(100ms);
            ++slow_done;
        })
        .to("slow-out");
    auto cfg = config("slow-task", cluster.bootstrap_servers(), 2);
    // Two stream threads of two tasks each (range assignment: partitions 0 and 1 on one); no commit
    // (which waits for every task's turn) during the test.
    cfg.commit_interval = 60s;
    kafka_streams app(b.build(), cfg);
    std::mutex m;
    auto last_change = std::chrono::steady_clock::now();
    app.set_state_listener([&](streams_state, streams_state) {
        std::lock_guard lock(m);
        last_change = std::chrono::steady_clock::now();
    });
    app.start();
    wait_stable(app, m, last_change, 3s);
    test::topic_writer writer(cluster.bootstrap_servers());
    std::multiset<std::string> expected;
    for (int i = 0; i < slow; ++i) {
        writer.send("slow-in", std::string("slow"), "s" + std::to_string(i), -1, 0);
        expected.insert("s" + std::to_string(i));
    }
    writer.flush();
    const auto since = std::chrono::steady_clock::now();
    while (slow_done == 0 && std::chrono::steady_clock::now() - since < 30s) std::this_thread::sleep_for(5ms);
    REQUIRE(slow_done > 0);  // the slow task is in its turn (all its records in one: 4 s)
    for (int p = 1; p < 4; ++p)
        for (int i = 0; i < fast_per_partition; ++i) {
            const std::string v = "f" + std::to_string(p) + "-" + std::to_string(i);
            writer.send("slow-in", "fast" + std::to_string(p), v, -1, p);
            expected.insert(v);
        }
    writer.flush();
    test::topic_reader reader(cluster.bootstrap_servers(), {"slow-out"});
    std::multiset<std::string> seen;
    std::size_t fast_seen = 0;
    int slow_when_fast_done = -1;
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (seen.size() < expected.size() && std::chrono::steady_clock::now() < deadline) {
        if (auto r = reader.try_next()) {
            seen.insert(*r->value);
            if (r->value->front() == 'f' && ++fast_seen == 3 * fast_per_partition) slow_when_fast_done = slow_done;
        } else {
            std::this_thread::sleep_for(2ms);
        }
    }
    // Every fast record (partition 1 shares a stream thread with the slow partition 0) came out
    // while the slow task was still in its turn.
    CHECK_MESSAGE(slow_when_fast_done >= 0, "not every fast record came out");
    CHECK_MESSAGE(slow_when_fast_done < slow, "the fast records waited for the slow task: " << slow_when_fast_done);
    CHECK(seen == expected);
    CHECK(app.close(60s));
    CHECK(app.error() == nullptr);
}
