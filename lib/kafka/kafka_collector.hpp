// Where a stream thread's tasks send records: one idempotent librdkafka producer per stream thread,
// murmur2 partitioning (as the Java producer), delivery failures routed to the production error
// policy, and the offsets of changelog records kept for checkpoints.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/detail/task_context.hpp>
#include <kstreams/error_handlers.hpp>
#include <kstreams/metrics.hpp>
#include <kstreams/streams.hpp>

#include "lib/kafka/rd.hpp"

namespace kstreams::kafka {

class helper_thread;
class kafka_task_collector;

/// The producer(s) of one stream thread, shared by its tasks. The tasks send through fronts of their
/// own (kafka_task_collector) from the threads that run them; delivery reports are served under a
/// lock, by whichever thread polls.
class kafka_collector {
public:
    /// `settings`: the producer's librdkafka settings; `partition_counts`: the app's topics.
    /// `sink_settings`, if any, make a second producer for the topics that are not internal
    /// (`internal_topics`): sinks then write to another cluster than the one the app reads.
    kafka_collector(std::map<std::string, std::string> settings, production_error_policy policy,
                    kstreams::metrics& metrics, std::map<std::string, std::int32_t, std::less<>> partition_counts,
                    std::set<std::string, std::less<>> changelog_topics,
                    std::optional<std::map<std::string, std::string>> sink_settings = std::nullopt,
                    std::set<std::string, std::less<>> internal_topics = {});
    ~kafka_collector();

    /// Serves delivery reports; throws streams_error for a failed send under the `fail` policy.
    /// Updates the thread's counters (`metrics`): call it from the thread's loop only.
    void poll();
    /// Waits until every record sent was acknowledged, then as poll().
    void flush(std::chrono::milliseconds timeout);
    /// As flush(), but false instead of an error if `timeout` passed first.
    bool try_flush(std::chrono::milliseconds timeout);
    /// Last acknowledged offset of each changelog partition written by this producer (a copy).
    std::map<std::pair<std::string, std::int32_t>, std::int64_t> changelog_offsets() const;
    rd_kafka_t* handle() const { return producer_.get(); }
    /// The producer for sink topics on another cluster, or nullptr.
    rd_kafka_t* sink_handle() const { return sink_producer_.get(); }
    production_error_policy policy() const { return policy_; }
    /// production.exception.handler (error_handlers.hpp), which then decides instead of the policy.
    /// A delivery report knows no source record: the handler's context has the failed record's
    /// bytes as its raw key and value, and no topic, partition or offset.
    void set_production_handler(production_exception_handler handler) { handler_ = std::move(handler); }
    const production_exception_handler& production_handler() const { return handler_; }
    /// How long a full queue may block a send (task.timeout.ms).
    std::chrono::milliseconds task_timeout() const { return task_timeout_; }
    void set_task_timeout(std::chrono::milliseconds t) { task_timeout_ = t; }

    // ---- exactly-once (the producer has a transactional.id) ----------------------------------
    bool transactional() const { return transactional_; }
    /// Registers the transactional.id with its coordinator, fencing its earlier incarnations and
    /// aborting what they left open; retries while the cluster does not answer, up to `timeout`.
    void init_transactions(std::chrono::milliseconds timeout);
    /// Begins a transaction unless one is open (before each send; cheap when one is).
    void begin_transaction() {
        if (!in_transaction_.load(std::memory_order_acquire)) begin_transaction_slow();
    }
    /// Flushes, sends `offsets` (may be null) with the consumer's group metadata into the open
    /// transaction and commits it, retrying what librdkafka says is retriable until `deadline`.
    /// Throws task_migrated_error when it had to abort (or the producer is fenced).
    void commit_transaction(rd_kafka_topic_partition_list_t* offsets, rd_kafka_t* consumer,
                            std::chrono::steady_clock::time_point deadline);
    /// Aborts the open transaction, if any; throws task_migrated_error when the producer is fenced.
    void abort_transaction(std::chrono::milliseconds timeout);

