// Where kstreams' log lines go: one sink for the library's own lines and librdkafka's, with a level
// (stderr and the KSTREAMS_LOG environment variable's level, warn unless set, by default).
#pragma once

#include <functional>
#include <string_view>

namespace kstreams {

enum class log_level { error = 0, warn = 1, info = 2, debug = 3 };

/// Told each line at or above the level: from any thread, one call at a time.
using log_sink = std::function<void(log_level level, std::string_view message)>;

/// Replaces the sink (an empty function: stderr again). Process-wide, as librdkafka's own logging
/// goes through it too (lines of librdkafka's clients start with "librdkafka").
void set_log_sink(log_sink sink);
/// Lines below `level` are not formatted nor passed on. librdkafka's clients log what their own
/// `log_level` setting lets through (syslog levels; streams_config::kafka["log_level"]).
void set_log_level(log_level level);
log_level current_log_level();

}  // namespace kstreams
