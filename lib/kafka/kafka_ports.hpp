// The task manager's ports over librdkafka: the group consumer (one fetch queue per assigned
// partition, commits, repartition purging), the restore consumer, and the thread's producer.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include <boost/asio/any_io_executor.hpp>

#include <kstreams/metrics.hpp>

#include "lib/kafka/kafka_collector.hpp"
#include "lib/kafka/message.hpp"
#include "lib/kafka/rd.hpp"
#include "lib/runtime/ports.hpp"
#include "lib/runtime/topic_plan.hpp"

namespace kstreams::kafka {

namespace d = kstreams::detail;

/// Turns a librdkafka message into a fetched record (the message is its handle).
d::fetched_record to_fetched(rd_kafka_message_t* m);
/// Throws streams_error for a consumer error that must stop the thread, logs the others.
void check_consumer_error(const rd_kafka_message_t* m, const std::string& who);

struct consumer_port_options {
    std::string name;  ///< the stream thread's, for messages
    int wake_fd = -1;  ///< librdkafka writes to it when a partition's queue becomes non-empty
    std::chrono::milliseconds timeout{60000};
    /// task.timeout.ms: commits may go unanswered this long before the thread fails.
    std::chrono::milliseconds task_timeout{300000};
    std::size_t buffered_records_per_partition = 1000;
    bool embedded = false;  ///< no DeleteRecords on the mock cluster
    /// repartition.purge.interval.ms: how often committed repartition records are deleted.
    std::chrono::milliseconds purge_interval{30000};
    /// isolation.level=read_committed (exactly-once): a transaction's marker follows its records.
    bool read_committed = false;
};

class kafka_consumer_port final : public d::consumer_port {
public:
    kafka_consumer_port(rd_kafka_t* consumer, rd_kafka_t* producer, const d::topic_plan& plan,
                        consumer_port_options options, kstreams::metrics& metrics);
    ~kafka_consumer_port() override;

    /// Serves the consumer queue (rebalance callbacks, errors, records of partitions whose own
    /// queue could not be taken) without blocking; returns whether any record came.
    bool poll();

    /// Answers from what remember_committed() was told, else as lookup_committed().
    std::vector<std::int64_t> committed(const std::vector<d::topic_partition>& parts) override;
    /// Asks the group coordinator for the committed offsets of `parts` (blocks up to the timeout;
    /// may run on another thread than the loop). unknown_offset for all if the lookup fails.
    /// `metadata` (if given) gets each partition's committed metadata ("" for none).
    std::vector<std::int64_t> lookup_committed(const std::vector<d::topic_partition>& parts,
                                               std::vector<std::string>* metadata = nullptr) const;
    /// Offsets (and metadata) looked up ahead (on a worker), for the next committed() call.
    void remember_committed(const std::vector<d::topic_partition>& parts, const std::vector<std::int64_t>& offsets,
                            const std::vector<std::string>& metadata = {});
    std::optional<std::string> committed_metadata(const d::topic_partition& tp) override;
    /// The whole assignment (the eager protocol revokes everything first); called from the
    /// rebalance callback.
    void assign(const std::vector<d::topic_partition>& parts, const std::vector<std::int64_t>& committed) override;
    void unassign() override;
    void seek(const d::topic_partition& tp, std::int64_t offset) override;
    void pause(const d::topic_partition& tp) override;
    void resume(const d::topic_partition& tp) override;
    /// Called for different partitions at once from the threads running their tasks.
    std::size_t fetch(const d::topic_partition& tp, std::size_t max, std::vector<d::fetched_record>& out) override;
    bool available(const d::topic_partition& tp) override;
    void release(const d::fetched_record& r) noexcept override;
    const headers* headers_of(const d::fetched_record& r, headers& scratch) override;
    std::optional<std::int64_t> lag(const d::topic_partition& tp, std::int64_t received_up_to) override;
    /// Adds each assigned partition's consumer lag (`records-lag.<topic>.<partition>`) and the
    /// fetcher wake-ups (`fetch-wakeups`) to `out`.
    void add_progress(kstreams::metrics& out);
    commit_result commit(std::span<const d::partition_offset> offsets) override;
    void committed_in_transaction(std::span<const d::partition_offset> offsets) override {
        purge_repartition_topics(offsets);
    }

private:
    struct partition;
    void set_paused(const d::topic_partition& tp, bool pause);
    /// Restarts the fetch of a partition that has taken no record for a while although the broker
    /// holds more (or its end is not known yet): librdkafka 2.0 can leave an assigned partition
    /// unfetched, and the task waiting on it would wait silently forever. Looks once a second.
    void restart_stalled_fetches();
    void purge_repartition_topics(std::span<const d::partition_offset> committed);

