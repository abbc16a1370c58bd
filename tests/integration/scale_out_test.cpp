// The same app as several processes on the real broker: partitions spread over them, a killed
// instance's tasks move (state restored from changelogs) and the results equal a single instance's.
// Also a clean restart with static membership: the tasks come back with their local state.
#include <doctest/doctest.h>

#include <sstream>
#include <thread>

#include "tests/integration/app_process.hpp"
#include "tests/integration/broker_fixture.hpp"
#include "tests/support/repartition_topologies.hpp"

using namespace kstreams;
using namespace std::chrono_literals;

namespace {

using test::instance;

void produce(test::topic_writer& w, const std::string& topic, int from, int to, std::map<std::string, std::int64_t>& expected) {
    for (int i = from; i < to; ++i) {
        const std::string customer = "c" + std::to_string(i % 12);
        w.send(topic, "order-" + std::to_string(i), customer + " " + std::to_string(i));
        expected[customer] += i;
    }
    w.flush();
}

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t pos = 0; (pos = text.find(what, pos)) != std::string::npos; pos += what.size()) ++n;
    return n;
}

/// The last "assigned N partitions, M tasks: <ids>" line's text after "assigned ", or empty.
std::string last_assignment(const std::string& log) {
    const auto pos = log.rfind(": assigned ");
    if (pos == std::string::npos) return {};
    const auto end = log.find('\n', pos);
    return log.substr(pos + 11, end == std::string::npos ? std::string::npos : end - pos - 11);
}

/// The keys whose latest sum differs from the expected one, for a failure message.
std::string differences(const std::map<std::string, std::int64_t>& expected, const std::map<std::string, std::int64_t>& latest) {
    std::ostringstream s;
    for (const auto& [k, v] : expected) {
        const auto it = latest.find(k);
        if (it == latest.end()) s << k << ": missing (expected " << v << ") ";
        else if (it->second != v) s << k << ": " << it->second << " (expected " << v << ") ";
    }
    for (const auto& [k, v] : latest)
        if (!expected.count(k)) s << k << ": unexpected " << v << " ";
    return s.str();
}

/// Why the results differ: the keys, and each instance's state and last log lines.
std::string diagnose(const std::map<std::string, std::int64_t>& expected, const std::map<std::string, std::int64_t>& latest,
                     std::initializer_list<std::pair<const char*, instance*>> instances) {
    std::ostringstream s;
    s << differences(expected, latest) << "\n";
    for (auto [name, i] : instances) s << "instance " << name << ": " << i->liveness() << "; its log ends:\n" << i->tail() << "\n";
    return s.str();
}

}  // namespace

TEST_CASE("scale out to 2 then 3 processes, kill one: its tasks move with their state, results as one instance") {
    const auto in = test::unique("so-in"), out = test::unique("so-out"), app_id = test::unique("scale");
    test::create_topics({{in, 6}, {out, 1}});
    const auto dir = test::temp_state_dir("scale");
    auto args = [&](int n) {
        return std::vector<std::string>{test::broker(), app_id, in, out, (dir / ("i" + std::to_string(n))).string()};
    };
    test::topic_writer writer(test::broker());
    test::topic_reader reader(test::broker(), {out});
    std::map<std::string, std::int64_t> expected, latest;

    instance a(args(1), dir / "a.log");
    instance b(args(2), dir / "b.log");
    produce(writer, in, 0, 300, expected);
    test::read_until_latest_equals(reader, expected, 90s, latest);
    REQUIRE_MESSAGE(latest == expected, diagnose(expected, latest, {{"a", &a}, {"b", &b}}));

    instance c(args(3), dir / "c.log");
    std::this_thread::sleep_for(8s);  // let the group rebalance onto three members
    produce(writer, in, 300, 600, expected);
    test::read_until_latest_equals(reader, expected, 90s, latest);
    REQUIRE_MESSAGE(latest == expected, diagnose(expected, latest, {{"a", &a}, {"b", &b}, {"c", &c}}));
    CHECK(a.had_partitions());
    CHECK(b.had_partitions());
    CHECK(c.had_partitions());

    std::this_thread::sleep_for(1s);  // everything processed is committed (commit.interval.ms=100)
    b.kill_hard();
    produce(writer, in, 600, 900, expected);
    test::read_until_latest_equals(reader, expected, 90s, latest);
    CHECK_MESSAGE(latest == expected, diagnose(expected, latest, {{"a", &a}, {"c", &c}}));
    const bool restored = a.output().find("restored ") != std::string::npos ||
                          c.output().find("restored ") != std::string::npos;
    CHECK_MESSAGE(restored, "a survivor should restore the killed instance's stores from their changelogs");
    CHECK(a.stop() == 0);
    CHECK(c.stop() == 0);
    std::filesystem::remove_all(dir);
}

TEST_CASE("static membership: after a clean stop the instance comes back with its tasks, the other member does not "
          "rebalance, and nothing is replayed") {
    const auto in = test::unique("sm-in"), out = test::unique("sm-out"), app_id = test::unique("static");
    test::create_topics({{in, 2}, {out, 1}});
    const auto dir = test::temp_state_dir("static");
    const auto dir_a = dir / "a", dir_b = dir / "b";
    std::filesystem::create_directories(dir_a);
    std::filesystem::create_directories(dir_b);
    const std::vector<std::string> args_a{test::broker(), app_id, in, out, dir_a.string(), "instance-a"};
    const std::vector<std::string> args_b{test::broker(), app_id, in, out, dir_b.string(), "instance-b"};
    test::topic_writer writer(test::broker());
    test::topic_reader reader(test::broker(), {out});
    std::map<std::string, std::int64_t> expected, latest;

    // B joins first and so leads the group: a restarted leader would make the broker rebalance
    // (librdkafka 2.0 predates KIP-814), a restarted follower must not.
    instance b(args_b, dir / "b.log");
    produce(writer, in, 0, 100, expected);
    test::read_until_latest_equals(reader, expected, 90s, latest);
    REQUIRE(latest == expected);
    std::string tasks_a;
    {
        instance a(args_a, dir / "a1.log");
        const auto deadline = std::chrono::steady_clock::now() + 90s;
        while (!a.had_partitions() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(200ms);
        REQUIRE_MESSAGE(a.had_partitions(), a.output());
        produce(writer, in, 100, 300, expected);
        test::read_until_latest_equals(reader, expected, 90s, latest);
        REQUIRE(latest == expected);
        tasks_a = last_assignment(a.output());
        REQUIRE(a.stop() == 0);
    }
    const std::size_t b_assignments = count_of(b.output(), ": assigned ");
    // Back within the session timeout (6 s): the broker hands it the same assignment.
    instance a(args_a, dir / "a2.log");
    produce(writer, in, 300, 500, expected);
    test::read_until_latest_equals(reader, expected, 90s, latest);
    CHECK(latest == expected);
    const std::string log = a.output();
    CHECK_MESSAGE(count_of(log, ": assigned ") == 1, log);
    CHECK_MESSAGE(last_assignment(log) == tasks_a, log);  // same partitions, same tasks
    CHECK_MESSAGE(log.find("restored ") == std::string::npos, "the local state was reused, nothing replayed:\n" << log);
    CHECK_MESSAGE(count_of(b.output(), ": assigned ") == b_assignments, "the other member rebalanced:\n" << b.output());
    CHECK(a.stop() == 0);
    CHECK_MESSAGE(a.output().find("records-restored=0") != std::string::npos, a.output());
    CHECK(b.stop() == 0);
    std::filesystem::remove_all(dir);
}
