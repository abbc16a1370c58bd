// Minimal logging to stderr; the level comes from KSTREAMS_LOG (error, warn, info, debug).
#pragma once

#include <string_view>

namespace kstreams::detail {

enum class log_level { error = 0, warn = 1, info = 2, debug = 3 };

bool log_enabled(log_level level);
void log_line(log_level level, std::string_view message);

#define KSTREAMS_LOG(level, message)                                                              \
    do {                                                                                           \
        if (::kstreams::detail::log_enabled(::kstreams::detail::log_level::level))                 \
            ::kstreams::detail::log_line(::kstreams::detail::log_level::level, (message));         \
    } while (0)

}  // namespace kstreams::detail
