#include "lib/runtime/standby_updater.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include <kstreams/error.hpp>

#include "lib/core/log.hpp"
#include "lib/core/wall_clock.hpp"
#include "lib/kafka/consumer_close.hpp"
#include "lib/kafka/kafka_ports.hpp"
#include "lib/kafka/rd.hpp"
#include "lib/runtime/checkpoint.hpp"
#include "lib/runtime/host_directory.hpp"
#include "lib/runtime/query_registry.hpp"
#include "lib/runtime/standby_placement.hpp"
#include "lib/runtime/stream_task.hpp"
#include "lib/state/corrupted_store.hpp"

namespace kstreams::detail {

namespace {

/// Changelog records applied per step (the lock task_opening waits for is held at most that long).
constexpr std::size_t batch_size = 1000;
constexpr std::int64_t placement_interval_ms = 1000;
/// Bounds each end-offset query (task_opening may wait for one).
constexpr std::chrono::milliseconds query_timeout{5000};
const std::string updated_metric = "standby-records-updated";

}  // namespace

struct standby_updater::state {
    /// One changelog partition of a standby task.
    struct target {
        const changelog_registration* reg = nullptr;
        topic_partition tp;
        std::int64_t position = -1;  ///< next offset to apply; -1: from the partition's start
        bool reading = false;
    };
    struct standby {
        std::unique_ptr<stream_task> task;
        std::shared_ptr<query_slot> slot;
        std::vector<target> targets;
        checkpoint_offsets offsets;       ///< per changelog partition, the next offset its store lacks
        checkpoint_offsets checkpointed;  ///< as the checkpoint file was last written
        std::uint64_t updated = 0;
    };

    app_context& ctx;
    const std::string name;
    const bool exactly_once;
    kstreams::metrics metrics;  ///< under `mutex`
    task_environment env;
    kafka::rk_ptr consumer;
    kafka::queue_ptr queue;
    int pipe_r = -1, pipe_w = -1;
    std::unique_ptr<kafka::kafka_restore_reader> reader;
    std::atomic<bool> stopping{false};
    std::atomic<bool> replace{true};  ///< work the placement out again at the next step
    std::int64_t next_placement = 0;
    std::int64_t next_checkpoint = 0;
    std::size_t short_logged = 0;
    std::string last_error;
    std::int64_t last_error_at = 0;

    /// The standbys, the placement's wish and the tasks running here actively; the reader.
    mutable std::mutex mutex;
    std::map<kstreams::task_id, standby> standbys;
    std::set<kstreams::task_id> wanted;
    std::map<kstreams::task_id, int> local_active;
    std::set<kstreams::task_id> open_failed;  ///< told once until it opens

    mutable std::mutex publish_mutex;
    std::vector<standby_snapshot> published;
    kstreams::metrics published_metrics;

    explicit state(app_context& c)
        : ctx(c), name(c.config.application_id + "-StandbyUpdater"),
          exactly_once(c.config.guarantee == processing_guarantee::exactly_once_v2) {}

    ~state() {
        reader.reset();
        if (queue) rd_kafka_queue_io_event_enable(queue.get(), -1, nullptr, 0);
        queue.reset();
        if (consumer && !kafka::close_consumer_within(consumer.get(), std::chrono::milliseconds(5000)))
            kafka::destroy_unclosed(std::move(consumer));
        consumer.reset();
        if (pipe_w >= 0) ::close(pipe_w);
        if (pipe_r >= 0) ::close(pipe_r);
    }

