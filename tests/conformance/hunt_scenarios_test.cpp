// Conformance: scenarios of the ninth hunt, written as java/.../HuntScenarios.java writes them,
// compared with Java Kafka Streams' outputs: record headers through joins, grace buffers and
// emission on window close; windowed and foreign-key join results regrouped; the record cache
// sized small and caching stores chained; Materialized without a store name; the smallest
// windows; functions answering null; the log-and-continue error handlers (deserialization,
// processing, punctuations, global tables) with their dropped-records counts.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/state/stores.hpp>

#include "harness.hpp"
#include "windowed_show.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using ostr = std::optional<std::string>;
using oint = std::optional<std::int32_t>;
using i64 = std::int64_t;
using type::i;
using type::l;
using type::s;

namespace {
/// HuntScenarios.FailingTicks: forwards each record; a stream-time punctuation every 10 ms throws
/// on odd runs.
struct failing_ticks : processor<str, str, str, str> {
    int runs = 0;
    void init(context_type& ctx) override {
        processor::init(ctx);
        ctx.schedule(std::chrono::milliseconds(10), punctuation_type::stream_time, [this](i64 ts) {
            if (++runs % 2 == 1) throw std::logic_error("tick " + std::to_string(ts));
            context().forward(record<str, str>{"tick", std::to_string(ts), ts});
        });
    }
    void process(const record<str, str>& r) override {
        if (r.value == "bad") throw std::logic_error("bad");
        context().forward(r);
    }
};
/// HuntScenarios.globalPunctuationTopology: a global table joined, a table of Integers, a
/// processor whose punctuation throws.
topology global_punctuation_topology() {
    streams_builder b;
    auto g = b.global_table<str, std::int32_t>("glob");
    b.stream<str, str>("orders")
        .left_join(g, [](const str&, const str& v) { return v; },
                   [](const str& o, const oint& n) { return o + "=" + (n ? std::to_string(*n) : str("null")); })
        .to("out-join");
    b.table<str, std::int32_t>("tab").to_stream().to("out-tab");
    b.stream<str, str>("ticks").process([] { return std::make_unique<failing_ticks>(); }).to("out-ticks");
    return b.build();
}

/// HuntScenarios.throwingNums: "nums" (Integers) through a map_values throwing on values ending in
/// '!' (else `show`; Java unboxes the Integer: a null value throws), an aggregate throwing on key
/// "boom".
template <class Show>
void throwing_nums(streams_builder& b, Show show) {
    auto nums = b.stream<str, oint>("nums");
    nums.map_values([show](const oint& v) {
            if (!v) throw std::invalid_argument("null");
            if ((*v & 0xff) == '!') throw std::invalid_argument("bang");
            return show(*v);
        })
        .to("out-mapped");
    nums.group_by_key()
        .aggregate([] { return i64{0}; },
                   [](const str& k, const oint&, i64 agg) {
                       if (k == "boom") throw std::logic_error("aggregator");
                       return agg + 1;
                   })
        .to_stream()
        .to("out-count");
}

/// HuntScenarios.throwingTable: "tab" through a map_values throwing on "bad".
void throwing_table(streams_builder& b) {
    b.table<str, str>("tab")
        .map_values([](const str& v) {
            if (v == "bad") throw std::logic_error("table");
            return v + "?";
        })
        .to_stream()
        .to("out-table");
}

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("headers_joins") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    auto t = b.table<str, str>("tab");
    auto u = b.table<str, str>("tab2");
    const auto w = join_windows::of_time_difference_with_no_grace(10ms);
    lt.join(rt, [](const str& x, const str& y) { return x + "+" + y; }, w).to("out-inner");
    lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); }, w).to("out-outer");
    lt.left_join(t, [](const str& x, const ostr& y) { return x + "+" + show(y); }).to("out-stream-table");
    t.join(u, [](const str& x, const str& y) { return x + "+" + y; }).to_stream().to("out-table-inner");
    t.outer_join(u, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); }).to_stream().to("out-table-outer");
    harness h("headers_joins", b.build());
    h.input("left", s, s).input("right", s, s).input("tab", s, s).input("tab2", s, s);
    h.output("out-inner", s, s).output("out-outer", s, s).output("out-stream-table", s, s);
    h.output("out-table-inner", s, s).output("out-table-outer", s, s);
    h.pipe("left", S("a"), S("L1"), 10, {"h=l1"});
    h.pipe("right", S("a"), S("R1"), 12, {"h=r1"});
    h.pipe("tab", S("a"), S("T1"), 5, {"h=t1"});
    h.pipe("left", S("a"), S("L2"), 14, {"h=l2", "x=2"});
    h.pipe("tab2", S("a"), S("U1"), 15, {"h=u1"});
    h.pipe("right", S("b"), S("R2"), 20, {"h=r2"});
    h.pipe("tab", S("a"), S("T2"), 21, {"h=t2"});
    h.pipe("left", S("b"), S("L3"), 22);
    h.pipe("tab2", S("a"), null, 23, {"h=u-del"});
    h.pipe("right", S("c"), S("R3"), 40, {"h=r3"});
    h.pipe("left", S("d"), S("L4"), 45, {"h=l4"});
    h.pipe("tab2", S("d"), S("U4"), 46, {"h=u4"});
    h.pipe("left", S("e"), S("L5"), 70, {"h=l5"});
    h.pipe("tab", S("a"), null, 71, {"h=t-del"});
    h.pipe("tab2", S("d"), null, 72);
    h.finish();
}

