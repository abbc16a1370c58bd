#include "lib/core/log.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace kstreams::detail {

namespace {
log_level configured_level() {
    const char* env = std::getenv("KSTREAMS_LOG");
    if (!env) return log_level::warn;
    const std::string_view v(env);
    if (v == "error") return log_level::error;
    if (v == "info") return log_level::info;
    if (v == "debug") return log_level::debug;
    return log_level::warn;
}
}  // namespace

bool log_enabled(log_level level) {
    static const log_level threshold = configured_level();
    return level <= threshold;
}

void log_line(log_level level, std::string_view message) {
    static std::mutex m;
    static constexpr const char* names[] = {"ERROR", "WARN", "INFO", "DEBUG"};
    std::lock_guard lock(m);
    std::fprintf(stderr, "kstreams %s %.*s\n", names[static_cast<int>(level)], static_cast<int>(message.size()),
                 message.data());
}

}  // namespace kstreams::detail