    void setup() {
        const auto& cfg = ctx.config;
        env.application_id = cfg.application_id;
        env.wall_clock = &now_ms;
        env.metrics = &metrics;
        if (!cfg.state_dir.empty()) env.state_dir = cfg.state_dir / cfg.application_id;
        env.stores.rocksdb = ctx.rocksdb;
        env.default_dsl_store = cfg.default_dsl_store;
        env.exactly_once = exactly_once;
        // A task directory held by an active task (closing, or still running here while the
        // placement catches up) is tried again at a later step, never waited for.
        env.state_lock_wait = std::chrono::milliseconds(0);

        auto settings = ctx.restore_settings;  // the cluster, consumer.* settings, read_committed under EOS
        // librdkafka needs a group to assign partitions; this one is never joined nor committed to.
        settings["group.id"] = cfg.application_id + "-standby";
        settings["client.id"] = name + "-consumer";
        settings["enable.partition.eof"] = "false";
        consumer = kafka::make_client(RD_KAFKA_CONSUMER, kafka::make_conf(settings, "standby consumer"),
                                      "standby consumer");
        rd_kafka_poll_set_consumer(consumer.get());
        int fds[2];
        if (::pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) throw streams_error("could not create a pipe for " + name);
        pipe_r = fds[0];
        pipe_w = fds[1];
        // librdkafka writes a byte to the pipe when changelog records come; the thread sleeps on it.
        queue.reset(rd_kafka_queue_get_consumer(consumer.get()));
        rd_kafka_queue_io_event_enable(queue.get(), pipe_w, "1", 1);
        reader = std::make_unique<kafka::kafka_restore_reader>(consumer.get(), query_timeout);
    }

    void wake() {
        if (pipe_w < 0) return;
        const char b = 1;
        const ssize_t n = ::write(pipe_w, &b, 1);  // a full pipe wakes the thread as well
        (void)n;
    }

    void sleep(std::int64_t ms) {
        pollfd p{pipe_r, POLLIN, 0};
        ::poll(&p, 1, static_cast<int>(std::clamp<std::int64_t>(ms, 0, 1000)));
        char buf[256];
        while (::read(pipe_r, buf, sizeof buf) > 0) {
        }
    }

    // ---- the loop ---------------------------------------------------------------------------

    void run() {
        while (!stopping) {
            std::size_t applied = 0;
            try {
                applied = step();
            } catch (const std::exception& e) {
                // A standby never fails the app: what went wrong is logged and tried again.
                if (e.what() != last_error || now_ms() - last_error_at > 30000)
                    KSTREAMS_LOG(warn, name + ": " + e.what() + " (tried again)");
                last_error = e.what();
                last_error_at = now_ms();
                sleep(1000);
                continue;
            }
            publish();
            if (applied == 0 && !stopping && !replace)
                sleep(std::min<std::int64_t>(100, next_placement - now_ms()));
        }
        std::lock_guard lock(mutex);
        for (auto& [id, s] : standbys) close(s, true);
        standbys.clear();
        publish_locked();
    }

    std::size_t step() {
        if (replace.exchange(false) || now_ms() >= next_placement) {
            next_placement = now_ms() + placement_interval_ms;
            refresh_placement();
        }
        std::lock_guard lock(mutex);
        reconcile();
        if (ctx.paused.load()) return 0;  // kafka_streams::pause(): standbys pause too
        start_reading();
        std::size_t n = 0;
        if (std::any_of(standbys.begin(), standbys.end(), [](const auto& e) {
                return std::any_of(e.second.targets.begin(), e.second.targets.end(),
                                   [](const target& t) { return t.reading; });
            })) {
            applier sink(*this);
            n = reader->read(batch_size, sink);
        }
        maybe_checkpoint();
        return n;
    }

    /// The standbys the placement gives this instance, from the group's members (outside the lock:
    /// on a real cluster it asks the group coordinator). Kept as they are while the group's
    /// assignment is not known.
    void refresh_placement() {
        if (!ctx.hosts) return;
        const auto members = ctx.hosts->members();
        if (!members) return;
        const std::vector<instance_tasks> instances = instances_of(ctx, *members);
        const standby_placement placement =
            place_standbys(instances, stateful_tasks(ctx), ctx.config.num_standby_replicas);
        std::set<kstreams::task_id> active_here;
        for (const auto& i : instances)
            if (i.instance == ctx.hosts->instance()) active_here = i.active;
        if (placement.short_of_replicas != short_logged) {
            short_logged = placement.short_of_replicas;
            if (short_logged > 0)
                KSTREAMS_LOG(info, name + ": " + std::to_string(short_logged) +
                                       " stateful tasks get fewer than num.standby.replicas=" +
                                       std::to_string(ctx.config.num_standby_replicas) + " standbys: the group has " +
                                       std::to_string(placement.servers.size()) + " instances");
        }
        std::set<kstreams::task_id> mine = placement.standbys_of(ctx.hosts->instance());
        std::lock_guard lock(mutex);
        // A standby of a task no instance runs now stays (the task is likely to come here next), and
        // so does one of a task assigned here whose stream thread has not opened it yet: it is
        // promoted then (task_opening).
        for (const auto& [id, s] : standbys)
            if (placement.unassigned.count(id) || active_here.count(id)) mine.insert(id);
        wanted = std::move(mine);
    }

