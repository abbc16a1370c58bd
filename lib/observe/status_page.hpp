// The status page's routes: `/` (the page: HTML and JS, embedded), `/metrics` (Prometheus text),
// `/topology` (SVG, the processor-node rates written on the nodes), `/topology.dot`,
// `/topology.mmd`, `/tasks` (JSON: threads, tasks, partitions, lag, restoration, state).
// Interactive queries can add a `/query` route to the same table.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "lib/observe/metric_registry.hpp"
#include "lib/observe/status_server.hpp"

namespace kstreams {
class topology;
}

namespace kstreams::detail {

std::map<std::string, status_server::handler> status_routes(const topology& t,
                                                            std::function<client_snapshot()> observe,
                                                            metric_registry& registry);

/// The `/tasks` document.
std::string tasks_json(const client_snapshot& client, const std::vector<metric_sample>& samples);

}  // namespace kstreams::detail
