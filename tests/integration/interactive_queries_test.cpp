// Interactive queries on the real broker with two instances of one app (in one process, each with
// its own state directory and application.server): each answers for its own partitions,
// query_metadata_for_key names the instance that holds the key (the one the producer's murmur2
// partitioning sent it to), every instance agrees on the metadata, and after one instance closes
// the other hosts every partition and answers for every key.
#include <doctest/doctest.h>

#include <thread>

#include <kstreams/dsl.hpp>
#include <kstreams/state/queryable_store.hpp>
#include <kstreams/streams.hpp>

#include "tests/integration/broker_fixture.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;
namespace qst = kstreams::queryable_store_types;

namespace {

topology counting(const str& in) {
    streams_builder b;
    b.stream<str, str>(in).group_by_key().count(materialized<>::as("counts"));
    return b.build();
}

template <class F>
bool eventually(F f, std::chrono::seconds limit = 60s) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
        try {
            if (f()) return true;
        } catch (const invalid_state_store_error&) {
        }
        std::this_thread::sleep_for(100ms);
    }
    return false;
}

std::size_t partitions_of(const std::vector<streams_metadata>& all) {
    std::size_t n = 0;
    for (const auto& md : all) n += md.topic_partitions.size();
    return n;
}

}  // namespace

TEST_CASE("interactive queries on the real broker: two instances, key metadata, and one left after the other closes") {
    const auto in = test::unique("iq-in");
    test::create_topics({{in, 4}});
    const auto app_id = test::unique("iq");
    const host_info host_a{"127.0.0.1", 7101}, host_b{"127.0.0.1", 7102};
    auto cfg_a = test::broker_config(app_id, test::temp_state_dir("iq-a"));
    cfg_a.application_server = host_a.to_string();
    auto cfg_b = test::broker_config(app_id, test::temp_state_dir("iq-b"));
    cfg_b.application_server = host_b.to_string();
    const auto kv = qst::key_value_store<str, std::int64_t>();

    kafka_streams a(counting(in), cfg_a);
    auto b = std::make_unique<kafka_streams>(counting(in), cfg_b);
    a.start();
    b->start();
    // Both in the group, two partitions each, and both see it so.
    REQUIRE(eventually([&] {
        if (a.state() != streams_state::running || b->state() != streams_state::running) return false;
        const auto seen_a = a.metadata_for_all_streams_clients(), seen_b = b->metadata_for_all_streams_clients();
        return seen_a.size() == 2 && partitions_of(seen_a) == 4 && seen_a == seen_b &&
               seen_a[0].topic_partitions.size() == 2;
    }));
    const auto all = a.metadata_for_all_streams_clients();
    CHECK(all[0].host == host_a);
    CHECK(all[1].host == host_b);
    CHECK(all[0].state_store_names == std::set<str>{"counts"});
    CHECK(a.streams_metadata_for_store("counts") == all);
    CHECK_THROWS_AS(a.streams_metadata_for_store("nope"), unknown_state_store_error);
    const auto threads = a.metadata_for_local_threads();
    REQUIRE(threads.size() == 1);
    CHECK(threads[0].active_tasks.size() == 2);

    constexpr int keys = 20;
    test::topic_writer writer(test::broker());
    for (int k = 0; k < keys; ++k)
        for (int i = 0; i <= k % 3; ++i) writer.send(in, "k" + std::to_string(k), str("v"), 1000 + i);
    writer.flush();

    auto store_a = a.store(store_query_parameters("counts", kv));
    auto store_b = b->store(store_query_parameters("counts", kv));
    REQUIRE(eventually([&] { return store_a.all().size() + store_b.all().size() == keys; }));
    CHECK_FALSE(store_a.all().empty());
    CHECK_FALSE(store_b.all().empty());
    for (int k = 0; k < keys; ++k) {
        const str key = "k" + std::to_string(k);
        const key_query_metadata md = a.query_metadata_for_key("counts", key);
        CHECK(md == b->query_metadata_for_key("counts", key));
        REQUIRE(md.available());
        const bool on_a = md.active_host == host_a;
        CHECK(md.active_host == (on_a ? host_a : host_b));
        auto& holder = on_a ? store_a : store_b;
        auto& other = on_a ? store_b : store_a;
        CHECK(holder.get(key) == k % 3 + 1);
        CHECK_FALSE(other.get(key).has_value());
        // The partition named is the holder's instance of the store for that key.
        kafka_streams& holder_app = on_a ? a : *b;
        CHECK(holder_app.store(store_query_parameters("counts", kv).with_partition(md.partition)).get(key) == k % 3 + 1);
        // A partitioner of one's own decides the partition instead of murmur2.
        const auto fixed = a.query_metadata_for_key("counts", key, [](const str&, std::int32_t) { return 3; });
        CHECK(fixed.partition == 3);
    }

    // B leaves: A takes its partitions, restores their counts and answers for every key.
    REQUIRE(b->close(30s));
    b.reset();
    REQUIRE(eventually([&] {
        const auto left = a.metadata_for_all_streams_clients();
        return a.state() == streams_state::running && left.size() == 1 && left[0].host == host_a &&
               left[0].topic_partitions.size() == 4 && store_a.all().size() == keys;
    }));
    for (int k = 0; k < keys; ++k) {
        const str key = "k" + std::to_string(k);
        CHECK(a.query_metadata_for_key("counts", key).active_host == host_a);
        CHECK(store_a.get(key) == k % 3 + 1);
    }
    REQUIRE(a.close(30s));
    CHECK_THROWS_AS(a.metadata_for_all_streams_clients(), invalid_state_store_error);
}
