// The Kafka runtime on the embedded (mock) cluster: no broker needed.
#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/embedded_cluster.hpp>
#include <kstreams/error.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

#include "tests/support/await_records.hpp"
#include "tests/support/word_count_topology.hpp"
#include "tests/support/process_state_dir.hpp"

using namespace kstreams;
using namespace std::chrono_literals;

namespace {

streams_config embedded_config(const std::string& app) {
    streams_config c;
    c.application_id = app;
    c.bootstrap_servers = "embedded";
    c.commit_interval = 200ms;
    c.state_dir = kstreams::test::process_state_dir("kstreams-rt-test");
    c.consumer["session.timeout.ms"] = "6000";
    c.kafka["log_level"] = "3";
    return c;
}

std::map<std::string, std::int64_t> last_counts(const std::vector<test::consumed_record>& recs) {
    std::map<std::string, std::int64_t> out;
    for (const auto& r : recs) out[*r.key] = r.value_as<std::int64_t>();
    return out;
}

/// Local active tasks over the stream threads.
std::size_t active_tasks(const kafka_streams& app) {
    std::size_t n = 0;
    for (const auto& t : app.metadata_for_local_threads()) n += t.active_tasks.size();
    return n;
}

/// Waits until the app is RUNNING with `threads` stream threads holding both tasks.
bool settled(const kafka_streams& app, std::size_t threads) {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (std::chrono::steady_clock::now() < deadline) {
        if (app.state() == streams_state::running && app.metadata_for_local_threads().size() == threads &&
            active_tasks(app) == 2)
            return true;
        std::this_thread::sleep_for(50ms);
    }
    return false;
}

}  // namespace

KSTREAMS_CO_TEST_CASE("word count runs on the embedded cluster, and the state listener sees the whole life cycle") {
    auto topo = test::word_count_topology("text-lines", "word-counts");
    kafka_streams app(topo, embedded_config("wc-embedded"));
    std::mutex m;
    std::vector<streams_state> seen;
    app.set_state_listener([&](streams_state now, streams_state) {
        std::lock_guard lock(m);
        seen.push_back(now);
    });
    CHECK(app.state() == streams_state::created);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));

    test::topic_writer writer(app.bootstrap_servers());
    for (const char* line : {"all streams lead to kafka", "hello kafka streams", "join kafka summit"})
        writer.send("text-lines", std::nullopt, std::string(line));
    writer.flush();

    test::topic_reader reader(app.bootstrap_servers(), {"word-counts"});
    auto recs = co_await test::next_records(reader, 11, 30s);
    auto counts = last_counts(recs);
    CHECK(counts["kafka"] == 3);
    CHECK(counts["streams"] == 2);
    CHECK(counts["all"] == 1);
    CHECK(counts["summit"] == 1);
    CHECK(app.metrics().value("records-processed") >= 0);

    CHECK(app.close(30s));
    CHECK(app.state() == streams_state::not_running);
    std::lock_guard lock(m);
    REQUIRE(seen.size() >= 4);
    CHECK(seen.front() == streams_state::rebalancing);
    CHECK(std::find(seen.begin(), seen.end(), streams_state::running) != seen.end());
    CHECK(seen[seen.size() - 2] == streams_state::pending_shutdown);
    CHECK(seen.back() == streams_state::not_running);
}

namespace {

/// What an app told its state listener and its uncaught exception handler.
struct told {
    std::mutex m;
    std::vector<streams_state> states;
    int handled = 0;

    void listen(kafka_streams& app, uncaught_exception_response first, uncaught_exception_response then) {
        app.set_state_listener([this](streams_state now, streams_state) {
            std::lock_guard lock(m);
            states.push_back(now);
        });
        app.set_uncaught_exception_handler([this, first, then](std::exception_ptr) {
            std::lock_guard lock(m);
            return handled++ == 0 ? first : then;
        });
    }
};

std::string what(std::exception_ptr e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::exception& ex) {
        return ex.what();
    }
    return {};
}

}  // namespace

