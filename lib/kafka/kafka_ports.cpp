#include "lib/kafka/kafka_ports.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <tuple>

#include <boost/asio/post.hpp>

#include <kstreams/error.hpp>

#include "lib/core/log.hpp"
#include "lib/core/wall_clock.hpp"
#include "lib/kafka/fetch_queue.hpp"

namespace kstreams::kafka {

namespace {

/// The offsets to commit as librdkafka's list, with their metadata (which librdkafka frees).
tpl_ptr offset_list(std::span<const d::partition_offset> offsets) {
    tpl_ptr list = make_tpl(static_cast<int>(offsets.size()));
    for (const auto& o : offsets) {
        rd_kafka_topic_partition_t* p = rd_kafka_topic_partition_list_add(list.get(), o.tp->topic.c_str(), o.tp->partition);
        p->offset = o.offset;
        if (!o.metadata.empty()) {
            p->metadata = std::malloc(o.metadata.size());
            if (!p->metadata) throw std::bad_alloc();
            std::memcpy(p->metadata, o.metadata.data(), o.metadata.size());
            p->metadata_size = o.metadata.size();
        }
    }
    return list;
}

}  // namespace

d::fetched_record to_fetched(rd_kafka_message_t* m) {
    d::fetched_record r;
    r.key = message_key(m);
    r.value = message_value(m);
    r.offset = m->offset;
    r.timestamp = message_timestamp(m);
    r.handle = m;
    return r;
}

void check_consumer_error(const rd_kafka_message_t* m, const std::string& who) {
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) return;
    const std::string what =
        m->rkt ? describe_partition(rd_kafka_topic_name(m->rkt), m->partition) + ": " : std::string();
    if (m->err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART || m->err == RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC ||
        m->err == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED || m->err == RD_KAFKA_RESP_ERR__FATAL)
        throw streams_error(who + ": consumer error: " + what + rd_kafka_message_errstr(m));
    KSTREAMS_LOG(warn, who + ": consumer: " + what + rd_kafka_message_errstr(m));
}

// ---- the group consumer -----------------------------------------------------------------------

struct kafka_consumer_port::partition {
    std::unique_ptr<fetch_queue> fetch;
    /// Records that came through the consumer queue (only if the partition's queue could not be
    /// taken); the partition is paused while they fill the buffer.
    /// `overflow` and `overflow_paused`: the loop polls into them while the task's turn takes.
    std::mutex overflow_mutex;
    std::deque<rd_kafka_message_t*> overflow;
    bool overflow_paused = false;
    bool paused = false;  ///< by the task manager (a restoring task's input)
    // The stall watch (the loop thread's): the fetch queue's next offset at the last look, and
    // since when it has not moved with nothing queued (while paused: the last look). -2 is no
    // offset, so the first look starts the clock.
    std::int64_t seen_offset = -2;
    std::chrono::steady_clock::time_point quiet_since{};
    ~partition() {
        for (auto* m : overflow) rd_kafka_message_destroy(m);
    }
};

kafka_consumer_port::kafka_consumer_port(rd_kafka_t* consumer, rd_kafka_t* producer, const d::topic_plan& plan,
                                         consumer_port_options options, kstreams::metrics& metrics)
    : consumer_(consumer), producer_(producer), plan_(plan), options_(std::move(options)), metrics_(metrics),
      purge_queue_(rd_kafka_queue_new(producer)) {}

kafka_consumer_port::~kafka_consumer_port() = default;

bool kafka_consumer_port::poll() {
    restart_stalled_fetches();
    bool any = false;
    for (int i = 0; i < 10000; ++i) {
        message_ptr m(rd_kafka_consumer_poll(consumer_, 0));
        if (!m) break;
        if (m->err) {
            check_consumer_error(m.get(), options_.name);
            continue;
        }
        auto it = partitions_.find({rd_kafka_topic_name(m->rkt), m->partition});
        if (it == partitions_.end()) continue;  // from a partition no longer assigned
        partition& p = *it->second;
        std::lock_guard lock(p.overflow_mutex);
        p.overflow.push_back(m.release());
        any = true;
        if (!p.overflow_paused && p.overflow.size() >= options_.buffered_records_per_partition) {
            set_paused(it->first, true);
            p.overflow_paused = true;
            ++metrics_.counter("partition-pauses");
        }
    }
    return any;
}

