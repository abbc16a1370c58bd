// Versioned key-value stores (KIP-889), RocksDB and in memory, with Kafka's rules: put return
// codes, out-of-order puts, tombstones, as-of reads inside and past the history retention, expired
// puts dropped and counted, the changelog (every put, timestamped) and a restore from it.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>

#include <kstreams/dsl.hpp>
#include <kstreams/metrics.hpp>
#include <kstreams/state/versioned_key_value_store.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "tests/state/store_test_support.hpp"
#include "lib/runtime/internal_topic_config.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;
using vrec = versioned_record<str>;

namespace {

std::shared_ptr<const versioned_bytes_store_supplier> supplier(bool persistent, std::chrono::milliseconds retention) {
    return persistent ? stores::persistent_versioned_key_value_store("vs", retention)
                      : stores::in_memory_versioned_key_value_store("vs", retention);
}

struct opened {
    test_support::test_store_context ctx;
    kstreams::metrics m;
    std::unique_ptr<state_store> owner;
    versioned_key_value_store<str, str>* store = nullptr;

    explicit opened(bool persistent, std::chrono::milliseconds retention = 100ms, bool logged = true,
                    std::filesystem::path dir = test_support::fresh_temp_dir("versioned")) : ctx(std::move(dir)) {
        ctx.res.metrics = &m;
        auto b = stores::versioned_key_value_store_builder<str, str>(supplier(persistent, retention));
        if (!logged) b.with_logging_disabled();
        owner = b.build();
        store = dynamic_cast<versioned_key_value_store<str, str>*>(owner.get());
        REQUIRE(store);
        store->init(ctx);
    }
    ~opened() {
        if (owner->is_open()) owner->close();
    }
};

}  // namespace

TEST_CASE("versioned store: latest, as-of reads and put return codes") {
    for (bool persistent : {false, true}) {
        CAPTURE(persistent);
        opened o(persistent);
        auto& s = *o.store;
        CHECK(s.put("k", "a", 10) == put_valid_to_undefined);
        CHECK(s.put("k", "b", 20) == put_valid_to_undefined);
        CHECK(s.get("k") == vrec{"b", 20, std::nullopt});
        CHECK(s.get("k", 25) == vrec{"b", 20, std::nullopt});
        CHECK(s.get("k", 20) == vrec{"b", 20, std::nullopt});
        CHECK(s.get("k", 19) == vrec{"a", 10, 20});
        CHECK(s.get("k", 10) == vrec{"a", 10, 20});
        CHECK_FALSE(s.get("k", 9));
        CHECK_FALSE(s.get("other"));
        CHECK_FALSE(s.get("other", 20));

        // Out of order: goes into history, returns the timestamp of the version after it.
        CHECK(s.put("k", "c", 15) == 20);
        CHECK(s.get("k", 17) == vrec{"c", 15, 20});
        CHECK(s.get("k", 14) == vrec{"a", 10, 15});
        CHECK(s.put("k", "z", 5) == 10);
        CHECK(s.get("k", 7) == vrec{"z", 5, 10});
        CHECK(s.get("k") == vrec{"b", 20, std::nullopt});

        // The same timestamp replaces the version.
        CHECK(s.put("k", "c2", 15) == 20);
        CHECK(s.get("k", 15) == vrec{"c2", 15, 20});
        CHECK(s.put("k", "b2", 20) == put_valid_to_undefined);
        CHECK(s.get("k") == vrec{"b2", 20, std::nullopt});
    }
}

TEST_CASE("versioned store: tombstones and delete") {
    for (bool persistent : {false, true}) {
        CAPTURE(persistent);
        opened o(persistent);
        auto& s = *o.store;
        s.put("k", "a", 10);
        CHECK(s.erase("k", 20) == put_valid_to_undefined);
        CHECK_FALSE(s.get("k"));
        CHECK_FALSE(s.get("k", 20));
        CHECK(s.get("k", 19) == vrec{"a", 10, 20});
        // A value put before the tombstone ends at it.
        CHECK(s.put("k", "b", 15) == 20);
        CHECK(s.get("k", 16) == vrec{"b", 15, 20});
        // A value after it is the latest again.
        CHECK(s.put("k", "c", 30) == put_valid_to_undefined);
        CHECK(s.get("k") == vrec{"c", 30, std::nullopt});
        // delete returns the record valid at its timestamp.
        CHECK(s.remove("k", 25) == std::nullopt);  // the tombstone at 20 was valid at 25
        CHECK(s.remove("k", 40) == vrec{"c", 30, std::nullopt});
        CHECK_FALSE(s.get("k"));
        CHECK(s.get("k", 35) == vrec{"c", 30, 40});
        // A tombstone with nothing before it still bounds what is put before it.
        CHECK(s.erase("new", 50) == put_valid_to_undefined);
        CHECK(s.put("new", "x", 45) == 50);
        CHECK(s.get("new", 47) == vrec{"x", 45, 50});
        CHECK_FALSE(s.get("new"));
    }
}

