#include <kstreams/streams.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include <boost/asio/thread_pool.hpp>

#include <kstreams/embedded_cluster.hpp>
#include <kstreams/error.hpp>
#include <kstreams/state/queryable_store.hpp>
#include <kstreams/state/state_query.hpp>
#include <kstreams/topology.hpp>

#include "lib/core/log.hpp"
#include "lib/kafka/topic_admin.hpp"
#include "lib/runtime/app_context.hpp"
#include "lib/runtime/global_thread.hpp"
#include "lib/runtime/host_directory.hpp"
#include "lib/observe/metric_registry.hpp"
#include "lib/observe/status_page.hpp"
#include "lib/observe/status_server.hpp"
#include "lib/runtime/metrics_reporter.hpp"
#include "lib/runtime/ports.hpp"
#include "lib/runtime/process_id.hpp"
#include "lib/runtime/query_registry.hpp"
#include "lib/runtime/standby_updater.hpp"
#include "lib/runtime/stream_thread.hpp"
#include "lib/runtime/streams_metadata.hpp"
#include "lib/state/record_cache.hpp"
#include "lib/state/task_directory_lock.hpp"

namespace kstreams {

namespace {

std::map<std::string, std::string> merged(std::map<std::string, std::string> base,
                                          const std::map<std::string, std::string>& over) {
    for (const auto& [k, v] : over) base[k] = v;
    return base;
}

bool is_embedded(const std::string& bootstrap) { return bootstrap.empty() || bootstrap == "embedded"; }

}  // namespace

struct kafka_streams::impl {
    std::unique_ptr<topology> owned;  ///< the topology, when the app was given it to keep
    const topology& topo;
    std::unique_ptr<embedded_cluster> own_cluster;  // destroyed after the threads
    embedded_cluster* cluster = nullptr;  ///< the embedded cluster the app runs on, if any
    /// num.stream.threads OS threads, shared by all stream threads and their tasks (stream_thread.hpp).
    std::unique_ptr<boost::asio::thread_pool> pool;
    /// Blocking calls of the stream threads (app_context::blocking): 2 per stream thread.
    std::unique_ptr<boost::asio::thread_pool> workers;
    detail::topology_groups groups;
    detail::app_context ctx;
    std::string bootstrap;

    mutable std::mutex mutex;
    mutable std::condition_variable changed;
    streams_state state = streams_state::created;
    std::set<int> rebalancing;
    /// start()'s work on a real cluster (run_startup); `starting` while it runs.
    std::thread starter;
    bool starting = false;
    /// ctx.plan is written (start()'s work may still be finding the cluster until then).
    std::atomic<bool> planned{false};
    std::exception_ptr first_error;
    std::mutex listener_mutex;
    state_listener listener;
    exception_handler handler;
    /// Who reads which partitions (interactive queries' metadata); outlives the stream threads.
    std::unique_ptr<detail::host_directory> hosts;
    /// The global stream thread (global stores); it outlives the stream threads, which read them.
    std::unique_ptr<detail::global_thread> global;
    /// The standby replicas (num.standby.replicas > 0); outlives the stream threads, which tell it
    /// when they open and close tasks.
    std::unique_ptr<detail::standby_updater> standbys;
    /// `standbys` for the API's calls (set by start()'s work, perhaps on another thread).
    detail::standby_updater* standby_updater() const {
        std::lock_guard lock(mutex);
        return standbys.get();
    }
    std::vector<std::unique_ptr<detail::stream_thread>> threads;
    std::vector<std::unique_ptr<detail::stream_thread>> retired;
    int live_threads = 0;
    /// add_stream_thread() calls before start()'s work has started the threads (it starts them too).
    int added_before_start = 0;
    /// OS threads attached to `pool` and `workers` for threads added by add_stream_thread().
    std::vector<std::thread> attached;
    metrics_listener metrics_to;
    std::chrono::milliseconds metrics_interval{1000};
    std::unique_ptr<detail::metrics_reporter> reporter;  // after the threads: it reads them
    detail::metric_registry registry;
    std::unique_ptr<detail::status_server> status;  ///< the status page, when status.listener asks for it

    /// Closes the status page (its handlers take `mutex`: destroyed outside it).
    void stop_status() {
        std::unique_ptr<detail::status_server> server;
        {
            std::lock_guard lock(mutex);
            server = std::move(status);
        }
    }

    /// What the metrics and the status page show: the client and each live stream thread.
    detail::client_snapshot observe() const {
        detail::client_snapshot c;
        c.application_id = ctx.config.application_id;
        c.client_id = ctx.config.application_id + (ctx.process_id.empty() ? "" : "-" + ctx.process_id);
        c.level = ctx.config.metrics_recording_level;
        std::lock_guard lock(mutex);
        c.state = to_string(state);
        for (const auto& t : threads) c.threads.push_back(t->snapshot());
        if (standbys) c.standbys = standbys->snapshot();
        return c;
    }

    kstreams::metrics summed_metrics() const {
        kstreams::metrics sum;
        std::lock_guard lock(mutex);
        if (global) {
            const kstreams::metrics m = global->metrics();
            for (const auto& [name, value] : m.all()) sum.counter(name) += value;
        }
        if (standbys) {
            const kstreams::metrics m = standbys->metrics();
            for (const auto& [name, value] : m.all()) sum.counter(name) += value;
        }
        for (const auto* list : {&threads, &retired})
            for (const auto& t : *list) {
                const kstreams::metrics m = t->metrics();
                for (const auto& [name, value] : m.all()) sum.counter(name) += value;
            }
        return sum;
    }

