#include <kstreams/test/topology_test_driver.hpp>

#include <algorithm>
#include <atomic>
#include <random>
#include <set>

#include <boost/asio/io_context.hpp>

#include <kstreams/detail/internal_configs.hpp>
#include <kstreams/error.hpp>

#include "lib/core/topology_groups.hpp"
#include "lib/core/log.hpp"
#include "lib/runtime/error_handling.hpp"
#include "lib/runtime/global_task.hpp"
#include "lib/runtime/task_manager.hpp"
#include "lib/test/memory_ports.hpp"
#include "lib/state/record_cache.hpp"
#include "lib/state/rocksdb_shared.hpp"

namespace kstreams::test {

namespace {

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
        if (sub.global) continue;  // the driver's global task runs those
        all.nodes.insert(all.nodes.end(), sub.nodes.begin(), sub.nodes.end());
        all.describe_order.insert(all.describe_order.end(), sub.describe_order.begin(), sub.describe_order.end());
        for (std::size_t s : sub.stores)
            if (std::find(all.stores.begin(), all.stores.end(), s) == all.stores.end()) all.stores.push_back(s);
        all.source_topics.insert(all.source_topics.end(), sub.source_topics.begin(), sub.source_topics.end());
        all.source_patterns.insert(all.source_patterns.end(), sub.source_patterns.begin(), sub.source_patterns.end());
    }
    return all;
}

detail::task_manager_config manager_config(const driver_config& c) {
    detail::task_manager_config m;
    m.name = "test driver";
    m.max_task_idle_ms = -1;  // what is piped is processed; nothing to wait for
    m.buffered_records_per_partition = SIZE_MAX;
    m.records_per_round = 1;  // outputs are routed after each record
    m.commit_interval_ms = c.commit_after_every_record ? 0 : -1;
    m.restore_listener = c.restore_listener.get();
    m.create_task_directories = false;
    m.revive_corrupted_tasks = false;  // the driver cannot pipe its input again
    m.committed_offsets = false;
    m.max_async_in_flight = c.max_async_in_flight_per_task;
    return m;
}

}  // namespace

/// The driver runs the runtime's task manager over in-memory ports: the same queueing by
/// timestamp, restoration, commit protocol and checkpoints as the Kafka runtime.
struct topology_test_driver::impl {
    const topology& topo;
    driver_config config;
    /// Where async processors run; the driver runs it inside its own calls only.
    boost::asio::io_context io{1};
    detail::topology_groups groups;
    detail::subtopology_group all_subtopologies;
    kstreams::metrics metrics;
    state::record_cache cache;
    detail::error_handlers handlers;  ///< env.errors points here
    detail::task_environment env;
    std::map<std::string, std::deque<produced_record>, std::less<>> outputs;
    /// Topics records were sent to (outputs also holds topics only read from, as Kafka's
    /// producedTopicNames() does not list).
    std::set<std::string, std::less<>> produced_names;
    std::int64_t wall_clock;
    std::filesystem::path temp_dir;
    /// Changelog topics: their whole contents (offset = index).
    std::map<std::string, std::vector<produced_record>, std::less<>> changelog_history;
    std::set<std::string, std::less<>> changelog_topics;
    detail_impl::memory_consumer consumer;
    detail_impl::memory_producer producer;
    detail_impl::memory_restorer restorer{changelog_history};
    /// The global stores, updated at once by what is piped into (or sent to) a global topic, as
    /// Kafka's TopologyTestDriver updates its global state task.
    std::unique_ptr<detail::global_task> global;
    std::map<std::string, std::int64_t, std::less<>> global_offsets;
    std::unique_ptr<detail::task_manager> manager;
    detail::stream_task* task = nullptr;
    std::map<std::string, detail::topic_partition, std::less<>> assigned;  ///< input partitions so far
    bool closing = false;

