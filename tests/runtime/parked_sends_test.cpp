// Sends parked while an exactly-once transaction commits (lib/kafka/kafka_collector.hpp): a task's
// producer front keeps them in order and sends them before its next send once the commit returned;
// after a failed commit they are dropped and the front's sends fail. On the embedded cluster, with
// a producer that is not transactional (parking does not depend on it).
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <kstreams/embedded_cluster.hpp>
#include <kstreams/error.hpp>
#include <kstreams/test/topic_client.hpp>

#include "lib/kafka/kafka_collector.hpp"
#include "lib/runtime/ports.hpp"

using namespace kstreams;
using namespace std::chrono_literals;

namespace {

struct parking_fixture {
    embedded_cluster cluster;
    kstreams::metrics thread_metrics, task_metrics;
    std::optional<kafka::kafka_collector> collector;

    parking_fixture() {
        cluster.create_topic("parked-out", 1);
        collector.emplace(std::map<std::string, std::string>{{"bootstrap.servers", cluster.bootstrap_servers()}},
                          production_error_policy::fail, thread_metrics,
                          std::map<std::string, std::int32_t, std::less<>>{{"parked-out", 1}},
                          std::set<std::string, std::less<>>{});
    }
    void send(kafka::kafka_task_collector& front, const std::string& value) {
        front.send("parked-out", 0, std::string_view("k"), std::string_view(value), 1000, {}, "sink");
    }
    std::uint64_t produced() { return task_metrics.counter(metric::records_produced); }
    std::vector<std::string> read(std::size_t n) {
        collector->flush(10s);
        test::topic_reader reader(cluster.bootstrap_servers(), {"parked-out"});
        std::vector<std::string> out;
        for (const auto& r : reader.read(n, 10s)) out.push_back(r.value_as<std::string>());
        CHECK(reader.read_until_quiet(300ms).empty());
        return out;
    }
};

}  // namespace

TEST_CASE("parked sends: held while the commit runs, then sent in order before the front's next send") {
    parking_fixture f;
    kafka::kafka_task_collector front(*f.collector, f.task_metrics);
    f.send(front, "before");
    f.collector->park_sends();
    f.send(front, "parked-1");
    f.send(front, "parked-2");
    CHECK(f.produced() == 1);  // nothing parked reached the producer
    f.collector->unpark_sends();
    f.send(front, "after");
    CHECK(f.produced() == 4);
    CHECK(f.read(4) == std::vector<std::string>{"before", "parked-1", "parked-2", "after"});
}

TEST_CASE("parked sends: a front that sends nothing after the commit is emptied by send_parked") {
    parking_fixture f;
    kafka::kafka_task_collector front(*f.collector, f.task_metrics);
    f.collector->park_sends();
    f.send(front, "parked");
    f.collector->unpark_sends();
    f.collector->send_parked();
    CHECK(f.produced() == 1);
    CHECK(f.read(1) == std::vector<std::string>{"parked"});
}

TEST_CASE("parked sends: after a failed commit they are dropped and the front's sends fail naming it") {
    parking_fixture f;
    kafka::kafka_task_collector front(*f.collector, f.task_metrics);
    f.collector->park_sends();
    f.send(front, "parked");
    f.collector->unpark_sends("the producer is fenced");
    CHECK_THROWS_AS(f.send(front, "after"), detail::task_migrated_error);
    std::string message;
    try {
        f.send(front, "again");
    } catch (const detail::task_migrated_error& e) {
        message = e.what();
    }
    CHECK(message.find("the producer is fenced") != std::string::npos);
    f.collector->send_parked();
    CHECK(f.produced() == 0);
}

TEST_CASE("parked sends: the loop's send_parked racing the task's own sends sends each parked record once, first") {
    // An async processor's send comes outside the task's turns, on another thread than the loop's
    // send_parked: each parked record goes out once, before the front's sends after the commit.
    for (int round = 0; round < 20; ++round) {
        parking_fixture f;
        kafka::kafka_task_collector front(*f.collector, f.task_metrics);
        f.collector->park_sends();
        std::vector<std::string> expected;
        for (int i = 0; i < 50; ++i) {
            expected.push_back("parked-" + std::to_string(i));
            f.send(front, expected.back());
        }
        f.collector->unpark_sends();
        std::thread loop([&] { f.collector->send_parked(); });
        for (int i = 0; i < 50; ++i) {
            expected.push_back("after-" + std::to_string(i));
            f.send(front, expected.back());
        }
        loop.join();
        CHECK(f.produced() == 100);
        REQUIRE(f.read(100) == expected);
    }
}

TEST_CASE("parked sends: an empty key and an empty value stay empty, not null, and a null one stays null") {
    parking_fixture f;
    kafka::kafka_task_collector front(*f.collector, f.task_metrics);
    f.collector->park_sends();
    front.send("parked-out", 0, std::string_view(""), std::string_view(""), 1000, {}, "sink");
    front.send("parked-out", 0, std::nullopt, std::nullopt, 1000, {}, "sink");
    f.collector->unpark_sends();
    f.collector->send_parked();
    f.collector->flush(10s);
    test::topic_reader reader(f.cluster.bootstrap_servers(), {"parked-out"});
    const auto records = reader.read(2, 10s);
    REQUIRE(records.size() == 2);
    REQUIRE(records[0].key);
    REQUIRE(records[0].value);
    CHECK(records[0].key->empty());
    CHECK(records[0].value->empty());
    CHECK_FALSE(records[1].key);
    CHECK_FALSE(records[1].value);
}

TEST_CASE("parked sends: a failed commit whose error says nothing still fails the front's sends") {
    parking_fixture f;
    kafka::kafka_task_collector front(*f.collector, f.task_metrics);
    f.collector->park_sends();
    f.send(front, "parked");
    f.collector->unpark_sends("");
    CHECK_THROWS_AS(f.send(front, "after"), detail::task_migrated_error);
    CHECK(f.produced() == 0);
}
