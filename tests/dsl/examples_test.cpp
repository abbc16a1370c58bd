// The README's two pipelines, each a few chained calls: word count, and clicks counted by region
// after re-keying each click by its user's region.
#include <doctest/doctest.h>

#include <map>
#include <sstream>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;

namespace {
std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}
}  // namespace

TEST_CASE("word count") {
    streams_builder builder;
    builder.stream<std::string, std::string>("text-lines")
        .flat_map_values(words)
        .group_by([](const std::string&, const std::string& word) { return word; })
        .count(materialized<>::as("word-counts"))
        .to_stream()
        .to("word-counts-out");

    const topology t = builder.build();
    test::topology_test_driver driver(t);
    auto lines = driver.create_input_topic<std::string, std::string>("text-lines");
    auto counts = driver.create_output_topic<std::string, std::int64_t>("word-counts-out");
    lines.pipe_value("all streams lead to kafka", 1);
    lines.pipe_value("hello kafka streams", 2);
    lines.pipe_value("join kafka summit", 3);
    CHECK(counts.read_key_values_to_map() == std::map<std::string, std::int64_t>{{"all", 1}, {"streams", 2}, {"lead", 1},
                                                                                {"to", 1}, {"kafka", 3}, {"hello", 1},
                                                                                {"join", 1}, {"summit", 1}});
    CHECK(t.describe().subtopologies.size() == 2);
}

TEST_CASE("clicks counted by region after re-keying by region") {
    // A click: key = user, value = "<region> <page>".
    streams_builder builder;
    builder.stream<std::string, std::string>("clicks")
        .select_key([](const std::string&, const std::string& click) { return click.substr(0, click.find(' ')); })
        .group_by_key()
        .count(materialized<>::as("clicks-per-region"))
        .to_stream()
        .to("clicks-per-region");

    const topology t = builder.build();
    test::topology_test_driver driver(t);
    auto clicks = driver.create_input_topic<std::string, std::string>("clicks");
    auto out = driver.create_output_topic<std::string, std::int64_t>("clicks-per-region");
    clicks.pipe_input("alice", "europe /home", 1);
    clicks.pipe_input("bob", "asia /cart", 2);
    clicks.pipe_input("alice", "europe /cart", 3);
    CHECK(out.read_key_values_to_list() ==
          std::vector<key_value<std::string, std::int64_t>>{{"europe", 1}, {"asia", 1}, {"europe", 2}});
    // Re-keying put a repartition topic between the two halves.
    CHECK(t.model().repartition_topics.at(0).name == "clicks-per-region-repartition");
    CHECK(driver.get_key_value_store<std::string, value_and_timestamp<std::int64_t>>("clicks-per-region").get("europe")->value == 2);
}
