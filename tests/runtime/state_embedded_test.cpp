// State in the Kafka runtime, on the embedded cluster. The record cache: a DSL count over hot keys
// emits far fewer updates than records (coalesced until a commit), with the right final values;
// with statestore.cache.max.bytes=0 every update is emitted; a table aggregation with adder and
// subtractor over cached stores in two sub-topologies ends with the right counts. Restoration: a
// restarted app restores an in-memory store from its changelog and tells the restore listener.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/embedded_cluster.hpp>
#include <kstreams/state/restore_listener.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

#include "tests/support/await_records.hpp"
#include "tests/support/process_state_dir.hpp"

using namespace kstreams;
using namespace std::chrono_literals;

namespace {

streams_config cache_config(const std::string& app, const std::string& bootstrap) {
    streams_config c;
    c.application_id = app;
    c.bootstrap_servers = bootstrap;
    c.state_dir = kstreams::test::process_state_dir("kstreams-rt-cache");
    c.consumer["session.timeout.ms"] = "6000";
    c.kafka["log_level"] = "3";
    return c;
}

topology hot_key_count(const std::string& in, const std::string& out) {
    streams_builder b;
    b.stream<std::string, std::string>(in).group_by_key().count(materialized<>::as("hot-counts")).to_stream().to(out);
    return b.build();
}

constexpr int hot_records = 2000;
constexpr int hot_keys = 5;

/// Loads `hot_records` records over `hot_keys` keys before the app starts, so that they are all
/// processed between two commits.
void load_hot_keys(const std::string& bootstrap, const std::string& topic) {
    test::topic_writer writer(bootstrap);
    for (int i = 0; i < hot_records; ++i) writer.send(topic, "k" + std::to_string(i % hot_keys), std::string("v"), 1000 + i);
    writer.flush();
}

std::map<std::string, std::int64_t> expected_hot_counts() {
    std::map<std::string, std::int64_t> out;
    for (int k = 0; k < hot_keys; ++k) out["k" + std::to_string(k)] = hot_records / hot_keys;
    return out;
}

/// Reads (key, count) records until the latest count per key satisfies `done` or a minute passed;
/// `records` counts what was read.
template <class Done>
std::map<std::string, std::int64_t> read_latest(test::topic_reader& reader, Done done, std::size_t* records = nullptr) {
    std::map<std::string, std::int64_t> latest;
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (!done(latest) && std::chrono::steady_clock::now() < deadline)
        for (const auto& r : reader.read_until_quiet(300ms)) {
            latest[*r.key] = r.value_as<std::int64_t>();
            if (records) ++*records;
        }
    return latest;
}

auto equals(std::map<std::string, std::int64_t> expected) {
    return [expected = std::move(expected)](const auto& latest) { return latest == expected; };
}

}  // namespace

TEST_CASE("record cache: a count over hot keys with a long commit interval emits far fewer updates than records") {
    embedded_cluster cluster;
    cluster.create_topic("hot-in", 2);
    cluster.create_topic("hot-out", 1);
    load_hot_keys(cluster.bootstrap_servers(), "hot-in");
    auto cfg = cache_config("hot-cached", cluster.bootstrap_servers());
    cfg.commit_interval = 3s;
    auto topo = hot_key_count("hot-in", "hot-out");
    kafka_streams app(topo, cfg);
    app.start();
    test::topic_reader reader(cluster.bootstrap_servers(), {"hot-out"});
    std::size_t updates = 0;
    CHECK(read_latest(reader, equals(expected_hot_counts()), &updates) == expected_hot_counts());
    // Updates of a key are coalesced until a commit (or an eviction): a handful of commits, each
    // forwarding one update per key, instead of one update per record.
    CHECK(updates < static_cast<std::size_t>(hot_records) / 10);
    // The changelog is written when the cache flushes too: far fewer records than updates.
    test::topic_reader changelog(cluster.bootstrap_servers(), {"hot-cached-hot-counts-changelog"});
    const auto logged = changelog.read_until_quiet(1s);
    CHECK(!logged.empty());
    CHECK(logged.size() < static_cast<std::size_t>(hot_records) / 10);
    CHECK(app.close(30s));
    CHECK(app.metrics().value("records-processed") == hot_records);
}

