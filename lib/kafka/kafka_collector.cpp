#include "lib/kafka/kafka_collector.hpp"

#include <algorithm>
#include <exception>
#include <future>

#include <kstreams/error.hpp>

#include "lib/core/log.hpp"
#include "lib/kafka/helper_thread.hpp"
#include "lib/kafka/message.hpp"
#include "lib/runtime/ports.hpp"

namespace kstreams::kafka {

namespace {

/// A delivery failure that dooms the open transaction: the records since the last commit are
/// void, the tasks go back to it (task_migrated_error), whatever the production error policy.
bool dooms_transaction(rd_kafka_resp_err_t err) {
    switch (err) {
        case RD_KAFKA_RESP_ERR__FENCED:
        case RD_KAFKA_RESP_ERR_PRODUCER_FENCED:
        case RD_KAFKA_RESP_ERR_INVALID_PRODUCER_EPOCH:
        case RD_KAFKA_RESP_ERR_INVALID_PRODUCER_ID_MAPPING:
        case RD_KAFKA_RESP_ERR_UNKNOWN_PRODUCER_ID:
        case RD_KAFKA_RESP_ERR_OUT_OF_ORDER_SEQUENCE_NUMBER:
        case RD_KAFKA_RESP_ERR_TRANSACTION_COORDINATOR_FENCED:
        case RD_KAFKA_RESP_ERR_INVALID_TXN_STATE:
        case RD_KAFKA_RESP_ERR__STATE:
        case RD_KAFKA_RESP_ERR__FATAL:
        case RD_KAFKA_RESP_ERR__MSG_TIMED_OUT:
        case RD_KAFKA_RESP_ERR__TIMED_OUT:
            return true;
        default:
            return false;
    }
}

int remaining_ms(std::chrono::steady_clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    return static_cast<int>(std::clamp<std::int64_t>(left, 0, 30000));
}

}  // namespace

kafka_collector::kafka_collector(std::map<std::string, std::string> settings, production_error_policy policy,
                                 kstreams::metrics& metrics,
                                 std::map<std::string, std::int32_t, std::less<>> partition_counts,
                                 std::set<std::string, std::less<>> changelog_topics,
                                 std::optional<std::map<std::string, std::string>> sink_settings,
                                 std::set<std::string, std::less<>> internal_topics)
    : policy_(policy), metrics_(metrics), changelog_topics_(std::move(changelog_topics)),
      internal_topics_(std::move(internal_topics)), partition_counts_(std::move(partition_counts)) {
    auto make = [this](const std::map<std::string, std::string>& s, const char* kind) {
        conf_ptr conf = make_conf(s, kind);
        rd_kafka_conf_set_dr_msg_cb(conf.get(), &kafka_collector::on_delivery);
        rd_kafka_conf_set_opaque(conf.get(), this);
        return make_client(RD_KAFKA_PRODUCER, std::move(conf), kind);
    };
    transactional_ = settings.count("transactional.id") > 0;
    producer_ = make(settings, "producer");
    if (sink_settings) {
        sink_producer_ = make(*sink_settings, "sink producer");
        // Partition counts known at start are the source cluster's: only internal topics keep them.
        std::erase_if(partition_counts_, [this](const auto& kv) { return !internal_topics_.count(kv.first); });
    }
}

kafka_collector::~kafka_collector() = default;

rd_kafka_t* kafka_collector::route(std::string_view topic) const {
    return sink_producer_ && !internal_topics_.count(topic) ? sink_producer_.get() : producer_.get();
}

std::int32_t kafka_collector::partition_count(std::string_view topic, rd_kafka_topic_t* rkt, rd_kafka_t* rk) {
    {
        std::lock_guard lock(mutex_);
        if (auto it = partition_counts_.find(topic); it != partition_counts_.end()) return it->second;
    }
    const rd_kafka_metadata_t* md = nullptr;
    if (rd_kafka_resp_err_t err = rd_kafka_metadata(rk, 0, rkt, &md, 10000))
        throw streams_error("could not get the partition count of topic " + std::string(topic) + ": " +
                            rd_kafka_err2str(err));
    std::int32_t n = md->topic_cnt == 1 && !md->topics[0].err ? md->topics[0].partition_cnt : 0;
    rd_kafka_metadata_destroy(md);
    if (n <= 0) throw streams_error("topic " + std::string(topic) + " does not exist");
    std::lock_guard lock(mutex_);
    partition_counts_.emplace(std::string(topic), n);
    return n;
}

void kafka_collector::on_delivery(rd_kafka_t*, const rd_kafka_message_t* msg, void* opaque) {
    static_cast<kafka_collector*>(opaque)->delivered(msg);
}

// Runs inside rd_kafka_poll / rd_kafka_flush, which are called with mutex_ held.
void kafka_collector::delivered(const rd_kafka_message_t* msg) {
    if (msg->err && transactional_) {
        // Purged by an abort: expected, the records are produced again.
        if (msg->err == RD_KAFKA_RESP_ERR__PURGE_QUEUE || msg->err == RD_KAFKA_RESP_ERR__PURGE_INFLIGHT) return;
        if (dooms_transaction(msg->err) || rd_kafka_fatal_error(producer_.get(), nullptr, 0)) {
            if (transaction_failure_.empty())
                transaction_failure_ = std::string("could not write a record to ") +
                                       describe_partition(rd_kafka_topic_name(msg->rkt), msg->partition) +
                                       " in the transaction: " + rd_kafka_err2str(msg->err);
            return;
        }
    }
    if (msg->err) {
        const std::string what = std::string("could not write a record to ") +
                                 describe_partition(rd_kafka_topic_name(msg->rkt), msg->partition) + ": " +
                                 rd_kafka_err2str(msg->err);
        bool let_go;
        const char* by;
        if (handler_) {
            const failed_record record{rd_kafka_topic_name(msg->rkt), msg->partition, message_key(msg),
                                       message_value(msg), message_timestamp(msg)};
            let_go = handle_production_error(record, what, {});
            by = "production.exception.handler: continue";
        } else {
            let_go = policy_ != production_error_policy::fail;
            by = "log-and-continue";
        }
        if (!let_go) {
            if (failure_.empty()) failure_ = what;
            return;
        }
        ++dropped_;
        if (transactional_ && continued_in_transaction_.empty()) continued_in_transaction_ = what;
        KSTREAMS_LOG(warn, what + "; dropped (" + by + ")");
        return;
    }
    ++acknowledged_;
    // Only changelog offsets are needed (for checkpoints); the name lookup is skipped otherwise.
    if (changelog_topics_.empty()) return;
    // Reports come in runs of one partition's batch: the partition of the last one is looked up
    // again only when the run ends (a changelog record per store write reports here).
    const std::string_view name = rd_kafka_topic_name(msg->rkt);
    if (msg->partition != last_reported_.partition || name != last_reported_.topic) {
        last_reported_.topic.assign(name);
        last_reported_.partition = msg->partition;
        last_reported_.offset =
            changelog_topics_.count(name) ? &changelog_offsets_[{std::string(name), msg->partition}] : nullptr;
    }
    if (last_reported_.offset && msg->offset > *last_reported_.offset) *last_reported_.offset = msg->offset;
}

bool kafka_collector::handle_production_error(const failed_record& record, const std::string& what,
                                              std::string_view sink) {
    error_handler_context ctx;
    ctx.processor_node_id = sink;
    ctx.timestamp = record.timestamp;
    // No source raw bytes: as Kafka's, they are released once a sink's record is serialized.
    handler_response response;
    try {
        response = handler_(ctx, record, std::make_exception_ptr(streams_error(what)));
    } catch (const std::exception& e) {
        KSTREAMS_LOG(error, what + "; fatal user code error in the production exception handler: " + e.what());
        return false;
    }
    for (auto& r : response.dead_letter_queue_records)
        if (r.topic == record.topic) KSTREAMS_LOG(error, what + "; not sent again to the dead-letter queue it failed to reach");
        else dead_letters_.push_back(std::move(r));
    // librdkafka already retried the send (message.send.max.retries): retry is not offered again.
    return response.result == handler_result::resume;
}

void kafka_collector::send_dead_letters() {
    std::vector<dead_letter_record> letters;
    {
        std::lock_guard lock(mutex_);
        letters.swap(dead_letters_);
    }
    for (auto& r : letters) {
        rd_kafka_t* rk = route(r.topic);
        rd_kafka_headers_t* rh = rd_kafka_headers_new(r.headers.size());
        for (const auto& h : r.headers)
            rd_kafka_header_add(rh, h.key.data(), static_cast<ssize_t>(h.key.size()), h.value ? h.value->data() : nullptr,
                                h.value ? static_cast<ssize_t>(h.value->size()) : 0);
        void* key_ptr = r.key ? r.key->data() : nullptr;
        const std::size_t key_len = r.key ? r.key->size() : 0;
        void* value_ptr = r.value ? r.value->data() : nullptr;
        const std::size_t value_len = r.value ? r.value->size() : 0;
        const char* topic = r.topic.c_str();
        const std::int64_t ts = r.timestamp < 0 ? 0 : r.timestamp;
        if (rd_kafka_resp_err_t err = rd_kafka_producev(
                rk, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(key_ptr, key_len),
                RD_KAFKA_V_VALUE(value_ptr, value_len), RD_KAFKA_V_TIMESTAMP(ts), RD_KAFKA_V_HEADERS(rh), RD_KAFKA_V_END)) {
            rd_kafka_headers_destroy(rh);
            KSTREAMS_LOG(error, "could not send a dead-letter record to " + r.topic + ": " + rd_kafka_err2str(err));
            continue;
        }
        std::lock_guard lock(mutex_);
        ++dead_letters_sent_;
    }
}

void kafka_collector::serve(rd_kafka_t* rk, int wait_ms) {
    std::lock_guard lock(mutex_);
    rd_kafka_poll(rk, wait_ms);
}

void kafka_collector::check_failed(bool count) {
    send_dead_letters();
    std::string f, doomed;
    {
        std::lock_guard lock(mutex_);
        if (count) {
            metrics_.counter(metric::records_acknowledged) = acknowledged_;
            if (dropped_) metrics_.counter(metric::dropped_production_error) += std::exchange(dropped_, 0);
            if (dead_letters_sent_)
                metrics_.counter("dead-letter-queue-records") += std::exchange(dead_letters_sent_, 0);
        }
        f = std::exchange(failure_, {});
        doomed = std::exchange(transaction_failure_, {});
    }
    if (!f.empty()) throw streams_error(f);
    if (!doomed.empty()) throw detail::task_migrated_error(doomed);
}

// ---- transactions ------------------------------------------------------------------------------

void kafka_collector::init_transactions(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        rd_kafka_error_t* e = rd_kafka_init_transactions(producer_.get(), std::max(1000, remaining_ms(deadline)));
        if (!e) return;
        const bool retriable = rd_kafka_error_is_retriable(e);
        const std::string what = rd_kafka_error_string(e);
        rd_kafka_error_destroy(e);
        if (!retriable || std::chrono::steady_clock::now() >= deadline)
            throw streams_error("could not initialize the transactional producer: " + what);
        KSTREAMS_LOG(warn, "initializing the transactional producer: " + what + "; retrying");
    }
}