TEST_CASE("an unreachable broker: start() returns in REBALANCING, then ERROR within task.timeout.ms naming it") {
    auto topo = test::word_count_topology("in", "out");
    auto cfg = embedded_config("unreachable");
    cfg.bootstrap_servers = "127.0.0.1:1";
    cfg.task_timeout = 2s;
    told t;  // outlives the app, whose threads tell it
    kafka_streams app(topo, cfg);
    t.listen(app, uncaught_exception_response::shutdown_client, uncaught_exception_response::shutdown_client);
    const auto t0 = std::chrono::steady_clock::now();
    app.start();  // as Kafka's: no cluster is needed to start
    CHECK(std::chrono::steady_clock::now() - t0 < 1s);
    CHECK(app.state() == streams_state::rebalancing);
    CHECK(app.wait_until(streams_state::error, 30s));
    const auto took = std::chrono::steady_clock::now() - t0;
    CHECK(took >= 2s);
    CHECK(took < 15s);
    REQUIRE(app.error() != nullptr);
    CHECK_MESSAGE(what(app.error()).find("bootstrap.servers=127.0.0.1:1 within task.timeout.ms (2000 ms)") !=
                      std::string::npos,
                  what(app.error()));
    CHECK(app.close(10s));
    std::lock_guard lock(t.m);
    CHECK(t.handled == 1);
    CHECK(t.states == std::vector{streams_state::rebalancing, streams_state::pending_error, streams_state::error});
}

TEST_CASE("an unreachable broker and a handler answering replace_thread: the app keeps trying, one bound at a time") {
    auto topo = test::word_count_topology("in", "out");
    auto cfg = embedded_config("unreachable-retry");
    cfg.bootstrap_servers = "127.0.0.1:1";
    cfg.task_timeout = 1s;
    told t;  // outlives the app, whose threads tell it
    kafka_streams app(topo, cfg);
    t.listen(app, uncaught_exception_response::replace_thread, uncaught_exception_response::shutdown_client);
    const auto t0 = std::chrono::steady_clock::now();
    app.start();
    CHECK(app.wait_until(streams_state::error, 30s));
    CHECK(std::chrono::steady_clock::now() - t0 >= 2s);  // two bounds
    std::lock_guard lock(t.m);
    CHECK(t.handled == 2);
}

TEST_CASE("close() while the app waits for an unreachable broker returns at once, without an error") {
    auto topo = test::word_count_topology("in", "out");
    auto cfg = embedded_config("unreachable-close");
    cfg.bootstrap_servers = "127.0.0.1:1";
    kafka_streams app(topo, cfg);  // task.timeout.ms: 5 minutes
    app.start();
    std::this_thread::sleep_for(500ms);
    CHECK(app.state() == streams_state::rebalancing);
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(app.close(30s));
    CHECK(std::chrono::steady_clock::now() - t0 < 5s);
    CHECK(app.state() == streams_state::not_running);
    CHECK(app.error() == nullptr);
}

TEST_CASE("an embedded cluster whose broker is down at start: start() waits for it within task.timeout.ms") {
    embedded_cluster cluster;
    cluster.create_topic("lines-late", 1);
    cluster.set_brokers_up(false);
    auto topo = test::word_count_topology("lines-late", "out");
    auto cfg = embedded_config("late-broker");
    cfg.bootstrap_servers = cluster.bootstrap_servers();
    cfg.startup_timeout = 1s;
    cfg.task_timeout = 60s;
    kafka_streams app(topo, cfg);
    std::thread up([&cluster] {
        std::this_thread::sleep_for(3s);
        cluster.set_brokers_up(true);
    });
    app.start();  // the embedded cluster is in this process: its topics are there when start() returns
    up.join();
    CHECK(app.wait_until(streams_state::running, 60s));
    CHECK(app.close(30s));
}

TEST_CASE("a missing source topic is a clear error naming it") {
    embedded_cluster cluster;
    auto topo = test::word_count_topology("no-such-topic", "out");
    auto cfg = embedded_config("missing-source");
    cfg.bootstrap_servers = cluster.bootstrap_servers();
    kafka_streams app(topo, cfg);
    CHECK_THROWS_WITH_AS(app.start(), doctest::Contains("source topic no-such-topic"), streams_error);
    CHECK(app.state() == streams_state::error);
}

TEST_CASE("an internal topic with the wrong partition count is a clear error naming it") {
    embedded_cluster cluster;
    cluster.create_topic("lines-in", 2);
    cluster.create_topic("bad-parts-counts-changelog", 3);
    auto topo = test::word_count_topology("lines-in", "out");
    auto cfg = embedded_config("bad-parts");
    cfg.bootstrap_servers = cluster.bootstrap_servers();
    kafka_streams app(topo, cfg);
    CHECK_THROWS_WITH_AS(app.start(), doctest::Contains("bad-parts-counts-changelog exists with 3 partitions"),
                         streams_error);
    CHECK(app.state() == streams_state::error);
}

TEST_CASE("exactly_once_v2 needs a real cluster: on the embedded cluster start() says so") {
    auto topo = test::word_count_topology("in", "out");
    auto cfg = embedded_config("eos");
    cfg.guarantee = processing_guarantee::exactly_once_v2;
    kafka_streams app(topo, cfg);
    CHECK_THROWS_WITH_AS(app.start(), doctest::Contains("exactly_once_v2 needs a real Kafka cluster"), streams_error);
    CHECK(app.state() == streams_state::error);
    // Nor across two clusters.
    cfg.sink_bootstrap_servers = "127.0.0.1:1";
    CHECK_THROWS_WITH_AS(kafka_streams(topo, cfg), doctest::Contains("a transaction does not span two clusters"),
                         std::invalid_argument);
}