KSTREAMS_CO_TEST_CASE("record cache: with statestore.cache.max.bytes=0 every update is emitted") {
    embedded_cluster cluster;
    cluster.create_topic("cold-in", 2);
    cluster.create_topic("cold-out", 1);
    load_hot_keys(cluster.bootstrap_servers(), "cold-in");
    auto cfg = cache_config("hot-uncached", cluster.bootstrap_servers());
    cfg.commit_interval = 3s;
    cfg.statestore_cache_max_bytes = 0;
    auto topo = hot_key_count("cold-in", "cold-out");
    kafka_streams app(topo, cfg);
    app.start();
    test::topic_reader reader(cluster.bootstrap_servers(), {"cold-out"});
    auto recs = co_await test::next_records(reader, hot_records, 60s);
    std::map<std::string, std::int64_t> latest;
    std::map<std::string, std::int64_t> previous;
    for (const auto& r : recs) {
        const auto n = r.value_as<std::int64_t>();
        CHECK(n == previous[*r.key] + 1);  // every single update, in order per key
        previous[*r.key] = n;
        latest[*r.key] = n;
    }
    CHECK(latest == expected_hot_counts());
    CHECK(reader.read_until_quiet(500ms).empty());
    CHECK(app.close(30s));
}

TEST_CASE("record cache: a table aggregation with adder and subtractor over cached stores ends right") {
    embedded_cluster cluster;
    cluster.create_topic("users-in", 2);
    cluster.create_topic("region-out", 1);
    streams_builder b;
    b.table<std::string, std::string>("users-in")
        .group_by([](const std::string& user, const std::string& region) { return std::pair{region, user}; })
        .aggregate([] { return std::int64_t{0}; },
                   [](const std::string&, const std::string&, std::int64_t n) { return n + 1; },
                   [](const std::string&, const std::string&, std::int64_t n) { return n - 1; })
        .to_stream()
        .to("region-out");
    const topology topo = b.build();
    auto cfg = cache_config("regions-cached", cluster.bootstrap_servers());
    cfg.commit_interval = 200ms;
    // A cache so small that entries are evicted (and forwarded) between commits as well.
    cfg.statestore_cache_max_bytes = 400;
    kafka_streams app(topo, cfg);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    test::topic_writer writer(cluster.bootstrap_servers());
    // 40 users move between 4 regions a few times; some leave.
    const char* regions[] = {"eu", "us", "apac", "latam"};
    std::map<std::string, std::string> where;
    for (int round = 0; round < 5; ++round) {
        for (int u = 0; u < 40; ++u) {
            const std::string user = "u" + std::to_string(u);
            if (round == 4 && u % 7 == 0) {
                writer.send("users-in", user, std::nullopt);
                where.erase(user);
            } else {
                const std::string region = regions[(u + round * (u % 3)) % 4];
                writer.send("users-in", user, region);
                where[user] = region;
            }
        }
        writer.flush();
    }
    std::map<std::string, std::int64_t> expected;
    for (const auto& [user, region] : where) ++expected[region];
    // A region emptied between two flushes may never have been forwarded at all: absent = 0.
    auto nonzero = [](std::map<std::string, std::int64_t> m) {
        std::erase_if(m, [](const auto& kv) { return kv.second == 0; });
        return m;
    };
    test::topic_reader reader(cluster.bootstrap_servers(), {"region-out"});
    auto latest = read_latest(reader, [&](const auto& l) { return nonzero(l) == expected; });
    CHECK(nonzero(latest) == expected);
    // Nothing more arrives once the counts are right (no late, wrong update).
    for (const auto& r : reader.read_until_quiet(1s)) latest[*r.key] = r.value_as<std::int64_t>();
    CHECK(nonzero(latest) == expected);
    CHECK(app.close(30s));
}

