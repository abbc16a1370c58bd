// Standby placement (standby_placement.hpp): every instance works it out alike from the group's
// members, so it must depend on nothing but them; each standby on another instance than the
// task's active one, never two on one instance, balanced, fewer when instances run short.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "lib/runtime/host_directory.hpp"
#include "lib/runtime/standby_placement.hpp"

using namespace kstreams;
using namespace kstreams::detail;

namespace {

/// `n` tasks of sub-topology 0 spread round robin over `instances` as active tasks.
std::vector<instance_tasks> spread(int instances, int n, std::set<task_id>& stateful) {
    std::vector<instance_tasks> out(static_cast<std::size_t>(instances));
    for (int i = 0; i < instances; ++i) out[static_cast<std::size_t>(i)].instance = "p" + std::to_string(i);
    for (int t = 0; t < n; ++t) {
        out[static_cast<std::size_t>(t % instances)].active.insert({0, t});
        stateful.insert({0, t});
    }
    return out;
}

std::string active_of(const std::vector<instance_tasks>& instances, task_id t) {
    for (const auto& i : instances)
        if (i.active.count(t)) return i.instance;
    return {};
}

}  // namespace

TEST_CASE("standby placement: another instance than the active one, balanced, the same whatever the order") {
    std::set<task_id> stateful;
    auto instances = spread(3, 6, stateful);
    const auto placement = place_standbys(instances, stateful, 1);
    CHECK(placement.short_of_replicas == 0);
    REQUIRE(placement.standbys.size() == 6);
    std::map<std::string, int> load;
    for (const auto& [task, where] : placement.standbys) {
        REQUIRE(where.size() == 1);
        CHECK(where[0] != active_of(instances, task));
        ++load[where[0]];
    }
    CHECK(load == std::map<std::string, int>{{"p0", 2}, {"p1", 2}, {"p2", 2}});
    // Every instance gets the same answer, in whatever order it learnt the members.
    std::reverse(instances.begin(), instances.end());
    CHECK(place_standbys(instances, stateful, 1).standbys == placement.standbys);
    std::mt19937 rng(7);
    std::shuffle(instances.begin(), instances.end(), rng);
    CHECK(place_standbys(instances, stateful, 1).standbys == placement.standbys);
    CHECK(placement.standbys_of("p1").size() == 2);
}

TEST_CASE("standby placement: two replicas on three instances, never two on one; too few instances give fewer") {
    std::set<task_id> stateful;
    const auto instances = spread(3, 4, stateful);
    const auto two = place_standbys(instances, stateful, 2);
    CHECK(two.short_of_replicas == 0);
    for (const auto& [task, where] : two.standbys) {
        REQUIRE(where.size() == 2);
        CHECK(where[0] != where[1]);
        CHECK(std::count(where.begin(), where.end(), active_of(instances, task)) == 0);
    }
    // Three replicas need four instances: each task gets the two other instances.
    const auto three = place_standbys(instances, stateful, 3);
    CHECK(three.short_of_replicas == 4);
    for (const auto& [task, where] : three.standbys) CHECK(where.size() == 2);
    // One instance: no standby at all.
    std::set<task_id> one_stateful;
    const auto alone = place_standbys(spread(1, 3, one_stateful), one_stateful, 1);
    CHECK(alone.standbys.empty());
    CHECK(alone.short_of_replicas == 3);
    // Zero replicas, or a task with no active instance (the group rebalancing): none.
    CHECK(place_standbys(instances, stateful, 0).standbys.empty());
    stateful.insert({1, 0});
    const auto rebalancing = place_standbys(instances, stateful, 1);
    CHECK(rebalancing.standbys.count({1, 0}) == 0);
    CHECK(rebalancing.unassigned == std::set<task_id>{{1, 0}});
}

TEST_CASE("standby placement: the instance travels in the consumer's client.id") {
    const std::string pid = "0f8fad5b-d9cb-469f-a165-70867728950e";
    const std::string id = host_directory::consumer_client_id("app-StreamThread-2", "host:1234", pid);
    CHECK(id == "app-StreamThread-2-consumer-" + pid + "@host:1234");
    CHECK(host_directory::instance_of(id) == pid);
    CHECK(host_directory::server_of(id) == "host:1234");
    CHECK(host_directory::instance_of(host_directory::consumer_client_id("app-StreamThread-1", "", pid)) == pid);
    // Without a process id: the endpoint, else the member alone.
    CHECK(host_directory::instance_of("app-StreamThread-1-consumer@h:1") == "h:1");
    CHECK(host_directory::instance_of("app-StreamThread-1-consumer") == "app-StreamThread-1-consumer");
}
