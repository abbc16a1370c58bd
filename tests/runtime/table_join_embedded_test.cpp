// Stream-table and table-table joins in the Kafka runtime on the embedded cluster: the
// co-partitioning check at start, and joins running over several partitions.
#include <doctest/doctest.h>

#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include <unistd.h>

#include <kstreams/dsl.hpp>
#include <kstreams/embedded_cluster.hpp>
#include <kstreams/error.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

#include "tests/support/await_records.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {

streams_config table_join_config(const std::string& app, const std::string& bootstrap) {
    streams_config c;
    c.application_id = app;
    c.bootstrap_servers = bootstrap;
    c.commit_interval = 200ms;
    c.state_dir = std::filesystem::temp_directory_path() / ("kstreams-tj-test-" + std::to_string(::getpid()));
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