void kafka_collector::begin_transaction_slow() {
    std::lock_guard lock(transaction_mutex_);
    if (in_transaction_.load(std::memory_order_relaxed)) return;
    if (rd_kafka_error_t* e = rd_kafka_begin_transaction(producer_.get())) {
        const std::string what = rd_kafka_error_string(e);
        rd_kafka_error_destroy(e);
        throw detail::task_migrated_error("could not begin a transaction: " + what);
    }
    in_transaction_.store(true, std::memory_order_release);
}

void kafka_collector::abort_quietly(std::chrono::steady_clock::time_point deadline) {
    if (rd_kafka_error_t* e = rd_kafka_abort_transaction(producer_.get(), std::max(1000, remaining_ms(deadline)))) {
        KSTREAMS_LOG(warn, std::string("aborting the transaction: ") + rd_kafka_error_string(e));
        rd_kafka_error_destroy(e);
    }
    in_transaction_.store(false, std::memory_order_release);
}

void kafka_collector::transaction_failed(rd_kafka_error_t* error, const char* what,
                                         std::chrono::steady_clock::time_point deadline) {
    const std::string reason = rd_kafka_error_string(error);
    const bool must_abort = rd_kafka_error_txn_requires_abort(error);
    const bool fatal = rd_kafka_error_is_fatal(error);
    rd_kafka_error_destroy(error);
    std::string continued;
    {
        std::lock_guard served(mutex_);
        continued = std::exchange(continued_in_transaction_, {});
    }
    if (must_abort) abort_quietly(deadline);
    in_transaction_.store(false, std::memory_order_release);
    // A record let go by the handler made the transaction abortable: processing it again would
    // fail the same way, so the thread stops (Kafka's StreamsException at the commit).
    if (!fatal && !continued.empty())
        throw streams_error(std::string("could not ") + what + ": " + reason + "; under exactly_once_v2 a record " +
                            "the production exception handler let go still aborts the transaction (" + continued +
                            ")");
    throw detail::task_migrated_error(std::string("could not ") + what + ": " + reason +
                                      (fatal ? " (the producer is fenced)" : " (the transaction is aborted)"));
}

