#include "lib/runtime/stream_thread.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <optional>
#include <set>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <kstreams/error.hpp>

#include "lib/core/log.hpp"
#include "lib/kafka/kafka_collector.hpp"
#include "lib/kafka/restorer.hpp"
#include "lib/runtime/checkpoint.hpp"
#include "lib/runtime/partition_group.hpp"
#include "lib/runtime/stream_task.hpp"
#include "lib/state/record_cache.hpp"

namespace kstreams::detail {

namespace asio = boost::asio;
template <class T>
using task = asio::awaitable<T>;

namespace {

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

struct active_task {
    std::unique_ptr<stream_task> task;
    partition_group group;
    /// Per changelog partition, the next offset the stores do not hold yet (what a checkpoint says).
    checkpoint_offsets changelog_offsets;
    checkpoint_offsets checkpointed;  ///< what the task's checkpoint file said when last written
};

/// A partition's own librdkafka fetch queue, taken off the consumer queue: records are taken from
/// it only while the task's buffer has room, so librdkafka's prefetch (queued.min.messages) is the
/// backpressure. Pausing the partition instead would make librdkafka drop what it prefetched and
/// fetch it again on resume.
class fetch_queue {
public:
    fetch_queue(rd_kafka_t* consumer, const char* topic, std::int32_t partition, int wake_fd)
        : q_(rd_kafka_queue_get_partition(consumer, topic, partition)) {
        if (!q_) return;
        rd_kafka_queue_forward(q_.get(), nullptr);  // sticks across reassignments (librdkafka's app forwarding)
        rd_kafka_queue_io_event_enable(q_.get(), wake_fd, "1", 1);
    }
    ~fetch_queue() {
        if (q_) rd_kafka_queue_io_event_enable(q_.get(), -1, nullptr, 0);  // the pipe may close first
    }
    fetch_queue(const fetch_queue&) = delete;
    fetch_queue& operator=(const fetch_queue&) = delete;

    rd_kafka_queue_t* get() const { return q_.get(); }

private:
    kafka::queue_ptr q_;
};

struct partition_slot {
    active_task* task = nullptr;
    partition_queue* queue = nullptr;
    std::unique_ptr<fetch_queue> fetch;
};

}  // namespace

struct stream_thread::state {
    stream_thread& self;
    app_context& ctx;
    const std::string name;
    asio::io_context ioc{1};
    std::optional<asio::steady_timer> timer;
    kstreams::metrics metrics;
    std::uint64_t& processed = metrics.counter("records-processed");
    std::uint64_t& restored = metrics.counter("records-restored");
    /// The thread's record cache (Kafka's ThreadCache), shared by the caching stores of its tasks;
    /// declared before the tasks so that it outlives their stores.
    std::unique_ptr<kstreams::state::record_cache> cache;
    task_environment env;
    std::unique_ptr<kafka::kafka_collector> collector;
    kafka::rk_ptr consumer;
    kafka::rk_ptr restore_consumer;
    kafka::queue_ptr consumer_queue;
    kafka::queue_ptr producer_queue;
    kafka::queue_ptr purge_queue;
    kafka::queue_ptr sink_queue;
    int pipe_r = -1, pipe_w = -1;
    std::map<task_id, std::unique_ptr<active_task>> tasks;
    std::map<task_id, std::unique_ptr<active_task>> suspended;  ///< revoked, kept until the next assignment
    std::map<std::string, std::vector<partition_slot>, std::less<>> slots;
    std::array<rd_kafka_message_t*, 500> fetch_batch{};
    std::exception_ptr callback_error;
    bool failed = false;
    bool armed = false;  ///< an fd wait is pending
    std::int64_t next_commit = 0;
    std::int64_t next_purge = 0;
    std::chrono::milliseconds client_timeout;

    state(stream_thread& s, app_context& c)
        : self(s), ctx(c), name(c.config.application_id + "-StreamThread-" + std::to_string(s.index_ + 1)),
          client_timeout(std::max<std::chrono::milliseconds>(c.config.startup_timeout, std::chrono::seconds(60))) {}

