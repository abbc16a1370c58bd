// Global tables on the real broker: the global thread's consumer reads every partition of the
// global topic with no group, restores the store before the stream threads process, checkpoints it
// for a restart, and keeps following the topic.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include <kstreams/dsl.hpp>
#include <kstreams/state/restore_listener.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/coroutine_test.hpp>

#include "tests/integration/broker_fixture.hpp"
#include "tests/support/await_records.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {

topology enrich(const str& users, const str& orders, const str& out) {
    streams_builder b;
    auto table = b.global_table<str, str>(users, materialized<>::as("users"));
    b.stream<str, str>(orders)
        .left_join(
            table, [](const str& v) { return v.substr(0, v.find(' ')); },
            [](const str& order, const std::optional<str>& user) { return order + "|" + user.value_or("?"); })
        .to(out);
    return b.build();
}

struct counting_listener final : state_restore_listener {
    std::mutex m;
    std::int64_t restored = 0;
    std::set<str> starts;
    void on_restore_start(std::string_view topic, std::int32_t p, std::string_view, std::int64_t from,
                          std::int64_t to) override {
        std::lock_guard l(m);
        starts.insert(str(topic).substr(str(topic).rfind('-') + 1) + "-" + std::to_string(p) + ":" +
                      std::to_string(from) + ".." + std::to_string(to));
    }
    void on_batch_restored(std::string_view, std::int32_t, std::string_view, std::int64_t, std::int64_t n) override {
        std::lock_guard l(m);
        restored += n;
    }
    void on_restore_end(std::string_view, std::int32_t, std::string_view, std::int64_t) override {}
};

}  // namespace

KSTREAMS_CO_TEST_CASE("a global table on the real broker: filled before processing, followed, restored from its checkpoint") {
    const auto users = test::unique("g-users"), orders = test::unique("g-orders"), out = test::unique("g-out");
    test::create_topics({{users, 3}, {orders, 2}, {out, 1}});
    test::topic_writer writer(test::broker());
    for (int u = 0; u < 30; ++u) writer.send(users, "u" + std::to_string(u), "User" + std::to_string(u), 1'000, u % 3);
    for (int o = 0; o < 30; ++o) writer.send(orders, "o" + std::to_string(o), "u" + std::to_string(o) + " x", 2'000);
    writer.flush();

    const auto app_id = test::unique("global");
    const auto state_dir = test::temp_state_dir("global");
    test::topic_reader reader(test::broker(), {out});
    {
        auto listener = std::make_shared<counting_listener>();
        kafka_streams app(enrich(users, orders, out), test::broker_config(app_id, state_dir));
        app.set_global_state_restore_listener(listener);
        app.start();  // returns once the global store holds the 30 users
        CHECK(listener->restored == 30);
        auto recs = co_await test::next_records(reader, 30, 60s);
        for (const auto& r : recs) {
            const str n = r.key->substr(1);
            CHECK(*r.value == "u" + n + " x|User" + n);
        }
        // An update, then orders until one sees it (the global thread and the stream threads run
        // independently, as in Kafka).
        writer.send(users, "u1", "Renamed", 3'000, 1);
        writer.flush();
        bool seen = false;
        for (int round = 0; round < 40 && !seen; ++round) {
            writer.send(orders, "late", "u1 y", 4'000);
            writer.flush();
            auto more = co_await test::next_records(reader, 1, 30s);
            seen = *more.front().value == "u1 y|Renamed";
        }
        CHECK(seen);
        CHECK(app.close(60s));
    }
    {
        std::ifstream in(state_dir / app_id / "global" / ".checkpoint");
        const str text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        CHECK(text == "0\n3\n" + users + " 0 10\n" + users + " 1 11\n" + users + " 2 10\n");
    }
    // Two more rows while the app is down: the restart restores those two only.
    writer.send(users, "u40", "New40", 5'000, 0);
    writer.send(users, "u41", "New41", 5'000, 2);
    writer.flush();
    auto listener = std::make_shared<counting_listener>();
    kafka_streams app(enrich(users, orders, out), test::broker_config(app_id, state_dir));
    app.set_global_state_restore_listener(listener);
    app.start();
    CHECK(listener->restored == 2);
    CHECK(listener->starts == std::set<str>{users.substr(users.rfind('-') + 1) + "-0:10..11",
                                             users.substr(users.rfind('-') + 1) + "-1:11..11",
                                             users.substr(users.rfind('-') + 1) + "-2:10..11"});
    writer.send(orders, "o40", "u40 z", 6'000);
    writer.send(orders, "o1", "u1 z", 6'000);
    writer.flush();
    std::set<str> got;
    for (int i = 0; i < 10 && got.size() < 2; ++i) {
        auto recs = co_await test::next_records(reader, 1, 60s);
        if (*recs.front().key == "o40" || *recs.front().key == "o1") got.insert(*recs.front().value);
    }
    CHECK(got == std::set<str>{"u40 z|New40", "u1 z|Renamed"});
    CHECK(app.close(60s));
}
