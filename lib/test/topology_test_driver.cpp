#include <kstreams/test/topology_test_driver.hpp>

#include <algorithm>
#include <atomic>
#include <random>
#include <set>

#include <kstreams/error.hpp>

#include "lib/core/topology_groups.hpp"
#include "lib/core/log.hpp"
#include "lib/runtime/checkpoint.hpp"
#include "lib/runtime/stream_task.hpp"
#include "lib/state/record_cache.hpp"
#include "lib/state/rocksdb_shared.hpp"

namespace kstreams::test {

namespace {

/// Collects everything the tasks send, in order.
class capturing_collector final : public detail::record_collector {
public:
    std::deque<produced_record> sent;

    void send(std::string_view topic, std::optional<std::int32_t>, std::optional<std::string_view> key,
              std::optional<std::string_view> value, std::int64_t timestamp, const headers& hdrs,
              std::string_view) override {
        sent.push_back({std::string(topic), key ? std::optional<std::string>(*key) : std::nullopt,
                        value ? std::optional<std::string>(*value) : std::nullopt, timestamp, hdrs});
    }
    std::int32_t partition_count(std::string_view) override { return 1; }
};

std::filesystem::path make_temp_state_dir() {
    static std::atomic<unsigned> counter{0};
    std::random_device rd;
    auto dir = std::filesystem::temp_directory_path() /
               ("kstreams-test-driver-" + std::to_string(rd()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(dir);
    return dir;
}

/// All sub-topologies as one, run by one task 0_0 as Kafka's TopologyTestDriver does: one stream
/// time for every processor, one punctuation queue, and records of repartition topics picked by
/// timestamp among all the task's inputs.
detail::subtopology_group merge_subtopologies(const detail::topology_groups& groups) {
    detail::subtopology_group all;
    for (const auto& sub : groups.subtopologies) {
        all.nodes.insert(all.nodes.end(), sub.nodes.begin(), sub.nodes.end());
        all.describe_order.insert(all.describe_order.end(), sub.describe_order.begin(), sub.describe_order.end());
        for (std::size_t s : sub.stores)
            if (std::find(all.stores.begin(), all.stores.end(), s) == all.stores.end()) all.stores.push_back(s);
        all.source_topics.insert(all.source_topics.end(), sub.source_topics.begin(), sub.source_topics.end());
        all.source_patterns.insert(all.source_patterns.end(), sub.source_patterns.begin(), sub.source_patterns.end());
    }
    return all;
}

/// One input topic's records waiting to be processed, as a partition queue of Kafka's task: the
/// head's timestamp is extracted when it becomes the head, with the queue's partition time.
struct input_queue {
    detail::source_node* src = nullptr;
    std::deque<std::pair<produced_record, std::int64_t>> records;  ///< with their offsets
    std::int64_t head_ts = -1;
    std::int64_t partition_time = -1;
};

detail::raw_record raw_of(const produced_record& r, std::int64_t offset) {
    detail::raw_record raw;
    raw.topic = r.topic;
    raw.partition = 0;
    raw.offset = offset;
    raw.timestamp = r.timestamp;
    if (r.key) raw.key = std::string_view(*r.key);
    if (r.value) raw.value = std::string_view(*r.value);
    raw.hdrs = &r.headers;
    return raw;
}

/// The non-empty input queues ordered by head timestamp, as the binary heap of
/// java.util.PriorityQueue orders them (ties included), so that records of several repartition
/// topics are processed in the order Kafka's test driver processes them.
class queues_by_time {
public:
    bool empty() const { return heap_.empty(); }
    void offer(input_queue* q) {
        std::size_t k = heap_.size();
        heap_.push_back(q);
        while (k > 0) {
            const std::size_t parent = (k - 1) / 2;
            if (q->head_ts >= heap_[parent]->head_ts) break;
            heap_[k] = heap_[parent];
            k = parent;
        }
        heap_[k] = q;
    }
    input_queue* poll() {
        input_queue* top = heap_.front();
        input_queue* x = heap_.back();
        heap_.pop_back();
        const std::size_t n = heap_.size();
        if (n == 0) return top;
        std::size_t k = 0;
        while (k < n / 2) {
            std::size_t c = 2 * k + 1;
            if (c + 1 < n && heap_[c]->head_ts > heap_[c + 1]->head_ts) ++c;
            if (x->head_ts <= heap_[c]->head_ts) break;
            heap_[k] = heap_[c];
            k = c;
        }
        heap_[k] = x;
        return top;
    }

private:
    std::vector<input_queue*> heap_;
};

}  // namespace

struct topology_test_driver::impl {
    const topology& topo;
    driver_config config;
    detail::topology_groups groups;
    detail::subtopology_group all_subtopologies;
    kstreams::metrics metrics;
    capturing_collector collector;
    state::record_cache cache;
    detail::task_environment env;
    std::vector<std::unique_ptr<detail::stream_task>> tasks;
    std::map<std::string, std::deque<produced_record>, std::less<>> outputs;
    /// Topics records were sent to (outputs also holds topics only read from, as Kafka's
    /// producedTopicNames() does not list).
    std::set<std::string, std::less<>> produced_names;
    std::map<std::string, std::int64_t, std::less<>> next_offset;
    std::map<std::string, input_queue, std::less<>> queues;
    queues_by_time by_time;
    std::int64_t wall_clock;
    std::filesystem::path temp_dir;
    /// Changelog topics: their whole contents (offset = index) and the task that writes each.
    std::map<std::string, std::vector<produced_record>, std::less<>> changelog_history;
    std::map<std::string, detail::stream_task*, std::less<>> changelog_owner;
    std::map<const detail::stream_task*, std::int64_t> logged_since_checkpoint;
    /// As Kafka Streams: under at-least-once a commit writes a checkpoint (and flushes the stores)
    /// only once this many changelog records accumulated; closing always writes one.
    static constexpr std::int64_t checkpoint_delta = 10000;

    impl(const topology& t, driver_config c)
        : topo(t), config(std::move(c)), groups(detail::group_topology(t.model())),
          all_subtopologies(merge_subtopologies(groups)), cache(config.cache_max_bytes),
          wall_clock(config.initial_wall_clock_ms) {
        env.stores.cache = &cache;
        env.state_lock_wait = std::chrono::milliseconds{0};  // a second driver on the directory fails at once
        env.stores.rocksdb = std::make_shared<state::rocksdb_shared>(config.rocksdb);
        env.application_id = config.application_id;
        env.wall_clock = [this] { return wall_clock; };
        env.outer_join_emit_interval_ms = 0;
        env.collector = &collector;
        env.metrics = &metrics;
        env.on_deserialization_error = config.log_and_continue_on_deserialization_error
                                           ? detail::deserialization_policy::log_and_continue
                                           : detail::deserialization_policy::fail;
        std::filesystem::path root = config.state_dir;
        if (root.empty()) root = temp_dir = make_temp_state_dir();
        env.state_dir = root / config.application_id;
        tasks.push_back(std::make_unique<detail::stream_task>(t.model(), groups, all_subtopologies, task_id{0, 0}, env));
        for (auto& task : tasks) task->init();
        for (auto& task : tasks)
            for (const auto& reg : task->changelogs()) changelog_owner[reg.topic] = task.get();
        for (auto& [topic, records] : config.changelogs)
            changelog_history[topic].assign(records.begin(), records.end());
        for (auto& task : tasks) restore(*task);
        process_all();
    }

    /// Replays each changelog into its store, from the checkpoint (persistent stores) or the
    /// beginning, in batches as a restore consumer would deliver them.
    void restore(detail::stream_task& task) {
        constexpr std::size_t batch_size = 1000;
        detail::checkpoint_offsets cp;
        if (task.has_persistent_stores()) cp = detail::read_checkpoint(task.task_directory());
        const std::int32_t partition = task.id().partition;
        for (const auto& reg : task.changelogs()) {
            auto hist = changelog_history.find(reg.topic);
            const std::int64_t end = hist == changelog_history.end() ? 0 : static_cast<std::int64_t>(hist->second.size());
            std::int64_t start = 0;
            if (reg.store->persistent())
                if (auto it = cp.find({reg.topic, partition}); it != cp.end()) start = it->second;
            if (start > end) {
                KSTREAMS_LOG(warn, "store " + reg.store->name() + ": its checkpoint is past the end of changelog " +
                                       reg.topic + "; restoring from the beginning");
                start = 0;
            }
            if (start >= end) continue;
            auto* listener = config.restore_listener.get();
            if (listener) listener->on_restore_start(reg.topic, partition, reg.store->name(), start, end);
            std::int64_t total = 0;
            std::vector<restore_record> batch;
            for (std::int64_t off = start; off < end;) {
                batch.clear();
                for (; off < end && batch.size() < batch_size; ++off) {
                    const produced_record& r = hist->second[static_cast<std::size_t>(off)];
                    if (!r.key) continue;  // a changelog record always has a key; skip what cannot be one
                    restore_record rr{std::string_view(*r.key), std::nullopt, r.timestamp};
                    if (r.value) rr.value = std::string_view(*r.value);
                    batch.push_back(rr);
                }
                reg.restore(batch);
                total += static_cast<std::int64_t>(batch.size());
                if (listener)
                    listener->on_batch_restored(reg.topic, partition, reg.store->name(), off - 1,
                                                static_cast<std::int64_t>(batch.size()));
            }
            if (listener) listener->on_restore_end(reg.topic, partition, reg.store->name(), total);
            metrics.counter("records-restored") += static_cast<std::uint64_t>(total);
        }
    }

    /// Flushes the task's stores and writes `<task dir>/.checkpoint` with the next changelog offset
    /// its persistent stores do not hold yet (as Kafka's checkpoint file), when forced or when enough was logged since the last one.
    void maybe_checkpoint(detail::stream_task& task, bool force) {
        if (!task.has_persistent_stores()) return;
        std::int64_t& since = logged_since_checkpoint[&task];
        if (!force && since < checkpoint_delta) return;
        detail::checkpoint_offsets offsets;
        for (const auto& reg : task.changelogs()) {
            if (!reg.store->persistent()) continue;
            auto hist = changelog_history.find(reg.topic);
            if (hist != changelog_history.end() && !hist->second.empty())
                offsets[{reg.topic, task.id().partition}] = static_cast<std::int64_t>(hist->second.size());
        }
        task.flush_stores();
        detail::write_checkpoint(task.task_directory(), offsets);
        since = 0;
    }

    ~impl() {
        // A clean close: caches forward what they hold, then checkpoints, then the stores close.
        try {
            for (auto& task : tasks) task->flush();
            process_all();
            for (auto& task : tasks) maybe_checkpoint(*task, true);
        } catch (const std::exception& e) {
            KSTREAMS_LOG(error, std::string("test driver: error while closing: ") + e.what());
        }
        for (auto& task : tasks) {
            try {
                task->close();
            } catch (const std::exception& e) {
                KSTREAMS_LOG(error, std::string("test driver: error while closing a task: ") + e.what());
            }
        }
        tasks.clear();
        if (!temp_dir.empty()) {
            std::error_code ec;
            std::filesystem::remove_all(temp_dir, ec);
        }
    }

    struct pending {
        detail::stream_task* task;
        detail::source_node* source;
        produced_record rec;
    };

    bool find_source(std::string_view topic, detail::stream_task*& task, detail::source_node*& src) {
        for (auto& t : tasks)
            if (auto* s = t->source_for(topic)) {
                task = t.get();
                src = s;
                return true;
            }
        return false;
    }

    /// Moves what the tasks sent into the output queues, and records sent to topics the topology
    /// itself reads into their input queues.
    void capture_outputs() {
        while (!collector.sent.empty()) {
            produced_record r = std::move(collector.sent.front());
            collector.sent.pop_front();
            detail::stream_task* task = nullptr;
            detail::source_node* src = nullptr;
            if (find_source(r.topic, task, src)) enqueue(*src, r);
            if (auto owner = changelog_owner.find(r.topic); owner != changelog_owner.end()) {
                changelog_history[r.topic].push_back(r);
                ++logged_since_checkpoint[owner->second];
            }
            if (produced_names.find(r.topic) == produced_names.end()) produced_names.insert(r.topic);
            outputs[r.topic].push_back(std::move(r));
        }
    }

    void enqueue(detail::source_node& src, const produced_record& r) {
        input_queue& q = queues[r.topic];
        q.src = &src;
        q.records.emplace_back(r, next_offset[r.topic]++);
        if (q.records.size() == 1 && update_head(q)) by_time.offer(&q);
    }

    /// Extracts the head's timestamp, dropping records whose timestamp is invalid; false if
    /// nothing is left.
    bool update_head(input_queue& q) {
        while (!q.records.empty()) {
            const auto& [rec, offset] = q.records.front();
            std::int64_t ts = -1;
            try {
                ts = tasks.front()->extract_timestamp(*q.src, raw_of(rec, offset), q.partition_time);
            } catch (...) {
                q.records.pop_front();  // the error is reported once; later records still run
                throw;
            }
            if (ts >= 0) {
                q.head_ts = ts;
                return true;
            }
            q.records.pop_front();
        }
        return false;
    }

    /// Processes queued records, the one with the smallest timestamp first, until none is left
    /// (Kafka's TopologyTestDriver: process, punctuate by stream time, commit, capture outputs).
    void process_all() {
        capture_outputs();
        detail::stream_task& task = *tasks.front();
        while (!by_time.empty()) {
            input_queue& q = *by_time.poll();
            auto [rec, offset] = std::move(q.records.front());
            q.records.pop_front();
            const std::int64_t ts = q.head_ts;
            q.partition_time = std::max(q.partition_time, ts);
            if (update_head(q)) by_time.offer(&q);
            task.process(*q.src, raw_of(rec, offset), ts);
            task.maybe_punctuate_stream_time();
            // A commit: after every record (as Kafka's TopologyTestDriver), or when a processor asked.
            if (config.commit_after_every_record || task.commit_requested()) {
                task.flush();
                task.clear_commit_request();
            }
            capture_outputs();
        }
    }
};

topology_test_driver::topology_test_driver(const topology& t, driver_config config)
    : impl_(std::make_unique<impl>(t, std::move(config))) {}

topology_test_driver::topology_test_driver(topology&& t, driver_config config)
    : owned_topology_(std::make_unique<topology>(std::move(t))),
      impl_(std::make_unique<impl>(*owned_topology_, std::move(config))) {}

topology_test_driver::~topology_test_driver() = default;

void topology_test_driver::check_input_topic(const std::string& topic) const {
    detail::stream_task* task = nullptr;
    detail::source_node* src = nullptr;
    if (!impl_->find_source(topic, task, src))
        throw std::invalid_argument("unknown input topic " + topic + ": no source of the topology reads it");
}

void topology_test_driver::pipe_raw(const std::string& topic, std::optional<std::string> key,
                                    std::optional<std::string> value, std::int64_t timestamp, const headers& hdrs) {
    detail::stream_task* task = nullptr;
    detail::source_node* src = nullptr;
    if (!impl_->find_source(topic, task, src))
        throw std::invalid_argument("unknown input topic " + topic + ": no source of the topology reads it");
    impl_->enqueue(*src, produced_record{topic, std::move(key), std::move(value), timestamp, hdrs});
    impl_->process_all();
    if (impl_->config.commit_after_every_record)
        for (auto& t : impl_->tasks) impl_->maybe_checkpoint(*t, false);
}

std::deque<produced_record>& topology_test_driver::produced(const std::string& topic) {
    return impl_->outputs[topic];
}

void topology_test_driver::advance_wall_clock_time(std::chrono::milliseconds d) {
    impl_->wall_clock += d.count();
    for (auto& task : impl_->tasks) {
        task->maybe_punctuate_wall_clock();
        task->flush();
    }
    impl_->process_all();
}

std::int64_t topology_test_driver::wall_clock_time_ms() const { return impl_->wall_clock; }

state_store& topology_test_driver::get_state_store(std::string_view name) {
    for (auto& task : impl_->tasks)
        if (auto* s = task->find_store(name)) return *s;
    throw std::invalid_argument("the topology has no store named " + std::string(name));
}

std::vector<std::string> topology_test_driver::state_store_names() const {
    std::vector<std::string> names;
    for (const auto& task : impl_->tasks)
        for (const state_store* s : task->stores()) names.push_back(s->name());
    return names;
}

void topology_test_driver::commit() {
    for (auto& task : impl_->tasks) task->flush();
    impl_->process_all();
    for (auto& task : impl_->tasks) impl_->maybe_checkpoint(*task, false);
}

std::map<std::string, std::vector<produced_record>> topology_test_driver::changelog_records() const {
    std::map<std::string, std::vector<produced_record>> out;
    for (const auto& [topic, records] : impl_->changelog_history) out.emplace(topic, records);
    return out;
}

const kstreams::metrics& topology_test_driver::metrics() const { return impl_->metrics; }

std::vector<std::string> topology_test_driver::produced_topic_names() const {
    std::vector<std::string> names;
    for (const auto& name : impl_->produced_names) names.push_back(name);
    return names;
}

}  // namespace kstreams::test
