// One input partition's work in the hand-written loop (a kstreams task): the records of that
// partition of the input topic (source 0) and of its companion (source 1: the join's table or
// other stream), its stores, and their checkpoint.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "benchmarks/e2e/plain/common.hpp"
#include "benchmarks/e2e/plain/store.hpp"

namespace plain {

/// A record as the loop hands it to a task.
struct input_record {
    int source = 0;  ///< 0: the input topic; 1: its companion
    std::string_view key, value;
    bool null_key = false, null_value = false;
    std::int64_t timestamp = 0;
};

class task {
public:
    virtual ~task() = default;
    virtual void process(const input_record& r) = 0;
    /// At a commit, before the producer delivers: the record caches write their dirty entries.
    virtual void flush() {}
    /// After a commit (at-least-once only; under exactly-once kstreams and Kafka Streams write the
    /// checkpoint only at a clean close): once 10,000 changelog records went by since the last
    /// checkpoint, flushes the stores and writes the acknowledged changelog offsets.
    void maybe_checkpoint();

protected:
    task(std::filesystem::path dir, const sinks& to) : dir_(std::move(dir)), to_(to) {}
    /// Opens a store of this task (in its own directory), logged to `changelog`.
    logged_store& add_store(const rocks& db, const std::string& name, rd_kafka_topic_t* changelog,
                            std::int32_t partition);

    std::filesystem::path dir_;
    sinks to_;

private:
    std::vector<std::unique_ptr<logged_store>> stores_;
    std::int64_t checkpointed_sent_ = 0;
};

/// Everything a pipeline needs to make a task.
struct task_setup {
    const rocks* db = nullptr;
    sinks to;
    std::vector<rd_kafka_topic_t*> changelogs;  ///< one per store, in the pipeline's order
    std::filesystem::path state_dir;
};

/// A task of `pipeline` (at-least-once or exactly-once alike); null for a pipeline without state
/// (passthrough, stateless: the loop does those itself).
std::unique_ptr<task> make_task(const std::string& pipeline, const task_setup& setup, std::int32_t partition);
/// The names of a pipeline's stores, in the order of task_setup::changelogs (its changelog topics
/// are `<group>-<name>-changelog`).
std::vector<std::string> store_names(const std::string& pipeline);

}  // namespace plain
