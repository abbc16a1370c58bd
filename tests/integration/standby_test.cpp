// Standby replicas on the real broker: two instances of a count app with num.standby.replicas=1
// learn the placement from the group coordinator (DescribeConsumerGroups: the process id travels
// in the consumers' client.id), keep each other's task as a standby (read as a stale store, named
// in the metadata), and when one closes the other takes its task over restoring only what its
// standby lacked.
#include <doctest/doctest.h>

#include <kstreams/dsl.hpp>
#include <kstreams/state/queryable_store.hpp>
#include <kstreams/streams.hpp>

#include "tests/integration/broker_fixture.hpp"
#include "tests/support/eventually.hpp"
#include "tests/support/local_tasks.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using kstreams::test::active_partition;
using kstreams::test::eventually;
using str = std::string;
namespace qst = kstreams::queryable_store_types;

namespace {

topology counting(const str& in) {
    streams_builder b;
    b.stream<str, str>(in).group_by_key().count(materialized<>::as("counts"));
    return b.build();
}

/// Two instances, A's partition's task kept by B as a standby, then A closes. (Under exactly-once
/// the promoted task's restore sometimes finds the changelog's end at 0 and restores it all: not
/// tested here yet, see the branch's report.)
void standby_and_promotion(processing_guarantee guarantee, int port) {
    const auto in = test::unique("standby-in");
    test::create_topics({{in, 2}});
    const auto app_id = test::unique("standby");
    auto config = [&](const str& name, int server_port) {
        auto c = test::broker_config(app_id, test::temp_state_dir(name));
        c.guarantee = guarantee;
        c.num_standby_replicas = 1;
        c.application_server = "127.0.0.1:" + std::to_string(server_port);
        c.commit_interval = 100ms;
        c.statestore_cache_max_bytes = 0;  // every update in the changelog: a restore from scratch is long
        c.consumer["session.timeout.ms"] = "30000";  // closing leaves the group: no wait for it
        return c;
    };
    const auto cfg_a = config("standby-a", port);
    const auto cfg_b = config("standby-b", port + 1);
    auto a = std::make_unique<kafka_streams>(counting(in), cfg_a);
    kafka_streams b(counting(in), cfg_b);
    a->start();
    b.start();
    std::int32_t pa = -1, pb = -1;
    REQUIRE(eventually([&] {
        pa = active_partition(*a);
        pb = active_partition(b);
        return a->state() == streams_state::running && b.state() == streams_state::running && pa >= 0 && pb >= 0 &&
               pa != pb;
    }));

    std::vector<str> keys_a;
    for (int i = 0; keys_a.size() < 10; ++i)
        if (kafka_streams::default_partition("k" + std::to_string(i), 2) == pa) keys_a.push_back("k" + std::to_string(i));
    test::topic_writer writer(test::broker());
    for (int round = 0; round < 100; ++round)
        for (const auto& k : keys_a) writer.send(in, k, str("v"), 1000 + round);
    writer.flush();

    const auto kv = qst::key_value_store<str, std::int64_t>();
    auto active_a = a->store(store_query_parameters("counts", kv));
    REQUIRE(eventually([&] { return active_a.get(keys_a.back()) == 100; }));
    // B's standby of A's partition catches up; it is read only as a stale store.
    auto stale_b = b.store(store_query_parameters("counts", kv).enable_stale_stores().with_partition(pa));
    CHECK(eventually([&] {
        for (const auto& k : keys_a)
            if (stale_b.get(k) != 100) return false;
        return true;
    }));
    CHECK_FALSE(b.store(store_query_parameters("counts", kv)).get(keys_a[0]).has_value());
    // Both instances name the standby host of A's keys.
    const host_info host_b = host_info::parse(cfg_b.application_server);
    CHECK(eventually([&] {
        const auto md = a->query_metadata_for_key("counts", keys_a[0]);
        return md.active_host == host_info::parse(cfg_a.application_server) &&
               md.standby_hosts == std::set<host_info>{host_b};
    }));
    CHECK(eventually([&] {
        for (const auto& md : b.metadata_for_all_streams_clients())
            if (md.host == host_b) return md.standby_topic_partitions == std::set<topic_partition_info>{{in, pa}};
        return false;
    }));

    for (const auto& k : keys_a) writer.send(in, k, str("v"), 5000);
    writer.flush();
    REQUIRE(eventually([&] { return active_a.get(keys_a.back()) == 101; }));
    CHECK(a->all_local_store_partition_lags().at("counts").at(pa).end_offset_position >= 1000);
    const std::uint64_t restored_before = b.metrics().value("records-restored");
    const auto closing = std::chrono::steady_clock::now();
    REQUIRE(a->close(30s));  // leaves the group
    a.reset();
    auto all_b = b.store(store_query_parameters("counts", kv));
    REQUIRE(eventually([&] {
        if (b.state() != streams_state::running || b.metadata_for_local_threads()[0].active_tasks.size() != 2)
            return false;
        for (const auto& k : keys_a)
            if (all_b.get(k) != 101) return false;
        return true;
    }));
    MESSAGE("took over in " << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - closing).count()
                            << " ms");
    CHECK(b.metrics().value("standby-tasks-promoted") == 1);
    const std::uint64_t restored = b.metrics().value("records-restored") - restored_before;
    MESSAGE("records restored on promotion: " << restored << " (the changelog holds over 1000)");
    CHECK(restored <= 20);
    REQUIRE(b.close(30s));
}

}  // namespace

TEST_CASE("standby replicas on the real broker: stale reads, metadata, promotion with the delta restored") {
    standby_and_promotion(processing_guarantee::at_least_once, 7501);
}
