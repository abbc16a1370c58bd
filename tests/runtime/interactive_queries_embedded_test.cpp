// Interactive queries on the embedded cluster: a running app's stores read by name from the test
// thread while the stream threads write them (key lookups, ranges, prefix scans, window and session
// fetches), cached values seen before any commit, one partition at a time, the errors of Kafka's
// store() (not started, unknown name, wrong type, closed), and restoring stores refused unless
// stale stores are asked for.
#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/embedded_cluster.hpp>
#include <kstreams/state/queryable_store.hpp>
#include <kstreams/state/queryable_versioned_store.hpp>
#include <kstreams/state/restore_listener.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/streams_metadata.hpp>
#include <kstreams/test/topic_client.hpp>
#include "tests/support/process_state_dir.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
namespace qst = kstreams::queryable_store_types;

namespace {

streams_config iq_config(const std::string& app, const std::string& bootstrap) {
    streams_config c;
    c.application_id = app;
    c.bootstrap_servers = bootstrap;
    c.state_dir = kstreams::test::process_state_dir("kstreams-rt-iq");
    c.consumer["session.timeout.ms"] = "6000";
    c.kafka["log_level"] = "3";
    return c;
}

/// Counts per key, per 10 s window and per session (gap 5 s) of one input stream.
topology counting(const std::string& in) {
    streams_builder b;
    auto s = b.stream<std::string, std::string>(in);
    s.group_by_key().count(materialized<>::as("iq-counts"));
    s.group_by_key().windowed_by(time_windows::of_size_with_no_grace(10s)).count(materialized<>::as("iq-windows"));
    s.group_by_key()
        .windowed_by(session_windows::of_inactivity_gap_with_no_grace(5s))
        .count(materialized<>::as("iq-sessions"));
    return b.build();
}

/// Retries `f` (which may throw invalid_state_store_error while the app rebalances) until it
/// returns true or 60 s passed.
template <class F>
bool eventually(F f) {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (std::chrono::steady_clock::now() < deadline) {
        try {
            if (f()) return true;
        } catch (const invalid_state_store_error&) {
        }
        std::this_thread::sleep_for(50ms);
    }
    return false;
}

}  // namespace

