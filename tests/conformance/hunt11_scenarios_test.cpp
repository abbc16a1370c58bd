// Conformance: scenarios of the eleventh hunt, written as java/.../Hunt11Scenarios.java writes
// them, compared with Java Kafka Streams' outputs: multicast and dropping stream partitioners
// (KIP-837) on sinks, repartition topics and foreign-key joins' internal topics; a sink's
// serializer failing (production handler, then the forwarding processor's processing handler);
// processing errors at different nodes and in cache flushes with their dead-letter records;
// sliding windows of difference 0; stream-stream joins at the window and grace edges with
// StreamJoined options; peek, foreach and print; stream-table joins whose table goes back in time.
// (hunt_scenarios_test.cpp holds the two of this hunt that share its topologies.)
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>

#include "harness.hpp"
#include "windowed_show.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using ostr = std::optional<std::string>;
using oint = std::optional<std::int32_t>;
using i64 = std::int64_t;
using type::l;
using type::s;

namespace {

/// Hunt11Scenarios.parts: partitions from "0,1" text ("" for none).
std::set<std::int32_t> parts(const str& text) {
    std::set<std::int32_t> ps;
    for (const str& p : split(text, ','))
        if (!p.empty()) ps.insert(std::stoi(p));
    return ps;
}

/// Hunt11Scenarios.fail: `result`, unless `v` is `bad`: then throws.
template <class T>
T fail(const str& v, const str& bad, T result) {
    if (v == bad) throw std::logic_error("failing at " + bad);
    return result;
}

/// SuppressScenarios.pipeFailing: "! " and the error's message from `from` on (up to what the
/// processing handler's refusal adds after it).
void pipe_failing(harness& h, const str& from, const str& topic, const str& key, const str& value, i64 ts) {
    try {
        h.pipe(topic, S(key), S(value), ts);
        h.line("! no error");
    } catch (const std::exception& e) {
        str m = e.what();
        const auto at = m.find(from);
        if (at != str::npos) m = m.substr(at);
        m = m.substr(0, m.find("; the processing exception handler"));
        h.line("! " + m);
    }
}

/// Hunt11Scenarios.PICKY: strings whose serializer throws on values starting with "bad".
struct picky_serde {
    void serialize(const str& v, std::string& out) const {
        if (v.starts_with("bad")) throw std::invalid_argument("picky: " + v);
        out += v;
    }
    str deserialize(std::string_view in) const { return str(in); }
};

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("multicast_partitioners") {
    streams_builder b;
    auto st = b.stream<ostr, ostr>("in");
    // Hunt11Scenarios.ByValue: "two" {1, 0}, "drop" none, "def" the default, else {0}.
    const auto by_value = [](std::string_view, const ostr&, const ostr& v, std::int32_t) -> std::optional<std::set<std::int32_t>> {
        if (!v || v->starts_with("def")) return std::nullopt;
        if (v->starts_with("two")) return parts("1,0");
        if (v->starts_with("drop")) return parts("");
        return parts("0");
    };
    // Hunt11Scenarios.ByHeader: by the last "parts" header, the default without one.
    const auto by_header = [](std::string_view, const ostr&, const ostr&, const headers& hs, std::int32_t) -> partition_choice {
        const header* h = hs.last("parts");
        if (!h) return std::nullopt;
        return parts(h->value.value_or(""));
    };
    st.to("out-multi", produced<>{}.with_stream_partitioner(by_value));
    st.repartition(repartitioned<>::as("rp").with_number_of_partitions(2).with_stream_partitioner(by_value))
        .group_by_key()
        .count()
        .to_stream()
        .to("out-count");
    st.map_values([](const ostr& v) { return ostr(show(v) + "!"); }).to("out-headers", produced<>{}.with_stream_partitioner(by_header));
    harness h("multicast_partitioners", b.build());
    h.input("in", s, s).output("out-multi", s, s).output("out-count", s, l).output("out-headers", s, s);
    h.pipe("in", S("a"), S("one1"), 1);
    h.pipe("in", S("a"), S("two2"), 2, {"parts=0,1"});
    h.pipe("in", S("b"), S("drop3"), 3, {"parts="});
    h.pipe("in", S("a"), S("def4"), 4, {"parts=1"});
    h.pipe("in", S("b"), S("two5"), 5);
    h.pipe("in", null, S("two6"), 6, {"parts=0,0,1"});
    h.pipe("in", S("c"), S("drop7"), 7, {"parts=", "parts=2"});
    h.dropped();
    h.finish();
}

TEST_CASE("sink_serialization_errors") {
    streams_builder b;
    auto st = b.stream<ostr, str>("in");
    auto mapped = st.map_values([](const str& v) { return v + "!"; });
    mapped.to("out-mapped", produced<>{}.with_value_serde(picky_serde{}));
    mapped.to("out-mapped2");
    st.filter([](const ostr&, const str&) { return true; }).to("out-plain");
    st.group_by_key()
        .reduce([](const str&, const str& c) { return c; })
        .to_stream()
        .to("out-table", produced<>{}.with_value_serde(picky_serde{}));
    b.stream<str, str>("in2").to("out-direct", produced<>{}.with_value_serde(picky_serde{}));
    harness h("sink_serialization_errors", b.build(),
              {{"processing.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler"},
               {"errors.dead.letter.queue.topic.name", "dlq"}});
    h.input("in", s, s).input("in2", s, s).output("out-mapped", s, s).output("out-mapped2", s, s).output("out-plain", s, s);
    h.output("out-table", s, s);
    h.output("out-direct", s, s).error_output("dlq", s, s);
    h.pipe("in", S("a"), S("ok1"), 1);
    h.pipe("in", S("a"), S("bad2"), 2, {"h=1"});
    h.pipe("in", S("b"), S("ok3"), 3);
    h.pipe("in", null, S("bad4"), 4);
    h.pipe("in", S("a"), S("ok5"), 5);
    h.dropped();
    h.pipe("in2", S("c"), S("ok6"), 6);
    pipe_failing(h, "picky", "in2", "c", "bad7", 7);
    h.dropped();
    h.finish();
}

TEST_CASE("sliding_zero_difference") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(sliding_windows::of_time_difference_and_grace(0ms, 2ms)).count(), "out-count");
    harness h("sliding_zero_difference", b.build());
    h.input("in", s, s).output("out-count", s, l);
    pipe_failing(h, "Window endMs", "in", "a", "v5", 5);
    h.finish();
}

