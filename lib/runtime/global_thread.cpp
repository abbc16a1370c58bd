#include "lib/runtime/global_thread.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/error.hpp>

#include "lib/core/log.hpp"
#include "lib/core/wall_clock.hpp"
#include "lib/kafka/consumer_close.hpp"
#include "lib/kafka/kafka_ports.hpp"
#include "lib/kafka/rd.hpp"
#include "lib/runtime/checkpoint.hpp"
#include "lib/runtime/global_task.hpp"
#include "lib/state/task_directory_lock.hpp"

namespace kstreams::detail {

namespace {

constexpr std::size_t batch_size = 1000;

/// The stores' data does not fit the topics any more (Kafka's InvalidOffsetException): the global
/// state directory is deleted when the thread closes, and a restart restores from the beginning.
struct invalid_offset : streams_error {
    using streams_error::streams_error;
};

}  // namespace

struct global_thread::state {
    app_context& ctx;
    std::function<void(std::exception_ptr)> on_death;
    const std::string name;
    kstreams::metrics metrics;  ///< the thread's own; published into `published`
    task_environment env;
    std::unique_ptr<global_task> task;
    kstreams::state::task_directory_lock dir_lock;
    kafka::rk_ptr consumer;
    checkpoint_offsets offsets;       ///< next offset of every global partition
    checkpoint_offsets checkpointed;  ///< as the checkpoint file last said
    std::chrono::milliseconds client_timeout;
    std::atomic<bool> stop{false};
    bool wipe = false;
    /// Held while the thread writes the stores; stream tasks that read them hold it too.
    std::recursive_mutex stores_lock;

    std::mutex mutex;
    std::condition_variable changed;
    enum class phase { created, restoring, running, dead } at = phase::created;
    std::exception_ptr startup_error;
    mutable std::mutex metrics_mutex;
    kstreams::metrics published;
    std::vector<store_restoration> restoring;  ///< under metrics_mutex: the partition restoring now

    /// Publishes the restore of one partition of a global store (nullopt: it ended).
    void publish_restoration(std::optional<store_restoration> progress) {
        std::lock_guard lock(metrics_mutex);
        restoring.clear();
        if (progress) restoring.push_back(std::move(*progress));
    }

    state(app_context& c, std::function<void(std::exception_ptr)> d)
        : ctx(c), on_death(std::move(d)), name(c.config.application_id + "-GlobalStreamThread"),
          client_timeout(std::max<std::chrono::milliseconds>(c.config.startup_timeout, std::chrono::seconds(60))) {}

    void set_phase(phase p) {
        {
            std::lock_guard lock(mutex);
            at = p;
        }
        changed.notify_all();
    }

    void publish() {
        std::lock_guard lock(metrics_mutex);
        published = metrics;
    }

    void setup() {
        const auto& cfg = ctx.config;
        env.application_id = cfg.application_id;
        env.wall_clock = &now_ms;
        env.metrics = &metrics;
        env.on_deserialization_error = cfg.log_and_continue_on_deserialization_error
                                           ? deserialization_policy::log_and_continue
                                           : deserialization_policy::fail;
        if (!cfg.state_dir.empty()) env.state_dir = cfg.state_dir / cfg.application_id;
        env.stores.rocksdb = ctx.rocksdb;
        env.default_extractor = cfg.default_timestamp_extractor;
        env.default_dsl_store = cfg.default_dsl_store;
        task = std::make_unique<global_task>(*ctx.model, *ctx.groups, env);
        task->init();
        if (task->has_persistent_stores() && !env.state_dir.empty())
            dir_lock = kstreams::state::task_directory_lock(task->task_directory(), env.state_lock_wait);

        auto settings = ctx.restore_settings;  // the cluster, the consumer.* settings
        // librdkafka needs a group to assign partitions; this one is never joined nor committed to
        // (Kafka's global consumer has none).
        settings["group.id"] = cfg.application_id + "-global";
        settings.erase("group.instance.id");
        settings["client.id"] = name + "-global-consumer";
        settings["enable.partition.eof"] = "true";
        settings["enable.auto.commit"] = "false";
        settings["enable.auto.offset.store"] = "false";
        settings["auto.offset.reset"] = "error";  // Kafka's global consumer: "none"
        consumer = kafka::make_client(RD_KAFKA_CONSUMER, kafka::make_conf(settings, "global consumer"), "global consumer");
        rd_kafka_poll_set_consumer(consumer.get());
    }

    std::filesystem::path checkpoint_dir() const {
        return env.state_dir.empty() ? std::filesystem::path() : task->task_directory();
    }