TEST_CASE("interactive queries: key-value, window and session views of a running app, read while it writes") {
    embedded_cluster cluster;
    cluster.create_topic("iq-in", 2);
    auto cfg = iq_config("iq-views", cluster.bootstrap_servers());
    cfg.num_stream_threads = 2;
    // Nothing is committed while the test runs: every value read comes from the record caches.
    cfg.commit_interval = std::chrono::hours(1);
    // A member dropped under a loaded machine (missed heartbeats) would rebalance the group, and the
    // commit on revocation, refused while it rebalances, makes at-least-once count records twice.
    cfg.consumer["session.timeout.ms"] = "45000";
    kafka_streams app(counting("iq-in"), cfg);

    const auto kv_type = qst::key_value_store<std::string, std::int64_t>();
    CHECK_THROWS_AS(app.store(store_query_parameters("iq-counts", kv_type)), streams_not_started_error);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));

    CHECK_THROWS_AS(app.store(store_query_parameters("no-such-store", kv_type)), unknown_state_store_error);
    auto counts = app.store(store_query_parameters("iq-counts", kv_type));
    CHECK_FALSE(counts.get("nobody").has_value());

    test::topic_writer writer(cluster.bootstrap_servers());
    // Keys a0..a4 and b0..b4; aN written N+1 times at 1000 ms steps, b's once at 30000.
    for (int k = 0; k < 5; ++k)
        for (int i = 0; i <= k; ++i) writer.send("iq-in", "a" + std::to_string(k), std::string("v"), 1000 + 1000 * i);
    for (int k = 0; k < 5; ++k) writer.send("iq-in", "b" + std::to_string(k), std::string("v"), 30000);
    writer.flush();

    // A reader on another thread all along: counts only ever grow.
    std::atomic<bool> stop{false};
    std::atomic<int> reads{0};
    std::atomic<bool> shrank{false};
    std::thread reader([&] {
        std::int64_t last = 0;
        while (!stop) {
            try {
                std::int64_t total = 0;
                for (const auto& kv : counts.all()) total += kv.value;
                if (total < last) shrank = true;
                last = total;
                ++reads;
            } catch (const invalid_state_store_error&) {
            }
        }
    });

    const bool all_counted = eventually([&] { return counts.get("a4") == 5 && counts.all().size() == 10; });
    stop = true;
    reader.join();
    REQUIRE(all_counted);
    CHECK(reads > 0);
    CHECK_FALSE(shrank);

    for (int k = 0; k < 5; ++k) {
        CHECK(counts.get("a" + std::to_string(k)) == k + 1);
        CHECK(counts.get("b" + std::to_string(k)) == 1);
    }
    // Ranges over both partitions: each partition's instance in key order.
    auto sorted_keys = [](std::vector<key_value<std::string, std::int64_t>> kvs) {
        std::vector<std::string> keys;
        for (auto& kv : kvs) keys.push_back(kv.key);
        std::sort(keys.begin(), keys.end());
        return keys;
    };
    CHECK(counts.all().size() == 10);
    CHECK(sorted_keys(counts.range(std::string("a1"), std::string("a3"))) == std::vector<std::string>{"a1", "a2", "a3"});
    CHECK(sorted_keys(counts.reverse_range(std::string("b3"), std::nullopt)) == std::vector<std::string>{"b3", "b4"});
    CHECK(sorted_keys(counts.prefix_scan(std::string("b"))).size() == 5);
    CHECK(counts.reverse_all().size() == 10);
    // As Kafka's: the estimate is the stores' under the record caches (nothing flushed yet).
    CHECK(counts.approximate_num_entries() == 0);

    // One partition at a time: the two partitions together hold each key once.
    std::size_t per_partition = 0;
    for (std::int32_t p = 0; p < 2; ++p) {
        auto part = app.store(store_query_parameters("iq-counts", kv_type).with_partition(p));
        per_partition += part.all().size();
    }
    CHECK(per_partition == 10);
    CHECK_THROWS_AS(app.store(store_query_parameters("iq-counts", kv_type).with_partition(7)).get("a1"),
                    invalid_state_store_error);

    // The timestamped view keeps the timestamp of the latest record.
    auto ts = app.store(store_query_parameters("iq-counts", qst::timestamped_key_value_store<std::string, std::int64_t>()));
    CHECK(ts.get("a2") == value_and_timestamp<std::int64_t>{3, 3000});
    CHECK(ts.get("b0") == value_and_timestamp<std::int64_t>{1, 30000});

    // A store of another kind, or other types, is refused.
    CHECK_THROWS_AS(app.store(store_query_parameters("iq-counts", qst::window_store<std::string, std::int64_t>())).all(),
                    invalid_state_store_error);
    CHECK_THROWS_AS(app.store(store_query_parameters("iq-counts", qst::key_value_store<std::string, std::string>())).get("a1"),
                    invalid_state_store_error);

    // Windows of 10 s: a4's records at 1000..5000 in [0, 10000); b's in [30000, 40000).
    auto windows = app.store(store_query_parameters("iq-windows", qst::window_store<std::string, std::int64_t>()));
    CHECK(windows.fetch("a4", 0) == 5);
    CHECK_FALSE(windows.fetch("a4", 10000).has_value());
    CHECK(windows.fetch("b1", 30000) == 1);
    const auto a3 = windows.fetch("a3", 0, 100000);
    REQUIRE(a3.size() == 1);
    CHECK(a3[0].key == 0);
    CHECK(a3[0].value == 4);
    CHECK(windows.fetch("a3", 10000, 100000).empty());
    CHECK(windows.fetch_all(30000, 30000).size() == 5);
    CHECK(windows.fetch_all(0, 100000).size() == 10);
    CHECK(windows.all().size() == 10);
    const auto ranged = windows.fetch(std::string("a0"), std::string("a1"), 0, 100000);
    CHECK(ranged.size() == 2);
    for (const auto& w : ranged) CHECK(w.key.window.end == w.key.window.start + 10000);
    auto timed = app.store(
        store_query_parameters("iq-windows", qst::timestamped_window_store<std::string, std::int64_t>()));
    CHECK(timed.fetch("a1", 0) == value_and_timestamp<std::int64_t>{2, 2000});

    // Sessions with a 5 s gap: aN's records 1 s apart make one session [1000, 1000 + 1000 N].
    auto sessions = app.store(store_query_parameters("iq-sessions", qst::session_store<std::string, std::int64_t>()));
    const auto a2 = sessions.fetch("a2");
    REQUIRE(a2.size() == 1);
    CHECK(a2[0].key.window.start == 1000);
    CHECK(a2[0].key.window.end == 3000);
    CHECK(a2[0].value == 3);
    CHECK(sessions.fetch_session("a2", 1000, 3000) == 3);
    CHECK(sessions.find_sessions("a2", 4000, 100000).empty());
    CHECK(sessions.find_sessions("a2", 2000, 2000).size() == 1);
    CHECK(sessions.fetch(std::string("b0"), std::string("b4")).size() == 5);
    CHECK_THROWS_AS(app.store(store_query_parameters("iq-sessions", kv_type)).get("a1"), invalid_state_store_error);

    REQUIRE(app.close(30s));
    // A view of a closed app says so.
    CHECK_THROWS_AS(counts.get("a1"), invalid_state_store_error);
    CHECK_THROWS_AS(app.store(store_query_parameters("iq-counts", kv_type)), invalid_state_store_error);
    app.clean_up();
}

