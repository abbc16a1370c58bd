#include "lib/runtime/stream_thread.hpp"

#include <fcntl.h>
#include <unistd.h>

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
#include "lib/kafka/kafka_ports.hpp"
#include "lib/runtime/task_manager.hpp"
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

}  // namespace

/// The librdkafka loop around the thread's task manager: it owns the clients, turns rebalance
/// callbacks into assignment changes, and sleeps on librdkafka's queue events between turns.
struct stream_thread::state {
    stream_thread& self;
    app_context& ctx;
    const std::string name;
    asio::io_context ioc{1};
    std::optional<asio::steady_timer> timer;
    kstreams::metrics metrics;
    /// The thread's record cache (Kafka's ThreadCache), shared by the caching stores of its tasks;
    /// declared before the tasks so that it outlives their stores.
    std::unique_ptr<kstreams::state::record_cache> cache;
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
    bool closing = false;      ///< the consumer is closing: rebalances are applied in the callback
    struct pending_change {
        bool assign = false;
        bool lost = false;
        std::vector<topic_partition> parts;
    };
    std::vector<pending_change> pending;  ///< recorded by the rebalance callback, applied by the loop
    std::int64_t last_publish = 0;  ///< when the counters were last published
    std::chrono::milliseconds client_timeout;

    state(stream_thread& s, app_context& c)
        : self(s), ctx(c), name(c.config.application_id + "-StreamThread-" + std::to_string(s.index_ + 1)),
          client_timeout(std::max<std::chrono::milliseconds>(c.config.startup_timeout, std::chrono::seconds(60))) {}

    ~state() {
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
        // Async processors run on this thread's loop; each completion wakes the loop up.
        env.executor = ioc.get_executor();
        env.async_done = [this] {
            if (timer) timer->cancel();
        };

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
        options.buffered_records_per_partition = cfg.buffered_records_per_partition;
        options.embedded = ctx.embedded;
        consumer_port = std::make_unique<kafka::kafka_consumer_port>(consumer.get(), collector->handle(), ctx.plan,
                                                                     std::move(options), metrics);
        restore_reader = std::make_unique<kafka::kafka_restore_reader>(restore_consumer.get(), client_timeout);
        producer_port = std::make_unique<kafka::kafka_producer_port>(*collector, client_timeout);
        task_manager_config tm;
        tm.name = name;
        tm.max_task_idle_ms = cfg.max_task_idle.count();
        tm.buffered_records_per_partition = cfg.buffered_records_per_partition;
        tm.commit_interval_ms = cfg.commit_interval.count();
        tm.restore_stall_timeout = client_timeout;
        tm.restore_listener = ctx.restore_listener.get();
        tm.max_async_in_flight = cfg.max_async_in_flight_per_task;
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
        set_rebalancing(true);
        pending_change change;
        change.assign = err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS;
        for (int i = 0; i < parts->cnt; ++i) change.parts.push_back({parts->elems[i].topic, parts->elems[i].partition});
        change.lost = !change.assign && rd_kafka_assignment_lost(consumer.get());
        pending.push_back(std::move(change));
        if (closing) apply_rebalance();
    }

    /// Applies the recorded assignment changes, in order.
    void apply_rebalance() {
        while (!pending.empty()) {
            if (!pending.front().assign && !pending.front().lost && !failed && !closing &&
                tasks->async_in_flight() > 0) {
                // A revocation commits: first the records in flight in async processors complete
                // (the tasks take no new records meanwhile; librdkafka waits for the unassign).
                tasks->hold_processing(true);
                return;
            }
            tasks->hold_processing(false);
            pending_change change = std::move(pending.front());
            pending.erase(pending.begin());
            try {
                if (change.assign) {
                    // The task manager looks up committed offsets and takes the partitions; the
                    // tasks' stores restore stepwise in the loop.
                    tasks->assign(change.parts);
                    if (!tasks->restoring()) set_rebalancing(false);
                } else {
                    if (change.lost) KSTREAMS_LOG(warn, name + ": partitions lost; closing tasks without committing");
                    if (change.lost || failed) tasks->lose();
                    else tasks->revoke();
                    publish_metrics();
                }
            } catch (...) {
                failed = true;
                pending.clear();
                rd_kafka_assign(consumer.get(), nullptr);
                throw;
            }
        }
    }

    void set_rebalancing(bool on) {
        if (rebalancing == on) return;
        rebalancing = on;
        ctx.on_rebalance(self.index_, on);
    }

    /// Makes the counters readable from other threads, with each input partition's consumer lag
    /// beside them. Called every poll round (at most every 10 ms while busy), so progress shows
    /// between commits.
    void publish_metrics() {
        kstreams::metrics snapshot = metrics;
        if (consumer_port) consumer_port->add_progress(snapshot);
        last_publish = now_ms();
        std::lock_guard lock(self.metrics_mutex_);
        self.published_metrics_ = std::move(snapshot);
    }

    /// Serves the consumer queue (rebalances, errors) and fills the buffers without blocking.
    /// Returns whether any record came.
    bool poll_consumer() {
        const bool any = consumer_port->poll();
        if (callback_error) std::rethrow_exception(callback_error);
        apply_rebalance();
        return tasks->fill_buffers() || any;
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
            bool progressed = tasks->restore_step();
            if (rebalancing && !tasks->restoring()) set_rebalancing(false);
            std::optional<std::int64_t> idle_until;
            progressed = tasks->process(idle_until) || progressed;
            progressed = tasks->punctuate_wall_clock() || progressed;
            if (tasks->maybe_commit() || !progressed || now_ms() - last_publish >= 10) publish_metrics();
            if (progressed && tasks->async_in_flight() > 0) {
                // Let the async processors' completions run (they are queued on this loop too).
                co_await asio::post(ioc, asio::use_awaitable);
                continue;
            }
            if (progressed) continue;
            // Nothing to do: sleep until librdkafka signals a queue, or the next deadline.
            drain_pipe();
            if (poll_consumer()) continue;
            std::int64_t deadline = std::min(tasks->next_deadline(), now_ms() + (tasks->restoring() ? 100 : 1000));
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
        co_await drain_async();
        wake.cancel();
        shutdown();
        co_return;
    }

    /// Before a clean stop: the records in flight in async processors complete (bounded by the
    /// client timeout; what is still in flight then is not committed and is processed again).
    task<void> drain_async() {
        tasks->hold_processing(true);
        const auto until = std::chrono::steady_clock::now() + client_timeout;
        while (tasks->async_in_flight() > 0 && std::chrono::steady_clock::now() < until) {
            poll_consumer();
            collector->poll();
            tasks->rethrow_async_errors();
            timer->expires_after(std::chrono::milliseconds(10));
            boost::system::error_code ec;
            co_await timer->async_wait(asio::redirect_error(asio::use_awaitable, ec));
        }
        tasks->rethrow_async_errors();
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
        publish_metrics();
        closing = true;
        rd_kafka_consumer_close(consumer.get());
        collector->flush(client_timeout);
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
        // The loop's end stops the context: async processors still suspended are dropped.
        asio::co_spawn(state_->ioc, state_->run(), [&error, this](std::exception_ptr e) {
            error = e;
            state_->ioc.stop();
        });
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
