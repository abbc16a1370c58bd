// End-to-end on a real single-node Apache Kafka broker: word count, a re-keying aggregation
// (repartition topic in the path), a table aggregation with adder and subtractor and a windowed
// stream-stream join.
#include <doctest/doctest.h>

#include <set>
#include <sstream>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/coroutine_test.hpp>

#include "tests/integration/broker_fixture.hpp"
#include "tests/support/await_records.hpp"
#include "tests/support/repartition_topologies.hpp"
#include "tests/support/word_count_topology.hpp"

using namespace kstreams;
using namespace std::chrono_literals;

KSTREAMS_CO_TEST_CASE("word count on the real broker") {
    const auto in = test::unique("wc-in"), out = test::unique("wc-out");
    test::create_topics({{in, 2}, {out, 2}});
    auto topo = test::word_count_topology(in, out);
    kafka_streams app(topo, test::broker_config(test::unique("wc"), test::temp_state_dir("wc")));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));

    test::topic_writer writer(test::broker());
    for (const char* line : {"all streams lead to kafka", "hello kafka streams", "join kafka summit"})
        writer.send(in, std::string(line), std::string(line));
    writer.flush();

    test::topic_reader reader(test::broker(), {out});
    auto recs = co_await test::next_records(reader, 11, 60s);
    std::map<std::string, std::int64_t> counts;
    for (const auto& r : recs) counts[*r.key] = std::max(counts[*r.key], r.value_as<std::int64_t>());
    CHECK(counts == std::map<std::string, std::int64_t>{{"all", 1}, {"hello", 1}, {"join", 1}, {"kafka", 3},
                                                        {"lead", 1}, {"streams", 2}, {"summit", 1}, {"to", 1}});
    // The sink partitions by murmur2 of the key, as the Java producer: one word, one partition.
    std::map<std::string, std::set<std::int32_t>> partitions;
    for (const auto& r : recs) partitions[*r.key].insert(r.partition);
    for (const auto& [word, parts] : partitions) CHECK_MESSAGE(parts.size() == 1, word);
    CHECK(app.close(60s));
    CHECK(app.state() == streams_state::not_running);
}

TEST_CASE("a re-keying aggregation goes through a repartition topic the app creates") {
    const auto in = test::unique("purchases"), out = test::unique("totals");
    const auto app_id = test::unique("rekey");
    test::create_topics({{in, 3}, {out, 1}});
    auto topo = test::rekey_sum_topology(in, out);
    kafka_streams app(topo, test::broker_config(app_id, test::temp_state_dir("rekey")));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));

    test::topic_writer writer(test::broker());
    std::map<std::string, std::int64_t> expected;
    const char* customers[] = {"alice", "bob", "carol", "dave", "erin"};
    for (int i = 0; i < 100; ++i) {
        const std::string c = customers[i % 5];
        writer.send(in, "order-" + std::to_string(i), c + " " + std::to_string(i));
        expected[c] += i;
    }
    writer.flush();

    test::topic_reader reader(test::broker(), {out});
    std::map<std::string, std::int64_t> latest;
    test::read_until_latest_equals(reader, expected, 60s, latest);
    CHECK(latest == expected);

    // The repartition topic exists with the upstream's partition count.
    kafka::topic_admin admin({{"bootstrap.servers", test::broker()}, {"log_level", "3"}}, 10s, nullptr);
    CHECK(admin.partition_count(app_id + "-sums-repartition") == 3);
    CHECK(admin.partition_count(app_id + "-sums-changelog") == 3);
    CHECK(app.close(60s));
}

TEST_CASE("a table aggregation with adder and subtractor moves counts between regions") {
    const auto in = test::unique("users"), out = test::unique("region-counts");
    test::create_topics({{in, 2}, {out, 1}});
    auto topo = test::region_count_topology(in, out);
    kafka_streams app(topo, test::broker_config(test::unique("regions"), test::temp_state_dir("regions")));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));

    test::topic_writer writer(test::broker());
    writer.send(in, std::string("u1"), std::string("eu"));
    writer.send(in, std::string("u2"), std::string("eu"));
    writer.send(in, std::string("u3"), std::string("us"));
    writer.send(in, std::string("u1"), std::string("us"));  // eu -1, us +1
    writer.send(in, std::string("u2"), std::nullopt);      // delete: eu -1
    writer.send(in, std::string("u4"), std::string("apac"));
    writer.flush();

    test::topic_reader reader(test::broker(), {out});
    std::map<std::string, std::int64_t> latest;
    const std::map<std::string, std::int64_t> expected{{"apac", 1}, {"eu", 0}, {"us", 2}};
    test::read_until_latest_equals(reader, expected, 60s, latest);
    CHECK(latest == expected);
    CHECK(app.close(60s));
}

TEST_CASE("a missing source topic on the real broker is a clear error (ERROR after start(), as Kafka's)") {
    auto topo = test::word_count_topology(test::unique("absent"), test::unique("out"));
    kafka_streams app(topo, test::broker_config(test::unique("absent"), test::temp_state_dir("absent")));
    const auto error = test::start_error(app);
    CHECK_MESSAGE(error.find("is missing on the cluster") != std::string::npos, error);
    CHECK(app.state() == streams_state::error);
}

