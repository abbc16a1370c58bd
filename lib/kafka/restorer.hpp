// Replays changelog partitions into stores before their tasks process records (Kafka Streams'
// StoreChangelogReader), with a consumer of its own that is not part of the group.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <kstreams/state/restore_listener.hpp>
#include <kstreams/state/state_store.hpp>

#include "lib/kafka/rd.hpp"

namespace kstreams::kafka {

struct restore_target {
    std::string topic;
    std::int32_t partition = 0;
    std::int64_t start_offset = -1;  ///< first offset to replay; -1 = from the beginning
    const restore_callback* restore = nullptr;
    std::string store;  ///< for messages and the listener
    state_restore_listener* listener = nullptr;  ///< told of start, each batch and the end; may be null
    std::int64_t restored = 0;  ///< out: records replayed
    std::int64_t end_offset = -1;  ///< out: the changelog's end when restoration started
};

/// Replays every target up to the changelog's end offset as of the call, in batches, telling each
/// target's listener (Kafka's StateRestoreListener: start, batch restored, end; nothing for a
/// target with nothing to replay). Throws
/// streams_error naming the store and partition if it stalls for longer than `stall_timeout`.
void restore(rd_kafka_t* consumer, std::vector<restore_target>& targets, std::chrono::milliseconds stall_timeout);

}  // namespace kstreams::kafka
