// Standby replicas (num.standby.replicas) on the embedded cluster: two instances of a count app,
// each active for one partition and keeping a standby of the other's. The standby's store follows
// the changelog (read as a stale store, never without stale stores), metadata names the standby
// hosts, partitions and tasks, and when the active instance stops the other takes its task over
// restoring only what its standby lacked.
#include <doctest/doctest.h>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/embedded_cluster.hpp>
#include <kstreams/serde.hpp>
#include <kstreams/state/queryable_store.hpp>
#include <kstreams/state/state_query.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/streams_metadata.hpp>
#include <kstreams/test/topic_client.hpp>
#include "tests/support/eventually.hpp"
#include "tests/support/local_tasks.hpp"
#include "tests/support/process_state_dir.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using kstreams::test::active_partition;
using kstreams::test::eventually;
namespace qst = kstreams::queryable_store_types;

namespace {
using str = std::string;

streams_config standby_config(const str& bootstrap, const str& instance, int port) {
    streams_config c;
    c.application_id = "sb-app";
    c.bootstrap_servers = bootstrap;
    c.state_dir = kstreams::test::process_state_dir("kstreams-rt-standby") / instance;
    c.application_server = "127.0.0.1:" + std::to_string(port);
    c.num_standby_replicas = 1;
    c.commit_interval = 100ms;
    c.statestore_cache_max_bytes = 0;  // every update in the changelog: a restore from scratch is long
    c.consumer["session.timeout.ms"] = "6000";
    c.kafka["log_level"] = "3";
    return c;
}

topology counting() {
    streams_builder b;
    b.stream<str, str>("sb-in").group_by_key().count(materialized<>::as("sb-counts"));
    return b.build();
}

}  // namespace