    ~state() {
        if (consumer_queue) rd_kafka_queue_io_event_enable(consumer_queue.get(), -1, nullptr, 0);
        if (producer_queue) rd_kafka_queue_io_event_enable(producer_queue.get(), -1, nullptr, 0);
        if (sink_queue) rd_kafka_queue_io_event_enable(sink_queue.get(), -1, nullptr, 0);
        tasks.clear();
        suspended.clear();
        slots.clear();
        consumer_queue.reset();
        producer_queue.reset();
        sink_queue.reset();
        purge_queue.reset();
        consumer.reset();
        restore_consumer.reset();
        collector.reset();
        if (pipe_w >= 0) ::close(pipe_w);
        if (pipe_r >= 0) ::close(pipe_r);
    }

    // ---- setup ------------------------------------------------------------------------------

    void setup() {
        const auto& cfg = ctx.config;
        env.application_id = cfg.application_id;
        env.wall_clock = &now_ms;
        env.metrics = &metrics;
        env.on_deserialization_error = cfg.log_and_continue_on_deserialization_error
                                           ? deserialization_policy::log_and_continue
                                           : deserialization_policy::fail;
        if (!cfg.state_dir.empty()) env.state_dir = cfg.state_dir / cfg.application_id;
        // statestore.cache.max.bytes is the application's total: each thread gets an equal share
        // (Kafka Streams divides it over the stream threads); 0 makes the stores write through.
        cache = std::make_unique<kstreams::state::record_cache>(cfg.statestore_cache_max_bytes /
                                                                static_cast<std::size_t>(cfg.num_stream_threads));
        env.stores.cache = cache.get();
        env.stores.rocksdb = ctx.rocksdb;

        auto producer_settings = ctx.producer_settings;
        producer_settings["client.id"] = name + "-producer";
        std::optional<std::map<std::string, std::string>> sink_settings = ctx.sink_producer_settings;
        if (sink_settings) (*sink_settings)["client.id"] = name + "-sink-producer";
        std::set<std::string, std::less<>> internal(ctx.plan.repartition_topics.begin(), ctx.plan.repartition_topics.end());
        internal.insert(ctx.plan.changelog_topics.begin(), ctx.plan.changelog_topics.end());
        collector = std::make_unique<kafka::kafka_collector>(producer_settings, cfg.on_production_error, metrics,
                                                             ctx.plan.partition_counts, ctx.plan.changelog_topics,
                                                             std::move(sink_settings), std::move(internal));
        env.collector = collector.get();

        auto consumer_settings = ctx.consumer_settings;
        consumer_settings["client.id"] = name + "-consumer";
        if (!cfg.group_instance_id.empty())
            consumer_settings["group.instance.id"] =
                cfg.num_stream_threads > 1 ? cfg.group_instance_id + "-" + std::to_string(self.index_ + 1)
                                           : cfg.group_instance_id;
        kafka::conf_ptr conf = kafka::make_conf(consumer_settings, "consumer");
        rd_kafka_conf_set_rebalance_cb(conf.get(), &state::rebalance_cb);
        rd_kafka_conf_set_opaque(conf.get(), this);
        consumer = kafka::make_client(RD_KAFKA_CONSUMER, std::move(conf), "consumer");
        rd_kafka_poll_set_consumer(consumer.get());

        auto restore_settings = ctx.restore_settings;
        restore_settings["client.id"] = name + "-restore-consumer";
        restore_consumer = kafka::make_client(RD_KAFKA_CONSUMER, kafka::make_conf(restore_settings, "restore consumer"),
                                              "restore consumer");

        // librdkafka writes a byte to the pipe when a queue becomes non-empty; Asio waits on it.
        int fds[2];
        if (::pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) throw streams_error("could not create a pipe for " + name);
        pipe_r = fds[0];
        pipe_w = fds[1];
        consumer_queue.reset(rd_kafka_queue_get_consumer(consumer.get()));
        rd_kafka_queue_io_event_enable(consumer_queue.get(), pipe_w, "1", 1);
        producer_queue.reset(rd_kafka_queue_get_main(collector->handle()));
        rd_kafka_queue_io_event_enable(producer_queue.get(), pipe_w, "1", 1);
        if (collector->sink_handle()) {
            sink_queue.reset(rd_kafka_queue_get_main(collector->sink_handle()));
            rd_kafka_queue_io_event_enable(sink_queue.get(), pipe_w, "1", 1);
        }
        purge_queue.reset(rd_kafka_queue_new(collector->handle()));

        kafka::tpl_ptr topics = kafka::make_tpl();
        for (const auto& [topic, sub] : ctx.plan.subtopology_of_topic)
            rd_kafka_topic_partition_list_add(topics.get(), topic.c_str(), RD_KAFKA_PARTITION_UA);
        if (rd_kafka_resp_err_t err = rd_kafka_subscribe(consumer.get(), topics.get()))
            throw streams_error(name + ": could not subscribe to the source topics: " + rd_kafka_err2str(err));
        next_commit = now_ms() + cfg.commit_interval.count();
        KSTREAMS_LOG(info, name + ": subscribed to " + std::to_string(topics->cnt) + " topics");
    }

