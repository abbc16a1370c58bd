// Exceptions and error codes shared by the whole library.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <system_error>

namespace kstreams {

/// A mistake in how a topology was put together; thrown at build() and names the node.
class topology_error : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

/// Bytes that a serde could not turn into a value (a short buffer, a wrong length, ...).
class deserialization_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A failure while processing records; the message names where (topic, partition, offset, node).
class streams_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Expected runtime failures, reported as values (see result.hpp).
enum class errc {
    ok = 0,
    broker_unreachable,
    topic_missing,
    partition_count_mismatch,
    serialization_failed,
    deserialization_failed,
    store_io,
    store_corrupted,
    task_migrated,
    timed_out,
    fenced,
    invalid_config,
};

const std::error_category& kstreams_category() noexcept;

inline std::error_code make_error_code(errc e) noexcept {
    return {static_cast<int>(e), kstreams_category()};
}

}  // namespace kstreams

template <>
struct std::is_error_code_enum<kstreams::errc> : std::true_type {};