    /// Polls up to `batch_size` messages, waiting up to `wait` for the first.
    std::vector<kafka::message_ptr> poll(std::chrono::milliseconds wait) {
        std::vector<kafka::message_ptr> out;
        kafka::message_ptr m(rd_kafka_consumer_poll(consumer.get(), static_cast<int>(wait.count())));
        while (m) {
            out.push_back(std::move(m));
            if (out.size() >= batch_size) break;
            m.reset(rd_kafka_consumer_poll(consumer.get(), 0));
        }
        return out;
    }

    /// A consumer error: the offset it reads fell out of the log (retention, a recreated topic)
    /// is Kafka's InvalidOffsetException; fatal ones stop the thread; others are logged.
    void check(const rd_kafka_message_t* m) {
        if (m->err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET || m->err == RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE) {
            wipe = true;
            throw invalid_offset(name + ": " +
                                 (m->rkt ? kafka::describe_partition(rd_kafka_topic_name(m->rkt), m->partition) + ": "
                                         : std::string()) +
                                 rd_kafka_message_errstr(m) +
                                 "; updating global state failed: the global state directory is deleted, restart the "
                                 "app to restore it");
        }
        kafka::check_consumer_error(m, name);
    }

    void assign(const std::vector<std::pair<topic_partition, std::int64_t>>& parts) {
        kafka::tpl_ptr list = kafka::make_tpl(static_cast<int>(parts.size()));
        for (const auto& [tp, offset] : parts)
            rd_kafka_topic_partition_list_add(list.get(), tp.topic.c_str(), tp.partition)->offset = offset;
        if (rd_kafka_resp_err_t err = rd_kafka_assign(consumer.get(), list.get()))
            throw streams_error(name + ": could not assign the global topics' partitions: " + rd_kafka_err2str(err));
    }

    /// Writes the stores down and the checkpoint file (persistent stores' topics only).
    void checkpoint() {
        task->flush();
        const auto dir = checkpoint_dir();
        if (dir.empty() || !task->has_persistent_stores()) return;
        checkpoint_offsets persistent;
        for (const auto& [store, topic] : task->store_topics())
            if (store->persistent())
                for (const auto& [tp, offset] : offsets)
                    if (tp.first == topic) persistent[tp] = offset;
        write_checkpoint(dir, persistent);
        checkpointed = offsets;
    }

    // ---- bootstrap ------------------------------------------------------------------------

    /// Restores every global store to its topic's end offsets. False if a stop came first.
    bool bootstrap() {
        checkpoint_offsets cp;
        if (const auto dir = checkpoint_dir(); !dir.empty()) {
            bool unreadable = false;
            cp = read_checkpoint(dir, &unreadable);
            if (unreadable)
                throw streams_error(name + ": failed to read the global checkpoint file in " + dir.string() +
                                    "; delete it (or call clean_up()) to restore the global stores from the start");
        }
        for (const auto& [tp, offset] : cp)
            if (std::none_of(task->store_topics().begin(), task->store_topics().end(),
                             [&](const auto& e) { return e.second == tp.first; }))
                throw streams_error(name + ": the global checkpoint file names topic " + tp.first + ", partition " +
                                    std::to_string(tp.second) +
                                    ", which no global store reads; reset the application and clean up its state "
                                    "directory (clean_up())");
        for (const auto& [store, topic] : task->store_topics()) {
            auto count = ctx.plan.partition_counts.find(topic);
            if (count == ctx.plan.partition_counts.end() || count->second <= 0)
                throw streams_error(name + ": there are no partitions available for topic " + topic +
                                    " when initializing global store " + store->name());
            KSTREAMS_LOG(info, name + ": restoring global store " + store->name() + " from topic " + topic);
            for (std::int32_t p = 0; p < count->second; ++p) {
                const topic_partition tp{topic, p};
                auto it = cp.find({topic, p});
                if (!restore_partition(*store, tp, it == cp.end() ? std::nullopt : std::optional(it->second)))
                    return false;
            }
        }
        rd_kafka_assign(consumer.get(), nullptr);
        checkpoint();  // KAFKA-18168: a restart restores only what came after
        return true;
    }

