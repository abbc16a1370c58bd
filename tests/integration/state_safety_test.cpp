// State safety on the real broker: a count's RocksDB store damaged between runs (garbage CURRENT,
// missing MANIFEST, truncated SST, garbage inside an SST found on a read, garbage checkpoint, a
// checkpoint past its changelog's end) never loses data and never leaves the app dying on every
// restart; a store without a changelog is never wiped; kafka_streams::clean_up().
#include <doctest/doctest.h>

#include <librdkafka/rdkafka.h>

#include <fstream>
#include <iterator>
#include <thread>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/streams.hpp>

#include "tests/integration/broker_fixture.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
namespace fs = std::filesystem;
using str = std::string;
using counts = std::map<str, std::int64_t>;

namespace {

topology count_topology(const str& in, const str& out, bool logged) {
    streams_builder b;
    auto m = materialized<>::as("counts");  // RocksDB
    b.stream<str, str>(in).group_by_key().count(logged ? m : m.with_logging_disabled()).to_stream().to(out);
    return b.build();
}

/// One input partition, so one task (0_0) holds every key.
struct count_app {
    str app_id = test::unique("safety");
    str in = test::unique("safety-in"), out = test::unique("safety-out");
    fs::path state = test::temp_state_dir("safety");
    bool logged;
    int keys;
    counts expected;
    topology topo;

    count_app(bool logged_, int keys_) : logged(logged_), keys(keys_), topo(count_topology(in, out, logged_)) {
        test::create_topics({{in, 1}, {out, 1}});
    }
    ~count_app() {
        std::error_code ec;
        fs::remove_all(state, ec);
    }
    streams_config config() const { return test::broker_config(app_id, state); }
    fs::path task_dir() const { return state / app_id / "0_0"; }
    fs::path store_dir() const { return task_dir() / "rocksdb" / "counts"; }
    str changelog() const { return app_id + "-counts-changelog"; }

    /// Sends `per_key` records for every key.
    void send(int per_key) {
        test::topic_writer writer(test::broker());
        for (int i = 0; i < per_key; ++i)
            for (int k = 0; k < keys; ++k) {
                const str key = "k" + std::to_string(k);
                writer.send(in, key, str("v"));
                ++expected[key];
            }
        writer.flush();
    }
    /// Reads the output from the start until every key's latest count is what was sent.
    counts latest() {
        test::topic_reader reader(test::broker(), {out});
        counts seen;
        test::read_until_latest_equals(reader, expected, 60s, seen);
        return seen;
    }
    /// Starts the app, sends `per_key` records per key, waits for the counts, closes cleanly;
    /// returns the app's counters.
    metrics run(int per_key) {
        kafka_streams app(topo, config());
        app.start();
        REQUIRE(app.wait_until(streams_state::running, 60s));
        send(per_key);
        CHECK(latest() == expected);
        CHECK(app.close(60s));
        return app.metrics();
    }
};

std::vector<fs::path> files_of(const fs::path& dir, const str& suffix_or_prefix, bool prefix) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir)) {
        const str name = e.path().filename().string();
        if (prefix ? name.starts_with(suffix_or_prefix) : name.ends_with(suffix_or_prefix)) out.push_back(e.path());
    }
    return out;
}

str read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

/// The store's files and their bytes (RocksDB's own info logs aside).
std::map<str, str> snapshot(const fs::path& dir) {
    std::map<str, str> out;
    for (const auto& e : fs::directory_iterator(dir)) {
        const str name = e.path().filename().string();
        if (e.is_regular_file() && !name.starts_with("LOG")) out[name] = read_file(e.path());
    }
    return out;
}

/// Deletes a topic and creates it again, empty (what a development broker formatted on every
/// start looks like to a state directory that survived).
void recreate_empty(const str& topic) {
    char err[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    REQUIRE(rd_kafka_conf_set(conf, "bootstrap.servers", test::broker().c_str(), err, sizeof err) == RD_KAFKA_CONF_OK);
    rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
    REQUIRE(rk);
    rd_kafka_queue_t* q = rd_kafka_queue_new(rk);
    rd_kafka_DeleteTopic_t* del = rd_kafka_DeleteTopic_new(topic.c_str());
    rd_kafka_DeleteTopics(rk, &del, 1, nullptr, q);
    rd_kafka_event_t* ev = rd_kafka_queue_poll(q, 30000);
    REQUIRE(ev);
    size_t n = 0;
    const rd_kafka_topic_result_t** res = rd_kafka_DeleteTopics_result_topics(rd_kafka_event_DeleteTopics_result(ev), &n);
    REQUIRE(n == 1);
    CHECK(rd_kafka_topic_result_error(res[0]) == RD_KAFKA_RESP_ERR_NO_ERROR);
    rd_kafka_event_destroy(ev);
    rd_kafka_DeleteTopic_destroy(del);
    rd_kafka_queue_destroy(q);
    rd_kafka_destroy(rk);
    // The deletion completes in the background: retry the creation until the name is free.
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    for (;;) {
        try {
            kafka::topic_admin admin({{"bootstrap.servers", test::broker()}, {"log_level", "0"}}, 10s, nullptr);
            admin.create_topics({{topic, 1, 1, {{"cleanup.policy", "compact"}}}});
            kafka::topic_admin check({{"bootstrap.servers", test::broker()}, {"log_level", "0"}}, 10s, nullptr);
            if (check.partition_count(topic) == 1) return;
        } catch (const std::exception& e) {
            if (std::chrono::steady_clock::now() > deadline) FAIL("could not create " << topic << " again: " << e.what());
        }
        std::this_thread::sleep_for(500ms);
    }
}

}  // namespace