    rd_kafka_t* consumer_;
    rd_kafka_t* producer_;
    const d::topic_plan& plan_;
    consumer_port_options options_;
    kstreams::metrics& metrics_;
    std::map<d::topic_partition, std::unique_ptr<partition>> partitions_;
    std::map<d::topic_partition, std::pair<std::int64_t, std::string>> known_committed_;
    std::map<d::topic_partition, std::string> committed_metadata_;  ///< as the last committed() found it
    /// Since when commits go unanswered (none: the last one was answered).
    std::optional<std::chrono::steady_clock::time_point> unanswered_since_;
    queue_ptr purge_queue_;
    std::int64_t next_purge_ = 0;
    std::chrono::steady_clock::time_point next_stall_look_{};
};

/// Reads changelogs with a consumer of its own that is not part of the group.
class kafka_restore_reader final : public d::restore_reader, private d::restore_batch_details {
public:
    /// With a `blocking` executor, offsets() queries the end offsets there and calls `wake` when an
    /// answer is in; without, it queries them at once.
    kafka_restore_reader(rd_kafka_t* consumer, std::chrono::milliseconds timeout,
                         boost::asio::any_io_executor blocking = {}, std::function<void()> wake = {});
    ~kafka_restore_reader() override;
    std::optional<std::pair<std::int64_t, std::int64_t>> offsets(const d::topic_partition& tp) override;
    void add(const d::topic_partition& tp, std::int64_t from) override;
    void remove(const d::topic_partition& tp) override;
    std::size_t read(std::size_t max, d::restore_sink& sink) override;

private:
    struct queries;
    void change_assignment(const d::topic_partition& tp, std::int64_t from, bool add);
    // The batch's offsets and headers (restore_batch_details).
    std::int64_t offset_of(std::size_t i) const override;
    const headers& headers_of(std::size_t i, headers& scratch) const override;
    /// At an end-of-partition: whether an open transaction holds back committed records after it.
    bool held_back(const d::topic_partition& tp) const;

    rd_kafka_t* consumer_;
    std::chrono::milliseconds timeout_;
    boost::asio::any_io_executor blocking_;
    std::function<void()> wake_;
    std::shared_ptr<queries> queries_;  ///< shared with the queries running on `blocking_`
    std::map<d::topic_partition, std::int64_t> positions_;  ///< next offset of each partition read
    std::vector<message_ptr> batch_;
    std::vector<restore_record> records_;
};

/// The thread's producer as the task manager sees it: each task sends through a front of its own.
class kafka_producer_port final : public d::producer_port {
public:
    /// A flush waits up to `timeout` (task.timeout.ms), and never past `stop_deadline()` (a close's
    /// timeout, which may come while a flush waits). `group_consumer`: the consumer whose group
    /// metadata goes with the offsets of a transaction (exactly-once).
    kafka_producer_port(kafka_collector& collector, kstreams::metrics& metrics, std::chrono::milliseconds timeout,
                        std::function<std::chrono::steady_clock::time_point()> stop_deadline,
                        rd_kafka_t* group_consumer = nullptr)
        : collector_(collector), default_(collector, metrics), timeout_(timeout),
          stop_deadline_(std::move(stop_deadline)), group_consumer_(group_consumer) {}
    d::record_collector& collector() override { return default_; }
    void poll() override { collector_.poll(); }
    void flush() override;
    const d::checkpoint_offsets& changelog_offsets() override {
        acked_ = collector_.changelog_offsets();
        return acked_;
    }
    std::unique_ptr<d::record_collector> task_collector(kstreams::metrics& metrics) override {
        return std::make_unique<kafka_task_collector>(collector_, metrics);
    }
    void commit_transaction(std::span<const d::partition_offset> offsets) override;
    void abort_transaction() override;

private:
    kafka_collector& collector_;
    kafka_task_collector default_;
    std::chrono::milliseconds timeout_;
    std::function<std::chrono::steady_clock::time_point()> stop_deadline_;
    rd_kafka_t* group_consumer_;
    d::checkpoint_offsets acked_;
};

}  // namespace kstreams::kafka