    // ---- sends parked while a transaction commits (exactly-once) -------------------------------
    // The stream thread's tasks take turns while its transaction commits on another thread; what
    // they send meanwhile belongs to the next transaction (librdkafka refuses sends while one
    // commits, and a producer has one transaction). Each front parks it in order and sends it,
    // before its next send, once the commit returned.
    /// From now on the fronts park what they send. Call while no task sends: turns quiesced and no
    /// record in flight in an async processor (its send, outside turns, would not see it in time).
    void park_sends();
    /// The commit returned: the fronts send what they parked before anything new. With a
    /// `failure`, the commit did not: what they parked is dropped (their tasks close dirty, their
    /// input is processed again) and their sends throw task_migrated_error naming it.
    void unpark_sends(std::optional<std::string> failure = std::nullopt);
    /// Sends what fronts still hold parked (tasks that sent nothing since the commit returned);
    /// safe while tasks send (each front's lock), but call it after unpark_sends().
    void send_parked();
    /// Bytes (keys, values, headers) a front parks before its next send blocks until the commit
    /// returned.
    static constexpr std::size_t max_parked_bytes = 8 << 20;

private:
    friend class kafka_task_collector;
    enum class park_state { direct, parking, failed };
    park_state parked_state() const { return park_state_.load(std::memory_order_acquire); }
    /// Blocks until the commit returned (the state is not `parking`); the state then.
    park_state wait_unparked();
    void add_front(kafka_task_collector* front);
    void remove_front(kafka_task_collector* front);
    static void on_delivery(rd_kafka_t*, const rd_kafka_message_t* msg, void* opaque);
    void delivered(const rd_kafka_message_t* msg);
    /// Serves `rk`'s delivery reports for up to `wait` (a full queue).
    void serve(rd_kafka_t* rk, int wait_ms);
    /// Sends the dead-letter records and throws for a failed delivery. With `count`, also updates
    /// the thread's counters: the loop's to do (it reads them while a transaction commits on the
    /// worker, whose flush leaves them to the next poll).
    void check_failed(bool count = true);
    /// Asks the production handler about a failed record; true to go on. Dead-letter records are
    /// queued for the next poll (a delivery report cannot send).
    bool handle_production_error(const failed_record& record, const std::string& what, std::string_view sink);
    void send_dead_letters();
    /// The producer that writes `topic`.
    rd_kafka_t* route(std::string_view topic) const;
    std::int32_t partition_count(std::string_view topic, rd_kafka_topic_t* rkt, rd_kafka_t* rk);
    void begin_transaction_slow();
    /// Sends `offsets` with `consumer`'s group metadata into the open transaction, retrying what
    /// is retriable until `deadline`; the error it gave up on (the caller's to destroy), or null.
    rd_kafka_error_t* send_offsets(rd_kafka_topic_partition_list_t* offsets, rd_kafka_t* consumer,
                                   std::chrono::steady_clock::time_point deadline);
    /// Handles a failed transactional call: aborts if it must be, then throws task_migrated_error.
    [[noreturn]] void transaction_failed(rd_kafka_error_t* error, const char* what,
                                         std::chrono::steady_clock::time_point deadline);
    /// Aborts what is open, within what is left until `deadline` (at least a second); ignores failures.
    void abort_quietly(std::chrono::steady_clock::time_point deadline);

    production_error_policy policy_;
    std::chrono::milliseconds task_timeout_{300000};
    kstreams::metrics& metrics_;
    std::set<std::string, std::less<>> changelog_topics_;
    rk_ptr producer_;
    rk_ptr sink_producer_;
    std::set<std::string, std::less<>> internal_topics_;

    mutable std::mutex mutex_;  ///< what follows, and the delivery callbacks
    std::map<std::string, std::int32_t, std::less<>> partition_counts_;
    std::map<std::pair<std::string, std::int32_t>, std::int64_t> changelog_offsets_;
    /// The partition of the last delivery report and its slot in changelog_offsets_ (null: not a
    /// changelog): the map's nodes stay where they are and nothing is erased from it.
    struct {
        std::string topic;
        std::int32_t partition = -1;
        std::int64_t* offset = nullptr;
    } last_reported_;
    std::string failure_;
    std::uint64_t acknowledged_ = 0;   ///< records the brokers acknowledged (all topics)
    std::uint64_t dropped_ = 0;        ///< failed deliveries dropped under log-and-continue
    std::uint64_t dead_letters_sent_ = 0;  ///< not yet counted in the thread's counters
    /// A delivery failed in a way that dooms the open transaction (fenced, timed out, aborted).
    std::string transaction_failure_;
    /// A delivery failed in the open transaction and was let go (continue): the transaction must
    /// abort all the same, and its commit failing then stops the thread, as Kafka's.
    std::string continued_in_transaction_;

