#include "lib/runtime/stream_thread.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <kstreams/detail/internal_configs.hpp>
#include <kstreams/error.hpp>

#include "lib/core/log.hpp"
#include "lib/core/wall_clock.hpp"
#include "lib/kafka/consumer_close.hpp"
#include "lib/kafka/kafka_collector.hpp"
#include "lib/kafka/kafka_ports.hpp"
#include "lib/observe/latency.hpp"
#include "lib/runtime/error_handling.hpp"
#include "lib/runtime/host_directory.hpp"
#include "lib/runtime/standby_updater.hpp"
#include "lib/runtime/task_manager.hpp"
#include "lib/state/record_cache.hpp"

namespace kstreams::detail {

namespace asio = boost::asio;
template <class T>
using task = asio::awaitable<T>;

namespace {

}  // namespace

/// The librdkafka loop around the thread's task manager: it owns the clients, turns rebalance
/// callbacks into assignment changes, and sleeps on librdkafka's queue events between rounds.
///
/// Scheduling (why this model): Kafka Streams' group membership stays as it is, one consumer (and
/// one producer, one record cache) per stream thread, so assignment, static membership and
/// replacing a dead thread behave as in Kafka; what changes is who runs the work. All stream
/// threads share the app's executor of num.stream.threads OS threads. A thread's loop (polling,
/// rebalances, restoration, commits) runs on a strand of its own; each task on another. The loop
/// hands each running task that is not in a turn already a turn on its strand (fill its buffers,
/// process a bounded batch, punctuate) and goes on without waiting for it; a turn that ends with
/// progress wakes the loop, which gives that task its next turn. So the tasks of one stream thread
/// run at once on different OS threads and move between them without locks, and a slow task (a
/// heavy processor) holds up only itself: the others keep taking turns. While turns run the loop
/// touches only what they leave alone (polling, producer callbacks, restoring tasks, published
/// counters); assigning, revoking, committing and closing first wait until no task is in a turn
/// (quiesce). A commit is then a fork and join: every task's strand flushes its caches and notes
/// its offsets, then the loop flushes the producer and commits. What tasks share is thread-safe:
/// the record cache's total, each task's own producer front and counters (summed when published),
/// the consumer's per-partition queues.
struct stream_thread::state : std::enable_shared_from_this<state> {
    stream_thread& self;
    app_context& ctx;
    const std::string name;
    asio::strand<asio::any_io_executor> strand;  ///< the loop's
    asio::any_io_executor pool;
    std::optional<asio::steady_timer> timer;
    std::optional<asio::steady_timer> join_timer;  ///< woken when the last task of a round is done
    std::optional<asio::steady_timer> commit_timer;  ///< woken when a transaction's commit returned
    std::optional<asio::posix::stream_descriptor> wake;
    kstreams::metrics metrics;
    /// The thread's record cache (Kafka's ThreadCache), shared by the caching stores of its tasks;
    /// declared before the tasks so that it outlives their stores.
    std::unique_ptr<kstreams::state::record_cache> cache;
    error_handlers handlers;  ///< the app's, built-ins resolved (env.errors points here)
    task_environment env;
    std::unique_ptr<kafka::kafka_collector> collector;
    kafka::rk_ptr consumer;
    kafka::rk_ptr restore_consumer;
    kafka::queue_ptr consumer_queue;
    kafka::queue_ptr restore_queue;
    kafka::queue_ptr producer_queue;
    kafka::queue_ptr sink_queue;
    int pipe_r = -1, pipe_w = -1;
    std::unique_ptr<kafka::kafka_consumer_port> consumer_port;
    std::unique_ptr<kafka::kafka_restore_reader> restore_reader;
    std::unique_ptr<kafka::kafka_producer_port> producer_port;
    std::unique_ptr<task_manager> tasks;
    std::exception_ptr callback_error;
    bool failed = false;
    bool armed = false;       ///< an fd wait is pending
    bool rebalancing = false;  ///< told the app; ends once the assigned tasks are restored
    bool commit_waits = false;  ///< an exactly-once commit waits for the records in flight in async processors
    bool consumer_unclosed = false;  ///< its close did not finish within the close's time
    bool closing = false;      ///< the consumer is closing: rebalances are applied in the callback
    struct pending_change {
        bool assign = false;
        bool lost = false;
        std::vector<topic_partition> parts;
        std::uint64_t id = 0;
        /// An assignment's committed offsets, looked up on a worker while the loop goes on.
        enum class lookup { none, running, done } committed_lookup = lookup::none;
        std::vector<std::int64_t> committed;
        std::vector<std::string> committed_metadata;
    };
    std::uint64_t next_change_id = 0;
    /// Jobs on the app's worker that use this thread's clients; teardown waits for them.
    std::mutex jobs_mutex;
    std::condition_variable jobs_done;
    int jobs = 0;
    std::vector<pending_change> pending;  ///< recorded by the rebalance callback, applied by the loop
    std::vector<topic_partition> assigned;  ///< the partitions assigned now
    std::int64_t last_publish = 0;  ///< when the counters were last published
    std::int64_t last_task_publish = 0;  ///< when each task's counters were last published
    std::int64_t last_restore_log = 0;   ///< when restoration progress was last logged
    /// Thread-level latencies (Kafka's commit-, poll- and process-latency-avg/max), in `metrics`.
    std::optional<latency_recorder> commit_latency, poll_latency, process_latency;
    std::chrono::milliseconds client_timeout;

