// Helpers of the observability tests: an embedded-cluster config, polling with a bound, reading
// one sample's value out of Prometheus text.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <thread>

#include <kstreams/streams.hpp>
#include "tests/support/process_state_dir.hpp"

namespace kstreams::test {

inline streams_config observe_config(const std::string& app) {
    streams_config c;
    c.application_id = app;
    c.bootstrap_servers = "embedded";
    c.commit_interval = std::chrono::milliseconds(200);
    c.state_dir = kstreams::test::process_state_dir("kstreams-observe-test");
    c.consumer["session.timeout.ms"] = "6000";
    c.kafka["log_level"] = "3";
    return c;
}

/// Where tests leave what they render (meson sets KSTREAMS_ARTIFACT_DIR: the build directory).
inline std::filesystem::path artifact_dir() {
    const char* d = std::getenv("KSTREAMS_ARTIFACT_DIR");
    return d ? std::filesystem::path(d) : std::filesystem::current_path();
}

/// Calls `done` every 50 ms until it is true (true) or `bound` passed (false).
template <class F>
bool poll_until(std::chrono::milliseconds bound, F done) {
    const auto until = std::chrono::steady_clock::now() + bound;
    while (!done()) {
        if (std::chrono::steady_clock::now() > until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return true;
}

/// The value of the sample written exactly as `series` (name and labels); NaN if there is none.
inline double prometheus_value(const std::string& text, const std::string& series) {
    const std::string line_start = series + " ";
    std::size_t at = 0;
    while ((at = text.find(line_start, at)) != std::string::npos) {
        if (at == 0 || text[at - 1] == '\n') {
            const std::size_t end = text.find('\n', at);
            return std::stod(text.substr(at + line_start.size(), end - at - line_start.size()));
        }
        at += line_start.size();
    }
    return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace kstreams::test