    // ---- rebalancing ------------------------------------------------------------------------

    static void rebalance_cb(rd_kafka_t* rk, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t* parts,
                             void* opaque) {
        auto* st = static_cast<state*>(opaque);
        try {
            st->on_rebalance(err, parts);
        } catch (...) {
            if (!st->callback_error) st->callback_error = std::current_exception();
            st->failed = true;
            rd_kafka_assign(rk, nullptr);
        }
    }

    void on_rebalance(rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t* parts) {
        if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
            ctx.on_rebalance(self.index_, true);
            assign(parts);
            ctx.on_rebalance(self.index_, false);
        } else {
            ctx.on_rebalance(self.index_, true);
            const bool lost = rd_kafka_assignment_lost(consumer.get());
            if (lost) KSTREAMS_LOG(warn, name + ": partitions lost; closing tasks without committing");
            if (lost || failed) close_tasks(false);
            else suspend_tasks();
            rd_kafka_assign(consumer.get(), nullptr);
        }
    }

    void assign(rd_kafka_topic_partition_list_t* parts) {
        std::vector<active_task*> fresh;
        for (int i = 0; i < parts->cnt; ++i) {
            const auto& tp = parts->elems[i];
            auto sub_it = ctx.plan.subtopology_of_topic.find(std::string_view(tp.topic));
            if (sub_it == ctx.plan.subtopology_of_topic.end()) continue;
            const auto& sub = ctx.groups->subtopologies[sub_it->second];
            const task_id id{sub.id, tp.partition};
            auto& at = tasks[id];
            if (!at) {
                // A task suspended by the revocation before comes back as it was: no restoration.
                if (auto it = suspended.find(id); it != suspended.end()) {
                    at = std::move(it->second);
                    suspended.erase(it);
                }
            }
            if (!at) {
                at = std::make_unique<active_task>();
                at->task = std::make_unique<stream_task>(*ctx.model, *ctx.groups, sub, id, env);
                if (!env.state_dir.empty()) std::filesystem::create_directories(at->task->task_directory());
                at->task->init();
                fresh.push_back(at.get());
            }
            source_node* src = at->task->source_for(tp.topic);
            if (!src) throw streams_error(name + ": no source of task " + id.to_string() + " reads topic " + tp.topic);
            partition_queue& q = at->group.add(tp.topic, tp.partition, src);
            auto& vec = slots[tp.topic];
            if (vec.size() <= static_cast<std::size_t>(tp.partition)) vec.resize(tp.partition + 1);
            vec[tp.partition] = {at.get(), &q, std::make_unique<fetch_queue>(consumer.get(), tp.topic, tp.partition, pipe_w)};
        }
        // Where each partition resumes, for the lag estimate of empty partitions.
        if (parts->cnt > 0) {
            kafka::tpl_ptr committed(rd_kafka_topic_partition_list_copy(parts));
            if (!rd_kafka_committed(consumer.get(), committed.get(), static_cast<int>(client_timeout.count())))
                for (int i = 0; i < committed->cnt; ++i) {
                    if (committed->elems[i].offset >= 0) {
                        if (auto* q = find_queue(committed->elems[i].topic, committed->elems[i].partition))
                            q->set_start(committed->elems[i].offset);
                    } else {
                        start_by_reset_policy(parts->elems[i]);
                    }
                }
        }
        close_suspended();
        restore(fresh);
        std::string ids;
        for (const auto& [id, at] : tasks) ids += " " + id.to_string();
        KSTREAMS_LOG(info, name + ": assigned " + std::to_string(parts->cnt) + " partitions, " +
                               std::to_string(tasks.size()) + " tasks:" + ids);
        if (rd_kafka_resp_err_t e = rd_kafka_assign(consumer.get(), parts))
            throw streams_error(name + ": could not take the assigned partitions: " + rd_kafka_err2str(e));
    }

