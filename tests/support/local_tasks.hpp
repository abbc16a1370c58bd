// What a running instance's stream threads hold, for tests with several instances.
#pragma once

#include <cstdint>

#include <kstreams/streams.hpp>

namespace kstreams::test {

/// The partition of the one active task of an instance with one stream thread, or -1 while it
/// has none or more than one.
inline std::int32_t active_partition(const kafka_streams& app) {
    const auto threads = app.metadata_for_local_threads();
    if (threads.size() != 1 || threads[0].active_tasks.size() != 1) return -1;
    return threads[0].active_tasks[0].id.partition;
}

}  // namespace kstreams::test
