// The store behind ktable::suppress (Kafka's InMemoryTimeOrderedKeyValueChangeBuffer), in bytes:
// keys ordered by the time they were first buffered, each with its prior value (the old value
// when it was first buffered), the old and new value of its latest update and that update's
// record context. Logged to its changelog on every commit in Kafka's format (version 3, header
// "v" = 3) and restored from it. Implemented in lib/state/suppress_buffer.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <kstreams/record.hpp>
#include <kstreams/state/state_store.hpp>

namespace kstreams::dsl_detail {

/// Kafka's ProcessorRecordContext as the buffer keeps it.
struct buffered_context {
    std::int64_t timestamp = 0;
    std::int64_t offset = -1;
    std::string topic;
    std::int32_t partition = -1;
    kstreams::headers hdrs;
};

/// One buffered key taken out of the buffer.
struct buffer_eviction {
    std::string_view key;
    const std::optional<std::string>& new_value;
    const std::optional<std::string>& old_value;
    const buffered_context& context;
};

class suppress_buffer : public state_store {
public:
    /// Buffers an update of `key` at `time` (its first buffer time is kept if it is buffered).
    virtual void put(std::int64_t time, std::string_view key, std::optional<std::string> new_value,
                     std::optional<std::string> old_value, buffered_context context) = 0;
    /// While `pred()` holds and the buffer is not empty, takes out the key buffered first and
    /// passes it to `emit`.
    virtual void evict_while(const std::function<bool()>& pred, const std::function<void(const buffer_eviction&)>& emit) = 0;
    /// The prior value of a buffered key: nullopt when the key is not buffered; a null prior
    /// value is an engaged optional holding nullopt.
    virtual std::optional<std::optional<std::string>> prior_value(std::string_view key) const = 0;
    virtual std::int64_t num_records() const = 0;
    virtual std::int64_t buffer_size() const = 0;
    /// The smallest buffer time, or INT64_MAX when empty.
    virtual std::int64_t min_timestamp() const = 0;
};

/// A builder of suppress buffers named `name`, logged (with these topic configs) or not.
std::shared_ptr<const store_builder> suppress_buffer_builder(std::string name, bool logging,
                                                             std::map<std::string, std::string> log_config);

}  // namespace kstreams::dsl_detail