namespace {

/// Holds the restoration of every store at its start until released.
struct gate_listener final : state_restore_listener {
    std::mutex m;
    std::condition_variable cv;
    bool open = false;
    bool started = false;
    void on_restore_start(std::string_view, std::int32_t, std::string_view, std::int64_t, std::int64_t) override {
        std::unique_lock lock(m);
        started = true;
        cv.notify_all();
        cv.wait(lock, [this] { return open; });
    }
    void on_batch_restored(std::string_view, std::int32_t, std::string_view, std::int64_t, std::int64_t) override {}
    void on_restore_end(std::string_view, std::int32_t, std::string_view, std::int64_t) override {}
    bool wait_started() {
        std::unique_lock lock(m);
        return cv.wait_for(lock, 60s, [this] { return started; });
    }
    void release() {
        std::lock_guard lock(m);
        open = true;
        cv.notify_all();
    }
};

}  // namespace

TEST_CASE("interactive queries: a restoring store is refused unless stale stores are enabled") {
    embedded_cluster cluster;
    cluster.create_topic("iq-restore-in", 1);
    auto cfg = iq_config("iq-restore", cluster.bootstrap_servers());
    cfg.commit_interval = 100ms;
    auto build = [] {
        streams_builder b;
        b.stream<std::string, std::string>("iq-restore-in")
            .group_by_key()
            .count(materialized<>::as("iq-restored").with_in_memory_store());
        return b.build();
    };
    const auto kv_type = qst::key_value_store<std::string, std::int64_t>();
    test::topic_writer writer(cluster.bootstrap_servers());
    for (int i = 0; i < 3; ++i) writer.send("iq-restore-in", std::string("k"), std::string("v"), 1000 + i);
    writer.flush();
    {
        kafka_streams first(build(), cfg);
        first.start();
        auto counts = first.store(store_query_parameters("iq-restored", kv_type));
        REQUIRE(eventually([&] { return counts.get("k") == 3; }));
        REQUIRE(first.close(30s));
    }
    // The store is in memory: the second app restores it from its changelog, held at the start.
    kafka_streams second(build(), cfg);
    auto gate = std::make_shared<gate_listener>();
    second.set_global_state_restore_listener(gate);
    second.start();
    REQUIRE(gate->wait_started());
    auto fresh = second.store(store_query_parameters("iq-restored", kv_type));
    CHECK_THROWS_AS(fresh.get("k"), invalid_state_store_error);
    auto stale = second.store(store_query_parameters("iq-restored", kv_type).enable_stale_stores());
    CHECK_FALSE(stale.get("k").has_value());  // nothing restored yet
    gate->release();
    CHECK(eventually([&] { return fresh.get("k") == 3; }));
    CHECK(stale.get("k") == 3);
    REQUIRE(second.close(30s));
    second.clean_up();
}

