// One instance of a counting app, as its own process, for the crash and zombie tests:
//   count_app <bootstrap> <application.id> <input> <output> <state.dir>
//             <at_least_once|exactly_once_v2>[+async|+copy] [group.instance.id]
// Each input value names the key to count: the stream is re-keyed by it (a repartition topic),
// counted in a RocksDB store (changelogged, cached) and the counts written to <output>. With
// "+async" each record first passes an async processor that forwards it and only then waits 5 ms
// (a record in flight whose result already went out). With "+copy" nothing is counted: each input
// record is written to <output> as it is (stateless). Runs until SIGTERM or SIGINT, then closes
// cleanly (exit 0); logs to stderr.
#include <iostream>
#include <string>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <kstreams/async.hpp>
#include <kstreams/dsl.hpp>

#include "tests/integration/app_main.hpp"

using namespace std::chrono_literals;
using str = std::string;

namespace {

struct forward_then_wait final : kstreams::async_processor<str, str, str, str> {
    kstreams::awaitable<void> process(kstreams::record<str, str> r, kstreams::async_forwarder<str, str> out) override {
        out.forward(r);
        boost::asio::steady_timer timer(co_await boost::asio::this_coro::executor, 5ms);
        co_await timer.async_wait(boost::asio::use_awaitable);
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 7) {
        std::cerr << "usage: count_app bootstrap app-id input output state-dir guarantee [group.instance.id]\n";
        return 2;
    }
    const str guarantee = argv[6];
    const bool async = guarantee.ends_with("+async");
    kstreams::streams_builder b;
    auto input = b.stream<str, str>(argv[3]);
    if (async) input = input.process_async([] { return std::make_unique<forward_then_wait>(); });
    if (guarantee.ends_with("+copy")) input.map_values([](const std::string& v) { return v; }).to(argv[4]);
    else input.select_key([](const std::string&, const std::string& v) { return v; })
        .group_by_key()
        .count(kstreams::materialized<>::as("counts"))
        .to_stream()
        .to(argv[4]);
    auto c = kstreams::test::process_config(argv[1], argv[2], argv[5], argc > 7 ? argv[7] : nullptr);
    if (guarantee.starts_with("exactly_once_v2"))
        c.guarantee = kstreams::processing_guarantee::exactly_once_v2;  // commits every 100 ms (the default)
    else
        c.commit_interval = 100ms;
    kstreams::kafka_streams app(b.build(), c);
    return kstreams::test::run_until_signalled(app, "count_app");
}
