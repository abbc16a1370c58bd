// The records a task has buffered, one queue per input partition (Kafka Streams' PartitionGroup and
// RecordQueue): the next record is the head with the lowest timestamp across the partitions, and
// a task with an empty partition waits (max.task.idle.ms) rather than run ahead of it.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <librdkafka/rdkafka.h>

#include <kstreams/detail/node.hpp>

namespace kstreams::detail {

class stream_task;

/// One input partition of a task. Owns the librdkafka messages it buffers (no copies).
class partition_queue {
public:
    partition_queue(std::string topic, std::int32_t partition, source_node* source)
        : topic_(std::move(topic)), partition_(partition), source_(source) {}
    ~partition_queue();
    partition_queue(const partition_queue&) = delete;
    partition_queue& operator=(const partition_queue&) = delete;

    const std::string& topic() const { return topic_; }
    std::int32_t partition() const { return partition_; }
    source_node* source() const { return source_; }
    std::size_t size() const { return records_.size(); }
    bool empty() const { return records_.empty(); }

    void push(rd_kafka_message_t* msg) {
        records_.push_back(msg);
        received_up_to_ = msg->offset + 1;
    }
    /// Makes sure the head has a timestamp, dropping (and counting) heads whose timestamp the
    /// extractor rejects. Returns false if the queue ran empty.
    bool ensure_head(stream_task& task);
    std::int64_t head_timestamp() const { return head_ts_; }
    rd_kafka_message_t* head() const { return records_.front(); }
    /// Removes the head after it was processed: its offset becomes committable.
    void pop_processed();

    /// Where consumption resumes (the committed offset), until records arrive.
    void set_start(std::int64_t offset) {
        if (received_up_to_ < 0) received_up_to_ = offset;
    }
    /// Next offset to commit for this partition (-1 = nothing processed since assignment).
    std::int64_t committable() const { return committable_; }
    /// Offset after the last record received from the consumer (-1 = none yet).
    std::int64_t received_up_to() const { return received_up_to_; }
    std::int64_t partition_time() const { return partition_time_; }

    bool paused = false;
    std::int64_t committed = -1;  ///< last offset committed, to skip unchanged partitions

private:
    std::string topic_;
    std::int32_t partition_;
    source_node* source_;
    std::deque<rd_kafka_message_t*> records_;
    bool head_ready_ = false;
    std::int64_t head_ts_ = -1;
    std::int64_t partition_time_ = -1;
    std::int64_t committable_ = -1;
    std::int64_t received_up_to_ = -1;
};

class partition_group {
public:
    /// Lag of an empty partition: records known to be on the broker beyond what was received;
    /// nullopt when not known yet.
    using lag_function = std::function<std::optional<std::int64_t>(const partition_queue&)>;

    partition_queue& add(std::string topic, std::int32_t partition, source_node* source);
    partition_queue* find(std::string_view topic, std::int32_t partition);
    std::vector<std::unique_ptr<partition_queue>>& queues() { return queues_; }

    /// The queue whose head is next, or nullptr if the task must wait. `idle_until` is set to the
    /// wall-clock time at which waiting for an empty partition ends (max.task.idle.ms).
    partition_queue* next(stream_task& task, std::int64_t now, std::int64_t max_idle_ms, const lag_function& lag,
                          std::optional<std::int64_t>& idle_until);

private:
    std::vector<std::unique_ptr<partition_queue>> queues_;
    std::map<const partition_queue*, std::int64_t> idle_deadline_;
};

}  // namespace kstreams::detail
