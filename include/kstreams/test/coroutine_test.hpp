// Coroutine tests for doctest: the test body is a boost::asio::awaitable<void>, run to completion
// on its own io_context on the test thread, so it can co_await and a failing REQUIRE (or any
// exception) inside it is reported like in any other test.
//
//     KSTREAMS_CO_TEST_CASE("a fetch completes") {
//         auto ex = co_await boost::asio::this_coro::executor;
//         ...
//         REQUIRE(result == 42);
//     }
//
// Opt-in: this header pulls in Asio and doctest, which the rest of the public API never does.
#pragma once

#include <chrono>
#include <future>
#include <stdexcept>
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <doctest/doctest.h>

namespace kstreams::test {

template <class T = void>
using task = boost::asio::awaitable<T>;

/// Spawns `make_body()` on a fresh io_context, runs the context until it has no work left, and
/// rethrows whatever the coroutine threw. A coroutine that is still suspended when no work is left
/// would never finish; that is an error too, instead of a hung test.
template <class MakeBody>
void run_coroutine(MakeBody&& make_body) {
    boost::asio::io_context io;
    std::future<void> done = boost::asio::co_spawn(io, std::forward<MakeBody>(make_body)(), boost::asio::use_future);
    io.run();
    if (done.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        throw std::logic_error(
            "coroutine test: the body is still suspended but nothing is left to resume it (it waits for an "
            "operation that never completes)");
    done.get();
}

}  // namespace kstreams::test

#define KSTREAMS_CO_TEST_CASE_IMPL(decorators, body)                 \
    static ::kstreams::test::task<void> body();                      \
    TEST_CASE(decorators) { ::kstreams::test::run_coroutine(body); } \
    static ::kstreams::test::task<void> body()

/// A doctest test case whose body is a coroutine (boost::asio::awaitable<void>). Takes the same
/// name-and-decorators argument as TEST_CASE.
#define KSTREAMS_CO_TEST_CASE(decorators) \
    KSTREAMS_CO_TEST_CASE_IMPL(decorators, DOCTEST_ANONYMOUS(KSTREAMS_CO_TEST_BODY_))
