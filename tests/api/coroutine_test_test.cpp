// The coroutine test helper: bodies can co_await, and failures inside them are not lost.
#include <doctest/doctest.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <kstreams/test/coroutine_test.hpp>
#include <kstreams/test/topology_test_driver.hpp>
#include <kstreams/topology.hpp>

using kstreams::test::task;
namespace asio = boost::asio;
using namespace std::chrono_literals;

namespace {
task<int> add_later(int a, int b) {
    asio::steady_timer timer(co_await asio::this_coro::executor, 1ms);
    co_await timer.async_wait(asio::use_awaitable);
    co_return a + b;
}

task<void> fails_after_a_wait() {
    asio::steady_timer timer(co_await asio::this_coro::executor, 1ms);
    co_await timer.async_wait(asio::use_awaitable);
    throw std::runtime_error("failed inside the coroutine");
}

/// An operation that drops its completion handler: nothing will ever resume the awaiter.
task<void> waits_forever() {
    co_await asio::async_initiate<decltype(asio::use_awaitable), void()>([](auto&&) {}, asio::use_awaitable);
}

int steps = 0;
}  // namespace

KSTREAMS_CO_TEST_CASE("a coroutine test can co_await timers and nested coroutines") {
    const auto start = std::chrono::steady_clock::now();
    const int sum = co_await add_later(40, 2);
    CHECK(sum == 42);
    CHECK(std::chrono::steady_clock::now() - start >= 1ms);
    ++steps;
}

TEST_CASE("...and the coroutine above ran to its end") {
    // doctest runs test cases in declaration order by default.
    CHECK(steps == 1);
}

KSTREAMS_CO_TEST_CASE("a coroutine test can drive the topology test driver") {
    kstreams::topology t;
    t.add_source<std::string, std::string>("src", {"in"}).add_sink<std::string, std::string>("sink", "out", {"src"});
    kstreams::test::topology_test_driver driver(t);
    driver.create_input_topic<std::string, std::string>("in").pipe_input("k", "v", 1);
    co_await add_later(0, 0);
    CHECK(driver.create_output_topic<std::string, std::string>("out").read_value() == "v");
}

// The next test must fail: a REQUIRE that fails after a co_await is reported (should_fail turns
// that into a pass; if the helper swallowed the failure, doctest would report an unexpected pass).
KSTREAMS_CO_TEST_CASE("a failing REQUIRE inside the coroutine fails the test" * doctest::should_fail()) {
    co_await add_later(1, 1);
    REQUIRE(1 + 1 == 3);
    ++steps;  // never reached
}

KSTREAMS_CO_TEST_CASE("a failing CHECK inside the coroutine fails the test" * doctest::should_fail()) {
    co_await add_later(1, 1);
    CHECK(false);
}

TEST_CASE("an exception thrown inside the coroutine reaches the caller of run_coroutine") {
    CHECK_THROWS_WITH_AS(kstreams::test::run_coroutine(fails_after_a_wait), "failed inside the coroutine",
                         std::runtime_error);
    CHECK(steps == 1);
}

TEST_CASE("a coroutine that can never be resumed is an error, not a hang") {
    CHECK_THROWS(kstreams::test::run_coroutine(waits_forever));
}

TEST_CASE("run_coroutine returns normally for a body that completes") {
    bool ran = false;
    kstreams::test::run_coroutine([&]() -> task<void> {
        ran = (co_await add_later(2, 3)) == 5;
    });
    CHECK(ran);
}
