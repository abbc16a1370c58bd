// The test's control of scripts/kafka-broker (KSTREAMS_BROKER_SCRIPT, set by meson): stop the
// broker and start it again on its data (pause / resume), or make it hang (freeze / thaw).
#pragma once

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/integration/broker_fixture.hpp"

namespace kstreams::test {

/// scripts/kafka-broker `command`; its output.
inline std::string broker_control(const std::string& command) {
    const char* script = std::getenv("KSTREAMS_BROKER_SCRIPT");
    if (!script) return {};
    std::string out;
    if (FILE* p = ::popen((std::string(script) + " " + command + " 2>/dev/null").c_str(), "r")) {
        char buf[256];
        while (std::fgets(buf, sizeof buf, p)) out += buf;
        ::pclose(p);
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return out;
}

/// Whether this run's broker is the one the script controls (else the outage tests do not run).
inline bool controllable() {
    if (broker_control("status") == test::broker()) return true;
    MESSAGE("not run: the broker at KSTREAMS_BOOTSTRAP is not scripts/kafka-broker's");
    return false;
}

/// Takes the broker down for the guard's life.
struct outage {
    outage() { broker_control("pause"); }
    ~outage() { end(); }
    void end() {
        if (!over) REQUIRE(broker_control("resume") == test::broker());
        over = true;
    }
    bool over = false;
};

}  // namespace kstreams::test