    impl(const topology& t, driver_config c)
        : topo(t), config(std::move(c)), groups(detail::group_topology(t.model())),
          all_subtopologies(merge_subtopologies(groups)), cache(config.cache_max_bytes),
          wall_clock(config.initial_wall_clock_ms) {
        env.stores.cache = &cache;
        env.state_lock_wait = std::chrono::milliseconds{0};  // a second driver on the directory fails at once
        env.stores.rocksdb = std::make_shared<state::rocksdb_shared>(config.rocksdb);
        env.application_id = config.application_id;
        env.wall_clock = [this] { return wall_clock; };
        env.app_configs = detail::app_config_map(config.app_configs.begin(), config.app_configs.end());
        env.app_configs[std::string(detail::internal_config::outer_join_emit_interval_ms)] =
            std::to_string(config.outer_join_emit_interval_ms);
        env.app_configs[std::string(detail::internal_config::windowed_aggregation_emit_interval_ms)] =
            std::to_string(config.windowed_aggregation_emit_interval_ms);
        env.recording_level = config.metrics_recording_level;
        env.node_metrics = config.metrics_recording_level != metrics_recording_level::info;  // process-total per node, as a thread
        env.collector = &producer;
        env.executor = io.get_executor();
        env.metrics = &metrics;
        env.on_deserialization_error = config.log_and_continue_on_deserialization_error
                                           ? detail::deserialization_policy::log_and_continue
                                           : detail::deserialization_policy::fail;
        handlers = detail::error_handlers::resolve(config.errors, config.log_and_continue_on_deserialization_error,
                                                   config.log_and_continue_on_production_error);
        env.errors = &handlers;
        env.default_extractor = config.default_timestamp_extractor;
        env.default_dsl_store = config.default_dsl_store;
        std::filesystem::path root = config.state_dir;
        if (root.empty()) root = temp_dir = make_temp_state_dir();
        env.state_dir = root / config.application_id;
        for (auto& [topic, records] : config.changelogs)
            changelog_history[topic].assign(records.begin(), records.end());
        consumer.resume_metadata = config.committed_metadata;
        consumer.first_offsets = config.first_input_offsets;
        producer.deliver = [this] { capture_outputs(); };
        if (groups.has_global()) {
            global = std::make_unique<detail::global_task>(t.model(), groups, env);
            global->init();
            env.global_store = [this](std::string_view name) { return global->find_store(name); };
        }
        manager = std::make_unique<detail::task_manager>(
            t.model(), groups, env, consumer, producer, restorer,
            [this](std::string_view) { return &all_subtopologies; }, manager_config(config));
        task = &manager->add_task(all_subtopologies, task_id{0, 0});
        for (const auto& reg : task->changelogs()) changelog_topics.insert(reg.topic);
        while (manager->restoring()) manager->restore_step();
        task = manager->find_task(task_id{0, 0});  // opened again if a store had to be wiped
        process_all();
    }

    ~impl() {
        // A clean close: caches forward what they hold, then checkpoints, then the stores close.
        try {
            if (manager->async_in_flight() > 0) wait_for_async(std::chrono::seconds(30));
            manager->commit();
            process_all();
            closing = true;
            manager->close(true);
            if (global) global->close();
        } catch (const std::exception& e) {
            KSTREAMS_LOG(error, std::string("test driver: error while closing: ") + e.what());
        }
        manager.reset();
        global.reset();
        if (!temp_dir.empty()) {
            std::error_code ec;
            std::filesystem::remove_all(temp_dir, ec);
        }
    }

    bool reads(std::string_view topic) const { return task->source_for(topic) != nullptr || reads_global(topic); }
    bool reads_global(std::string_view topic) const { return global && global->reads(topic); }

    /// One record of a global topic: through its update processor, then written down.
    void update_global(const produced_record& r) {
        auto [it, fresh] = global_offsets.try_emplace(r.topic, 0);
        const std::optional<std::string_view> key = r.key ? std::optional<std::string_view>(*r.key) : std::nullopt;
        const std::optional<std::string_view> value = r.value ? std::optional<std::string_view>(*r.value) : std::nullopt;
        const detail::raw_record raw{it->first, 0, it->second++, r.timestamp, key, value, &r.headers};
        global->process(raw);
        global->flush();
    }

    /// Moves what the task sent into the output queues, and records sent to topics the topology
    /// itself reads into their input queues.
    void capture_outputs() {
        while (!producer.sent.empty()) {
            produced_record r = std::move(producer.sent.front());
            producer.sent.pop_front();
            if (!closing && reads_global(r.topic)) update_global(r);
            else if (!closing && reads(r.topic)) enqueue(r);
            if (changelog_topics.count(r.topic)) {
                auto& history = changelog_history[r.topic];
                history.push_back(r);
                producer.acked[{r.topic, 0}] = static_cast<std::int64_t>(history.size()) - 1;
            }
            if (produced_names.find(r.topic) == produced_names.end()) produced_names.insert(r.topic);
            outputs[r.topic].push_back(std::move(r));
        }
    }

    /// Appends a record to its input partition and hands it to the task at once (so records of
    /// several topics queue in the order they arrived, as Kafka's test driver queues them).
    void enqueue(const produced_record& r) {
        auto it = assigned.find(r.topic);
        if (it == assigned.end()) {
            // With it, every partition a restart has a commit of, as the Kafka runtime assigns a
            // task's partitions at once: what each commit noted is known before the first record.
            std::vector<detail::topic_partition> parts{{r.topic, 0}};
            for (const auto& [topic, metadata] : consumer.resume_metadata)
                if (topic != r.topic && !assigned.count(topic)) parts.push_back({topic, 0});
            for (const auto& tp : parts) assigned.emplace(tp.topic, tp);
            manager->assign(parts);
            it = assigned.find(r.topic);
        }
        const detail::topic_partition& tp = it->second;
        consumer.append(tp, r);
        manager->fill(tp);
    }