    /// A partition with no committed offset starts where its source's own reset policy says;
    /// without one, where the consumer's auto.offset.reset does.
    void start_by_reset_policy(rd_kafka_topic_partition_t& tp) const {
        auto it = ctx.plan.offset_reset_of_topic.find(std::string_view(tp.topic));
        if (it == ctx.plan.offset_reset_of_topic.end()) return;
        tp.offset = it->second == offset_reset::latest ? RD_KAFKA_OFFSET_END : RD_KAFKA_OFFSET_BEGINNING;
    }

    void restore(const std::vector<active_task*>& fresh) {
        std::vector<kafka::restore_target> targets;
        std::vector<active_task*> owners;
        for (active_task* at : fresh) {
            const bool persistent = at->task->has_persistent_stores();
            checkpoint_offsets cp;
            if (persistent && !env.state_dir.empty()) cp = read_checkpoint(at->task->task_directory());
            for (const auto& reg : at->task->changelogs()) {
                kafka::restore_target t;
                t.topic = reg.topic;
                t.partition = at->task->id().partition;
                if (reg.store->persistent())
                    if (auto it = cp.find({t.topic, t.partition}); it != cp.end()) t.start_offset = it->second;
                t.restore = &reg.restore;
                t.store = reg.store->name();
                t.listener = ctx.restore_listener.get();
                targets.push_back(std::move(t));
                owners.push_back(at);
            }
        }
        if (targets.empty()) return;
        kafka::restore(restore_consumer.get(), targets, client_timeout);
        for (std::size_t i = 0; i < targets.size(); ++i) {
            restored += static_cast<std::uint64_t>(targets[i].restored);
            if (targets[i].end_offset > 0)
                owners[i]->changelog_offsets[{targets[i].topic, targets[i].partition}] = targets[i].end_offset;
            if (targets[i].restored > 0)
                KSTREAMS_LOG(info, name + ": restored " + std::to_string(targets[i].restored) + " records of store " +
                                       targets[i].store + " from " +
                                       kafka::describe_partition(targets[i].topic, targets[i].partition));
        }
    }

    partition_queue* find_queue(std::string_view topic, std::int32_t partition) {
        auto it = slots.find(topic);
        if (it == slots.end() || static_cast<std::size_t>(partition) >= it->second.size()) return nullptr;
        return it->second[partition].queue;
    }

    // ---- commit -----------------------------------------------------------------------------

