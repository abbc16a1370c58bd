#include "lib/runtime/partition_group.hpp"

#include <algorithm>

#include "lib/runtime/stream_task.hpp"

namespace kstreams::detail {

partition_queue::~partition_queue() {
    for (const auto& r : records_) owner_.release(r);
}

raw_record partition_queue::raw(const fetched_record& r, headers& hdrs) const {
    raw_record raw;
    raw.topic = tp_.topic;
    raw.partition = tp_.partition;
    raw.offset = r.offset;
    raw.timestamp = r.timestamp;
    raw.key = r.key;
    raw.value = r.value;
    raw.hdrs = owner_.headers_of(r, hdrs);
    return raw;
}

bool partition_queue::update_head(stream_task& task) {
    while (!records_.empty()) {
        const fetched_record r = records_.front();
        headers hdrs;
        std::int64_t ts = -1;
        try {
            ts = task.extract_timestamp(*source_, raw(r, hdrs), partition_time_);
        } catch (...) {
            records_.pop_front();  // the error is reported once; later records still run
            owner_.release(r);
            throw;
        }
        if (ts >= 0) {
            head_ts_ = ts;
            return true;
        }
        // Skipped (and counted by the task); its offset is still consumed.
        committable_ = std::max(committable_, r.offset + 1);
        records_.pop_front();
        owner_.release(r);
    }
    return false;
}

fetched_record partition_queue::take_head() {
    fetched_record r = records_.front();
    records_.pop_front();
    partition_time_ = std::max(partition_time_, head_ts_);
    return r;
}

partition_queue& partition_group::add(topic_partition tp, source_node* source, consumer_port& owner) {
    queues_.push_back(std::make_unique<partition_queue>(std::move(tp), source, owner));
    return *queues_.back();
}

partition_queue* partition_group::find(const topic_partition& tp) {
    for (auto& q : queues_)
        if (q->tp() == tp) return q.get();
    return nullptr;
}

bool partition_group::has_buffered() const {
    for (const auto& q : queues_)
        if (!q->empty()) return true;
    return false;
}

void partition_group::pushed(partition_queue& q, stream_task& task) {
    if (q.in_heap_ || q.empty()) return;
    if (q.update_head(task)) offer(&q);
    settle_replay(q);  // the replayed records' heads may all have been skipped
}

void partition_group::replay_until(partition_queue& q, std::int64_t offset) {
    q.replay_until_ = offset;
    if (!q.replaying_ && q.replay_pending()) {
        q.replaying_ = true;
        ++replaying_;
    }
    settle_replay(q);
}

void partition_group::settle_replay(partition_queue& q) {
    if (!q.replaying_ || q.replay_pending()) return;
    q.replaying_ = false;
    --replaying_;
}

void partition_group::offer(partition_queue* q) {
    q->in_heap_ = true;
    std::size_t k = heap_.size();
    heap_.push_back(q);
    while (k > 0) {
        const std::size_t parent = (k - 1) / 2;
        if (q->head_ts_ >= heap_[parent]->head_ts_) break;
        heap_[k] = heap_[parent];
        k = parent;
    }
    heap_[k] = q;
}

void partition_group::remove(partition_queue* q) {
    // java.util.PriorityQueue.removeAt: the last element takes q's place and sifts down, or up.
    // The caller's queue is almost always the front (the one next() chose).
    const std::size_t at =
        heap_.front() == q ? 0 : static_cast<std::size_t>(std::find(heap_.begin(), heap_.end(), q) - heap_.begin());
    q->in_heap_ = false;
    partition_queue* x = heap_.back();
    heap_.pop_back();
    const std::size_t n = heap_.size();
    if (at == n) return;
    std::size_t k = at;
    while (k < n / 2) {
        std::size_t c = 2 * k + 1;
        if (c + 1 < n && heap_[c]->head_ts_ > heap_[c + 1]->head_ts_) ++c;
        if (x->head_ts_ <= heap_[c]->head_ts_) break;
        heap_[k] = heap_[c];
        k = c;
    }
    heap_[k] = x;
    if (k != at) return;
    while (k > 0) {
        const std::size_t parent = (k - 1) / 2;
        if (x->head_ts_ >= heap_[parent]->head_ts_) break;
        heap_[k] = heap_[parent];
        k = parent;
    }
    heap_[k] = x;
}

partition_queue* partition_group::replayed_first(partition_queue* best) const {
    // Recovery by recomputation: the records processed before the commit resumed from come again
    // before any record after them, as the first time (a join's or an aggregation's state is then
    // the commit's when the first new record comes); among them, by timestamp.
    if (replaying_ == 0 || best->replayed_head()) return best;
    partition_queue* replayed = nullptr;
    for (partition_queue* q : heap_)
        if (q->replayed_head() && (!replayed || q->head_ts_ < replayed->head_ts_)) replayed = q;
    return replayed ? replayed : best;
}

partition_queue* partition_group::next(std::int64_t now, std::int64_t max_idle_ms, const lag_function& lag,
                                       std::optional<std::int64_t>& idle_until) {
    if (heap_.empty()) return nullptr;
    partition_queue* best = replayed_first(heap_.front());
    if (heap_.size() == queues_.size() || max_idle_ms < 0) {
        if (!idle_deadline_.empty()) idle_deadline_.clear();
        return best;
    }
    // Some partition is empty: process only if it has nothing on the broker either and has stayed
    // empty for max.task.idle.ms (Kafka Streams' readyToProcess).
    for (auto& q : queues_) {
        if (q->in_heap_) {
            idle_deadline_.erase(q.get());
            continue;
        }
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

fetched_record partition_group::take(partition_queue& q, stream_task& task) {
    remove(&q);
    fetched_record r = q.take_head();
    try {
        if (!q.empty() && q.update_head(task)) offer(&q);
    } catch (...) {
        settle_replay(q);
        q.owner().release(r);
        throw;
    }
    settle_replay(q);
    return r;
}

}  // namespace kstreams::detail
