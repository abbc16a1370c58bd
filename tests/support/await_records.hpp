// `co_await next_records(reader, n, timeout)`: the next n records of an output topic, on the
// embedded cluster or a real broker, waiting on the reader's wake-up fd (no polling loop).
#pragma once

#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <kstreams/error.hpp>
#include <kstreams/test/topic_client.hpp>

#include <kstreams/test/coroutine_test.hpp>

namespace kstreams::test {

inline task<std::vector<consumed_record>> next_records(topic_reader& reader, std::size_t n,
                                                       std::chrono::milliseconds timeout) {
    using namespace boost::asio::experimental::awaitable_operators;
    auto ex = co_await boost::asio::this_coro::executor;
    boost::asio::posix::stream_descriptor fd(ex, ::dup(reader.wake_fd()));
    boost::asio::steady_timer timer(ex);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::vector<consumed_record> out;
    while (out.size() < n) {
        reader.wake_fd();  // drain before looking, so a record arriving after the look wakes us
        while (out.size() < n)
            if (auto r = reader.try_next()) out.push_back(std::move(*r));
            else break;
        if (out.size() >= n) break;
        if (std::chrono::steady_clock::now() >= deadline) {
            std::string names;
            for (const auto& t : reader.topics()) names += (names.empty() ? "" : ", ") + t;
            throw streams_error("timed out after " + std::to_string(timeout.count()) + " ms waiting for " +
                                std::to_string(n) + " records of " + names + "; got " + std::to_string(out.size()));
        }
        // Wake on the fd, or after a short while (the reader may still be waiting for its topics).
        timer.expires_after(std::min<std::chrono::steady_clock::duration>(deadline - std::chrono::steady_clock::now(),
                                                                          std::chrono::milliseconds(250)));
        co_await (fd.async_wait(boost::asio::posix::stream_descriptor::wait_read, boost::asio::use_awaitable) ||
                  timer.async_wait(boost::asio::use_awaitable));
    }
    co_return out;
}

}  // namespace kstreams::test