rd_kafka_error_t* kafka_collector::send_offsets(rd_kafka_topic_partition_list_t* offsets, rd_kafka_t* consumer,
                                                std::chrono::steady_clock::time_point deadline) {
    rd_kafka_consumer_group_metadata_t* group = rd_kafka_consumer_group_metadata(consumer);
    for (;;) {
        rd_kafka_error_t* e = rd_kafka_send_offsets_to_transaction(producer_.get(), offsets, group,
                                                                   std::max(1000, remaining_ms(deadline)));
        if (e && rd_kafka_error_is_retriable(e) && std::chrono::steady_clock::now() < deadline) {
            KSTREAMS_LOG(warn, std::string("sending offsets to the transaction: ") + rd_kafka_error_string(e) +
                                   "; retrying");
            rd_kafka_error_destroy(e);
            continue;
        }
        rd_kafka_consumer_group_metadata_destroy(group);
        return e;
    }
}

void kafka_collector::commit_transaction(rd_kafka_topic_partition_list_t* offsets, rd_kafka_t* consumer,
                                         std::chrono::steady_clock::time_point deadline) {
    std::lock_guard lock(transaction_mutex_);
    const bool with_offsets = offsets && offsets->cnt > 0;
    if (!in_transaction_.load(std::memory_order_relaxed) && !with_offsets) return;
    if (!in_transaction_.load(std::memory_order_relaxed)) {
        if (rd_kafka_error_t* e = rd_kafka_begin_transaction(producer_.get()))
            transaction_failed(e, "begin a transaction", deadline);
        in_transaction_.store(true, std::memory_order_release);
    }
    // The offsets go in on a helper thread while this one waits for the records in flight: their
    // two round trips to the coordinators overlap the brokers' acknowledgements. Sent first, they
    // did not (linger.ms is 100: the records leave when the flush asks, ~20 ms each way at 4
    // partitions). A failure of either counts once both are done: an abort must not run beside
    // send_offsets (librdkafka allows one transactional call at a time).
    rd_kafka_error_t* offsets_error = nullptr;
    std::future<void> offsets_sent;
    // The job reads this frame's locals: however this function leaves, it waits for the job first.
    struct wait_for_job {
        std::future<void>& job;
        ~wait_for_job() {
            if (job.valid()) job.wait();
        }
    } waiter{offsets_sent};
    if (with_offsets) {
        if (!offsets_sender_) offsets_sender_ = std::make_unique<helper_thread>();
        offsets_sent = offsets_sender_->run([&] { offsets_error = send_offsets(offsets, consumer, deadline); });
    }
    // Every record delivered before the commit, so that a failed one is known before anything
    // commits: under the fail policy it stops the thread with nothing committed (the transaction
    // aborted, the offsets sent in it too).
    std::exception_ptr undelivered;
    for (;;) {
        rd_kafka_resp_err_t err;
        {
            std::lock_guard served(mutex_);
            err = rd_kafka_flush(producer_.get(), std::min(100, remaining_ms(deadline)));
        }
        try {
            check_failed(false);  // on the worker, while the loop runs: its poll counts
        } catch (...) {
            undelivered = std::current_exception();
            break;
        }
        if (!err) break;
        if (std::chrono::steady_clock::now() >= deadline) {
            undelivered = std::make_exception_ptr(
                streams_error(std::string("the producer could not deliver the transaction's records within ") +
                              std::to_string(task_timeout_.count()) + " ms (task.timeout.ms)"));
            break;
        }
    }
    // The offsets' failure first, as when they were sent before the flush.
    if (offsets_sent.valid()) {
        offsets_sent.get();
        if (offsets_error) transaction_failed(offsets_error, "send the consumed offsets to the transaction", deadline);
    }
    if (undelivered) {
        abort_quietly(deadline);
        std::rethrow_exception(undelivered);
    }
    for (;;) {
        rd_kafka_error_t* e = rd_kafka_commit_transaction(producer_.get(), std::max(1000, remaining_ms(deadline)));
        if (!e) break;
        if (rd_kafka_error_is_retriable(e) && std::chrono::steady_clock::now() < deadline) {
            KSTREAMS_LOG(warn, std::string("committing the transaction: ") + rd_kafka_error_string(e) + "; retrying");
            rd_kafka_error_destroy(e);
            continue;
        }
        transaction_failed(e, "commit the transaction", deadline);
    }
    in_transaction_.store(false, std::memory_order_release);
    std::lock_guard served(mutex_);
    continued_in_transaction_.clear();
}

