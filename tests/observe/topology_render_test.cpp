// The topology drawn as Graphviz DOT and Mermaid, and the DOT rendered by Graphviz's dot.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <kstreams/dsl.hpp>
#include <kstreams/topology_render.hpp>

#include "tests/observe/observe_support.hpp"
#include "tests/support/word_count_topology.hpp"

using namespace kstreams;

namespace {

topology word_count_dsl() {
    streams_builder builder;
    builder.stream<std::string, std::string>("text-lines")
        .flat_map_values([](const std::string& line) {
            std::vector<std::string> words;
            std::istringstream in(line);
            for (std::string w; in >> w;) words.push_back(w);
            return words;
        })
        .group_by([](const std::string&, const std::string& word) { return word; })
        .count()
        .to_stream()
        .to("word-counts");
    return builder.build();
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("DOT of a source, a processor with a logged store and a sink") {
    const topology t = test::word_count_topology("in", "out");
    CHECK(to_dot(t, {"app", {}}) ==
          R"(digraph topology {
  rankdir=TB;
  node [fontname="Helvetica", fontsize=10];
  edge [fontname="Helvetica", fontsize=9];
  subgraph cluster_0 {
    label="Sub-topology 0";
    style=rounded;
    color="#888888";
    "node:lines" [label="lines", shape=box, style=filled, fillcolor="#d5e8d4"];
    "node:count" [label="count", shape=box, style="rounded,filled", fillcolor="#dae8fc"];
    "node:counts-out" [label="counts-out", shape=box, style=filled, fillcolor="#f8cecc"];
    "store:counts" [label="counts", shape=cylinder, style=filled, fillcolor="#e1d5e7"];
  }
  "topic:in" [label="in", shape=parallelogram, style=filled, fillcolor="#fff2cc"];
  "topic:out" [label="out", shape=parallelogram, style=filled, fillcolor="#fff2cc"];
  "topic:app-counts-changelog" [label="app-counts-changelog", shape=parallelogram, style="filled,dashed", fillcolor="#eeeeee"];
  "topic:in" -> "node:lines";
  "node:counts-out" -> "topic:out";
  "store:counts" -> "topic:app-counts-changelog" [style=dashed, label="changelog"];
  "node:lines" -> "node:count";
  "node:count" -> "node:counts-out";
  "node:count" -> "store:counts" [dir=none];
}
)");
}

TEST_CASE("Mermaid of the same topology") {
    const topology t = test::word_count_topology("in", "out");
    CHECK(to_mermaid(t, {"app", {{"count", 12.5}}}) ==
          R"(flowchart TB
  subgraph s0 ["Sub-topology 0"]
    v0["lines"]
    v2("count<br/>12.5 rec/s")
    v3["counts-out"]
    v5[("counts")]
  end
  v1[/"in"/]
  v4[/"out"/]
  v6[/"app-counts-changelog"/]
  v1 --> v0
  v3 --> v4
  v5 -.->|changelog| v6
  v0 --> v2
  v2 --> v3
  v2 --- v5
)");
}

TEST_CASE("a re-keying DSL topology: two sub-topologies joined by the repartition topic, the changelog") {
    const topology t = word_count_dsl();
    const std::string dot = to_dot(t, {"word-count", {{"KSTREAM-AGGREGATE-0000000004", 1234.0}}});
    CHECK(contains(dot, "subgraph cluster_0 {\n    label=\"Sub-topology 0\";"));
    CHECK(contains(dot, "subgraph cluster_1 {\n    label=\"Sub-topology 1\";"));
    // The repartition topic: written by sub-topology 0's sink, read by sub-topology 1's source.
    const std::string repartition = "\"topic:word-count-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition\"";
    CHECK(contains(dot, repartition + " [label=\"word-count-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition\", "
                                      "shape=parallelogram, style=\"filled,dashed\""));
    CHECK(contains(dot, "\"node:KSTREAM-SINK-0000000005\" -> " + repartition + ";"));
    CHECK(contains(dot, repartition + " -> \"node:KSTREAM-SOURCE-0000000007\";"));
    CHECK(contains(dot, "\"store:KSTREAM-AGGREGATE-STATE-STORE-0000000003\" -> "
                        "\"topic:word-count-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog\" [style=dashed, "
                        "label=\"changelog\"];"));
    CHECK(contains(dot, "\"node:KSTREAM-AGGREGATE-0000000004\" [label=\"KSTREAM-AGGREGATE-0000000004\\n1234 rec/s\""));
    CHECK(contains(dot, "\"node:KSTREAM-SINK-0000000009\" -> \"topic:word-counts\";"));

    const std::string mermaid = to_mermaid(t, {"word-count", {}});
    CHECK(contains(mermaid, "subgraph s1 [\"Sub-topology 1\"]"));
    CHECK(contains(mermaid, "[/\"word-count-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition\"/]"));
    CHECK(contains(mermaid, "[(\"KSTREAM-AGGREGATE-STATE-STORE-0000000003\")]"));
}

TEST_CASE("Graphviz's dot renders the DOT to SVG") {
    const std::string dot = to_dot(word_count_dsl(), {"word-count", {}});
    const auto dot_file = test::artifact_dir() / "word-count-topology.dot";
    const auto svg_file = test::artifact_dir() / "word-count-topology.svg";
    {
        std::ofstream f(dot_file);
        f << dot;
    }
    // Kept in the build directory as a test artifact.
    const int rc = std::system(("dot -Tsvg '" + dot_file.string() + "' -o '" + svg_file.string() + "'").c_str());
    REQUIRE_MESSAGE(rc == 0, "dot failed (is Graphviz installed? scripts/install-deps installs it)");
    std::ifstream svg(svg_file);
    std::stringstream content;
    content << svg.rdbuf();
    CHECK(contains(content.str(), "<svg"));
    CHECK(contains(content.str(), "Sub&#45;topology 1"));
    CHECK(contains(content.str(), "KSTREAM&#45;AGGREGATE&#45;0000000004"));
}