    impl(const topology& t, streams_config config, std::unique_ptr<topology> own = nullptr)
        : owned(std::move(own)), topo(t), groups(detail::group_topology(t.model())) {
        if (config.application_id.empty()) throw std::invalid_argument("streams config: application.id is required");
        if (config.num_stream_threads < 1)
            throw std::invalid_argument("streams config: num.stream.threads must be at least 1");
        if (config.num_standby_replicas < 0)
            throw std::invalid_argument("streams config: num.standby.replicas must not be negative, got " +
                                        std::to_string(config.num_standby_replicas));
        if (config.guarantee == processing_guarantee::exactly_once_v2 && !config.sink_bootstrap_servers.empty())
            throw std::invalid_argument(
                "streams config: processing.guarantee=exactly_once_v2 cannot write sinks to another cluster "
                "(sink_bootstrap_servers): a transaction does not span two clusters");
        if (!config.application_server.empty()) host_info::parse(config.application_server);  // throws
        if (config.commit_interval.count() < 0 && config.commit_interval != streams_config::default_commit_interval)
            throw std::invalid_argument("streams config: commit.interval.ms must not be negative");
        ctx.model = &t.model();
        ctx.groups = &groups;
        ctx.config = std::move(config);
        ctx.on_rebalance = [this](int thread, bool on) { thread_rebalancing(thread, on); };
        ctx.queries = std::make_shared<detail::query_registry>();
    }

    /// Moves to `next` and tells the listener; transitions out of a final state are ignored.
    void set_state(streams_state next) {
        streams_state old;
        {
            std::lock_guard lock(mutex);
            old = state;
            if (old == next || old == streams_state::not_running || old == streams_state::error) return;
            if (old == streams_state::pending_shutdown && next != streams_state::not_running) return;
            if (old == streams_state::pending_error && next != streams_state::error) return;
            state = next;
            ctx.queries->app_state = next;
        }
        changed.notify_all();
        KSTREAMS_LOG(info, "stream-client " + ctx.config.application_id + ": state " + to_string(old) + " -> " +
                               to_string(next));
        std::lock_guard lock(listener_mutex);
        if (listener) listener(next, old);
    }

    void thread_rebalancing(int thread, bool on) {
        streams_state next;
        {
            std::lock_guard lock(mutex);
            if (on) rebalancing.insert(thread);
            else rebalancing.erase(thread);
            if (state != streams_state::rebalancing && state != streams_state::running) return;
            next = rebalancing.empty() ? streams_state::running : streams_state::rebalancing;
        }
        if (!on && standbys) standbys->wake();  // the placement follows the new assignment
        set_state(next);
    }

    void fail(std::exception_ptr e) {
        {
            std::lock_guard lock(mutex);
            if (!first_error) first_error = e;
        }
        set_state(streams_state::pending_error);
        if (global) global->request_stop();  // Kafka's closeToError stops the global thread too
    }

    /// Runs on the global thread when it died of an error after its restore: the app goes to ERROR
    /// whatever the handler says (Kafka Streams: "The global thread cannot be replaced").
    void global_died(std::exception_ptr e) {
        {
            std::lock_guard lock(mutex);
            if (state == streams_state::pending_shutdown || state == streams_state::not_running ||
                state == streams_state::pending_error || state == streams_state::error) {
                if (!first_error) first_error = e;
                return;
            }
        }
        exception_handler h;
        {
            std::lock_guard lock(mutex);
            h = handler;
        }
        if (h) {
            try {
                if (h(e) == uncaught_exception_response::replace_thread)
                    KSTREAMS_LOG(warn, "stream-client " + ctx.config.application_id +
                                           ": the global thread cannot be replaced; shutting down the client");
            } catch (...) {
            }
        }
        fail(e);
        bool last;
        {
            std::lock_guard lock(mutex);
            for (auto& t : threads) t->request_stop();
            last = live_threads == 0;
        }
        if (last) set_state(streams_state::error);
    }

    std::map<std::string, std::string> common_settings() const {
        auto s = ctx.config.kafka;
        s["bootstrap.servers"] = bootstrap;
        return s;
    }

    void start_thread(int index) {
        auto t = std::make_unique<detail::stream_thread>(
            ctx, index, pool->get_executor(), [this](detail::stream_thread& th, std::exception_ptr e) { thread_exited(th, e); });
        detail::stream_thread& started = *t;
        {
            // Listed before it starts, so that a close() from now on stops it.
            std::lock_guard lock(mutex);
            if (stopping_locked()) return;
            rebalancing.insert(index);
            ++live_threads;
            threads.push_back(std::move(t));
        }
        started.start();
    }

