// Global tables in the Kafka runtime on the embedded cluster: the global thread restores the
// stores before any stream thread processes, follows the topics after, checkpoints for restarts,
// and its failure puts the app in ERROR.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/embedded_cluster.hpp>
#include <kstreams/error.hpp>
#include <kstreams/state/restore_listener.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/processor.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

#include "tests/support/await_records.hpp"
#include "tests/support/process_state_dir.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {

std::filesystem::path state_root() {
    return kstreams::test::process_state_dir("kstreams-global-test");
}

streams_config global_config(const std::string& app, const std::string& bootstrap) {
    streams_config c;
    c.application_id = app;
    c.bootstrap_servers = bootstrap;
    c.commit_interval = 200ms;
    c.num_stream_threads = 2;
    c.state_dir = state_root();
    c.consumer["session.timeout.ms"] = "6000";
    c.kafka["log_level"] = "3";
    return c;
}

/// orders (key: order id, value: "<user> <item>") enriched from the global table of users.
topology enrich_topology(bool in_memory = false) {
    streams_builder b;
    auto m = materialized<>::as("users-store");
    if (in_memory) m = std::move(m).with_in_memory_store();
    auto users = b.global_table<str, str>("gt-users", consumed<>{}, std::move(m));
    b.stream<str, str>("gt-orders")
        .left_join(
            users, [](const str& v) { return v.substr(0, v.find(' ')); },
            [](const str& order, const std::optional<str>& user) { return order + "|" + user.value_or("?"); })
        .to("gt-out");
    return b.build();
}

struct recording_listener final : state_restore_listener {
    std::mutex m;
    std::vector<str> events;
    std::int64_t restored = 0;
    void on_restore_start(std::string_view topic, std::int32_t partition, std::string_view store, std::int64_t start,
                          std::int64_t end) override {
        std::lock_guard l(m);
        events.push_back("start " + str(store) + " " + str(topic) + "-" + std::to_string(partition) + " " +
                         std::to_string(start) + ".." + std::to_string(end));
    }
    kafka_streams* app = nullptr;            ///< set: each batch also reads app->restoration_progress()
    std::vector<store_restoration> progress;  ///< what it read
    void on_batch_restored(std::string_view, std::int32_t, std::string_view, std::int64_t, std::int64_t n) override {
        std::lock_guard l(m);
        restored += n;
        if (app)
            for (auto& r : app->restoration_progress()) progress.push_back(std::move(r));
    }
    void on_restore_end(std::string_view topic, std::int32_t partition, std::string_view store,
                        std::int64_t total) override {
        std::lock_guard l(m);
        events.push_back("end " + str(store) + " " + str(topic) + "-" + std::to_string(partition) + " " +
                         std::to_string(total));
    }
};

/// A fresh state directory and the topics of enrich_topology().
void prepare(embedded_cluster& cluster, std::int32_t users, std::int32_t orders) {
    std::filesystem::remove_all(state_root());
    cluster.create_topic("gt-users", users);
    cluster.create_topic("gt-orders", orders);
    cluster.create_topic("gt-out", 1);
}

/// Sends `value` to `topic` until the output's next record reads `expected` (the global thread
/// and the stream threads run independently, as in Kafka, so an update is seen a little later).
test::task<bool> sent_until_seen(test::topic_writer& writer, test::topic_reader& reader, const str& topic,
                                 const str& key, const str& value, const str& expected) {
    for (int round = 0; round < 40; ++round) {
        writer.send(topic, key, value, 4'000);
        writer.flush();
        auto more = co_await test::next_records(reader, 1, 30s);
        if (*more.front().value == expected) co_return true;
    }
    co_return false;
}

/// "key=value" of the output records, read until they hold `expected` (at-least-once: a
/// rebalance while the group forms may repeat a record), or the first records past it.
test::task<std::set<str>> read_until(test::topic_reader& reader, const std::set<str>& expected) {
    std::set<str> out;
    while (!std::includes(out.begin(), out.end(), expected.begin(), expected.end())) {
        auto recs = co_await test::next_records(reader, 1, 60s);
        out.insert(*recs.front().key + "=" + *recs.front().value);
    }
    co_return out;
}

}  // namespace

