// The records a task has buffered, one queue per input partition (Kafka Streams' PartitionGroup and
// RecordQueue): the next record is the head with the lowest timestamp across the partitions, ties
// broken as Kafka's java.util.PriorityQueue breaks them, and a task with an empty partition waits
// (max.task.idle.ms) rather than run ahead of it. Over fetched records of a consumer port: no
// librdkafka types, the same code for the Kafka runtime and the test driver.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <kstreams/detail/node.hpp>

#include "lib/runtime/ports.hpp"

namespace kstreams::detail {

class stream_task;

/// One input partition of a task. Holds the fetched records until they are processed, then gives
/// them back to their consumer port.
class partition_queue {
public:
    partition_queue(topic_partition tp, source_node* source, consumer_port& owner)
        : tp_(std::move(tp)), source_(source), owner_(owner) {}
    ~partition_queue();
    partition_queue(const partition_queue&) = delete;
    partition_queue& operator=(const partition_queue&) = delete;

    const topic_partition& tp() const { return tp_; }
    const std::string& topic() const { return tp_.topic; }
    std::int32_t partition() const { return tp_.partition; }
    source_node* source() const { return source_; }
    consumer_port& owner() const { return owner_; }
    std::size_t size() const { return records_.size(); }
    bool empty() const { return records_.empty(); }
    /// Whether the head was processed before the commit resumed from (see replay_until()).
    bool replayed_head() const { return !records_.empty() && records_.front().offset < replay_until_; }
    /// Recovery by recomputation: records before this offset were processed before the restart
    /// (and are now processed again from a held commit); -1 = none. Set through partition_group.
    std::int64_t replay_until() const { return replay_until_; }

    void push(const fetched_record& r) {
        records_.push_back(r);
        received_up_to_ = r.offset + 1;
    }
    /// The record as a task processes it (`hdrs` is the scratch space for decoded headers).
    raw_record raw(const fetched_record& r, headers& hdrs) const;
    std::int64_t head_timestamp() const { return head_ts_; }
    /// Where consumption resumes (the committed offset), until records arrive.
    void set_start(std::int64_t offset) {
        if (received_up_to_ < 0) received_up_to_ = offset;
    }
    /// A record taken from this queue was processed: its offset becomes committable.
    void processed(std::int64_t offset) { committable_ = std::max(committable_, offset + 1); }
    /// Next offset to commit for this partition (-1 = nothing processed since assignment).
    std::int64_t committable() const { return committable_; }
    /// Offset after the last record received from the consumer (-1 = none yet).
    std::int64_t received_up_to() const { return received_up_to_; }
    std::int64_t partition_time() const { return partition_time_; }
    /// The partition time committed before a restart (Kafka's, from the offset's metadata).
    void resume_partition_time(std::int64_t t) { partition_time_ = std::max(partition_time_, t); }

    bool paused = false;
    std::int64_t committed = -1;  ///< last offset committed, to skip unchanged partitions
    /// The metadata committed with it (recovery by recomputation; else empty).
    std::string committed_metadata;

private:
    friend class partition_group;
    /// Extracts the head's timestamp, dropping (and counting) heads the extractor rejects; false
    /// if the queue ran empty.
    bool update_head(stream_task& task);
    fetched_record take_head();
    /// Whether records before replay_until may still come: the next offset to take is below it.
    bool replay_pending() const {
        return (records_.empty() ? received_up_to_ : records_.front().offset) < replay_until_;
    }

    topic_partition tp_;
    source_node* source_;
    consumer_port& owner_;
    std::deque<fetched_record> records_;
    bool in_heap_ = false;
    std::int64_t head_ts_ = -1;
    std::int64_t partition_time_ = -1;
    std::int64_t committable_ = -1;
    std::int64_t received_up_to_ = -1;
    std::int64_t replay_until_ = -1;
    bool replaying_ = false;  ///< counted in partition_group::replaying_ until its replay is done
};

class partition_group {
public:
    /// Lag of an empty partition: records known to be on the broker beyond what was received;
    /// nullopt when not known yet.
    using lag_function = std::function<std::optional<std::int64_t>(const partition_queue&)>;

    partition_queue& add(topic_partition tp, source_node* source, consumer_port& owner);
    partition_queue* find(const topic_partition& tp);
    std::vector<std::unique_ptr<partition_queue>>& queues() { return queues_; }
    /// Records were pushed into `q`: a queue that was empty gets its head and joins the order.
    void pushed(partition_queue& q, stream_task& task);

    /// The queue whose head is next (replayed heads first, see replayed_first), or nullptr if the
    /// task must wait. `idle_until` is set to the
    /// wall-clock time at which waiting for an empty partition ends (max.task.idle.ms; negative
    /// never waits).
    partition_queue* next(std::int64_t now, std::int64_t max_idle_ms, const lag_function& lag,
                          std::optional<std::int64_t>& idle_until);
    /// Takes the head of the queue next() returned; the queue's next head takes its place in the
    /// order before the record is processed (as Kafka's PartitionGroup.nextRecord). The caller
    /// releases the record through its port once processed.
    fetched_record take(partition_queue& q, stream_task& task);
    /// Whether any queue holds records.
    bool has_buffered() const;
    /// Recovery by recomputation: `q`'s records before `offset` were processed before the commit
    /// the task resumed from; they come first (see next()).
    void replay_until(partition_queue& q, std::int64_t offset);
    /// Whether some queue may still give replayed records: only then does next() look past the
    /// lowest head for a replayed one (off the per-record path of every other task).
    bool replaying() const { return replaying_ > 0; }

private:
    void offer(partition_queue* q);
    void remove(partition_queue* q);
    /// `best` (the lowest head timestamp), unless another queue's head is replayed and best's is not.
    partition_queue* replayed_first(partition_queue* best) const;
    /// Stops counting `q` as replaying once it is past its replay.
    void settle_replay(partition_queue& q);

    std::vector<std::unique_ptr<partition_queue>> queues_;
    /// Non-empty queues by head timestamp, as the binary heap of java.util.PriorityQueue.
    std::vector<partition_queue*> heap_;
    std::map<const partition_queue*, std::int64_t> idle_deadline_;
    std::size_t replaying_ = 0;  ///< queues whose replay is not done
};

}  // namespace kstreams::detail
