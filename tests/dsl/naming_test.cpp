// Names and shape of lowered topologies: generated names as Kafka Streams allocates them (one
// index per DSL call, stores and repartitions included), user-given names, and where repartition
// topics appear, where they do not, and when they are shared.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <vector>

#include <kstreams/dsl.hpp>

using namespace kstreams;
using names_t = std::set<std::string>;

namespace {
std::vector<names_t> shape(const topology& t) {
    std::vector<names_t> out;
    for (const auto& s : t.describe().subtopologies) out.emplace_back(s.nodes.begin(), s.nodes.end());
    return out;
}
std::vector<std::string> repartition_topics(const topology& t) {
    std::vector<std::string> out;
    for (const auto& r : t.model().repartition_topics) out.push_back(r.name);
    return out;
}
std::vector<std::string> store_names(const topology& t) {
    std::vector<std::string> out;
    for (const auto& s : t.model().stores) out.push_back(s.builder->name());
    return out;
}
std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}
}  // namespace

TEST_CASE("word count: generated names and the split at the repartition topic, as Kafka Streams") {
    streams_builder b;
    b.stream<std::string, std::string>("text")
        .flat_map_values(words)
        .group_by([](const std::string&, const std::string& w) { return w; })
        .count()
        .to_stream()
        .to("counts");
    const topology t = b.build();
    CHECK(shape(t) == std::vector<names_t>{
                          {"KSTREAM-SOURCE-0000000000", "KSTREAM-FLATMAPVALUES-0000000001", "KSTREAM-KEY-SELECT-0000000002",
                           "KSTREAM-FILTER-0000000006", "KSTREAM-SINK-0000000005"},
                          {"KSTREAM-SOURCE-0000000007", "KSTREAM-AGGREGATE-0000000004", "KTABLE-TOSTREAM-0000000008",
                           "KSTREAM-SINK-0000000009"}});
    CHECK(repartition_topics(t) == std::vector<std::string>{"KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"});
    CHECK(store_names(t) == std::vector<std::string>{"KSTREAM-AGGREGATE-STATE-STORE-0000000003"});
}

TEST_CASE("a named store names the repartition topic and its nodes") {
    streams_builder b;
    b.stream<std::string, std::string>("text")
        .group_by([](const std::string&, const std::string& w) { return w; })
        .count(materialized<>::as("counts-store"))
        .to_stream()
        .to("counts");
    const topology t = b.build();
    CHECK(shape(t) == std::vector<names_t>{
                          {"KSTREAM-SOURCE-0000000000", "KSTREAM-KEY-SELECT-0000000001", "counts-store-repartition-filter",
                           "counts-store-repartition-sink"},
                          {"counts-store-repartition-source", "KSTREAM-AGGREGATE-0000000002", "KTABLE-TOSTREAM-0000000006",
                           "KSTREAM-SINK-0000000007"}});
    CHECK(repartition_topics(t) == std::vector<std::string>{"counts-store-repartition"});
}

TEST_CASE("grouped and named operators take the user's names") {
    streams_builder b;
    b.stream<std::string, std::string>("clicks", consumed<>{}.with_name("clicks-in"))
        .filter([](const std::string&) { return true; }, named::as("keep"))
        .group_by([](const std::string& v) { return v; }, grouped<>::as("by-region"))
        .count(named::as("count-clicks"), materialized<>::as("click-counts"))
        .to_stream(named::as("changes"))
        .to("out", produced<>{}.with_name("write"));
    const topology t = b.build();
    CHECK(shape(t) == std::vector<names_t>{{"clicks-in", "keep", "by-region", "by-region-repartition-filter", "by-region-repartition-sink"},
                                           {"by-region-repartition-source", "count-clicks", "changes", "write"}});
    CHECK(repartition_topics(t) == std::vector<std::string>{"by-region-repartition"});
    CHECK(store_names(t) == std::vector<std::string>{"click-counts"});
}

