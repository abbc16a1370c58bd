// A store's local files damaged between runs, through the test driver: a store with a changelog is
// wiped and restored (counted in `stores-wiped`); a store without one fails naming the store and
// the path and its files are left as they are; an error that is not corruption never wipes.
#include <doctest/doctest.h>

#include <sys/resource.h>

#include <fstream>
#include <functional>
#include <iterator>

#include <kstreams/dsl.hpp>
#include <kstreams/error.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "lib/state/rocksdb_key_value_store.hpp"
#include "tests/state/store_test_support.hpp"

using namespace kstreams;
using str = std::string;
namespace fs = std::filesystem;

namespace {

constexpr int keys = 50;
constexpr int records = 2500;  // each key counted 50 times
const str changelog = "test-app-counts-changelog";

topology count_topology(bool logged) {
    streams_builder b;
    auto m = materialized<>::as("counts").with_persistent_store();
    b.stream<str, str>("in").group_by_key().count(logged ? m : m.with_logging_disabled()).to_stream().to("out");
    return b.build();
}

struct temp_dir {
    fs::path path;
    explicit temp_dir(const std::string& tag) : path(test_support::fresh_temp_dir(tag)) {}
    ~temp_dir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

test::driver_config config(const fs::path& dir) {
    test::driver_config cfg;
    cfg.state_dir = dir;
    return cfg;
}

/// Counts `records` records over `keys` keys into the store, closes cleanly; returns the changelog.
std::map<str, std::vector<test::produced_record>> build_state(const fs::path& dir, bool logged) {
    topology t = count_topology(logged);
    test::topology_test_driver driver(t, config(dir));
    auto in = driver.create_input_topic<str, str>("in");
    for (int i = 0; i < records; ++i) in.pipe_input("k" + std::to_string(i % keys), "v", i);
    return driver.changelog_records();
}

fs::path store_dir(const fs::path& dir) { return dir / "test-app" / "0_0" / "rocksdb" / "counts"; }

std::vector<fs::path> files_named(const fs::path& dir, const std::function<bool(const str&)>& pred) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (pred(e.path().filename().string())) out.push_back(e.path());
    return out;
}
std::vector<fs::path> ssts(const fs::path& dir) {
    return files_named(dir, [](const str& n) { return n.ends_with(".sst"); });
}

str read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

/// Every file of the directory and its bytes, to show that nothing was touched.
std::map<str, str> snapshot(const fs::path& dir) {
    std::map<str, str> out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file() && e.path().filename() != "LOG" && !e.path().filename().string().starts_with("LOG.old"))
            out[fs::relative(e.path(), dir).string()] = read_file(e.path());
    return out;
}

struct damage {
    const char* name;
    std::function<void(const fs::path&)> apply;
};

const std::vector<damage> damages = {
    {"garbage CURRENT", [](const fs::path& d) { std::ofstream(d / "CURRENT", std::ios::trunc) << "\x07garbage"; }},
    {"missing MANIFEST",
     [](const fs::path& d) {
         auto m = files_named(d, [](const str& n) { return n.starts_with("MANIFEST"); });
         REQUIRE_FALSE(m.empty());
         for (const auto& p : m) fs::remove(p);
     }},
    {"truncated SST",
     [](const fs::path& d) {
         auto s = ssts(d);
         REQUIRE_FALSE(s.empty());
         for (const auto& p : s) fs::resize_file(p, fs::file_size(p) / 2);
     }},
    {"table files without CURRENT", [](const fs::path& d) { fs::remove(d / "CURRENT"); }},
};

std::map<str, std::int64_t> counts(test::topology_test_driver& d) {
    std::map<str, std::int64_t> out;
    for (const auto& kv : d.get_key_value_store<str, value_and_timestamp<std::int64_t>>("counts").all())
        out.emplace(kv.key, kv.value.value);
    return out;
}

std::map<str, std::int64_t> full_counts() {
    std::map<str, std::int64_t> out;
    for (int k = 0; k < keys; ++k) out["k" + std::to_string(k)] = records / keys;
    return out;
}

}  // namespace

TEST_CASE("corruption: a logged store whose files were damaged is wiped and restored from its changelog") {
    for (const auto& dmg : damages) {
        const str damage_name = dmg.name;
        CAPTURE(damage_name);
        temp_dir guard("corrupt-logged");
        auto logged = build_state(guard.path, true);
        REQUIRE(logged[changelog].size() == records);
        dmg.apply(store_dir(guard.path));
        auto cfg = config(guard.path);
        cfg.changelogs = logged;
        topology t = count_topology(true);
        test::topology_test_driver driver(t, cfg);
        CHECK(counts(driver) == full_counts());
        CHECK(driver.metrics().value("stores-wiped") == 1);
        CHECK(driver.metrics().value("records-restored") == records);
        // It goes on from the restored counts.
        driver.create_input_topic<str, str>("in").pipe_input("k0", "v", 5000);
        CHECK(driver.create_output_topic<str, std::int64_t>("out").read_value() == records / keys + 1);
    }
}

