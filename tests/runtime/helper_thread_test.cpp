// The exactly-once commit's helper thread (lib/kafka/helper_thread.hpp): jobs run beside the
// caller, one at a time, on one thread kept between them.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "lib/kafka/helper_thread.hpp"

using kstreams::kafka::helper_thread;

TEST_CASE("helper thread: a job runs on another thread, and the same thread runs the next job") {
    helper_thread helper;
    std::thread::id first, second;
    helper.run([&] { first = std::this_thread::get_id(); }).get();
    helper.run([&] { second = std::this_thread::get_id(); }).get();
    CHECK(first != std::this_thread::get_id());
    CHECK(first == second);
}

TEST_CASE("helper thread: a job's exception reaches its future, and the thread goes on") {
    helper_thread helper;
    auto failed = helper.run([] { throw std::runtime_error("offsets refused"); });
    CHECK_THROWS_WITH_AS(failed.get(), "offsets refused", std::runtime_error);
    int ran = 0;
    helper.run([&] { ran = 1; }).get();
    CHECK(ran == 1);
}

TEST_CASE("helper thread: the caller goes on while the job runs, and destruction waits for it") {
    std::atomic<bool> release{false}, done{false};
    {
        helper_thread helper;
        auto job = helper.run([&] {
            while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            done = true;
        });
        CHECK(job.wait_for(std::chrono::milliseconds(20)) == std::future_status::timeout);
        release = true;
    }
    CHECK(done.load());
}