TEST_CASE("headers_versioned_join_grace") {
    streams_builder b;
    auto users = b.table<str, str>("users", materialized<>::as(stores::persistent_versioned_key_value_store("users", 100ms)));
    b.stream<str, str>("orders")
        .left_join(users, [](const str& o, const ostr& u) { return o + "@" + show(u); },
                   joined<>::as("graceful").with_grace_period(5ms))
        .to("out");
    auto g = b.global_table<str, str>("glob");
    b.stream<str, str>("orders2")
        .join(g, [](const str&, const str& v) { return v; }, [](const str& o, const str& x) { return o + "#" + x; })
        .to("out-global");
    harness h("headers_versioned_join_grace", b.build());
    h.input("orders", s, s).input("users", s, s).input("orders2", s, s).input("glob", s, s);
    h.output("out", s, s).output("out-global", s, s);
    h.pipe("users", S("u"), S("U1"), 1, {"u=1"});
    h.pipe("orders", S("u"), S("o10"), 10, {"o=10"});
    h.pipe("orders", S("u"), S("o8"), 8, {"o=8", "x=y"});
    h.pipe("users", S("u"), S("U2"), 9, {"u=2"});
    h.pipe("orders", S("u"), S("o12"), 12);
    h.pipe("orders", S("v"), S("o13"), 13, {"o=13"});
    h.pipe("orders", S("u"), S("o20"), 20, {"o=20"});
    h.pipe("orders", S("u"), S("o14"), 14, {"o=14"});
    h.pipe("orders", S("u"), S("o30"), 30, {"o=30"});
    h.pipe("glob", S("k"), S("G1"), 1, {"g=1"});
    h.pipe("orders2", S("a"), S("k"), 2, {"p=2"});
    h.finish();
}

