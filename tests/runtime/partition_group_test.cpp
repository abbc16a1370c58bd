// The partition group's order with recovery by recomputation: the records a task processed before
// the commit it resumed from (below each queue's replay_until) come first, by timestamp among
// them, then the usual order by head timestamp; a task with nothing to replay never looks past the
// lowest head.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>

#include "lib/core/topology_groups.hpp"
#include "lib/runtime/partition_group.hpp"
#include "lib/runtime/stream_task.hpp"

using namespace kstreams;
using str = std::string;
using detail::topic_partition;

namespace {

/// Records are pushed by the test; nothing is fetched or committed.
struct pushing_consumer final : detail::consumer_port {
    std::vector<std::int64_t> committed(const std::vector<topic_partition>& parts) override {
        return std::vector<std::int64_t>(parts.size(), no_offset);
    }
    void assign(const std::vector<topic_partition>&, const std::vector<std::int64_t>&) override {}
    void unassign() override {}
    void seek(const topic_partition&, std::int64_t) override {}
    void pause(const topic_partition&) override {}
    void resume(const topic_partition&) override {}
    std::size_t fetch(const topic_partition&, std::size_t, std::vector<detail::fetched_record>&) override { return 0; }
    void release(const detail::fetched_record&) noexcept override {}
    const headers* headers_of(const detail::fetched_record&, headers& scratch) override { return &scratch; }
    std::optional<std::int64_t> lag(const topic_partition&, std::int64_t) override { return 0; }
    commit_result commit(std::span<const detail::partition_offset>) override { return commit_result::ok; }
};

/// A task reading topics a and b (one partition each) and the group of its two queues.
struct two_partitions {
    topology topo;
    detail::topology_groups groups;
    kstreams::metrics metrics;
    detail::task_environment env;
    pushing_consumer consumer;
    std::unique_ptr<detail::stream_task> task;
    detail::partition_group group;
    detail::partition_queue* a = nullptr;
    detail::partition_queue* b = nullptr;

    two_partitions() : topo(make_topology()), groups(detail::group_topology(topo.model())) {
        env.application_id = "app";
        env.wall_clock = [] { return std::int64_t{0}; };
        env.metrics = &metrics;
        task = std::make_unique<detail::stream_task>(topo.model(), groups, groups.subtopologies.front(), task_id{0, 0}, env);
        task->init();
        a = &group.add({"a", 0}, task->source_for("a"), consumer);
        b = &group.add({"b", 0}, task->source_for("b"), consumer);
    }
    static topology make_topology() {
        streams_builder sb;
        sb.stream<str, str>("a").merge(sb.stream<str, str>("b")).foreach([](const str&, const str&) {});
        return sb.build();
    }
    /// Records (offset, timestamp) into `q`.
    void push(detail::partition_queue& q, const std::vector<std::pair<std::int64_t, std::int64_t>>& records) {
        for (const auto& [offset, ts] : records) {
            detail::fetched_record r;
            r.key = std::string_view("k");
            r.value = std::string_view("v");
            r.offset = offset;
            r.timestamp = ts;
            q.push(r);
        }
        group.pushed(q, *task);
    }
    /// The order the group gives every buffered record in: "topic@offset".
    std::vector<str> drain() {
        std::vector<str> order;
        std::optional<std::int64_t> idle;
        while (detail::partition_queue* q = group.next(0, -1, {}, idle)) {
            const detail::fetched_record r = group.take(*q, *task);
            order.push_back(q->topic() + "@" + std::to_string(r.offset));
        }
        return order;
    }
};

}  // namespace

TEST_CASE("partition group: replayed records come first, by timestamp among them, then the order by timestamp") {
    two_partitions g;
    // a's offsets 10-11 and b's 20-22 were processed before the commit resumed from.
    g.group.replay_until(*g.a, 12);
    g.group.replay_until(*g.b, 23);
    CHECK(g.group.replaying());
    g.push(*g.a, {{10, 50}, {11, 60}, {12, 1}, {13, 70}});
    g.push(*g.b, {{20, 55}, {21, 40}, {22, 65}, {23, 2}, {24, 45}});
    CHECK(g.drain() == std::vector<str>{"a@10", "b@20", "b@21", "a@11", "b@22",  // replayed, by head timestamp
                                        "a@12", "b@23", "b@24", "a@13"});         // then by head timestamp
    CHECK_FALSE(g.group.replaying());
}

TEST_CASE("partition group: a queue's replay ends once it is past it, also when the rest of its records arrive later") {
    two_partitions g;
    g.group.replay_until(*g.a, 2);
    g.push(*g.a, {{0, 30}});
    g.push(*g.b, {{0, 10}});
    CHECK(g.drain() == std::vector<str>{"a@0", "b@0"});
    CHECK(g.group.replaying());  // a@1 was processed before the commit too: it still comes first
    g.push(*g.b, {{1, 5}});
    g.push(*g.a, {{1, 40}, {2, 1}});
    CHECK(g.drain() == std::vector<str>{"a@1", "a@2", "b@1"});
    CHECK_FALSE(g.group.replaying());
}

TEST_CASE("partition group: a task with nothing to replay takes the lowest head and never counts a replay") {
    two_partitions g;
    g.group.replay_until(*g.a, -1);  // a commit without held records
    CHECK_FALSE(g.group.replaying());
    g.push(*g.a, {{0, 30}, {1, 10}});
    g.push(*g.b, {{0, 20}});
    CHECK(g.drain() == std::vector<str>{"b@0", "a@0", "a@1"});
    CHECK_FALSE(g.group.replaying());
}
