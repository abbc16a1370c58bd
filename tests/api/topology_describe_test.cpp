// describe() must print byte for byte what Kafka Streams' TopologyDescription prints. Several
// expected strings are Kafka Streams' own (TopologyTest), rebuilt here with the Processor API
// under the same node and store names as the DSL generates there.
#include <doctest/doctest.h>

#include <algorithm>
#include <limits>

#include <kstreams/state/stores.hpp>
#include <kstreams/topology.hpp>

using namespace kstreams;

namespace {
using str = std::string;

struct pass : processor<str, str, str, str> {
    void process(const record<str, str>& r) override { context().forward(r); }
};
auto pass_supplier() {
    return [] { return std::make_unique<pass>(); };
}
auto store(const std::string& name) {
    return stores::key_value_store_builder<str, str>(stores::in_memory_key_value_store(name));
}

/// The stream-stream join of KStreamImpl, as the DSL lays it out.
topology join_topology(const std::string& this_store, const std::string& other_store, bool left) {
    const std::string other = left ? "KSTREAM-OUTEROTHER-0000000005" : "KSTREAM-JOINOTHER-0000000005";
    const std::string shared = left ? "KSTREAM-OUTERSHARED-0000000004-store" : "";
    topology t;
    t.add_source<str, str>("KSTREAM-SOURCE-0000000000", {"input-topic1"})
        .add_source<str, str>("KSTREAM-SOURCE-0000000001", {"input-topic2"})
        .add_processor("KSTREAM-WINDOWED-0000000002", pass_supplier(), {"KSTREAM-SOURCE-0000000000"})
        .add_processor("KSTREAM-WINDOWED-0000000003", pass_supplier(), {"KSTREAM-SOURCE-0000000001"})
        .add_processor("KSTREAM-JOINTHIS-0000000004", pass_supplier(), {"KSTREAM-WINDOWED-0000000002"})
        .add_processor(other, pass_supplier(), {"KSTREAM-WINDOWED-0000000003"})
        .add_processor("KSTREAM-MERGE-0000000006", pass_supplier(), {"KSTREAM-JOINTHIS-0000000004", other})
        .add_state_store(store(this_store), {"KSTREAM-WINDOWED-0000000002", other})
        .add_state_store(store(other_store), {"KSTREAM-WINDOWED-0000000003", "KSTREAM-JOINTHIS-0000000004"});
    if (left) t.add_state_store(store(shared), {"KSTREAM-JOINTHIS-0000000004", other});
    return t;
}
}  // namespace

TEST_CASE("describe: an empty topology prints only the header, with Kafka's trailing space") {
    CHECK(topology().describe().to_string() == "Topologies:\n ");
}

TEST_CASE("describe: a shared store joins two sources into one sub-topology (Kafka's stream-stream join)") {
    const auto d = join_topology("KSTREAM-JOINTHIS-0000000004-store", "KSTREAM-JOINOTHER-0000000005-store", false).describe();
    CHECK(d.to_string() ==
          "Topologies:\n"
          "   Sub-topology: 0\n"
          "    Source: KSTREAM-SOURCE-0000000000 (topics: [input-topic1])\n"
          "      --> KSTREAM-WINDOWED-0000000002\n"
          "    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic2])\n"
          "      --> KSTREAM-WINDOWED-0000000003\n"
          "    Processor: KSTREAM-WINDOWED-0000000002 (stores: [KSTREAM-JOINTHIS-0000000004-store])\n"
          "      --> KSTREAM-JOINTHIS-0000000004\n"
          "      <-- KSTREAM-SOURCE-0000000000\n"
          "    Processor: KSTREAM-WINDOWED-0000000003 (stores: [KSTREAM-JOINOTHER-0000000005-store])\n"
          "      --> KSTREAM-JOINOTHER-0000000005\n"
          "      <-- KSTREAM-SOURCE-0000000001\n"
          "    Processor: KSTREAM-JOINOTHER-0000000005 (stores: [KSTREAM-JOINTHIS-0000000004-store])\n"
          "      --> KSTREAM-MERGE-0000000006\n"
          "      <-- KSTREAM-WINDOWED-0000000003\n"
          "    Processor: KSTREAM-JOINTHIS-0000000004 (stores: [KSTREAM-JOINOTHER-0000000005-store])\n"
          "      --> KSTREAM-MERGE-0000000006\n"
          "      <-- KSTREAM-WINDOWED-0000000002\n"
          "    Processor: KSTREAM-MERGE-0000000006 (stores: [])\n"
          "      --> none\n"
          "      <-- KSTREAM-JOINTHIS-0000000004, KSTREAM-JOINOTHER-0000000005\n\n");
    REQUIRE(d.subtopologies.size() == 1);
    CHECK(d.subtopologies[0].nodes.front() == "KSTREAM-SOURCE-0000000000");
}

