#include "lib/kafka/fetch_queue.hpp"

#include <cstdlib>

#include "lib/core/log.hpp"

namespace kstreams::kafka {

namespace {

std::size_t config_number(rd_kafka_t* rk, const char* name, std::size_t fallback) {
    char buf[64];
    std::size_t size = sizeof buf;
    if (rd_kafka_conf_get(rd_kafka_conf(rk), name, buf, &size) != RD_KAFKA_CONF_OK) return fallback;
    const long long v = std::atoll(buf);
    return v > 0 ? static_cast<std::size_t>(v) : fallback;
}

}  // namespace

fetch_queue::fetch_queue(rd_kafka_t* consumer, const char* topic, std::int32_t partition, int wake_fd)
    : consumer_(consumer), topic_(topic), partition_(partition),
      q_(rd_kafka_queue_get_partition(consumer, topic, partition)),
      min_messages_(config_number(consumer, "queued.min.messages", 100000)),
      max_bytes_(config_number(consumer, "queued.max.messages.kbytes", 65536) * 1024) {
    if (!q_) return;
    rd_kafka_queue_forward(q_.get(), nullptr);  // sticks across reassignments (librdkafka's app forwarding)
    if (wake_fd >= 0) rd_kafka_queue_io_event_enable(q_.get(), wake_fd, "1", 1);
}

fetch_queue::~fetch_queue() {
    if (q_) rd_kafka_queue_io_event_enable(q_.get(), -1, nullptr, 0);  // the pipe may close first
}

bool fetch_queue::looks_full(std::size_t queued) const {
    if (queued >= min_messages_) return true;
    // The byte limit, judged by the average size of the records taken so far (a little early
    // rather than late: a wake-up while the fetcher still runs only costs one fetch response).
    if (taken_ == 0) return false;
    return queued * (taken_bytes_ / taken_) >= max_bytes_ / 4 * 3;
}

std::size_t fetch_queue::take(rd_kafka_message_t** out, std::size_t max) {
    if (!q_) return 0;
    const std::size_t queued = rd_kafka_queue_length(q_.get());
    if (looks_full(queued)) was_full_ = true;
    const ssize_t n = rd_kafka_consume_batch_queue(q_.get(), 0, out, max);
    if (n <= 0) {
        if (was_full_ && queued == 0 && next_offset_ >= 0) wake_fetcher();
        return 0;
    }
    std::int64_t next = -1;
    for (ssize_t i = 0; i < n; ++i) {
        const rd_kafka_message_t* m = out[i];
        if (m->err) continue;
        ++taken_;
        taken_bytes_ += m->len + m->key_len;
        next = m->offset + 1;
    }
    if (next >= 0) next_offset_.store(next, std::memory_order_relaxed);
    return static_cast<std::size_t>(n);
}

void fetch_queue::wake_fetcher() {
    was_full_ = false;
    if (seek_partition(next_offset_)) ++wakeups_;
}

void fetch_queue::seek(std::int64_t offset) {
    was_full_ = false;
    next_offset_ = offset >= 0 ? offset : -1;
    seek_partition(offset);
}

bool fetch_queue::seek_partition(std::int64_t offset) {
    tpl_ptr one = make_tpl(1);
    rd_kafka_topic_partition_list_add(one.get(), topic_.c_str(), partition_)->offset = offset;
    if (rd_kafka_error_t* err = rd_kafka_seek_partitions(consumer_, one.get(), 0)) {
        KSTREAMS_LOG(warn, describe_partition(topic_, partition_) + ": could not seek to offset " +
                               std::to_string(offset) + ": " + rd_kafka_error_string(err));
        rd_kafka_error_destroy(err);
        return false;
    }
    return true;
}

}  // namespace kstreams::kafka