TEST_CASE("interactive queries: a global store is read from the global thread's instance") {
    embedded_cluster cluster;
    cluster.create_topic("iq-users", 2);
    cluster.create_topic("iq-orders", 1);
    test::topic_writer writer(cluster.bootstrap_servers());
    for (int u = 0; u < 6; ++u) writer.send("iq-users", "u" + std::to_string(u), "User" + std::to_string(u), 1000);
    writer.flush();
    streams_builder b;
    auto users = b.global_table<std::string, std::string>("iq-users", materialized<>::as("iq-global-users"));
    b.stream<std::string, std::string>("iq-orders")
        .join(users, [](const std::string& v) { return v; }, [](const std::string& o, const std::string& u) { return o + u; })
        .to("iq-orders-out");
    auto cfg = iq_config("iq-global", cluster.bootstrap_servers());
    kafka_streams app(b.build(), cfg);
    app.start();  // the global store is restored before start() returns
    auto view = app.store(store_query_parameters("iq-global-users", qst::key_value_store<std::string, std::string>()));
    CHECK(view.get("u3") == "User3");
    CHECK(view.all().size() == 6);
    // Every instance hosts a global store: no partition to ask for.
    CHECK(app.store(store_query_parameters("iq-global-users", qst::key_value_store<std::string, std::string>())
                        .with_partition(5))
              .get("u1") == "User1");
    REQUIRE(app.close(30s));
    app.clean_up();
}

