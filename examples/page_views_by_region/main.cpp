// Page views counted per region: each view (keyed by user) is joined with the user's region from a
// table (a stream-table join), re-keyed by region (through a repartition topic) and counted. Runs on
// the embedded Kafka cluster: no broker needed. Pass a bootstrap address (with the topics
// page-views and user-regions co-partitioned, and views-per-region) to run it on a real cluster.
//
//   page_views_by_region [bootstrap.servers]
#include <chrono>
#include <iostream>
#include <map>
#include <string>
#include <thread>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

#include "examples/support/example_app.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

int main(int argc, char** argv) {
    streams_builder builder;
    auto views = builder.stream<str, str>("page-views");     // user -> page
    auto regions = builder.table<str, str>("user-regions");  // user -> region
    views.join(regions, [](const str& /*page*/, const str& region) { return region; })  // views of unknown users drop
        .group_by([](const str& /*user*/, const str& region) { return region; })
        .count(materialized<>::as("views-per-region"))
        .to_stream()
        .to("views-per-region");
    const topology t = builder.build();
    std::cout << t.describe().to_string();

    kafka_streams app(t, examples::config_for("page-views-by-region", argc, argv));
    try {
        if (!examples::start(app, "page_views_by_region")) return 1;
        const std::int64_t t0 = 1'700'000'000'000;
        {
            test::topic_writer writer(app.bootstrap_servers());
            for (const auto& [user, region] : std::map<str, str>{{"alice", "eu"}, {"bob", "us"}, {"carol", "eu"}})
                writer.send("user-regions", user, region, t0);
            writer.flush();
            std::this_thread::sleep_for(500ms);  // the table is read before the views arrive
            std::int64_t ts = t0 + 1;
            for (const char* user : {"alice", "bob", "alice", "carol", "dave", "bob", "alice"})
                writer.send("page-views", str(user), str("/home"), ts++);
            writer.flush();
        }
        const bool ok = examples::read_expected<str, std::int64_t>(app, "views-per-region", {{"eu", 4}, {"us", 2}},
                                                                   "page_views_by_region");
        return app.close(30s) && ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "page_views_by_region: " << e.what() << "\n";
        return 1;
    }
}
