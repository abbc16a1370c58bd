// Co-partitioning on the real broker: joins of topics with different partition counts fail at
// start naming the topics and their counts; a re-keyed side's repartition topic is created with the
// other side's count, so the join finds every key's partner.
#include <doctest/doctest.h>

#include <optional>
#include <thread>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/streams.hpp>

#include "tests/integration/broker_fixture.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {

/// The app's repartition topics and their partition counts.
std::map<std::string, std::int32_t> repartition_topics(const std::string& app_id) {
    kafka::topic_admin admin({{"bootstrap.servers", test::broker()}, {"log_level", "3"}}, 30s, nullptr);
    std::map<std::string, std::int32_t> found;
    for (const auto& [topic, count] : admin.partition_counts(true))
        if (topic.starts_with(app_id + "-") && topic.ends_with("-repartition")) found[topic] = count;
    return found;
}

}  // namespace

TEST_CASE("a stream-table join of topics with 3 and 2 partitions fails at start, naming both and their counts") {
    const auto orders = test::unique("cp-orders"), users = test::unique("cp-users"), out = test::unique("cp-out");
    test::create_topics({{orders, 3}, {users, 2}, {out, 1}});
    streams_builder b;
    auto table = b.table<str, str>(users);
    b.stream<str, str>(orders)
        .join(table, [](const str& o, const str& u) { return o + "@" + u; })
        .to(out);
    const topology topo = b.build();
    kafka_streams app(topo, test::broker_config(test::unique("cp-st"), test::temp_state_dir("cp-st")));
    const auto error = test::start_error(app);
    CHECK_MESSAGE(error.find(orders + " (3 partitions) and " + users + " (2 partitions) must be co-partitioned") !=
                      std::string::npos,
                  error);
    CHECK(app.state() == streams_state::error);
}

TEST_CASE("a stream-stream join of topics with 2 and 4 partitions fails at start") {
    const auto left = test::unique("cp-left"), right = test::unique("cp-right"), out = test::unique("cp-out");
    test::create_topics({{left, 2}, {right, 4}, {out, 1}});
    streams_builder b;
    b.stream<str, str>(left)
        .join(b.stream<str, str>(right), [](const str& l, const str& r) { return l + r; },
              join_windows::of_time_difference_with_no_grace(10s))
        .to(out);
    const topology topo = b.build();
    kafka_streams app(topo, test::broker_config(test::unique("cp-ss"), test::temp_state_dir("cp-ss")));
    const auto error = test::start_error(app);
    CHECK_MESSAGE(error.find("must be co-partitioned") != std::string::npos, error);
    CHECK(app.state() == streams_state::error);
}

TEST_CASE("a re-keyed stream joined with a 3-partition table goes through a 3-partition repartition topic") {
    const auto clicks = test::unique("cp-clicks"), users = test::unique("cp-users"), out = test::unique("cp-out");
    const auto app_id = test::unique("cp-rekey");
    test::create_topics({{clicks, 1}, {users, 3}, {out, 1}});
    streams_builder b;
    auto table = b.table<str, str>(users);
    // Click values are "<user> <page>": re-keyed by user before the join.
    b.stream<str, str>(clicks)
        .select_key([](const str&, const str& v) { return v.substr(0, v.find(' ')); })
        .left_join(table, [](const str& click, const std::optional<str>& user) { return click + "|" + user.value_or("?"); })
        .to(out);
    const topology topo = b.build();
    kafka_streams app(topo, test::broker_config(app_id, test::temp_state_dir("cp-rekey")));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));
    const auto repartitions = repartition_topics(app_id);
    REQUIRE(repartitions.size() == 1);
    CHECK(repartitions.begin()->second == 3);

    test::topic_writer writer(test::broker());
    std::map<str, str> expected;
    for (int u = 0; u < 12; ++u) writer.send(users, "u" + std::to_string(u), "name" + std::to_string(u));
    writer.flush();
    std::this_thread::sleep_for(2s);  // the table rows are in before the clicks that look them up
    for (int u = 0; u < 12; ++u) {
        const str click = "u" + std::to_string(u) + " /page" + std::to_string(u);
        writer.send(clicks, "c" + std::to_string(u), click);
        expected["u" + std::to_string(u)] = click + "|name" + std::to_string(u);
    }
    writer.flush();
    test::topic_reader reader(test::broker(), {out});
    std::map<str, str> latest;
    test::read_until_latest_equals(reader, expected, 60s, latest);
    CHECK(latest == expected);
    CHECK(app.close(60s));
}