    /// Runs on the exiting thread.
    void thread_exited(detail::stream_thread& th, std::exception_ptr e) {
        uncaught_exception_response response = uncaught_exception_response::shutdown_client;
        bool stopping;
        {
            std::lock_guard lock(mutex);
            --live_threads;
            rebalancing.erase(th.index());
            stopping = state == streams_state::pending_shutdown || state == streams_state::not_running ||
                       state == streams_state::pending_error || state == streams_state::error;
        }
        bool migrated = false;
        if (e) {
            try {
                std::rethrow_exception(e);
            } catch (const detail::task_migrated_error&) {
                migrated = true;
            } catch (...) {
            }
        }
        if (e && !stopping) {
            if (migrated) {
                // Exactly-once: its transaction aborted or its producer fenced. As Kafka Streams
                // handles a TaskMigratedException inside the thread (tasks closed dirty, a new
                // producer, the group joined again), the thread is replaced; no handler is asked.
                response = uncaught_exception_response::replace_thread;
            } else if (handler) {
                try {
                    response = handler(e);
                } catch (...) {
                    response = uncaught_exception_response::shutdown_client;
                }
            }
            if (response == uncaught_exception_response::replace_thread) {
                KSTREAMS_LOG(warn, "stream-client " + ctx.config.application_id + ": replacing stream thread " +
                                       std::to_string(th.index() + 1));
                {
                    std::lock_guard lock(mutex);
                    for (auto it = threads.begin(); it != threads.end(); ++it)
                        if (it->get() == &th) {
                            retired.push_back(std::move(*it));
                            threads.erase(it);
                            break;
                        }
                }
                start_thread(th.index());
                return;
            }
            fail(e);
            std::lock_guard lock(mutex);
            for (auto& t : threads)
                if (t.get() != &th) t->request_stop();
        } else if (e) {
            std::lock_guard lock(mutex);
            if (!first_error) first_error = e;
        }
        bool last;
        {
            std::lock_guard lock(mutex);
            last = live_threads == 0 && state == streams_state::pending_error;
        }
        if (last) set_state(streams_state::error);
    }

    /// Everything start() does without the cluster: the clients' settings, the embedded cluster,
    /// the process id. Throws what is wrong.
    void configure() {
        const auto& cfg = ctx.config;
        if (is_embedded(cfg.bootstrap_servers)) {
            own_cluster = std::make_unique<embedded_cluster>(1);
            cluster = own_cluster.get();
            bootstrap = cluster->bootstrap_servers();
        } else {
            bootstrap = cfg.bootstrap_servers;
            cluster = embedded_cluster::find(bootstrap);
        }
        ctx.embedded = cluster != nullptr;
        const bool eos = cfg.guarantee == processing_guarantee::exactly_once_v2;
        if (eos && cluster)
            throw streams_error("processing.guarantee=exactly_once_v2 needs a real Kafka cluster: the embedded "
                                "cluster (librdkafka's mock cluster) has no transactions that read_committed "
                                "consumers can rely on");
        ctx.rocksdb = std::make_shared<state::rocksdb_shared>(cfg.rocksdb);
        const auto common = common_settings();
        // librdkafka's prefetch bounds (100,000 records, 64 MiB) are per queue: for one consumer
        // queue they bound the consumer, but kstreams reads each partition from a queue of its own
        // (lib/kafka/fetch_queue.hpp), where they apply per partition. Half of each: the fetcher
        // otherwise keeps allocating fresh memory (page faults, a fifth of its CPU at 4 partitions)
        // for records the tasks cannot take yet; half keeps the rate at 1 and 4 partitions
        // (a quarter lost some at 4: benchmarks/e2e/PROFILES.md).
        ctx.consumer_settings = merged(merged({{"partition.assignment.strategy", "range"},
                                               {"auto.offset.reset", "earliest"},
                                               {"isolation.level", "read_uncommitted"},
                                               {"max.poll.interval.ms", "300000"},
                                               {"queued.min.messages", "50000"},
                                               {"queued.max.messages.kbytes", "32768"}},
                                              common),
                                       cfg.consumer);
        ctx.consumer_settings["group.id"] = cfg.application_id;
        ctx.consumer_settings["enable.auto.commit"] = "false";
        ctx.consumer_settings["enable.auto.offset.store"] = "false";
        ctx.consumer_settings["partition.assignment.strategy"] = "range";
        ctx.restore_settings = merged(common, cfg.consumer);
        ctx.restore_settings.erase("group.instance.id");
        ctx.restore_settings["group.id"] = cfg.application_id + "-restore";
        ctx.restore_settings["enable.auto.commit"] = "false";
        ctx.restore_settings["enable.partition.eof"] = "true";
        ctx.restore_settings["auto.offset.reset"] = "earliest";
        if (eos) {
            // Kafka Streams' overrides under exactly-once: consumers see only committed records
            // (inputs, repartition topics, changelogs while restoring); the producers are
            // idempotent and transactional (transaction.timeout.ms 10 s unless set).
            ctx.consumer_settings["isolation.level"] = "read_committed";
            ctx.restore_settings["isolation.level"] = "read_committed";
        }
        ctx.producer_settings = merged(merged({{"partitioner", "murmur2_random"},
                                               {"enable.idempotence", "true"},
                                               {"linger.ms", "100"}},
                                              common),
                                       cfg.producer);
        if (eos) {
            ctx.producer_settings["enable.idempotence"] = "true";
            ctx.producer_settings.try_emplace("transaction.timeout.ms", "10000");
        }
        // The process id names the transactional producers (exactly-once) and, with standbys, the
        // instance among the group's members (standby_placement.hpp).
        if (eos || cfg.num_standby_replicas > 0) {
            bool persistent = false;
            for (const auto& s : topo.model().stores)
                if (!s.global && detail::build_store(*s.builder, cfg.default_dsl_store)->persistent()) persistent = true;
            ctx.process_id = detail::load_process_id(
                cfg.state_dir.empty() ? std::filesystem::path() : cfg.state_dir / cfg.application_id, persistent);
            KSTREAMS_LOG(info, "stream-client " + cfg.application_id + ": process id " + ctx.process_id +
                                   (eos ? " (exactly_once_v2)" : "") +
                                   (cfg.num_standby_replicas > 0
                                        ? " (num.standby.replicas=" + std::to_string(cfg.num_standby_replicas) + ")"
                                        : ""));
        }
        if (!cfg.sink_bootstrap_servers.empty()) {
            ctx.sink_producer_settings = ctx.producer_settings;
            (*ctx.sink_producer_settings)["bootstrap.servers"] =
                is_embedded(cfg.sink_bootstrap_servers) ? bootstrap : cfg.sink_bootstrap_servers;
        }
        hosts = std::make_unique<detail::host_directory>(merged(common, cfg.admin), cfg.application_id,
                                                         cfg.application_server, cluster != nullptr,
                                                         std::chrono::milliseconds(5000),
                                                         cfg.num_standby_replicas > 0 ? ctx.process_id : std::string());
        ctx.hosts = hosts.get();
    }