    bool restore_partition(state_store& store, const topic_partition& tp, std::optional<std::int64_t> from_checkpoint) {
        std::int64_t low = 0, high = 0;
        if (rd_kafka_resp_err_t err = rd_kafka_query_watermark_offsets(consumer.get(), tp.topic.c_str(), tp.partition,
                                                                       &low, &high,
                                                                       static_cast<int>(client_timeout.count())))
            throw streams_error(name + ": failed to get the end offset of " + describe(tp) + ": " + rd_kafka_err2str(err));
        std::int64_t offset = from_checkpoint.value_or(low);
        if (from_checkpoint && (*from_checkpoint < low || *from_checkpoint > high)) {
            wipe = true;
            throw invalid_offset(name + ": the global checkpoint says global store " + store.name() + " holds " +
                                 describe(tp) + " up to offset " + std::to_string(*from_checkpoint) +
                                 ", outside the partition's offsets [" + std::to_string(low) + ", " +
                                 std::to_string(high) +
                                 "]; bootstrapping global state failed: the global state directory is deleted, "
                                 "restart the app to restore it from the start");
        }
        state_restore_listener* listener = ctx.restore_listener.get();
        if (listener) listener->on_restore_start(tp.topic, tp.partition, store.name(), offset, high);
        std::int64_t restored = 0;
        const auto progress = [&] {
            return store_restoration{global_task::id_value, store.name(), tp.topic, tp.partition, restored,
                                     std::max<std::int64_t>(high - offset, 0)};
        };
        publish_restoration(progress());
        // Kafka 4.x: a global store of addGlobalStore is restored through its update processor
        // (reprocessOnRestore); a global table's store takes the records as they are.
        const bool reprocess = task->reprocesses_on_restore(store);
        if (offset < high) {
            assign({{tp, offset}});
            auto last_progress = std::chrono::steady_clock::now();
            std::vector<restore_record> records;
            std::vector<const rd_kafka_message_t*> kept;
            headers hdrs;
            while (offset < high) {
                if (stop.load()) return false;
                auto batch = poll(std::chrono::milliseconds(100));
                records.clear();
                kept.clear();
                std::int64_t last = -1;
                for (const auto& m : batch) {
                    if (!m->rkt || std::string_view(rd_kafka_topic_name(m->rkt)) != tp.topic || m->partition != tp.partition)
                        continue;
                    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
                        offset = std::max(offset, m->offset);
                        continue;
                    }
                    if (m->err) {
                        check(m.get());
                        continue;
                    }
                    offset = m->offset + 1;
                    if (!m->key) continue;  // as Kafka's restore: a null key cannot be a row
                    last = m->offset;
                    if (reprocess) kept.push_back(m.get());
                    else
                        records.push_back({*kafka::message_key(m.get()), kafka::message_value(m.get()),
                                           kafka::message_timestamp(m.get())});
                }
                if (!batch.empty()) last_progress = std::chrono::steady_clock::now();
                else if (std::chrono::steady_clock::now() - last_progress > ctx.config.task_timeout)
                    throw streams_error(name + ": global store " + store.name() + " made no progress restoring " +
                                        describe(tp) + " within task.timeout.ms (" +
                                        std::to_string(ctx.config.task_timeout.count()) + " ms)");
                const std::size_t n = reprocess ? kept.size() : records.size();
                if (n == 0) continue;
                {
                    std::lock_guard guard(stores_lock);
                    if (!reprocess) task->restore(store, records);
                    for (const rd_kafka_message_t* m : kept) {
                        hdrs = headers{};
                        kafka::decode_headers(m, hdrs);
                        task->process({tp.topic, m->partition, m->offset, kafka::message_timestamp(m),
                                       kafka::message_key(m), kafka::message_value(m), &hdrs});
                    }
                }
                restored += static_cast<std::int64_t>(n);
                metrics.counter("records-restored") += n;
                publish_restoration(progress());
                if (listener) listener->on_batch_restored(tp.topic, tp.partition, store.name(), last, static_cast<std::int64_t>(n));
            }
        }
        publish_restoration(std::nullopt);
        if (listener) listener->on_restore_end(tp.topic, tp.partition, store.name(), restored);
        offsets[{tp.topic, tp.partition}] = offset;
        return true;
    }

    // ---- following the topics -------------------------------------------------------------

    void follow() {
        std::vector<std::pair<topic_partition, std::int64_t>> parts;
        for (const auto& [tp, offset] : offsets) parts.push_back({{tp.first, tp.second}, offset});
        assign(parts);
        std::int64_t last_flush = now_ms();
        headers hdrs;
        while (!stop.load()) {
            auto batch = poll(std::chrono::milliseconds(100));
            if (!batch.empty()) {
                for (const auto& m : batch) {
                    if (m->err) {
                        if (m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) check(m.get());
                        continue;
                    }
                    const char* topic = rd_kafka_topic_name(m->rkt);
                    hdrs = headers{};
                    kafka::decode_headers(m.get(), hdrs);
                    const raw_record raw{topic,
                                         m->partition,
                                         m->offset,
                                         kafka::message_timestamp(m.get()),
                                         kafka::message_key(m.get()),
                                         kafka::message_value(m.get()),
                                         &hdrs};
                    {
                        std::lock_guard guard(stores_lock);  // per record: stream tasks wait one record at most
                        task->process(raw);
                    }
                    offsets[{topic, m->partition}] = m->offset + 1;
                    ++metrics.counter("global-records-processed");
                }
            }
            const std::int64_t now = now_ms();
            if (now - last_flush >= ctx.config.commit_interval.count()) {
                std::int64_t delta = 0;
                for (const auto& [tp, offset] : offsets) {
                    auto it = checkpointed.find(tp);
                    delta += offset - (it == checkpointed.end() ? 0 : it->second);
                }
                if (delta > checkpoint_offset_delta) {
                    std::lock_guard guard(stores_lock);
                    checkpoint();
                    last_flush = now;
                }
            }
            publish();
        }
    }

