// Async processors on the real broker, against a fake slow service (a timer on the stream thread's
// executor): records of one key stay in order while keys overlap; and after the app dies with
// records in flight, the offsets it committed never passed an unfinished record, a restart
// processes every record not committed again, and nothing completed is lost.
#include <doctest/doctest.h>

#include <librdkafka/rdkafka.h>

#include <atomic>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <kstreams/async.hpp>
#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/streams.hpp>

#include "tests/integration/broker_fixture.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;
namespace asio = boost::asio;

namespace {

/// Each call waits `delay` on the caller's executor; value "crash" fails (after `crash_delay`)
/// while `crash_armed`.
struct slow_service {
    std::chrono::milliseconds delay{30};
    std::chrono::milliseconds crash_delay{400};
    std::atomic<bool> crash_armed{false};
    std::atomic<int> in_flight{0};
    std::atomic<int> max_in_flight{0};

    awaitable<void> call(str value) {
        auto ex = co_await asio::this_coro::executor;
        const bool crash = crash_armed && value == "crash";
        asio::steady_timer timer(ex, crash ? crash_delay : delay);
        const int now = ++in_flight;
        for (int seen = max_in_flight; now > seen && !max_in_flight.compare_exchange_weak(seen, now);) {
        }
        co_await timer.async_wait(asio::use_awaitable);
        --in_flight;
        if (crash) throw std::runtime_error("the service is down");
    }
};

/// Forwards "<run>:<partition>/<offset>:<value>" once the service answered.
struct lookup final : async_processor<str, str, str, str> {
    slow_service& svc;
    str run;
    lookup(slow_service& s, str r) : svc(s), run(std::move(r)) {}
    awaitable<void> process(record<str, str> r, async_forwarder<str, str> out) override {
        co_await svc.call(r.value);
        const auto m = out.metadata();
        REQUIRE(m);
        out.forward(r.with_value(run + ":" + std::to_string(m->partition) + "/" + std::to_string(m->offset) + ":" +
                                 r.value));
    }
};

topology lookup_topology(const str& in, const str& out, slow_service& svc, const str& run) {
    streams_builder b;
    b.stream<str, str>(in).process_async([&svc, run] { return std::make_unique<lookup>(svc, run); }).to(out);
    return b.build();
}

struct parsed {
    str run;
    std::int32_t partition;
    std::int64_t offset;
    str value;
};

parsed parse(const str& v) {
    const auto a = v.find(':'), s = v.find('/'), b = v.find(':', a + 1);
    return {v.substr(0, a), std::stoi(v.substr(a + 1, s - a - 1)), std::stoll(v.substr(s + 1, b - s - 1)),
            v.substr(b + 1)};
}

/// The group's committed offset of partition 0 of `topic` (-1 if none).
std::int64_t committed_offset(const str& group, const str& topic) {
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    char err[512];
    for (auto [k, v] : {std::pair{"bootstrap.servers", test::broker()}, std::pair{"group.id", group},
                        std::pair{"log_level", str("3")}})
        REQUIRE(rd_kafka_conf_set(conf, k, v.c_str(), err, sizeof err) == RD_KAFKA_CONF_OK);
    rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err);
    REQUIRE(rk);
    rd_kafka_topic_partition_list_t* parts = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(parts, topic.c_str(), 0);
    const rd_kafka_resp_err_t e = rd_kafka_committed(rk, parts, 30000);
    const std::int64_t offset = e == RD_KAFKA_RESP_ERR_NO_ERROR ? parts->elems[0].offset : -2;
    rd_kafka_topic_partition_list_destroy(parts);
    rd_kafka_destroy(rk);
    REQUIRE(e == RD_KAFKA_RESP_ERR_NO_ERROR);
    return offset < 0 ? -1 : offset;
}

}  // namespace