TEST_CASE("commit.interval.ms defaults to Kafka's for the guarantee: 30 s, or 100 ms under exactly_once_v2") {
    streams_config c;
    CHECK(c.effective_commit_interval() == 30s);
    c.guarantee = processing_guarantee::exactly_once_v2;
    CHECK(c.effective_commit_interval() == 100ms);
    c.commit_interval = 5s;
    CHECK(c.effective_commit_interval() == 5s);
    auto p = streams_config::from_properties({{"processing.guarantee", "exactly_once_v2"}});
    CHECK(p.effective_commit_interval() == 100ms);
}

TEST_CASE("streams_config reads Java-style properties") {
    auto c = streams_config::from_properties({{"application.id", "a"},
                                              {"num.stream.threads", "3"},
                                              {"commit.interval.ms", "100"},
                                              {"consumer.fetch.wait.max.ms", "10"},
                                              {"linger.ms", "7"}});
    CHECK(c.application_id == "a");
    CHECK(c.num_stream_threads == 3);
    CHECK(c.commit_interval == 100ms);
    CHECK(c.consumer.at("fetch.wait.max.ms") == "10");
    CHECK(c.kafka.at("linger.ms") == "7");
    CHECK_THROWS_AS(streams_config::from_properties({{"num.stream.threads", "x"}}), std::invalid_argument);
    // Kafka's internal emit intervals are the app's, not librdkafka's (which would refuse them).
    auto i = streams_config::from_properties({{"__emit.interval.ms.kstreams.outer.join.spurious.results.fix__", "250"},
                                              {"__emit.interval.ms.kstreams.windowed.aggregation__", "500"}});
    CHECK(i.outer_join_emit_interval == 250ms);
    CHECK(i.windowed_emit_interval == 500ms);
    CHECK(i.kafka.empty());
}

namespace {

/// Forwards lines unchanged; throws on "boom" while `armed` is set (then disarms).
struct fragile : processor<std::string, std::string, std::string, std::string> {
    std::atomic<int>* throws_left;
    explicit fragile(std::atomic<int>* t) : throws_left(t) {}
    void process(const record<std::string, std::string>& r) override {
        if (r.value == "boom" && throws_left->fetch_sub(1) > 0) throw std::runtime_error("boom!");
        context().forward(r);
    }
};

topology fragile_topology(std::atomic<int>* throws_left) {
    topology t;
    t.add_source<std::string, std::string>("in", {"fragile-in"})
        .add_processor("fragile", [throws_left] { return std::make_unique<fragile>(throws_left); }, {"in"})
        .add_sink<std::string, std::string>("out", "fragile-out", {"fragile"});
    return t;
}

/// Forwards a tick on every wall-clock punctuation (every 100 ms), without any input.
struct ticker : processor<std::string, std::string, std::string, std::string> {
    void init(context_type& ctx) override {
        processor::init(ctx);
        ctx.schedule(std::chrono::milliseconds(100), punctuation_type::wall_clock_time, [this](std::int64_t ts) {
            context().forward(record<std::string, std::string>{"tick", std::to_string(ts), ts});
        });
    }
    void process(const record<std::string, std::string>&) override {}
};

}  // namespace

KSTREAMS_CO_TEST_CASE("a thread that dies with shutdown_client puts the app in ERROR, naming the record") {
    std::atomic<int> throws_left{1000};
    auto topo = fragile_topology(&throws_left);
    kafka_streams app(topo, embedded_config("fragile-shutdown"));
    std::atomic<bool> handler_called{false};
    app.set_uncaught_exception_handler([&](std::exception_ptr) {
        handler_called = true;
        return uncaught_exception_response::shutdown_client;
    });
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    test::topic_writer writer(app.bootstrap_servers());
    writer.send("fragile-in", std::nullopt, std::string("boom"));
    writer.flush();
    CHECK(app.wait_until(streams_state::error, 30s));
    CHECK(handler_called);
    REQUIRE(app.error() != nullptr);
    try {
        std::rethrow_exception(app.error());
    } catch (const std::exception& e) {
        CHECK(std::string(e.what()).find("topic fragile-in, partition 0, offset 0") != std::string::npos);
    }
    app.close(10s);
    co_return;
}