    /// Processes queued records, the one with the smallest timestamp first, until none is left
    /// (Kafka's TopologyTestDriver: process, punctuate by stream time, commit, capture outputs).
    /// Async records that completed meanwhile let their downstream run and their tasks take more.
    void process_all() {
        for (;;) {
            capture_outputs();
            std::optional<std::int64_t> idle_until;
            while (manager->process(idle_until)) {
                manager->maybe_commit();
                capture_outputs();
            }
            if (manager->async_in_flight() == 0) break;
            io.restart();
            if (io.poll() == 0) break;
            manager->maybe_commit();
        }
        capture_outputs();
    }

    void wait_for_async(std::chrono::milliseconds timeout) {
        const auto until = std::chrono::steady_clock::now() + timeout;
        process_all();
        while (manager->async_in_flight() > 0) {
            io.restart();
            if (std::chrono::steady_clock::now() >= until || io.run_one_until(until) == 0) {
                const std::size_t n = manager->async_in_flight();
                if (n == 0) break;
                throw std::runtime_error(
                    "test driver: " + std::to_string(n) + " records still in flight in async processors " +
                    (std::chrono::steady_clock::now() >= until
                         ? "after " + std::to_string(timeout.count()) + " ms"
                         : std::string("and nothing left to complete them (they wait for an operation that never "
                                       "completes)")));
            }
            process_all();
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
    if (!impl_->reads(topic))
        throw std::invalid_argument("unknown input topic " + topic + ": no source of the topology reads it");
}

void topology_test_driver::pipe_raw(const std::string& topic, std::optional<std::string> key,
                                    std::optional<std::string> value, std::int64_t timestamp, const headers& hdrs) {
    if (!impl_->reads(topic))
        throw std::invalid_argument("unknown input topic " + topic + ": no source of the topology reads it");
    produced_record r{topic, std::move(key), std::move(value), timestamp, hdrs};
    try {
        if (impl_->reads_global(topic)) impl_->update_global(r);
        else impl_->enqueue(r);
        impl_->process_all();
    } catch (...) {
        // What was sent before the failure (a dead-letter record written before a handler's fail)
        // is readable, as the producer has it.
        impl_->capture_outputs();
        throw;
    }
}

std::deque<produced_record>& topology_test_driver::produced(const std::string& topic) {
    return impl_->outputs[topic];
}

void topology_test_driver::advance_wall_clock_time(std::chrono::milliseconds d) {
    impl_->wall_clock += d.count();
    impl_->manager->punctuate_wall_clock();
    impl_->manager->commit();
    impl_->process_all();
}

std::int64_t topology_test_driver::wall_clock_time_ms() const { return impl_->wall_clock; }

state_store& topology_test_driver::get_state_store(std::string_view name) {
    if (auto* s = impl_->task->find_store(name)) return *s;
    if (impl_->global)
        if (auto* s = impl_->global->find_store(name)) return *s;
    throw std::invalid_argument("the topology has no store named " + std::string(name));
}

std::vector<std::string> topology_test_driver::state_store_names() const {
    std::vector<std::string> names;
    for (const state_store* s : impl_->task->stores()) names.push_back(s->name());
    if (impl_->global)
        for (const state_store* s : impl_->global->stores()) names.push_back(s->name());
    return names;
}

void topology_test_driver::commit() {
    impl_->manager->commit();
    impl_->process_all();
}

std::map<std::string, std::vector<produced_record>> topology_test_driver::changelog_records() const {
    std::map<std::string, std::vector<produced_record>> out;
    for (const auto& [topic, records] : impl_->changelog_history) out.emplace(topic, records);
    return out;
}

const kstreams::metrics& topology_test_driver::metrics() const { return impl_->metrics; }

std::size_t topology_test_driver::async_in_flight() const { return impl_->manager->async_in_flight(); }

void topology_test_driver::poll_async() { impl_->process_all(); }

void topology_test_driver::wait_for_async(std::chrono::milliseconds timeout) { impl_->wait_for_async(timeout); }

std::map<std::string, std::int64_t> topology_test_driver::committed_offsets() const {
    std::map<std::string, std::int64_t> out;
    for (const auto& [tp, offset] : impl_->consumer.committed_offsets) out[tp.topic] = offset;
    return out;
}

std::map<std::string, std::string> topology_test_driver::committed_metadata() const {
    std::map<std::string, std::string> out;
    for (const auto& [tp, metadata] : impl_->consumer.committed_metadata_of) out[tp.topic] = metadata;
    return out;
}

std::vector<std::string> topology_test_driver::produced_topic_names() const {
    std::vector<std::string> names;
    for (const auto& name : impl_->produced_names) names.push_back(name);
    return names;
}

}  // namespace kstreams::test