    /// At-least-once commit: flush the caches (forwarding and logging what they hold), flush the
    /// producer, commit the input offsets, then checkpoint (every commit when forced, else once
    /// enough was logged since the last checkpoint).
    void commit_all(bool force_checkpoint = false) {
        if (tasks.empty()) return;
        for (auto& [id, at] : tasks) at->task->flush();
        collector->flush(client_timeout);
        kafka::tpl_ptr offsets = kafka::make_tpl();
        std::vector<partition_queue*> committed;
        for (auto& [id, at] : tasks)
            for (auto& q : at->group.queues())
                if (q->committable() >= 0 && q->committable() != q->committed) {
                    rd_kafka_topic_partition_list_add(offsets.get(), q->topic().c_str(), q->partition())->offset =
                        q->committable();
                    committed.push_back(q.get());
                }
        if (offsets->cnt > 0) {
            const rd_kafka_resp_err_t err = rd_kafka_commit(consumer.get(), offsets.get(), 0);
            if (err == RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS || err == RD_KAFKA_RESP_ERR_ILLEGAL_GENERATION ||
                err == RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID || err == RD_KAFKA_RESP_ERR_FENCED_INSTANCE_ID) {
                KSTREAMS_LOG(warn, name + ": commit failed because the group moved on (" + rd_kafka_err2str(err) +
                                       "); the records since the last commit will be processed again");
            } else if (err) {
                throw streams_error(name + ": could not commit offsets: " + rd_kafka_err2str(err));
            } else {
                for (auto* q : committed) q->committed = q->committable();
                purge_repartition_topics(committed);
            }
        }
        write_checkpoints(force_checkpoint);
        for (auto& [id, at] : tasks) at->task->clear_commit_request();
        publish_metrics();
    }

    void write_checkpoints(bool force) {
        for (auto& [id, at] : tasks) write_checkpoint_of(id, *at, force);
    }

    /// Under at-least-once Kafka Streams writes a checkpoint on commit only once the changelogs
    /// moved this far past the last one (each checkpoint flushes the stores' memtables to disk);
    /// suspending and closing always write one.
    static constexpr std::int64_t checkpoint_delta = 10000;

    /// Records how far the task's stores hold their changelogs; for persistent stores, on disk too.
    /// As Kafka Streams' checkpoint file, the offset written is the next one to restore from (the
    /// last acknowledged changelog offset + 1).
    void write_checkpoint_of(const task_id& id, active_task& at, bool force) {
        const auto& acked = collector->changelog_offsets();
        for (const auto& reg : at.task->changelogs())
            if (auto it = acked.find({reg.topic, id.partition}); it != acked.end())
                at.changelog_offsets[it->first] = it->second + 1;
        if (env.state_dir.empty() || !at.task->has_persistent_stores()) return;
        checkpoint_offsets persistent;
        std::int64_t moved = 0;
        for (const auto& reg : at.task->changelogs())
            if (reg.store->persistent())
                if (auto it = at.changelog_offsets.find({reg.topic, id.partition}); it != at.changelog_offsets.end()) {
                    persistent.insert(*it);
                    auto before = at.checkpointed.find(it->first);
                    moved += it->second - (before == at.checkpointed.end() ? 0 : before->second);
                }
        if (!force && moved <= checkpoint_delta) return;
        if (persistent == at.checkpointed && !at.checkpointed.empty()) return;  // unchanged
        // The WAL is off: the stores' memtables must be on disk before the checkpoint says so.
        at.task->flush_stores();
        write_checkpoint(at.task->task_directory(), persistent);
        at.checkpointed = std::move(persistent);
    }

    /// Deletes repartition records up to the committed offsets (every 30 s, as Kafka Streams'
    /// repartition.purge.interval.ms); the results are not waited for.
    void purge_repartition_topics(const std::vector<partition_queue*>& committed) {
        while (kafka::event_ptr ev{rd_kafka_queue_poll(purge_queue.get(), 0)}) {
            if (rd_kafka_event_error(ev.get()))
                KSTREAMS_LOG(debug, name + ": purging repartition topics: " + rd_kafka_event_error_string(ev.get()));
        }
        if (ctx.embedded || ctx.plan.repartition_topics.empty() || now_ms() < next_purge) return;
        next_purge = now_ms() + 30000;
        kafka::tpl_ptr offsets = kafka::make_tpl();
        for (auto* q : committed)
            if (ctx.plan.repartition_topics.count(q->topic()))
                rd_kafka_topic_partition_list_add(offsets.get(), q->topic().c_str(), q->partition())->offset =
                    q->committed;
        if (offsets->cnt == 0) return;
        rd_kafka_DeleteRecords_t* del = rd_kafka_DeleteRecords_new(offsets.get());
        rd_kafka_DeleteRecords(collector->handle(), &del, 1, nullptr, purge_queue.get());
        rd_kafka_DeleteRecords_destroy(del);
    }