namespace {

struct counting_listener final : state_restore_listener {
    std::mutex m;
    std::int64_t starts = 0, batches = 0, batch_records = 0, ends = 0, total = 0;
    std::int64_t from = -1, to = -1, last_batch_end = -1;
    void on_restore_start(std::string_view, std::int32_t, std::string_view store, std::int64_t start,
                          std::int64_t end) override {
        std::lock_guard lock(m);
        CHECK(store == "mem-counts");
        ++starts;
        from = start;
        to = end;
    }
    void on_batch_restored(std::string_view, std::int32_t, std::string_view, std::int64_t batch_end,
                           std::int64_t n) override {
        std::lock_guard lock(m);
        ++batches;
        batch_records += n;
        last_batch_end = batch_end;
    }
    void on_restore_end(std::string_view, std::int32_t, std::string_view, std::int64_t n) override {
        std::lock_guard lock(m);
        ++ends;
        total += n;
    }
};

topology in_memory_count(const std::string& in, const std::string& out) {
    streams_builder b;
    b.stream<std::string, std::string>(in)
        .group_by_key()
        .count(materialized<>::as("mem-counts").with_in_memory_store())
        .to_stream()
        .to(out);
    return b.build();
}

}  // namespace

TEST_CASE("restoration: a restarted app replays an in-memory store's changelog and tells the restore listener") {
    embedded_cluster cluster;
    cluster.create_topic("rl-in", 1);
    cluster.create_topic("rl-out", 1);
    test::topic_writer writer(cluster.bootstrap_servers());
    auto topo = in_memory_count("rl-in", "rl-out");
    auto cfg = cache_config("restore-listener", cluster.bootstrap_servers());
    cfg.commit_interval = 100ms;
    cfg.statestore_cache_max_bytes = 0;  // one changelog record per input record
    test::topic_reader reader(cluster.bootstrap_servers(), {"rl-out"});
    {
        kafka_streams first(topo, cfg);
        first.start();
        for (int i = 0; i < 30; ++i) writer.send("rl-in", "k" + std::to_string(i % 3), std::string("v"));
        writer.flush();
        const std::map<std::string, std::int64_t> tens{{"k0", 10}, {"k1", 10}, {"k2", 10}};
        REQUIRE(read_latest(reader, equals(tens)) == tens);
        CHECK(first.close(30s));
    }
    auto listener = std::make_shared<counting_listener>();
    kafka_streams second(topo, cfg);
    second.set_global_state_restore_listener(listener);
    second.start();
    CHECK_THROWS_AS(second.set_global_state_restore_listener(listener), std::logic_error);
    REQUIRE(second.wait_until(streams_state::running, 30s));
    {
        std::lock_guard lock(listener->m);
        CHECK(listener->starts == 1);
        CHECK(listener->from == 0);
        CHECK(listener->to == 30);
        CHECK(listener->batches >= 1);
        CHECK(listener->batch_records == 30);
        CHECK(listener->last_batch_end == 29);
        CHECK(listener->ends == 1);
        CHECK(listener->total == 30);
    }
    // The counts go on from the restored state.
    writer.send("rl-in", std::string("k1"), std::string("v"));
    writer.flush();
    auto latest = read_latest(reader, [](const auto& l) { return l.count("k1") && l.at("k1") == 11; });
    CHECK(latest["k1"] == 11);
    CHECK(second.close(30s));
    CHECK(second.metrics().value("records-restored") == 30);
}

namespace {

/// Where and how much a restoration read.
struct source_restore_listener final : state_restore_listener {
    std::mutex m;
    std::string topic, store;
    std::int64_t starts = 0, to = -1, total = 0;
    void on_restore_start(std::string_view t, std::int32_t, std::string_view s, std::int64_t, std::int64_t end) override {
        std::lock_guard lock(m);
        topic = t;
        store = s;
        ++starts;
        to = end;
    }
    void on_batch_restored(std::string_view, std::int32_t, std::string_view, std::int64_t, std::int64_t) override {}
    void on_restore_end(std::string_view, std::int32_t, std::string_view, std::int64_t n) override {
        std::lock_guard lock(m);
        total += n;
    }
};

}  // namespace

