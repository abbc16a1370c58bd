// The answers of kafka_streams' metadata calls, worked out from the group's members and their
// partitions (host_directory.hpp) and the topology (Kafka Streams' StreamsMetadataState).
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <kstreams/streams_metadata.hpp>

#include "lib/runtime/app_context.hpp"
#include "lib/runtime/host_directory.hpp"

namespace kstreams::detail {

/// One entry per endpoint (members without application.server are left out, as Kafka's), by host,
/// with the standby replicas the placement gives each (standby_placement.hpp).
std::vector<streams_metadata> hosts_metadata(const app_context& ctx, const std::vector<hosted_partitions>& members);

/// Where the key lives (the active instance and the standbys' of its task): `choose` maps the
/// partition count of the store's source topics to the key's partition. Throws
/// unknown_state_store_error for a name the topology does not have.
key_query_metadata key_metadata(const app_context& ctx, const std::vector<hosted_partitions>& members,
                                const std::string& store, const host_info& self,
                                const std::function<std::int32_t(std::int32_t)>& choose);

/// This instance's stream threads; the standby tasks (kept by the instance's standby updater, not
/// by a thread) are listed with the first thread's.
std::vector<thread_metadata> threads_metadata(const app_context& ctx, const std::map<int, local_thread_state>& threads,
                                              const std::set<kstreams::task_id>& standby_tasks = {});

}  // namespace kstreams::detail
