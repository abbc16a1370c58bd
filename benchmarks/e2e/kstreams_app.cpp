// The kstreams side of the end-to-end benchmark; java/ holds the same app in Kafka Streams 4.4.0.
//
//   e2e_kstreams_app BOOTSTRAP APPLICATION_ID passthrough|stateless|stateful INPUT OUTPUT STATE_DIR
//
// Prints STARTED right before kafka_streams::start() (the driver times from there) and runs until
// SIGTERM or SIGINT, then closes cleanly.
#include <cctype>
#include <csignal>
#include <iostream>
#include <thread>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/streams.hpp>

using namespace std::chrono_literals;

namespace {
volatile std::sig_atomic_t stop = 0;
void on_signal(int) { stop = 1; }
}  // namespace

int main(int argc, char** argv) {
    if (argc != 7) {
        std::cerr << "usage: e2e_kstreams_app BOOTSTRAP APPLICATION_ID passthrough|stateless|stateful INPUT OUTPUT STATE_DIR\n";
        return 2;
    }
    std::signal(SIGTERM, on_signal);
    std::signal(SIGINT, on_signal);
    const std::string kind = argv[3];
    kstreams::streams_builder builder;
    auto in = builder.stream<std::string, std::string>(argv[4]);
    if (kind == "passthrough") {
        in.to(argv[5]);
    } else if (kind == "stateless") {
        in.filter([](const std::string&, const std::string& v) { return !v.empty() && v.back() != '0'; })
            .map_values([](const std::string& v) {
                std::string up(v);
                for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
                return up;
            })
            .to(argv[5]);
    } else if (kind == "stateful") {
        in.group_by_key().count().to_stream().to(argv[5]);
    } else {
        std::cerr << "e2e_kstreams_app: unknown pipeline " << kind << "\n";
        return 2;
    }
    const kstreams::topology topology = builder.build();

    // Kafka Streams' defaults (one thread, 10 MiB record cache, at-least-once) except the commit
    // interval: the counts leave the record cache at commits and the driver sees the end of the
    // stateful run through the committed offsets, so both apps commit every second, not every 30 s.
    kstreams::streams_config c;
    c.application_id = argv[2];
    c.bootstrap_servers = argv[1];
    c.state_dir = argv[6];
    c.commit_interval = 1000ms;
    c.replication_factor = 1;
    c.kafka["log_level"] = "3";
    kstreams::kafka_streams app(topology, c);
    std::cout << "STARTED" << std::endl;
    try {
        app.start();
    } catch (const std::exception& e) {
        std::cerr << "e2e_kstreams_app: " << e.what() << "\n";
        return 1;
    }
    while (!stop && app.state() != kstreams::streams_state::error) std::this_thread::sleep_for(20ms);
    const bool ok = app.close(60s);
    return ok && app.state() == kstreams::streams_state::not_running ? 0 : 1;
}
