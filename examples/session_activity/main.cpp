// User sessions: activity events keyed by user, grouped into sessions that end after 5 minutes
// without activity (session windows), counted per session, and held back until each session is
// closed (suppress until the window closes), so every session is reported once, with its final
// count, instead of once per event. Runs on the embedded Kafka cluster: no broker needed. Pass a
// bootstrap address (with the topics user-activity and sessions) to run it on a real cluster.
//
//   session_activity [bootstrap.servers]
#include <chrono>
#include <iostream>
#include <map>
#include <string>
#include <utility>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

#include "examples/support/example_app.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

int main(int argc, char** argv) {
    const std::int64_t t0 = 1'700'000'000'000;
    const auto minute_of = [t0](std::int64_t ts) { return std::to_string((ts - t0) / 60'000); };

    streams_builder builder;
    builder.stream<str, str>("user-activity")  // user -> what they did
        .group_by_key()
        .windowed_by(session_windows::of_inactivity_gap_with_no_grace(5min))
        .count(materialized<>::as("sessions-store"))
        .suppress(suppressed::until_window_closes(buffer_config::unbounded()).with_name("final-sessions"))
        .to_stream()
        .map([&](const windowed<str>& session, std::int64_t events) {  // "alice@0-3": minutes since t0
            return key_value<str, std::int64_t>{
                session.key + "@" + minute_of(session.window.start) + "-" + minute_of(session.window.end), events};
        })
        .to("sessions");
    const topology t = builder.build();
    std::cout << t.describe().to_string();

    kafka_streams app(t, examples::config_for("session-activity", argc, argv));
    try {
        if (!examples::start(app, "session_activity")) return 1;
        {
            test::topic_writer writer(app.bootstrap_servers());
            // Minutes since t0. Alice comes back after more than 5 minutes (a new session); then,
            // an hour later, everyone comes back: stream time passes the end of every session
            // before (in each user's partition), so those are final; the new ones stay open.
            const std::pair<const char*, int> events[] = {{"alice", 0},  {"alice", 1},  {"bob", 2},
                                                          {"alice", 3},  {"carol", 4},  {"carol", 6},
                                                          {"alice", 20}, {"alice", 60}, {"bob", 60},
                                                          {"carol", 60}};
            for (const auto& [user, minute] : events)
                writer.send("user-activity", str(user), str("click"), t0 + std::int64_t{minute} * 60'000);
            writer.flush();
        }
        const std::map<str, std::int64_t> expected{
            {"alice@0-3", 3}, {"alice@20-20", 1}, {"bob@2-2", 1}, {"carol@4-6", 2}};
        const bool ok = examples::read_expected(app, "sessions", expected, "session_activity");
        return app.close(30s) && ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "session_activity: " << e.what() << "\n";
        return 1;
    }
}