TEST_CASE("key-preserving operations never repartition; a key change before a grouping does, after the last key-preserving op") {
    SUBCASE("map_values, filter, peek, flat_map_values then group_by_key: one sub-topology") {
        streams_builder b;
        b.stream<std::string, std::string>("in")
            .map_values([](const std::string& v) { return v; })
            .filter([](const std::string&) { return true; })
            .peek([](const std::string&) {})
            .flat_map_values([](const std::string& v) { return std::vector<std::string>{v}; })
            .group_by_key()
            .count();
        const topology t = b.build();
        CHECK(t.describe().subtopologies.size() == 1);
        CHECK(repartition_topics(t).empty());
    }
    SUBCASE("select_key then filter then group_by_key: the repartition comes after the filter") {
        streams_builder b;
        b.stream<std::string, std::string>("in")
            .select_key([](const std::string&, const std::string& v) { return v; })
            .filter([](const std::string&) { return true; })
            .group_by_key()
            .count();
        const topology t = b.build();
        CHECK(shape(t) == std::vector<names_t>{{"KSTREAM-SOURCE-0000000000", "KSTREAM-KEY-SELECT-0000000001", "KSTREAM-FILTER-0000000002",
                                                "KSTREAM-FILTER-0000000006", "KSTREAM-SINK-0000000005"},
                                               {"KSTREAM-SOURCE-0000000007", "KSTREAM-AGGREGATE-0000000004"}});
    }
    SUBCASE("map, flat_map and process change the key") {
        for (int which = 0; which < 3; ++which) {
            streams_builder b;
            auto s = b.stream<std::string, std::string>("in");
            kstream<std::string, std::string> k = s;
            if (which == 0) k = s.map([](const std::string& key, const std::string& v) { return std::pair{key, v}; });
            if (which == 1)
                k = s.flat_map([](const std::string& key, const std::string& v) { return std::vector{std::pair{key, v}}; });
            if (which == 2) {
                struct same : processor<std::string, std::string, std::string, std::string> {
                    void process(const record<std::string, std::string>& r) override { context().forward(r); }
                };
                k = s.process([] { return std::make_unique<same>(); });
            }
            k.group_by_key().count();
            CHECK(repartition_topics(b.build()).size() == 1);
        }
    }
    SUBCASE("after repartition() a grouping needs no other topic") {
        streams_builder b;
        b.stream<std::string, std::string>("in")
            .select_key([](const std::string& v) { return v; })
            .repartition(repartitioned<>::as("rekeyed").with_number_of_partitions(4))
            .group_by_key()
            .count();
        const topology t = b.build();
        REQUIRE(t.model().repartition_topics.size() == 1);
        CHECK(t.model().repartition_topics[0].name == "rekeyed-repartition");
        CHECK(t.model().repartition_topics[0].partitions == 4);
        CHECK(t.describe().subtopologies.size() == 2);
    }
}

TEST_CASE("aggregations of unnamed groupings of one re-keyed stream each write their own repartition topic") {
    streams_builder b;
    auto rekeyed = b.stream<std::string, std::string>("in").select_key([](const std::string& v) { return v; });
    auto grouped_stream = rekeyed.group_by_key();
    grouped_stream.count();
    grouped_stream.reduce([](const std::string& a, const std::string& v) { return a + v; });
    rekeyed.group_by_key().aggregate([] { return std::string(); },
                                     [](const std::string&, const std::string& v, const std::string& a) { return a + v; });
    const topology t = b.build();
    // As Kafka Streams (tests/conformance clicks_by_region): only a named grouping shares its topic.
    CHECK(repartition_topics(t) == std::vector<std::string>{"KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition",
                                                            "KSTREAM-REDUCE-STATE-STORE-0000000007-repartition",
                                                            "KSTREAM-AGGREGATE-STATE-STORE-0000000012-repartition"});
    const auto subs = shape(t);
    REQUIRE(subs.size() == 4);
    CHECK(subs[1] == names_t{"KSTREAM-SOURCE-0000000006", "KSTREAM-AGGREGATE-0000000003"});
    CHECK(subs[2] == names_t{"KSTREAM-SOURCE-0000000011", "KSTREAM-REDUCE-0000000008"});
    CHECK(subs[3] == names_t{"KSTREAM-SOURCE-0000000016", "KSTREAM-AGGREGATE-0000000013"});
}

TEST_CASE("table sources, table group_by and table aggregations are named as Kafka Streams names them") {
    streams_builder b;
    b.table<std::string, std::string>("users")
        .group_by([](const std::string& user, const std::string& region) { return std::pair{region, user}; })
        .count()
        .to_stream()
        .to("users-per-region");
    const topology t = b.build();
    CHECK(shape(t) == std::vector<names_t>{{"KSTREAM-SOURCE-0000000001", "KTABLE-SOURCE-0000000002", "KTABLE-SELECT-0000000003",
                                            "KSTREAM-SINK-0000000005"},
                                           {"KSTREAM-SOURCE-0000000006", "KTABLE-AGGREGATE-0000000007", "KTABLE-TOSTREAM-0000000008",
                                            "KSTREAM-SINK-0000000009"}});
    CHECK(repartition_topics(t) == std::vector<std::string>{"KTABLE-AGGREGATE-STATE-STORE-0000000004-repartition"});
    // The grouping needs old values, so the source table is materialized.
    CHECK(store_names(t) == std::vector<std::string>{"users-STATE-STORE-0000000000", "KTABLE-AGGREGATE-STATE-STORE-0000000004"});
}