    /// Not running any more, or on its way out (under `mutex`).
    bool stopping_locked() const {
        return state == streams_state::pending_shutdown || state == streams_state::not_running ||
               state == streams_state::pending_error || state == streams_state::error;
    }

    bool stopping() const {
        std::lock_guard lock(mutex);
        return stopping_locked();
    }

    /// Waits up to `d` or until the app stops; whether it is stopping.
    bool pause_unless_stopping(std::chrono::milliseconds d) {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, d, [this] { return stopping_locked(); });
    }

    /// Checks the cluster (source topics exist and are co-partitioned) and creates the internal
    /// topics, waiting for the cluster to answer for up to task.timeout.ms from the first try (each
    /// call bounded by startup_timeout). Throws streams_error naming the bootstrap servers and the
    /// bound when the cluster never answered; false if the app stopped meanwhile.
    bool connect_and_plan() {
        const auto& cfg = ctx.config;
        kafka::topic_admin admin(merged(common_settings(), cfg.admin), cfg.startup_timeout, cluster);
        const auto since = std::chrono::steady_clock::now();
        const auto deadline = since + cfg.task_timeout;
        auto last_warning = since;
        for (;;) {
            try {
                // Probing in short calls keeps close() prompt while the cluster is away.
                while (!cluster && !admin.reachable(std::clamp<std::chrono::milliseconds>(
                                       std::chrono::duration_cast<std::chrono::milliseconds>(
                                           deadline - std::chrono::steady_clock::now()),
                                       std::chrono::milliseconds(1), std::chrono::milliseconds(1000)))) {
                    if (stopping()) return false;
                    const auto now = std::chrono::steady_clock::now();
                    if (now >= deadline) throw kafka::cluster_unreachable("no broker answered");
                    if (now - last_warning >= std::chrono::seconds(10)) {
                        last_warning = now;
                        KSTREAMS_LOG(warn, "stream-client " + cfg.application_id +
                                               ": waiting for the Kafka cluster at bootstrap.servers=" + bootstrap +
                                               " to answer (" +
                                               std::to_string(std::chrono::duration_cast<std::chrono::seconds>(now - since).count()) +
                                               " s so far, task.timeout.ms=" + std::to_string(cfg.task_timeout.count()) + ")");
                    }
                }
                ctx.plan = detail::plan_topics(
                    topo.model(), groups, admin,
                    {cfg.application_id, cfg.replication_factor, own_cluster != nullptr, cfg.embedded_partitions,
                     cfg.sink_bootstrap_servers.empty() && cluster == nullptr, cfg.errors.dead_letter_queue_topic,
                     detail::internal_topic_configs(cfg.app_configs),
                     detail::window_changelog_additional_retention(cfg.app_configs)});
                planned = true;
                return true;
            } catch (const kafka::cluster_unreachable& e) {
                if (std::chrono::steady_clock::now() >= deadline)
                    throw streams_error("could not reach the Kafka cluster at bootstrap.servers=" + bootstrap +
                                        " within task.timeout.ms (" + std::to_string(cfg.task_timeout.count()) +
                                        " ms): " + e.what());
                KSTREAMS_LOG(warn, "stream-client " + cfg.application_id + ": " + e.what() + "; trying again");
                if (pause_unless_stopping(std::chrono::milliseconds(200))) return false;
            }
        }
    }

    /// After a failure at start: the error state, said in the log.
    void failed_to_start(std::exception_ptr e) {
        fail(e);
        set_state(streams_state::error);
        try {
            std::rethrow_exception(e);
        } catch (const std::exception& ex) {
            KSTREAMS_LOG(error, "stream-client " + ctx.config.application_id + ": " + ex.what());
        } catch (...) {
        }
    }

    /// start()'s work on a real cluster without global stores, on a thread of its own while the app
    /// is REBALANCING, as Kafka's stream threads find the cluster after start() returned. A failure
    /// is told to the uncaught exception handler as a stream thread's would be: replace_thread
    /// tries again (a new bound), else the app goes to ERROR.
    void run_startup() {
        for (;;) {
            std::exception_ptr e;
            try {
                if (connect_and_plan()) start_threads();
            } catch (...) {
                e = std::current_exception();
            }
            if (!e) break;
            if (stopping()) {
                std::lock_guard lock(mutex);
                if (!first_error) first_error = e;
                break;
            }
            exception_handler h;
            {
                std::lock_guard lock(mutex);
                h = handler;
            }
            auto response = uncaught_exception_response::shutdown_client;
            if (h) {
                try {
                    response = h(e);
                } catch (...) {
                }
            }
            if (response != uncaught_exception_response::replace_thread) {
                failed_to_start(e);
                break;
            }
            try {
                std::rethrow_exception(e);
            } catch (const std::exception& ex) {
                KSTREAMS_LOG(warn, "stream-client " + ctx.config.application_id + ": " + ex.what() +
                                       "; the uncaught exception handler said replace_thread: trying again");
            } catch (...) {
            }
            if (pause_unless_stopping(std::chrono::milliseconds(1000))) break;
        }
        {
            std::lock_guard lock(mutex);
            starting = false;
        }
        changed.notify_all();
    }