    /// Eager rebalancing revokes everything: commit, then keep the tasks (state and all) in case
    /// they are assigned again; their buffered records are dropped (refetched from the commit).
    void suspend_tasks() {
        commit_all(true);
        for (auto& [id, at] : tasks) {
            at->group = partition_group{};
            suspended[id] = std::move(at);
        }
        slots.clear();
        tasks.clear();
    }

    /// Closes the suspended tasks that did not come back (already committed when suspended).
    void close_suspended() {
        for (auto& [id, at] : suspended) {
            at->task->close();
            write_checkpoint_of(id, *at, true);
        }
        suspended.clear();
    }

    void close_tasks(bool clean) {
        for (auto& [id, at] : suspended) tasks[id] = std::move(at);  // closed below with the rest
        suspended.clear();
        if (clean) commit_all(true);
        for (auto& [id, at] : tasks) {
            try {
                at->task->close(clean);
            } catch (const std::exception& e) {
                if (clean) throw;
                KSTREAMS_LOG(warn, name + ": closing task " + id.to_string() + ": " + e.what());
            }
        }
        if (clean) {
            collector->flush(client_timeout);
            write_checkpoints(true);
        }
        slots.clear();
        tasks.clear();
        publish_metrics();
    }

    void publish_metrics() {
        std::lock_guard lock(self.metrics_mutex_);
        self.published_metrics_ = metrics;
    }

    // ---- processing -------------------------------------------------------------------------

