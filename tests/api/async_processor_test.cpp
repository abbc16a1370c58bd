// Async processors on the test driver, against a fake slow service whose calls complete when the
// test says so: records of one key stay in order, other keys overlap up to the bound, a commit never
// passes a record in flight, punctuations and close wait for the records in flight, and an
// exception from an awaited call names the record as a synchronous one does.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <kstreams/async.hpp>
#include <kstreams/dsl.hpp>
#include <kstreams/error.hpp>
#include <kstreams/metrics.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;
using str = std::string;
namespace asio = boost::asio;

namespace {

/// A slow lookup service: each call waits until the test releases it (or, with `delay`, until a
/// real timer fires). Counts how many calls are in flight at once.
struct fake_service {
    struct call {
        str key;
        /// Owned by the waiting coroutine (timers must not outlive the driver's executor).
        std::weak_ptr<asio::steady_timer> gate;
    };
    std::vector<call> calls;  ///< in the order they were made
    int in_flight = 0;
    int max_in_flight = 0;
    int completed = 0;
    std::vector<str> failing;
    std::chrono::milliseconds delay{0};  ///< 0: wait for release()

    awaitable<str> lookup(str key) {
        auto ex = co_await asio::this_coro::executor;
        auto gate = std::make_shared<asio::steady_timer>(ex);
        if (delay.count() > 0) gate->expires_after(delay);
        else gate->expires_at(asio::steady_timer::time_point::max());
        calls.push_back({key, gate});
        max_in_flight = std::max(max_in_flight, ++in_flight);
        boost::system::error_code ec;
        co_await gate->async_wait(asio::redirect_error(asio::use_awaitable, ec));
        --in_flight;
        ++completed;
        if (std::find(failing.begin(), failing.end(), key) != failing.end())
            throw std::runtime_error("lookup of " + key + " failed");
        co_return "<" + key + ">";
    }
    /// Completes the i-th call (in the order they were made).
    void release(std::size_t i) {
        REQUIRE(i < calls.size());
        if (auto gate = calls[i].gate.lock()) gate->cancel();
    }
    std::size_t started() const { return calls.size(); }
};

std::vector<str> values_of(std::deque<test::produced_record>& out) {
    std::vector<str> v;
    for (auto& r : out) v.push_back(r.key.value_or("null") + "=" + r.value.value_or("null"));
    out.clear();
    return v;
}

/// in -> map_values_async(value + lookup(key)) -> out
topology lookup_topology(fake_service& svc) {
    streams_builder b;
    b.stream<str, str>("in")
        .map_values_async([&svc](const str& k, const str& v) -> awaitable<str> {
            const str found = co_await svc.lookup(k);
            co_return v + found;
        })
        .to("out");
    return b.build();
}

test::driver_config config(std::size_t bound = 64) {
    test::driver_config c;
    c.max_async_in_flight_per_task = bound;
    return c;
}

}  // namespace

TEST_CASE("map_values_async: records of different keys are in flight at once and complete in any order") {
    fake_service svc;
    test::topology_test_driver driver(lookup_topology(svc), config());
    auto in = driver.create_input_topic<str, str>("in");
    for (str k : {"a", "b", "c", "d"}) in.pipe_input(k, "v", 10);
    // All four lookups started before any finished: the keys overlap.
    CHECK(svc.started() == 4);
    CHECK(svc.max_in_flight == 4);
    CHECK(driver.async_in_flight() == 4);
    CHECK(driver.produced("out").empty());
    for (std::size_t i = 4; i-- > 0;) {
        svc.release(i);
        driver.poll_async();
    }
    CHECK(values_of(driver.produced("out")) == std::vector<str>{"d=v<d>", "c=v<c>", "b=v<b>", "a=v<a>"});
    CHECK(driver.async_in_flight() == 0);
}

TEST_CASE("map_values_async: records of one key are processed one after the other, in order") {
    fake_service svc;
    test::topology_test_driver driver(lookup_topology(svc), config());
    auto in = driver.create_input_topic<str, str>("in");
    in.pipe_input("a", "1", 1);
    in.pipe_input("a", "2", 2);
    in.pipe_input("b", "1", 3);
    in.pipe_input("a", "3", 4);
    // a:2 and a:3 wait behind a:1; b overlaps.
    REQUIRE(svc.started() == 2);
    CHECK(svc.calls[0].key == "a");
    CHECK(svc.calls[1].key == "b");
    CHECK(driver.async_in_flight() == 4);
    svc.release(1);
    driver.poll_async();
    CHECK(values_of(driver.produced("out")) == std::vector<str>{"b=1<b>"});
    svc.release(0);
    driver.poll_async();
    CHECK(values_of(driver.produced("out")) == std::vector<str>{"a=1<a>"});
    REQUIRE(svc.started() == 3);  // a:2 starts only once a:1 completed
    CHECK(svc.calls[2].key == "a");
    svc.release(2);
    driver.poll_async();
    REQUIRE(svc.started() == 4);
    svc.release(3);
    driver.poll_async();
    auto& out = driver.produced("out");
    REQUIRE(out.size() == 2);
    CHECK(out[0].value == "2<a>");
    CHECK(out[0].timestamp == 2);
    CHECK(out[1].value == "3<a>");
    CHECK(out[1].timestamp == 4);
}