TEST_CASE("describe: store lists print in Java HashSet order (Kafka's left join)") {
    const auto d = join_topology("KSTREAM-JOINTHIS-0000000004-store", "KSTREAM-OUTEROTHER-0000000005-store", true).describe();
    CHECK(d.to_string() ==
          "Topologies:\n"
          "   Sub-topology: 0\n"
          "    Source: KSTREAM-SOURCE-0000000000 (topics: [input-topic1])\n"
          "      --> KSTREAM-WINDOWED-0000000002\n"
          "    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic2])\n"
          "      --> KSTREAM-WINDOWED-0000000003\n"
          "    Processor: KSTREAM-WINDOWED-0000000002 (stores: [KSTREAM-JOINTHIS-0000000004-store])\n"
          "      --> KSTREAM-JOINTHIS-0000000004\n"
          "      <-- KSTREAM-SOURCE-0000000000\n"
          "    Processor: KSTREAM-WINDOWED-0000000003 (stores: [KSTREAM-OUTEROTHER-0000000005-store])\n"
          "      --> KSTREAM-OUTEROTHER-0000000005\n"
          "      <-- KSTREAM-SOURCE-0000000001\n"
          "    Processor: KSTREAM-JOINTHIS-0000000004 (stores: [KSTREAM-OUTEROTHER-0000000005-store, "
          "KSTREAM-OUTERSHARED-0000000004-store])\n"
          "      --> KSTREAM-MERGE-0000000006\n"
          "      <-- KSTREAM-WINDOWED-0000000002\n"
          "    Processor: KSTREAM-OUTEROTHER-0000000005 (stores: [KSTREAM-JOINTHIS-0000000004-store, "
          "KSTREAM-OUTERSHARED-0000000004-store])\n"
          "      --> KSTREAM-MERGE-0000000006\n"
          "      <-- KSTREAM-WINDOWED-0000000003\n"
          "    Processor: KSTREAM-MERGE-0000000006 (stores: [])\n"
          "      --> none\n"
          "      <-- KSTREAM-JOINTHIS-0000000004, KSTREAM-OUTEROTHER-0000000005\n\n");
}

