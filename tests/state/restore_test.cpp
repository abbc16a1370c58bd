// Restoration from changelogs through the test driver: drop the local store, restart, and get the
// same state back; checkpoints skip what the store already holds; a crash without a checkpoint
// restores from the beginning; a corrupted store is wiped and restored; task directories are locked.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include <kstreams/dsl.hpp>
#include <kstreams/error.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "tests/state/store_test_support.hpp"

using namespace kstreams;
using str = std::string;

namespace {

topology count_topology(bool persistent) {
    streams_builder b;
    auto m = materialized<>::as("counts");
    b.stream<str, str>("in")
        .group_by_key()
        .count(persistent ? m.with_persistent_store() : m.with_in_memory_store())
        .to_stream()
        .to("out");
    return b.build();
}

struct recording_listener final : state_restore_listener {
    struct start {
        str topic, store;
        std::int64_t from, to;
    };
    std::vector<start> starts;
    std::vector<std::int64_t> batch_ends;
    std::int64_t total = -1;
    void on_restore_start(std::string_view topic, std::int32_t, std::string_view store, std::int64_t from,
                          std::int64_t to) override {
        starts.push_back({str(topic), str(store), from, to});
    }
    void on_batch_restored(std::string_view, std::int32_t, std::string_view, std::int64_t end, std::int64_t) override {
        batch_ends.push_back(end);
    }
    void on_restore_end(std::string_view, std::int32_t, std::string_view, std::int64_t n) override { total = n; }
};

const str changelog = "test-app-counts-changelog";

/// Removes the directory after everything declared later (the drivers) is gone.
struct temp_dir {
    std::filesystem::path path;
    explicit temp_dir(const std::string& tag) : path(test_support::fresh_temp_dir(tag)) {}
    ~temp_dir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

/// 2500 records over 50 keys: key kN seen 50 times.
std::map<std::string, std::vector<test::produced_record>> build_state(const std::filesystem::path& dir, bool persistent) {
    topology t = count_topology(persistent);
    test::driver_config cfg;
    cfg.state_dir = dir;
    test::topology_test_driver driver(t, cfg);
    auto in = driver.create_input_topic<str, str>("in");
    for (int i = 0; i < 2500; ++i) in.pipe_input("k" + std::to_string(i % 50), "v", i);
    return driver.changelog_records();
}

std::map<str, value_and_timestamp<std::int64_t>> contents(test::topology_test_driver& d) {
    std::map<str, value_and_timestamp<std::int64_t>> out;
    for (const auto& kv : d.get_key_value_store<str, value_and_timestamp<std::int64_t>>("counts").all())
        out.emplace(kv.key, kv.value);
    return out;
}

void check_full_state(test::topology_test_driver& d) {
    auto state = contents(d);
    REQUIRE(state.size() == 50);
    CHECK(state["k0"] == value_and_timestamp<std::int64_t>{50, 2450});
    CHECK(state["k49"] == value_and_timestamp<std::int64_t>{50, 2499});
}

}  // namespace

TEST_CASE("restore: dropping the local RocksDB store and restarting gives the same state from the changelog") {
    temp_dir guard("restore-drop");
    const auto& dir = guard.path;
    auto logged = build_state(dir, true);
    REQUIRE(logged[changelog].size() == 2500);
    CHECK(std::filesystem::exists(dir / "test-app" / "0_0" / ".checkpoint"));
    std::filesystem::remove_all(dir / "test-app" / "0_0" / "rocksdb" / "counts");

    auto listener = std::make_shared<recording_listener>();
    test::driver_config cfg;
    cfg.state_dir = dir;
    cfg.changelogs = logged;
    cfg.restore_listener = listener;
    topology t = count_topology(true);
    test::topology_test_driver driver(t, cfg);
    check_full_state(driver);
    REQUIRE(listener->starts.size() == 1);
    CHECK(listener->starts[0].topic == changelog);
    CHECK(listener->starts[0].store == "counts");
    CHECK(listener->starts[0].from == 0);
    CHECK(listener->starts[0].to == 2500);
    CHECK(listener->batch_ends == std::vector<std::int64_t>{999, 1999, 2499});
    CHECK(listener->total == 2500);
    CHECK(driver.metrics().value("records-restored") == 2500);

    // Processing continues from the restored counts, and the changelog continues after them.
    auto in = driver.create_input_topic<str, str>("in");
    in.pipe_input("k0", "v", 3000);
    CHECK(driver.create_output_topic<str, std::int64_t>("out").read_value() == 51);
    CHECK(driver.changelog_records()[changelog].size() == 2501);
}

TEST_CASE("restore: with a checkpoint and the local store intact nothing is replayed") {
    temp_dir guard("restore-checkpoint");
    const auto& dir = guard.path;
    auto logged = build_state(dir, true);
    auto listener = std::make_shared<recording_listener>();
    test::driver_config cfg;
    cfg.state_dir = dir;
    cfg.changelogs = logged;
    cfg.restore_listener = listener;
    topology t = count_topology(true);
    test::topology_test_driver driver(t, cfg);
    check_full_state(driver);
    CHECK(listener->starts.empty());
}

TEST_CASE("restore: the checkpoint holds the next changelog offset to restore from, as Kafka Streams writes it") {
    temp_dir guard("restore-next-offset");
    const auto& dir = guard.path;
    auto logged = build_state(dir, true);
    REQUIRE(logged[changelog].size() == 2500);
    const auto file = dir / "test-app" / "0_0" / ".checkpoint";
    {
        std::ifstream in(file);
        std::stringstream text;
        text << in.rdbuf();
        CHECK(text.str() == "0\n1\n" + changelog + " 0 2500\n");  // offsets 0..2499 held: 2500 is next
    }
    // A checkpoint taken mid-way: restoration replays from exactly that offset to the end.
    std::ofstream(file, std::ios::trunc) << "0\n1\n" << changelog << " 0 2000\n";
    auto listener = std::make_shared<recording_listener>();
    test::driver_config cfg;
    cfg.state_dir = dir;
    cfg.changelogs = logged;
    cfg.restore_listener = listener;
    topology t = count_topology(true);
    test::topology_test_driver driver(t, cfg);
    check_full_state(driver);
    REQUIRE(listener->starts.size() == 1);
    CHECK(listener->starts[0].from == 2000);
    CHECK(listener->starts[0].to == 2500);
    CHECK(listener->total == 500);
}

TEST_CASE("restore: after a crash without a checkpoint the store is restored from the beginning") {
    temp_dir guard("restore-crash");
    const auto& dir = guard.path;
    auto logged = build_state(dir, true);
    std::filesystem::remove(dir / "test-app" / "0_0" / ".checkpoint");
    auto listener = std::make_shared<recording_listener>();
    test::driver_config cfg;
    cfg.state_dir = dir;
    cfg.changelogs = logged;
    cfg.restore_listener = listener;
    topology t = count_topology(true);
    test::topology_test_driver driver(t, cfg);
    check_full_state(driver);
    REQUIRE(listener->starts.size() == 1);
    CHECK(listener->starts[0].from == 0);
}

TEST_CASE("restore: a corrupted store directory is wiped and restored from the changelog") {
    temp_dir guard("restore-corrupt");
    const auto& dir = guard.path;
    auto logged = build_state(dir, true);
    for (const auto& e : std::filesystem::directory_iterator(dir / "test-app" / "0_0" / "rocksdb" / "counts"))
        if (e.path().filename().string().starts_with("MANIFEST")) std::ofstream(e.path(), std::ios::trunc) << "garbage";
    test::driver_config cfg;
    cfg.state_dir = dir;
    cfg.changelogs = logged;
    topology t = count_topology(true);
    test::topology_test_driver driver(t, cfg);
    check_full_state(driver);
}

TEST_CASE("restore: an in-memory store is always restored from the beginning") {
    temp_dir guard("restore-memory");
    const auto& dir = guard.path;
    auto logged = build_state(dir, false);
    CHECK_FALSE(std::filesystem::exists(dir / "test-app" / "0_0" / ".checkpoint"));
    test::driver_config cfg;
    cfg.state_dir = dir;
    cfg.changelogs = logged;
    topology t = count_topology(false);
    test::topology_test_driver driver(t, cfg);
    check_full_state(driver);
}

TEST_CASE("state directory: two instances cannot share a task directory") {
    temp_dir guard("lock");
    const auto& dir = guard.path;
    topology t = count_topology(true);
    test::driver_config cfg;
    cfg.state_dir = dir;
    {
        test::topology_test_driver first(t, cfg);
        CHECK(std::filesystem::exists(dir / "test-app" / "0_0" / ".lock"));
        topology t2 = count_topology(true);
        CHECK_THROWS_WITH_AS(test::topology_test_driver(t2, cfg), doctest::Contains("is locked by another instance"),
                             streams_error);
    }
    topology t3 = count_topology(true);
    test::topology_test_driver again(t3, cfg);  // released on close
}

TEST_CASE("DSL count with caching: N updates of a key between commits give one changelog and one output record") {
    for (bool cache_on : {true, false}) {
        CAPTURE(cache_on);
        topology t = count_topology(true);
        test::driver_config cfg;
        cfg.commit_after_every_record = false;
        if (!cache_on) cfg.cache_max_bytes = 0;
        test::topology_test_driver driver(t, cfg);
        auto in = driver.create_input_topic<str, str>("in");
        auto out = driver.create_output_topic<str, std::int64_t>("out");
        auto log = driver.create_output_topic<str, std::int64_t>(changelog);
        for (int i = 0; i < 10; ++i) in.pipe_input("hot", "v", i);
        driver.commit();
        if (cache_on) {
            CHECK(out.read_values_to_list() == std::vector<std::int64_t>{10});
            auto logged = log.read_records_to_list();
            REQUIRE(logged.size() == 1);
            CHECK(logged[0].value == 10);
            CHECK(logged[0].timestamp == 9);
        } else {
            CHECK(out.read_values_to_list().size() == 10);
            CHECK(log.read_values_to_list().size() == 10);
        }
    }
}