TEST_CASE("corruption: a store with logging disabled is never wiped: the error names the store and the path") {
    for (const auto& dmg : damages) {
        const str damage_name = dmg.name;
        CAPTURE(damage_name);
        temp_dir guard("corrupt-unlogged");
        build_state(guard.path, false);
        dmg.apply(store_dir(guard.path));
        const auto before = snapshot(guard.path / "test-app" / "0_0" / "rocksdb");
        topology t = count_topology(false);
        try {
            test::topology_test_driver driver(t, config(guard.path));
            FAIL("the driver started on a corrupted store without a changelog");
        } catch (const streams_error& e) {
            const str what = e.what();
            CHECK(what.find("store counts") != str::npos);
            CHECK(what.find(store_dir(guard.path).string()) != str::npos);
            CHECK(what.find("no changelog") != str::npos);
        }
        CHECK(snapshot(guard.path / "test-app" / "0_0" / "rocksdb") == before);
    }
}

TEST_CASE("corruption: an open error that is not corruption (a held lock, no file descriptors) wipes nothing") {
    temp_dir guard("open-error");
    auto logged = build_state(guard.path, true);
    auto cfg = config(guard.path);
    cfg.changelogs = logged;
    SUBCASE("RocksDB's lock held") {
        state::rocksdb_key_value_store holder("counts");
        holder.open_at(store_dir(guard.path), nullptr);
        topology t = count_topology(true);
        CHECK_THROWS_WITH_AS(test::topology_test_driver(t, cfg), doctest::Contains("Error opening store counts at location"),
                             streams_error);
    }
    SUBCASE("too many open files") {
        rlimit saved{};
        REQUIRE(::getrlimit(RLIMIT_NOFILE, &saved) == 0);
        int open_fds = 0;
        for (const auto& e : fs::directory_iterator("/proc/self/fd")) {
            (void)e;
            ++open_fds;
        }
        topology t = count_topology(true);
        const auto before = snapshot(store_dir(guard.path));
        bool threw = false;
        rlimit low = saved;
        low.rlim_cur = static_cast<rlim_t>(open_fds + 2);  // the task lock and RocksDB's LOCK, no more
        REQUIRE(::setrlimit(RLIMIT_NOFILE, &low) == 0);
        try {
            test::topology_test_driver driver(t, cfg);
        } catch (const streams_error& e) {
            threw = true;
            CHECK(str(e.what()).find("Too many open files") != str::npos);
        }
        REQUIRE(::setrlimit(RLIMIT_NOFILE, &saved) == 0);
        CHECK(threw);
        CHECK(snapshot(store_dir(guard.path)) == before);
    }
    // Once the cause is gone, the store opens as it was: nothing to restore.
    topology t = count_topology(true);
    test::topology_test_driver driver(t, cfg);
    CHECK(counts(driver) == full_counts());
    CHECK(driver.metrics().value("records-restored") == 0);
    CHECK(driver.metrics().value("stores-wiped") == 0);
}

TEST_CASE("corruption: an unreadable checkpoint file wipes the logged stores and restores them; unlogged ones stay") {
    for (bool logged : {true, false}) {
        CAPTURE(logged);
        temp_dir guard("bad-checkpoint");
        auto changelogs = build_state(guard.path, logged);
        const auto file = guard.path / "test-app" / "0_0" / ".checkpoint";
        std::ofstream(file, std::ios::trunc) << "0\n2\n" << changelog << " 0 2500\n";  // says 2 entries, has 1
        auto cfg = config(guard.path);
        cfg.changelogs = changelogs;
        topology t = count_topology(logged);
        test::topology_test_driver driver(t, cfg);
        CHECK(counts(driver) == full_counts());
        CHECK(driver.metrics().value("stores-wiped") == (logged ? 1u : 0u));
        CHECK(driver.metrics().value("records-restored") == (logged ? records : 0));
    }
}

TEST_CASE("corruption: a checkpoint past the changelog's end (a changelog from another cluster) wipes the store") {
    temp_dir guard("checkpoint-past-end");
    auto changelogs = build_state(guard.path, true);
    REQUIRE(changelogs[changelog].size() == records);
    // The changelog the store restores from now holds only its first 1000 records, while the
    // checkpoint says the store holds 2500.
    changelogs[changelog].resize(1000);
    auto cfg = config(guard.path);
    cfg.changelogs = changelogs;
    topology t = count_topology(true);
    test::topology_test_driver driver(t, cfg);
    std::map<str, std::int64_t> expected;
    for (int k = 0; k < keys; ++k) expected["k" + std::to_string(k)] = 1000 / keys;
    CHECK(counts(driver) == expected);
    CHECK(driver.metrics().value("stores-wiped") == 1);
    CHECK(driver.metrics().value("records-restored") == 1000);
    // And it goes on from there.
    driver.create_input_topic<str, str>("in").pipe_input("k0", "v", 5000);
    CHECK(driver.create_output_topic<str, std::int64_t>("out").read_value() == 1000 / keys + 1);
}

TEST_CASE("corruption: found on a read while the test driver runs, it is an error naming the store") {
    temp_dir guard("corrupt-read");
    auto changelogs = build_state(guard.path, true);
    const auto files = ssts(store_dir(guard.path));
    REQUIRE(files.size() == 1);
    {
        std::fstream f(files[0], std::ios::in | std::ios::out | std::ios::binary);
        const str garbage(64, '\x5a');  // inside the only data block
        f.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
    }
    auto cfg = config(guard.path);
    cfg.changelogs = changelogs;
    topology t = count_topology(true);
    test::topology_test_driver driver(t, cfg);  // opening reads no data block
    auto in = driver.create_input_topic<str, str>("in");
    CHECK_THROWS_WITH_AS(in.pipe_input("k0", "v", 5000), doctest::Contains("cannot read its input again"), streams_error);
}
