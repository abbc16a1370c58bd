#include "lib/core/log.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace kstreams {

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

std::atomic<int>& threshold() {
    static std::atomic<int> level{static_cast<int>(configured_level())};
    return level;
}

struct sink_holder {
    std::mutex mutex;
    log_sink sink;
};

sink_holder& holder() {
    static sink_holder h;
    return h;
}

}  // namespace

void set_log_sink(log_sink sink) {
    std::lock_guard lock(holder().mutex);
    holder().sink = std::move(sink);
}

void set_log_level(log_level level) { threshold().store(static_cast<int>(level)); }

log_level current_log_level() { return static_cast<log_level>(threshold().load()); }

}  // namespace kstreams

namespace kstreams::detail {

bool log_enabled(log_level level) { return static_cast<int>(level) <= threshold().load(std::memory_order_relaxed); }

void log_line(log_level level, std::string_view message) {
    static constexpr const char* names[] = {"ERROR", "WARN", "INFO", "DEBUG"};
    sink_holder& h = holder();
    std::lock_guard lock(h.mutex);
    if (h.sink) {
        try {
            h.sink(level, message);
        } catch (...) {
            // A sink that throws loses its line; logging never fails the caller.
        }
        return;
    }
    std::fprintf(stderr, "kstreams %s %.*s\n", names[static_cast<int>(level)], static_cast<int>(message.size()),
                 message.data());
}

}  // namespace kstreams::detail