std::vector<std::int64_t> kafka_consumer_port::committed(const std::vector<d::topic_partition>& parts) {
    std::vector<std::int64_t> out;
    for (const auto& tp : parts) {
        auto it = known_committed_.find(tp);
        if (it == known_committed_.end()) break;
        out.push_back(it->second.first);
    }
    if (out.size() == parts.size()) {
        for (const auto& tp : parts) committed_metadata_[tp] = std::move(known_committed_[tp].second);
        known_committed_.clear();
        return out;
    }
    known_committed_.clear();
    std::vector<std::string> metadata;
    out = lookup_committed(parts, &metadata);
    for (std::size_t i = 0; i < parts.size() && i < metadata.size(); ++i) committed_metadata_[parts[i]] = std::move(metadata[i]);
    return out;
}

std::optional<std::string> kafka_consumer_port::committed_metadata(const d::topic_partition& tp) {
    auto it = committed_metadata_.find(tp);
    if (it == committed_metadata_.end() || it->second.empty()) return std::nullopt;
    return it->second;
}

void kafka_consumer_port::remember_committed(const std::vector<d::topic_partition>& parts,
                                             const std::vector<std::int64_t>& offsets,
                                             const std::vector<std::string>& metadata) {
    for (std::size_t i = 0; i < parts.size() && i < offsets.size(); ++i)
        known_committed_[parts[i]] = {offsets[i], i < metadata.size() ? metadata[i] : std::string()};
}

std::vector<std::int64_t> kafka_consumer_port::lookup_committed(const std::vector<d::topic_partition>& parts,
                                                                std::vector<std::string>* metadata) const {
    std::vector<std::int64_t> out(parts.size(), unknown_offset);
    if (metadata) metadata->assign(parts.size(), std::string());
    if (parts.empty()) return out;
    tpl_ptr list = make_tpl(static_cast<int>(parts.size()));
    for (const auto& tp : parts) rd_kafka_topic_partition_list_add(list.get(), tp.topic.c_str(), tp.partition);
    if (rd_kafka_committed(consumer_, list.get(), static_cast<int>(options_.timeout.count()))) return out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::int64_t o = list->elems[i].offset;
        out[i] = o >= 0 ? o : no_offset;
        if (metadata && list->elems[i].metadata && list->elems[i].metadata_size > 0)
            (*metadata)[i].assign(static_cast<const char*>(list->elems[i].metadata), list->elems[i].metadata_size);
    }
    return out;
}

void kafka_consumer_port::assign(const std::vector<d::topic_partition>& parts,
                                 const std::vector<std::int64_t>& committed) {
    tpl_ptr list = make_tpl(static_cast<int>(parts.size()));
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const auto& tp = parts[i];
        auto* e = rd_kafka_topic_partition_list_add(list.get(), tp.topic.c_str(), tp.partition);
        // A partition with no committed offset starts where its source's own reset policy says;
        // without one, where the consumer's auto.offset.reset does.
        if (i < committed.size() && committed[i] == no_offset)
            if (auto it = plan_.offset_reset_of_topic.find(tp.topic); it != plan_.offset_reset_of_topic.end())
                e->offset = it->second == offset_reset::latest ? RD_KAFKA_OFFSET_END : RD_KAFKA_OFFSET_BEGINNING;
        auto p = std::make_unique<partition>();
        p->fetch = std::make_unique<fetch_queue>(consumer_, tp.topic.c_str(), tp.partition, options_.wake_fd);
        partitions_[tp] = std::move(p);
    }
    if (rd_kafka_resp_err_t e = rd_kafka_assign(consumer_, list.get()))
        throw streams_error(options_.name + ": could not take the assigned partitions: " + rd_kafka_err2str(e));
}

void kafka_consumer_port::unassign() {
    partitions_.clear();
    rd_kafka_assign(consumer_, nullptr);
}

