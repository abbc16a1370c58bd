// The per-record spine of a stream task as a runner drives it: which runs of stateless operators
// it fuses into one node (lib/runtime/fused_run.hpp), and that per-node metrics (DEBUG) still count
// every operator of a run; what a record pays at its source is resolved once per source (its
// timestamp extractor, record-e2e-latency, the DEBUG counter) and stays each source's own when
// records of several sources alternate; and a sink records its record-e2e-latency itself, once
// per record it processed (Kafka records it after a terminal node's process(), whatever
// partitions the partitioner chose, none included).
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/topology.hpp>

#include "lib/core/topology_groups.hpp"
#include "lib/runtime/fused_run.hpp"
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

/// source -> map_values -> filter -> { peek (terminal), map_values -> map_values -> to("out") }
topology forked_chain() {
    streams_builder b;
    auto mid = b.stream<str, str>("in")
                   .map_values([](const str& v) { return v + "1"; })
                   .filter([](const str&, const str& v) { return v != "drop1"; });
    mid.peek([](const str&, const str&) {});
    mid.map_values([](const str& v) { return v + "2"; }).map_values([](const str& v) { return v + "3"; }).to("out");
    return b.build();
}

std::vector<std::vector<str>> run_names(const topology& t) {
    const detail::topology_groups groups = detail::group_topology(t.model());
    std::vector<std::unique_ptr<detail::node>> instances(t.model().nodes.size());
    auto instance = [&](std::size_t idx) -> const detail::node& {
        if (!instances[idx]) instances[idx] = t.model().nodes[idx].make();
        return *instances[idx];
    };
    std::vector<std::vector<str>> out;
    for (const auto& run : detail::fusable_runs(t.model(), groups, groups.subtopologies.front(), instance)) {
        out.emplace_back();
        for (std::size_t idx : run) out.back().push_back(t.model().nodes[idx].name);
    }
    return out;
}

}  // namespace

TEST_CASE("the runs fused are the chains of stateless operators, each the only child of the one before") {
    CHECK(run_names(forked_chain()) ==
          std::vector<std::vector<str>>{{"KSTREAM-MAPVALUES-0000000001", "KSTREAM-FILTER-0000000002"},
                                        {"KSTREAM-MAPVALUES-0000000004", "KSTREAM-MAPVALUES-0000000005"}});
    // A merge has two parents: the operators after it form a run of their own.
    streams_builder b;
    auto a = b.stream<str, str>("in").map_values([](const str& v) { return v; });
    auto c = b.stream<str, str>("other").filter([](const str&, const str&) { return true; });
    a.merge(c).peek([](const str&, const str&) {}).map_values([](const str& v) { return v; }).to("out");
    CHECK(run_names(b.build()) ==
          std::vector<std::vector<str>>{{"KSTREAM-PEEK-0000000005", "KSTREAM-MAPVALUES-0000000006"}});
}

TEST_CASE("a task runs fused runs record for record as the operators alone, and DEBUG still counts each operator") {
    for (const bool node_metrics : {false, true}) {
        CAPTURE(node_metrics);
        task_fixture f(forked_chain(), node_metrics);
        f.pipe("k", "a", 10, 0);
        f.pipe("k", "drop", 11, 1);
        f.pipe("j", "b", 12, 2);
        CHECK(f.collector.sent == std::vector<str>{"out/- k=a123", "out/- j=b123"});
        const std::uint64_t mv1 = f.counter("node-process-total.KSTREAM-MAPVALUES-0000000001");
        const std::uint64_t filter = f.counter("node-process-total.KSTREAM-FILTER-0000000002");
        const std::uint64_t mv4 = f.counter("node-process-total.KSTREAM-MAPVALUES-0000000004");
        const std::uint64_t mv5 = f.counter("node-process-total.KSTREAM-MAPVALUES-0000000005");
        const std::uint64_t sink = f.counter("node-process-total.KSTREAM-SINK-0000000006");
        if (node_metrics) {
            CHECK(mv1 == 3);
            CHECK(filter == 3);
            CHECK(mv4 == 2);
            CHECK(mv5 == 2);
            CHECK(sink == 2);
        } else {
            CHECK(mv1 + filter + mv4 + mv5 + sink == 0);
        }
        // The terminal peek's e2e latency (INFO) is recorded once per record it was given.
        CHECK(f.counter("e2e-latency.KSTREAM-PEEK-0000000003.count") == 2);
    }
}

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
