// Conformance: split() with branched chains (with_function, with_consumer), written as
// java/.../SplitScenarios.java writes them.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using str = std::string;
using type::l;
using type::s;

TEST_CASE("split_chains") {
    using stream = kstream<str, str>;
    streams_builder b;
    auto m = b.stream<str, str>("in")
                 .split(named::as("s-"))
                 .branch([](const str& v) { return v.starts_with("a"); },
                         branched::with_function([](stream ks) { return ks.map_values([](const str& v) { return v + "!"; }); }, "a"))
                 .branch([](const str& v) { return v.starts_with("b"); },
                         branched::with_consumer([](stream ks) { ks.to("out-b"); }))
                 .branch([](const str& v) { return v.starts_with("c"); },
                         branched::with_function([](stream) { return std::optional<stream>(); }))
                 .branch([](const str& v) { return v.starts_with("d"); },
                         branched::with_consumer(
                             [](stream ks) { ks.filter([](const str& v) { return v.size() > 1; }).to("out-d"); }, "d"))
                 .default_branch(branched::with_function(
                     [](stream ks) { return ks.select_key([](const str& v) { return v; }); }, "rest"));
    for (auto& [name, st] : m) st.to("out-" + name);
    m.at("s-rest").group_by_key().count().to_stream().to("out-rest-count");
    auto m2 = b.stream<str, str>("in2")
                  .split()
                  .branch([](const str& v) { return v.size() > 2; },
                          branched::with_function([](stream ks) { return ks.flat_map_values([](const str& v) { return split(v, ' '); }); }))
                  .branch([](const str& v) { return v.size() > 1; })
                  .default_branch(branched::with_consumer([](stream ks) { ks.to("out-short"); }));
    for (auto& [name, st] : m2) st.to("out-" + name);
    harness h("split_chains", b.build());
    h.input("in", s, s).input("in2", s, s);
    h.output("out-b", s, s).output("out-d", s, s).output("out-s-a", s, s).output("out-s-rest", s, s);
    h.output("out-rest-count", s, l).output("out-short", s, s);
    h.output("out-KSTREAM-BRANCH-00000000221", s, s).output("out-KSTREAM-BRANCH-00000000222", s, s);
    h.pipe("in", S("1"), S("ax"), 1);
    h.pipe("in", S("2"), S("bx"), 2);
    h.pipe("in", S("3"), S("cx"), 3);
    h.pipe("in", S("4"), S("d"), 4);
    h.pipe("in", S("5"), S("dx"), 5);
    h.pipe("in", S("6"), S("ex"), 6);
    h.pipe("in", S("7"), S("ex"), 7);
    h.pipe("in2", S("8"), S("p q r"), 8);
    h.pipe("in2", S("9"), S("pq"), 9);
    h.pipe("in2", S("10"), S("p"), 10);
    h.finish();
}
