// A partition's own librdkafka fetch queue, taken off the consumer queue, and the wake-up that keeps
// librdkafka 2.0's fetcher from idling while the consumer drains it. Private to lib/.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "lib/kafka/rd.hpp"

namespace kstreams::kafka {

/// Records are taken from the queue only while the task's buffer has room, so librdkafka's prefetch
/// (queued.min.messages, queued.max.messages.kbytes) is the backpressure. Pausing the partition
/// instead would make librdkafka drop what it prefetched and fetch it again on resume.
///
/// librdkafka 2.0 stops fetching a partition whose queue reached those limits and looks at it again
/// only when its broker thread next wakes, after up to a second (2.2 made that settable as
/// fetch.queue.backoff.ms). A consumer that drains the queue faster would sleep out the rest of that
/// second. So when a queue that was full runs dry, `take` wakes the fetcher with an asynchronous
/// seek to the next offset: the queue is empty, so the seek drops nothing prefetched.
class fetch_queue {
public:
    fetch_queue(rd_kafka_t* consumer, const char* topic, std::int32_t partition, int wake_fd);
    ~fetch_queue();
    fetch_queue(const fetch_queue&) = delete;
    fetch_queue& operator=(const fetch_queue&) = delete;

    /// The queue, or null if librdkafka had none for the partition (records then come through the
    /// consumer queue).
    rd_kafka_queue_t* get() const { return q_.get(); }

    /// Takes up to `max` records without waiting; returns how many went to `out`.
    std::size_t take(rd_kafka_message_t** out, std::size_t max);

    /// The offset after the last record taken, or -1.
    std::int64_t next_offset() const { return next_offset_.load(std::memory_order_relaxed); }

    /// Fetches again from `offset` (absolute, or librdkafka's logical BEGINNING / END): records
    /// fetched past it and not taken yet are dropped (librdkafka discards them by version).
    void seek(std::int64_t offset);

    /// How many times the fetcher was woken (a metric: "fetch-wakeups").
    std::uint64_t wakeups() const { return wakeups_.load(std::memory_order_relaxed); }

private:
    bool looks_full(std::size_t queued) const;
    void wake_fetcher();
    bool seek_partition(std::int64_t offset);

    rd_kafka_t* consumer_;
    std::string topic_;
    std::int32_t partition_;
    queue_ptr q_;
    std::size_t min_messages_;       ///< queued.min.messages
    std::size_t max_bytes_;          ///< queued.max.messages.kbytes, in bytes
    std::size_t taken_ = 0;          ///< records taken, and their key and value bytes, for the
    std::size_t taken_bytes_ = 0;    ///< average record size the byte limit is judged by
    bool was_full_ = false;          ///< the queue reached a limit since the last wake-up
    // Read by the stream thread's loop (progress metrics) while the task's turn takes records.
    std::atomic<std::int64_t> next_offset_{-1};  ///< the offset after the last record taken
    std::atomic<std::uint64_t> wakeups_{0};
};

}  // namespace kstreams::kafka
