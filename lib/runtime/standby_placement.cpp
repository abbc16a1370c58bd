#include "lib/runtime/standby_placement.hpp"

#include <algorithm>

namespace kstreams::detail {

std::set<kstreams::task_id> standby_placement::standbys_of(const std::string& instance) const {
    std::set<kstreams::task_id> out;
    for (const auto& [task, where] : standbys)
        if (std::find(where.begin(), where.end(), instance) != where.end()) out.insert(task);
    return out;
}

standby_placement place_standbys(const std::vector<instance_tasks>& instances,
                                 const std::set<kstreams::task_id>& stateful, int replicas) {
    standby_placement out;
    std::vector<std::string> sorted;
    std::map<kstreams::task_id, std::string> active_on;
    for (const auto& i : instances) {
        if (out.servers.emplace(i.instance, i.server).second) sorted.push_back(i.instance);
        for (const auto& t : i.active) active_on.emplace(t, i.instance);
    }
    std::sort(sorted.begin(), sorted.end());
    if (replicas <= 0) return out;
    std::map<std::string, std::size_t> load;
    for (const kstreams::task_id& task : stateful) {
        auto active = active_on.find(task);
        if (active == active_on.end()) {  // unassigned for now (the group rebalances)
            out.unassigned.insert(task);
            continue;
        }
        const std::size_t at = static_cast<std::size_t>(
            std::lower_bound(sorted.begin(), sorted.end(), active->second) - sorted.begin());
        auto& chosen = out.standbys[task];
        for (int r = 0; r < replicas; ++r) {
            const std::string* best = nullptr;
            // Round the ring from the instance after the active one: the first least loaded wins.
            for (std::size_t step = 1; step < sorted.size(); ++step) {
                const std::string& candidate = sorted[(at + step) % sorted.size()];
                if (std::find(chosen.begin(), chosen.end(), candidate) != chosen.end()) continue;
                if (!best || load[candidate] < load[*best]) best = &candidate;
            }
            if (!best) break;
            chosen.push_back(*best);
            ++load[*best];
        }
        if (chosen.size() < static_cast<std::size_t>(replicas)) ++out.short_of_replicas;
        if (chosen.empty()) out.standbys.erase(task);
    }
    return out;
}

std::set<kstreams::task_id> stateful_tasks(const app_context& ctx) {
    std::set<kstreams::task_id> out;
    for (std::size_t i = 0; i < ctx.groups->subtopologies.size(); ++i) {
        const auto& sub = ctx.groups->subtopologies[i];
        if (sub.global || i >= ctx.plan.task_count.size()) continue;
        const bool logged = std::any_of(sub.stores.begin(), sub.stores.end(), [&](std::size_t s) {
            return ctx.model->stores[s].builder->logging_enabled();
        });
        if (!logged) continue;
        for (std::int32_t p = 0; p < ctx.plan.task_count[i]; ++p) out.insert({sub.id, p});
    }
    return out;
}

std::vector<instance_tasks> instances_of(const app_context& ctx, const std::vector<hosted_partitions>& members) {
    std::map<std::string, instance_tasks> by_instance;
    for (const auto& m : members) {
        auto& i = by_instance[m.instance];
        i.instance = m.instance;
        if (i.server.empty()) i.server = m.server;
        for (const auto& tp : m.partitions) {
            auto it = ctx.plan.subtopology_of_topic.find(tp.topic);
            if (it == ctx.plan.subtopology_of_topic.end()) continue;
            i.active.insert({ctx.groups->subtopologies[it->second].id, tp.partition});
        }
    }
    std::vector<instance_tasks> out;
    for (auto& [name, i] : by_instance) out.push_back(std::move(i));
    return out;
}

standby_placement place_standbys(const app_context& ctx, const std::vector<hosted_partitions>& members) {
    return place_standbys(instances_of(ctx, members), stateful_tasks(ctx), ctx.config.num_standby_replicas);
}

std::set<topic_partition> input_partitions(const app_context& ctx, kstreams::task_id id) {
    std::set<topic_partition> out;
    for (const auto& [topic, index] : ctx.plan.subtopology_of_topic)
        if (ctx.groups->subtopologies[index].id == id.subtopology) out.insert({topic, id.partition});
    return out;
}

}  // namespace kstreams::detail
