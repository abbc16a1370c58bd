// Kafka's ProcessorMetadata: named timestamps that processors commit with their task's input
// offsets and read back when the task starts again from that commit. A windowed aggregation
// emitting on window close keeps there, under its store's name, the close time up to which it has
// emitted, so that a restart does not emit those windows again (Kafka's lastEmitWindowCloseTime).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <kstreams/detail/task_context.hpp>

namespace kstreams::detail {

/// Offered by a task that commits processor metadata (the stream task; not every runner).
class processor_metadata {
public:
    virtual ~processor_metadata() = default;
    /// The value committed under `key` at the commit the task resumed from (the largest over its
    /// input partitions) or set since; nullopt if none.
    virtual std::optional<std::int64_t> processor_metadata_for_key(std::string_view key) const = 0;
    /// Sets `key`; committed with the task's next commit.
    virtual void add_processor_metadata(std::string_view key, std::int64_t value) = 0;
};

/// The processor metadata of the task behind `ctx`, or nullptr where there is none.
inline processor_metadata* processor_metadata_of(task_context& ctx) { return dynamic_cast<processor_metadata*>(&ctx); }

}  // namespace kstreams::detail