    /// Tasks of the current fork (fork()) still running, and what they threw.
    std::atomic<std::size_t> turns_left{0};
    std::vector<std::exception_ptr> turn_errors;
    std::vector<task_manager::turn_result> turn_results;
    /// Turns handed out by start_turns and not ended yet, and what the ended ones did since the
    /// loop last looked (all on the loop's strand).
    std::size_t in_turn = 0;
    bool turns_progressed = false;
    std::optional<std::int64_t> turns_idle_until;
    std::exception_ptr turns_error;
    /// When the loop's sleep ends (a turn ending with an earlier idle deadline wakes it).
    std::int64_t sleeping_until = INT64_MAX;
    /// Exactly-once: a transaction committing on the worker while the tasks take turns.
    struct transaction_commit {
        std::chrono::steady_clock::time_point started;
        bool done = false;
        std::exception_ptr error;
        checkpoint_offsets acked;  ///< changelog offsets acknowledged when it committed
    };
    std::optional<transaction_commit> in_commit;

    state(stream_thread& s, app_context& c, asio::any_io_executor executor)
        : self(s), ctx(c), name(s.name_),
          strand(asio::make_strand(executor)), pool(executor),
          client_timeout(std::max<std::chrono::milliseconds>(c.config.startup_timeout, std::chrono::seconds(60))) {}

    ~state() { teardown(); }

    /// The client timeout, or less once a close gave a deadline: what a flush may wait.
    std::chrono::milliseconds remaining() const {
        const auto deadline = self.stop_deadline_.load();
        if (deadline == std::chrono::steady_clock::time_point::max()) return client_timeout;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        return std::clamp(left, std::chrono::milliseconds(0), client_timeout);
    }

    /// Closes the clients and drops the tasks (once the loop ended; handlers still pending on the
    /// executor keep only this shell alive).
    void teardown() {
        {
            std::unique_lock lock(jobs_mutex);
            jobs_done.wait(lock, [this] { return jobs == 0; });
        }
        wake.reset();
        timer.reset();
        join_timer.reset();
        commit_timer.reset();
        if (consumer_queue) rd_kafka_queue_io_event_enable(consumer_queue.get(), -1, nullptr, 0);
        if (restore_queue) rd_kafka_queue_io_event_enable(restore_queue.get(), -1, nullptr, 0);
        if (producer_queue) rd_kafka_queue_io_event_enable(producer_queue.get(), -1, nullptr, 0);
        if (sink_queue) rd_kafka_queue_io_event_enable(sink_queue.get(), -1, nullptr, 0);
        tasks.reset();
        consumer_port.reset();
        restore_reader.reset();
        producer_port.reset();
        consumer_queue.reset();
        restore_queue.reset();
        producer_queue.reset();
        sink_queue.reset();
        if (consumer_unclosed) kafka::destroy_unclosed(std::move(consumer));
        consumer.reset();
        // The restore consumer only ever assigns, but its close still talks to the coordinator.
        if (restore_consumer && !kafka::close_consumer_within(restore_consumer.get(), remaining()))
            kafka::destroy_unclosed(std::move(restore_consumer));
        restore_consumer.reset();
        collector.reset();
        if (pipe_w >= 0) ::close(std::exchange(pipe_w, -1));
        if (pipe_r >= 0) ::close(std::exchange(pipe_r, -1));
    }

    // ---- setup ------------------------------------------------------------------------------