TEST_CASE("describe: two sub-topologies linked by a repartition topic (Kafka's table groupBy count)") {
    topology t;
    const std::string rep = "KTABLE-AGGREGATE-STATE-STORE-0000000004-repartition";
    t.add_source<str, str>("KSTREAM-SOURCE-0000000001", {"input-topic"})
        .add_processor("KTABLE-SOURCE-0000000002", pass_supplier(), {"KSTREAM-SOURCE-0000000001"})
        .add_state_store(store("input-topic-STATE-STORE-0000000000"), {"KTABLE-SOURCE-0000000002"})
        .add_processor("KTABLE-SELECT-0000000003", pass_supplier(), {"KTABLE-SOURCE-0000000002"})
        .add_sink<str, str>("KSTREAM-SINK-0000000005", rep, {"KTABLE-SELECT-0000000003"})
        .add_source<str, str>("KSTREAM-SOURCE-0000000006", {rep})
        .add_processor("KTABLE-AGGREGATE-0000000007", pass_supplier(), {"KSTREAM-SOURCE-0000000006"})
        .add_state_store(store("KTABLE-AGGREGATE-STATE-STORE-0000000004"), {"KTABLE-AGGREGATE-0000000007"});
    const auto d = t.describe();
    CHECK(d.to_string() ==
          "Topologies:\n"
          "   Sub-topology: 0\n"
          "    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic])\n"
          "      --> KTABLE-SOURCE-0000000002\n"
          "    Processor: KTABLE-SOURCE-0000000002 (stores: [input-topic-STATE-STORE-0000000000])\n"
          "      --> KTABLE-SELECT-0000000003\n"
          "      <-- KSTREAM-SOURCE-0000000001\n"
          "    Processor: KTABLE-SELECT-0000000003 (stores: [])\n"
          "      --> KSTREAM-SINK-0000000005\n"
          "      <-- KTABLE-SOURCE-0000000002\n"
          "    Sink: KSTREAM-SINK-0000000005 (topic: KTABLE-AGGREGATE-STATE-STORE-0000000004-repartition)\n"
          "      <-- KTABLE-SELECT-0000000003\n"
          "\n"
          "  Sub-topology: 1\n"
          "    Source: KSTREAM-SOURCE-0000000006 (topics: [KTABLE-AGGREGATE-STATE-STORE-0000000004-repartition])\n"
          "      --> KTABLE-AGGREGATE-0000000007\n"
          "    Processor: KTABLE-AGGREGATE-0000000007 (stores: [KTABLE-AGGREGATE-STATE-STORE-0000000004])\n"
          "      --> none\n"
          "      <-- KSTREAM-SOURCE-0000000006\n"
          "\n");
    REQUIRE(d.subtopologies.size() == 2);
    CHECK(d.subtopologies[1].id == 1);
    CHECK(d.subtopologies[1].nodes == std::vector<std::string>{"KSTREAM-SOURCE-0000000006", "KTABLE-AGGREGATE-0000000007"});
}

TEST_CASE("describe: branches list successors as Kafka's TreeSet holds them, nodes by final sub-tree size") {
    // Kafka connects nodes in HashMap order (z-big, src, a-small, z-child, out-sink here). When
    // z-big joins src's successors its sub-tree is still 1, so it sorts after a-small by name, even
    // though it ends up bigger and is listed before a-small among the nodes.
    topology t;
    t.add_source<str, str>("src", {"in"})
        .add_processor("z-big", pass_supplier(), {"src"})
        .add_processor("a-small", pass_supplier(), {"src"})
        .add_processor("z-child", pass_supplier(), {"z-big"})
        .add_sink<str, str>("out-sink", "out", {"z-child"});
    CHECK(t.describe().to_string() ==
          "Topologies:\n"
          "   Sub-topology: 0\n"
          "    Source: src (topics: [in])\n"
          "      --> a-small, z-big\n"
          "    Processor: z-big (stores: [])\n"
          "      --> z-child\n"
          "      <-- src\n"
          "    Processor: z-child (stores: [])\n"
          "      --> out-sink\n"
          "      <-- z-big\n"
          "    Processor: a-small (stores: [])\n"
          "      --> none\n"
          "      <-- src\n"
          "    Sink: out-sink (topic: out)\n"
          "      <-- z-child\n\n");
}

TEST_CASE("describe: a pattern source prints the bare expression; topic lists print as a HashSet") {
    topology t;
    t.add_source_pattern<str, str>("by-pattern", "topic-[0-9]+")
        .add_sink<str, str>("sink", "out", {"by-pattern"})
        .add_source<str, str>("many", {"orders", "payments", "clicks"})
        .add_sink<str, str>(
            "dynamic", [](const record<str, str>& r) { return r.key; }, {"many"});
    CHECK(t.describe().to_string() ==
          "Topologies:\n"
          "   Sub-topology: 0\n"
          "    Source: by-pattern (topics: topic-[0-9]+)\n"
          "      --> sink\n"
          "    Sink: sink (topic: out)\n"
          "      <-- by-pattern\n"
          "\n"
          "  Sub-topology: 1\n"
          "    Source: many (topics: [payments, clicks, orders])\n"
          "      --> dynamic\n"
          "    Sink: dynamic (extractor class: topic_name_extractor)\n"
          "      <-- many\n"
          "\n");
}