    void start_threads() {
        int n;
        {
            std::lock_guard lock(mutex);
            n = ctx.config.num_stream_threads + added_before_start;
            added_before_start = 0;
        }
        ctx.cache_sharing_threads = n;
        start_standbys();
        for (int i = 0; i < ctx.config.num_stream_threads; ++i) start_thread(i);
        for (int i = ctx.config.num_stream_threads; i < n; ++i) {
            attach_os_threads();
            start_thread(i);
        }
    }

    /// The standby updater, before the stream threads (they tell it about the tasks they open). One
    /// that cannot start leaves the app without standbys, said in a warning.
    void start_standbys() {
        if (ctx.config.num_standby_replicas <= 0 || standbys) return;
        try {
            auto updater = std::make_unique<detail::standby_updater>(ctx);
            updater->start();
            std::lock_guard lock(mutex);  // summed_metrics() reads it
            standbys = std::move(updater);
            ctx.standbys = standbys.get();
        } catch (const std::exception& e) {
            KSTREAMS_LOG(warn, "stream-client " + ctx.config.application_id +
                                   ": the standby replicas could not start, so there are none: " + e.what());
        }
    }

    /// One more OS thread for the stream threads' executor and two for their blocking calls, as
    /// start() sizes them per stream thread. (They stay when a thread is removed.)
    void attach_os_threads() {
        std::lock_guard lock(mutex);
        attached.emplace_back([p = pool.get()] { p->attach(); });
        for (int i = 0; i < 2; ++i) attached.emplace_back([w = workers.get()] { w->attach(); });
    }

    /// The stream threads alive (listed and not finished), under `mutex`.
    std::vector<detail::stream_thread*> alive_locked() const {
        std::vector<detail::stream_thread*> out;
        for (const auto& t : threads)
            if (!t->finished()) out.push_back(t.get());
        return out;
    }

    std::optional<std::string> add_stream_thread() {
        int index = 0;
        {
            std::lock_guard lock(mutex);
            if (state != streams_state::running && state != streams_state::rebalancing) return std::nullopt;
            std::set<int> used;
            if (starting && threads.empty()) {
                // start()'s work has not started the threads yet: it starts this one with them.
                for (int i = 0; i < ctx.config.num_stream_threads + added_before_start; ++i) used.insert(i);
                while (used.count(index)) ++index;
                ++added_before_start;
                return ctx.config.application_id + "-StreamThread-" + std::to_string(index + 1);
            }
            for (const auto* t : alive_locked()) used.insert(t->index());
            while (used.count(index)) ++index;
            ctx.cache_sharing_threads = static_cast<int>(used.size()) + 1;
        }
        attach_os_threads();
        start_thread(index);
        std::lock_guard lock(mutex);
        for (const auto& t : threads)
            if (t->index() == index && !t->finished()) return t->name();
        return std::nullopt;  // the app began to stop meanwhile
    }

    std::optional<std::string> remove_stream_thread(std::chrono::milliseconds timeout) {
        detail::stream_thread* victim = nullptr;
        {
            std::lock_guard lock(mutex);
            if (state != streams_state::running && state != streams_state::rebalancing) return std::nullopt;
            const auto alive = alive_locked();
            if (alive.empty()) return std::nullopt;
            victim = alive.back();
            for (auto it = threads.begin(); it != threads.end(); ++it)
                if (it->get() == victim) {
                    retired.push_back(std::move(*it));
                    threads.erase(it);
                    break;
                }
            rebalancing.erase(victim->index());
        }
        const std::string name = victim->name();
        const auto deadline = timeout >= std::chrono::hours(24 * 365) ? std::chrono::steady_clock::time_point::max()
                                                                       : std::chrono::steady_clock::now() + timeout;
        victim->request_stop(deadline);
        if (!victim->join_until(deadline))
            throw streams_error("kafka_streams::remove_stream_thread(): " + name + " did not stop within " +
                                std::to_string(timeout.count()) + " ms");
        // The app's state without it: RUNNING unless another thread still rebalances.
        thread_rebalancing(victim->index(), false);
        return name;
    }

    void set_paused(bool on) {
        ctx.paused = on;
        if (on) return;
        std::lock_guard lock(mutex);
        for (auto& t : threads) t->wake();
    }

