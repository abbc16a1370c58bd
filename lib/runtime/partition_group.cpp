#include "lib/runtime/partition_group.hpp"

#include "lib/runtime/stream_task.hpp"

namespace kstreams::detail {

namespace {
raw_record to_raw(const partition_queue& q, const rd_kafka_message_t* m) {
    raw_record raw;
    raw.topic = q.topic();
    raw.partition = m->partition;
    raw.offset = m->offset;
    rd_kafka_timestamp_type_t type;
    raw.timestamp = rd_kafka_message_timestamp(m, &type);
    if (m->key) raw.key = std::string_view(static_cast<const char*>(m->key), m->key_len);
    if (m->payload) raw.value = std::string_view(static_cast<const char*>(m->payload), m->len);
    return raw;
}
}  // namespace

partition_queue::~partition_queue() {
    for (auto* m : records_) rd_kafka_message_destroy(m);
}

bool partition_queue::ensure_head(stream_task& task) {
    while (!records_.empty()) {
        if (head_ready_) return true;
        rd_kafka_message_t* m = records_.front();
        const raw_record raw = to_raw(*this, m);
        const std::int64_t ts = task.extract_timestamp(*source_, raw, partition_time_);
        if (ts >= 0) {
            head_ts_ = ts;
            head_ready_ = true;
            return true;
        }
        // Skipped (and counted by the task); its offset is still consumed.
        committable_ = m->offset + 1;
        records_.pop_front();
        rd_kafka_message_destroy(m);
    }
    return false;
}

void partition_queue::pop_processed() {
    rd_kafka_message_t* m = records_.front();
    committable_ = m->offset + 1;
    if (head_ts_ > partition_time_) partition_time_ = head_ts_;
    records_.pop_front();
    rd_kafka_message_destroy(m);
    head_ready_ = false;
}

partition_queue& partition_group::add(std::string topic, std::int32_t partition, source_node* source) {
    queues_.push_back(std::make_unique<partition_queue>(std::move(topic), partition, source));
    return *queues_.back();
}

partition_queue* partition_group::find(std::string_view topic, std::int32_t partition) {
    for (auto& q : queues_)
        if (q->partition() == partition && q->topic() == topic) return q.get();
    return nullptr;
}

partition_queue* partition_group::next(stream_task& task, std::int64_t now, std::int64_t max_idle_ms,
                                       const lag_function& lag, std::optional<std::int64_t>& idle_until) {
    partition_queue* best = nullptr;
    bool any_empty = false;
    for (auto& q : queues_) {
        if (!q->ensure_head(task)) {
            any_empty = true;
            continue;
        }
        idle_deadline_.erase(q.get());
        if (!best || q->head_timestamp() < best->head_timestamp()) best = q.get();
    }
    if (!best) return nullptr;
    if (!any_empty || max_idle_ms < 0) return best;

    // Some partition is empty: process only if it has nothing on the broker either and has stayed
    // empty for max.task.idle.ms (Kafka Streams' readyToProcess).
    for (auto& q : queues_) {
        if (!q->empty()) continue;
        const std::optional<std::int64_t> l = lag(*q);
        if (!l || *l > 0) {
            idle_deadline_.erase(q.get());
            return nullptr;  // data is (or may be) on the broker: wait for the fetch
        }
        const std::int64_t deadline = idle_deadline_.try_emplace(q.get(), now + max_idle_ms).first->second;
        if (now < deadline) {
            idle_until = idle_until ? std::min(*idle_until, deadline) : deadline;
            return nullptr;
        }
    }
    return best;
}

}  // namespace kstreams::detail
