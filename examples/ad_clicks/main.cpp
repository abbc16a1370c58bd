// The motivating case of the original design: ad impressions and clicks keyed by user id, joined
// within 5 minutes (a windowed stream-stream join), each joined click enriched from a table of user
// details (a stream-table join). Runs on the embedded Kafka cluster: no broker needed. Pass a
// bootstrap address (with the topics impressions, clicks, users and enriched-clicks created, all
// with the same partition count) to run it on a real cluster instead.
//
//   ad_clicks [bootstrap.servers]
#include <chrono>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <thread>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

int main(int argc, char** argv) {
    streams_builder builder;
    auto impressions = builder.stream<str, str>("impressions");  // user -> ad shown
    auto clicks = builder.stream<str, str>("clicks");            // user -> ad clicked
    auto users = builder.table<str, str>("users");               // user -> region
    impressions
        .join(clicks, [](const str& shown, const str& clicked) { return shown == clicked ? shown : str(); },
              join_windows::of_time_difference_with_no_grace(5min))
        .filter([](const str& ad) { return !ad.empty(); })
        .left_join(users, [](const str& ad, const std::optional<str>& region) { return ad + " in " + region.value_or("unknown"); })
        .to("enriched-clicks");
    const topology t = builder.build();
    std::cout << t.describe().to_string();

    streams_config config;
    config.application_id = "ad-clicks";
    config.bootstrap_servers = argc > 1 ? argv[1] : "embedded";
    config.commit_interval = 100ms;
    config.kafka["log_level"] = "3";
    kafka_streams app(t, config);
    try {
        app.start();
        if (!app.wait_until(streams_state::running, 30s)) {
            std::cerr << "ad_clicks: the app did not reach RUNNING (state " << to_string(app.state()) << ")\n";
            return 1;
        }
        const std::int64_t t0 = 1'700'000'000'000;
        const std::int64_t minute = 60'000;
        {
            test::topic_writer writer(app.bootstrap_servers());
            writer.send("users", str("alice"), str("eu"), t0);
            writer.send("users", str("bob"), str("us"), t0);
            writer.flush();
            std::this_thread::sleep_for(500ms);  // the table is read before the clicks arrive
            writer.send("impressions", str("alice"), str("shoes"), t0);
            writer.send("impressions", str("bob"), str("hats"), t0);
            writer.send("impressions", str("carol"), str("cars"), t0);
            writer.send("clicks", str("alice"), str("shoes"), t0 + 2 * minute);  // within 5 minutes
            writer.send("clicks", str("bob"), str("hats"), t0 + 9 * minute);     // too late
            writer.send("clicks", str("carol"), str("cars"), t0 + 1 * minute);   // no user details
            writer.flush();
        }
        const std::map<str, str> expected{{"alice", "shoes in eu"}, {"carol", "cars in unknown"}};
        test::topic_reader reader(app.bootstrap_servers(), {"enriched-clicks"});
        std::map<str, str> got;
        const auto deadline = std::chrono::steady_clock::now() + 30s;
        while (got != expected && std::chrono::steady_clock::now() < deadline)
            for (const auto& r : reader.read_until_quiet(300ms)) got[r.key_as<str>()] = r.value_as<str>();
        for (const auto& [user, click] : got) std::cout << user << "\t" << click << "\n";
        if (got != expected) {
            std::cerr << "ad_clicks: the enriched clicks did not arrive within 30 s\n";
            app.close(30s);
            return 1;
        }
    } catch (const std::exception& e) {
        std::cerr << "ad_clicks: " << e.what() << "\n";
        return 1;
    }
    return app.close(30s) ? 0 : 1;
}