TEST_CASE("headers_windows") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto concat = [](const str& x, const str& y) { return x + "+" + y; };
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 5ms).advance_by(5ms))
                .count(materialized<>::as("hop").with_caching_disabled()),
            "out-hopping");
    show_to(g.windowed_by(sliding_windows::of_time_difference_and_grace(10ms, 5ms))
                .reduce(concat, materialized<>::as("slide").with_caching_disabled()),
            "out-sliding");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_and_grace(10ms, 5ms))
                .reduce(concat, materialized<>::as("sess").with_caching_disabled()),
            "out-session");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(10ms)).count(), "out-session-cached");
    b.table<str, str>("tab")
        .group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k); })
        .reduce(concat, [](const str& x, const str& y) { return x + "-" + y; },
                materialized<>::as("regrouped").with_caching_disabled())
        .to_stream()
        .to("out-regrouped");
    harness h("headers_windows", b.build());
    h.input("in", s, s).input("tab", s, s).output("out-hopping", s, l).output("out-sliding", s, s);
    h.output("out-session", s, s).output("out-session-cached", s, l).output("out-regrouped", s, s);
    h.pipe("in", S("a"), S("w1"), 1, {"h=1"});
    h.pipe("in", S("a"), S("w7"), 7, {"h=7"});
    h.pipe("in", S("a"), S("w30"), 30, {"h=30"});
    h.pipe("in", S("a"), S("w22"), 22, {"h=22", "z=z"});
    h.pipe("in", S("a"), S("w14"), 14, {"h=14"});
    h.pipe("in", S("a"), S("w18"), 18);
    h.pipe("in", S("b"), S("v40"), 40, {"h=40"});
    h.pipe("in", S("a"), S("w26"), 26, {"h=26"});
    h.pipe("tab", S("k1"), S("x1"), 1, {"t=1"});
    h.pipe("tab", S("k2"), S("x2"), 2, {"t=2"});
    h.pipe("tab", S("k1"), S("y1"), 3, {"t=3"});
    h.pipe("tab", S("k2"), null, 4, {"t=4"});
    h.pipe("tab", S("k1"), S("y2"), 5);
    h.finish();
}

TEST_CASE("windowed_table_regroup") {
    streams_builder b;
    auto g = b.stream<str, ostr>("in").group_by_key();
    const auto sum = [](i64 x, i64 y) { return x + y; };
    const auto minus = [](i64 x, i64 y) { return x - y; };
    g.windowed_by(time_windows::of_size_and_grace(10ms, 5ms))
        .count()
        .group_by([](const windowed<str>& w, i64 n) { return std::pair<str, i64>(std::to_string(w.window.start), n); })
        .reduce(sum, minus)
        .to_stream()
        .to("out-tumbling");
    g.windowed_by(sliding_windows::of_time_difference_and_grace(10ms, 5ms))
        .count(materialized<>::as("slide").with_caching_disabled())
        .filter([](const windowed<str>&, i64 n) { return n > 1; })
        .group_by([](const windowed<str>& w, i64 n) { return std::pair<str, i64>(w.key, n); })
        .reduce(sum, minus)
        .to_stream()
        .to("out-sliding");
    auto sessions = g.windowed_by(session_windows::of_inactivity_gap_and_grace(10ms, 5ms)).count();
    sessions.map_values([](i64 n) { return n * 10; })
        .group_by([](const windowed<str>& w, i64 n) { return std::pair<str, i64>(w.key, n); })
        .reduce(sum, minus)
        .to_stream()
        .to("out-session");
    sessions.group_by([](const windowed<str>& w, i64) { return std::pair<str, str>(w.key, std::to_string(w.window.start)); })
        .count()
        .to_stream()
        .to("out-live");
    harness h("windowed_table_regroup", b.build());
    h.input("in", s, s).output("out-tumbling", s, l).output("out-sliding", s, l).output("out-session", s, l);
    h.output("out-live", s, l);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("b"), S("2"), 3);
    h.pipe("in", S("a"), S("3"), 8);
    h.pipe("in", S("a"), S("4"), 25);
    h.pipe("in", S("a"), S("5"), 14);
    h.pipe("in", S("b"), S("6"), 16);
    h.pipe("in", S("a"), S("7"), 40);
    h.pipe("in", S("a"), S("8"), 31);
    h.pipe("in", S("b"), S("9"), 20);
    h.pipe("in", S("a"), S("10"), 4);
    h.pipe("in", S("a"), null, 41);
    h.pipe("in", S("a"), S("11"), 60);
    h.finish();
}

TEST_CASE("fk_join_regroup") {
    streams_builder b;
    auto orders_table = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    orders_table.join(customers, fk, [](const str&, const str& c) { return c; })
        .group_by([](const str& k, const str& c) { return std::pair<str, str>(c, k); })
        .count()
        .to_stream()
        .to("out-inner");
    orders_table.left_join(customers, fk, [](const str&, const ostr& c) { return show(c); })
        .group_by([](const str& k, const str& c) { return std::pair<str, str>(c, k); })
        .reduce([](const str& x, const str& y) { return x + "+" + y; }, [](const str& x, const str& y) { return x + "-" + y; })
        .to_stream()
        .to("out-left");
    harness h("fk_join_regroup", b.build());
    h.input("orders", s, s).input("customers", s, s).output("out-inner", s, l).output("out-left", s, s);
    fk_orders(h);
    h.finish();
}

