// The wall clock in milliseconds since the epoch: the runtime's clock (task_environment::wall_clock,
// commit and punctuation deadlines, checkpoint intervals).
#pragma once

#include <chrono>
#include <cstdint>

namespace kstreams::detail {

inline std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace kstreams::detail