    /// Closes the stores (with a checkpoint unless the state is to be wiped) and the consumer.
    void shutdown() {
        if (task) {
            try {
                if (!wipe && at != phase::created) {
                    std::lock_guard guard(stores_lock);
                    checkpoint();
                }
            } catch (const std::exception& e) {
                KSTREAMS_LOG(warn, name + ": could not write the global checkpoint: " + e.what());
            }
            try {
                task->close();
            } catch (const std::exception& e) {
                KSTREAMS_LOG(warn, name + ": closing the global stores: " + e.what());
            }
        }
        if (consumer) {
            rd_kafka_assign(consumer.get(), nullptr);
            if (!kafka::close_consumer_within(consumer.get(), client_timeout)) kafka::destroy_unclosed(std::move(consumer));
            consumer.reset();
        }
        if (wipe && task && !env.state_dir.empty()) {
            const auto dir = task->task_directory();
            dir_lock.release();
            std::error_code ec;
            std::filesystem::remove_all(dir, ec);
            KSTREAMS_LOG(warn, name + ": deleted the global state directory " + dir.string() +
                                   (ec ? " (failed: " + ec.message() + ")" : std::string()));
        }
        dir_lock.release();
        publish();
    }
};

global_thread::global_thread(app_context& ctx, std::function<void(std::exception_ptr)> on_death)
    : state_(std::make_shared<state>(ctx, std::move(on_death))) {}

global_thread::~global_thread() {
    request_stop();
    if (thread_.joinable()) thread_.join();
}

void global_thread::start() {
    state& st = *state_;
    st.set_phase(state::phase::restoring);
    thread_ = std::thread([this] { run(); });
    std::unique_lock lock(st.mutex);
    st.changed.wait(lock, [&] { return st.at != state::phase::restoring; });
    if (st.startup_error) std::rethrow_exception(st.startup_error);
}

void global_thread::run() {
    state& st = *state_;
    std::exception_ptr error;
    bool running = false;
    try {
        st.setup();
        if (st.bootstrap() && !st.stop.load()) {
            KSTREAMS_LOG(info, st.name + ": global stores restored; following the global topics");
            running = true;
            st.set_phase(state::phase::running);
            st.follow();
        }
    } catch (...) {
        error = std::current_exception();
        try {
            std::rethrow_exception(error);
        } catch (const std::exception& e) {
            KSTREAMS_LOG(error, st.name + (running ? " died: " : ": restoring the global stores failed: ") + e.what());
        } catch (...) {
        }
    }
    st.shutdown();
    if (!running) {
        {
            std::lock_guard lock(st.mutex);
            st.startup_error = error ? error
                                     : std::make_exception_ptr(streams_error(
                                           st.name + ": stopped before the global stores were restored"));
        }
        st.set_phase(state::phase::dead);
        return;
    }
    st.set_phase(state::phase::dead);
    if (error && st.on_death) st.on_death(error);
}

void global_thread::request_stop() { state_->stop = true; }

bool global_thread::join_until(std::chrono::steady_clock::time_point deadline) {
    state& st = *state_;
    std::unique_lock lock(st.mutex);
    const auto done = [&] { return st.at == state::phase::dead || st.at == state::phase::created; };
    if (deadline == std::chrono::steady_clock::time_point::max()) st.changed.wait(lock, done);
    else if (!st.changed.wait_until(lock, deadline, done)) return false;
    return true;
}

kstreams::metrics global_thread::metrics() const {
    std::lock_guard lock(state_->metrics_mutex);
    return state_->published;
}

std::vector<store_restoration> global_thread::restoration() const {
    std::lock_guard lock(state_->metrics_mutex);
    return state_->restoring;
}

state_store* global_thread::find_store(std::string_view name) {
    return state_->task ? state_->task->find_store(name) : nullptr;
}

std::recursive_mutex& global_thread::lock() { return state_->stores_lock; }

}  // namespace kstreams::detail