    void start() {
        {
            std::lock_guard lock(mutex);
            if (state != streams_state::created)
                throw std::logic_error("kafka_streams::start() may be called only once, in state CREATED");
        }
        try {
            configure();
        } catch (...) {
            failed_to_start(std::current_exception());
            throw;
        }
        set_state(streams_state::rebalancing);
        if (detail::status_server::wanted(ctx.config.status_listener)) {
            try {
                auto server = std::make_unique<detail::status_server>(
                    ctx.config.status_listener, detail::status_routes(topo, [this] { return observe(); }, registry));
                std::lock_guard lock(mutex);
                status = std::move(server);
            } catch (...) {
                fail(std::current_exception());
                set_state(streams_state::error);
                throw;
            }
        }
        pool = std::make_unique<boost::asio::thread_pool>(static_cast<std::size_t>(ctx.config.num_stream_threads));
        // What runs there blocks in librdkafka or on disk: each stream thread's loop awaits at most
        // one job at a time (applying an assignment: committed offsets and opening stores; a
        // commit: producer flush, offset commit, checkpoints; exactly-once's init_transactions),
        // beside at most one committed-offset lookup ahead of it and its restore consumer's
        // end-offset queries. Two workers per stream thread: a flush waiting out task.timeout.ms on
        // one thread never holds up another thread's commit or lookup.
        workers = std::make_unique<boost::asio::thread_pool>(2 * static_cast<std::size_t>(ctx.config.num_stream_threads));
        ctx.blocking = workers->get_executor();
        if (metrics_to)
            reporter = std::make_unique<detail::metrics_reporter>(
                metrics_to, [this] { return summed_metrics(); }, metrics_interval);
        if (!cluster && !groups.has_global()) {
            // A real cluster: start() returns in REBALANCING while the cluster is found (it may not
            // be up yet), as Kafka's.
            {
                std::lock_guard lock(mutex);
                starting = true;
            }
            starter = std::thread([this] { run_startup(); });
            return;
        }
        // The embedded cluster is in this process: its topics are there when start() returns.
        // Global stores: as Kafka's KafkaStreams.start(), they are restored before it returns (and
        // before any stream thread processes), and what fails there is thrown here.
        try {
            if (!connect_and_plan()) return;
            if (groups.has_global()) {
                {
                    std::lock_guard lock(mutex);  // restoration_progress() reads it while start() restores
                    global = std::make_unique<detail::global_thread>(ctx, [this](std::exception_ptr e) { global_died(e); });
                }
                ctx.global_store = [this](std::string_view name) { return global->find_store(name); };
                ctx.global_lock = &global->lock();
                global->start();
            }
        } catch (...) {
            failed_to_start(std::current_exception());
            throw;
        }
        start_threads();
    }

    bool close(std::chrono::milliseconds timeout, bool leave_group = true) {
        {
            std::unique_lock lock(mutex);
            if (state == streams_state::not_running) return true;
        }
        set_state(streams_state::pending_shutdown);
        const auto now = std::chrono::steady_clock::now();
        const auto deadline = timeout >= std::chrono::hours(24 * 365) ? std::chrono::steady_clock::time_point::max()
                                                                       : now + timeout;
        std::vector<detail::stream_thread*> all;
        {
            // start()'s work still finding the cluster gives up (it starts no thread from now on).
            std::unique_lock lock(mutex);
            const auto started = [this] { return !starting; };
            if (deadline == std::chrono::steady_clock::time_point::max()) changed.wait(lock, started);
            else if (!changed.wait_until(lock, deadline, started)) return false;
            for (auto& t : threads) all.push_back(t.get());
            for (auto& t : retired) all.push_back(t.get());
        }
        // The threads bound their own shutdown (flushes) by it, so they end soon after it too.
        if (leave_group && !ctx.config.group_instance_id.empty())
            KSTREAMS_LOG(warn, "stream-client " + ctx.config.application_id +
                                   ": close asked to leave the group, but a static member (group.instance.id) cannot "
                                   "leave through librdkafka; the group notices by session timeout");
        // The standbys first: they close while the tasks they would take over still run.
        if (standbys) standbys->stop();
        for (auto* t : all) t->request_stop(deadline, leave_group);
        bool ok = true;
        for (auto* t : all) ok = t->join_until(deadline) && ok;
        if (global) {
            // After the stream threads: their tasks read the global stores.
            global->request_stop();
            ok = global->join_until(deadline) && ok;
        }
        if (ok) reporter.reset();  // its last report holds the final counters
        if (ok) stop_status();
        if (ok) set_state(streams_state::not_running);
        return ok;
    }
};

kafka_streams::kafka_streams(const topology& t, streams_config config)
    : impl_(std::make_unique<impl>(t, std::move(config))) {}

kafka_streams::kafka_streams(topology&& t, streams_config config) {
    auto own = std::make_unique<topology>(std::move(t));
    const topology& ref = *own;
    impl_ = std::make_unique<impl>(ref, std::move(config), std::move(own));
}

kafka_streams::~kafka_streams() {
    impl_->stop_status();  // its handlers read the threads
    try {
        impl_->close(std::chrono::milliseconds::max());
    } catch (const std::exception& e) {
        KSTREAMS_LOG(error, std::string("closing the streams app: ") + e.what());
    }
    if (impl_->starter.joinable()) impl_->starter.join();
    impl_->reporter.reset();
    // Threads are joined by their destructors before the embedded cluster goes.
    impl_->threads.clear();
    impl_->retired.clear();
    if (impl_->pool) {
        // What is still queued (a wake-up of a finished thread, an async processor's call that
        // never completed) is dropped.
        impl_->pool->stop();
        impl_->pool->join();
    }
    if (impl_->workers) {
        impl_->workers->join();  // the threads waited for their jobs
        impl_->workers->stop();  // then the threads attached to it return
    }
    for (auto& t : impl_->attached) t.join();
    impl_->global.reset();
    impl_->ctx.standbys = nullptr;
    impl_->standbys.reset();
    impl_->hosts.reset();
}

void kafka_streams::start() { impl_->start(); }
void kafka_streams::pause() { impl_->set_paused(true); }
void kafka_streams::resume() { impl_->set_paused(false); }
bool kafka_streams::is_paused() const { return impl_->ctx.paused.load(); }
std::optional<std::string> kafka_streams::add_stream_thread() { return impl_->add_stream_thread(); }
std::optional<std::string> kafka_streams::remove_stream_thread(std::chrono::milliseconds timeout) {
    return impl_->remove_stream_thread(timeout);
}
bool kafka_streams::close(std::chrono::milliseconds timeout) { return impl_->close(timeout); }
bool kafka_streams::close(const close_options& options) { return impl_->close(options.timeout, options.leave_group); }

