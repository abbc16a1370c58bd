// Identity of a task: one sub-topology on one partition number.
#pragma once

#include <compare>
#include <cstdint>
#include <string>

namespace kstreams {

struct task_id {
    std::int32_t subtopology = 0;
    std::int32_t partition = 0;
    /// "0_1", as Kafka Streams prints it and names state directories.
    std::string to_string() const {
        return std::to_string(subtopology) + "_" + std::to_string(partition);
    }
    auto operator<=>(const task_id&) const = default;
};

}  // namespace kstreams