void kafka_collector::abort_transaction(std::chrono::milliseconds timeout) {
    std::lock_guard lock(transaction_mutex_);
    if (!in_transaction_.load(std::memory_order_relaxed)) return;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        rd_kafka_error_t* e = rd_kafka_abort_transaction(producer_.get(), std::max(1000, remaining_ms(deadline)));
        if (!e) break;
        const bool retriable = rd_kafka_error_is_retriable(e);
        const std::string what = rd_kafka_error_string(e);
        rd_kafka_error_destroy(e);
        if (!retriable || std::chrono::steady_clock::now() >= deadline) {
            in_transaction_.store(false, std::memory_order_release);
            throw detail::task_migrated_error("could not abort the transaction: " + what);
        }
    }
    in_transaction_.store(false, std::memory_order_release);
    // The records the abort purged report so: expected, and not failures of the next transaction.
    std::lock_guard served(mutex_);
    while (rd_kafka_poll(producer_.get(), 0) > 0) {
    }
    transaction_failure_.clear();
    continued_in_transaction_.clear();
}

// ---- sends parked while a transaction commits ---------------------------------------------------

void kafka_collector::park_sends() {
    park_state_.store(park_state::parking, std::memory_order_release);
}

void kafka_collector::unpark_sends(std::optional<std::string> failure) {
    {
        std::lock_guard lock(park_mutex_);
        park_failure_ = failure.value_or("");
        park_state_.store(failure ? park_state::failed : park_state::direct, std::memory_order_release);
    }
    unparked_.notify_all();
}