void kafka_streams::clean_up() {
    {
        std::lock_guard lock(impl_->mutex);
        const streams_state s = impl_->state;
        if (s != streams_state::created && s != streams_state::not_running && s != streams_state::error)
            throw std::logic_error(std::string("kafka_streams::clean_up(): cannot clean up while the app runs (state ") +
                                   to_string(s) + "); call it before start() or after close()");
    }
    const auto& cfg = impl_->ctx.config;
    const std::filesystem::path dir = cfg.state_dir / cfg.application_id;
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) return;
    // Every task directory's lock first, so that nothing another instance still uses is deleted.
    std::vector<state::task_directory_lock> locks;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.is_directory() && std::filesystem::exists(e.path() / ".lock")) locks.emplace_back(e.path());
    KSTREAMS_LOG(info, "stream-client " + cfg.application_id + ": deleting the local state directory " + dir.string());
    std::filesystem::remove_all(dir, ec);
    if (ec) throw streams_error("kafka_streams::clean_up(): cannot delete " + dir.string() + ": " + ec.message());
}

streams_state kafka_streams::state() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->state;
}

bool kafka_streams::wait_until(streams_state s, std::chrono::milliseconds timeout) const {
    std::unique_lock lock(impl_->mutex);
    impl_->changed.wait_for(lock, timeout, [&] {
        return impl_->state == s || impl_->state == streams_state::error ||
               impl_->state == streams_state::not_running;
    });
    return impl_->state == s;
}

void kafka_streams::set_state_listener(state_listener listener) {
    std::lock_guard lock(impl_->listener_mutex);
    impl_->listener = std::move(listener);
}

void kafka_streams::set_uncaught_exception_handler(exception_handler handler) {
    std::lock_guard lock(impl_->mutex);
    impl_->handler = std::move(handler);
}

void kafka_streams::set_global_state_restore_listener(std::shared_ptr<state_restore_listener> listener) {
    std::lock_guard lock(impl_->mutex);
    if (impl_->state != streams_state::created)
        throw std::logic_error("kafka_streams: set the global state restore listener before start()");
    impl_->ctx.restore_listener = std::move(listener);
}

std::string kafka_streams::bootstrap_servers() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->bootstrap;
}

kstreams::metrics kafka_streams::metrics() const { return impl_->summed_metrics(); }

std::vector<metric_sample> kafka_streams::metric_samples() const { return impl_->registry.samples(impl_->observe()); }

std::vector<store_restoration> kafka_streams::restoration_progress() const {
    std::vector<store_restoration> out;
    std::lock_guard lock(impl_->mutex);
    if (impl_->global) out = impl_->global->restoration();
    for (const auto& t : impl_->threads) {
        auto r = t->restoration();
        out.insert(out.end(), std::make_move_iterator(r.begin()), std::make_move_iterator(r.end()));
    }
    return out;
}

void kafka_streams::set_metrics_listener(metrics_listener listener, std::chrono::milliseconds interval) {
    if (interval.count() <= 0)
        throw std::invalid_argument("kafka_streams: the metrics listener's interval must be positive");
    std::lock_guard lock(impl_->mutex);
    if (impl_->state != streams_state::created)
        throw std::logic_error("kafka_streams: set the metrics listener before start()");
    impl_->metrics_to = std::move(listener);
    impl_->metrics_interval = interval;
}

std::string kafka_streams::status_address() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->status ? impl_->status->address() : std::string{};
}

namespace {

/// A global store, read under the global thread's lock (which it holds while it writes).
class global_store_instance final : public detail::queryable_instance {
public:
    global_store_instance(state_store* store, std::recursive_mutex* lock) : store_(store), lock_(lock) {}
    kstreams::task_id task() const override { return {-1, -1}; }
    void read(const std::function<void(state_store&)>& read) const override {
        std::unique_lock<std::recursive_mutex> guard;
        if (lock_) guard = std::unique_lock(*lock_);
        if (!store_->is_open()) throw invalid_state_store_error("the global store " + store_->name() + " is closed");
        const state::query_read_scope marked;
        read(*store_);
    }

private:
    state_store* store_;
    std::recursive_mutex* lock_;
};

void require_running(streams_state s) {
    if (s == streams_state::created)
        throw streams_not_started_error("KafkaStreams has not been started, you can retry after calling start()");
    if (s != streams_state::running && s != streams_state::rebalancing)
        throw invalid_state_store_error(std::string("KafkaStreams is not running. State is ") + to_string(s) + ".");
}

/// The topology's store of this name; throws unknown_state_store_error.
template <class Stores>
const auto& store_named(const Stores& stores, const std::string& store) {
    auto def = std::find_if(stores.begin(), stores.end(), [&](const auto& d) { return d.builder->name() == store; });
    if (def == stores.end())
        throw unknown_state_store_error("Cannot get state store " + store +
                                        " because no such store is registered in the topology.");
    return *def;
}

}  // namespace