KSTREAMS_CO_TEST_CASE("a stream joins a global table filled from every partition before processing starts") {
    embedded_cluster cluster;
    prepare(cluster, 3, 2);
    test::topic_writer writer(cluster.bootstrap_servers());
    // The table and the orders are both there before the app starts: every order must find its
    // user, whatever partition the user is in (no co-partitioning).
    for (int u = 0; u < 30; ++u) writer.send("gt-users", "u" + std::to_string(u), "User" + std::to_string(u), 1'000);
    writer.send("gt-users", std::nullopt, "no key", 1'000);  // dropped, as in Kafka's restore
    for (int o = 0; o < 30; ++o)
        writer.send("gt-orders", "o" + std::to_string(o), "u" + std::to_string(o) + " item", 2'000);
    writer.send("gt-orders", "o-none", "nobody item", 2'000);
    writer.flush();

    auto listener = std::make_shared<recording_listener>();
    kafka_streams app(enrich_topology(), global_config("gt-join", cluster.bootstrap_servers()));
    listener->app = &app;
    app.set_global_state_restore_listener(listener);
    std::vector<streams_state> states;
    std::mutex states_mutex;
    app.set_state_listener([&](streams_state now, streams_state) {
        std::lock_guard l(states_mutex);
        states.push_back(now);
    });
    app.start();  // returns once the global store is restored, in REBALANCING
    {
        std::lock_guard l(listener->m);
        CHECK(listener->restored == 30);
        CHECK(listener->events.size() == 6);  // start and end for each of the 3 partitions
        CHECK(std::count_if(listener->events.begin(), listener->events.end(),
                            [](const str& e) { return e.starts_with("start users-store gt-users-"); }) == 3);
        // restoration_progress() showed the global store's partition while it restored (task -1_-1).
        REQUIRE(listener->progress.size() >= 3);
        for (const auto& r : listener->progress) {
            CHECK(r.task == task_id{-1, -1});
            CHECK(r.store == "users-store");
            CHECK(r.changelog_topic == "gt-users");
            CHECK(r.restored > 0);
            CHECK(r.remaining >= 0);
        }
        listener->app = nullptr;
    }
    for (const auto& r : app.restoration_progress()) CHECK(r.task != task_id{-1, -1});  // restored: gone
    {
        std::lock_guard l(states_mutex);
        REQUIRE(!states.empty());
        CHECK(states.front() == streams_state::rebalancing);
    }
    test::topic_reader reader(cluster.bootstrap_servers(), {"gt-out"});
    std::set<str> expected;
    for (int o = 0; o < 30; ++o)
        expected.insert("o" + std::to_string(o) + "=u" + std::to_string(o) + " item|User" + std::to_string(o));
    expected.insert("o-none=nobody item|?");
    CHECK(co_await read_until(reader, expected) == expected);

    // An update of the global topic, then an order: the order sees the new row.
    writer.send("gt-users", "u1", "Renamed", 3'000);
    writer.flush();
    CHECK(co_await sent_until_seen(writer, reader, "gt-orders", "late", "u1 book", "u1 book|Renamed"));
    CHECK(app.metrics().counter("global-records-processed") >= 1);
    CHECK(app.close(30s));
}

KSTREAMS_CO_TEST_CASE("a restart restores only what the global checkpoint does not hold") {
    embedded_cluster cluster;
    prepare(cluster, 2, 1);
    test::topic_writer writer(cluster.bootstrap_servers());
    for (int u = 0; u < 20; ++u) writer.send("gt-users", "u" + std::to_string(u), "A" + std::to_string(u), 1'000, u % 2);
    writer.flush();
    const auto config = global_config("gt-restart", cluster.bootstrap_servers());
    {
        kafka_streams app(enrich_topology(), config);
        app.start();
        CHECK(app.close(30s));
    }
    const auto checkpoint = config.state_dir / "gt-restart" / "global" / ".checkpoint";
    REQUIRE(std::filesystem::exists(checkpoint));
    {
        std::ifstream in(checkpoint);
        const str text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        CHECK(text == "0\n2\ngt-users 0 10\ngt-users 1 10\n");
    }
    // Three more rows while the app is down: the restart restores those three only.
    for (int u = 20; u < 23; ++u) writer.send("gt-users", "u" + std::to_string(u), "B" + std::to_string(u), 1'000, 0);
    writer.flush();
    auto listener = std::make_shared<recording_listener>();
    kafka_streams app(enrich_topology(), config);
    app.set_global_state_restore_listener(listener);
    app.start();
    {
        std::lock_guard l(listener->m);
        CHECK(listener->restored == 3);
        CHECK(std::find(listener->events.begin(), listener->events.end(), "start users-store gt-users-0 10..13") !=
              listener->events.end());
        CHECK(std::find(listener->events.begin(), listener->events.end(), "start users-store gt-users-1 10..10") !=
              listener->events.end());
    }
    writer.send("gt-orders", "o1", "u3 pen", 2'000);
    writer.send("gt-orders", "o2", "u21 cap", 2'000);
    writer.flush();
    test::topic_reader reader(cluster.bootstrap_servers(), {"gt-out"});
    const std::set<str> expected{"o1=u3 pen|A3", "o2=u21 cap|B21"};
    CHECK(co_await read_until(reader, expected) == expected);
    CHECK(app.close(30s));
}

KSTREAMS_CO_TEST_CASE("an in-memory global table is read by stream tasks while the global thread writes it") {
    embedded_cluster cluster;
    prepare(cluster, 1, 4);
    test::topic_writer writer(cluster.bootstrap_servers());
    writer.send("gt-users", "u0", "v0", 1'000);
    writer.flush();
    kafka_streams app(enrich_topology(true), global_config("gt-memory", cluster.bootstrap_servers()));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    // Updates and lookups at once, from 2 stream threads over 4 tasks (asan/ubsan watch them).
    for (int i = 1; i <= 200; ++i) {
        writer.send("gt-users", "u0", "v" + std::to_string(i), 1'000);
        writer.send("gt-orders", "o" + std::to_string(i), "u0 x", 2'000);
    }
    writer.flush();
    test::topic_reader reader(cluster.bootstrap_servers(), {"gt-out"});
    auto recs = co_await test::next_records(reader, 200, 60s);
    for (const auto& r : recs) CHECK(r.value->starts_with("u0 x|v"));
    CHECK(app.close(30s));
}

TEST_CASE("a record the global thread cannot deserialize puts the app in ERROR (log-and-fail)") {
    std::filesystem::remove_all(state_root());
    embedded_cluster cluster;
    cluster.create_topic("gti-users", 1);
    cluster.create_topic("gti-orders", 1);
    cluster.create_topic("gti-out", 1);
    streams_builder b;
    auto users = b.global_table<str, std::int64_t>("gti-users", materialized<>::as("n-store"));
    b.stream<str, str>("gti-orders")
        .join(users, [](const str& v) { return v; }, [](const str& o, std::int64_t n) { return o + std::to_string(n); })
        .to("gti-out");
    kafka_streams app(b.build(), global_config("gt-bad", cluster.bootstrap_servers()));
    std::atomic<int> handled{0};
    app.set_uncaught_exception_handler([&](std::exception_ptr) {
        ++handled;
        return uncaught_exception_response::replace_thread;  // not possible for the global thread
    });
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    test::topic_writer writer(cluster.bootstrap_servers());
    writer.send("gti-users", "k", "three bytes is not an int64", 1'000);
    writer.flush();
    CHECK(app.wait_until(streams_state::error, 30s));
    CHECK(handled.load() == 1);
    REQUIRE(app.error());
    CHECK_THROWS_WITH_AS(std::rethrow_exception(app.error()), doctest::Contains("gti-users"), streams_error);
    app.close(10s);
}

TEST_CASE("a global checkpoint past the topic's end fails start and deletes the global state (Kafka's InvalidOffsetException)") {
    embedded_cluster cluster;
    prepare(cluster, 1, 1);
    const auto config = global_config("gt-invalid", cluster.bootstrap_servers());
    const auto dir = config.state_dir / "gt-invalid" / "global";
    std::filesystem::create_directories(dir);
    {
        std::ofstream out(dir / ".checkpoint");
        out << "0\n1\ngt-users 0 50\n";
    }
    {
        kafka_streams app(enrich_topology(), config);
        CHECK_THROWS_WITH_AS(app.start(), doctest::Contains("restart the app"), streams_error);
        CHECK(app.state() == streams_state::error);
    }
    CHECK(!std::filesystem::exists(dir / ".checkpoint"));
    kafka_streams again(enrich_topology(), config);
    again.start();
    CHECK(again.close(30s));
}

namespace {
/// The update processor of a global store: keeps the value upper-cased.
struct upper_into_store final : processor<str, str, str, str> {
    key_value_store<str, str>* store = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        store = &ctx.get_state_store<key_value_store<str, str>>("codes");
    }
    void process(const record<str, str>& r) override {
        str v = r.value;
        for (char& c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        store->put(r.key, v);
    }
};
/// A stream processor reading the global store without being connected to it.
struct look_up final : processor<str, str, str, str> {
    key_value_store<str, str>* store = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        store = &ctx.get_state_store<key_value_store<str, str>>("codes");
    }
    void process(const record<str, str>& r) override {
        context().forward(r.with_value(store->get(r.value).value_or("-")));
    }
};
}  // namespace

KSTREAMS_CO_TEST_CASE("add_global_store: restored through its processor at start, as it is updated after (Kafka 4.x's Topology.addGlobalStore, reprocessOnRestore)") {
    std::filesystem::remove_all(state_root());
    embedded_cluster cluster;
    cluster.create_topic("gs-codes", 2);
    cluster.create_topic("gs-in", 1);
    cluster.create_topic("gs-out", 1);
    test::topic_writer writer(cluster.bootstrap_servers());
    writer.send("gs-codes", "a", "before", 1'000, 0);
    writer.send("gs-codes", std::nullopt, "no key", 1'000, 1);  // skipped, as Kafka's reprocessing
    writer.flush();
    auto make_topology = [] {
        topology t;
        auto builder = stores::key_value_store_builder<str, str>(stores::persistent_key_value_store("codes"));
        builder.with_logging_disabled();
        t.add_global_store<str, str>(builder, "codes-source", "gs-codes", "codes-update",
                                     [] { return std::make_unique<upper_into_store>(); });
        t.add_source<str, str>("in", {"gs-in"});
        t.add_processor("look-up", [] { return std::make_unique<look_up>(); }, {"in"});
        t.add_sink<str, str>("out", "gs-out", {"look-up"});
        return t;
    };
    auto listener = std::make_shared<recording_listener>();
    {
        kafka_streams app(make_topology(), global_config("gs-api", cluster.bootstrap_servers()));
        app.set_global_state_restore_listener(listener);
        app.start();
        REQUIRE(app.wait_until(streams_state::running, 30s));
        CHECK(listener->restored == 1);  // the keyed record, through the processor
        writer.send("gs-in", "k1", "a", 2'000);
        writer.flush();
        test::topic_reader reader(cluster.bootstrap_servers(), {"gs-out"});
        auto recs = co_await test::next_records(reader, 1, 30s);
        CHECK(*recs.front().value == "BEFORE");  // the update processor ran on restore
        CHECK(co_await sent_until_seen(writer, reader, "gs-in", "k0", "", "-"));  // the null key wrote nothing
        writer.send("gs-codes", "b", "after", 3'000, 1);
        writer.flush();
        CHECK(co_await sent_until_seen(writer, reader, "gs-in", "k2", "b", "AFTER"));
        CHECK(app.close(30s));
    }
    // A restart without the state directory restores everything through the processor again.
    std::filesystem::remove_all(state_root());
    listener = std::make_shared<recording_listener>();
    kafka_streams again(make_topology(), global_config("gs-api", cluster.bootstrap_servers()));
    again.set_global_state_restore_listener(listener);
    again.start();
    REQUIRE(again.wait_until(streams_state::running, 30s));
    CHECK(listener->restored == 2);
    writer.send("gs-in", "k3", "b", 5'000);
    writer.flush();
    test::topic_reader reader(cluster.bootstrap_servers(), {"gs-out"});
    str seen;  // the output topic holds the first run's records too
    for (int i = 0; i < 10 && seen.empty(); ++i) {
        auto recs = co_await test::next_records(reader, 1, 30s);
        if (*recs.front().key == "k3") seen = *recs.front().value;
    }
    CHECK(seen == "AFTER");
    CHECK(again.close(30s));
}