TEST_CASE("a store with logging disabled whose files are corrupted is never wiped: the app fails naming it") {
    count_app app(false, 100);
    app.run(100);  // 10,000 records over 100 keys
    const fs::path current = app.store_dir() / "CURRENT";
    const str good = read_file(current);
    std::ofstream(current, std::ios::trunc) << "garbage";
    const auto before = snapshot(app.store_dir());
    {
        kafka_streams streams(app.topo, app.config());
        streams.start();
        const auto deadline = std::chrono::steady_clock::now() + 60s;
        while (streams.state() != streams_state::error && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(50ms);
        REQUIRE(streams.state() == streams_state::error);
        REQUIRE(streams.error());
        try {
            std::rethrow_exception(streams.error());
        } catch (const std::exception& e) {
            const str what = e.what();
            CHECK(what.find("store counts") != str::npos);
            CHECK(what.find(app.store_dir().string()) != str::npos);
            CHECK(what.find("no changelog") != str::npos);
        }
        CHECK(streams.metrics().value("stores-wiped") == 0);
    }
    CHECK(snapshot(app.store_dir()) == before);  // the files are left as they were
    // Repaired by hand, the store has every count: nothing was lost.
    std::ofstream(current, std::ios::trunc) << good;
    app.run(1);
    CHECK(app.expected.at("k0") == 101);
}

TEST_CASE("a logged store damaged on disk is wiped and restored; no count is lost") {
    count_app app(true, 100);
    app.run(100);
    struct damage {
        const char* name;
        std::function<void()> apply;
    };
    const std::vector<damage> damages = {
        {"garbage CURRENT", [&] { std::ofstream(app.store_dir() / "CURRENT", std::ios::trunc) << "garbage"; }},
        {"missing MANIFEST",
         [&] {
             for (const auto& p : files_of(app.store_dir(), "MANIFEST", true)) fs::remove(p);
         }},
        {"truncated SST",
         [&] {
             const auto ssts = files_of(app.store_dir(), ".sst", false);
             REQUIRE_FALSE(ssts.empty());
             for (const auto& p : ssts) fs::resize_file(p, fs::file_size(p) / 2);
         }},
        {"garbage checkpoint", [&] { std::ofstream(app.task_dir() / ".checkpoint", std::ios::trunc) << "0\n2\nnot a checkpoint"; }},
    };
    for (const auto& d : damages) {
        CAPTURE(d.name);
        d.apply();
        const metrics m = app.run(1);
        CHECK(m.value("stores-wiped") == 1);
        CHECK(m.value("records-restored") > 0);
    }
    CHECK(app.expected.at("k0") == 104);
}

TEST_CASE("garbage inside an SST, found on a read: the task is closed dirty, the store restored, the input read again") {
    count_app app(true, 2000);  // large enough for an SST of many 4 KiB blocks
    app.run(5);
    const auto ssts = files_of(app.store_dir(), ".sst", false);
    REQUIRE(ssts.size() == 1);
    const auto size = fs::file_size(ssts[0]);
    REQUIRE(size > 32 * 1024);
    {
        std::fstream f(ssts[0], std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(static_cast<std::streamoff>(size / 3));
        const str garbage(4096, '\x5a');
        f.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
    }
    // Twice: the first run finds the corruption and recovers; the second starts from a good store.
    for (int run = 0; run < 2; ++run) {
        CAPTURE(run);
        const metrics m = app.run(1);
        CHECK(m.value("stores-wiped") == (run == 0 ? 1 : 0));
    }
    CHECK(app.expected.at("k0") == 7);
}

TEST_CASE("a checkpoint past the changelog's end (the changelog deleted and created empty) wipes the store") {
    count_app app(true, 100);
    app.run(60);
    REQUIRE(fs::exists(app.task_dir() / ".checkpoint"));
    recreate_empty(app.changelog());
    // The broker lost the state: the counts start again from what the input brings now.
    for (auto& [key, n] : app.expected) n = 0;
    const metrics m = app.run(1);
    CHECK(m.value("stores-wiped") == 1);
    CHECK(app.expected.at("k0") == 1);
}

TEST_CASE("kafka_streams::clean_up deletes the app's local state, only while it does not run") {
    count_app app(true, 10);
    kafka_streams streams(app.topo, app.config());
    streams.start();
    REQUIRE(streams.wait_until(streams_state::running, 60s));
    app.send(1);
    CHECK(app.latest() == app.expected);
    CHECK_THROWS_AS(streams.clean_up(), std::logic_error);
    CHECK(streams.close(60s));
    REQUIRE(fs::exists(app.task_dir()));
    streams.clean_up();
    CHECK_FALSE(fs::exists(app.state / app.app_id));
    CHECK(fs::exists(app.state));  // state.dir itself stays
}