    /// `from_consumer_queue`: the record came through the consumer queue rather than its
    /// partition's own queue, which only happens if that queue could not be taken.
    void on_message(rd_kafka_message_t* raw, bool from_consumer_queue) {
        kafka::message_ptr m(raw);
        if (m->err) {
            if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) return;
            const std::string what = m->rkt ? kafka::describe_partition(rd_kafka_topic_name(m->rkt), m->partition) + ": "
                                            : std::string();
            if (m->err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART || m->err == RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC ||
                m->err == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED || m->err == RD_KAFKA_RESP_ERR__FATAL)
                throw streams_error(name + ": consumer error: " + what + rd_kafka_message_errstr(m.get()));
            KSTREAMS_LOG(warn, name + ": consumer: " + what + rd_kafka_message_errstr(m.get()));
            return;
        }
        partition_queue* q = find_queue(rd_kafka_topic_name(m->rkt), m->partition);
        if (!q) return;  // from a partition no longer assigned
        q->push(m.release());
        // Only those can overflow the buffer: their partition is paused instead.
        if (from_consumer_queue && !q->paused && q->size() >= ctx.config.buffered_records_per_partition)
            set_paused(*q, true);
    }

    /// Tops up each partition's buffer from its fetch queue, up to buffered.records.per.partition.
    /// Returns whether anything came.
    bool fill_buffers() {
        bool any = false;
        const std::size_t limit = std::max<std::size_t>(1, ctx.config.buffered_records_per_partition);
        for (auto& [topic, vec] : slots)
            for (auto& slot : vec) {
                if (!slot.fetch || !slot.fetch->get() || slot.queue->size() >= limit) continue;
                const std::size_t room = std::min(limit - slot.queue->size(), fetch_batch.size());
                const ssize_t n = rd_kafka_consume_batch_queue(slot.fetch->get(), 0, fetch_batch.data(), room);
                for (ssize_t i = 0; i < n; ++i) on_message(fetch_batch[static_cast<std::size_t>(i)], false);
                if (callback_error) std::rethrow_exception(callback_error);
                any = any || n > 0;
            }
        return any;
    }

    void set_paused(partition_queue& q, bool pause) {
        kafka::tpl_ptr one = kafka::make_tpl(1);
        rd_kafka_topic_partition_list_add(one.get(), q.topic().c_str(), q.partition());
        if (pause) {
            rd_kafka_pause_partitions(consumer.get(), one.get());
            ++metrics.counter("partition-pauses");
        }
        else rd_kafka_resume_partitions(consumer.get(), one.get());
        q.paused = pause;
    }

    /// Serves the consumer queue (rebalances, errors, records of partitions without their own
    /// queue) and fills the buffers without blocking. Returns whether any record came.
    bool poll_consumer() {
        bool any = false;
        for (int i = 0; i < 10000; ++i) {
            rd_kafka_message_t* m = rd_kafka_consumer_poll(consumer.get(), 0);
            if (callback_error) std::rethrow_exception(callback_error);
            if (!m) break;
            any = true;
            on_message(m, true);
        }
        return fill_buffers() || any;
    }

    std::optional<std::int64_t> lag(const partition_queue& q) {
        std::int64_t lo = RD_KAFKA_OFFSET_INVALID, hi = RD_KAFKA_OFFSET_INVALID;
        rd_kafka_get_watermark_offsets(consumer.get(), q.topic().c_str(), q.partition(), &lo, &hi);
        if (hi < 0) return std::nullopt;
        std::int64_t position = q.received_up_to();
        if (position < 0) position = lo;
        if (position < 0) return std::nullopt;
        return std::max<std::int64_t>(0, hi - position);
    }

    /// Processes up to a bounded number of records per task. Returns whether any was processed;
    /// `idle_until` is when a task waiting on an empty partition gives up waiting.
    bool process_round(std::optional<std::int64_t>& idle_until) {
        bool progressed = false;
        const std::int64_t now = now_ms();
        const std::int64_t max_idle = ctx.config.max_task_idle.count();
        auto lag_of = [this](const partition_queue& q) { return lag(q); };
        bool commit_wanted = false;
        for (auto& [id, at] : tasks) {
            int n = 0;
            while (n < 1000) {
                partition_queue* q = at->group.next(*at->task, now, max_idle, lag_of, idle_until);
                if (!q) break;
                process_head(*at->task, *q);
                ++n;
            }
            if (n > 0) {
                progressed = true;
                for (auto& q : at->group.queues())
                    if (q->paused && q->size() < ctx.config.buffered_records_per_partition) set_paused(*q, false);
            }
            if (at->task->maybe_punctuate_wall_clock()) progressed = true;
            commit_wanted = commit_wanted || at->task->commit_requested();
        }
        if (commit_wanted || now_ms() >= next_commit) {
            commit_all();
            next_commit = now_ms() + ctx.config.commit_interval.count();
        }
        return progressed;
    }

    void process_head(stream_task& t, partition_queue& q) {
        const rd_kafka_message_t* m = q.head();
        raw_record raw;
        raw.topic = q.topic();
        raw.partition = m->partition;
        raw.offset = m->offset;
        rd_kafka_timestamp_type_t type;
        raw.timestamp = rd_kafka_message_timestamp(m, &type);
        if (m->key) raw.key = std::string_view(static_cast<const char*>(m->key), m->key_len);
        if (m->payload) raw.value = std::string_view(static_cast<const char*>(m->payload), m->len);
        headers hdrs;
        rd_kafka_headers_t* rh = nullptr;
        if (rd_kafka_message_headers(m, &rh) == RD_KAFKA_RESP_ERR_NO_ERROR && rh) {
            const char* hname;
            const void* val;
            std::size_t size;
            for (std::size_t i = 0; rd_kafka_header_get_all(rh, i, &hname, &val, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i)
                hdrs.add(hname, val ? std::optional<std::string>(std::string(static_cast<const char*>(val), size))
                                    : std::nullopt);
        }
        raw.hdrs = &hdrs;
        t.process(*q.source(), raw, q.head_timestamp());
        q.pop_processed();
        ++processed;
        t.maybe_punctuate_stream_time();
    }

    void drain_pipe() {
        char buf[256];
        while (::read(pipe_r, buf, sizeof buf) > 0) {
        }
    }

    // ---- the loop -----------------------------------------------------------------------------

    task<void> run() {
        setup();
        asio::posix::stream_descriptor wake(ioc, ::dup(pipe_r));
        timer.emplace(ioc);
        while (!self.stop_requested_.load()) {
            poll_consumer();
            collector->poll();
            std::optional<std::int64_t> idle_until;
            if (process_round(idle_until)) continue;
            // Nothing to do: sleep until librdkafka signals a queue, or the next deadline.
            drain_pipe();
            if (poll_consumer()) continue;
            std::int64_t deadline = std::min(next_commit, now_ms() + 1000);
            for (auto& [id, at] : tasks) deadline = std::min(deadline, at->task->next_wall_clock_punctuation());
            if (idle_until) deadline = std::min(deadline, *idle_until);
            timer->expires_after(std::chrono::milliseconds(std::max<std::int64_t>(0, deadline - now_ms())));
            if (!armed) {
                armed = true;
                wake.async_wait(asio::posix::stream_descriptor::wait_read, [this](boost::system::error_code) {
                    armed = false;
                    if (timer) timer->cancel();
                });
            }
            boost::system::error_code ec;
            co_await timer->async_wait(asio::redirect_error(asio::use_awaitable, ec));
        }
        wake.cancel();
        shutdown();
        co_return;
    }

    /// A clean stop: commit, close the tasks (checkpoints), leave the group (a static member
    /// stays in it until its session times out, so it gets its tasks back on restart).
    void shutdown() {
        close_tasks(true);
        rd_kafka_consumer_close(consumer.get());
        collector->flush(client_timeout);
        KSTREAMS_LOG(info, name + ": stopped");
    }

    /// After a failure: close the tasks without committing, then the consumer.
    void abandon() {
        failed = true;
        try {
            close_tasks(false);
        } catch (const std::exception& e) {
            KSTREAMS_LOG(warn, name + ": " + e.what());
        }
        if (consumer) rd_kafka_consumer_close(consumer.get());
    }
};