TEST_CASE("stream_join_edges_options") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    const auto w = join_windows::of_time_difference_and_grace(5ms, 2ms).after(10ms);
    lt.join(rt, [](const str& a, const str& c) { return a + "+" + c; }, w,
            stream_joined_with(serde<str>{}, serde<str>{}, serde<str>{}).with_logging_disabled())
        .to("out-inner");
    lt.left_join(rt, [](const str& a, const ostr& c) { return a + "+" + show(c); }, w,
                 stream_joined<>::as("lj").with_logging_disabled())
        .to("out-left");
    lt.outer_join(rt, [](const ostr& a, const ostr& c) { return show(a) + "+" + show(c); }, w,
                  stream_joined<>::as("oj").with_logging_enabled({{"retention.ms", "1000"}}))
        .to("out-outer");
    harness h("stream_join_edges_options", b.build());
    h.input("left", s, s).input("right", s, s).output("out-inner", s, s).output("out-left", s, s).output("out-outer", s, s);
    h.pipe("left", S("k"), S("L100"), 100);
    h.pipe("right", S("k"), S("R95"), 95);
    h.pipe("right", S("k"), S("R94"), 94);
    h.pipe("right", S("k"), S("R110"), 110);
    h.pipe("right", S("k"), S("R111"), 111);
    h.pipe("left", S("k"), S("L116"), 116);
    h.pipe("left", S("k"), S("L105"), 105);
    h.pipe("right", S("k"), S("R100"), 100);
    h.pipe("left", S("k"), S("L90"), 90);
    h.pipe("left", S("k"), S("L89"), 89);
    h.pipe("right", S("k"), S("R120"), 120);
    h.pipe("left", S("k"), S("L130"), 130);
    h.pipe("right", S("k"), S("R113"), 113);
    h.pipe("right", S("k"), S("R112"), 112);
    h.pipe("left", S("k"), S("L150"), 150);
    h.dropped();
    h.finish();
}