void kafka_consumer_port::seek(const d::topic_partition& tp, std::int64_t offset) {
    auto it = partitions_.find(tp);
    if (it == partitions_.end()) return;
    partition& p = *it->second;
    {
        std::lock_guard lock(p.overflow_mutex);
        for (auto* m : p.overflow) rd_kafka_message_destroy(m);
        p.overflow.clear();
        if (p.overflow_paused) {
            set_paused(tp, false);
            p.overflow_paused = false;
        }
    }
    std::int64_t target = offset;
    if (offset < 0) {  // nothing committed (or not known): where the source's reset policy says
        target = RD_KAFKA_OFFSET_BEGINNING;
        if (auto r = plan_.offset_reset_of_topic.find(tp.topic);
            r != plan_.offset_reset_of_topic.end() && r->second == offset_reset::latest)
            target = RD_KAFKA_OFFSET_END;
    }
    p.fetch->seek(target);
}

void kafka_consumer_port::set_paused(const d::topic_partition& tp, bool pause) {
    tpl_ptr one = make_tpl(1);
    rd_kafka_topic_partition_list_add(one.get(), tp.topic.c_str(), tp.partition);
    if (pause) rd_kafka_pause_partitions(consumer_, one.get());
    else rd_kafka_resume_partitions(consumer_, one.get());
}

void kafka_consumer_port::pause(const d::topic_partition& tp) {
    if (auto it = partitions_.find(tp); it != partitions_.end()) it->second->paused = true;
    set_paused(tp, true);
}

void kafka_consumer_port::resume(const d::topic_partition& tp) {
    if (auto it = partitions_.find(tp); it != partitions_.end()) it->second->paused = false;
    set_paused(tp, false);
}

void kafka_consumer_port::restart_stalled_fetches() {
    constexpr auto stall_after = std::chrono::seconds(30);
    const auto now = std::chrono::steady_clock::now();
    if (now < next_stall_look_) return;
    next_stall_look_ = now + std::chrono::seconds(1);
    for (auto& [tp, p] : partitions_) {
        if (!p->fetch || !p->fetch->get() || p->paused || p->overflow_paused) {
            p->quiet_since = now;
            continue;
        }
        const std::int64_t at = p->fetch->next_offset();
        if (at != p->seen_offset || rd_kafka_queue_length(p->fetch->get()) > 0) {
            p->seen_offset = at;  // it moves, or records wait for the task: not the fetcher's stall
            p->quiet_since = now;
            continue;
        }
        if (now - p->quiet_since < stall_after) continue;
        p->quiet_since = now;
        const std::optional<std::int64_t> behind = lag(tp, at);
        if (behind && *behind == 0) continue;  // caught up: quiet, not stalled
        // A pause drops nothing taken and a resume fetches from the position of the last record
        // taken; that kick also starts partitions of topics created just before the assignment.
        KSTREAMS_LOG(warn, options_.name + ": " + describe_partition(tp.topic, tp.partition) +
                               ": no record fetched for " + std::to_string(stall_after.count()) + " s although " +
                               (behind ? std::to_string(*behind) + " more are on the broker"
                                       : std::string("its end on the broker is not known yet")) +
                               "; restarting its fetch");
        ++metrics_.counter("fetch-restarts");
        set_paused(tp, true);
        set_paused(tp, false);
    }
}

std::size_t kafka_consumer_port::fetch(const d::topic_partition& tp, std::size_t max,
                                       std::vector<d::fetched_record>& out) {
    auto it = partitions_.find(tp);
    if (it == partitions_.end()) return 0;
    partition& p = *it->second;
    std::size_t n = 0;
    {
        std::lock_guard lock(p.overflow_mutex);
        while (n < max && !p.overflow.empty()) {
            out.push_back(to_fetched(p.overflow.front()));
            p.overflow.pop_front();
            ++n;
        }
        if (p.overflow_paused && p.overflow.size() < options_.buffered_records_per_partition) {
            set_paused(tp, false);
            p.overflow_paused = false;
        }
    }
    if (n >= max || !p.fetch || !p.fetch->get()) return n;
    std::array<rd_kafka_message_t*, 500> batch;
    const std::size_t room = std::min(max - n, batch.size());
    const std::size_t got = p.fetch->take(batch.data(), room);
    for (std::size_t i = 0; i < got; ++i) {
        rd_kafka_message_t* m = batch[i];
        if (m->err) {
            message_ptr owned(m);
            check_consumer_error(m, options_.name);
            continue;
        }
        out.push_back(to_fetched(m));
        ++n;
    }
    return n;
}