TEST_CASE("DSL: word count through group_by's repartition topic on the real broker") {
    const auto in = test::unique("dsl-wc-in"), out = test::unique("dsl-wc-out");
    test::create_topics({{in, 2}, {out, 2}});
    streams_builder builder;
    builder.stream<std::string, std::string>(in)
        .flat_map_values([](const std::string& line) {
            std::vector<std::string> words;
            std::istringstream s(line);
            for (std::string w; s >> w;) words.push_back(w);
            return words;
        })
        .group_by([](const std::string&, const std::string& w) { return w; })
        .count()
        .to_stream()
        .to(out);
    const topology topo = builder.build();
    kafka_streams app(topo, test::broker_config(test::unique("dsl-wc"), test::temp_state_dir("dsl-wc")));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));
    test::topic_writer writer(test::broker());
    for (const char* line : {"all streams lead to kafka", "hello kafka streams", "join kafka summit"})
        writer.send(in, std::string(line), std::string(line));
    writer.flush();
    test::topic_reader reader(test::broker(), {out});
    std::map<std::string, std::int64_t> latest;
    const std::map<std::string, std::int64_t> expected{{"all", 1},  {"hello", 1},   {"join", 1},   {"kafka", 3},
                                                       {"lead", 1}, {"streams", 2}, {"summit", 1}, {"to", 1}};
    test::read_until_latest_equals(reader, expected, 60s, latest);
    CHECK(latest == expected);
    CHECK(app.close(60s));
}

KSTREAMS_CO_TEST_CASE("DSL: a windowed stream-stream join of two co-partitioned topics on the real broker") {
    const auto left = test::unique("join-left"), right = test::unique("join-right"), out = test::unique("join-out");
    test::create_topics({{left, 2}, {right, 2}, {out, 1}});
    streams_builder builder;
    auto l = builder.stream<std::string, std::string>(left);
    auto r = builder.stream<std::string, std::string>(right);
    l.join(r, [](const std::string& a, const std::string& b) { return a + "+" + b; },
           join_windows::of_time_difference_with_no_grace(10s))
        .to(out);
    const topology topo = builder.build();
    kafka_streams app(topo, test::broker_config(test::unique("join"), test::temp_state_dir("join")));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));
    test::topic_writer writer(test::broker());
    const std::int64_t t0 = 1'700'000'000'000;
    writer.send(left, std::string("k1"), std::string("A"), t0);
    writer.send(left, std::string("k2"), std::string("B"), t0);
    writer.send(right, std::string("k1"), std::string("x"), t0 + 5'000);   // joins A
    writer.send(right, std::string("k2"), std::string("y"), t0 + 11'000);  // 11 s after B: no join
    writer.send(right, std::string("k3"), std::string("z"), t0);           // no partner
    writer.send(left, std::string("k2"), std::string("C"), t0 + 12'000);   // joins y
    writer.flush();
    test::topic_reader reader(test::broker(), {out});
    auto recs = co_await test::next_records(reader, 2, 60s);
    std::set<std::string> joined;
    for (const auto& rec : recs) joined.insert(*rec.key + ":" + *rec.value + "@" + std::to_string(rec.timestamp - t0));
    CHECK(joined == std::set<std::string>{"k1:A+x@5000", "k2:C+y@12000"});
    CHECK(app.close(60s));
}

TEST_CASE("DSL: a table aggregation with adder and subtractor on the real broker") {
    const auto in = test::unique("dsl-users"), out = test::unique("dsl-region-counts");
    test::create_topics({{in, 2}, {out, 1}});
    streams_builder builder;
    builder.table<std::string, std::string>(in)
        .group_by([](const std::string& user, const std::string& region) { return std::pair{region, user}; })
        .aggregate([] { return std::int64_t{0}; },
                   [](const std::string&, const std::string&, std::int64_t n) { return n + 1; },
                   [](const std::string&, const std::string&, std::int64_t n) { return n - 1; })
        .to_stream()
        .to(out);
    const topology topo = builder.build();
    // The record cache is on (the default): updates of a key within one commit interval are
    // coalesced, so "eu" is only seen at 2 and then 0 if the moves come after a commit.
    kafka_streams app(topo, test::broker_config(test::unique("dsl-regions"), test::temp_state_dir("dsl-regions")));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));
    test::topic_writer writer(test::broker());
    writer.send(in, std::string("u1"), std::string("eu"));
    writer.send(in, std::string("u2"), std::string("eu"));
    writer.send(in, std::string("u3"), std::string("us"));
    writer.flush();
    test::topic_reader reader(test::broker(), {out});
    std::map<std::string, std::int64_t> latest;
    test::read_until_latest_equals(reader, std::map<std::string, std::int64_t>{{"eu", 2}, {"us", 1}}, 60s, latest);
    REQUIRE(latest == std::map<std::string, std::int64_t>{{"eu", 2}, {"us", 1}});
    writer.send(in, std::string("u1"), std::string("us"));  // eu -1, us +1
    writer.send(in, std::string("u2"), std::nullopt);      // delete: eu -1
    writer.send(in, std::string("u4"), std::string("apac"));
    writer.flush();
    const std::map<std::string, std::int64_t> expected{{"apac", 1}, {"eu", 0}, {"us", 2}};
    test::read_until_latest_equals(reader, expected, 60s, latest);
    CHECK(latest == expected);
    // Nothing else follows (no late or doubled update from a cache flush).
    for (auto& r : reader.read_until_quiet(1s)) latest[r.key_as<std::string>()] = r.value_as<std::int64_t>();
    CHECK(latest == expected);
    CHECK(app.close(60s));
}