TEST_CASE("versioned store: history retention") {
    for (bool persistent : {false, true}) {
        CAPTURE(persistent);
        opened o(persistent, 100ms);
        auto& s = *o.store;
        s.put("k", "a", 10);
        s.put("k", "b", 50);
        s.put("j", "old", 20);
        CHECK(s.put("k", "c", 200) == put_valid_to_undefined);  // stream time 200, history from 100
        // Older than stream time - retention: not put, counted.
        CHECK(s.put("k", "late", 99) == put_not_put);
        CHECK(s.erase("k", 99) == put_not_put);
        CHECK(s.remove("k", 99) == std::nullopt);
        CHECK(o.m.counter(metric::dropped_records) == 3);
        // At the edge it is still taken.
        CHECK(s.put("k", "edge", 100) == 200);
        CHECK(s.get("k", 150) == vrec{"edge", 100, 200});
        // Before the edge only the latest version answers, and only when it is old enough.
        CHECK_FALSE(s.get("k", 99));
        CHECK_FALSE(s.get("k", 60));
        CHECK(s.get("j", 99) == vrec{"old", 20, std::nullopt});
        CHECK_FALSE(s.get("j", 19));
        CHECK(s.get("j") == vrec{"old", 20, std::nullopt});
        CHECK(s.get("k") == vrec{"c", 200, std::nullopt});
        // A version still valid at the edge stays readable after later puts prune history.
        s.put("k", "d", 260);  // edge 160: "edge" (100..200) is still valid there
        CHECK(s.get("k", 170) == vrec{"edge", 100, 200});
        CHECK(s.get("k", 210) == vrec{"c", 200, 260});
        CHECK_FALSE(s.get("k", 159));
    }
}

TEST_CASE("versioned store: the versions valid in a time range (IQv2's MultiVersionedKeyQuery)") {
    using versions = std::vector<vrec>;
    for (bool persistent : {false, true}) {
        CAPTURE(persistent);
        opened o(persistent, 100ms);
        auto& s = *o.store;
        s.put("k", "a", 10);
        s.put("k", "b", 20);
        s.erase("k", 30);
        s.put("k", "d", 40);
        CHECK(s.versions("k", 0, 100) == versions{{"a", 10, 20}, {"b", 20, 30}, {"d", 40, std::nullopt}});
        CHECK(s.versions("k", 25, 35) == versions{{"b", 20, 30}});  // valid until the tombstone at 30
        CHECK(s.versions("k", 31, 39) == versions{});                // only the tombstone was
        CHECK(s.versions("k", 20, 20) == versions{{"b", 20, 30}});   // a's validity ends at 20
        CHECK(s.versions("k", 45, 50) == versions{{"d", 40, std::nullopt}});
        CHECK(s.versions("k", 0, 9) == versions{});
        CHECK(s.versions("none", 0, 100) == versions{});
        // Past the history retention (stream time 200, history from 100) only the latest answers.
        s.put("j", "old", 50);
        s.put("k", "e", 200);
        CHECK(s.versions("k", 0, 99) == versions{});
        CHECK(s.versions("k", 0, 300) == versions{{"d", 40, 200}, {"e", 200, std::nullopt}});
        CHECK(s.versions("j", 0, 99) == versions{{"old", 50, std::nullopt}});
    }
}

