// The driver's open-loop latency run (see latency.cpp).
#pragma once

#include <cstdint>
#include <string>

namespace e2e {

/// e2e_driver latency BOOTSTRAP INPUT OUTPUT PIPELINE RATE SECONDS KEYS -- COMMAND...
int latency(const std::string& bootstrap, const std::string& input, const std::string& output,
            const std::string& pipeline, double rate, double seconds, std::int64_t keys, char** command);

}  // namespace e2e