kafka_collector::park_state kafka_collector::wait_unparked() {
    std::unique_lock lock(park_mutex_);
    unparked_.wait(lock, [this] { return park_state_.load(std::memory_order_acquire) != park_state::parking; });
    return park_state_.load(std::memory_order_acquire);
}

void kafka_collector::send_parked() {
    std::vector<kafka_task_collector*> fronts;
    {
        std::lock_guard lock(park_mutex_);
        fronts = fronts_;
    }
    for (kafka_task_collector* f : fronts) f->send_parked();
}

void kafka_collector::add_front(kafka_task_collector* front) {
    std::lock_guard lock(park_mutex_);
    fronts_.push_back(front);
}

void kafka_collector::remove_front(kafka_task_collector* front) {
    std::lock_guard lock(park_mutex_);
    std::erase(fronts_, front);
}

void kafka_collector::poll() {
    {
        std::lock_guard lock(mutex_);
        rd_kafka_poll(producer_.get(), 0);
        if (sink_producer_) rd_kafka_poll(sink_producer_.get(), 0);
    }
    check_failed();
}

bool kafka_collector::try_flush(std::chrono::milliseconds timeout) {
    rd_kafka_resp_err_t err;
    {
        std::lock_guard lock(mutex_);
        err = rd_kafka_flush(producer_.get(), static_cast<int>(timeout.count()));
        if (sink_producer_ && !err) err = rd_kafka_flush(sink_producer_.get(), static_cast<int>(timeout.count()));
    }
    check_failed();
    if (err == RD_KAFKA_RESP_ERR__TIMED_OUT) return false;
    if (err) throw streams_error(std::string("the producer could not deliver its records: ") + rd_kafka_err2str(err));
    return true;
}