TEST_CASE("async records in flight per task stop at the configured bound") {
    fake_service svc;
    test::topology_test_driver driver(lookup_topology(svc), config(2));
    auto in = driver.create_input_topic<str, str>("in");
    for (int i = 0; i < 5; ++i) in.pipe_input("k" + std::to_string(i), "v", i);
    CHECK(svc.started() == 2);
    CHECK(driver.async_in_flight() == 2);
    svc.release(0);
    driver.poll_async();
    CHECK(svc.started() == 3);
    for (std::size_t i = 1; i < 5; ++i) {
        svc.release(i);
        driver.poll_async();
    }
    CHECK(svc.max_in_flight == 2);
    CHECK(values_of(driver.produced("out")).size() == 5);
}

TEST_CASE("a commit covers only offsets whose async records completed") {
    fake_service svc;
    test::topology_test_driver driver(lookup_topology(svc), config());
    auto in = driver.create_input_topic<str, str>("in");
    for (int i = 0; i < 4; ++i) in.pipe_input("k" + std::to_string(i), "v", i);  // offsets 0..3
    auto committed = [&] {
        auto offsets = driver.committed_offsets();
        return offsets.count("in") ? offsets["in"] : std::int64_t{-1};
    };
    CHECK(committed() <= 0);
    // Later records complete first: the commit still must not pass offset 0.
    for (std::size_t i : {3u, 1u, 2u}) {
        svc.release(i);
        driver.poll_async();
        driver.commit();
        CHECK(committed() <= 0);
    }
    CHECK(values_of(driver.produced("out")).size() == 3);
    svc.release(0);
    driver.poll_async();
    driver.commit();
    CHECK(committed() == 4);
    // Offset 4 in flight, 5 synchronous-looking but behind it: committed stays at 4.
    in.pipe_input("k4", "v", 4);
    driver.commit();
    CHECK(committed() == 4);
    svc.release(4);
    driver.poll_async();
    driver.commit();
    CHECK(committed() == 5);
}

TEST_CASE("an exception thrown from an awaited call fails the driver naming the record") {
    fake_service svc;
    svc.failing = {"bad"};
    test::topology_test_driver driver(lookup_topology(svc), config());
    auto in = driver.create_input_topic<str, str>("in");
    in.pipe_input("good", "v", 1);
    in.pipe_input("x", "v", 2);
    in.pipe_input("bad", "v", 3);  // offset 2
    svc.release(2);
    try {
        driver.poll_async();
        FAIL("expected a streams_error");
    } catch (const streams_error& e) {
        const str what = e.what();
        CHECK(what.find("exception while processing the record at topic in, partition 0, offset 2") != str::npos);
        CHECK(what.find("KSTREAM-MAPVALUES-0000000001") != str::npos);
        CHECK(what.find("lookup of bad failed") != str::npos);
    }
    // Never committed past the failed record.
    CHECK(driver.committed_offsets()["in"] <= 0);
    svc.release(0);
    svc.release(1);
}

namespace {

/// An async Processor API processor: looks the key up, forwards two records, and punctuates on
/// stream time every 10 ms ("tick").
struct enrich final : async_processor<str, str, str, str> {
    fake_service& svc;
    explicit enrich(fake_service& s) : svc(s) {}
    void init(context_type& ctx) override {
        async_processor::init(ctx);
        ctx.schedule(std::chrono::milliseconds(10), punctuation_type::stream_time, [this](std::int64_t t) {
            context().forward(record<str, str>{"tick", std::to_string(t), t});
        });
    }
    awaitable<void> process(record<str, str> r, async_forwarder<str, str> out) override {
        const str found = co_await svc.lookup(r.key);
        out.forward(r.with_value(r.value + found));
        out.forward(r.with_key(r.key + "-copy"));
    }
};

/// Writes the input metadata and record context it sees into the value (downstream of async).
struct show_metadata final : processor<str, str, str, str> {
    void process(const record<str, str>& r) override {
        auto m = context().metadata();
        context().forward(r.with_value(r.value + "@" + (m ? str(m->topic) + "/" + std::to_string(m->offset) : "none")));
    }
};

topology enrich_topology(fake_service& svc) {
    streams_builder b;
    b.stream<str, str>("in")
        .process_async([&svc] { return std::make_unique<enrich>(svc); })
        .process([] { return std::make_unique<show_metadata>(); })
        .to("out");
    return b.build();
}

}  // namespace

