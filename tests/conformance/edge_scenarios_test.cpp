// Conformance: edge cases where ports tend to differ from Kafka Streams (topic extractors,
// repartition with a partition count, regrouping a table onto its own key, unnamed split branches,
// self-merge, extracted timestamps, several groupings of one re-keyed stream, uncached
// aggregations of out-of-order records, Processor API punctuations, headers), written as
// java/.../EdgeScenarios.java writes them.
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using str = std::string;
using ostr = std::optional<std::string>;
using i64 = std::int64_t;
using type::l;
using type::s;

namespace {
/// Counts records per key in a store and forwards the count; a stream-time punctuation every
/// 10 ms and a wall-clock punctuation every 100 ms forward the count of "a" at their time.
struct counting_processor : processor<str, str, str, str> {
    key_value_store<str, i64>* counts = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        counts = &ctx.get_state_store<key_value_store<str, i64>>("counts");
        ctx.schedule(std::chrono::milliseconds(10), punctuation_type::stream_time, [this](i64 ts) { tick("st", ts); });
        ctx.schedule(std::chrono::milliseconds(100), punctuation_type::wall_clock_time, [this](i64 ts) { tick("wall", ts); });
    }
    void tick(const str& what, i64 ts) {
        context().forward(record<str, str>{what, std::to_string(ts) + ":" + std::to_string(counts->get("a").value_or(0)), ts});
    }
    void process(const record<str, str>& r) override {
        const i64 c = counts->get(r.key).value_or(0) + 1;
        counts->put(r.key, c);
        context().forward(r.with_value(r.value + "#" + std::to_string(c)));
    }
};
}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("topic_extractor_sink") {
    streams_builder b;
    auto st = b.stream<ostr, str>("in");
    st.to(topic_name_extractor<ostr, str>([](const record<ostr, str>& r) { return "out-" + r.value.substr(0, 1); }));
    st.select_key([](const str& v) { return v; })
        .repartition(repartitioned<>::as("rp").with_number_of_partitions(3))
        .map_values([](const str& v) { return v + "#"; })
        .to("out-rp");
    harness h("topic_extractor_sink", b.build());
    h.input("in", s, s).output("out-a", s, s).output("out-b", s, s).output("out-rp", s, s);
    h.pipe("in", S("k1"), S("a1"), 3);
    h.pipe("in", S("k2"), S("b2"), 1);
    h.pipe("in", null, S("a3"), 2);
    h.finish();
}

TEST_CASE("table_group_by_same_key") {
    streams_builder b;
    auto t = b.table<str, str>("in");
    const auto same = [](const str& k, const str& v) { return std::pair<str, str>(k, v); };
    t.group_by(same)
        .aggregate([] { return str(); }, [](const str&, const str& v, const str& agg) { return agg + "+" + v; },
                   [](const str&, const str& v, const str& agg) { return agg + "-" + v; })
        .to_stream()
        .to("out-agg");
    t.group_by(same).count(materialized<>::as("same-count").with_caching_disabled()).to_stream().to("out-count");
    harness h("table_group_by_same_key", b.build());
    h.input("in", s, s).output("out-agg", s, s).output("out-count", s, l);
    h.pipe("in", S("a"), S("1"), 10);
    h.pipe("in", S("a"), S("2"), 5);
    h.pipe("in", S("a"), S("2"), 20);
    h.pipe("in", S("b"), S("3"), 30);
    h.pipe("in", S("a"), null, 40);
    h.pipe("in", S("b"), S("4"), 25);
    h.finish();
}

TEST_CASE("split_unnamed_merge_self") {
    streams_builder b;
    auto st = b.stream<ostr, str>("in");
    st.merge(st).to("out-self");
    auto br = st.split()
                  .branch([](const str& v) { return v.rfind('a', 0) == 0; })
                  .branch([](const str& v) { return v.rfind('b', 0) == 0; }, branched::as("bee"))
                  .default_branch();
    for (auto& [name, branch] : br) branch.map_values([name = name](const str& v) { return name + ":" + v; }).to("out-split");
    harness h("split_unnamed_merge_self", b.build());
    h.input("in", s, s).output("out-self", s, s).output("out-split", s, s);
    h.pipe("in", S("k1"), S("apple"), 1);
    h.pipe("in", S("k2"), S("bean"), 2);
    h.pipe("in", null, S("cherry"), 3);
    h.finish();
}

