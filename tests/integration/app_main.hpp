// The life of a test app process (scale_app, count_app): start, run until SIGTERM or SIGINT (or
// ERROR), close cleanly; exit 0 only if it closed and reached NOT_RUNNING.
#pragma once

#include <csignal>
#include <iostream>
#include <thread>

#include <kstreams/streams.hpp>

namespace kstreams::test {

namespace app_main_detail {
inline volatile std::sig_atomic_t stop = 0;
inline void on_signal(int) { stop = 1; }
}  // namespace app_main_detail

/// The test apps' settings: short session timeout, internal topics with one replica, quiet librdkafka.
inline kstreams::streams_config process_config(const char* bootstrap, const char* application_id,
                                               const char* state_dir, const char* group_instance_id) {
    kstreams::streams_config c;
    c.bootstrap_servers = bootstrap;
    c.application_id = application_id;
    c.state_dir = state_dir;
    if (group_instance_id) c.group_instance_id = group_instance_id;
    c.replication_factor = 1;
    c.consumer["session.timeout.ms"] = "6000";
    c.consumer["heartbeat.interval.ms"] = "500";
    c.kafka["log_level"] = "3";
    return c;
}

inline int run_until_signalled(kstreams::kafka_streams& app, const char* name) {
    using namespace std::chrono_literals;
    std::signal(SIGTERM, app_main_detail::on_signal);
    std::signal(SIGINT, app_main_detail::on_signal);
    try {
        app.start();
    } catch (const std::exception& e) {
        std::cerr << name << ": " << e.what() << "\n";
        return 1;
    }
    while (!app_main_detail::stop && app.state() != kstreams::streams_state::error) std::this_thread::sleep_for(50ms);
    const bool ok = app.close(60s);
    // For the tests: how much state came from changelogs rather than the local stores.
    std::cerr << name << ": records-restored=" << app.metrics().value("records-restored")
              << ", records-replayed=" << app.metrics().value("records-replayed") << ", state "
              << kstreams::to_string(app.state()) << "\n";
    return ok && app.state() == kstreams::streams_state::not_running ? 0 : 1;
}

}  // namespace kstreams::test