bool kafka_consumer_port::available(const d::topic_partition& tp) {
    auto it = partitions_.find(tp);
    if (it == partitions_.end()) return false;
    partition& p = *it->second;
    {
        std::lock_guard lock(p.overflow_mutex);
        if (!p.overflow.empty()) return true;
    }
    return p.fetch && p.fetch->get() && rd_kafka_queue_length(p.fetch->get()) > 0;
}

void kafka_consumer_port::release(const d::fetched_record& r) noexcept {
    rd_kafka_message_destroy(static_cast<rd_kafka_message_t*>(r.handle));
}

const headers* kafka_consumer_port::headers_of(const d::fetched_record& r, headers& scratch) {
    static const headers none;
    scratch = headers{};
    return decode_headers(static_cast<const rd_kafka_message_t*>(r.handle), scratch) ? &scratch : &none;
}

std::optional<std::int64_t> kafka_consumer_port::lag(const d::topic_partition& tp, std::int64_t received_up_to) {
    std::int64_t lo = RD_KAFKA_OFFSET_INVALID, hi = RD_KAFKA_OFFSET_INVALID;
    rd_kafka_get_watermark_offsets(consumer_, tp.topic.c_str(), tp.partition, &lo, &hi);
    if (hi < 0) return std::nullopt;
    std::int64_t position = received_up_to;
    if (options_.read_committed) {
        // The commit marker after a transaction's records is no record to wait for: the consumer's
        // position passes it when it reads past it.
        tpl_ptr one = make_tpl(1);
        rd_kafka_topic_partition_list_add(one.get(), tp.topic.c_str(), tp.partition);
        if (!rd_kafka_position(consumer_, one.get()) && one->elems[0].offset > position) position = one->elems[0].offset;
    }
    if (position < 0) position = lo;
    if (position < 0) return std::nullopt;
    return std::max<std::int64_t>(0, hi - position);
}

void kafka_consumer_port::add_progress(kstreams::metrics& out) {
    std::uint64_t wakeups = 0;
    for (const auto& [tp, p] : partitions_) {
        if (!p->fetch) continue;
        wakeups += p->fetch->wakeups();
        if (auto l = lag(tp, p->fetch->next_offset()))
            out.counter(std::string(metric::records_lag_prefix) + tp.topic + "." + std::to_string(tp.partition)) =
                static_cast<std::uint64_t>(*l);
    }
    out.counter("fetch-wakeups") += wakeups;
}

