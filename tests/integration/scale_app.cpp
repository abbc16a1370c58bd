// One instance of the re-keying aggregation, as its own process, for the scale-out tests:
//   scale_app <bootstrap> <application.id> <input> <output> <state.dir> [group.instance.id]
// Runs until SIGTERM or SIGINT, then closes cleanly (exit 0); logs to stderr at info level.
#include <csignal>
#include <thread>
#include <iostream>

#include <kstreams/streams.hpp>

#include "tests/support/repartition_topologies.hpp"

using namespace std::chrono_literals;

namespace {
volatile std::sig_atomic_t stop = 0;
void on_signal(int) { stop = 1; }
}  // namespace

int main(int argc, char** argv) {
    if (argc < 6) {
        std::cerr << "usage: scale_app bootstrap app-id input output state-dir [group.instance.id]\n";
        return 2;
    }
    std::signal(SIGTERM, on_signal);
    std::signal(SIGINT, on_signal);
    auto topo = kstreams::test::rekey_sum_topology(argv[3], argv[4], argc > 6);
    kstreams::streams_config c;
    c.bootstrap_servers = argv[1];
    c.application_id = argv[2];
    c.state_dir = argv[5];
    if (argc > 6) c.group_instance_id = argv[6];
    c.commit_interval = 100ms;
    c.replication_factor = 1;
    c.consumer["session.timeout.ms"] = "6000";
    c.consumer["heartbeat.interval.ms"] = "500";
    c.kafka["log_level"] = "3";
    kstreams::kafka_streams app(topo, c);
    try {
        app.start();
    } catch (const std::exception& e) {
        std::cerr << "scale_app: " << e.what() << "\n";
        return 1;
    }
    while (!stop && app.state() != kstreams::streams_state::error) std::this_thread::sleep_for(50ms);
    const bool ok = app.close(60s);
    // For the tests: how much state came from changelogs rather than the local stores.
    std::cerr << "scale_app: records-restored=" << app.metrics().value("records-restored") << "\n";
    return ok && app.state() == kstreams::streams_state::not_running ? 0 : 1;
}