TEST_CASE("async processor on the real broker: one key's records in order, keys overlap") {
    const auto in = test::unique("async-in"), out = test::unique("async-out");
    test::create_topics({{in, 2}, {out, 1}});
    slow_service svc;
    auto topo = lookup_topology(in, out, svc, "r");
    auto cfg = test::broker_config(test::unique("async"), test::temp_state_dir("async"));
    cfg.max_async_in_flight_per_task = 16;
    kafka_streams app(topo, cfg);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));

    test::topic_writer writer(test::broker());
    const int n = 300;
    for (int i = 0; i < n; ++i) writer.send(in, "k" + std::to_string(i % 10), std::to_string(i));
    writer.flush();

    test::topic_reader reader(test::broker(), {out});
    auto recs = reader.read(n, 60s);
    REQUIRE(recs.size() == static_cast<std::size_t>(n));
    std::map<str, std::vector<int>> per_key;
    for (const auto& r : recs) per_key[*r.key].push_back(std::stoi(parse(*r.value).value));
    CHECK(per_key.size() == 10);
    for (const auto& [key, values] : per_key) {
        CHECK_MESSAGE(std::is_sorted(values.begin(), values.end()), key);
        CHECK(values.size() == 30);
    }
    // Keys overlapped (serially it would be one at a time), within the bound of each of the 2 tasks.
    CHECK(svc.max_in_flight > 1);
    CHECK(svc.max_in_flight <= 2 * 16);
    CHECK(app.close(60s));
    CHECK(app.state() == streams_state::not_running);
}

TEST_CASE("async processor on the real broker: a crash with records in flight loses nothing and commits none of them") {
    const auto in = test::unique("async-kill-in"), out = test::unique("async-kill-out");
    const auto app_id = test::unique("async-kill");
    test::create_topics({{in, 1}, {out, 1}});
    const auto state_dir = test::temp_state_dir("async-kill");

    test::topic_writer writer(test::broker());
    const int n = 200;
    const int crash_at = 30;  // its own key: in flight while the other keys' records complete
    for (int i = 0; i < n; ++i) {
        if (i == crash_at) writer.send(in, str("boom"), str("crash"));
        else writer.send(in, "k" + std::to_string(i % 10), std::to_string(i));
    }
    writer.flush();

    // Run 1: the "crash" lookup fails after 400 ms; the thread dies with other records in flight.
    slow_service svc1;
    svc1.delay = 50ms;
    svc1.crash_armed = true;
    {
        auto topo = lookup_topology(in, out, svc1, "r1");
        auto cfg = test::broker_config(app_id, state_dir);
        kafka_streams app(topo, cfg);
        app.start();
        const auto deadline = std::chrono::steady_clock::now() + 90s;
        while (app.state() != streams_state::error && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(20ms);
        REQUIRE(app.state() == streams_state::error);
        REQUIRE(app.error());
        try {
            std::rethrow_exception(app.error());
        } catch (const std::exception& e) {
            CHECK(str(e.what()).find("offset " + std::to_string(crash_at)) != str::npos);
            CHECK(str(e.what()).find("the service is down") != str::npos);
        }
        app.close(30s);
    }
    const std::int64_t committed = committed_offset(app_id, in);
    MESSAGE("committed after the crash: " << committed);

    test::topic_reader reader(test::broker(), {out});
    std::set<std::int64_t> done1, done2;
    for (const auto& r : reader.read_until_quiet(2s)) {
        const parsed p = parse(*r.value);
        (p.run == "r1" ? done1 : done2).insert(p.offset);
    }
    // The commit never passed a record that had not completed.
    for (std::int64_t o = 0; o < committed; ++o) CHECK_MESSAGE(done1.count(o) == 1, "offset " << o);
    CHECK(committed <= crash_at);
    CHECK(done1.count(crash_at) == 0);
    // Records were in flight when the thread died (some after the crash record never completed).
    CHECK(static_cast<int>(done1.size()) < n - 1);

    // Run 2: everything not committed is processed again; nothing before the commit is.
    slow_service svc2;
    svc2.delay = 5ms;
    {
        auto topo = lookup_topology(in, out, svc2, "r2");
        kafka_streams app(topo, test::broker_config(app_id, state_dir));
        app.start();
        const auto deadline = std::chrono::steady_clock::now() + 90s;
        const std::int64_t first = std::max<std::int64_t>(committed, 0);
        while (static_cast<std::int64_t>(done2.size()) < n - first && std::chrono::steady_clock::now() < deadline)
            for (const auto& r : reader.read_until_quiet(500ms)) {
                const parsed p = parse(*r.value);
                (p.run == "r1" ? done1 : done2).insert(p.offset);
            }
        CHECK(app.close(60s));
        for (std::int64_t o = first; o < n; ++o) CHECK_MESSAGE(done2.count(o) == 1, "offset " << o);
        CHECK(*done2.begin() == first);
    }
    // Nothing lost: every input offset has an output from one run or the other.
    for (std::int64_t o = 0; o < n; ++o) CHECK_MESSAGE(done1.count(o) + done2.count(o) >= 1, "offset " << o);
}

TEST_CASE("async processor under exactly_once_v2 with 2 stream threads: records completing while transactions "
          "commit are each in the committed output once, in order per key") {
    // Async records complete outside turns, on their task's strand, also while the thread's
    // transaction commits and as its end sends what the tasks parked meanwhile: each front's
    // parked records go out once, before its later sends, in the next transaction.
    const auto in = test::unique("async-eos-in"), out = test::unique("async-eos-out");
    test::create_topics({{in, 4}, {out, 1}});
    slow_service svc;
    svc.delay = 2ms;
    auto topo = lookup_topology(in, out, svc, "r");
    auto cfg = test::broker_config(test::unique("async-eos"), test::temp_state_dir("async-eos"));
    cfg.guarantee = processing_guarantee::exactly_once_v2;
    cfg.num_stream_threads = 2;
    cfg.commit_interval = 5ms;
    cfg.max_async_in_flight_per_task = 8;
    kafka_streams app(topo, cfg);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));

    test::topic_writer writer(test::broker());
    const int n = 2000;
    for (int i = 0; i < n; ++i) writer.send(in, "k" + std::to_string(i % 20), std::to_string(i));
    writer.flush();

    std::map<str, std::vector<int>> per_key;
    std::size_t read = 0;
    test::read_until_done(
        out, true,
        [&](const test::consumed_record& r) {
            per_key[*r.key].push_back(std::stoi(parse(*r.value).value));
            ++read;
        },
        [&] { return read >= static_cast<std::size_t>(n); });
    CHECK(app.state() == streams_state::running);
    CHECK(read == static_cast<std::size_t>(n));
    CHECK(per_key.size() == 20);
    for (const auto& [key, values] : per_key) {
        const int k = std::stoi(key.substr(1));
        std::vector<int> expected;
        for (int i = k; i < n; i += 20) expected.push_back(i);
        CHECK_MESSAGE(values == expected, key);
    }
    CHECK(app.close(60s));
}