void kafka_collector::flush(std::chrono::milliseconds timeout) {
    if (!try_flush(timeout))
        throw streams_error(std::string("the producer could not deliver its records within ") +
                            std::to_string(timeout.count()) + " ms");
}

std::map<std::pair<std::string, std::int32_t>, std::int64_t> kafka_collector::changelog_offsets() const {
    std::lock_guard lock(mutex_);
    return changelog_offsets_;
}

// ---- a task's front ---------------------------------------------------------------------------

kafka_task_collector::kafka_task_collector(kafka_collector& shared, kstreams::metrics& metrics)
    : shared_(shared), metrics_(metrics), produced_(metrics.counter(metric::records_produced)) {
    shared_.add_front(this);
}

kafka_task_collector::~kafka_task_collector() {
    shared_.remove_front(this);
    for (auto& [name, e] : topics_) rd_kafka_topic_destroy(e.rkt);
}

kafka_task_collector::topic_entry& kafka_task_collector::entry(std::string_view topic) {
    if (last_ && last_->name == topic) return *last_;
    auto it = topics_.find(topic);
    if (it == topics_.end()) {
        topic_entry e;
        e.name = std::string(topic);
        e.rk = shared_.route(topic);
        e.rkt = rd_kafka_topic_new(e.rk, e.name.c_str(), nullptr);
        if (!e.rkt) throw streams_error("could not open topic " + e.name + " for writing: " +
                                        rd_kafka_err2str(rd_kafka_last_error()));
        it = topics_.emplace(e.name, std::move(e)).first;
    }
    last_ = &it->second;
    return it->second;
}

void kafka_task_collector::send(std::string_view topic, std::optional<std::int32_t> partition,
                                std::optional<std::string_view> key, std::optional<std::string_view> value,
                                std::int64_t timestamp, const headers& hdrs, std::string_view sink_node) {
    topic_entry& e = entry(topic);
    // No commit in flight and nothing parked (what was, was sent: has_parked_ is cleared after).
    if (shared_.parked_state() == kafka_collector::park_state::direct && !has_parked_.load(std::memory_order_acquire)) {
        produce(e, partition, key, value, timestamp, hdrs, sink_node);
        return;
    }
    send_parking(e, partition, key, value, timestamp, hdrs, sink_node);
}

