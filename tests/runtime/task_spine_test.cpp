// The per-record spine of a stream task as a runner drives it: what a record pays at its source is
// resolved once per source (its timestamp extractor, record-e2e-latency, the DEBUG counter) and
// must stay each source's own when records of several sources alternate; and a sink records its
// record-e2e-latency itself, once per record it processed (Kafka records it after a terminal
// node's process(), whatever partitions the partitioner chose, none included).
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <kstreams/topology.hpp>

#include "lib/core/topology_groups.hpp"
#include "lib/runtime/stream_task.hpp"

using namespace kstreams;
using str = std::string;

namespace {

struct recording_collector final : detail::record_collector {
    std::vector<str> sent;  ///< "topic/partition key=value"
    void send(std::string_view topic, std::optional<std::int32_t> partition, std::optional<std::string_view> key,
              std::optional<std::string_view> value, std::int64_t, const headers&, std::string_view) override {
        sent.push_back(str(topic) + "/" + (partition ? std::to_string(*partition) : str("-")) + " " +
                       str(key.value_or("null")) + "=" + str(value.value_or("null")));
    }
    std::int32_t partition_count(std::string_view) override { return 3; }
};

/// One task (0_0) of the topology (one sub-topology), fed records as a runner feeds them.
struct task_fixture {
    topology topo;
    detail::topology_groups groups;
    kstreams::metrics metrics;
    recording_collector collector;
    detail::task_environment env;
    std::unique_ptr<detail::stream_task> task;

    explicit task_fixture(topology t, bool node_metrics = false)
        : topo(std::move(t)), groups(detail::group_topology(topo.model())) {
        env.application_id = "app";
        env.wall_clock = [] { return std::int64_t{100}; };
        env.collector = &collector;
        env.metrics = &metrics;
        env.node_metrics = node_metrics;
        task = std::make_unique<detail::stream_task>(topo.model(), groups, groups.subtopologies.front(), task_id{0, 0}, env);
        task->init();
    }
    /// Returns the timestamp the source's extractor gave the record.
    std::int64_t pipe(const str& key, const str& value, std::int64_t ts, std::int64_t offset, const str& topic = "in") {
        detail::source_node* source = task->source_for(topic);
        REQUIRE(source);
        detail::raw_record raw;
        raw.topic = topic;
        raw.offset = offset;
        raw.timestamp = ts;
        raw.key = key;
        raw.value = value;
        const std::int64_t extracted = task->extract_timestamp(*source, raw, -1);
        task->process(*source, raw, extracted, 100);
        return extracted;
    }
    std::uint64_t counter(const str& name) const { return metrics.value(name); }
};

}  // namespace

TEST_CASE("records of two sources alternating each pay at their own source: extractor, e2e latency, DEBUG counter") {
    for (const bool node_metrics : {false, true}) {
        CAPTURE(node_metrics);
        topology t;
        // "in" stamps every record 7; "other" keeps the record's own timestamp.
        t.add_source<str, str>("src-in", {"in"}, serde<str>{}, serde<str>{},
                               source_options{[](const detail::raw_record&, std::int64_t) { return std::int64_t{7}; }});
        t.add_source<str, str>("src-other", {"other"});
        t.add_sink<str, str>("sink", "out", {"src-in", "src-other"});
        task_fixture f(std::move(t), node_metrics);
        CHECK(f.pipe("a", "1", 50, 0, "in") == 7);
        CHECK(f.pipe("b", "2", 60, 0, "other") == 60);
        CHECK(f.pipe("c", "3", 70, 1, "other") == 70);
        CHECK(f.pipe("d", "4", 80, 1, "in") == 7);
        CHECK(f.pipe("e", "5", 90, 2, "in") == 7);
        CHECK(f.counter("e2e-latency.src-in.count") == 3);
        CHECK(f.counter("e2e-latency.src-in.sum") == 3 * (100 - 7));
        CHECK(f.counter("e2e-latency.src-other.count") == 2);
        CHECK(f.counter("e2e-latency.src-other.sum") == (100 - 60) + (100 - 70));
        CHECK(f.counter("node-process-total.src-in") == (node_metrics ? 3 : 0));
        CHECK(f.counter("node-process-total.src-other") == (node_metrics ? 2 : 0));
        CHECK(f.counter("e2e-latency.sink.count") == 5);
        CHECK(f.collector.sent.size() == 5);
        // The position (IQv2) is each partition's last offset processed.
        const auto position = f.task->position();
        CHECK(position.at("in").at(0) == 2);
        CHECK(position.at("other").at(0) == 1);
    }
}

TEST_CASE("a sink records its e2e latency once per record, whatever partitions the partitioner chose") {
    const std::vector<std::pair<str, std::optional<std::set<std::int32_t>>>> cases{
        {"default", std::nullopt}, {"two partitions", std::set<std::int32_t>{0, 2}}, {"none", std::set<std::int32_t>{}}};
    for (const auto& [what, choice] : cases) {
        CAPTURE(what);
        topology t;
        t.add_source<str, str>("src", {"in"});
        t.add_sink<str, str>("sink", "out", {"src"}, serde<str>{}, serde<str>{},
                             stream_partitioner<str, str>([choice](std::string_view, const str&, const str&, std::int32_t) {
                                 return choice;
                             }));
        task_fixture f(std::move(t));
        f.pipe("k", "v", 40, 0);
        f.pipe("j", "w", 70, 1);
        const std::size_t copies = choice ? choice->size() : 1;
        CHECK(f.collector.sent.size() == 2 * copies);
        CHECK(f.counter("e2e-latency.sink.count") == 2);
        CHECK(f.counter("e2e-latency.sink.sum") == (100 - 40) + (100 - 70));
        CHECK(f.counter("e2e-latency.src.count") == 2);
    }
}
