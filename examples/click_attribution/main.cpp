// Click-through rate per ad and minute, the case the original design was written around: ad
// impressions and clicks, both keyed by user id (so co-partitioned), a click attributed to an
// impression of the same ad shown to the same user at most 5 minutes before it (a windowed
// stream-stream join); impressions and attributed clicks counted per ad in one-minute windows, and
// the two windowed tables joined into the rate. Runs on the embedded Kafka cluster: no broker
// needed. Pass a bootstrap address (with the topics impressions and clicks co-partitioned, and
// ctr-per-minute) to run it on a real cluster.
//
//   click_attribution [bootstrap.servers]
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

#include "examples/support/example_app.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

int main(int argc, char** argv) {
    streams_builder builder;
    auto impressions = builder.stream<str, str>("impressions");  // user -> ad shown
    auto clicks = builder.stream<str, str>("clicks");            // user -> ad clicked
    const auto by_ad = [](const str& /*user*/, const str& ad) { return ad; };
    const auto per_minute = time_windows::of_size_with_no_grace(1min);

    // A click counts when the same user saw the same ad in the 5 minutes before it.
    auto attributed = clicks
                          .join(impressions, [](const str& clicked, const str& shown) { return clicked == shown ? clicked : str(); },
                                join_windows::of_time_difference_with_no_grace(5min).after(0ms))
                          .filter([](const str& ad) { return !ad.empty(); });
    auto shown = impressions.group_by(by_ad).windowed_by(per_minute).count(named::as("impressions-per-minute"));
    auto clicked = attributed.group_by(by_ad).windowed_by(per_minute).count(named::as("clicks-per-minute"));
    shown
        .left_join(clicked,
                   [](std::int64_t views, const std::optional<std::int64_t>& hits) {
                       char rate[32];
                       std::snprintf(rate, sizeof rate, "%lld/%lld", static_cast<long long>(hits.value_or(0)),
                                     static_cast<long long>(views));
                       return str(rate);
                   })
        .to_stream()
        .map([](const windowed<str>& w, const str& rate) {
            return key_value<str, str>{w.key + "@" + std::to_string(w.window.start / 60'000 % 60), rate};
        })
        .to("ctr-per-minute");
    const topology t = builder.build();
    std::cout << t.describe().to_string();

    kafka_streams app(t, examples::config_for("click-attribution", argc, argv));
    try {
        if (!examples::start(app, "click_attribution")) return 1;
        const std::int64_t t0 = 1'700'000'040'000;  // on a whole minute (minute 14 of its hour)
        const std::int64_t s = 1000;
        {
            test::topic_writer writer(app.bootstrap_servers());
            writer.send("impressions", str("alice"), str("shoes"), t0);
            writer.send("impressions", str("bob"), str("shoes"), t0 + 10 * s);
            writer.send("impressions", str("carol"), str("hats"), t0 + 20 * s);
            writer.send("clicks", str("alice"), str("shoes"), t0 + 30 * s);  // attributed (30 s later)
            writer.send("clicks", str("carol"), str("shoes"), t0 + 40 * s);  // carol never saw shoes
            writer.send("impressions", str("bob"), str("hats"), t0 + 70 * s);
            writer.send("clicks", str("bob"), str("hats"), t0 + 80 * s);     // attributed, next minute
            writer.flush();
        }
        const std::map<str, str> expected{{"shoes@14", "1/2"}, {"hats@14", "0/1"}, {"hats@15", "1/1"}};
        const bool ok = examples::read_expected(app, "ctr-per-minute", expected, "click_attribution");
        return app.close(30s) && ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "click_attribution: " << e.what() << "\n";
        return 1;
    }
}
