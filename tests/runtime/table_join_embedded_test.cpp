// Stream-table and table-table joins in the Kafka runtime on the embedded cluster: the
// co-partitioning check at start, and joins running over several partitions.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>

#include <kstreams/dsl.hpp>
#include <kstreams/embedded_cluster.hpp>
#include <kstreams/error.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

#include "tests/support/await_records.hpp"
#include "tests/support/process_state_dir.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {

streams_config table_join_config(const std::string& app, const std::string& bootstrap) {
    streams_config c;
    c.application_id = app;
    c.bootstrap_servers = bootstrap;
    c.commit_interval = 200ms;
    c.state_dir = kstreams::test::process_state_dir("kstreams-tj-test");
    c.consumer["session.timeout.ms"] = "6000";
    c.kafka["log_level"] = "3";
    return c;
}

topology enrich_topology() {
    streams_builder b;
    auto users = b.table<str, str>("tj-users");
    b.stream<str, str>("tj-orders")
        .left_join(users, [](const str& o, const std::optional<str>& u) { return o + "@" + u.value_or("?"); })
        .to("tj-out");
    return b.build();
}

}  // namespace

TEST_CASE("a stream-table join of topics with different partition counts fails at start, naming both") {
    embedded_cluster cluster;
    cluster.create_topic("tj-orders", 3);
    cluster.create_topic("tj-users", 2);
    cluster.create_topic("tj-out", 1);
    const topology topo = enrich_topology();  // the app keeps a reference to it
    kafka_streams app(topo, table_join_config("tj-copartition", cluster.bootstrap_servers()));
    CHECK_THROWS_WITH_AS(app.start(), doctest::Contains("tj-orders (3 partitions) and tj-users (2 partitions) must be co-partitioned"),
                         streams_error);
}

TEST_CASE("a table-table join of topics with different partition counts fails at start") {
    embedded_cluster cluster;
    cluster.create_topic("tt-left", 2);
    cluster.create_topic("tt-right", 4);
    streams_builder b;
    b.table<str, str>("tt-left").join(b.table<str, str>("tt-right"), [](const str& l, const str& r) { return l + r; })
        .to_stream()
        .to("tt-out");
    const topology topo = b.build();
    kafka_streams app(topo, table_join_config("tt-copartition", cluster.bootstrap_servers()));
    CHECK_THROWS_WITH_AS(app.start(), doctest::Contains("must be co-partitioned"), streams_error);
}