TEST_CASE("process_async: forwards with the input record's metadata, timestamp and headers") {
    fake_service svc;
    test::topology_test_driver driver(enrich_topology(svc), config());
    auto in = driver.create_input_topic<str, str>("in");
    auto out = driver.create_output_topic<str, str>("out");
    // The first record's punctuation (stream time 0, aligned to 0) waits for it: stream time 0 is
    // reached while it is in flight.
    in.pipe_record(record<str, str>{"a", "1", 0, headers{{"h", "x"}}});
    CHECK(svc.started() == 1);
    CHECK(out.is_empty());
    svc.release(0);
    driver.poll_async();
    auto records = out.read_records_to_list();
    REQUIRE(records.size() == 3);
    CHECK(records[0].key == "a");
    CHECK(records[0].value == "1<a>@in/0");
    CHECK(records[0].timestamp == 0);
    CHECK(records[0].headers == headers{{"h", "x"}});
    CHECK(records[1].key == "a-copy");
    CHECK(records[1].value == "1@in/0");
    // The punctuation fired only after the record completed.
    CHECK(records[2].key == "tick");
    CHECK(records[2].value == "0@none");
}

TEST_CASE("a due punctuation waits for the records in flight, and the task takes no new record meanwhile") {
    fake_service svc;
    test::topology_test_driver driver(enrich_topology(svc), config());
    auto in = driver.create_input_topic<str, str>("in");
    auto out = driver.create_output_topic<str, str>("out");
    in.pipe_input("a", "1", 0);
    svc.release(0);
    driver.poll_async();
    CHECK(out.read_records_to_list().size() == 3);  // a, a-copy, tick 0
    in.pipe_input("b", "1", 5);   // in flight
    in.pipe_input("c", "1", 12);  // stream time 12: the punctuation at 10 is due, waits for b
    in.pipe_input("d", "1", 13);  // not taken while the punctuation waits
    CHECK(svc.started() == 3);    // a, b, c
    svc.release(2);
    driver.poll_async();
    CHECK(svc.started() == 3);
    svc.release(1);
    driver.poll_async();
    auto keys = [&] {
        std::vector<str> k;
        for (auto& r : out.read_records_to_list()) k.push_back(r.key + ":" + r.value);
        return k;
    };
    CHECK(keys() == std::vector<str>{"c:1<c>@in/2", "c-copy:1@in/2", "b:1<b>@in/1", "b-copy:1@in/1", "tick:12@none"});
    REQUIRE(svc.started() == 4);  // d, after the punctuation
    svc.release(3);
    driver.poll_async();
    CHECK(keys() == std::vector<str>{"d:1<d>@in/3", "d-copy:1@in/3"});
}

TEST_CASE("overlap on a timed service: all records complete, several at once, and close waits for them") {
    fake_service svc;
    svc.delay = std::chrono::milliseconds(20);
    {
        test::topology_test_driver driver(lookup_topology(svc), config(8));
        auto in = driver.create_input_topic<str, str>("in");
        for (int i = 0; i < 16; ++i) in.pipe_input("k" + std::to_string(i % 8), std::to_string(i), i);
        driver.wait_for_async();
        CHECK(values_of(driver.produced("out")).size() == 16);
        CHECK(svc.max_in_flight > 1);
        CHECK(svc.max_in_flight <= 8);
        // Left in flight when the driver closes: the close waits for them.
        for (int i = 0; i < 8; ++i) in.pipe_input("k" + std::to_string(i), "late", 100 + i);
        CHECK(driver.async_in_flight() == 8);
    }
    CHECK(svc.completed == 24);
}

TEST_CASE("wait_for_async fails clearly when a record waits for something that never completes") {
    fake_service svc;
    test::topology_test_driver driver(lookup_topology(svc), config());
    auto in = driver.create_input_topic<str, str>("in");
    in.pipe_input("a", "v", 0);
    CHECK_THROWS_WITH_AS(driver.wait_for_async(std::chrono::milliseconds(50)),
                         doctest::Contains("1 records still in flight in async processors after 50 ms"),
                         std::runtime_error);
    svc.release(0);
    driver.wait_for_async();
    CHECK(values_of(driver.produced("out")) == std::vector<str>{"a=v<a>"});
}

TEST_CASE("map_values_async as map_values: a null value is dropped and counted for a plain-type function, handed "
          "as nullopt to one declaring std::optional") {
    streams_builder b;
    auto s = b.stream<str, str>("in");
    s.map_values_async([](const str& v) -> awaitable<str> { co_return v + "!"; }).to("plain");
    s.map_values_async([](const std::optional<str>& v) -> awaitable<str> { co_return v ? *v : str("was null"); })
        .to("optional");
    s.map_values_async([](const std::optional<str>& k, const str& v) -> awaitable<str> { co_return k.value_or("-") + v; })
        .to("optional-key");
    test::topology_test_driver driver(b.build(), config());
    auto in = driver.create_input_topic<std::optional<str>, std::optional<str>>("in");
    in.pipe_input(str("a"), std::optional<str>("1"), 1);
    in.pipe_input(str("b"), std::nullopt, 2);
    in.pipe_input(std::nullopt, std::optional<str>("2"), 3);
    driver.wait_for_async();
    CHECK(values_of(driver.produced("plain")) == std::vector<str>{"a=1!", "null=2!"});
    CHECK(values_of(driver.produced("optional")) == std::vector<str>{"a=1", "b=was null", "null=2"});
    CHECK(values_of(driver.produced("optional-key")) == std::vector<str>{"a=a1", "null=-2"});
    CHECK(driver.metrics().value(metric::dropped_null_value_plain_type) == 2);
}