detail::instance_provider kafka_streams::query_provider(const std::string& store, bool stale_stores,
                                                        std::optional<std::int32_t> partition) const {
    auto queries = impl_->ctx.queries;
    {
        std::lock_guard lock(impl_->mutex);
        require_running(impl_->state);
    }
    const auto* def = &store_named(impl_->topo.model().stores, store);
    if (def->global) {
        // As Kafka's GlobalStateStoreProvider: the one global instance, whatever the partition.
        state_store* global = impl_->ctx.global_store ? impl_->ctx.global_store(store) : nullptr;
        if (!global) throw invalid_state_store_error("the global store " + store + " is not open");
        auto instance = std::make_shared<global_store_instance>(global, impl_->ctx.global_lock);
        return [queries, instance]() -> std::vector<std::shared_ptr<detail::queryable_instance>> {
            const streams_state s = queries->app_state.load();
            if (s != streams_state::running && s != streams_state::rebalancing)
                throw invalid_state_store_error(std::string("KafkaStreams is not running. State is ") + to_string(s) +
                                                ".");
            return {instance};
        };
    }
    return [queries, store, stale_stores, partition] { return queries->instances(store, stale_stores, partition); };
}

std::vector<detail::partition_query> kafka_streams::query_partitions(
    const std::string& store, const std::optional<std::vector<std::int32_t>>& partitions, bool require_active) const {
    const auto& def = store_named(impl_->topo.model().stores, store);
    {
        std::lock_guard lock(impl_->mutex);
        require_running(impl_->state);
    }
    if (def.global) return {detail::partition_query{}};  // as Kafka's: a global result, unknown query type
    return impl_->ctx.queries->partition_queries(store, partitions, require_active);
}

std::map<std::string, std::map<std::int32_t, lag_info>> kafka_streams::all_local_store_partition_lags() const {
    const detail::client_snapshot client = impl_->observe();
    std::map<std::string, std::map<std::int32_t, lag_info>> out;
    std::optional<kafka::topic_admin> admin;
    for (const auto& thread : client.threads)
        for (const auto& task : thread.tasks)
            for (const auto& c : task.changelogs) {
                if (!admin)
                    admin.emplace(merged(impl_->common_settings(), impl_->ctx.config.admin),
                                  impl_->ctx.config.startup_timeout, impl_->cluster);
                const std::int64_t end = admin->end_offset(c.topic, c.partition);
                const std::int64_t current = c.offset == -2 ? end : c.offset;
                out[c.store][c.partition] = {current, end, std::max<std::int64_t>(0, end - current)};
            }
    // Standby replicas too (as Kafka's): where their stores are in the changelogs.
    if (auto* updater = impl_->standby_updater())
        for (const auto& task : updater->snapshot())
            for (const auto& c : task.changelogs) {
                if (out.count(c.store) && out[c.store].count(c.partition)) continue;  // active here too
                if (!admin)
                    admin.emplace(merged(impl_->common_settings(), impl_->ctx.config.admin),
                                  impl_->ctx.config.startup_timeout, impl_->cluster);
                const std::int64_t end = admin->end_offset(c.topic, c.partition);
                const std::int64_t current = std::max<std::int64_t>(0, c.offset);
                out[c.store][c.partition] = {current, end, std::max<std::int64_t>(0, end - current)};
            }
    return out;
}

std::vector<streams_metadata> kafka_streams::metadata_for_all_streams_clients() const {
    require_running(state());
    const auto members = impl_->hosts->members();
    if (!members) return {};
    return detail::hosts_metadata(impl_->ctx, *members);
}

std::vector<streams_metadata> kafka_streams::streams_metadata_for_store(const std::string& store) const {
    require_running(state());
    const auto& stores = impl_->topo.model().stores;
    auto def = std::find_if(stores.begin(), stores.end(), [&](const auto& d) { return d.builder->name() == store; });
    if (def == stores.end())
        throw unknown_state_store_error("Cannot get metadata for state store " + store +
                                        " because no such store is registered in the topology.");
    std::vector<streams_metadata> out;
    for (auto& md : metadata_for_all_streams_clients())
        if (md.state_store_names.count(store)) out.push_back(std::move(md));
    return out;
}

key_query_metadata kafka_streams::query_metadata_for_partition(
    const std::string& store, const std::function<std::int32_t(std::int32_t)>& choose) const {
    require_running(state());
    const auto members = impl_->hosts->members();
    const std::string& server = impl_->ctx.config.application_server;
    const host_info self = server.empty() ? host_info::unavailable() : host_info::parse(server);
    if (!members && !impl_->planned) {
        // The cluster not found yet: no partition count to place the key by.
        const auto& stores = impl_->topo.model().stores;
        if (std::none_of(stores.begin(), stores.end(), [&](const auto& d) { return d.builder->name() == store; }))
            throw unknown_state_store_error("Cannot get metadata for state store " + store +
                                            " because no such store is registered in the topology.");
        return key_query_metadata::not_available();
    }
    if (!members) {
        // Still tells an unknown name apart from an assignment not known yet.
        detail::key_metadata(impl_->ctx, {}, store, self, [](std::int32_t) { return 0; });
        return key_query_metadata::not_available();
    }
    return detail::key_metadata(impl_->ctx, *members, store, self, choose);
}

std::int32_t kafka_streams::default_partition(std::string_view key_bytes, std::int32_t partitions) {
    return detail::murmur2_partition(key_bytes, partitions);
}

std::vector<thread_metadata> kafka_streams::metadata_for_local_threads() const {
    require_running(state());
    std::set<kstreams::task_id> standby_tasks;
    if (auto* updater = impl_->standby_updater())
        for (const auto& t : updater->snapshot()) standby_tasks.insert(t.id);
    return detail::threads_metadata(impl_->ctx, impl_->hosts->local_threads(), standby_tasks);
}

std::exception_ptr kafka_streams::error() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->first_error;
}

}  // namespace kstreams
