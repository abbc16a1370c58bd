// Progress of restoring stores from their changelogs (Kafka's StateRestoreListener). Called on the
// thread that restores, before the task processes records.
#pragma once

#include <cstdint>
#include <string_view>

namespace kstreams {

class state_restore_listener {
public:
    virtual ~state_restore_listener() = default;
    /// Restoration of `store` from `topic`/`partition` begins at `start_offset`; the changelog ends
    /// at `end_offset` (exclusive).
    virtual void on_restore_start(std::string_view topic, std::int32_t partition, std::string_view store,
                                  std::int64_t start_offset, std::int64_t end_offset) = 0;
    /// One batch was written to the store; `batch_end_offset` is the offset of its last record.
    virtual void on_batch_restored(std::string_view topic, std::int32_t partition, std::string_view store,
                                   std::int64_t batch_end_offset, std::int64_t records_in_batch) = 0;
    virtual void on_restore_end(std::string_view topic, std::int32_t partition, std::string_view store,
                                std::int64_t total_restored) = 0;
};

}  // namespace kstreams