namespace {
void cache_size(const char* scenario, const char* size) {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    st.flat_map_values([](const str& v) { return split(v, ','); }).group_by_key().count().to_stream().to("out-count");
    st.flat_map([](const str& k, const str& v) {
          std::vector<std::pair<str, str>> r;
          for (const auto& w : split(v, ',')) r.emplace_back(w, k);
          return r;
      })
        .group_by_key()
        .reduce([](const str& x, const str& y) { return x + "+" + y; })
        .to_stream()
        .to("out-rekeyed");
    show_to(st.group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).count(), "out-windowed");
    show_to(st.group_by_key().windowed_by(session_windows::of_inactivity_gap_with_no_grace(10ms)).count(), "out-session");
    auto t = b.table<str, str>("tin", materialized<>::as("tin-store"));
    t.to_stream().to("out-table");
    t.join(b.table<str, str>("tin2"), [](const str& x, const str& y) { return x + "+" + y; }).to_stream().to("out-join");
    harness h(scenario, b.build(), {{"statestore.cache.max.bytes", size}});
    h.input("in", s, s).input("tin", s, s).input("tin2", s, s).output("out-count", s, l).output("out-rekeyed", s, s);
    h.output("out-windowed", s, l).output("out-session", s, l).output("out-table", s, s).output("out-join", s, s);
    h.pipe("in", S("a"), S("x,y,x"), 1);
    h.pipe("in", S("b"), S("p,q,r,s,t,u,p,q,v,w,x,y"), 2);
    h.pipe("in", S("a"), S("y,y,z"), 12);
    h.pipe("in", S("c"), S("k1,k2,k3,k4,k5,k6,k7,k8,k1,k2"), 5);
    h.pipe("tin", S("t1"), S("v1"), 3);
    h.pipe("tin2", S("t1"), S("w1"), 4);
    h.pipe("tin", S("t1"), S("v2"), 6);
    h.pipe("tin", S("t2"), null, 7);
    h.pipe("in", S("a"), S("x"), 30);
    h.finish();
}
}  // namespace

TEST_CASE("cache_size_0") { cache_size("cache_size_0", "0"); }
TEST_CASE("cache_size_400") { cache_size("cache_size_400", "400"); }

TEST_CASE("materialized_without_name") {
    streams_builder b;
    const auto m = materialized_with(serde<str>{}, serde<str>{});
    auto src = b.table<str, str>("in", m);
    src.to_stream().to("out-src");
    src.filter([](const str&, const str& v) { return v.size() > 1; }, m).to_stream().to("out-filter");
    src.map_values([](const str& v) { return v + "!"; }, m).to_stream().to("out-mapped");
    src.join(b.table<str, str>("in2"), [](const str& x, const str& y) { return x + "+" + y; }, m).to_stream().to("out-join");
    src.group_by([](const str& k, const str& v) { return std::pair<str, str>(v, k); })
        .count(materialized_with(serde<str>{}, serde<i64>{}))
        .to_stream()
        .to("out-count");
    harness h("materialized_without_name", b.build());
    h.input("in", s, s).input("in2", s, s).output("out-src", s, s).output("out-filter", s, s).output("out-mapped", s, s);
    h.output("out-join", s, s).output("out-count", s, l);
    h.pipe("in2", S("a"), S("r1"), 1);
    h.pipe("in", S("a"), S("1"), 2);
    h.pipe("in", S("a"), S("22"), 3);
    h.pipe("in", S("a"), S("3"), 4);
    h.pipe("in", S("b"), null, 5);
    h.pipe("in", S("b"), S("4"), 6);
    h.pipe("in", S("a"), null, 7);
    h.pipe("in", S("b"), S("4"), 8);
    h.pipe("in2", S("b"), S("r2"), 9);
    h.finish();
}