d::consumer_port::commit_result kafka_consumer_port::commit(
    std::span<const d::partition_offset> offsets) {
    tpl_ptr list = offset_list(offsets);
    // Asynchronously, waiting a bounded time: a synchronous commit waits for the group coordinator
    // as long as it takes, and a broker that is gone would hang the thread.
    queue_ptr replies(rd_kafka_queue_new(consumer_));
    rd_kafka_resp_err_t err = rd_kafka_commit_queue(consumer_, list.get(), replies.get(), nullptr, nullptr);
    if (!err) {
        const auto wait = std::min(options_.timeout, options_.task_timeout);
        event_ptr ev{rd_kafka_queue_poll(replies.get(), static_cast<int>(wait.count()))};
        err = ev ? rd_kafka_event_error(ev.get()) : RD_KAFKA_RESP_ERR__TIMED_OUT;
    }
    const bool unanswered = err == RD_KAFKA_RESP_ERR__TIMED_OUT || err == RD_KAFKA_RESP_ERR__TRANSPORT ||
                            err == RD_KAFKA_RESP_ERR__WAIT_COORD || err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN ||
                            err == RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT || err == RD_KAFKA_RESP_ERR_NETWORK_EXCEPTION ||
                            err == RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE ||
                            err == RD_KAFKA_RESP_ERR_NOT_COORDINATOR ||
                            err == RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS;
    if (unanswered) {
        const auto now = std::chrono::steady_clock::now();
        if (!unanswered_since_) unanswered_since_ = now;
        const auto for_ms = std::chrono::duration_cast<std::chrono::milliseconds>(now - *unanswered_since_);
        if (for_ms > options_.task_timeout)
            throw streams_error(options_.name + ": the group coordinator has not answered commits for " +
                                std::to_string(for_ms.count()) + " ms (task.timeout.ms: " +
                                std::to_string(options_.task_timeout.count()) + " ms): " + rd_kafka_err2str(err));
        KSTREAMS_LOG(warn, options_.name + ": commit: " + rd_kafka_err2str(err));
        return commit_result::unavailable;
    }
    unanswered_since_.reset();
    if (err == RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS || err == RD_KAFKA_RESP_ERR_ILLEGAL_GENERATION ||
        err == RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID || err == RD_KAFKA_RESP_ERR_FENCED_INSTANCE_ID) {
        KSTREAMS_LOG(warn, options_.name + ": commit: " + rd_kafka_err2str(err));
        return commit_result::group_moved;
    }
    if (err) throw streams_error(options_.name + ": could not commit offsets: " + rd_kafka_err2str(err));
    purge_repartition_topics(offsets);
    return commit_result::ok;
}

/// Deletes repartition records up to the committed offsets (every repartition.purge.interval.ms,
/// 30 s by default, as Kafka Streams); the results are not waited for.
void kafka_consumer_port::purge_repartition_topics(
    std::span<const d::partition_offset> committed) {
    while (event_ptr ev{rd_kafka_queue_poll(purge_queue_.get(), 0)}) {
        if (rd_kafka_event_error(ev.get()))
            KSTREAMS_LOG(debug, options_.name + ": purging repartition topics: " + rd_kafka_event_error_string(ev.get()));
    }
    if (options_.embedded || plan_.repartition_topics.empty() || d::now_ms() < next_purge_) return;
    next_purge_ = d::now_ms() + options_.purge_interval.count();
    tpl_ptr offsets = make_tpl();
    for (const auto& c : committed)
        if (plan_.repartition_topics.count(c.tp->topic))
            rd_kafka_topic_partition_list_add(offsets.get(), c.tp->topic.c_str(), c.tp->partition)->offset = c.offset;
    if (offsets->cnt == 0) return;
    rd_kafka_DeleteRecords_t* del = rd_kafka_DeleteRecords_new(offsets.get());
    rd_kafka_DeleteRecords(producer_, &del, 1, nullptr, purge_queue_.get());
    rd_kafka_DeleteRecords_destroy(del);
}

// ---- the restore consumer ---------------------------------------------------------------------

/// End-offset queries in flight on the worker, and their answers.
struct kafka_restore_reader::queries {
    struct answer {
        bool done = false;
        std::int64_t lo = 0, hi = 0;
        std::string error;
    };
    std::mutex mutex;
    std::condition_variable idle;
    int running = 0;
    std::atomic<bool> cancelled{false};
    std::map<d::topic_partition, answer> answers;
};

namespace {

/// The partition's first and end offsets. Right after a topic is created its partitions may not
/// have a leader yet: those errors are retried (each attempt up to 5 s) until `timeout`, or until
/// `cancelled`. Throws streams_error.
std::pair<std::int64_t, std::int64_t> query_watermarks(rd_kafka_t* rk, const d::topic_partition& tp,
                                                       std::chrono::milliseconds timeout,
                                                       const std::atomic<bool>* cancelled) {
    std::int64_t lo = 0, hi = 0;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    rd_kafka_resp_err_t err;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        const auto attempt = std::clamp<std::chrono::milliseconds>(left, std::chrono::milliseconds(100), std::chrono::milliseconds(5000));
        err = rd_kafka_query_watermark_offsets(rk, tp.topic.c_str(), tp.partition, &lo, &hi,
                                               static_cast<int>(attempt.count()));
        const bool retriable = err == RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION ||
                               err == RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE ||
                               err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART ||
                               err == RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION || err == RD_KAFKA_RESP_ERR__TRANSPORT ||
                               err == RD_KAFKA_RESP_ERR__TIMED_OUT;
        if (!retriable || std::chrono::steady_clock::now() > deadline || (cancelled && *cancelled)) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (err)
        throw streams_error("could not read the end offset of changelog " + describe_partition(tp.topic, tp.partition) +
                            ": " + rd_kafka_err2str(err));
    return {lo, hi};
}

}  // namespace