    /// Closes the standbys the placement moved away (or whose task runs here now) and opens the new ones.
    void reconcile() {
        for (auto it = standbys.begin(); it != standbys.end();) {
            if (wanted.count(it->first) && !local_active.count(it->first)) {
                ++it;
                continue;
            }
            KSTREAMS_LOG(info, name + ": closing standby task " + it->first.to_string() +
                                   " (the placement moved it; its state stays on disk)");
            close(it->second, true);
            it = standbys.erase(it);
        }
        for (const kstreams::task_id& id : wanted)
            if (!standbys.count(id) && !local_active.count(id)) open(id);
    }

    const subtopology_group* subtopology(kstreams::task_id id) const {
        for (const auto& sub : ctx.groups->subtopologies)
            if (!sub.global && sub.id == id.subtopology) return &sub;
        return nullptr;
    }

    void open(kstreams::task_id id) {
        const subtopology_group* sub = subtopology(id);
        if (!sub) return;
        standby s;
        s.slot = std::make_shared<query_slot>(id, true);
        s.task = std::make_unique<stream_task>(*ctx.model, *ctx.groups, *sub, id, env);
        s.task->share_store_lock(s.slot->lock);
        try {
            s.task->init_stores();
        } catch (const kstreams::state::corrupted_store_error& e) {
            s.task.reset();  // closes what did open, releases the task directory
            // Only a store with a changelog is wiped (read again from it); any other is left to
            // the active task, which says what to do about it.
            const bool logged = std::any_of(ctx.model->stores.begin(), ctx.model->stores.end(), [&](const auto& d) {
                return !d.global && d.builder->name() == e.store() && d.builder->logging_enabled();
            });
            if (logged) wipe(id, e.store(), e.directory(), e.what());
            else if (open_failed.insert(id).second)
                KSTREAMS_LOG(warn, name + ": standby task " + id.to_string() + ": " + e.what());
            return;
        } catch (const streams_error& e) {
            // Its directory is still held (the active task closing here, or another instance of
            // this state directory): tried again at the next step.
            if (open_failed.insert(id).second)
                KSTREAMS_LOG(info, name + ": standby task " + id.to_string() + " cannot open yet: " + e.what());
            return;
        }
        open_failed.erase(id);
        const std::filesystem::path dir = s.task->task_directory();
        const bool persistent = s.task->has_persistent_stores() && !dir.empty();
        checkpoint_offsets cp;
        if (persistent) cp = read_checkpoint(dir);
        if (persistent && exactly_once) {
            // As an active task's under exactly-once: not trusted after a stop that did not close it.
            std::error_code ec;
            std::filesystem::remove(dir / ".checkpoint", ec);
        } else {
            s.checkpointed = cp;
        }
        s.offsets = cp;
        for (const auto& reg : s.task->changelogs()) {
            if (reg.source_topic) continue;  // a source topic: the active task restores it
            target t{&reg, {reg.topic, id.partition}, -1, false};
            if (reg.store->persistent())
                if (auto it = cp.find({reg.topic, id.partition}); it != cp.end()) t.position = it->second;
            s.targets.push_back(std::move(t));
        }
        if (s.targets.empty()) return;
        {
            std::lock_guard slot_lock(*s.slot->lock);
            s.slot->task = s.task.get();
        }
        if (ctx.queries) ctx.queries->add(s.slot);
        KSTREAMS_LOG(info, name + ": opened standby task " + id.to_string());
        standbys.emplace(id, std::move(s));
    }

