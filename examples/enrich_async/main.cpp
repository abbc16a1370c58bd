// Enrichment by an asynchronous lookup (beyond Kafka Streams, which has none): each order is enriched
// with its customer's tier from a slow "customer service" (here a local fake answering after 50 ms).
// The lookup is co_awaited inside map_values_async, so the orders of different customers wait for
// their answers at the same time while the orders of one customer stay in order. Runs on the
// embedded Kafka cluster: no broker needed. Pass a bootstrap address (with the topics orders and
// enriched-orders) to run it on a real cluster.
//
//   enrich_async [bootstrap.servers]
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <map>
#include <string>

#include <kstreams/async.hpp>
#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

#include "examples/support/example_app.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;
namespace asio = boost::asio;

namespace {
std::atomic<int> in_flight{0}, most_in_flight{0};

str tier_of(const str& customer) { return (customer.back() - '0') % 3 == 0 ? "gold" : "silver"; }

/// The stand-in for a remote service: answers each lookup after 50 ms without blocking a thread.
awaitable<str> customer_tier(const str& customer) {
    const int now = ++in_flight;
    for (int most = most_in_flight; now > most && !most_in_flight.compare_exchange_weak(most, now);) {}
    asio::steady_timer latency(co_await asio::this_coro::executor, 50ms);
    boost::system::error_code ignored;
    co_await latency.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    --in_flight;
    co_return tier_of(customer);
}
}  // namespace

int main(int argc, char** argv) {
    streams_builder builder;
    builder.stream<str, str>("orders")  // customer -> order id
        .map_values_async([](const str& customer, const str& order) -> awaitable<str> {
            co_return order + " (" + co_await customer_tier(customer) + ")";
        })
        .to("enriched-orders");
    const topology t = builder.build();
    std::cout << t.describe().to_string();

    kafka_streams app(t, examples::config_for("enrich-async", argc, argv));
    try {
        if (!examples::start(app, "enrich_async")) return 1;
        std::map<str, str> expected;
        const auto started = std::chrono::steady_clock::now();  // includes reading the results back
        {
            test::topic_writer writer(app.bootstrap_servers());
            for (int i = 0; i < 40; ++i) {
                const str customer = "customer-" + std::to_string(i % 10);
                const str order = "order-" + std::to_string(i);
                writer.send("orders", customer, order);
                expected[customer] = order + " (" + tier_of(customer) + ")";  // the last one wins
            }
            writer.flush();
        }
        const bool ok = examples::read_expected(app, "enriched-orders", expected, "enrich_async");
        // One after the other, 40 lookups of 50 ms would take 2 s; here the customers' lookups overlap.
        std::cout << "40 lookups, at most " << most_in_flight << " at once, done within "
                  << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count()
                  << " ms\n";
        return app.close(30s) && ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "enrich_async: " << e.what() << "\n";
        return 1;
    }
}
