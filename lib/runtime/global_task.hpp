// The global task (Kafka's GlobalStateUpdateTask): the global stores of a topology and the source
// and update processor of each, fed every record of every partition of the global topics. One per
// instance: the test driver feeds it as records are piped; the Kafka runtime's global thread
// bootstraps it to the topics' end offsets before stream tasks start, then keeps following.
// Stream tasks read its stores through task_environment::global_store (no connection needed).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/detail/topology_model.hpp>
#include <kstreams/state/state_store.hpp>

#include "lib/core/topology_groups.hpp"
#include "lib/runtime/stream_task.hpp"

namespace kstreams::detail {

class global_task final : public task_context, public store_context {
public:
    /// Kafka's global task id, also the name of its state directory's parent ("global").
    static constexpr kstreams::task_id id_value{-1, -1};

    global_task(const topology_model& model, const topology_groups& groups, task_environment& env);
    ~global_task() override;
    global_task(const global_task&) = delete;
    global_task& operator=(const global_task&) = delete;

    /// Builds and opens the global stores, then the processors (stores first, as stream tasks).
    void init();
    /// The global topics, as written (no application.id prefix: a global topic is never internal).
    const std::vector<std::string>& topics() const { return topics_; }
    bool reads(std::string_view topic) const { return sources_.find(topic) != sources_.end(); }
    /// Processes one record of a global topic through its source and update processor. Errors
    /// become streams_error naming the topic, partition, offset and node.
    void process(const raw_record& raw);
    /// Writes everything down (caches are off for global stores; RocksDB memtables to disk).
    void flush();
    void close();
    state_store* find_store(std::string_view name);
    const std::vector<state_store*>& stores() const { return store_order_; }
    bool has_persistent_stores() const;
    /// The topic each global store is filled from (Kafka's storeToChangelogTopic), by store.
    const std::vector<std::pair<state_store*, std::string>>& store_topics() const { return store_topics_; }
    /// Writes raw records of a store's topic into it through the restore callback it registered
    /// (Kafka's global restore of a global table: the update processor does not run, the store's
    /// own conversion does, e.g. a timestamped store's timestamp in front of the value).
    void restore(state_store& store, std::span<const restore_record> batch);
    /// Whether `store` is restored by processing its topic's records through the source and the
    /// update processor (process()) instead of restore(): a store of add_global_store, as Kafka
    /// 4.x's addGlobalStore (reprocessOnRestore). A global table's store is restored raw.
    bool reprocesses_on_restore(const state_store& store) const;

    // task_context
    std::string_view application_id() const override { return env_.application_id; }
    kstreams::task_id id() const override { return id_value; }
    const record_metadata* current_metadata() const override { return has_metadata_ ? &metadata_ : nullptr; }
    std::int64_t stream_time() const override { return -1; }
    std::int64_t wall_clock_time() const override { return env_.wall_clock(); }
    std::optional<std::string_view> app_config(std::string_view key) const override { return app_config_of(env_, key); }
    const app_config_map& app_configs() const override { return env_.app_configs; }
    std::string state_directory() const override { return task_directory().string(); }
    metrics_recording_level recording_level() const override { return env_.recording_level; }
    cancellable schedule(node& owner, std::chrono::milliseconds interval, punctuation_type type,
                         punctuator callback) override;
    state_store& store(std::string_view name, const node& asker) override;
    void request_commit() override {}
    record_collector& collector() override;
    kstreams::metrics& metrics() override { return *env_.metrics; }
    void record_dropped(std::string_view reason_metric, const node& where) override;
    void deserialization_failed(const raw_record& raw, bool in_key, std::string_view what,
                                const node& where) override;

    // store_context
    kstreams::task_id task_id() const override { return id_value; }
    /// `<state.dir>/<application.id>/global`, as Kafka's global state directory.
    std::filesystem::path task_directory() const override;
    void register_store(state_store& store, restore_callback restore) override;
    void log_change(std::string_view store_name, std::string_view key, std::optional<std::string_view> value,
                    std::int64_t timestamp) override;
    record_context current_record_context() const override { return current_record_; }
    void set_current_record_context(record_context rc) override { current_record_ = rc; }
    store_resources* resources() override { return &resources_; }

protected:
    task_slot_entry& slot(std::string_view key) override { return slots_.at(key); }

private:
    const topology_model& model_;
    const topology_groups& groups_;
    task_environment& env_;
    std::vector<std::string> topics_;
    std::vector<std::unique_ptr<node>> nodes_;
    std::map<std::string, std::pair<source_node*, const node_def*>, std::less<>> sources_;
    std::map<const node*, std::size_t> node_def_index_;
    std::map<std::string, std::unique_ptr<state_store>, std::less<>> stores_;
    std::vector<state_store*> store_order_;
    std::vector<std::pair<state_store*, std::string>> store_topics_;
    std::map<std::string, restore_callback, std::less<>> restorers_;  ///< by store name
    std::vector<const state_store*> reprocessed_;  ///< stores of add_global_store
    store_resources resources_;
    record_metadata metadata_;
    bool has_metadata_ = false;
    bool initialized_ = false;
    std::map<std::string, bool, std::less<>> warned_;
    task_slots slots_;
};

}  // namespace kstreams::detail