KSTREAMS_CO_TEST_CASE("replace_thread starts a new stream thread that goes on processing") {
    std::atomic<int> throws_left{1};
    auto topo = fragile_topology(&throws_left);
    kafka_streams app(topo, embedded_config("fragile-replace"));
    app.set_uncaught_exception_handler([](std::exception_ptr) { return uncaught_exception_response::replace_thread; });
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    test::topic_writer writer(app.bootstrap_servers());
    writer.send("fragile-in", std::nullopt, std::string("boom"));
    writer.send("fragile-in", std::nullopt, std::string("after"));
    writer.flush();
    test::topic_reader reader(app.bootstrap_servers(), {"fragile-out"});
    auto recs = co_await test::next_records(reader, 2, 60s);
    CHECK(*recs[0].value == "boom");  // reprocessed by the new thread: at-least-once
    CHECK(*recs[1].value == "after");
    CHECK(app.state() != streams_state::error);
    CHECK(app.close(30s));
}

KSTREAMS_CO_TEST_CASE("wall-clock punctuations fire from an Asio timer with no input at all") {
    topology t;
    t.add_source<std::string, std::string>("in", {"idle-in"})
        .add_processor("ticker", [] { return std::make_unique<ticker>(); }, {"in"})
        .add_sink<std::string, std::string>("out", "ticks", {"ticker"});
    kafka_streams app(t, embedded_config("ticker"));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    test::topic_reader reader(app.bootstrap_servers(), {"ticks"});
    auto recs = co_await test::next_records(reader, 3, 30s);
    CHECK(recs.size() == 3);
    CHECK(std::stoll(*recs[2].value) > std::stoll(*recs[0].value));
    CHECK(app.close(30s));
}

KSTREAMS_CO_TEST_CASE("an app keeps a topology it is given as a temporary") {
    kafka_streams app(test::word_count_topology("tmp-topo-in", "tmp-topo-out"), embedded_config("tmp-topo"));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    test::topic_writer writer(app.bootstrap_servers());
    writer.send("tmp-topo-in", std::nullopt, std::string("still here"));
    writer.flush();
    test::topic_reader reader(app.bootstrap_servers(), {"tmp-topo-out"});
    auto recs = co_await test::next_records(reader, 2, 60s);
    CHECK(last_counts(recs) == std::map<std::string, std::int64_t>{{"still", 1}, {"here", 1}});
    CHECK(app.close(30s));
}

KSTREAMS_CO_TEST_CASE("two stream threads share the partitions of one app") {
    auto topo = test::word_count_topology("mt-in", "mt-out");
    auto cfg = embedded_config("two-threads");
    cfg.num_stream_threads = 2;
    cfg.embedded_partitions = 4;
    kafka_streams app(topo, cfg);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    test::topic_writer writer(app.bootstrap_servers());
    // Keyed by the word, so each word is counted by one task (word count does not repartition).
    for (int i = 0; i < 40; ++i) {
        const std::string w = "w" + std::to_string(i % 8);
        writer.send("mt-in", w, w);
    }
    writer.flush();
    test::topic_reader reader(app.bootstrap_servers(), {"mt-out"});
    auto recs = co_await test::next_records(reader, 40, 60s);
    std::map<std::string, std::int64_t> counts;
    for (const auto& r : recs) counts[*r.key] = std::max(counts[*r.key], r.value_as<std::int64_t>());
    CHECK(counts.size() == 8);
    for (const auto& [w, n] : counts) CHECK_MESSAGE(n == 5, w);
    CHECK(app.close(30s));
    // Metrics are published at commits: after the close, not merely after the outputs arrived.
    CHECK(app.metrics().value("records-processed") == 40);
}

KSTREAMS_CO_TEST_CASE("a task with two input partitions processes the buffered record with the lowest timestamp first") {
    embedded_cluster cluster;
    cluster.create_topic("left", 1);
    cluster.create_topic("right", 1);
    cluster.create_topic("merged", 1);
    {
        // Loaded before the app starts, so both partitions are buffered when processing begins.
        test::topic_writer writer(cluster.bootstrap_servers());
        for (std::int64_t ts : {1, 3, 5}) writer.send("left", std::string("k"), "L" + std::to_string(ts), ts * 1000);
        for (std::int64_t ts : {2, 4, 6}) writer.send("right", std::string("k"), "R" + std::to_string(ts), ts * 1000);
        writer.flush();
    }
    topology t;
    t.add_source<std::string, std::string>("both", {"left", "right"})
        .add_sink<std::string, std::string>("out", "merged", {"both"});
    auto cfg = embedded_config("timestamp-order");
    cfg.bootstrap_servers = cluster.bootstrap_servers();
    kafka_streams app(t, cfg);
    app.start();
    test::topic_reader reader(cluster.bootstrap_servers(), {"merged"});
    auto recs = co_await test::next_records(reader, 6, 30s);
    std::vector<std::string> order;
    for (const auto& r : recs) order.push_back(*r.value);
    CHECK(order == std::vector<std::string>{"L1", "R2", "L3", "R4", "L5", "R6"});
    CHECK(recs[5].timestamp == 6000);
    CHECK(app.close(30s));
}