TEST_CASE("restoration: with reuse.ktable.source.topics a table's store restores from its source topic up to the committed offset") {
    embedded_cluster cluster;
    for (const char* t : {"ru-users", "ru-clicks", "ru-out"}) cluster.create_topic(t, 1);
    test::topic_writer writer(cluster.bootstrap_servers());
    streams_builder b;
    auto users = b.table<std::string, std::string>("ru-users", materialized<>::as("ru-user-store").with_in_memory_store());
    b.stream<std::string, std::string>("ru-clicks")
        .join(users, [](const std::string& c, const std::string& u) { return c + "@" + u; })
        .to("ru-out");
    const topology topo = b.build({{"topology.optimization", "reuse.ktable.source.topics"}});
    auto cfg = cache_config("reuse-source", cluster.bootstrap_servers());
    cfg.commit_interval = 100ms;
    test::topic_reader reader(cluster.bootstrap_servers(), {"ru-out"});
    auto read_values = [&](std::size_t n) {
        std::vector<std::string> out;
        const auto deadline = std::chrono::steady_clock::now() + 60s;
        while (out.size() < n && std::chrono::steady_clock::now() < deadline)
            for (const auto& r : reader.read_until_quiet(300ms)) out.push_back(r.value_as<std::string>());
        return out;
    };
    {
        kafka_streams first(topo, cfg);
        first.start();
        writer.send("ru-users", std::string("u1"), std::string("eu"), 1);
        writer.send("ru-users", std::string("u2"), std::string("us"), 2);
        writer.flush();
        REQUIRE(first.wait_until(streams_state::running, 30s));
        std::this_thread::sleep_for(500ms);  // the users are in the store before the click
        writer.send("ru-clicks", std::string("u1"), std::string("c1"), 3);
        writer.flush();
        CHECK(read_values(1) == std::vector<std::string>{"c1@eu"});
        CHECK(first.close(30s));
    }
    // The in-memory store is gone; the second app reads it back from ru-users (no changelog topic)
    // and does not process the users again.
    auto listener = std::make_shared<source_restore_listener>();
    kafka_streams second(topo, cfg);
    second.set_global_state_restore_listener(listener);
    second.start();
    REQUIRE(second.wait_until(streams_state::running, 30s));
    writer.send("ru-clicks", std::string("u2"), std::string("c2"), 4);
    writer.flush();
    CHECK(read_values(1) == std::vector<std::string>{"c2@us"});
    CHECK(second.close(30s));
    std::lock_guard lock(listener->m);
    CHECK(listener->starts == 1);
    CHECK(listener->topic == "ru-users");
    CHECK(listener->store == "ru-user-store");
    CHECK(listener->to == 2);
    CHECK(listener->total == 2);
}

TEST_CASE("restoration: a restarted app restores its suppress buffer from the changelog and emits what it held") {
    embedded_cluster cluster;
    cluster.create_topic("sp-in", 1);
    cluster.create_topic("sp-out", 1);
    streams_builder b;
    b.stream<std::string, std::string>("sp-in")
        .group_by_key()
        .windowed_by(time_windows::of_size_with_no_grace(10s))
        .count()
        .suppress(suppressed::until_window_closes(buffer_config::unbounded()).with_name("final"))
        .to_stream()
        .select_key([](const windowed<std::string>& w, std::int64_t) { return w.key + "@" + std::to_string(w.window.start); })
        .to("sp-out");
    topology topo = b.build();
    auto cfg = cache_config("suppress-restore", cluster.bootstrap_servers());
    cfg.commit_interval = 100ms;
    test::topic_writer writer(cluster.bootstrap_servers());
    test::topic_reader out(cluster.bootstrap_servers(), {"sp-out"});
    {
        test::topic_reader changelog(cluster.bootstrap_servers(), {"suppress-restore-final-store-changelog"});
        kafka_streams first(topo, cfg);
        first.start();
        writer.send("sp-in", std::string("a"), std::string("v"), 1000);
        writer.send("sp-in", std::string("b"), std::string("v"), 1500);
        writer.send("sp-in", std::string("a"), std::string("v"), 5000);
        writer.flush();
        // Both keys' windows reached the buffer's changelog (what is left is logged on close, and
        // input not processed yet is read again by the second app).
        std::size_t logged = 0;
        const auto deadline = std::chrono::steady_clock::now() + 60s;
        while (logged < 2 && std::chrono::steady_clock::now() < deadline) {
            for (const auto& r : changelog.read_until_quiet(300ms)) {
                REQUIRE(r.value.has_value());
                ++logged;
            }
        }
        REQUIRE(logged >= 2);
        CHECK(out.read_until_quiet(500ms).empty());  // nothing closed yet
        CHECK(first.close(30s));
    }
    kafka_streams second(topo, cfg);
    second.start();
    writer.send("sp-in", std::string("c"), std::string("v"), 20000);  // closes [0, 10 s)
    writer.flush();
    std::map<std::string, std::int64_t> latest = read_latest(out, [](const auto& l) { return l.size() >= 2; });
    CHECK(latest == std::map<std::string, std::int64_t>{{"a@0", 2}, {"b@0", 1}});
    CHECK(second.close(30s));
}