TEST_CASE("versioned store: the changelog has every put with its timestamp, and restores the history") {
    for (bool persistent : {false, true}) {
        CAPTURE(persistent);
        std::vector<test_support::logged_change> log;
        {
            opened o(persistent, 100ms);
            auto& s = *o.store;
            s.put("k", "a", 10);
            s.put("k", "b", 30);
            s.put("k", "x", 20);
            s.remove("k", 40);
            s.put("k", "c", 50);
            s.put("k", "late", 1000);
            s.put("k", "dropped", 5);  // logged too, as Kafka's
            log = o.ctx.changes;
            REQUIRE(log.size() == 7);
            CHECK(log[1].timestamp == 30);
            CHECK(log[2].key == "k");
            CHECK(log[2].value == str("x"));
            CHECK(log[2].timestamp == 20);
            CHECK(log[3].value == std::nullopt);
            CHECK(log[3].timestamp == 40);
            CHECK(log[6].timestamp == 5);
            CHECK(o.ctx.registered.size() == 1);
        }
        opened o(persistent, 2000ms, false);
        REQUIRE(o.ctx.registered.size() == 1);
        std::vector<restore_record> batch;
        for (const auto& c : log)
            batch.push_back({c.key, c.value ? std::optional<std::string_view>(*c.value) : std::nullopt, c.timestamp});
        o.ctx.registered[0].second(batch);
        auto& s = *o.store;
        CHECK(s.get("k") == vrec{"late", 1000, std::nullopt});
        CHECK(s.get("k", 25) == vrec{"x", 20, 30});
        CHECK_FALSE(s.get("k", 45));
        CHECK(s.get("k", 60) == vrec{"c", 50, 1000});
        CHECK(s.get("k", 6) == vrec{"dropped", 5, 10});
        CHECK(o.ctx.changes.empty());  // restoring logs nothing
    }
}

TEST_CASE("versioned store: RocksDB keeps the history across a reopen") {
    auto dir = test_support::fresh_temp_dir("versioned-reopen");
    {
        opened o(true, 100ms, true, dir);
        o.ctx.owns_dir = false;
        o.store->put("k", "a", 10);
        o.store->put("k", "b", 20);
    }
    opened o(true, 100ms, true, dir);
    CHECK(o.store->get("k") == vrec{"b", 20, std::nullopt});
    CHECK(o.store->get("k", 15) == vrec{"a", 10, 20});
}

