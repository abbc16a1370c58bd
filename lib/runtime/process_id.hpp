// The instance's process id, as Kafka Streams keeps it: a random UUID stored as
// `{"processId":"<uuid>"}` in `<state.dir>/<application.id>/kafka-streams-process-metadata`, so that
// an instance restarted on the same state directory is the same process (its transactional
// producers, `<application.id>-<process id>-<thread index>`, fence their earlier incarnations).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace kstreams::detail {

/// Whether `s` is a UUID in its usual text form (8-4-4-4-12 hex digits).
bool is_uuid(std::string_view s);

/// A fresh random (version 4) UUID in its usual text form.
std::string random_uuid();

/// The process id kept in `app_dir` (created with it if missing or unreadable); with `persist`
/// false (no persistent stores, as Kafka: nothing is written then) a fresh one.
std::string load_process_id(const std::filesystem::path& app_dir, bool persist);

}  // namespace kstreams::detail