TEST_CASE("restoration: a restarted app emitting on window close does not emit the windows it emitted before") {
    embedded_cluster cluster;
    cluster.create_topic("eoc-in", 1);
    cluster.create_topic("eoc-out", 1);
    streams_builder b;
    b.stream<std::string, std::string>("eoc-in")
        .group_by_key()
        .windowed_by(time_windows::of_size_with_no_grace(10s))
        .emit_strategy(emit_strategy::on_window_close())
        .count(materialized<>::as("eoc-counts").with_in_memory_store())  // restored from the changelog
        .to_stream()
        .select_key([](const windowed<std::string>& w, std::int64_t) { return w.key + "@" + std::to_string(w.window.start); })
        .to("eoc-out");
    topology topo = b.build();
    auto cfg = cache_config("emit-on-close-restart", cluster.bootstrap_servers());
    cfg.commit_interval = 100ms;
    cfg.windowed_emit_interval = 0ms;
    test::topic_writer writer(cluster.bootstrap_servers());
    test::topic_reader out(cluster.bootstrap_servers(), {"eoc-out"});
    std::vector<std::string> emitted;
    auto read_emitted = [&](std::size_t n) {
        const auto deadline = std::chrono::steady_clock::now() + 60s;
        while (emitted.size() < n && std::chrono::steady_clock::now() < deadline)
            for (const auto& r : out.read_until_quiet(300ms)) emitted.push_back(*r.key + "=" + std::to_string(r.value_as<std::int64_t>()));
    };
    {
        kafka_streams first(topo, cfg);
        first.start();
        writer.send("eoc-in", std::string("a"), std::string("v"), 1000);
        writer.send("eoc-in", std::string("b"), std::string("v"), 1500);
        writer.send("eoc-in", std::string("a"), std::string("v"), 12000);  // closes [0, 10 s)
        writer.flush();
        read_emitted(2);
        CHECK(emitted == std::vector<std::string>{"a@0=1", "b@0=1"});
        CHECK(first.close(30s));  // commits the close time emitted up to with the offsets
    }
    kafka_streams second(topo, cfg);
    second.start();
    writer.send("eoc-in", std::string("c"), std::string("v"), 25000);  // closes [10 s, 20 s)
    writer.flush();
    read_emitted(3);
    for (const auto& r : out.read_until_quiet(1s)) emitted.push_back(*r.key + "=" + std::to_string(r.value_as<std::int64_t>()));
    // [0, 10 s) is in the restored store but was emitted before the restart: not again.
    CHECK(emitted == std::vector<std::string>{"a@0=1", "b@0=1", "a@10000=1"});
    CHECK(second.close(30s));
}

TEST_CASE("recovery by recomputation: a restarted app rebuilds its open windows from the held commit and "
          "emits each final once") {
    embedded_cluster cluster;
    cluster.create_topic("rc-in", 1);
    cluster.create_topic("rc-out", 1);
    streams_builder b;
    b.stream<std::string, std::string>("rc-in")
        .group_by_key()
        .windowed_by(time_windows::of_size_with_no_grace(10s))
        .emit_strategy(emit_strategy::on_window_close())
        .count(materialized<>::as("counts").with_recovery(recovery::recompute))
        .to_stream()
        .select_key([](const windowed<std::string>& w, std::int64_t) { return w.key + "@" + std::to_string(w.window.start); })
        .to("rc-out");
    topology topo = b.build();
    auto cfg = cache_config("recompute-restart", cluster.bootstrap_servers());
    cfg.commit_interval = 100ms;
    test::topic_writer writer(cluster.bootstrap_servers());
    test::topic_reader out(cluster.bootstrap_servers(), {"rc-out"});
    std::vector<std::pair<std::string, std::int64_t>> finals;
    auto read_finals = [&](std::size_t n) {
        const auto deadline = std::chrono::steady_clock::now() + 60s;
        while (finals.size() < n && std::chrono::steady_clock::now() < deadline)
            for (const auto& r : out.read_until_quiet(300ms)) finals.emplace_back(*r.key, r.value_as<std::int64_t>());
    };
    {
        kafka_streams first(topo, cfg);
        first.start();
        writer.send("rc-in", std::string("a"), std::string("v"), 1000);
        writer.send("rc-in", std::string("b"), std::string("v"), 1500);
        writer.send("rc-in", std::string("a"), std::string("v"), 5000);
        writer.send("rc-in", std::string("a"), std::string("v"), 12000);  // closes [0, 10 s)
        writer.send("rc-in", std::string("b"), std::string("v"), 13000);
        writer.flush();
        read_finals(2);
        CHECK(finals == std::vector<std::pair<std::string, std::int64_t>>{{"a@0", 2}, {"b@0", 1}});
        // [10 s, 20 s) is open: its records are processed again by the next app, which takes the
        // stream time and what was emitted from the commit's metadata.
        CHECK(first.close(30s));
    }
    kafka_streams second(topo, cfg);
    second.start();
    writer.send("rc-in", std::string("a"), std::string("v"), 15000);
    writer.send("rc-in", std::string("c"), std::string("v"), 25000);  // closes [10 s, 20 s)
    writer.flush();
    read_finals(4);
    CHECK(out.read_until_quiet(500ms).empty());
    CHECK(finals == std::vector<std::pair<std::string, std::int64_t>>{{"a@0", 2}, {"b@0", 1}, {"a@10000", 2}, {"b@10000", 1}});
    CHECK(second.metrics().value("records-replayed") == 2);  // a@12000 and b@13000
    CHECK(second.close(30s));
}

