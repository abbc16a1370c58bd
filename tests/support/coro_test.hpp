// Coroutine tests: the body is a task<void> run on its own io_context; a failure inside it is
// rethrown on the test thread, so doctest reports it there.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <doctest/doctest.h>

namespace kstreams::test {
template <class T>
using task = boost::asio::awaitable<T>;
}  // namespace kstreams::test

#define KSTREAMS_CO_CAT2(a, b) a##b
#define KSTREAMS_CO_CAT(a, b) KSTREAMS_CO_CAT2(a, b)
#define KSTREAMS_CO_TEST_IMPL(fn, name)                                                       \
    static ::kstreams::test::task<void> fn();                                                  \
    TEST_CASE(name) {                                                                          \
        boost::asio::io_context ioc_;                                                          \
        auto done_ = boost::asio::co_spawn(ioc_, fn(), boost::asio::use_future);               \
        ioc_.run();                                                                            \
        done_.get();                                                                           \
    }                                                                                          \
    static ::kstreams::test::task<void> fn()
/// CO_TEST_CASE("name") { ... co_await ...; }
#define CO_TEST_CASE(name) KSTREAMS_CO_TEST_IMPL(KSTREAMS_CO_CAT(kstreams_co_test_, __LINE__), name)
