// What the app shares with its stream threads: the topology, the resolved topics and the client
// settings. Read-only once the threads run, except the callbacks (thread-safe on the app side).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include <boost/asio/any_io_executor.hpp>

#include <kstreams/detail/topology_model.hpp>
#include <kstreams/state/restore_listener.hpp>
#include <kstreams/state/state_store.hpp>
#include <kstreams/streams.hpp>

#include "lib/core/topology_groups.hpp"
#include "lib/state/rocksdb_shared.hpp"
#include "lib/runtime/topic_plan.hpp"

namespace kstreams::detail {

class query_registry;
class host_directory;
class standby_updater;

struct app_context {
    const topology_model* model = nullptr;
    const topology_groups* groups = nullptr;
    streams_config config;
    topic_plan plan;
    bool embedded = false;
    std::map<std::string, std::string> consumer_settings;
    std::map<std::string, std::string> producer_settings;
    std::map<std::string, std::string> restore_settings;
    /// Set when sinks write to another cluster (streams_config::sink_bootstrap_servers).
    std::optional<std::map<std::string, std::string>> sink_producer_settings;
    /// The block cache and write-buffer manager all RocksDB stores of the app share.
    std::shared_ptr<state::rocksdb_shared> rocksdb;
    /// Told of restoration progress; set before the threads start.
    std::shared_ptr<state_restore_listener> restore_listener;
    /// The app's worker for blocking calls (librdkafka lookups, flushes, commits, opening stores),
    /// so that they never hold a thread of the executor that runs the tasks.
    boost::asio::any_io_executor blocking;
    /// The global store of this name (the global thread's), or nullptr; unset without global
    /// stores. Read under `global_lock`, which the global thread holds while it writes.
    std::function<state_store*(std::string_view name)> global_store;
    std::recursive_mutex* global_lock = nullptr;
    /// This instance's process id (a UUID kept in `<state.dir>/<application.id>/
    /// kafka-streams-process-metadata`, as Kafka Streams'): names the transactional producers.
    std::string process_id;
    /// Interactive queries: where the stream threads' tasks register (query_registry.hpp).
    std::shared_ptr<query_registry> queries;
    /// Which instance reads which partitions (host_directory.hpp); the stream threads report theirs.
    host_directory* hosts = nullptr;
    /// This instance's standby replicas (standby_updater.hpp); null with num.standby.replicas 0.
    /// Set before the stream threads start, destroyed after they ended.
    standby_updater* standbys = nullptr;
    /// A thread entered (true) or left (false) a rebalance.
    std::function<void(int thread, bool rebalancing)> on_rebalance;
    /// kafka_streams::pause(): the stream threads process nothing (records, punctuations,
    /// restoration) but poll and commit.
    std::atomic<bool> paused{false};
    /// The threads a new stream thread's record cache shares statestore.cache.max.bytes with
    /// (itself included); 0: num.stream.threads.
    std::atomic<int> cache_sharing_threads{0};
};

}  // namespace kstreams::detail