    /// Assigns the changelog partitions of new standbys to the consumer, from their checkpoints;
    /// a checkpoint outside the changelog wipes the store (as an active task's restore does).
    void start_reading() {
        for (auto it = standbys.begin(); it != standbys.end();) {
            standby& s = it->second;
            std::optional<std::pair<std::string, std::string>> invalid;
            for (auto& t : s.targets) {
                if (t.reading) continue;
                const auto offsets = reader->offsets(t.tp);
                if (!offsets) continue;
                const auto [lo, hi] = *offsets;
                if (t.position >= 0 && (t.position > hi || t.position < lo)) {
                    invalid.emplace(t.reg->store->name(),
                                    "store " + t.reg->store->name() + ": its checkpoint (offset " +
                                        std::to_string(t.position) + ") is outside changelog " + describe(t.tp) +
                                        " (offsets " + std::to_string(lo) + " to " + std::to_string(hi) + ")");
                    break;
                }
                if (t.position < 0) t.position = lo;
                s.offsets[{t.tp.topic, t.tp.partition}] = t.position;
                reader->add(t.tp, t.position);
                t.reading = true;
            }
            if (!invalid) {
                ++it;
                continue;
            }
            const kstreams::task_id id = it->first;
            const std::filesystem::path dir = s.task->task_directory();
            close(s, false);
            it = standbys.erase(it);
            wipe(id, invalid->first, kstreams::state::store_directory(dir, invalid->first), invalid->second);
            if (!dir.empty() && std::filesystem::exists(dir / ".checkpoint")) {
                checkpoint_offsets cp = read_checkpoint(dir);
                std::erase_if(cp, [&](const auto& e) { return e.first.second == id.partition &&
                                                              e.first.first.find("-" + invalid->first + "-changelog") !=
                                                                  std::string::npos; });
                write_checkpoint(dir, cp);
            }
        }
    }

    void wipe(kstreams::task_id id, const std::string& store, const std::filesystem::path& dir, const std::string& why) {
        KSTREAMS_LOG(warn, name + ": standby task " + id.to_string() + ": " + why + "; wiping " + dir.string() +
                               " and reading store " + store + " from its changelog again");
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
        ++metrics.counter(kstreams::state::stores_wiped_metric);
    }

    /// Applies what the reader delivers to the standby the partition belongs to.
    class applier final : public restore_sink {
    public:
        explicit applier(state& st) {
            for (auto& [id, s] : st.standbys)
                for (auto& t : s.targets)
                    if (t.reading) targets_[t.tp] = {&s, &t};
            metrics_ = &st.metrics;
        }
        void on_records(const topic_partition& tp, std::span<const restore_record> records, std::int64_t last_offset,
                        const restore_batch_details* details) override {
            auto it = targets_.find(tp);
            if (it == targets_.end()) return;
            auto& [s, t] = it->second;
            if (!records.empty()) s->task->restore(*t->reg, tp, records, details);
            t->position = last_offset + 1;
            s->offsets[{tp.topic, tp.partition}] = t->position;
            s->updated += records.size();
            metrics_->counter(updated_metric) += records.size();
        }
        void on_end(const topic_partition&) override {}  // a standby keeps reading

    private:
        std::map<topic_partition, std::pair<standby*, target*>> targets_;
        kstreams::metrics* metrics_ = nullptr;
    };

    // ---- checkpoints and closing ------------------------------------------------------------

    void maybe_checkpoint() {
        if (exactly_once) return;  // only when a standby closes (as an active task's)
        const std::int64_t now = now_ms();
        if (now < next_checkpoint) return;
        next_checkpoint = now + std::max<std::int64_t>(100, ctx.config.effective_commit_interval().count());
        for (auto& [id, s] : standbys) write_checkpoint_of(s, false);
    }

