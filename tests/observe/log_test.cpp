// One pluggable log sink with a level: kstreams' lines and librdkafka's.
#include <doctest/doctest.h>

#include <mutex>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/log.hpp>
#include <kstreams/streams.hpp>

#include "tests/observe/observe_support.hpp"

using namespace kstreams;
using namespace std::chrono_literals;

namespace {

struct captured {
    std::mutex mutex;
    std::vector<std::pair<log_level, std::string>> lines;
    bool any(log_level level, const std::string& part) {
        std::lock_guard lock(mutex);
        for (const auto& [l, line] : lines)
            if (l == level && line.find(part) != std::string::npos) return true;
        return false;
    }
};

/// Restores stderr and the level when the test ends.
struct sink_scope {
    log_level before = current_log_level();
    ~sink_scope() {
        set_log_sink({});
        set_log_level(before);
    }
};

}  // namespace

TEST_CASE("the sink gets kstreams' lines at its level and librdkafka's through the same sink") {
    sink_scope scope;
    captured c;
    set_log_sink([&c](log_level level, std::string_view line) {
        std::lock_guard lock(c.mutex);
        c.lines.emplace_back(level, std::string(line));
    });
    set_log_level(log_level::debug);
    CHECK(current_log_level() == log_level::debug);

    streams_builder b;
    b.stream<std::string, std::string>("log-in").to("log-out");
    auto cfg = test::observe_config("log-app");
    cfg.kafka["log_level"] = "7";
    cfg.kafka["debug"] = "generic";
    {
        kafka_streams app(b.build(), cfg);
        app.start();
        REQUIRE(app.wait_until(streams_state::running, 30s));
        CHECK(app.close(30s));
    }
    CHECK(c.any(log_level::info, "stream-client log-app: state REBALANCING -> RUNNING"));
    CHECK(c.any(log_level::debug, "librdkafka "));

    // Below the level: nothing formatted nor passed on.
    set_log_level(log_level::error);
    const std::size_t before = c.lines.size();
    {
        streams_builder quiet;
        quiet.stream<std::string, std::string>("log-in").to("log-out");
        kafka_streams app(quiet.build(), test::observe_config("log-quiet"));
        app.start();
        REQUIRE(app.wait_until(streams_state::running, 30s));
        CHECK(app.close(30s));
    }
    std::lock_guard lock(c.mutex);
    for (std::size_t i = before; i < c.lines.size(); ++i) CHECK(c.lines[i].first == log_level::error);
}
