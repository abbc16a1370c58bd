// The library's logging: lines go to the sink of kstreams/log.hpp (stderr by default) when their
// level is enabled (KSTREAMS_LOG: error, warn, info, debug; or set_log_level).
#pragma once

#include <string_view>

#include <kstreams/log.hpp>

namespace kstreams::detail {

using log_level = ::kstreams::log_level;

bool log_enabled(log_level level);
void log_line(log_level level, std::string_view message);

#define KSTREAMS_LOG(level, message)                                                              \
    do {                                                                                           \
        if (::kstreams::detail::log_enabled(::kstreams::detail::log_level::level))                 \
            ::kstreams::detail::log_line(::kstreams::detail::log_level::level, (message));         \
    } while (0)

}  // namespace kstreams::detail