KSTREAMS_CO_TEST_CASE("multi-cluster: sources read from one cluster, sinks write to another, internal topics stay") {
    embedded_cluster source, sink;
    source.create_topic("mc-in", 1);
    sink.create_topic("mc-out", 1);
    auto topo = test::word_count_topology("mc-in", "mc-out");
    auto cfg = embedded_config("multi-cluster");
    cfg.bootstrap_servers = source.bootstrap_servers();
    cfg.sink_bootstrap_servers = sink.bootstrap_servers();
    kafka_streams app(topo, cfg);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    test::topic_writer writer(source.bootstrap_servers());
    writer.send("mc-in", std::nullopt, std::string("a b a"));
    writer.flush();
    test::topic_reader out(sink.bootstrap_servers(), {"mc-out"});
    auto recs = co_await test::next_records(out, 3, 30s);
    CHECK(*recs[2].key == "a");
    CHECK(recs[2].value_as<std::int64_t>() == 2);
    // Nothing of the sink went to the source cluster.
    test::topic_reader wrong(source.bootstrap_servers(), {"mc-out"});
    CHECK(wrong.read_until_quiet(500ms).empty());
    CHECK(app.close(30s));
}

KSTREAMS_CO_TEST_CASE("a partition buffers at most buffered.records.per.partition; nothing is lost, nothing paused") {
    embedded_cluster cluster;
    cluster.create_topic("bp-in", 2);
    cluster.create_topic("bp-out", 1);
    {
        test::topic_writer writer(cluster.bootstrap_servers());
        for (int i = 0; i < 500; ++i) writer.send("bp-in", "k" + std::to_string(i), std::to_string(i), 1000 + i);
        writer.flush();
    }
    topology t;
    t.add_source<std::string, std::string>("in", {"bp-in"}).add_sink<std::string, std::string>("out", "bp-out", {"in"});
    auto cfg = embedded_config("backpressure");
    cfg.bootstrap_servers = cluster.bootstrap_servers();
    cfg.buffered_records_per_partition = 5;
    kafka_streams app(t, cfg);
    app.start();
    test::topic_reader reader(cluster.bootstrap_servers(), {"bp-out"});
    auto recs = co_await test::next_records(reader, 500, 60s);
    std::set<std::string> values;
    for (const auto& r : recs) values.insert(*r.value);
    CHECK(values.size() == 500);
    CHECK(app.close(30s));
    CHECK(app.metrics().value("records-processed") == 500);
    // Each partition's own fetch queue holds the rest: pausing would drop librdkafka's prefetch.
    CHECK(app.metrics().value("partition-pauses") == 0);
}

KSTREAMS_CO_TEST_CASE("a source's own offset reset policy decides where a partition with no commit starts") {
    embedded_cluster cluster;
    for (const char* t : {"reset-early", "reset-late", "reset-default", "reset-out"}) cluster.create_topic(t, 1);
    test::topic_writer writer(cluster.bootstrap_servers());
    for (const char* t : {"reset-early", "reset-late", "reset-default"}) writer.send(t, std::string("k"), std::string(t) + ":old");
    writer.flush();

    streams_builder b;
    b.stream<std::string, std::string>("reset-early", consumed<>{}.with_offset_reset_policy(offset_reset::earliest)).to("reset-out");
    b.stream<std::string, std::string>("reset-late", consumed<>{}.with_offset_reset_policy(offset_reset::latest)).to("reset-out");
    b.stream<std::string, std::string>("reset-default").to("reset-out");
    auto topo = b.build();
    auto cfg = embedded_config("offset-reset");
    cfg.bootstrap_servers = cluster.bootstrap_servers();
    cfg.consumer["auto.offset.reset"] = "latest";  // the default for sources without their own policy
    kafka_streams app(topo, cfg);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    test::topic_reader out(cluster.bootstrap_servers(), {"reset-out"});
    auto first = co_await test::next_records(out, 1, 30s);
    CHECK(first[0].value_as<std::string>() == "reset-early:old");
    // The latest offset of the other partitions is looked up when their fetch starts; give it time.
    std::this_thread::sleep_for(1s);

    for (const char* t : {"reset-late", "reset-default"}) writer.send(t, std::string("k"), std::string(t) + ":new");
    writer.flush();
    auto recs = co_await test::next_records(out, 2, 30s);
    std::set<std::string> values;
    for (const auto& r : recs) values.insert(r.value_as<std::string>());
    CHECK(values == std::set<std::string>{"reset-late:new", "reset-default:new"});
    CHECK(out.read_until_quiet(500ms).empty());
    CHECK(app.close(30s));
}