TEST_CASE("window_zero_sizes") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto concat = [](const str& x, const str& y) { return x + "+" + y; };
    show_to(g.windowed_by(session_windows::of_inactivity_gap_and_grace(0ms, 1ms)).reduce(concat), "out-session");
    show_to(g.windowed_by(time_windows::of_size_and_grace(1ms, 1ms)).reduce(concat), "out-tumbling");
    show_to(g.windowed_by(time_windows::of_size_and_grace(2ms, 1ms).advance_by(1ms)).reduce(concat), "out-hopping");
    show_to(g.windowed_by(sliding_windows::of_time_difference_and_grace(1ms, 1ms)).reduce(concat), "out-sliding");
    harness h("window_zero_sizes", b.build());
    h.input("in", s, s).output("out-session", s, s).output("out-tumbling", s, s).output("out-hopping", s, s);
    h.output("out-sliding", s, s);
    h.pipe("in", S("a"), S("v0"), 0);
    h.pipe("in", S("a"), S("v0b"), 0);
    h.pipe("in", S("a"), S("v1"), 1);
    h.pipe("in", S("a"), S("v3"), 3);
    h.pipe("in", S("a"), S("v2"), 2);
    h.pipe("in", S("a"), S("v3b"), 3);
    h.pipe("in", S("a"), S("v1b"), 1);
    h.pipe("in", S("a"), S("v5"), 5);
    h.pipe("in", S("a"), S("v4"), 4);
    h.pipe("in", S("a"), S("v3c"), 3);
    h.dropped();
    h.finish();
}

TEST_CASE("error_handlers_global_punctuation") {
    harness h("error_handlers_global_punctuation", global_punctuation_topology(),
              {{"deserialization.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler"},
               {"processing.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler"}});
    h.input("glob", s, s).input("orders", s, s).input("tab", s, s).input("ticks", s, s);
    h.output("out-join", s, s).output("out-tab", s, i).output("out-ticks", s, s);
    h.pipe("glob", S("k1"), S("abcd"), 1);
    h.pipe("glob", S("k2"), S("abc"), 2);
    h.pipe("orders", S("o1"), S("k1"), 3);
    h.pipe("orders", S("o2"), S("k2"), 4);
    h.dropped();
    h.pipe("tab", S("t"), S("ab"), 5);
    h.pipe("tab", S("t"), S("wxyz"), 6);
    h.dropped();
    h.pipe("ticks", S("a"), S("x0"), 0);
    h.pipe("ticks", S("a"), S("x5"), 5);
    h.pipe("ticks", S("a"), S("x10"), 10);
    h.pipe("ticks", S("a"), S("x20"), 20);
    h.pipe("ticks", S("a"), S("bad"), 25);
    h.pipe("ticks", S("a"), S("x30"), 30);
    h.pipe("ticks", S("a"), S("x41"), 41);
    h.dropped();
    h.finish();
}

// Hunt11Scenarios' (it shares the topology of error_handlers_continue): dead-letter records.
TEST_CASE("dead_letter_queue_records") {
    streams_builder b;
    throwing_nums(b, [](std::int32_t v) { return "n" + std::to_string(v); });
    throwing_table(b);
    harness h("dead_letter_queue_records", b.build(),
              {{"deserialization.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler"},
               {"processing.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler"},
               {"errors.dead.letter.queue.topic.name", "dlq"}});
    h.input("nums", s, s).input("tab", s, s).output("out-mapped", s, s).output("out-count", s, l).output("out-table", s, s);
    h.error_output("dlq", s, type::x);
    h.pipe("nums", S("a"), S("1234"), 1);
    h.pipe("nums", S("a"), S("123"), 2, {"h=1"});
    h.pipe("nums", S("b"), S("abc!"), 3, {"h=2", "h=3"});
    h.pipe("nums", S("boom"), S("9999"), 4);
    h.pipe("nums", null, S("12"), 5);
    h.pipe("nums", S("a"), null, 6);
    h.pipe("tab", S("k"), S("good"), 7);
    h.pipe("tab", S("k"), S("bad"), 8, {"t=1"});
    h.pipe("tab", null, S("bad"), 9);
    h.dropped();
    h.finish();
}

