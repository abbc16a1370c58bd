// One instance of the re-keying aggregation, as its own process, for the scale-out tests:
//   scale_app <bootstrap> <application.id> <input> <output> <state.dir> [group.instance.id]
// Runs until SIGTERM or SIGINT, then closes cleanly (exit 0); logs to stderr at info level.
#include <iostream>

#include "tests/integration/app_main.hpp"
#include "tests/support/repartition_topologies.hpp"

using namespace std::chrono_literals;

int main(int argc, char** argv) {
    if (argc < 6) {
        std::cerr << "usage: scale_app bootstrap app-id input output state-dir [group.instance.id]\n";
        return 2;
    }
    auto topo = kstreams::test::rekey_sum_topology(argv[3], argv[4], argc > 6);
    auto c = kstreams::test::process_config(argv[1], argv[2], argv[5], argc > 6 ? argv[6] : nullptr);
    c.commit_interval = 100ms;
    kstreams::kafka_streams app(topo, c);
    return kstreams::test::run_until_signalled(app, "scale_app");
}