TEST_CASE("processing_errors_at_nodes") {
    using stream = kstream<str, str>;
    streams_builder b;
    auto st = b.stream<str, str>("in");
    st.filter([](const str&, const str& v) { return fail(v, "fx", v.size() > 1); }).to("out-filter");
    st.select_key([](const str&, const str& v) { return fail(v, "sk", v.substr(0, 1)); }).group_by_key().count().to_stream().to("out-count");
    st.split()
        .branch([](const str&, const str& v) { return fail(v, "br", v.starts_with("b")); },
                branched::with_consumer([](stream ks) { ks.to("out-b"); }))
        .default_branch(branched::with_consumer([](stream ks) { ks.map_values([](const str& v) { return v; }).to("out-rest"); }));
    st.peek([](const str&, const str& v) { fail(v, "pk", v); }).map_values([](const str& v) { return v + "!"; }).to("out-peek");
    auto other = b.stream<str, str>("other");
    st.join(other, [](const str& x, const str& y) { return fail(x, "jx", x + "+" + y); },
            join_windows::of_time_difference_with_no_grace(10ms))
        .to("out-join");
    auto t = b.table<str, str>("tab");
    st.left_join(t, [](const str& x, const ostr& y) { return fail(x, "tj", x + "/" + show(y)); }).to("out-stream-table");
    t.join(b.table<str, str>("tab2"), [](const str& x, const str& y) { return fail(x, "tt", x + "&" + y); })
        .to_stream()
        .to("out-table-table");
    harness h("processing_errors_at_nodes", b.build(),
              {{"processing.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler"},
               {"errors.dead.letter.queue.topic.name", "dlq"}});
    h.input("in", s, s).input("other", s, s).input("tab", s, s).input("tab2", s, s);
    h.output("out-filter", s, s).output("out-count", s, l).output("out-b", s, s).output("out-rest", s, s);
    h.output("out-peek", s, s).output("out-join", s, s).output("out-stream-table", s, s).output("out-table-table", s, s);
    h.error_output("dlq", s, s);
    h.pipe("other", S("k"), S("o1"), 1);
    h.pipe("tab", S("k"), S("t1"), 2);
    h.pipe("tab2", S("k"), S("u1"), 3);
    for (const auto& [v, ts] : std::vector<std::pair<str, i64>>{{"ok", 4}, {"fx", 5}, {"sk", 6}, {"br", 7}, {"pk", 8}, {"jx", 9}, {"tj", 10}})
        h.pipe("in", S("k"), S(v), ts);
    h.pipe("tab", S("k"), S("tt"), 11);
    h.pipe("tab2", S("k"), S("u2"), 12);
    h.pipe("tab", S("k"), S("t3"), 13);
    h.dropped();
    h.finish();
}

TEST_CASE("peek_foreach_print") {
    str seen;
    streams_builder b;
    auto st = b.stream<str, str>("in");
    st.peek([&](const str&, const str& v) { seen += " peek1:" + v; }).map_values([](const str& v) { return v + "!"; }).to("out-a");
    st.foreach([&](const str&, const str& v) { seen += " each:" + v; });
    st.print(printed::to_sys_out().with_label("in"));
    st.peek([&](const str&, const str& v) { seen += " peek2:" + v; }, named::as("p2"))
        .filter([](const str&, const str& v) { return v.size() > 1; })
        .to("out-b");
    st.foreach([&](const str&, const str& v) { seen += " each2:" + v; }, named::as("each2"));
    st.print(printed::to_sys_out().with_name("printer"));
    auto t = b.table<str, str>("tab");
    t.to_stream().foreach([&](const str&, const ostr& v) { seen += " tab:" + show(v); });
    t.to_stream().peek([&](const str&, const ostr& v) { seen += " tabpeek:" + show(v); }).to("out-tab");
    harness h("peek_foreach_print", b.build());
    h.input("in", s, s).input("tab", s, s).output("out-a", s, s).output("out-b", s, s).output("out-tab", s, s);
    h.pipe("in", S("k"), S("x"), 1);
    h.pipe("in", S("k"), S("yy"), 2);
    h.pipe("tab", S("t"), S("z"), 3);
    h.pipe("tab", S("t"), null, 4);
    h.line("# seen" + seen);
    h.finish();
}

TEST_CASE("dead_letter_queue_cache_flush") {
    streams_builder b;
    b.table<str, str>("tab", materialized<>::as("tab-store"))
        .map_values([](const str& v) { return fail(v, "bad", v + "?"); })
        .to_stream()
        .to("out-tab");
    b.stream<str, str>("in")
        .group_by_key()
        .count()
        .to_stream()
        .map_values([](i64 c) {
            if (c == 2) throw std::logic_error("two");
            return "c" + std::to_string(c);
        })
        .to("out-count");
    harness h("dead_letter_queue_cache_flush", b.build(),
              {{"processing.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler"},
               {"errors.dead.letter.queue.topic.name", "dlq"}});
    h.input("tab", s, s).input("in", s, s).output("out-tab", s, s).output("out-count", s, s).error_output("dlq", s, s);
    h.pipe("tab", S("k"), S("good"), 1, {"h=1"});
    h.pipe("tab", S("k"), S("bad"), 2, {"h=2"});
    h.pipe("tab", S("k"), S("fine"), 3);
    h.pipe("in", S("a"), S("x"), 4);
    h.pipe("in", S("a"), S("y"), 5, {"h=3"});
    h.pipe("in", S("a"), S("z"), 6);
    h.dropped();
    h.finish();
}