void kafka_task_collector::send_parking(topic_entry& e, std::optional<std::int32_t> partition,
                                        std::optional<std::string_view> key, std::optional<std::string_view> value,
                                        std::int64_t timestamp, const headers& hdrs, std::string_view sink_node) {
    using state = kafka_collector::park_state;
    std::unique_lock lock(parked_mutex_);
    state now = shared_.parked_state();
    // Bounded: a task that parked this much waits for the commit (its turn blocks, the others go on).
    if (now == state::parking && parked_bytes_.size() + parked_header_bytes_ >= kafka_collector::max_parked_bytes) {
        lock.unlock();
        shared_.wait_unparked();
        lock.lock();
        now = shared_.parked_state();
    }
    if (now == state::failed) {
        drop_parked();
        lock.unlock();
        std::lock_guard failure(shared_.park_mutex_);
        throw detail::task_migrated_error("the transaction committing while this task processed failed (" +
                                          shared_.park_failure_ + "); what it sent since is dropped");
    }
    if (now == state::direct) {
        send_parked_locked();
        produce(e, partition, key, value, timestamp, hdrs, sink_node);
        return;
    }
    park(e, partition, key, value, timestamp, hdrs, sink_node);
}

void kafka_task_collector::park(topic_entry& e, std::optional<std::int32_t> partition,
                                std::optional<std::string_view> key, std::optional<std::string_view> value,
                                std::int64_t timestamp, const headers& hdrs, std::string_view sink_node) {
    if (!last_sink_ || *last_sink_ != sink_node) {
        auto name = sink_names_.find(sink_node);
        if (name == sink_names_.end()) name = sink_names_.emplace(sink_node).first;
        last_sink_ = &*name;
    }
    parked_record r{&e, partition, 0, 0, -1, -1, timestamp, -1, last_sink_};
    auto copy = [this](std::optional<std::string_view> bytes, std::size_t& at, std::int64_t& size) {
        if (!bytes) return;
        at = parked_bytes_.size();
        size = static_cast<std::int64_t>(bytes->size());
        parked_bytes_.insert(parked_bytes_.end(), bytes->begin(), bytes->end());
    };
    copy(key, r.key_at, r.key_size);
    copy(value, r.value_at, r.value_size);
    if (!hdrs.empty()) {
        r.headers = static_cast<std::int32_t>(parked_headers_.size());
        parked_headers_.push_back(hdrs);
        for (const auto& h : hdrs) parked_header_bytes_ += h.key.size() + (h.value ? h.value->size() : 0);
    }
    parked_.push_back(r);
    has_parked_.store(true, std::memory_order_release);
}

void kafka_task_collector::send_parked() {
    if (!has_parked_.load(std::memory_order_acquire)) return;
    std::lock_guard lock(parked_mutex_);
    send_parked_locked();
}

void kafka_task_collector::drop_parked() {
    parked_.clear();
    parked_bytes_.clear();
    parked_headers_.clear();
    parked_header_bytes_ = 0;
    has_parked_.store(false, std::memory_order_release);
}

void kafka_task_collector::send_parked_locked() {
    if (parked_.empty()) return;
    static const headers none;
    // Sent in order; what a failed send leaves is dropped with the task (the thread fails).
    struct clear {
        kafka_task_collector& f;
        ~clear() { f.drop_parked(); }
    } cleared{*this};
    auto bytes = [this](std::size_t at, std::int64_t size) -> std::optional<std::string_view> {
        if (size < 0) return std::nullopt;
        // Empty is not null: the buffer's data() may be (nothing parked had bytes), and a null
        // pointer is what librdkafka sends as a null key or value.
        static constexpr char empty[1] = {};
        if (size == 0) return std::string_view(empty, 0);
        return std::string_view(parked_bytes_.data() + at, static_cast<std::size_t>(size));
    };
    for (const parked_record& r : parked_)
        produce(*r.entry, r.partition, bytes(r.key_at, r.key_size), bytes(r.value_at, r.value_size), r.timestamp,
                r.headers < 0 ? none : parked_headers_[static_cast<std::size_t>(r.headers)], *r.sink_node);
}