    /// As an active task's: the persistent stores' changelog offsets, once they moved far enough
    /// (or always, `force`); the stores flushed first (their WAL is off).
    void write_checkpoint_of(standby& s, bool force) {
        const std::filesystem::path dir = s.task->task_directory();
        if (dir.empty() || !s.task->has_persistent_stores()) return;
        const std::int32_t partition = s.task->id().partition;
        checkpoint_offsets persistent;
        std::int64_t moved = 0;
        for (const auto& reg : s.task->changelogs())
            if (reg.store->persistent())
                if (auto it = s.offsets.find({reg.topic, partition}); it != s.offsets.end()) {
                    persistent.insert(*it);
                    auto before = s.checkpointed.find(it->first);
                    moved += it->second - (before == s.checkpointed.end() ? 0 : before->second);
                }
        if (!force && moved <= checkpoint_offset_delta) return;
        if (persistent == s.checkpointed && !s.checkpointed.empty()) return;
        {
            const auto guard = s.task->store_guard();
            s.task->flush_stores();
        }
        write_checkpoint(dir, persistent);
        s.checkpointed = std::move(persistent);
    }

    /// Takes the standby off the queries and the reader, writes its checkpoint (`checkpoint`) and
    /// closes its stores (their files stay).
    void close(standby& s, bool checkpoint) {
        if (s.slot) {
            {
                std::lock_guard slot_lock(*s.slot->lock);
                s.slot->task = nullptr;
            }
            if (ctx.queries) ctx.queries->remove(s.slot.get());
        }
        for (auto& t : s.targets)
            if (t.reading) {
                reader->remove(t.tp);
                t.reading = false;
            }
        try {
            if (checkpoint) write_checkpoint_of(s, true);
            const auto guard = s.task->store_guard();
            s.task->close(true);
        } catch (const std::exception& e) {
            KSTREAMS_LOG(warn, name + ": closing standby task " + s.task->id().to_string() + ": " + e.what());
        }
    }

    void publish() {
        std::lock_guard lock(mutex);
        publish_locked();
    }

    void publish_locked() {
        std::vector<standby_snapshot> out;
        for (const auto& [id, s] : standbys) {
            standby_snapshot snap{id, {}, s.updated};
            for (const auto& t : s.targets)
                snap.changelogs.push_back({t.reg->store->name(), t.tp.topic, t.tp.partition, t.position});
            out.push_back(std::move(snap));
        }
        std::lock_guard lock(publish_mutex);
        published = std::move(out);
        published_metrics = metrics;
    }
};

standby_updater::standby_updater(app_context& ctx) : state_(std::make_shared<state>(ctx)) {}

standby_updater::~standby_updater() { stop(); }

void standby_updater::start() {
    state_->setup();
    thread_ = std::thread([s = state_] { s->run(); });
}

void standby_updater::stop() {
    state_->stopping = true;
    state_->wake();
    if (thread_.joinable()) thread_.join();
}

void standby_updater::task_opening(kstreams::task_id id) {
    state& s = *state_;
    std::lock_guard lock(s.mutex);
    ++s.local_active[id];
    auto it = s.standbys.find(id);
    if (it == s.standbys.end()) return;
    KSTREAMS_LOG(info, s.name + ": standby task " + id.to_string() +
                           " becomes active here: closing the standby, the task restores from its checkpoint");
    s.close(it->second, true);
    s.standbys.erase(it);
    ++s.metrics.counter("standby-tasks-promoted");
}

void standby_updater::task_closed(kstreams::task_id id) {
    state& s = *state_;
    {
        std::lock_guard lock(s.mutex);
        if (auto it = s.local_active.find(id); it != s.local_active.end() && --it->second <= 0) s.local_active.erase(it);
    }
    wake();
}

void standby_updater::wake() {
    state_->replace = true;
    state_->wake();
}

std::vector<standby_snapshot> standby_updater::snapshot() const {
    std::lock_guard lock(state_->publish_mutex);
    return state_->published;
}

kstreams::metrics standby_updater::metrics() const {
    std::lock_guard lock(state_->publish_mutex);
    return state_->published_metrics;
}

}  // namespace kstreams::detail
