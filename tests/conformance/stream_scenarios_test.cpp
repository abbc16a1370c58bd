// Conformance: stream scenarios (stateless chains, split, merge, groupings and aggregations),
// written as java/.../Main.java writes them, compared with Java Kafka Streams' outputs.
#include <doctest/doctest.h>

#include <cctype>
#include <map>
#include <optional>
#include <vector>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using str = std::string;
using ostr = std::optional<std::string>;
using i64 = std::int64_t;
using type::i;
using type::l;
using type::s;

namespace {
str upper(str v) {
    for (auto& c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return v;
}
str lower(str v) {
    for (auto& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return v;
}
bool starts_with(const str& v, const char* p) { return v.rfind(p, 0) == 0; }
}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("stateless_chain") {
    streams_builder b;
    auto st = b.stream<ostr, str>("in");
    auto kept = st.filter([](const str& v) { return !starts_with(v, "x"); }).peek([](const ostr&, const str&) {});
    kept.map_values([](const str& v) { return upper(v); })
        .flat_map_values([](const str& v) { return split(v, ','); })
        .to("out-values");
    kept.select_key([](const ostr& k, const str& v) { return v + "@" + k.value_or("null"); })
        .map([](const str& k, const str& v) { return std::pair<str, i64>(k + "!", static_cast<i64>(v.size())); })
        .to("out-map");
    st.filter_not([](const str& v) { return starts_with(v, "x"); })
        .map_values([](const ostr& k, const str& v) { return k.value_or("null") + ":" + v; })
        .to("out-rejected");
    harness h("stateless_chain", b.build());
    h.input("in", s, s).output("out-values", s, s).output("out-map", s, l).output("out-rejected", s, s);
    h.pipe("in", S("a"), S("p,q"), 1);
    h.pipe("in", null, S("r"), 2);
    h.pipe("in", S("b"), S("xdrop"), 3);
    h.pipe("in", S("c"), S(""), 4);
    h.pipe("in", S("d"), S("s,,t"), 0);
    h.pipe("in", null, S("x"), 5);
    h.finish();
}

TEST_CASE("flat_map_merge") {
    streams_builder b;
    auto a = b.stream<ostr, ostr>("in-a");
    auto c = b.stream<ostr, ostr>("in-b");
    auto fm = a.flat_map([](const ostr& k, const ostr& v) {
        std::vector<std::pair<ostr, ostr>> r;
        for (const auto& p : split(*v, ','))
            if (!p.empty()) r.emplace_back(p, k);
        return r;
    });
    fm.merge(c.map_values([](const ostr& v) { return ostr(*v + "+"); })).to("out");
    harness h("flat_map_merge", b.build());
    h.input("in-a", s, s).input("in-b", s, s).output("out", s, s);
    h.pipe("in-a", S("k1"), S("x,y"), 3);
    h.pipe("in-b", S("k2"), S("z"), 1);
    h.pipe("in-a", S("k3"), S(""), 2);
    h.pipe("in-a", null, S("w"), 4);
    h.pipe("in-b", null, S("v"), 5);
    h.finish();
}

TEST_CASE("split_merge") {
    streams_builder b;
    auto st = b.stream<ostr, str>("in");
    auto br = st.split(named::as("sp-"))
                  .branch([](const str& v) { return starts_with(v, "a"); }, branched::as("a"))
                  .branch([](const str& v) { return starts_with(v, "b"); }, branched::as("b"))
                  .default_branch(branched::as("other"));
    br.at("sp-a").merge(br.at("sp-b")).to("out-ab");
    br.at("sp-other").to("out-other");
    auto br2 = st.split()
                   .branch([](const str& v) { return v.size() > 3; })
                   .branch([](const str& v) { return v.size() == 1; })
                   .no_default_branch();
    for (const auto& [name, branch] : br2) {
        const str n = name;
        branch.map_values([n](const str& v) { return n + ":" + v; }).to("out-len");
    }
    harness h("split_merge", b.build());
    h.input("in", s, s).output("out-ab", s, s).output("out-other", s, s).output("out-len", s, s);
    h.pipe("in", S("k1"), S("apple"), 1);
    h.pipe("in", S("k2"), S("b"), 2);
    h.pipe("in", S("k3"), S("cc"), 3);
    h.pipe("in", null, S("a"), 4);
    h.pipe("in", S("k5"), S("zzzz"), 5);
    h.finish();
}

TEST_CASE("word_count") {
    streams_builder b;
    b.stream<str, str>("text")
        .flat_map_values([](const str& v) { return split(lower(v), ' '); })
        .filter([](const str& w) { return !w.empty(); })
        .group_by([](const str&, const str& w) { return w; })
        .count()
        .to_stream()
        .to("counts");
    harness h("word_count", b.build());
    h.input("text", s, s).output("counts", s, l);
    h.pipe("text", null, S("Hello World"), 10);
    h.pipe("text", S("k"), S("hello  kafka"), 5);
    h.pipe("text", null, S(""), 20);
    h.pipe("text", S("k"), S("world hello"), 15);
    h.finish();
}

TEST_CASE("group_by_key_aggregations") {
    streams_builder b;
    auto g = b.stream<str, i64>("in").group_by_key();
    g.count().to_stream().to("out-count");
    g.reduce([](i64 a, i64 v) { return a + v; }).to_stream().to("out-reduce");
    g.aggregate([] { return str(); }, [](const str&, const i64& v, const str& agg) { return agg + "/" + std::to_string(v); })
        .to_stream()
        .to("out-agg");
    harness h("group_by_key_aggregations", b.build());
    h.input("in", s, l).output("out-count", s, l).output("out-reduce", s, l).output("out-agg", s, s);
    h.pipe("in", S("a"), L(1), 10);
    h.pipe("in", S("b"), L(2), 5);
    h.pipe("in", S("a"), L(3), 7);
    h.pipe("in", null, L(4), 11);
    h.pipe("in", S("a"), null, 12);
    h.pipe("in", S("b"), L(5), 20);
    h.pipe("in", S("a"), L(6), 9);
    h.finish();
}

TEST_CASE("clicks_by_region") {
    streams_builder b;
    auto g = b.stream<str, i64>("clicks").group_by([](const str& user, const i64&) { return user.substr(0, 2); });
    g.count().to_stream().to("region-count");
    g.reduce([](i64 a, i64 v) { return a + v; }, materialized<>::as("clicks-sum")).to_stream().to("region-sum");
    harness h("clicks_by_region", b.build());
    h.input("clicks", s, l).output("region-count", s, l).output("region-sum", s, l);
    h.pipe("clicks", S("eu-alice"), L(3), 100);
    h.pipe("clicks", S("us-bob"), L(1), 50);
    h.pipe("clicks", S("eu-carol"), L(2), 80);
    h.pipe("clicks", S("us-bob"), null, 90);
    h.pipe("clicks", S("eu-alice"), L(4), 120);
    h.finish();
}

TEST_CASE("named_grouping_repartition") {
    streams_builder b;
    auto g = b.stream<str, str>("in").select_key([](const str&, const str& v) { return v; }).group_by_key(grouped<>::as("by-value"));
    g.count(named::as("cnt")).to_stream(named::as("cnt-stream")).to("out-count", produced<>{}.with_name("cnt-sink"));
    g.reduce([](const str& a, const str& c) { return a + c; }, named::as("red"), materialized<>::as("red-store"))
        .to_stream()
        .to("out-reduce");
    harness h("named_grouping_repartition", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-reduce", s, s);
    h.pipe("in", S("1"), S("x"), 1);
    h.pipe("in", S("2"), S("y"), 2);
    h.pipe("in", S("3"), S("x"), 3);
    h.finish();
}

TEST_CASE("explicit_repartition") {
    streams_builder b;
    auto st = b.stream<str, str>("in").select_key([](const str&, const str& v) { return v; });
    st.repartition().group_by_key().count().to_stream().to("out-count");
    st.repartition(repartitioned<>::as("manual")).map_values([](const str& v) { return v + "#"; }).to("out");
    harness h("explicit_repartition", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out", s, s);
    h.pipe("in", S("1"), S("x"), 1);
    h.pipe("in", S("2"), S("y"), 2);
    h.pipe("in", S("3"), S("x"), 3);
    h.finish();
}

TEST_CASE("integer_values") {
    streams_builder b;
    b.stream<str, std::int32_t>("in")
        .map_values([](std::int32_t v) { return static_cast<i64>(v) * 2; })
        .group_by_key()
        .aggregate([] { return i64{100}; }, [](const str&, const i64& v, const i64& agg) { return agg - v; })
        .to_stream()
        .map_values([](i64 v) { return static_cast<std::int32_t>(v); })
        .to("out");
    harness h("integer_values", b.build());
    h.input("in", s, i).output("out", s, i);
    h.pipe("in", S("a"), I(1), 1);
    h.pipe("in", S("a"), I(-7), 2);
    h.pipe("in", S("b"), I(2147483647), 3);
    h.finish();
}

}  // TEST_SUITE
