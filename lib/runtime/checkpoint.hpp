// A task's checkpoint file: per changelog partition, the offset restoration resumes from, i.e. the
// last changelog offset its persistent stores hold + 1, as Kafka Streams writes it (OffsetCheckpoint
// format, "0\n<count>\n<topic> <partition> <offset>\n...").
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>

namespace kstreams::detail {

using checkpoint_offsets = std::map<std::pair<std::string, std::int32_t>, std::int64_t>;

/// Kafka's OFFSET_DELTA_THRESHOLD_FOR_CHECKPOINT: under at-least-once a commit writes a checkpoint
/// only once the changelogs moved more than this far past the last one.
inline constexpr std::int64_t checkpoint_offset_delta = 10000;

/// Reads `<dir>/.checkpoint`; empty if there is none. A file that cannot be read as a checkpoint is
/// reported through `unreadable` (when given) and read as empty.
checkpoint_offsets read_checkpoint(const std::filesystem::path& dir, bool* unreadable = nullptr);
/// Writes atomically (a temporary file renamed over the old one).
void write_checkpoint(const std::filesystem::path& dir, const checkpoint_offsets& offsets);

}  // namespace kstreams::detail