TEST_CASE("describe: sub-topologies are numbered in the order their first node was added") {
    // Kafka Streams >= 2.4 (KAFKA-9020): not by sorted source names.
    topology t;
    t.add_source<str, str>("z-source", {"b"})
        .add_source<str, str>("a-source", {"a"})
        .add_processor("a-proc", pass_supplier(), {"a-source"})
        .add_processor("z-proc", pass_supplier(), {"z-source"});
    const auto d = t.describe();
    REQUIRE(d.subtopologies.size() == 2);
    CHECK(d.subtopologies[0].nodes == std::vector<std::string>{"z-source", "z-proc"});
    CHECK(d.subtopologies[1].nodes == std::vector<std::string>{"a-source", "a-proc"});
    CHECK(d.to_string().find("   Sub-topology: 0\n    Source: z-source (topics: [b])\n") != std::string::npos);
}

TEST_CASE("describe: processors sharing a store with two stores list them in HashSet order") {
    topology t;
    t.add_source<str, str>("src", {"in"})
        .add_processor("p", pass_supplier(), {"src"})
        .add_state_store(store("store-b"), {"p"})
        .add_state_store(store("store-a"), {"p"});
    CHECK(t.describe().to_string().find("Processor: p (stores: [store-a, store-b])") != std::string::npos);
}

// The Java collection emulation describe() relies on (a private header of the library).
#include "lib/core/java_order.hpp"

TEST_CASE("java::string_hash is String.hashCode over UTF-16") {
    using kstreams::detail::java::string_hash;
    CHECK(string_hash("") == 0);
    CHECK(string_hash("ab") == 97 * 31 + 98);
    CHECK(string_hash("hello") == 99162322);
    CHECK(string_hash("\xC3\xA9") == 0xE9);                        // é is one UTF-16 unit
    CHECK(string_hash("\xF0\x9F\x98\x80") == 0xD83D * 31 + 0xDE00);  // U+1F600 is a surrogate pair
    CHECK(string_hash("polygenelubricants") == std::numeric_limits<std::int32_t>::min());  // overflow wraps
}

TEST_CASE("java::hash_set_order: bucket order, insertion order within a bucket, tables that grow") {
    using kstreams::detail::java::hash_set_order;
    // Single characters hash to themselves: buckets 'a'&15=1, 'b'=2, 'q'=1 (113&15), so q joins a.
    CHECK(hash_set_order({"b", "q", "a"}) == std::vector<std::string>{"q", "a", "b"});
    CHECK(hash_set_order({"b", "a", "q"}) == std::vector<std::string>{"a", "q", "b"});
    CHECK(hash_set_order({"a", "a", "b"}) == std::vector<std::string>{"a", "b"});
    // 13 entries grow the table to 32 buckets: 'a' (97&31=1) and 'q' (113&31=17) part ways.
    std::vector<std::string> many;
    for (char c = 'a'; c <= 'm'; ++c) many.emplace_back(1, c);
    many.emplace_back("q");
    const auto order = hash_set_order(many);
    CHECK(order.front() == "a");
    CHECK(std::find(order.begin(), order.end(), "q") > std::find(order.begin(), order.end(), "m"));
}

TEST_CASE("java::tree_set orders by the comparator of the moment, like a TreeSet whose keys changed") {
    std::vector<int> key{5, 3, 8, 1, 4};
    kstreams::detail::java::tree_set s([&](std::size_t a, std::size_t b) { return key[a] - key[b]; });
    for (std::size_t i = 0; i < key.size(); ++i) s.insert(i);
    CHECK(s.in_order() == std::vector<std::size_t>{3, 1, 4, 0, 2});
    key[3] = 100;  // a key changes after insertion: the tree keeps its place
    s.insert(3);   // and re-adding finds a different path, so it is not seen as present
    const auto order = s.in_order();
    CHECK(order.size() == 6);
    CHECK(order.front() == 3);
    CHECK(order.back() == 3);
}