namespace {
/// Forwards, for each record, the stream time it sees, and for each stream-time punctuation (every
/// 10 s) its time.
struct stream_time_reporter : processor<std::string, std::string, std::string, std::string> {
    void init(context_type& ctx) override {
        processor::init(ctx);
        ctx.schedule(10s, punctuation_type::stream_time, [this](std::int64_t t) {
            context().forward(record<std::string, std::string>{"punctuation", std::to_string(t), t});
        });
    }
    void process(const record<std::string, std::string>& r) override {
        context().forward(record<std::string, std::string>{r.key, std::to_string(context().current_stream_time_ms()), r.timestamp});
    }
};
}  // namespace

TEST_CASE("restart: the stream time resumes from the partition time committed with the offsets, as Kafka's") {
    embedded_cluster cluster;
    cluster.create_topic("st-in", 1);
    cluster.create_topic("st-out", 1);
    topology topo;
    topo.add_source<std::string, std::string>("src", {"st-in"})
        .add_processor("p", [] { return std::make_unique<stream_time_reporter>(); }, {"src"})
        .add_sink<std::string, std::string>("sink", "st-out", {"p"});
    auto cfg = cache_config("stream-time-restart", cluster.bootstrap_servers());
    cfg.commit_interval = 100ms;
    test::topic_writer writer(cluster.bootstrap_servers());
    test::topic_reader out(cluster.bootstrap_servers(), {"st-out"});
    std::vector<std::string> seen;
    auto read_seen = [&](std::size_t n) {
        const auto deadline = std::chrono::steady_clock::now() + 60s;
        while (seen.size() < n && std::chrono::steady_clock::now() < deadline)
            for (const auto& r : out.read_until_quiet(300ms)) seen.push_back(*r.key + "=" + r.value_as<std::string>());
    };
    {
        kafka_streams first(topo, cfg);
        first.start();
        writer.send("st-in", std::string("a"), std::string("v"), 5000);
        writer.send("st-in", std::string("b"), std::string("v"), 25000);
        writer.flush();
        read_seen(4);  // when the punctuations fire between the two records is not the point here
        CHECK(std::count(seen.begin(), seen.end(), "b=25000") == 1);
        CHECK(std::count(seen.begin(), seen.end(), "punctuation=25000") == 1);
        CHECK(first.close(30s));  // commits the partition time, 25000, with the offset
    }
    seen.clear();
    kafka_streams second(topo, cfg);
    second.start();
    // Before any new record: the punctuation scheduled afresh is due at the resumed stream time.
    read_seen(1);
    CHECK(seen == std::vector<std::string>{"punctuation=25000"});
    writer.send("st-in", std::string("c"), std::string("v"), 1000);  // earlier than the stream time
    writer.flush();
    read_seen(2);
    CHECK(seen == std::vector<std::string>{"punctuation=25000", "c=25000"});
    CHECK(second.close(30s));
}