// Hunt11Scenarios' (it shares error_handlers_global_punctuation's topology): with a dead-letter queue.
TEST_CASE("dead_letter_queue_global_punctuation") {
    harness h("dead_letter_queue_global_punctuation", global_punctuation_topology(),
              {{"deserialization.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler"},
               {"processing.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler"},
               {"errors.dead.letter.queue.topic.name", "dlq"}});
    h.input("glob", s, s).input("orders", s, s).input("tab", s, s).input("ticks", s, s);
    h.output("out-join", s, s).output("out-tab", s, i).output("out-ticks", s, s).error_output("dlq", s, s);
    h.pipe("glob", S("k1"), S("abcd"), 1);
    h.pipe("glob", S("k2"), S("abc"), 2, {"g=1"});
    h.pipe("orders", S("o1"), S("k1"), 3);
    h.pipe("orders", S("o2"), S("k2"), 4);
    h.pipe("tab", S("t"), S("ab"), 5, {"t=1"});
    h.pipe("tab", S("t"), S("wxyz"), 6);
    h.pipe("ticks", S("a"), S("x0"), 0);
    h.pipe("ticks", S("a"), S("x10"), 10, {"x=1"});
    h.pipe("ticks", S("a"), S("bad"), 15, {"x=2"});
    h.pipe("ticks", S("a"), S("x20"), 20);
    h.pipe("ticks", S("a"), S("x30"), 30);
    h.dropped();
    h.finish();
}

TEST_CASE("cache_chained_stores") {
    streams_builder b;
    auto t1 = b.stream<str, str>("in")
                  .flat_map([](const str&, const str& v) {
                      std::vector<std::pair<str, str>> r;
                      for (const auto& w : split(v, ',')) r.emplace_back(w.substr(0, 1), w);
                      return r;
                  })
                  .to_table(named{}, materialized<>::as("t1"));
    t1.map_values([](const str& v) { return v + "!"; }, materialized<>::as("t2")).to_stream().to("out-mapped");
    t1.join(b.table<str, str>("side"), [](const str& x, const str& y) { return x + "+" + y; }, materialized<>::as("j"))
        .to_stream()
        .to("out-join");
    t1.group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(v.size() - 1), k); })
        .count()
        .to_stream()
        .to("out-count");
    t1.to_stream().to("out-t1");
    harness h("cache_chained_stores", b.build());
    h.input("in", s, s).input("side", s, s).output("out-t1", s, s).output("out-mapped", s, s).output("out-join", s, s);
    h.output("out-count", s, l);
    h.pipe("side", S("a"), S("A"), 1);
    h.pipe("in", S("k"), S("a1,b1,a2"), 2);
    h.pipe("in", S("k"), S("a3,a1,c1,b2"), 3);
    h.pipe("side", S("b"), S("B"), 4);
    h.pipe("in", S("k"), S("b3,b1,b3"), 5);
    h.pipe("side", S("a"), null, 6);
    h.pipe("in", S("k"), S("a4"), 7);
    h.finish();
}

TEST_CASE("functions_returning_null") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    const auto unless_x = [](const str& v, const str& suffix) { return v.rfind("x", 0) == 0 ? ostr() : ostr(v + suffix); };
    auto mv = st.map_values([&](const str& v) { return unless_x(v, ""); });
    mv.to("out-mv");
    mv.to_table().to_stream().to("out-to-table");
    st.flat_map_values([&](const str& v) { return std::vector<ostr>{ostr(v), unless_x(v, "'")}; }).to("out-fmv");
    auto t = b.table<str, str>("tab");
    t.map_values([&](const str& v) { return unless_x(v, "!"); }).to_stream().to("out-tmv");
    auto m = t.map_values([&](const str& v) { return unless_x(v, "?"); }, materialized<>::as("tmv-store"));
    m.to_stream().to("out-tmv-mat");
    m.group_by([](const str& k, const ostr& v) { return std::pair<ostr, str>(v, k); }).count().to_stream().to("out-count");
    harness h("functions_returning_null", b.build());
    h.input("in", s, s).input("tab", s, s).output("out-mv", s, s).output("out-to-table", s, s).output("out-fmv", s, s);
    h.output("out-tmv", s, s).output("out-tmv-mat", s, s).output("out-count", s, l);
    h.pipe("in", S("a"), S("v1"), 1);
    h.pipe("in", S("a"), S("x2"), 2);
    h.pipe("in", S("b"), S("x3"), 3);
    h.pipe("tab", S("a"), S("v1"), 4);
    h.pipe("tab", S("a"), S("x2"), 5);
    h.pipe("tab", S("b"), S("x3"), 6);
    h.pipe("tab", S("b"), S("v4"), 7);
    h.pipe("tab", S("a"), S("x5"), 8);
    h.pipe("tab", S("b"), null, 9);
    h.finish();
}

