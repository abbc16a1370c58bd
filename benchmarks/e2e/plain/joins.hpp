// The loop's join tasks (table_join, stream_join): see joins.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "benchmarks/e2e/plain/task.hpp"

namespace plain {

/// Null for a pipeline that is not one of these.
std::unique_ptr<task> make_join_task(const std::string& pipeline, const task_setup& setup, std::int32_t partition);

}  // namespace plain