TEST_CASE("an unmaterialized table source keeps no store; a named one does") {
    streams_builder b;
    b.table<std::string, std::string>("a").filter([](const std::string&) { return true; }).to_stream().to("out");
    b.table<std::string, std::string>("b", materialized<>::as("b-store")).to_stream().to("out2");
    const topology t = b.build();
    CHECK(store_names(t) == std::vector<std::string>{"b-store"});
}

TEST_CASE("split names branches after the splitter (each branch burns an index); merge, print, to_table and process take their prefixes") {
    streams_builder b;
    auto s = b.stream<std::string, std::string>("in");
    auto branches = s.split()
                        .branch([](const std::string& v) { return v == "a"; })
                        .branch([](const std::string& v) { return v == "b"; }, branched::as("-bee"))
                        .default_branch();
    CHECK(branches.size() == 3);
    CHECK(branches.contains("KSTREAM-BRANCH-00000000011"));
    CHECK(branches.contains("KSTREAM-BRANCH-0000000001-bee"));
    CHECK(branches.contains("KSTREAM-BRANCH-00000000010"));
    auto named_split = s.split(named::as("s-")).branch([](const std::string&) { return true; }, branched::as("all")).no_default_branch();
    CHECK(named_split.contains("s-all"));
    branches.at("KSTREAM-BRANCH-00000000011").merge(branches.at("KSTREAM-BRANCH-00000000010")).print();
    s.to_table();
    const topology t = b.build();
    names_t all;
    for (const auto& sub : shape(t)) all.insert(sub.begin(), sub.end());
    // Each branch and the named split use up an index too (as in Kafka Streams): 2-4 the branches,
    // 5 the named split, 6 its branch.
    CHECK(all.contains("KSTREAM-MERGE-0000000007"));
    CHECK(all.contains("KSTREAM-PRINTER-0000000008"));
    CHECK(all.contains("KSTREAM-TOTABLE-0000000009"));
}

TEST_CASE("building twice gives the same topology; a wiring mistake throws topology_error at build()") {
    streams_builder b;
    b.stream<std::string, std::string>("in").to("out");
    CHECK(shape(b.build()) == shape(b.build()));

    streams_builder bad;
    bad.stream<std::string, std::string>("in").filter([](const std::string&) { return true; }, named::as("dup")).to("out", produced<>{}.with_name("dup"));
    CHECK_THROWS_AS(bad.build(), topology_error);

    streams_builder stream_and_table;
    stream_and_table.stream<std::string, std::string>("in").to("out");
    stream_and_table.table<std::string, std::string>("in").to_stream().to("out2");
    CHECK_THROWS_WITH_AS(stream_and_table.build(), doctest::Contains("Topic in has already been registered"), topology_error);
}

TEST_CASE("streams of the same topics are one source, as Kafka Streams merges duplicate source nodes") {
    using str = std::string;
    streams_builder b;
    b.stream<str, str>("in").to("out");
    b.stream<str, str>({"t1", "t2"}).to("out-t");
    b.stream<str, str>("in", consumed<>{}.with_name("second")).map_values([](const str& v) { return v + "!"; }).to("out2");
    b.stream<str, str>({"t2", "t1"}).to("out-t2");
    b.stream_pattern<str, str>("p-.*").to("out-p");
    b.stream_pattern<str, str>("p-.*").to("out-p2");
    const topology t = b.build();
    const auto sub = shape(t);
    REQUIRE(sub.size() == 3);
    // The second source of a topic (or pattern) is gone; its name's index stays used up.
    CHECK(sub[0] == names_t{"KSTREAM-SOURCE-0000000000", "KSTREAM-SINK-0000000001", "KSTREAM-MAPVALUES-0000000005",
                            "KSTREAM-SINK-0000000006"});
    CHECK(sub[1] == names_t{"KSTREAM-SOURCE-0000000002", "KSTREAM-SINK-0000000003", "KSTREAM-SINK-0000000008"});
    CHECK(sub[2] == names_t{"KSTREAM-SOURCE-0000000009", "KSTREAM-SINK-0000000010", "KSTREAM-SINK-0000000012"});

    auto build_error = [](auto add_second) {
        streams_builder bb;
        bb.stream<str, str>({"a", "b"}, consumed<>{}.with_offset_reset_policy(offset_reset::earliest)).to("out");
        add_second(bb);
        try {
            bb.build();
        } catch (const topology_error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(build_error([](streams_builder& bb) { bb.stream<str, str>("a").to("o"); })
              .find("overlapping but not equal input topics") != std::string::npos);
    CHECK(build_error([](streams_builder& bb) { bb.stream<str, str>({"a", "b"}).to("o"); })
              .find("different offset reset policies") != std::string::npos);
    CHECK(build_error([](streams_builder& bb) {
              bb.stream<str, std::int64_t>({"b", "a"}, consumed<>{}.with_offset_reset_policy(offset_reset::earliest)).to("o");
          }).find("with other key or value types") != std::string::npos);
}