kafka_restore_reader::kafka_restore_reader(rd_kafka_t* consumer, std::chrono::milliseconds timeout,
                                           boost::asio::any_io_executor blocking, std::function<void()> wake)
    : consumer_(consumer), timeout_(timeout), blocking_(std::move(blocking)), wake_(std::move(wake)),
      queries_(std::make_shared<queries>()) {}

kafka_restore_reader::~kafka_restore_reader() {
    {
        // Queries still running use the consumer: wait for them (each attempt is short).
        std::unique_lock lock(queries_->mutex);
        queries_->cancelled = true;
        queries_->idle.wait(lock, [this] { return queries_->running == 0; });
    }
    if (!positions_.empty()) rd_kafka_assign(consumer_, nullptr);
}

std::optional<std::pair<std::int64_t, std::int64_t>> kafka_restore_reader::offsets(const d::topic_partition& tp) {
    if (!blocking_) return query_watermarks(consumer_, tp, timeout_, nullptr);
    std::unique_lock lock(queries_->mutex);
    auto it = queries_->answers.find(tp);
    if (it == queries_->answers.end()) {
        queries_->answers.emplace(tp, queries::answer{});
        ++queries_->running;
        boost::asio::post(blocking_, [q = queries_, rk = consumer_, tp, timeout = timeout_, wake = wake_] {
            queries::answer a;
            try {
                std::tie(a.lo, a.hi) = query_watermarks(rk, tp, timeout, &q->cancelled);
            } catch (const std::exception& e) {
                a.error = e.what();
            }
            a.done = true;
            {
                std::lock_guard lock(q->mutex);
                q->answers[tp] = std::move(a);
                --q->running;
            }
            q->idle.notify_all();
            if (wake) wake();
        });
        return std::nullopt;
    }
    if (!it->second.done) return std::nullopt;
    const queries::answer a = std::move(it->second);
    queries_->answers.erase(it);
    if (!a.error.empty()) throw streams_error(a.error);
    return std::pair<std::int64_t, std::int64_t>{a.lo, a.hi};
}

bool kafka_restore_reader::held_back(const d::topic_partition& tp) const {
    // A read_committed consumer stops at the last stable offset: the first record of a transaction
    // still open (a dead producer's, until its transaction times out). Committed records after it
    // (a later producer's) are part of the state: the end is only reached past the high watermark.
    std::int64_t lo = -1, hi = -1;
    rd_kafka_get_watermark_offsets(consumer_, tp.topic.c_str(), tp.partition, &lo, &hi);
    if (hi < 0) return false;
    tpl_ptr one = make_tpl(1);
    rd_kafka_topic_partition_list_add(one.get(), tp.topic.c_str(), tp.partition);
    if (rd_kafka_position(consumer_, one.get()) || one->elems[0].offset < 0) return false;
    return one->elems[0].offset < hi;
}

void kafka_restore_reader::add(const d::topic_partition& tp, std::int64_t from) {
    if (positions_.count(tp)) change_assignment(tp, 0, false);
    positions_[tp] = from;
    change_assignment(tp, from, true);
}

void kafka_restore_reader::remove(const d::topic_partition& tp) {
    if (positions_.erase(tp)) change_assignment(tp, 0, false);
}

