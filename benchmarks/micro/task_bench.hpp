// A bench-only entry point to the per-record path: one stream_task running the sub-topology that
// reads a given topic, fed pre-built raw records. Per record it does what a runner does (extract
// the timestamp, process, check stream-time punctuations) and nothing else, so the figure is the
// spine's cost without the test driver's copying and routing. What sinks send is counted and
// dropped.
//
// It links the library's private headers (lib/runtime); it is not part of the public API.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <kstreams/detail/node.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/metrics.hpp>
#include <kstreams/topology.hpp>

namespace kstreams::detail {
class stream_task;
struct topology_groups;
struct task_environment;
}  // namespace kstreams::detail

namespace kstreams::state {
class record_cache;
}  // namespace kstreams::state

namespace kstreams::bench {

/// A collector that only counts: what a sink costs up to the producer, without the producer.
class counting_collector final : public detail::record_collector {
public:
    void send(std::string_view, std::optional<std::int32_t>, std::optional<std::string_view> key,
              std::optional<std::string_view> value, std::int64_t, const headers&, std::string_view) override {
        ++records;
        bytes += (key ? key->size() : 0) + (value ? value->size() : 0);
    }
    std::int32_t partition_count(std::string_view) override { return 1; }

    std::uint64_t records = 0;
    std::uint64_t bytes = 0;
};

/// Pre-built records in bytes: keys and values live here, raw_records point into them.
class raw_records {
public:
    /// `hdrs`, if given, are every record's headers (and must outlive this).
    raw_records(std::string topic, std::vector<std::pair<std::string, std::string>> kvs,
                const headers* hdrs = nullptr);
    const detail::raw_record& operator[](std::size_t i) const { return raw_[i & mask_]; }
    std::size_t size() const { return raw_.size(); }

private:
    std::string topic_;
    std::vector<std::pair<std::string, std::string>> kvs_;
    std::vector<detail::raw_record> raw_;
    std::size_t mask_;
};

class task_bench {
public:
    /// Runs the sub-topology reading `topic` of `t` (which must outlive this) as task 0_0.
    /// `cache_max_bytes` is the stream thread's record cache shared by the task's caching stores
    /// (statestore.cache.max.bytes; 0 = stores write through). `state_dir` empty: a temporary
    /// directory, removed at the end.
    task_bench(const topology& t, const std::string& topic, std::size_t cache_max_bytes = 0,
               std::string state_dir = {});
    ~task_bench();
    task_bench(const task_bench&) = delete;
    task_bench& operator=(const task_bench&) = delete;

    /// One record through the task, as a runner feeds it.
    void process(const detail::raw_record& raw);
    /// Flushes caches and stores (the first half of a commit).
    void flush();
    counting_collector& collector() { return collector_; }
    kstreams::metrics& metrics() { return metrics_; }
    /// The store of this name in the task, for direct store benchmarks.
    state_store& store(std::string_view name);

private:
    counting_collector collector_;
    kstreams::metrics metrics_;
    std::unique_ptr<state::record_cache> cache_;
    std::unique_ptr<detail::topology_groups> groups_;
    std::unique_ptr<detail::task_environment> env_;
    std::unique_ptr<detail::stream_task> task_;
    detail::source_node* source_ = nullptr;
    std::string temp_dir_;
};

/// `n` records with 4-byte big-endian int32 keys cycling over `keys` distinct keys and values made
/// by `value_of(i)` (already serialized), as Kafka Streams' SimpleBenchmark loads them.
template <class ValueOf>
raw_records make_records(std::string topic, std::size_t n, std::int32_t keys, ValueOf value_of,
                         const headers* hdrs = nullptr) {
    std::vector<std::pair<std::string, std::string>> kvs;
    kvs.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::string k;
        const auto key = static_cast<std::uint32_t>(static_cast<std::int32_t>((i * 7919) % keys));
        for (int b = 3; b >= 0; --b) k.push_back(static_cast<char>((key >> (8 * b)) & 0xff));
        kvs.emplace_back(std::move(k), value_of(i));
    }
    return raw_records(std::move(topic), std::move(kvs), hdrs);
}

}  // namespace kstreams::bench