KSTREAMS_CO_TEST_CASE("a stream-table join enriches each order from the table's partition of its key") {
    embedded_cluster cluster;
    cluster.create_topic("tj-orders", 3);
    cluster.create_topic("tj-users", 3);
    cluster.create_topic("tj-out", 1);
    const topology topo = enrich_topology();
    kafka_streams app(topo, table_join_config("tj-enrich", cluster.bootstrap_servers()));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    test::topic_writer writer(cluster.bootstrap_servers());
    for (const char* u : {"a", "b", "c", "d"}) writer.send("tj-users", str(u), "U" + str(u), 1'000);
    writer.flush();
    // A task may see an order before its partition of the table: the left join then says "?".
    // Such orders are sent again until every row of the table has been read.
    test::topic_reader reader(cluster.bootstrap_servers(), {"tj-out"});
    std::set<str> pending{"a", "b", "c", "d", "e"}, joined;
    for (int round = 0; round < 20 && !pending.empty(); ++round) {
        for (const str& u : pending) writer.send("tj-orders", u, "o" + u, 5'000);
        writer.flush();
        auto recs = co_await test::next_records(reader, pending.size(), 30s);
        for (const auto& r : recs) {
            const str line = *r.key + ":" + *r.value + "@" + std::to_string(r.timestamp);
            if (*r.key == "e" || r.value->find('?') == str::npos) {
                joined.insert(line);
                pending.erase(*r.key);
            }
        }
    }
    CHECK(joined == std::set<str>{"a:oa@Ua@5000", "b:ob@Ub@5000", "c:oc@Uc@5000", "d:od@Ud@5000", "e:oe@?@5000"});
    CHECK(app.close(30s));
}

KSTREAMS_CO_TEST_CASE("a foreign-key join over two partitions on each side, through its two internal topics") {
    embedded_cluster cluster;
    cluster.create_topic("fk-orders", 2);
    cluster.create_topic("fk-customers", 2);
    cluster.create_topic("fk-out", 1);
    streams_builder b;
    auto customers = b.table<str, str>("fk-customers");
    b.table<str, str>("fk-orders")
        .join(customers, [](const str& v) { return v.substr(0, v.find(':')); },
              [](const str& o, const str& c) { return o.substr(o.find(':') + 1) + "/" + c; }, table_joined<>::as("by-customer"))
        .to_stream()
        .to("fk-out");
    const topology topo = b.build();
    kafka_streams app(topo, table_join_config("fk-embedded", cluster.bootstrap_servers()));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    test::topic_writer writer(cluster.bootstrap_servers());
    for (int c = 1; c <= 4; ++c) writer.send("fk-customers", "c" + std::to_string(c), "name" + std::to_string(c), 1'000);
    writer.flush();
    for (int o = 1; o <= 8; ++o)
        writer.send("fk-orders", "o" + std::to_string(o), "c" + std::to_string((o - 1) % 4 + 1) + ":item" + std::to_string(o), 2'000);
    writer.flush();
    // Whichever of a subscription and its customer's row a task sees first, each order ends up
    // joined: by the subscription's answer or by the row's fan-out.
    test::topic_reader reader(cluster.bootstrap_servers(), {"fk-out"});
    std::map<str, str> latest;
    auto read_until = [&](auto done) -> test::task<void> {
        while (!done()) {
            auto recs = co_await test::next_records(reader, 1, 30s);
            for (const auto& r : recs) latest[*r.key] = r.value ? *r.value + "@" + std::to_string(r.timestamp) : "<null>";
        }
    };
    co_await read_until([&] { return latest.size() == 8; });
    CHECK(latest["o1"] == "item1/name1@2000");
    CHECK(latest["o6"] == "item6/name2@2000");
    // A customer's update fans out to both of its orders, wherever they live.
    writer.send("fk-customers", "c2", "renamed", 3'000);
    writer.flush();
    co_await read_until([&] { return latest["o2"] == "item2/renamed@3000" && latest["o6"] == "item6/renamed@3000"; });
    // An order moving to another customer unsubscribes from the old one.
    writer.send("fk-orders", "o2", "c3:item2", 4'000);
    writer.flush();
    co_await read_until([&] { return latest["o2"] == "item2/name3@4000"; });
    writer.send("fk-customers", "c2", "again", 5'000);
    writer.flush();
    co_await read_until([&] { return latest["o6"] == "item6/again@5000"; });
    CHECK(latest["o2"] == "item2/name3@4000");
    CHECK(app.close(30s));

    // The internal topics: subscriptions by customer, responses back to the orders' partitions;
    // both have the two partitions of the side they are co-partitioned with.
    test::topic_reader internal(cluster.bootstrap_servers(), {"fk-embedded-by-customer-subscription-registration-topic",
                                                               "fk-embedded-by-customer-subscription-response-topic"});
    std::map<str, std::set<std::int32_t>> partitions;
    for (const auto& r : internal.read_until_quiet(2s)) partitions[r.topic].insert(r.partition);
    CHECK(partitions["fk-embedded-by-customer-subscription-registration-topic"] == std::set<std::int32_t>{0, 1});
    CHECK(partitions["fk-embedded-by-customer-subscription-response-topic"] == std::set<std::int32_t>{0, 1});
}

KSTREAMS_CO_TEST_CASE("a foreign-key join of a re-keyed table: its response topic takes the repartition topic's count") {
    // The left table is read through a repartition topic (4 partitions, as its input) and the
    // right one has 2: the response topic, written by the right side, gets the left's 4 (Kafka's
    // co-partitioning of internal topics), not the 2 of the tasks that write it.
    embedded_cluster cluster;
    cluster.create_topic("fkr-orders", 4);
    cluster.create_topic("fkr-customers", 2);
    cluster.create_topic("fkr-out", 1);
    streams_builder b;
    auto customers = b.table<str, str>("fkr-customers");
    b.stream<str, str>("fkr-orders")
        .select_key([](const str& k, const str&) { return "order-" + k; })
        .to_table()
        .join(customers, [](const str& v) { return v.substr(0, v.find(':')); },
              [](const str& o, const str& c) { return o.substr(o.find(':') + 1) + "/" + c; }, table_joined<>::as("rk"))
        .to_stream()
        .to("fkr-out");
    const topology topo = b.build();
    kafka_streams app(topo, table_join_config("fkr-embedded", cluster.bootstrap_servers()));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    test::topic_writer writer(cluster.bootstrap_servers());
    writer.send("fkr-customers", str("c1"), str("Ann"), 1'000);
    writer.send("fkr-customers", str("c2"), str("Bo"), 1'000);
    writer.flush();
    for (int o = 1; o <= 6; ++o)
        writer.send("fkr-orders", std::to_string(o), "c" + std::to_string(o % 2 + 1) + ":i" + std::to_string(o), 2'000);
    writer.flush();
    test::topic_reader reader(cluster.bootstrap_servers(), {"fkr-out"});
    std::map<str, str> latest;
    while (latest.size() < 6)
        for (const auto& r : co_await test::next_records(reader, 1, 30s)) latest[*r.key] = *r.value;
    CHECK(latest["order-1"] == "i1/Bo");
    CHECK(latest["order-6"] == "i6/Ann");
    CHECK(app.close(30s));
    test::topic_reader internal(cluster.bootstrap_servers(), {"fkr-embedded-rk-subscription-response-topic"});
    std::set<std::int32_t> partitions;
    for (const auto& r : internal.read_until_quiet(2s)) partitions.insert(r.partition);
    CHECK(*partitions.rbegin() >= 2);  // partitions 2 and 3 exist: the topic has the left's 4
}