// Incremental, one partition at a time: replacing the whole assignment on every change stops and
// restarts every partition still read, and librdkafka 2.0 can then stop a partition twice when
// restorations end in quick succession, which fails its assertion `rktp->rktp_started` and aborts
// the process (confluentinc/librdkafka#5573).
void kafka_restore_reader::change_assignment(const d::topic_partition& tp, std::int64_t from, bool add) {
    tpl_ptr one = make_tpl(1);
    rd_kafka_topic_partition_list_add(one.get(), tp.topic.c_str(), tp.partition)->offset =
        from < 0 ? RD_KAFKA_OFFSET_BEGINNING : from;
    rd_kafka_error_t* err =
        add ? rd_kafka_incremental_assign(consumer_, one.get()) : rd_kafka_incremental_unassign(consumer_, one.get());
    if (!err) return;
    const std::string what = rd_kafka_error_string(err);
    rd_kafka_error_destroy(err);
    throw streams_error("could not " + std::string(add ? "assign changelog partition " : "unassign changelog partition ") +
                        describe_partition(tp.topic, tp.partition) + " to the restore consumer: " + what);
}

std::int64_t kafka_restore_reader::offset_of(std::size_t i) const { return batch_.at(i)->offset; }

const headers& kafka_restore_reader::headers_of(std::size_t i, headers& scratch) const {
    static const headers none;
    return decode_headers(batch_.at(i).get(), scratch) ? scratch : none;
}

std::size_t kafka_restore_reader::read(std::size_t max, d::restore_sink& sink) {
    std::size_t n = 0;
    d::topic_partition current;
    auto apply = [&] {
        if (batch_.empty()) return;
        const std::int64_t last = batch_.back()->offset;
        positions_[current] = last + 1;
        sink.on_records(current, records_, last, this);
        records_.clear();
        batch_.clear();
    };
    while (n < max) {
        message_ptr m(rd_kafka_consumer_poll(consumer_, 0));
        if (!m) break;
        d::topic_partition tp{m->rkt ? rd_kafka_topic_name(m->rkt) : "", m->partition};
        if (m->err) {
            if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
                if (current == tp) apply();
                if (positions_.count(tp) && !held_back(tp)) sink.on_end(tp);
            } else {
                KSTREAMS_LOG(warn, std::string("restore consumer: ") + rd_kafka_message_errstr(m.get()));
            }
            continue;
        }
        if (!positions_.count(tp)) continue;  // from a partition no longer read
        if (!batch_.empty() && !(current == tp)) apply();
        current = std::move(tp);
        records_.push_back({message_key(m.get()).value_or(std::string_view()), message_value(m.get()),
                            message_timestamp(m.get())});
        batch_.push_back(std::move(m));
        ++n;
    }
    apply();
    return n;
}

// ---- the producer ------------------------------------------------------------------------------

void kafka_producer_port::flush() {
    using namespace std::chrono;
    const auto start = steady_clock::now();
    for (;;) {
        // In slices, so that a close's deadline that comes meanwhile ends the wait.
        const auto end = std::min(start + timeout_, stop_deadline_());
        const auto left = duration_cast<milliseconds>(end - steady_clock::now());
        if (collector_.try_flush(std::clamp(left, milliseconds(0), milliseconds(100)))) return;
        if (left <= milliseconds(100))
            throw streams_error("the producer could not deliver its records within " +
                                std::to_string(duration_cast<milliseconds>(steady_clock::now() - start).count()) +
                                " ms (task.timeout.ms: " + std::to_string(timeout_.count()) + " ms)");
    }
}

void kafka_producer_port::commit_transaction(std::span<const d::partition_offset> offsets) {
    tpl_ptr list = offset_list(offsets);
    const auto deadline = std::min(std::chrono::steady_clock::now() + timeout_, stop_deadline_());
    collector_.commit_transaction(list.get(), group_consumer_, deadline);
}

void kafka_producer_port::abort_transaction() {
    using namespace std::chrono;
    const auto left = duration_cast<milliseconds>(stop_deadline_() - steady_clock::now());
    collector_.abort_transaction(std::clamp(left, milliseconds(1000), milliseconds(30000)));
}

}  // namespace kstreams::kafka