TEST_CASE("extracted_timestamps") {
    streams_builder b;
    auto st = b.stream<str, str>("in", consumed<>{}.with_timestamp_extractor([](const detail::raw_record& r, i64 partition_time) {
        const str v(*r.value);
        return v == "p" ? partition_time : std::stoll(v);
    }));
    st.map_values([](const str& v) { return v + "!"; }).to("out");
    st.group_by_key().count().to_stream().to("out-count");
    harness h("extracted_timestamps", b.build());
    h.input("in", s, s).output("out", s, s).output("out-count", s, l);
    h.pipe("in", S("a"), S("5"), 100);
    h.pipe("in", S("a"), S("-1"), 101);
    h.pipe("in", S("b"), S("3"), 102);
    h.pipe("in", S("a"), S("p"), 103);
    h.pipe("in", S("b"), S("9"), 104);
    h.pipe("in", S("b"), S("p"), 1);
    h.finish();
}

TEST_CASE("select_key_three_groupings") {
    streams_builder b;
    auto st = b.stream<str, str>("in").select_key([](const str& v) { return v; });
    st.group_by_key().count().to_stream().to("out-count");
    st.group_by_key().reduce([](const str& a, const str& c) { return a + c; }).to_stream().to("out-reduce");
    st.group_by([](const str& k, const str&) { return k + "!"; }).count(materialized<>::as("bang")).to_stream().to("out-bang");
    harness h("select_key_three_groupings", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-reduce", s, s).output("out-bang", s, l);
    h.pipe("in", S("1"), S("x"), 4);
    h.pipe("in", S("2"), S("y"), 2);
    h.pipe("in", S("3"), S("x"), 3);
    h.finish();
}

TEST_CASE("uncached_aggregations_out_of_order") {
    streams_builder b;
    auto g = b.stream<str, i64>("in").group_by_key();
    auto sum = g.reduce([](i64 a, i64 v) { return a + v; }, materialized<>::as("sum").with_caching_disabled());
    sum.to_stream().to("out-sum");
    sum.filter([](const str&, i64 v) { return v > 3; }).to_stream().to("out-big");
    g.aggregate([] { return str(); }, [](const str&, i64 v, const str& agg) { return agg + "," + std::to_string(v); },
                materialized<>::as("agg").with_caching_disabled())
        .to_stream()
        .to("out-agg");
    harness h("uncached_aggregations_out_of_order", b.build());
    h.input("in", s, l).output("out-sum", s, l).output("out-big", s, l).output("out-agg", s, s);
    h.pipe("in", S("a"), L(2), 50);
    h.pipe("in", S("a"), L(3), 40);
    h.pipe("in", S("a"), null, 60);
    h.pipe("in", S("b"), L(1), 10);
    h.pipe("in", S("a"), L(-9), 45);
    h.pipe("in", null, L(7), 70);
    h.finish();
}

TEST_CASE("processor_punctuations") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, i64>(stores::in_memory_key_value_store("counts")));
    b.stream<str, str>("in").process([] { return std::make_unique<counting_processor>(); }, named::as("counting"), {"counts"}).to("out");
    harness h("processor_punctuations", b.build());
    h.input("in", s, s).output("out", s, s);
    h.pipe("in", S("a"), S("1"), 3);
    h.pipe("in", S("a"), S("2"), 9);
    h.pipe("in", S("b"), S("3"), 10);
    h.pipe("in", S("a"), S("4"), 5);
    h.advance_wall_clock(50);
    h.pipe("in", S("a"), S("5"), 35);
    h.advance_wall_clock(50);
    h.advance_wall_clock(250);
    h.pipe("in", S("b"), S("6"), 36);
    h.pipe("in", S("b"), S("7"), 40);
    h.finish();
}