TEST_CASE("versioned store: factories and changelog settings") {
    CHECK_THROWS_AS(stores::persistent_versioned_key_value_store("s", -1ms), std::invalid_argument);
    CHECK_THROWS_AS(stores::persistent_versioned_key_value_store("s", 10ms, 0ms), std::invalid_argument);
    CHECK(stores::persistent_versioned_key_value_store("s", 10min)->segment_interval() == 60'000);
    CHECK(stores::persistent_versioned_key_value_store("s", 30s)->segment_interval() == 10'000);
    CHECK(stores::persistent_versioned_key_value_store("s", 10s, 7ms)->segment_interval() == 7);
    auto b = stores::versioned_key_value_store_builder<str, str>(stores::in_memory_versioned_key_value_store("s", 1000ms));
    CHECK_FALSE(b.caching_enabled());
    // The lag is history retention + 1 day whatever windowstore.changelog.additional.retention.ms says.
    const auto changelog = kstreams::detail::changelog_topic_config(b.logging().topic_config, {}, 5);
    CHECK(changelog.at("cleanup.policy") == "compact");
    CHECK(changelog.at("min.compaction.lag.ms") == std::to_string(1000 + 86'400'000));
    // As Kafka's VersionedChangelogTopicConfig: topic.cleanup.policy over the kind's compact, the
    // computed lag over topic.min.compaction.lag.ms.
    const auto with_topic = kstreams::detail::changelog_topic_config(
        b.logging().topic_config, {{"cleanup.policy", "compact,delete"}, {"min.compaction.lag.ms", "7"}}, 5);
    CHECK(with_topic.at("cleanup.policy") == "compact,delete");
    CHECK(with_topic.at("min.compaction.lag.ms") == std::to_string(1000 + 86'400'000));
}

namespace {

topology versioned_table_topology(bool persistent) {
    streams_builder b;
    auto supplier = persistent ? stores::persistent_versioned_key_value_store("users", 50ms)
                               : stores::in_memory_versioned_key_value_store("users", 50ms);
    b.table<str, str>("users", materialized<>::as(supplier)).to_stream().to("out");
    return b.build();
}

}  // namespace

TEST_CASE("versioned table: the test driver's store, and a restore from the changelog rebuilds the history") {
    for (bool persistent : {false, true}) {
        CAPTURE(persistent);
        auto dir = test_support::fresh_temp_dir("versioned-driver");
        std::map<std::string, std::vector<test::produced_record>> logged;
        {
            topology t = versioned_table_topology(persistent);
            test::driver_config cfg;
            cfg.state_dir = dir / "first";
            test::topology_test_driver driver(t, cfg);
            auto in = driver.create_input_topic<str, str>("users");
            in.pipe_input("alice", "paris", 10);
            in.pipe_input("alice", "oslo", 30);
            in.pipe_input("alice", "rome", 20);  // out of order
            in.pipe_input("bob", "lima", 40);
            auto& s = driver.get_versioned_key_value_store<str, str>("users");
            CHECK(s.get("alice") == vrec{"oslo", 30, std::nullopt});
            CHECK(s.get("alice", 25) == vrec{"rome", 20, 30});
            CHECK(s.get("alice", 15) == vrec{"paris", 10, 20});
            CHECK(s.history_retention() == 50);
            auto wrong_kind = [&] { driver.get_timestamped_key_value_store<str, str>("users"); };
            CHECK_THROWS(wrong_kind());
            logged = driver.changelog_records();
            REQUIRE(logged["test-app-users-changelog"].size() == 4);
            CHECK(logged["test-app-users-changelog"][2].timestamp == 20);
        }
        {
            topology t = versioned_table_topology(persistent);
            test::driver_config cfg;
            cfg.state_dir = dir / "second";
            cfg.changelogs = logged;
            test::topology_test_driver driver(t, cfg);
            auto& s = driver.get_versioned_key_value_store<str, str>("users");
            CHECK(s.get("alice") == vrec{"oslo", 30, std::nullopt});
            CHECK(s.get("alice", 25) == vrec{"rome", 20, 30});
            CHECK(s.get("alice", 15) == vrec{"paris", 10, 20});
            CHECK(s.get("bob", 45) == vrec{"lima", 40, std::nullopt});
        }
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
}

TEST_CASE("stream-table join grace: only with a versioned table itself, as Kafka's") {
    streams_builder b;
    auto plain = b.table<str, str>("plain");
    auto versioned_users = b.table<str, str>("users", materialized<>::as(stores::in_memory_versioned_key_value_store("users", 50ms)));
    auto orders = b.stream<str, str>("orders");
    auto joiner = [](const str& o, const str& u) { return o + u; };
    CHECK_THROWS_WITH_AS(orders.join(plain, joiner, joined<>{}.with_grace_period(5ms)),
                         doctest::Contains("KTable must be versioned to use a grace period"), topology_error);
    CHECK_THROWS_AS(orders.join(versioned_users.map_values([](const str& v) { return v; }), joiner,
                                joined<>{}.with_grace_period(5ms)),
                    topology_error);
    CHECK_NOTHROW(orders.join(versioned_users, joiner, joined<>{}.with_grace_period(5ms)));
    CHECK_NOTHROW(orders.join(plain, joiner));
}

TEST_CASE("stream-table join grace: the buffer survives a restart through its changelog") {
    auto dir = test_support::fresh_temp_dir("versioned-grace");
    auto make = [] {
        streams_builder b;
        auto users = b.table<str, str>("users", materialized<>::as(stores::in_memory_versioned_key_value_store("users", 100ms)));
        b.stream<str, str>("orders")
            .join(users, [](const str& o, const str& u) { return o + "@" + u; }, joined<>::as("j").with_grace_period(10ms))
            .to("out");
        return b.build();
    };
    std::map<std::string, std::vector<test::produced_record>> logged;
    {
        topology t = make();
        test::driver_config cfg;
        cfg.state_dir = dir / "first";
        test::topology_test_driver driver(t, cfg);
        auto users = driver.create_input_topic<str, str>("users");
        auto orders = driver.create_input_topic<str, str>("orders");
        auto out = driver.create_output_topic<str, str>("out");
        users.pipe_input("alice", "paris", 10);
        orders.pipe_input("alice", "o1", 12);
        orders.pipe_input("alice", "o2", 15);
        users.pipe_input("alice", "oslo", 14);
        CHECK(out.is_empty());
        const auto names = driver.state_store_names();
        CHECK(std::find(names.begin(), names.end(), "j-Buffer") != names.end());
        logged = driver.changelog_records();
        CHECK(logged["test-app-j-Buffer-changelog"].size() == 2);
    }
    {
        topology t = make();
        test::driver_config cfg;
        cfg.state_dir = dir / "second";  // a fresh directory: the buffer comes back from its changelog
        cfg.changelogs = logged;
        test::topology_test_driver driver(t, cfg);
        auto orders = driver.create_input_topic<str, str>("orders");
        auto out = driver.create_output_topic<str, str>("out");
        orders.pipe_input("alice", "o3", 30);
        auto got = out.read_key_values_to_list();
        REQUIRE(got.size() == 2);
        CHECK(got[0].value == "o1@paris");
        CHECK(got[1].value == "o2@oslo");
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}