TEST_CASE("emit_on_close_headers_more") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto concat = [](const str& x, const str& y) { return x + "+" + y; };
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 2ms).advance_by(5ms))
                .emit_strategy(emit_strategy::on_window_close())
                .reduce(concat),
            "out-hopping");
    show_to(g.windowed_by(sliding_windows::of_time_difference_and_grace(5ms, 2ms))
                .emit_strategy(emit_strategy::on_window_close())
                .reduce(concat),
            "out-sliding");
    g.cogroup([](const str&, const str& v, const str& agg) { return agg + "/" + v; })
        .aggregate([] { return str(); }, materialized<>::as("co").with_caching_disabled())
        .to_stream()
        .to("out-cogroup");
    harness h("emit_on_close_headers_more", b.build());
    h.input("in", s, s).output("out-hopping", s, s).output("out-sliding", s, s).output("out-cogroup", s, s);
    h.pipe("in", S("a"), S("h1"), 1, {"n=1"});
    h.pipe("in", S("b"), S("h4"), 4, {"n=4"});
    h.pipe("in", S("a"), S("h8"), 8, {"n=8"});
    h.pipe("in", S("a"), S("h13"), 13, {"n=13"});
    h.pipe("in", S("b"), S("h11"), 11);
    h.pipe("in", S("a"), S("h25"), 25, {"n=25"});
    h.pipe("in", S("a"), S("h9"), 9, {"n=9"});
    h.pipe("in", S("b"), S("h40"), 40, {"n=40", "m=x"});
    h.finish();
}

TEST_CASE("error_handlers_continue") {
    streams_builder b;
    throwing_nums(b, [](std::int32_t v) { return std::to_string(v % 1000); });
    b.stream<oint, str>("ints").map_values([](const str& v) { return v + "!"; }).to("out-ints");
    throwing_table(b);
    b.stream<str, ostr>("stamped",
                        consumed<>{}.with_timestamp_extractor([](const detail::raw_record& r, i64) -> i64 {
                            return r.value ? std::stoll(str(*r.value)) : -1;
                        }))
        .to("out-stamped");
    harness h("error_handlers_continue", b.build(),
              {{"deserialization.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler"},
               {"processing.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler"}});
    h.input("nums", s, s).input("ints", s, s).input("tab", s, s).input("stamped", s, s);
    h.output("out-mapped", s, s).output("out-count", s, l).output("out-ints", i, s).output("out-table", s, s);
    h.output("out-stamped", s, s);
    h.pipe("nums", S("a"), S("1234"), 1);
    h.pipe("nums", S("a"), S("123"), 2);
    h.pipe("nums", S("b"), S("abc!"), 3);
    h.pipe("nums", S("boom"), S("9999"), 4);
    h.pipe("nums", S("a"), null, 5);
    h.pipe("nums", S("b"), S(""), 6);
    h.pipe("nums", S("b"), S("4321"), 7);
    h.dropped();
    h.pipe("ints", S("abcd"), S("v"), 8);
    h.pipe("ints", S("abc"), S("w"), 9);
    h.pipe("ints", null, S("x"), 10);
    h.dropped();
    h.pipe("tab", S("k"), S("good"), 11);
    h.pipe("tab", S("k"), S("bad"), 12);
    h.pipe("tab", S("k"), null, 13);
    h.dropped();
    h.pipe("stamped", S("s"), S("5"), 14);
    h.pipe("stamped", S("s"), null, 15);
    h.pipe("stamped", S("s"), S("3"), 16);
    h.dropped();
    h.finish();
}

}  // TEST_SUITE