stream_thread::stream_thread(app_context& ctx, int index, std::function<void(stream_thread&, std::exception_ptr)> on_exit)
    : ctx_(ctx), index_(index), on_exit_(std::move(on_exit)) {}

stream_thread::~stream_thread() {
    request_stop();
    if (thread_.joinable()) thread_.join();
}

void stream_thread::start() {
    state_ = std::make_unique<state>(*this, ctx_);
    thread_ = std::thread([this] { body(); });
}

void stream_thread::body() {
    std::exception_ptr error;
    try {
        asio::co_spawn(state_->ioc, state_->run(), [&error](std::exception_ptr e) { error = e; });
        state_->ioc.run();
    } catch (...) {
        error = std::current_exception();
    }
    if (error) {
        try {
            std::rethrow_exception(error);
        } catch (const std::exception& e) {
            KSTREAMS_LOG(error, state_->name + " died: " + e.what());
        } catch (...) {
        }
        state_->abandon();
    }
    state_->publish_metrics();
    {
        std::lock_guard lock(finished_mutex_);
        state_.reset();
    }
    if (on_exit_) on_exit_(*this, error);
    {
        std::lock_guard lock(finished_mutex_);
        finished_ = true;
    }
    finished_cv_.notify_all();
}

void stream_thread::request_stop() {
    stop_requested_ = true;
    std::lock_guard lock(finished_mutex_);
    if (!finished_ && state_)
        asio::post(state_->ioc, [s = state_.get()] {
            if (s->timer) s->timer->cancel();
        });
}

bool stream_thread::join_until(std::chrono::steady_clock::time_point deadline) {
    std::unique_lock lock(finished_mutex_);
    if (!finished_cv_.wait_until(lock, deadline, [this] { return finished_.load(); })) return false;
    lock.unlock();
    if (thread_.joinable()) thread_.join();
    return true;
}

kstreams::metrics stream_thread::metrics() const {
    std::lock_guard lock(metrics_mutex_);
    return published_metrics_;
}

}  // namespace kstreams::detail