TEST_CASE("standby replicas: kept up to date from the changelog, queryable as stale stores, promoted with only the delta restored") {
    embedded_cluster cluster;
    cluster.create_topic("sb-in", 2);
    const auto cfg_a = standby_config(cluster.bootstrap_servers(), "a", 7401);
    const auto cfg_b = standby_config(cluster.bootstrap_servers(), "b", 7402);
    auto a = std::make_unique<kafka_streams>(counting(), cfg_a);
    kafka_streams b(counting(), cfg_b);
    a->start();
    REQUIRE(a->wait_until(streams_state::running, 60s));
    b.start();
    // Each instance active for one partition.
    std::int32_t pa = -1, pb = -1;
    REQUIRE(eventually([&] {
        pa = active_partition(*a);
        pb = active_partition(b);
        return a->state() == streams_state::running && b.state() == streams_state::running && pa >= 0 && pb >= 0 &&
               pa != pb;
    }));

    // 1000 records per partition over 10 keys each (keys placed by Kafka's default partitioner).
    std::vector<str> keys_a, keys_b;
    for (int i = 0; keys_a.size() < 10 || keys_b.size() < 10; ++i) {
        const str key = "k" + std::to_string(i);
        auto& keys = kafka_streams::default_partition(key, 2) == pa ? keys_a : keys_b;
        if (keys.size() < 10) keys.push_back(key);
    }
    test::topic_writer writer(cluster.bootstrap_servers());
    for (int round = 0; round < 100; ++round)
        for (int k = 0; k < 10; ++k) {
            writer.send("sb-in", keys_a[k], str("v"), 1000 + round);
            writer.send("sb-in", keys_b[k], str("v"), 1000 + round);
        }
    writer.flush();

    const auto kv = qst::key_value_store<str, std::int64_t>();
    auto active_a = a->store(store_query_parameters("sb-counts", kv));
    REQUIRE(eventually([&] {
        for (const auto& k : keys_a)
            if (active_a.get(k) != 100) return false;
        return true;
    }));

    // B's standby of A's partition reaches A's values: read as a stale store of that partition.
    auto stale_b = b.store(store_query_parameters("sb-counts", kv).enable_stale_stores().with_partition(pa));
    CHECK(eventually([&] {
        for (const auto& k : keys_a)
            if (stale_b.get(k) != 100) return false;
        return true;
    }));
    // Without stale stores the standby is not read: B answers only for its own partition.
    auto fresh_b = b.store(store_query_parameters("sb-counts", kv));
    REQUIRE(eventually([&] { return fresh_b.get(keys_b[0]) == 100; }));
    CHECK_FALSE(fresh_b.get(keys_a[0]).has_value());
    CHECK_THROWS_AS(b.store(store_query_parameters("sb-counts", kv).with_partition(pa)).get(keys_a[0]),
                    invalid_state_store_error);
    // IQv2: the standby answers unless an active task is required.
    const auto q = in_store("sb-counts").with_query(key_query<str, std::int64_t>::with_key(keys_a[0])).partitions({pa});
    const auto from_standby = b.query(q);
    REQUIRE(from_standby.partition_results().count(pa) == 1);
    CHECK(from_standby.partition_results().at(pa).is_success());
    CHECK(from_standby.partition_results().at(pa).result() == std::optional<std::int64_t>(100));
    CHECK(b.query(q.require_active()).partition_results().at(pa).get_failure_reason() == failure_reason::not_active);

    // Metadata: each instance is the other's standby.
    const host_info host_a = host_info::parse(cfg_a.application_server);
    const host_info host_b = host_info::parse(cfg_b.application_server);
    REQUIRE(eventually([&] {
        const auto all = b.metadata_for_all_streams_clients();
        return all.size() == 2 && all[0].standby_topic_partitions.size() == 1 &&
               all[1].standby_topic_partitions.size() == 1;
    }));
    for (const auto& md : b.metadata_for_all_streams_clients()) {
        const std::int32_t standby_partition = md.host == host_a ? pb : pa;
        CHECK(md.standby_topic_partitions == std::set<topic_partition_info>{{"sb-in", standby_partition}});
        CHECK(md.standby_state_store_names == std::set<str>{"sb-counts"});
    }
    const auto key_md = a->query_metadata_for_key("sb-counts", keys_a[0]);
    CHECK(key_md.active_host == host_a);
    CHECK(key_md.standby_hosts == std::set<host_info>{host_b});
    CHECK(key_md.partition == pa);
    REQUIRE(eventually([&] {
        const auto threads = b.metadata_for_local_threads();
        return threads.size() == 1 && threads[0].standby_tasks.size() == 1;
    }));
    const auto standby_task = b.metadata_for_local_threads()[0].standby_tasks[0];
    CHECK(standby_task.id == task_id{0, pa});
    CHECK(standby_task.topic_partitions == std::set<topic_partition_info>{{"sb-in", pa}});
    // The standby's store lags its changelog by nothing once caught up.
    CHECK(eventually([&] {
        const auto lags = b.all_local_store_partition_lags();
        return lags.count("sb-counts") && lags.at("sb-counts").count(pa) &&
               lags.at("sb-counts").at(pa).offset_lag == 0 && lags.at("sb-counts").at(pa).current_offset_position > 0;
    }));
    // The changelog holds every update: a task restored without a standby would read 1000 records.
    CHECK(b.all_local_store_partition_lags().at("sb-counts").at(pa).end_offset_position >= 1000);
    CHECK(b.metrics().value("standby-records-updated") > 0);
    // The same as Kafka's state updater metrics (KIP-869): one standby updating, its records.
    {
        double updating = -1, updated = -1;
        for (const auto& m : b.metric_samples()) {
            if (m.group == "stream-state-updater-metrics" && m.name == "standby-updating-tasks") updating = m.value;
            if (m.group == "stream-task-metrics" && m.name == "update-total" &&
                m.tag("task-id") == task_id{0, pa}.to_string() && m.tag("thread-id").ends_with("-StateUpdater-1"))
                updated = m.value;
        }
        CHECK(updating == 1);
        CHECK(updated > 0);
    }

    // A few more records for A's partition, then A stops: B takes the task over from its standby.
    for (int k = 0; k < 10; ++k) writer.send("sb-in", keys_a[k], str("v"), 5000);
    writer.flush();
    REQUIRE(eventually([&] { return active_a.get(keys_a[9]) == 101; }));
    const std::uint64_t restored_before = b.metrics().value("records-restored");
    REQUIRE(a->close(30s));
    a.reset();
    auto all_b = b.store(store_query_parameters("sb-counts", kv));
    REQUIRE(eventually([&] {
        if (active_partition(b) != -1 || b.state() != streams_state::running) return false;  // both tasks now
        for (const auto& k : keys_a)
            if (all_b.get(k) != 101) return false;
        return true;
    }));
    CHECK(b.metadata_for_local_threads()[0].active_tasks.size() == 2);
    CHECK(b.metrics().value("standby-tasks-promoted") == 1);
    // The changelog of A's partition holds over 1000 records; B restored at most the last ones.
    const std::uint64_t restored = b.metrics().value("records-restored") - restored_before;
    MESSAGE("records restored on promotion: " << restored);
    CHECK(restored <= 20);
    REQUIRE(b.close(30s));
    b.clean_up();
    kafka_streams cleaner(counting(), cfg_a);
    cleaner.clean_up();
}

TEST_CASE("standby replicas: num.standby.replicas is read from the properties and must not be negative") {
    CHECK(streams_config::from_properties({{"application.id", "x"}, {"num.standby.replicas", "2"}}).num_standby_replicas == 2);
    streams_config c;
    c.application_id = "x";
    c.num_standby_replicas = -1;
    CHECK_THROWS_AS(kafka_streams(counting(), c), std::invalid_argument);
}
