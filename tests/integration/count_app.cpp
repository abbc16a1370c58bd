// One instance of a counting app, as its own process, for the crash and zombie tests:
//   count_app <bootstrap> <application.id> <input> <output> <state.dir> <at_least_once|exactly_once_v2>
//             [group.instance.id]
// Each input value names the key to count: the stream is re-keyed by it (a repartition topic),
// counted in a RocksDB store (changelogged, cached) and the counts written to <output>. Runs until
// SIGTERM or SIGINT, then closes cleanly (exit 0); logs to stderr.
#include <iostream>
#include <string>

#include <kstreams/dsl.hpp>

#include "tests/integration/app_main.hpp"

using namespace std::chrono_literals;

int main(int argc, char** argv) {
    if (argc < 7) {
        std::cerr << "usage: count_app bootstrap app-id input output state-dir guarantee [group.instance.id]\n";
        return 2;
    }
    kstreams::streams_builder b;
    b.stream<std::string, std::string>(argv[3])
        .select_key([](const std::string&, const std::string& v) { return v; })
        .group_by_key()
        .count(kstreams::materialized<>::as("counts"))
        .to_stream()
        .to(argv[4]);
    auto c = kstreams::test::process_config(argv[1], argv[2], argv[5], argc > 7 ? argv[7] : nullptr);
    if (std::string(argv[6]) == "exactly_once_v2")
        c.guarantee = kstreams::processing_guarantee::exactly_once_v2;  // commits every 100 ms (the default)
    else
        c.commit_interval = 100ms;
    kstreams::kafka_streams app(b.build(), c);
    return kstreams::test::run_until_signalled(app, "count_app");
}
