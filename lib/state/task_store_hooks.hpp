// What a store may ask of the task that runs it beyond store_context (lib-private; the stream task
// implements both, a store asks with dynamic_cast and does without where they are absent):
// - changelog records with headers and without a timestamp of their own (Kafka's suppress buffer
//   writes a "v" header and lets the producer stamp the record);
// - the source record's topic, partition and offset, which a record cache entry keeps so that its
//   flush forwards in the context of the record that wrote it, as Kafka's cache entries keep the
//   whole record context;
// - where a changelog record being restored came from and its headers (Kafka's restore callbacks
//   get the whole ConsumerRecord; the suppress buffer reads its format version there).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <kstreams/record.hpp>
#include <kstreams/state/state_store.hpp>

namespace kstreams::state {

/// Kafka's "no timestamp": the producer stamps the record when it sends it.
inline constexpr std::int64_t no_timestamp = -1;

class changelog_with_headers {
public:
    virtual void log_change(std::string_view store_name, std::string_view key, std::optional<std::string_view> value,
                            std::int64_t timestamp, const headers& hdrs) = 0;

protected:
    ~changelog_with_headers() = default;
};

/// The raw key and value of a source record, kept for error handlers (Kafka's record context
/// keeps them in cache entries: an error while a flush forwards an entry sees its writer's).
struct raw_bytes {
    std::optional<std::string> key;
    std::optional<std::string> value;
};

/// A record's topic, partition and offset with the topic kept by the task (stable while it
/// lives); no topic = none (inside a punctuation). `raw`: its raw key and value, when the task's
/// error handlers may read them (else null).
struct stored_metadata {
    const std::string* topic = nullptr;
    std::int32_t partition = -1;
    std::int64_t offset = -1;
    std::shared_ptr<const raw_bytes> raw;
};

class record_metadata_hooks {
public:
    /// The metadata of the record being processed.
    virtual stored_metadata current_stored_metadata() = 0;
    /// Makes `m` the metadata of the record being processed (no topic: none).
    virtual void set_stored_metadata(const stored_metadata& m) = 0;

protected:
    ~record_metadata_hooks() = default;
};

/// A changelog record being restored, beyond restore_record.
struct restore_origin {
    std::string_view topic;
    std::int32_t partition = -1;
    std::int64_t offset = -1;
    const headers* hdrs = nullptr;
};

class restore_origin_hooks {
public:
    /// Of `r`, a record of the batch being restored (decoded into `scratch` if need be); nullopt
    /// when the runner does not say.
    virtual std::optional<restore_origin> restore_origin_of(const restore_record& r, headers& scratch) const = 0;

protected:
    ~restore_origin_hooks() = default;
};

}  // namespace kstreams::state