TEST_CASE("interactive queries: a versioned table answers its latest version and the one valid at a time") {
    embedded_cluster cluster;
    cluster.create_topic("iq-prices", 2);
    streams_builder b;
    b.table<std::string, std::int64_t>(
        "iq-prices", materialized<>::as(stores::persistent_versioned_key_value_store("iq-price-history", 1h)));
    auto cfg = iq_config("iq-versioned", cluster.bootstrap_servers());
    kafka_streams app(b.build(), cfg);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));
    test::topic_writer writer(cluster.bootstrap_servers());
    writer.send_typed("iq-prices", std::string("apple"), std::int64_t{10}, 1'000);
    writer.send_typed("iq-prices", std::string("apple"), std::int64_t{12}, 5'000);
    writer.send_typed("iq-prices", std::string("apple"), std::int64_t{11}, 3'000);  // out of order: in between
    writer.send_typed("iq-prices", std::string("pear"), std::int64_t{7}, 2'000);
    writer.send("iq-prices", std::string("pear"), std::nullopt, 4'000);  // deleted at 4000
    writer.flush();

    auto prices = app.store(store_query_parameters(
        "iq-price-history", qst::versioned_key_value_store<std::string, std::int64_t>()));
    REQUIRE(eventually([&] {
        auto latest = prices.get("apple");
        return latest && latest->value == 12 && prices.get("pear", 3'999).has_value() && !prices.get("pear");
    }));
    const auto at_4000 = prices.get("apple", 4'000);
    REQUIRE(at_4000);
    CHECK(at_4000->value == 11);
    CHECK(at_4000->timestamp == 3'000);
    CHECK(at_4000->valid_to == std::optional<std::int64_t>(5'000));
    CHECK(prices.get("apple", 2'999)->value == 10);
    CHECK_FALSE(prices.get("apple", 999));
    CHECK(prices.get("apple")->valid_to == std::nullopt);
    CHECK(prices.get("pear", 2'000)->value == 7);
    CHECK_FALSE(prices.get("pear", 4'000));  // the tombstone
    CHECK_FALSE(prices.get("plum"));
    // A key-value view of a versioned store is a type mismatch, as Kafka's IQv1 cannot read one.
    CHECK_THROWS_AS(app.store(store_query_parameters("iq-price-history",
                                                     qst::key_value_store<std::string, std::int64_t>()))
                        .get("apple"),
                    invalid_state_store_error);
    REQUIRE(app.close(30s));
    app.clean_up();
}

TEST_CASE("query metadata: the default partitioner is Kafka's murmur2 (UtilsTest's vectors)") {
    const std::pair<const char*, std::int32_t> vectors[] = {
        {"21", -973932308},
        {"foobar", -790332482},
        {"a-little-bit-long-string", -985981536},
        {"a-little-bit-longer-string", -1486304829},
        {"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971},
        {"abc", 479470107},
    };
    constexpr std::int32_t big = 0x7fffffff;
    for (const auto& [key, hash] : vectors) {
        const auto positive = static_cast<std::int32_t>(static_cast<std::uint32_t>(hash) & 0x7fffffffu);
        CHECK(kafka_streams::default_partition(key, big) == positive % big);
        CHECK(kafka_streams::default_partition(key, 12) == positive % 12);
    }
}

TEST_CASE("query metadata on the embedded cluster: one instance hosts every partition and names itself") {
    // Two instances on one mock cluster are covered on the real broker (integration_queries):
    // librdkafka 2.0.2's mock broker sometimes trips an assertion of its own when a second
    // member leaves.
    embedded_cluster cluster;
    cluster.create_topic("iq-md-in", 4);
    auto cfg = iq_config("iq-md", cluster.bootstrap_servers());
    cfg.application_server = "127.0.0.1:7201";
    CHECK_THROWS_AS(
        [&] {
            auto bad = cfg;
            bad.application_server = "no-port";
            kafka_streams x(counting("iq-md-in"), bad);
        }(),
        std::invalid_argument);
    kafka_streams a(counting("iq-md-in"), cfg);
    CHECK_THROWS_AS(a.metadata_for_all_streams_clients(), streams_not_started_error);
    a.start();
    REQUIRE(eventually([&] {
        const auto all = a.metadata_for_all_streams_clients();
        return a.state() == streams_state::running && all.size() == 1 && all[0].topic_partitions.size() == 4;
    }));
    const auto all = a.metadata_for_all_streams_clients();
    CHECK(all[0].host == host_info{"127.0.0.1", 7201});
    CHECK(all[0].state_store_names == std::set<std::string>{"iq-counts", "iq-sessions", "iq-windows"});
    CHECK(a.streams_metadata_for_store("iq-windows") == all);
    CHECK_THROWS_AS(a.query_metadata_for_key("nope", std::string("k")), unknown_state_store_error);
    const auto threads = a.metadata_for_local_threads();
    REQUIRE(threads.size() == 1);
    CHECK(threads[0].thread_state == "RUNNING");
    CHECK(threads[0].consumer_client_id == "iq-md-StreamThread-1-consumer@127.0.0.1:7201");
    CHECK(threads[0].active_tasks.size() == 4);

    test::topic_writer writer(cluster.bootstrap_servers());
    for (int k = 0; k < 12; ++k) writer.send("iq-md-in", "k" + std::to_string(k), std::string("v"), 1000);
    writer.flush();
    const auto kv = qst::key_value_store<std::string, std::int64_t>();
    auto counts = a.store(store_query_parameters("iq-counts", kv));
    REQUIRE(eventually([&] { return counts.all().size() == 12; }));
    for (int k = 0; k < 12; ++k) {
        const std::string key = "k" + std::to_string(k);
        const auto md = a.query_metadata_for_key("iq-counts", key);
        CHECK(md.active_host == host_info{"127.0.0.1", 7201});
        // The partition named is the one the producer's murmur2 sent the key to.
        CHECK(a.store(store_query_parameters("iq-counts", kv).with_partition(md.partition)).get(key) == 1);
    }
    REQUIRE(a.close(30s));
    a.clean_up();
}