namespace {
topology join_topology(bool rekey_left) {
    streams_builder b;
    auto l = b.stream<std::string, std::string>("join-left");
    if (rekey_left) l = l.select_key([](const std::string& v) { return v.substr(0, 1); });
    auto r = b.stream<std::string, std::string>("join-right");
    l.join(r, [](const std::string& a, const std::string& c) { return a + "+" + c; },
           join_windows::of_time_difference_with_no_grace(10s))
        .to("join-out");
    return b.build();
}
}  // namespace

TEST_CASE("joined source topics with different partition counts are a clear error naming both") {
    embedded_cluster cluster;
    cluster.create_topic("join-left", 3);
    cluster.create_topic("join-right", 2);
    const topology topo = join_topology(false);
    auto cfg = embedded_config("join-copartition");
    cfg.bootstrap_servers = cluster.bootstrap_servers();
    kafka_streams app(topo, cfg);
    CHECK_THROWS_WITH_AS(app.start(), doctest::Contains("must be co-partitioned"), streams_error);
}

KSTREAMS_CO_TEST_CASE("a join's re-keyed side is repartitioned into as many partitions as the other side has") {
    embedded_cluster cluster;
    cluster.create_topic("join-left", 3);
    cluster.create_topic("join-right", 2);
    cluster.create_topic("join-out", 1);
    const topology topo = join_topology(true);
    auto cfg = embedded_config("join-rekeyed");
    cfg.bootstrap_servers = cluster.bootstrap_servers();
    kafka_streams app(topo, cfg);
    app.start();
    test::topic_writer writer(cluster.bootstrap_servers());
    for (const char* k : {"a", "b", "c", "d"}) writer.send("join-right", std::string(k), "R" + std::string(k), 5'000);
    for (const char* v : {"a1", "b1", "c1", "d1"}) writer.send("join-left", std::string("x"), std::string(v), 6'000);
    writer.flush();
    test::topic_reader reader(cluster.bootstrap_servers(), {"join-out"});
    // Generous: the repartition topic appearing after the group formed costs a rebalance, and a
    // rejoin on the mock cluster waits for session.timeout.ms (once seen at 30 s under CI load).
    auto recs = co_await test::next_records(reader, 4, 90s);
    std::set<std::string> joined;
    for (const auto& r : recs) joined.insert(*r.key + ":" + *r.value + "@" + std::to_string(r.timestamp));
    CHECK(joined == std::set<std::string>{"a:a1+Ra@6000", "b:b1+Rb@6000", "c:c1+Rc@6000", "d:d1+Rd@6000"});
    CHECK(app.close(30s));
}

TEST_CASE("progress is readable between commits: processed, produced, acknowledged, lag") {
    embedded_cluster cluster;
    cluster.create_topic("progress-in", 1);
    cluster.create_topic("progress-out", 1);
    constexpr std::uint64_t n = 2000;
    {
        test::topic_writer writer(cluster.bootstrap_servers());
        for (std::uint64_t i = 0; i < n; ++i) writer.send("progress-in", "k" + std::to_string(i % 7), std::to_string(i), 1000);
        writer.flush();
    }
    topology t;
    t.add_source<std::string, std::string>("in", {"progress-in"})
        .add_sink<std::string, std::string>("out", "progress-out", {"in"});
    auto cfg = embedded_config("progress");
    cfg.bootstrap_servers = cluster.bootstrap_servers();
    cfg.commit_interval = 10min;  // only the commit at start: what shows below was published mid-run
    kafka_streams app(t, cfg);
    app.start();
    bool done = false;
    kstreams::metrics m;
    for (auto deadline = std::chrono::steady_clock::now() + 60s; !done && std::chrono::steady_clock::now() < deadline;) {
        std::this_thread::sleep_for(50ms);
        m = app.metrics();
        done = m.value(metric::records_processed) == n && m.value(metric::records_acknowledged) == n;
    }
    CHECK(done);
    CHECK(m.value(metric::records_produced) == n);
    CHECK(m.all().count("records-lag.progress-in.0") == 1);
    CHECK(m.value("records-lag.progress-in.0") == 0);
    CHECK(app.close(30s));
}

TEST_CASE("the metrics listener is told progress between commits and the final counters at close") {
    embedded_cluster cluster;
    cluster.create_topic("listened-in", 1);
    cluster.create_topic("listened-out", 1);
    constexpr std::uint64_t n = 1000;
    {
        test::topic_writer writer(cluster.bootstrap_servers());
        for (std::uint64_t i = 0; i < n; ++i) writer.send("listened-in", "k" + std::to_string(i % 5), std::to_string(i), 1000);
        writer.flush();
    }
    topology t;
    t.add_source<std::string, std::string>("in", {"listened-in"})
        .add_sink<std::string, std::string>("out", "listened-out", {"in"});
    auto cfg = embedded_config("listened");
    cfg.bootstrap_servers = cluster.bootstrap_servers();
    cfg.commit_interval = 10min;  // what the listener sees before close() was published mid-run
    kafka_streams app(t, cfg);
    CHECK_THROWS_AS(app.set_metrics_listener([](const kstreams::metrics&) {}, 0ms), std::invalid_argument);
    std::mutex mutex;
    std::condition_variable told;
    std::vector<kstreams::metrics> reports;
    app.set_metrics_listener(
        [&](const kstreams::metrics& m) {
            std::lock_guard lock(mutex);
            reports.push_back(m);
            told.notify_all();
        },
        20ms);
    app.start();
    CHECK_THROWS_AS(app.set_metrics_listener([](const kstreams::metrics&) {}), std::logic_error);
    {
        std::unique_lock lock(mutex);
        const bool all_acknowledged = told.wait_for(lock, 60s, [&] {
            return !reports.empty() && reports.back().value(metric::records_processed) == n &&
                   reports.back().value(metric::records_acknowledged) == n;
        });
        CHECK(all_acknowledged);
    }
    std::size_t before_close = 0;
    {
        std::lock_guard lock(mutex);
        before_close = reports.size();
    }
    CHECK(app.close(30s));
    std::lock_guard lock(mutex);
    CHECK(reports.size() > before_close);  // the final report, after the threads stopped
    CHECK(reports.back().value(metric::records_produced) == n);
    CHECK(reports.back().value(metric::records_acknowledged) == n);
}

KSTREAMS_CO_TEST_CASE("waking the fetcher of a partition whose fetch queue filled and ran dry loses and repeats nothing") {
    // librdkafka 2.0 stops fetching at queued.min.messages and looks again only after up to a
    // second (on a real broker; the mock cluster's fetcher wakes sooner): the stream thread wakes it
    // with a seek to the next offset, here every 100 records.
    embedded_cluster cluster;
    cluster.create_topic("wake-in", 1);
    cluster.create_topic("wake-out", 1);
    constexpr std::uint64_t n = 3000;
    {
        test::topic_writer writer(cluster.bootstrap_servers());
        for (std::uint64_t i = 0; i < n; ++i) writer.send("wake-in", "k", std::to_string(i), 1000);
        writer.flush();
    }
    topology t;
    t.add_source<std::string, std::string>("in", {"wake-in"}).add_sink<std::string, std::string>("out", "wake-out", {"in"});
    auto cfg = embedded_config("fetch-wake");
    cfg.bootstrap_servers = cluster.bootstrap_servers();
    cfg.consumer["queued.min.messages"] = "100";
    kafka_streams app(t, cfg);
    app.start();
    test::topic_reader reader(cluster.bootstrap_servers(), {"wake-out"});
    auto recs = co_await test::next_records(reader, n, 60s);
    REQUIRE(recs.size() == n);
    for (std::uint64_t i = 0; i < n; ++i) CHECK(*recs[i].value == std::to_string(i));  // in order, none twice
    CHECK(app.metrics().value("fetch-wakeups") > 0);
    CHECK(app.close(30s));
}

namespace {
/// Adds headers to the records whose key starts with "h" (a null header value too).
struct tag_headers : processor<std::string, std::string, std::string, std::string> {
    void process(const record<std::string, std::string>& r) override {
        auto out = r;
        if (r.key.starts_with("h")) out.headers.add("trace", "t-" + r.key).add("none", std::nullopt);
        context().forward(out);
    }
};
}  // namespace

KSTREAMS_CO_TEST_CASE("fetched records keep their headers, and records without any come without any") {
    // The second sub-topology reads records the first wrote through the consumer's fetch path,
    // which tells records without headers from those with some without librdkafka's parse.
    embedded_cluster cluster;
    for (const char* t : {"hd-in", "hd-mid", "hd-out"}) cluster.create_topic(t, 1);
    {
        test::topic_writer writer(cluster.bootstrap_servers());
        writer.send("hd-in", "plain", "v", 1000);
        writer.send("hd-in", "h-value", "v", 1001);
        writer.send("hd-in", "h-empty", "", 1002);
        writer.send("hd-in", "plain-empty", "", 1003);
        writer.send("hd-in", "h-null", std::nullopt, 1004);
        writer.send("hd-in", "plain-null", std::nullopt, 1005);
        writer.send("hd-in", "plain-last", "w", 1006);
        writer.flush();
    }
    topology t;
    t.add_source<std::string, std::string>("in", {"hd-in"})
        .add_processor("tag", [] { return std::make_unique<tag_headers>(); }, {"in"})
        .add_sink<std::string, std::string>("mid", "hd-mid", {"tag"})
        .add_source<std::string, std::string>("again", {"hd-mid"})
        .add_sink<std::string, std::string>("out", "hd-out", {"again"});
    auto cfg = embedded_config("headers-fetch");
    cfg.bootstrap_servers = cluster.bootstrap_servers();
    kafka_streams app(t, cfg);
    app.start();
    test::topic_reader reader(cluster.bootstrap_servers(), {"hd-out"});
    auto recs = co_await test::next_records(reader, 7, 60s);
    REQUIRE(recs.size() == 7);
    for (const auto& r : recs) {
        CAPTURE(*r.key);
        if (r.key->starts_with("h")) CHECK(r.hdrs == headers{{"trace", "t-" + *r.key}, {"none", std::nullopt}});
        else CHECK(r.hdrs.empty());
        if (r.key->ends_with("null")) CHECK(!r.value);
        else if (r.key->ends_with("empty")) CHECK(r.value == "");
        else REQUIRE(r.value);
    }
    CHECK(app.close(30s));
}

// Kafka's pause()/resume()/isPaused() and addStreamThread()/removeStreamThread().

KSTREAMS_CO_TEST_CASE("pause() stops processing until resume(); the app stays in the group") {
    auto topo = test::word_count_topology("lines", "counts");
    auto config = embedded_config("pause-app");
    config.embedded_partitions = 2;
    kafka_streams app(topo, config);
    CHECK_FALSE(app.is_paused());
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    test::topic_writer writer(app.bootstrap_servers());
    test::topic_reader reader(app.bootstrap_servers(), {"counts"});
    writer.send("lines", std::string("k"), std::string("a b"));
    writer.flush();
    auto first = co_await test::next_records(reader, 2, 30s);
    CHECK(first.size() == 2);

    app.pause();
    CHECK(app.is_paused());
    writer.send("lines", std::string("k"), std::string("a c"));
    writer.flush();
    std::this_thread::sleep_for(1500ms);
    CHECK_FALSE(reader.try_next().has_value());
    CHECK(app.state() == streams_state::running);

    app.resume();
    CHECK_FALSE(app.is_paused());
    auto after = co_await test::next_records(reader, 2, 30s);
    CHECK(last_counts(after) == std::map<std::string, std::int64_t>{{"a", 2}, {"c", 1}});
    CHECK(app.close(30s));
}

KSTREAMS_CO_TEST_CASE("add_stream_thread() and remove_stream_thread() change the threads the group balances over") {
    auto topo = test::word_count_topology("lines", "counts");
    auto config = embedded_config("threads-app");
    config.embedded_partitions = 2;
    kafka_streams app(topo, config);
    CHECK_FALSE(app.add_stream_thread().has_value());  // CREATED
    CHECK_FALSE(app.remove_stream_thread().has_value());
    app.start();
    REQUIRE(settled(app, 1));

    CHECK(app.add_stream_thread() == std::optional<std::string>("threads-app-StreamThread-2"));
    REQUIRE(settled(app, 2));
    for (const auto& t : app.metadata_for_local_threads()) CHECK(t.active_tasks.size() == 1);
    test::topic_writer writer(app.bootstrap_servers());
    test::topic_reader reader(app.bootstrap_servers(), {"counts"});
    writer.send("lines", std::string("k1"), std::string("x"));
    writer.send("lines", std::string("k2"), std::string("y"));
    writer.flush();
    auto two = co_await test::next_records(reader, 2, 30s);
    CHECK(two.size() == 2);

    CHECK(app.remove_stream_thread(30s) == std::optional<std::string>("threads-app-StreamThread-2"));
    REQUIRE(settled(app, 1));
    writer.send("lines", std::string("k1"), std::string("x"));
    writer.send("lines", std::string("k2"), std::string("y"));
    writer.flush();
    auto again = co_await test::next_records(reader, 2, 30s);
    CHECK(last_counts(again) == std::map<std::string, std::int64_t>{{"x", 2}, {"y", 2}});
    // The freed number is used again.
    CHECK(app.add_stream_thread() == std::optional<std::string>("threads-app-StreamThread-2"));
    REQUIRE(settled(app, 2));
    CHECK(app.close(30s));
    CHECK_FALSE(app.add_stream_thread().has_value());
}