    void setup() {
        const auto& cfg = ctx.config;
        env.application_id = cfg.application_id;
        env.wall_clock = &now_ms;
        env.app_configs = app_config_map(cfg.app_configs.begin(), cfg.app_configs.end());
        env.app_configs[std::string(internal_config::windowed_aggregation_emit_interval_ms)] =
            std::to_string(cfg.windowed_emit_interval.count());
        env.app_configs[std::string(internal_config::outer_join_emit_interval_ms)] =
            std::to_string(cfg.outer_join_emit_interval.count());
        env.metrics = &metrics;
        env.node_metrics = cfg.metrics_recording_level != metrics_recording_level::info;
        env.recording_level = cfg.metrics_recording_level;
        commit_latency.emplace(metrics, "commit");
        poll_latency.emplace(metrics, "poll");
        process_latency.emplace(metrics, "process");
        env.on_deserialization_error = cfg.log_and_continue_on_deserialization_error
                                           ? deserialization_policy::log_and_continue
                                           : deserialization_policy::fail;
        if (!cfg.state_dir.empty()) env.state_dir = cfg.state_dir / cfg.application_id;
        // statestore.cache.max.bytes is the application's total: each thread gets an equal share
        // (Kafka Streams divides it over the stream threads); 0 makes the stores write through.
        // (A thread added later by add_stream_thread() divides it by the threads alive then.)
        const int sharing = ctx.cache_sharing_threads.load() > 0 ? ctx.cache_sharing_threads.load() : cfg.num_stream_threads;
        cache = std::make_unique<kstreams::state::record_cache>(cfg.statestore_cache_max_bytes /
                                                                static_cast<std::size_t>(sharing));
        env.stores.cache = cache.get();
        env.stores.rocksdb = ctx.rocksdb;
        env.global_store = ctx.global_store;
        env.global_lock = ctx.global_lock;
        handlers = error_handlers::resolve(cfg.errors, cfg.log_and_continue_on_deserialization_error,
                                           cfg.on_production_error == production_error_policy::log_and_continue);
        env.errors = &handlers;
        env.default_extractor = cfg.default_timestamp_extractor;
        env.default_dsl_store = cfg.default_dsl_store;
        // Async processors run on their task's strand (task_manager_config::make_task_executor);
        // each completion wakes the loop up.
        env.executor = strand;
        env.async_done = [w = weak_from_this()] {
            if (auto s = w.lock()) s->wake_up();
        };

        auto producer_settings = ctx.producer_settings;
        producer_settings["client.id"] = name + "-producer";
        const bool eos = cfg.guarantee == processing_guarantee::exactly_once_v2;
        env.exactly_once = eos;
        // As Kafka Streams' exactly_once_v2: one transactional producer per stream thread.
        if (eos)
            producer_settings["transactional.id"] =
                cfg.application_id + "-" + ctx.process_id + "-" + std::to_string(self.index_ + 1);
        std::optional<std::map<std::string, std::string>> sink_settings = ctx.sink_producer_settings;
        if (sink_settings) (*sink_settings)["client.id"] = name + "-sink-producer";
        std::set<std::string, std::less<>> internal(ctx.plan.repartition_topics.begin(), ctx.plan.repartition_topics.end());
        internal.insert(ctx.plan.changelog_topics.begin(), ctx.plan.changelog_topics.end());
        collector = std::make_unique<kafka::kafka_collector>(producer_settings, cfg.on_production_error, metrics,
                                                             ctx.plan.partition_counts, ctx.plan.changelog_topics,
                                                             std::move(sink_settings), std::move(internal));

        auto consumer_settings = ctx.consumer_settings;
        // The endpoint travels in the client.id, where the other instances find it (host_directory.hpp).
        consumer_settings["client.id"] = consumer_client_id();
        if (!cfg.group_instance_id.empty())
            consumer_settings["group.instance.id"] =
                cfg.num_stream_threads > 1 || self.index_ > 0 ? cfg.group_instance_id + "-" + std::to_string(self.index_ + 1)
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
        rd_kafka_poll_set_consumer(restore_consumer.get());

        // librdkafka writes a byte to the pipe when a queue becomes non-empty; Asio waits on it.
        int fds[2];
        if (::pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) throw streams_error("could not create a pipe for " + name);
        pipe_r = fds[0];
        pipe_w = fds[1];
        consumer_queue.reset(rd_kafka_queue_get_consumer(consumer.get()));
        rd_kafka_queue_io_event_enable(consumer_queue.get(), pipe_w, "1", 1);
        restore_queue.reset(rd_kafka_queue_get_consumer(restore_consumer.get()));
        rd_kafka_queue_io_event_enable(restore_queue.get(), pipe_w, "1", 1);
        producer_queue.reset(rd_kafka_queue_get_main(collector->handle()));
        rd_kafka_queue_io_event_enable(producer_queue.get(), pipe_w, "1", 1);
        if (collector->sink_handle()) {
            sink_queue.reset(rd_kafka_queue_get_main(collector->sink_handle()));
            rd_kafka_queue_io_event_enable(sink_queue.get(), pipe_w, "1", 1);
        }

        kafka::consumer_port_options options;
        options.name = name;
        options.wake_fd = pipe_w;
        options.timeout = client_timeout;
        options.task_timeout = cfg.task_timeout;
        options.buffered_records_per_partition = cfg.buffered_records_per_partition;
        options.embedded = ctx.embedded;
        if (auto it = cfg.app_configs.find("repartition.purge.interval.ms"); it != cfg.app_configs.end())
            options.purge_interval = std::chrono::milliseconds(std::stoll(it->second));
        options.read_committed = eos;
        consumer_port = std::make_unique<kafka::kafka_consumer_port>(consumer.get(), collector->handle(), ctx.plan,
                                                                     std::move(options), metrics);
        // The end offsets of changelogs are queried on the app's worker; the answer wakes the loop.
        restore_reader = std::make_unique<kafka::kafka_restore_reader>(
            restore_consumer.get(), client_timeout, ctx.blocking, [w = weak_from_this()] {
                if (auto s = w.lock()) s->wake_up();
            });
        collector->set_task_timeout(cfg.task_timeout);
        collector->set_production_handler(handlers.production);
        producer_port = std::make_unique<kafka::kafka_producer_port>(
            *collector, metrics, cfg.task_timeout, [this] { return self.stop_deadline_.load(); }, consumer.get());
        task_manager_config tm;
        tm.name = name;
        tm.max_task_idle_ms = cfg.max_task_idle.count();
        tm.buffered_records_per_partition = cfg.buffered_records_per_partition;
        tm.commit_interval_ms = cfg.effective_commit_interval().count();
        tm.bound_turns = true;
        tm.exactly_once = eos;
        tm.restore_stall_timeout = client_timeout;
        tm.restore_listener = ctx.restore_listener.get();
        tm.max_async_in_flight = cfg.max_async_in_flight_per_task;
        tm.queries = ctx.queries;
        if (ctx.standbys) {
            tm.opening_task = [u = ctx.standbys](kstreams::task_id id) { u->task_opening(id); };
            tm.closed_task = [u = ctx.standbys](kstreams::task_id id) { u->task_closed(id); };
        }
        tm.make_task_executor = [this] { return asio::any_io_executor(asio::make_strand(pool)); };
        env.collector = &producer_port->collector();
        tasks = std::make_unique<task_manager>(
            *ctx.model, *ctx.groups, env, *consumer_port, *producer_port, *restore_reader,
            [this](std::string_view topic) -> const subtopology_group* {
                auto it = ctx.plan.subtopology_of_topic.find(topic);
                return it == ctx.plan.subtopology_of_topic.end() ? nullptr : &ctx.groups->subtopologies[it->second];
            },
            std::move(tm));

        kafka::tpl_ptr topics = kafka::make_tpl();
        for (const auto& [topic, sub] : ctx.plan.subtopology_of_topic)
            rd_kafka_topic_partition_list_add(topics.get(), topic.c_str(), RD_KAFKA_PARTITION_UA);
        if (rd_kafka_resp_err_t err = rd_kafka_subscribe(consumer.get(), topics.get()))
            throw streams_error(name + ": could not subscribe to the source topics: " + rd_kafka_err2str(err));
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

    /// The callback only records the change (it runs inside librdkafka's poll); the loop applies
    /// it: committed offsets, opening the tasks' stores and their restoration happen there, while
    /// polling goes on. librdkafka waits for the assign/unassign call meanwhile. While the
    /// consumer closes, the change is applied at once (the close waits for it).
    void on_rebalance(rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t* parts) {
        // A thread dying of an error gives its partitions up while it closes: the client goes
        // straight from RUNNING to PENDING_ERROR, as Kafka's, not through REBALANCING.
        if (!failed) set_rebalancing(true);
        pending_change change;
        change.id = ++next_change_id;
        change.assign = err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS;
        for (int i = 0; i < parts->cnt; ++i) change.parts.push_back({parts->elems[i].topic, parts->elems[i].partition});
        change.lost = !change.assign && rd_kafka_assignment_lost(consumer.get());
        pending.push_back(std::move(change));
        if (closing) apply_rebalance();
    }

    /// Whether the first change must wait: a revocation commits, so first the records in flight in
    /// async processors complete (the tasks take no new records meanwhile; librdkafka waits for
    /// the unassign).
    bool front_waits() {
        const pending_change& front = pending.front();
        if (!front.assign && !front.lost && !failed && !closing && tasks->async_in_flight() > 0) {
            tasks->hold_processing(true);
            return true;
        }
        tasks->hold_processing(commit_waits);
        return false;
    }

    pending_change take_front() {
        pending_change change = std::move(pending.front());
        pending.erase(pending.begin());
        if (change.assign && change.committed_lookup == pending_change::lookup::done)
            consumer_port->remember_committed(change.parts, change.committed, change.committed_metadata);
        return change;
    }

    void apply_change(pending_change change) {
        try {
            if (change.assign) {
                // The task manager looks up committed offsets (known by now on the loop's way),
                // opens the tasks' stores and takes the partitions; the stores restore stepwise.
                tasks->assign(change.parts);
                assigned.insert(assigned.end(), change.parts.begin(), change.parts.end());
                report_assignment();
                if (!tasks->restoring() && pending.empty()) set_rebalancing(false);
            } else {
                if (change.lost) KSTREAMS_LOG(warn, name + ": partitions lost; closing tasks without committing");
                if (change.lost || failed) tasks->lose();
                else tasks->revoke();
                assigned.clear();
                report_assignment();
                last_task_publish = 0;  // the tasks gone at once
                publish_metrics();
            }
        } catch (...) {
            failed = true;
            pending.clear();
            rd_kafka_assign(consumer.get(), nullptr);
            throw;
        }
    }

    /// Applies the recorded assignment changes in order, at once (while the consumer closes, and
    /// at shutdown).
    void apply_rebalance() {
        while (!pending.empty() && !front_waits()) apply_change(take_front());
    }

    /// The loop's way to apply them: an assignment's committed offsets are looked up on the app's
    /// worker while the loop goes on polling and processing; then the assignment is applied (the
    /// tasks' stores opened) on the worker while the loop waits for it, off the executor.
    task<void> apply_rebalance_async() {
        if (in_commit) co_return;  // once the transaction committed
        while (!pending.empty() && !front_waits()) {
            pending_change& front = pending.front();
            if (front.assign && !closing && !failed) {
                if (front.committed_lookup == pending_change::lookup::none) start_lookup(front);
                if (front.committed_lookup != pending_change::lookup::done) co_return;
                co_await quiesce();
                pending_change change = take_front();
                co_await on_worker([this, &change] { apply_change(std::move(change)); });
                continue;
            }
            co_await quiesce();
            if (!front.assign && (front.lost || failed)) co_await stop_tasks();  // records in flight
            apply_change(take_front());
        }
    }

    void start_lookup(pending_change& change) {
        change.committed_lookup = pending_change::lookup::running;
        begin_job();
        asio::post(ctx.blocking, [s = shared_from_this(), id = change.id, parts = change.parts] {
            std::vector<std::string> metadata;
            std::vector<std::int64_t> offsets = s->consumer_port->lookup_committed(parts, &metadata);
            asio::post(s->strand, [s, id, offsets = std::move(offsets), metadata = std::move(metadata)]() mutable {
                for (auto& c : s->pending)
                    if (c.id == id) {
                        c.committed = std::move(offsets);
                        c.committed_metadata = std::move(metadata);
                        c.committed_lookup = pending_change::lookup::done;
                    }
                if (s->timer) s->timer->cancel();
            });
            s->end_job();
        });
    }

    void begin_job() {
        std::lock_guard lock(jobs_mutex);
        ++jobs;
    }

    void end_job() {
        {
            std::lock_guard lock(jobs_mutex);
            --jobs;
        }
        jobs_done.notify_all();
    }

    /// Runs `fn` on the app's worker for blocking calls; the loop resumes on its strand when it is
    /// done (rethrowing what it threw). Nothing else touches the thread's state meanwhile.
    template <class F>
    task<void> on_worker(F fn) {
        begin_job();
        struct done {
            state& s;
            ~done() { s.end_job(); }
        } guard{*this};
        co_await asio::co_spawn(
            ctx.blocking, [&fn]() -> task<void> {
                fn();
                co_return;
            },
            asio::use_awaitable);
    }

    void set_rebalancing(bool on) {
        if (rebalancing == on) return;
        rebalancing = on;
        report_assignment();
        ctx.on_rebalance(self.index_, on);
    }

    /// The consumer's client.id: the endpoint and, with standbys, the process id travel in it, where
    /// the other instances find them (host_directory.hpp).
    std::string consumer_client_id() const {
        return host_directory::consumer_client_id(
            name, ctx.config.application_server, ctx.config.num_standby_replicas > 0 ? ctx.process_id : std::string());
    }

    /// Tells the app's host directory what this thread reads now (and whether it restores).
    void report_assignment() {
        if (!ctx.hosts) return;
        ctx.hosts->set_thread(self.index_, {name, consumer_client_id(),
                                            assigned, rebalancing && tasks && tasks->restoring()});
    }

    /// Makes the counters readable from other threads, with each input partition's consumer lag
    /// beside them. Called every poll round (at most every 10 ms while busy), so progress shows
    /// between commits.
    void publish_metrics() {
        kstreams::metrics snapshot = metrics;
        if (tasks) {
            const kstreams::metrics of_tasks = tasks->task_metrics();
            for (const auto& [counter, value] : of_tasks.all()) snapshot.counter(counter) += value;
        }
        if (consumer_port) consumer_port->add_progress(snapshot);
        // Each task's counters (copies of maps) at most every 100 ms: the per-task metrics' pace.
        std::optional<std::vector<task_snapshot>> of_each_task;
        if (tasks && now_ms() - last_task_publish >= 100) {
            of_each_task = tasks->task_snapshots();
            last_task_publish = now_ms();
        }
        std::vector<store_restoration> restoring;
        if (tasks)
            for (auto& p : tasks->restoration())
                restoring.push_back({p.task, std::move(p.store), std::move(p.changelog.topic), p.changelog.partition,
                                     p.restored, p.remaining});
        last_publish = now_ms();
        std::lock_guard lock(self.metrics_mutex_);
        self.published_metrics_ = std::move(snapshot);
        self.published_restoration_ = std::move(restoring);
        if (of_each_task) self.published_tasks_ = std::move(*of_each_task);
    }

    /// A progress line per store restoring, every 10 s while restoration goes on (info).
    void log_restoration() {
        if (!tasks->restoring()) {
            last_restore_log = 0;
            return;
        }
        if (now_ms() - last_restore_log < 10000) return;
        const bool first = last_restore_log == 0;
        last_restore_log = now_ms();
        if (first) return;  // short restorations say nothing
        for (const auto& p : tasks->restoration())
            KSTREAMS_LOG(info, name + ": task " + p.task.to_string() + " restoring store " + p.store + " from " +
                                   p.changelog.topic + "-" + std::to_string(p.changelog.partition) + ": " +
                                   std::to_string(p.restored) + " records restored, " +
                                   (p.remaining < 0 ? std::string("? ") : std::to_string(p.remaining) + " ") +
                                   "remaining");
    }

    /// Serves the consumer queue (rebalances, errors) without blocking. Returns whether any record
    /// came (records of a partition normally wait in its own queue until its task's turn).
    task<bool> poll_consumer() {
        const bool any = consumer_port->poll();
        if (callback_error) std::rethrow_exception(callback_error);
        co_await apply_rebalance_async();
        co_return any;
    }

    /// Wakes the loop from its sleep (from any thread).
    void wake_up() {
        asio::post(strand, [s = shared_from_this()] {
            if (s->timer) s->timer->cancel();
        });
    }

    // ---- rounds: each task's turn on its own strand ---------------------------------------

    /// Runs `work(task, i)` for each of `ts` on the task's strand, all at once, and returns when
    /// all are done; rethrows the first exception.
    template <class Work>
    task<void> fork(const std::vector<task_manager::managed_task*>& ts, Work work) {
        if (ts.empty()) co_return;
        turn_errors.assign(ts.size(), nullptr);
        turns_left.store(ts.size());
        auto self_ref = shared_from_this();
        for (std::size_t i = 0; i < ts.size(); ++i)
            asio::post(tasks->executor_of(*ts[i]), [this, self_ref, &work, t = ts[i], i] {
                try {
                    work(*t, i);
                } catch (...) {
                    turn_errors[i] = std::current_exception();
                }
                if (turns_left.fetch_sub(1) == 1)
                    asio::post(strand, [self_ref] {
                        if (self_ref->join_timer) self_ref->join_timer->cancel();
                    });
            });
        // The last turn's wake-up is posted to this strand, so it cannot run before the wait starts.
        while (turns_left.load() > 0) {
            join_timer->expires_at(asio::steady_timer::time_point::max());
            boost::system::error_code ec;
            co_await join_timer->async_wait(asio::redirect_error(asio::use_awaitable, ec));
        }
        for (auto& e : turn_errors)
            if (e) std::rethrow_exception(e);
    }

    /// Before tasks with records in flight in async processors are closed without committing: their
    /// processors and stores close on the tasks' strands, so that no async record resumes in a
    /// task being destroyed (as the records of a dead stream thread never resumed).
    task<void> stop_tasks() {
        if (!tasks || !join_timer || tasks->async_in_flight() == 0) co_return;
        co_await fork(tasks->managed_tasks(), [this](task_manager::managed_task& t, std::size_t) { tasks->stop(t); });
    }

    /// Hands a turn to each running task not in one, without waiting for them: each ends on the
    /// loop's strand, noting what it did, and wakes the loop if it made progress, failed, or gives
    /// up waiting on an empty partition before the loop's sleep ends.
    void start_turns() {
        for (task_manager::managed_task* t : tasks->running_tasks()) {
            if (task_manager::in_turn(*t)) continue;
            tasks->begin_turn(*t);
            ++in_turn;
            asio::post(tasks->executor_of(*t), [s = shared_from_this(), t] {
                const auto started = std::chrono::steady_clock::now();
                task_manager::turn_result r;
                std::exception_ptr error;
                try {
                    r = s->tasks->turn(*t);
                } catch (...) {
                    error = std::current_exception();
                }
                const auto took = std::chrono::steady_clock::now() - started;
                asio::post(s->strand, [s, t, r, error, took] { s->turn_ended(*t, r, error, took); });
            });
        }
    }

    void turn_ended(task_manager::managed_task& t, const task_manager::turn_result& r, std::exception_ptr error,
                    std::chrono::steady_clock::duration took) {
        tasks->end_turn(t);
        --in_turn;
        if (error && !turns_error) turns_error = error;
        if (r.progressed) process_latency->record(took, std::chrono::steady_clock::now());
        turns_progressed = turns_progressed || r.progressed;
        if (r.idle_until) turns_idle_until = std::min(turns_idle_until.value_or(INT64_MAX), *r.idle_until);
        if (join_timer) join_timer->cancel();
        if (timer && (error || r.progressed || (r.idle_until && *r.idle_until < sleeping_until))) timer->cancel();
    }

    /// What the turns that ended since the last call did: whether any made progress, the earliest
    /// idle deadline; rethrows the first error.
    bool take_turn_results(std::optional<std::int64_t>& idle_until) {
        if (turns_error) std::rethrow_exception(std::exchange(turns_error, nullptr));
        if (turns_idle_until) idle_until = std::min(idle_until.value_or(INT64_MAX), *turns_idle_until);
        turns_idle_until.reset();
        return std::exchange(turns_progressed, false);
    }

    /// Waits until no task is in a turn (before the loop assigns, revokes, commits or closes);
    /// then rethrows what a turn threw (unless `rethrow` is false: the thread fails already), so
    /// that nothing of a failed task is committed.
    task<void> quiesce(bool rethrow = true) {
        // Turns in progress end at their next look at the clock instead of after their batch.
        if (in_turn > 0) tasks->yield_turns(true);
        while (in_turn > 0) {
            join_timer->expires_at(asio::steady_timer::time_point::max());
            boost::system::error_code ec;
            co_await join_timer->async_wait(asio::redirect_error(asio::use_awaitable, ec));
        }
        if (tasks) tasks->yield_turns(false);
        if (rethrow && turns_error) std::rethrow_exception(std::exchange(turns_error, nullptr));
    }

    /// One turn of every running task, awaited; returns whether any made progress.
    task<bool> run_turns(std::optional<std::int64_t>& idle_until) {
        co_await quiesce();
        const auto running = tasks->running_tasks();
        turn_results.assign(running.size(), {});
        co_await fork(running, [this](task_manager::managed_task& t, std::size_t i) {
            turn_results[i] = tasks->turn(t);
        });
        bool progressed = false;
        for (const auto& r : turn_results) {
            progressed = progressed || r.progressed;
            if (r.idle_until) idle_until = std::min(idle_until.value_or(INT64_MAX), *r.idle_until);
        }
        co_return progressed;
    }

    /// The commit protocol: every task's strand flushes its caches and notes its offsets, then the
    /// producer is flushed and the offsets committed. Exactly-once, the transaction commits on the
    /// worker while the tasks take turns again (start_transaction_commit).
    /// False when it did not commit: exactly-once, and the turns it waited for handed records to
    /// async processors (checked before, but turns started earlier were still running then).
    task<bool> commit() {
        co_await quiesce();
        if (collector->transactional() && tasks->async_in_flight() > 0) co_return false;
        co_await fork(tasks->managed_tasks(), [this](task_manager::managed_task& t, std::size_t) {
            tasks->prepare_commit(t);
        });
        if (collector->transactional()) {
            // A cache flush may have handed records to async processors: their results, sent
            // outside turns, belong in this transaction, so it waits for them as above.
            if (tasks->async_in_flight() > 0) co_return false;
            start_transaction_commit();
            co_return true;
        }
        // Flushing the producer, committing and writing checkpoints block: on the worker.
        co_await on_worker([this] { tasks->finish_commit(false); });
        co_return true;
    }

    /// Exactly-once, with every task prepared and none in a turn: the offsets noted now are the
    /// transaction's; it commits on the worker (flush, offsets, EndTxn: ~40 ms a commit) while the
    /// loop hands out turns again. What tasks send meanwhile is parked by their producer fronts and
    /// goes into the next transaction; the loop applies no rebalance, restores nothing, serves no
    /// delivery reports (the commit's flush does) and starts no commit until end_transaction_commit.
    void start_transaction_commit() {
        if (!tasks->begin_commit()) return;
        in_commit.emplace();
        in_commit->started = std::chrono::steady_clock::now();
        collector->park_sends();
        begin_job();
        asio::post(ctx.blocking, [s = shared_from_this()] {
            std::exception_ptr error;
            checkpoint_offsets acked;
            try {
                s->tasks->commit_transaction();
                // Before the parked records go: only what the committed transaction holds.
                acked = s->collector->changelog_offsets();
                s->collector->unpark_sends();
            } catch (const std::exception& e) {
                error = std::current_exception();
                s->collector->unpark_sends(e.what());
            } catch (...) {
                error = std::current_exception();
                s->collector->unpark_sends("an unknown error");
            }
            asio::post(s->strand, [s, error, acked = std::move(acked)]() mutable {
                s->in_commit->done = true;
                s->in_commit->error = error;
                s->in_commit->acked = std::move(acked);
                if (s->commit_timer) s->commit_timer->cancel();
                if (s->timer) s->timer->cancel();
            });
            s->end_job();
        });
    }

    /// Waits until the transaction committing (if any) returned.
    task<void> wait_for_transaction_commit() {
        while (in_commit && !in_commit->done) {
            commit_timer->expires_at(asio::steady_timer::time_point::max());
            boost::system::error_code ec;
            co_await commit_timer->async_wait(asio::redirect_error(asio::use_awaitable, ec));
        }
    }

    /// Once the transaction committed (waiting for it if it has not yet): with no task in a turn,
    /// its offsets are noted committed and the fronts send what they still hold parked (tasks that
    /// sent nothing since; an async processor's send may race this, the front's lock orders them).
    /// Rethrows its failure: the tasks then close dirty.
    task<void> end_transaction_commit() {
        if (!in_commit) co_return;
        co_await wait_for_transaction_commit();
        co_await quiesce();
        transaction_commit done = std::move(*in_commit);
        in_commit.reset();
        if (done.error) std::rethrow_exception(done.error);
        tasks->end_commit(done.acked);
        collector->send_parked();
        commit_latency->record(std::chrono::steady_clock::now() - done.started, std::chrono::steady_clock::now());
    }

    void drain_pipe() {
        char buf[256];
        while (::read(pipe_r, buf, sizeof buf) > 0) {
        }
    }

    // ---- the loop -----------------------------------------------------------------------------

    task<void> run() {
        std::exception_ptr error;
        try {
            co_await loop();
        } catch (...) {
            error = std::current_exception();
        }
        if (error) {
            // A transaction committing returns first (its failure, if any, is this one's cause or
            // after it); what was parked is dropped with the tasks' dirty close.
            if (commit_timer) co_await wait_for_transaction_commit();
            in_commit.reset();
            if (join_timer) co_await quiesce(false);  // the turns still running end first
            co_await stop_tasks();
            std::rethrow_exception(error);
        }
    }

    task<void> loop() {
        setup();
        // Exactly-once: the transactional.id registered (fencing an earlier incarnation of this
        // thread and aborting what it left open) before the first poll.
        if (collector->transactional()) co_await on_worker([this] { collector->init_transactions(client_timeout); });
        wake.emplace(strand, ::dup(pipe_r));
        timer.emplace(strand);
        join_timer.emplace(strand);
        commit_timer.emplace(strand);
        while (!self.stop_requested_.load()) {
            auto started = std::chrono::steady_clock::now();
            co_await poll_consumer();
            poll_latency->record(std::chrono::steady_clock::now() - started, std::chrono::steady_clock::now());
            // While a transaction commits, its flush serves the delivery reports.
            if (!in_commit) collector->poll();
            // Paused (kafka_streams::pause()): polled and committed, nothing restored or processed.
            const bool paused = ctx.paused.load();
            bool progressed = !paused && !in_commit && tasks->restore_step();
            log_restoration();
            // Running again once every recorded change is applied and the stores are restored.
            if (rebalancing && pending.empty() && !tasks->restoring()) set_rebalancing(false);
            std::optional<std::int64_t> idle_until;
            progressed = take_turn_results(idle_until) || progressed;
            if (in_commit && in_commit->done) {
                co_await end_transaction_commit();
                progressed = true;  // rebalances, restoration and delivery reports wait for the next round
            }
            if (!paused) start_turns();
            bool committing = !in_commit && tasks->commit_due();
            // Exactly-once: a record in flight in an async processor may have sent part of its
            // results into the open transaction, which must commit with its input offset: the
            // commit waits for it, the tasks taking no new records (a completion wakes the loop).
            auto wait_for_async = [&] {
                commit_waits = true;
                tasks->hold_processing(true);
                committing = false;
            };
            if (committing && collector->transactional() && tasks->async_in_flight() > 0) wait_for_async();
            if (committing) {
                started = std::chrono::steady_clock::now();
                if (!co_await commit()) {
                    wait_for_async();
                } else {
                    if (commit_waits) {
                        commit_waits = false;
                        if (pending.empty()) tasks->hold_processing(false);
                        else front_waits();  // a revocation may still wait for records in flight
                    }
                    if (!in_commit)
                        commit_latency->record(std::chrono::steady_clock::now() - started, std::chrono::steady_clock::now());
                }
            }
            if (committing || !progressed || now_ms() - last_publish >= 10) publish_metrics();
            if (progressed) continue;
            // Nothing to do: sleep until librdkafka signals a queue, or the next deadline.
            drain_pipe();
            if (!paused && (co_await poll_consumer() || tasks->fetchable() || turns_progressed || turns_error)) continue;
            if (in_commit && in_commit->done) continue;
            // A commit due while one is in flight waits for its end, which wakes the loop.
            std::int64_t deadline = paused ? now_ms() + 100
                                           : std::min(tasks->next_deadline(!in_commit),
                                                      now_ms() + (tasks->restoring() ? 100 : 1000));
            if (idle_until) deadline = std::min(deadline, *idle_until);
            if (turns_idle_until) deadline = std::min(deadline, *turns_idle_until);
            sleeping_until = deadline;
            timer->expires_after(std::chrono::milliseconds(std::max<std::int64_t>(0, deadline - now_ms())));
            if (!armed) {
                armed = true;
                wake->async_wait(asio::posix::stream_descriptor::wait_read,
                                 [s = shared_from_this()](boost::system::error_code) {
                                     s->armed = false;
                                     if (s->timer) s->timer->cancel();
                                 });
            }
            boost::system::error_code ec;
            co_await timer->async_wait(asio::redirect_error(asio::use_awaitable, ec));
            sleeping_until = INT64_MAX;
        }
        co_await end_transaction_commit();
        co_await quiesce();
        co_await drain_async();
        wake->cancel();
        shutdown();
        co_return;
    }

    /// Before a clean stop: the records in flight in async processors complete (bounded by the
    /// client timeout; what is still in flight then is not committed and is processed again).
    task<void> drain_async() {
        tasks->hold_processing(true);
        const auto until = std::chrono::steady_clock::now() + remaining();
        std::optional<std::int64_t> idle_until;
        while (tasks->async_in_flight() > 0 && std::chrono::steady_clock::now() < until) {
            co_await poll_consumer();
            collector->poll();
            co_await run_turns(idle_until);  // takes no records; throws a failed record's error
            timer->expires_after(std::chrono::milliseconds(10));
            boost::system::error_code ec;
            co_await timer->async_wait(asio::redirect_error(asio::use_awaitable, ec));
        }
        co_await run_turns(idle_until);
        if (const std::size_t n = tasks->async_in_flight())
            KSTREAMS_LOG(warn, name + ": closing with " + std::to_string(n) +
                                   " records still in flight in async processors; they are not committed and will "
                                   "be processed again");
    }

    /// A clean stop: commit, close the tasks (checkpoints), leave the group (a static member
    /// stays in it until its session times out, so it gets its tasks back on restart).
    void shutdown() {
        apply_rebalance();
        tasks->close(true);
        last_task_publish = 0;
        publish_metrics();
        closing = true;
        if (self.stay_in_group_) {
            // Destroyed unclosed at teardown: no LeaveGroup, the group notices by session timeout.
            consumer_unclosed = true;
            KSTREAMS_LOG(info, name + ": stays in the group until its session times out (close_options::leave_group false)");
        } else {
            close_consumer();
        }
        collector->flush(remaining());
        KSTREAMS_LOG(info, name + ": stopped");
    }

    /// After a failure: close the tasks without committing, then the consumer.
    void abandon() {
        failed = true;
        pending.clear();
        try {
            if (tasks) tasks->close(false);
        } catch (const std::exception& e) {
            KSTREAMS_LOG(warn, name + ": " + e.what());
        }
        closing = true;
        if (consumer) close_consumer();
    }

    /// Leaves the group within what is left of the close's time (the rebalance it causes is
    /// applied in the callback, at once); past it the consumer is dropped unclosed at teardown and
    /// the group notices by session timeout.
    void close_consumer() {
        if (kafka::close_consumer_within(consumer.get(), remaining())) return;
        consumer_unclosed = true;
        KSTREAMS_LOG(warn, name + ": the consumer did not leave the group within the close timeout; the group "
                                  "will notice by session timeout");
    }
};

stream_thread::stream_thread(app_context& ctx, int index, asio::any_io_executor executor,
                             std::function<void(stream_thread&, std::exception_ptr)> on_exit)
    : ctx_(ctx), index_(index), name_(ctx.config.application_id + "-StreamThread-" + std::to_string(index + 1)),
      executor_(std::move(executor)), on_exit_(std::move(on_exit)) {}

stream_thread::~stream_thread() {
    request_stop();
    if (started_) join_until(std::chrono::steady_clock::time_point::max());
}

void stream_thread::start() {
    state_ = std::make_shared<state>(*this, ctx_, executor_);
    started_ = true;
    auto s = state_;
    asio::co_spawn(s->strand, s->run(), [this, s](std::exception_ptr e) { finish(e); });
}

/// Runs on the thread's strand when its loop ended.
void stream_thread::finish(std::exception_ptr error) {
    state& st = *state_;
    if (error) {
        try {
            std::rethrow_exception(error);
        } catch (const task_migrated_error& e) {
            KSTREAMS_LOG(warn, st.name + ": " + e.what() + "; closing its tasks dirty, a new thread rejoins the group");
        } catch (const std::exception& e) {
            KSTREAMS_LOG(error, st.name + " died: " + e.what());
        } catch (...) {
        }
        try {
            st.abandon();
        } catch (const std::exception& e) {
            KSTREAMS_LOG(warn, st.name + ": " + e.what());
        }
    }
    st.last_task_publish = 0;
    st.publish_metrics();
    st.teardown();
    if (ctx_.hosts) ctx_.hosts->remove_thread(index_);
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

void stream_thread::request_stop(std::chrono::steady_clock::time_point deadline, bool leave_group) {
    if (leave_group) stay_in_group_ = false;
    else if (!stop_requested_) stay_in_group_ = true;
    auto current = stop_deadline_.load();
    while (deadline < current && !stop_deadline_.compare_exchange_weak(current, deadline)) {
    }
    stop_requested_ = true;
    std::lock_guard lock(finished_mutex_);
    if (!finished_ && state_) state_->wake_up();
}

void stream_thread::wake() {
    std::lock_guard lock(finished_mutex_);
    if (!finished_ && state_) state_->wake_up();
}

bool stream_thread::join_until(std::chrono::steady_clock::time_point deadline) {
    std::unique_lock lock(finished_mutex_);
    if (deadline == std::chrono::steady_clock::time_point::max()) {
        finished_cv_.wait(lock, [this] { return finished_.load(); });
        return true;
    }
    return finished_cv_.wait_until(lock, deadline, [this] { return finished_.load(); });
}

kstreams::metrics stream_thread::metrics() const {
    std::lock_guard lock(metrics_mutex_);
    return published_metrics_;
}

thread_snapshot stream_thread::snapshot() const {
    std::lock_guard lock(metrics_mutex_);
    return {ctx_.config.application_id + "-StreamThread-" + std::to_string(index_ + 1), !finished_.load(), published_metrics_, published_tasks_,
            published_restoration_};
}

std::vector<store_restoration> stream_thread::restoration() const {
    std::lock_guard lock(metrics_mutex_);
    return published_restoration_;
}

}  // namespace kstreams::detail
