#include "lib/runtime/streams_metadata.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <stdexcept>

#include <kstreams/state/queryable_store.hpp>

#include "lib/runtime/standby_placement.hpp"

namespace kstreams {

host_info host_info::parse(std::string_view host_port) {
    const auto colon = host_port.rfind(':');
    host_info h;
    if (colon == std::string_view::npos || colon == 0)
        throw std::invalid_argument("application.server must be host:port, got \"" + std::string(host_port) + "\"");
    h.host = std::string(host_port.substr(0, colon));
    const std::string_view port = host_port.substr(colon + 1);
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), h.port);
    if (ec != std::errc() || end != port.data() + port.size() || h.port < 0 || h.port > 65535)
        throw std::invalid_argument("application.server must be host:port with a port in 0..65535, got \"" +
                                    std::string(host_port) + "\"");
    return h;
}

namespace detail {

namespace {

/// The sub-topology (index into topology_groups) whose tasks hold `store`, or nullopt.
std::optional<std::size_t> subtopology_of_store(const app_context& ctx, const std::string& store) {
    for (std::size_t i = 0; i < ctx.groups->subtopologies.size(); ++i) {
        const auto& sub = ctx.groups->subtopologies[i];
        if (sub.global) continue;
        for (std::size_t s : sub.stores)
            if (ctx.model->stores[s].builder->name() == store) return i;
    }
    return std::nullopt;
}

bool is_global_store(const app_context& ctx, const std::string& store) {
    for (const auto& s : ctx.model->stores)
        if (s.global && s.builder->name() == store) return true;
    return false;
}

}  // namespace

std::vector<streams_metadata> hosts_metadata(const app_context& ctx, const std::vector<hosted_partitions>& members) {
    std::map<std::string, streams_metadata> by_server;
    auto stores_of = [&](const std::string& topic, std::set<std::string>& names) {
        auto it = ctx.plan.subtopology_of_topic.find(topic);
        if (it == ctx.plan.subtopology_of_topic.end()) return;
        for (std::size_t s : ctx.groups->subtopologies[it->second].stores)
            names.insert(ctx.model->stores[s].builder->name());
    };
    for (const auto& m : members) {
        if (m.server.empty()) continue;
        auto& md = by_server[m.server];
        md.host = host_info::parse(m.server);
        for (const auto& tp : m.partitions) {
            md.topic_partitions.insert({tp.topic, tp.partition});
            stores_of(tp.topic, md.state_store_names);
        }
    }
    // Standbys, as Kafka's: the input partitions of each standby task and its sub-topology's stores.
    if (ctx.config.num_standby_replicas > 0) {
        const standby_placement placement = place_standbys(ctx, members);
        for (const auto& [task, instances] : placement.standbys)
            for (const auto& instance : instances) {
                const std::string& server = placement.servers.at(instance);
                auto md = by_server.find(server);
                if (server.empty() || md == by_server.end()) continue;
                for (const auto& tp : input_partitions(ctx, task)) {
                    md->second.standby_topic_partitions.insert({tp.topic, tp.partition});
                    stores_of(tp.topic, md->second.standby_state_store_names);
                }
            }
    }
    std::vector<streams_metadata> out;
    for (auto& [server, md] : by_server) {
        // As Kafka's: every instance hosts every global store.
        for (const auto& s : ctx.model->stores)
            if (s.global) md.state_store_names.insert(s.builder->name());
        out.push_back(std::move(md));
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.host < b.host; });
    return out;
}

key_query_metadata key_metadata(const app_context& ctx, const std::vector<hosted_partitions>& members,
                                const std::string& store, const host_info& self,
                                const std::function<std::int32_t(std::int32_t)>& choose) {
    if (is_global_store(ctx, store)) return {self, {}, -1};
    const auto sub = subtopology_of_store(ctx, store);
    if (!sub)
        throw unknown_state_store_error("Cannot get metadata for state store " + store +
                                        " because no such store is registered in the topology.");
    // The store's partitioning follows its sub-topology's source topics: the key's partition
    // among as many as the largest of them has (Kafka's SourceTopicsInfo.maxPartitions).
    std::set<std::string> topics;
    std::int32_t partitions = 0;
    for (const auto& [topic, index] : ctx.plan.subtopology_of_topic)
        if (index == *sub) {
            topics.insert(topic);
            if (auto it = ctx.plan.partition_counts.find(topic); it != ctx.plan.partition_counts.end())
                partitions = std::max(partitions, it->second);
        }
    if (partitions <= 0 && *sub < ctx.plan.task_count.size()) partitions = ctx.plan.task_count[*sub];
    if (partitions <= 0) return key_query_metadata::not_available();
    const std::int32_t partition = choose(partitions);
    key_query_metadata out;
    out.partition = partition;
    for (const auto& m : members) {
        if (m.server.empty()) continue;
        const bool hosts = std::any_of(m.partitions.begin(), m.partitions.end(), [&](const topic_partition& tp) {
            return tp.partition == partition && topics.count(tp.topic);
        });
        if (hosts) {
            out.active_host = host_info::parse(m.server);
            break;
        }
    }
    if (ctx.config.num_standby_replicas > 0) {
        const standby_placement placement = place_standbys(ctx, members);
        const kstreams::task_id task{ctx.groups->subtopologies[*sub].id, partition};
        if (auto it = placement.standbys.find(task); it != placement.standbys.end())
            for (const auto& instance : it->second)
                if (const std::string& server = placement.servers.at(instance); !server.empty())
                    out.standby_hosts.insert(host_info::parse(server));
    }
    return out;
}

std::vector<thread_metadata> threads_metadata(const app_context& ctx, const std::map<int, local_thread_state>& threads,
                                              const std::set<kstreams::task_id>& standby_tasks) {
    std::vector<thread_metadata> out;
    for (const auto& [index, t] : threads) {
        thread_metadata md;
        md.thread_name = t.name;
        md.thread_state = t.restoring ? "PARTITIONS_ASSIGNED" : "RUNNING";
        md.consumer_client_id = t.consumer_client_id;
        std::map<kstreams::task_id, std::set<topic_partition_info>> tasks;
        for (const auto& tp : t.partitions) {
            auto it = ctx.plan.subtopology_of_topic.find(tp.topic);
            if (it == ctx.plan.subtopology_of_topic.end()) continue;
            tasks[{ctx.groups->subtopologies[it->second].id, tp.partition}].insert({tp.topic, tp.partition});
        }
        for (auto& [id, parts] : tasks) md.active_tasks.push_back({id, std::move(parts)});
        if (out.empty())
            for (const kstreams::task_id& id : standby_tasks) {
                task_metadata standby{id, {}};
                for (const auto& tp : input_partitions(ctx, id)) standby.topic_partitions.insert({tp.topic, tp.partition});
                md.standby_tasks.push_back(std::move(standby));
            }
        out.push_back(std::move(md));
    }
    return out;
}

}  // namespace detail
}  // namespace kstreams