TEST_CASE("async processor fed by a cache flush under exactly_once_v2: the commit waits for what the flush handed "
          "it, and the committed counts are exact") {
    // The commit's cache flush hands counts to the async processor; their results are sent outside
    // turns and belong in the transaction that commits the input: the commit waits for them.
    const auto in = test::unique("async-cache-in"), out = test::unique("async-cache-out");
    test::create_topics({{in, 4}, {out, 1}});
    streams_builder b;
    b.stream<str, str>(in)
        .group_by_key()
        .count()
        .to_stream()
        .map_values_async([](std::int64_t count) -> awaitable<str> {
            asio::steady_timer timer(co_await asio::this_coro::executor, 2ms);
            co_await timer.async_wait(asio::use_awaitable);
            co_return std::to_string(count);
        })
        .to(out);
    const topology topo = b.build();
    auto cfg = test::broker_config(test::unique("async-cache"), test::temp_state_dir("async-cache"));
    cfg.guarantee = processing_guarantee::exactly_once_v2;
    cfg.num_stream_threads = 2;
    cfg.commit_interval = 5ms;
    kafka_streams app(topo, cfg);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));

    test::topic_writer writer(test::broker());
    const int n = 2000, keys = 20;
    for (int i = 0; i < n; ++i) writer.send(in, "k" + std::to_string(i % keys), std::to_string(i));
    writer.flush();

    std::map<str, std::vector<int>> per_key;
    test::read_until_done(
        out, true, [&](const test::consumed_record& r) { per_key[*r.key].push_back(std::stoi(*r.value)); },
        [&] {
            return per_key.size() == static_cast<std::size_t>(keys) &&
                   std::all_of(per_key.begin(), per_key.end(), [&](const auto& kv) { return kv.second.back() == n / keys; });
        });
    CHECK(app.state() == streams_state::running);
    CHECK(per_key.size() == static_cast<std::size_t>(keys));
    for (const auto& [key, counts] : per_key) {
        CHECK_MESSAGE(std::adjacent_find(counts.begin(), counts.end(), std::greater_equal<>()) == counts.end(), key);
        CHECK_MESSAGE(counts.back() == n / keys, key);
    }
    CHECK(app.close(60s));
}