TEST_CASE("headers_forwarded") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    st.filter([](const str& v) { return !v.empty(); }).flat_map_values([](const str& v) { return split(v, ' '); }).to("out-flat");
    st.group_by_key().count(materialized<>::as("c").with_caching_disabled()).to_stream().to("out-count");
    st.select_key([](const str& v) { return v; })
        .group_by_key()
        .reduce([](const str& a, const str& c) { return a + c; }, materialized<>::as("r").with_caching_disabled())
        .to_stream()
        .to("out-reduce");
    b.table<str, str>("tin", materialized<>::as("t").with_caching_disabled()).to_stream().to("out-table");
    harness h("headers_forwarded", b.build());
    h.input("in", s, s).input("tin", s, s);
    h.output("out-flat", s, s).output("out-count", s, l).output("out-reduce", s, s).output("out-table", s, s);
    h.pipe("in", S("a"), S("x y"), 1, {"h=1"});
    h.pipe("in", S("b"), S("x"), 2, {"h=2", "g=3"});
    h.pipe("in", S("a"), S(""), 3);
    h.pipe("tin", S("k"), S("v"), 4, {"t=1"});
    h.pipe("tin", S("k"), S("v"), 5, {"t=2"});
    h.pipe("tin", S("k"), null, 6);
    h.finish();
}

TEST_CASE("group_by_null_keys") {
    streams_builder b;
    b.stream<str, str>("in").group_by([](const str& v) { return v == "n" ? ostr() : ostr(v); }).count().to_stream().to("out-stream");
    b.table<str, str>("tin")
        .group_by([](const str& k, const str& v) { return std::pair<ostr, str>(v == "n" ? ostr() : ostr(v), k); })
        .count()
        .to_stream()
        .to("out-table");
    harness h("group_by_null_keys", b.build());
    h.input("in", s, s).input("tin", s, s).output("out-stream", s, l).output("out-table", s, l);
    h.pipe("in", S("a"), S("x"), 1);
    h.pipe("in", S("b"), S("n"), 2);
    h.pipe("in", S("c"), S("x"), 3);
    h.pipe("tin", S("a"), S("x"), 4);
    h.pipe("tin", S("a"), S("n"), 5);
    h.pipe("tin", S("a"), S("y"), 6);
    h.pipe("tin", S("b"), S("n"), 7);
    h.finish();
}

TEST_CASE("naming_variants") {
    streams_builder b;
    auto st = b.stream<str, str>("in", consumed<>{}.with_name("src"));
    st.filter([](const str& v) { return !v.empty(); }, named::as("f"))
        .repartition(repartitioned<>{}.with_number_of_partitions(2))
        .to("out-r", produced<>{}.with_name("snk"));
    st.to_table(named::as("tt"), materialized<>::as("tt-store")).to_stream(named::as("ts")).to("out-t");
    harness h("naming_variants", b.build());
    h.input("in", s, s).output("out-r", s, s).output("out-t", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S(""), 2);
    h.pipe("in", S("a"), S("1"), 3);
    h.finish();
}

TEST_CASE("null_values_stateless_and_to_stream") {
    streams_builder b;
    auto st = b.stream<str, ostr>("in");
    st.filter([](const ostr& v) { return !v || !v->empty(); })
        .map_values([](const ostr& v) { return v ? *v + "?" : str("NULL"); })
        .to("out-mv");
    st.select_key([](const str& k, const ostr& v) { return k + "/" + v.value_or("null"); }).to("out-sk");
    b.table<str, str>("tin").to_stream().group_by_key().count().to_stream().to("out-count");
    harness h("null_values_stateless_and_to_stream", b.build());
    h.input("in", s, s).input("tin", s, s).output("out-mv", s, s).output("out-sk", s, s).output("out-count", s, l);
    h.pipe("in", S("a"), null, 1);
    h.pipe("in", S("b"), S(""), 2);
    h.pipe("in", S("c"), S("x"), 3);
    h.pipe("tin", S("a"), S("1"), 4);
    h.pipe("tin", S("a"), null, 5);
    h.pipe("tin", S("a"), S("2"), 6);
    h.finish();
}

}  // TEST_SUITE