void kafka_task_collector::produce(topic_entry& e, std::optional<std::int32_t> partition,
                                   std::optional<std::string_view> key, std::optional<std::string_view> value,
                                   std::int64_t timestamp, const headers& hdrs, std::string_view sink_node) {
    const std::string_view topic = e.name;
    if (shared_.transactional()) shared_.begin_transaction();
    rd_kafka_headers_t* rh = nullptr;
    if (!hdrs.empty()) {
        rh = rd_kafka_headers_new(hdrs.size());
        for (const auto& h : hdrs)
            rd_kafka_header_add(rh, h.key.data(), static_cast<ssize_t>(h.key.size()),
                                h.value ? h.value->data() : nullptr, h.value ? static_cast<ssize_t>(h.value->size()) : 0);
    }
    // librdkafka's V_ macros do not parenthesize their arguments: pass plain variables.
    const std::int32_t part = partition ? *partition : RD_KAFKA_PARTITION_UA;
    void* key_ptr = key ? const_cast<char*>(key->data()) : nullptr;
    const std::size_t key_len = key ? key->size() : 0;
    void* value_ptr = value ? const_cast<char*>(value->data()) : nullptr;
    const std::size_t value_len = value ? value->size() : 0;
    // A negative timestamp is Kafka's "none" (a suppress buffer's changelog): librdkafka's 0
    // stamps the record with the time it is produced, as Java's producer does.
    const std::int64_t stamp = timestamp < 0 ? 0 : timestamp;
    std::optional<std::chrono::steady_clock::time_point> full_since;
    for (;;) {
        const rd_kafka_resp_err_t err = rd_kafka_producev(
            e.rk, RD_KAFKA_V_RKT(e.rkt), RD_KAFKA_V_PARTITION(part), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
            RD_KAFKA_V_KEY(key_ptr, key_len), RD_KAFKA_V_VALUE(value_ptr, value_len), RD_KAFKA_V_TIMESTAMP(stamp),
            RD_KAFKA_V_HEADERS(rh), RD_KAFKA_V_END);
        if (!err) {
            ++produced_;
            return;
        }
        if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
            // Backpressure: serve delivery reports until there is room, for up to task.timeout.ms
            // (the queue stays full while the brokers do not answer).
            const auto now = std::chrono::steady_clock::now();
            if (!full_since) full_since = now;
            if (now - *full_since > shared_.task_timeout()) {
                if (rh) rd_kafka_headers_destroy(rh);
                throw streams_error("could not send a record to topic " + std::string(topic) +
                                    ": the producer's queue stayed full for " +
                                    std::to_string(shared_.task_timeout().count()) +
                                    " ms (task.timeout.ms): the brokers do not take records");
            }
            shared_.serve(e.rk, 10);
            continue;
        }
        if (rh) rd_kafka_headers_destroy(rh);
        const std::string msg = "could not send a record to topic " + std::string(topic) +
                                (partition ? ", partition " + std::to_string(*partition) : std::string()) +
                                " (sink " + std::string(sink_node) + "): " + rd_kafka_err2str(err);
        // The transaction is in an error state (fenced, or it must abort).
        if (shared_.transactional() && (err == RD_KAFKA_RESP_ERR__STATE || err == RD_KAFKA_RESP_ERR__FATAL ||
                                        err == RD_KAFKA_RESP_ERR__FENCED))
            throw detail::task_migrated_error(msg);
        if (shared_.production_handler()) {
            bool resume;
            {
                std::lock_guard lock(shared_.mutex_);
                resume = shared_.handle_production_error({topic, partition, key, value, timestamp}, msg, sink_node);
            }
            if (!resume) throw streams_error(msg + "; the production exception handler is set to fail");
            ++metrics_.counter(metric::dropped_production_error);
            KSTREAMS_LOG(warn, msg + "; dropped (production.exception.handler: continue)");
            return;
        }
        if (shared_.policy() == production_error_policy::fail) throw streams_error(msg);
        ++metrics_.counter(metric::dropped_production_error);
        KSTREAMS_LOG(warn, msg + "; dropped (log-and-continue)");
        return;
    }
}

std::int32_t kafka_task_collector::partition_count(std::string_view topic) {
    topic_entry& e = entry(topic);
    if (e.partitions == 0) e.partitions = shared_.partition_count(topic, e.rkt, e.rk);
    return e.partitions;
}

}  // namespace kstreams::kafka