TEST_CASE("stream_table_join_table_out_of_order") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    auto plain = b.table<str, str>("tab");
    auto mat = b.table<str, str>("tab2", materialized<>::as("tab2-store"));
    auto uncached = b.table<str, str>("tab3", materialized<>::as("tab3-store").with_caching_disabled());
    st.join(plain, [](const str& x, const str& y) { return x + "/" + y; }).to("out-plain");
    st.left_join(mat, [](const str& x, const ostr& y) { return x + "/" + show(y); }).to("out-mat");
    st.left_join(uncached, [](const str& x, const ostr& y) { return x + "/" + show(y); }).to("out-uncached");
    mat.join(uncached, [](const str& x, const str& y) { return x + "&" + y; }).to_stream().to("out-tt");
    harness h("stream_table_join_table_out_of_order", b.build());
    h.input("in", s, s).input("tab", s, s).input("tab2", s, s).input("tab3", s, s);
    h.output("out-plain", s, s).output("out-mat", s, s).output("out-uncached", s, s).output("out-tt", s, s);
    const std::vector<str> tables{"tab", "tab2", "tab3"};
    for (const str& t : tables) {
        h.pipe(t, S("k"), S(t + "@50"), 50);
        h.pipe(t, S("k"), S(t + "@20"), 20);
    }
    h.pipe("in", S("k"), S("s10"), 10);
    h.pipe("in", S("k"), S("s60"), 60);
    for (const str& t : tables) h.pipe(t, S("k"), S(t + "@5"), 5);
    h.pipe("in", S("k"), S("s30"), 30);
    for (const str& t : tables) h.pipe(t, S("k"), null, 1);
    h.pipe("in", S("k"), S("s40"), 40);
    h.dropped();
    h.finish();
}

TEST_CASE("sink_errors_continue_multicast") {
    streams_builder b;
    auto st = b.stream<str, str>("in").map_values([](const str& v) { return v; });
    const auto two = [](std::string_view, const str&, const str& v, std::int32_t) -> std::optional<std::set<std::int32_t>> {
        if (v == "px") throw std::logic_error("partitioner");
        if (v.find("two") != str::npos) return parts("0,1");
        return std::nullopt;
    };
    const topic_name_extractor<str, str> extractor = [](const record<str, str>& r) {
        if (r.value == "ex") throw std::logic_error("extractor");
        return str("out-x");
    };
    st.to(extractor, produced<>{}.with_value_serde(picky_serde{}).with_stream_partitioner(two));
    st.to("out-all");
    harness h("sink_errors_continue_multicast", b.build(),
              {{"processing.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler"},
               {"production.exception.handler", "kstreams.conformance.Hunt11Scenarios$ContinueProductionHandler"}});
    h.input("in", s, s).output("out-x", s, s).output("out-all", s, s);
    h.pipe("in", S("k"), S("ok"), 1);
    h.pipe("in", S("k"), S("two"), 2);
    h.pipe("in", S("k"), S("badtwo"), 3);
    h.dropped();
    h.pipe("in", S("k"), S("bad"), 4);
    h.dropped();
    h.pipe("in", S("k"), S("ex"), 5);
    h.pipe("in", S("k"), S("px"), 6);
    h.dropped();
    h.finish();
}

TEST_CASE("multicast_fk_join") {
    streams_builder b;
    auto orders = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    const auto by_order = [](std::string_view, const str& k, std::int32_t) -> std::optional<std::set<std::int32_t>> {
        if (k == "o2") return std::nullopt;
        return parts("0");
    };
    const auto by_customer = [](std::string_view, const str& k, std::int32_t) { return parts(k == "c2" ? "0,1" : "0"); };
    orders
        .left_join(customers, [](const str& v) { return v.substr(0, v.find(':')); },
                   [](const str& o, const ostr& c) { return o + "/" + show(c); },
                   table_joined<>::as("fk").with_partitioner(by_order).with_other_partitioner(by_customer))
        .to_stream()
        .to("out");
    harness h("multicast_fk_join", b.build());
    h.input("orders", s, s).input("customers", s, s).output("out", s, s);
    h.pipe("customers", S("c1"), S("Ann"), 1);
    h.pipe("orders", S("o1"), S("c1:x"), 2);
    h.pipe("orders", S("o2"), S("c1:y"), 3);
    h.pipe("customers", S("c1"), S("Anna"), 4);
    h.pipe("customers", S("c2"), S("Ben"), 5);
    pipe_failing(h, "The partitions returned", "orders", "o1", "c2:z", 6);
    h.finish();
}

}  // TEST_SUITE