    bool transactional_ = false;
    std::mutex transaction_mutex_;  ///< begin, commit and abort
    std::atomic<bool> in_transaction_{false};
    /// Sends the offsets during a commit's flush (exactly-once only; created with the first).
    std::unique_ptr<helper_thread> offsets_sender_;
    production_exception_handler handler_;
    std::vector<dead_letter_record> dead_letters_;  ///< from the handler, sent at the next poll

    std::atomic<park_state> park_state_{park_state::direct};
    std::mutex park_mutex_;  ///< the fronts, the failure, and waits for the commit
    std::condition_variable unparked_;
    std::string park_failure_;
    std::vector<kafka_task_collector*> fronts_;
};

/// A task's front to its thread's producers: sends from the thread that runs the task, counting
/// records handed to the producer in the task's counters.
class kafka_task_collector final : public detail::record_collector {
public:
    kafka_task_collector(kafka_collector& shared, kstreams::metrics& metrics);
    ~kafka_task_collector() override;

    void send(std::string_view topic, std::optional<std::int32_t> partition, std::optional<std::string_view> key,
              std::optional<std::string_view> value, std::int64_t timestamp, const headers& hdrs,
              std::string_view sink_node) override;
    std::int32_t partition_count(std::string_view topic) override;
    /// Sends what this front parked, in order, from any thread: the front's lock keeps it from
    /// running with the task's own sends (an async processor's may come outside its turns).
    void send_parked();

private:
    friend class kafka_collector;
    struct topic_entry {
        std::string name;
        rd_kafka_topic_t* rkt = nullptr;
        rd_kafka_t* rk = nullptr;
        std::int32_t partitions = 0;  ///< 0 = not looked up yet
    };
    /// A record sent while the transaction committed; its bytes are copied into parked_bytes_.
    struct parked_record {
        topic_entry* entry = nullptr;
        std::optional<std::int32_t> partition;
        std::size_t key_at = 0, value_at = 0;
        std::int64_t key_size = -1, value_size = -1;  ///< -1: null
        std::int64_t timestamp = 0;
        std::int32_t headers = -1;  ///< index in parked_headers_, -1: none
        const std::string* sink_node = nullptr;  ///< in sink_names_
    };
    topic_entry& entry(std::string_view topic);
    /// A send while a transaction commits or records are parked, under the front's lock: parks
    /// the record, or sends what was parked and then it once the commit returned, or throws if
    /// the commit failed.
    void send_parking(topic_entry& e, std::optional<std::int32_t> partition, std::optional<std::string_view> key,
                      std::optional<std::string_view> value, std::int64_t timestamp, const headers& hdrs,
                      std::string_view sink_node);
    /// Appends the record to parked_ (the front's lock held).
    void park(topic_entry& e, std::optional<std::int32_t> partition, std::optional<std::string_view> key,
              std::optional<std::string_view> value, std::int64_t timestamp, const headers& hdrs,
              std::string_view sink_node);
    /// Sends parked_ in order and empties it (the front's lock held).
    void send_parked_locked();
    void drop_parked();
    /// Hands one record to librdkafka (into the open transaction, begun if none is).
    void produce(topic_entry& e, std::optional<std::int32_t> partition, std::optional<std::string_view> key,
                 std::optional<std::string_view> value, std::int64_t timestamp, const headers& hdrs,
                 std::string_view sink_node);

    kafka_collector& shared_;
    kstreams::metrics& metrics_;
    std::map<std::string, topic_entry, std::less<>> topics_;
    topic_entry* last_ = nullptr;
    std::uint64_t& produced_;
    /// What follows: the task's thread and the loop's send_parked() may both get here. A send
    /// takes it only while has_parked_ is set or the transaction commits.
    std::mutex parked_mutex_;
    /// parked_ is not empty (set and cleared under parked_mutex_; cleared once it was sent).
    std::atomic<bool> has_parked_{false};
    /// In order. The bytes go into one buffer kept between commits: no allocation per record parked.
    std::vector<parked_record> parked_;
    std::vector<char> parked_bytes_;
    std::size_t parked_header_bytes_ = 0;  ///< of parked_headers_, for the bound
    std::vector<headers> parked_headers_;
    std::set<std::string, std::less<>> sink_names_;  ///< of parked records, kept once each
    const std::string* last_sink_ = nullptr;
};

}  // namespace kstreams::kafka
