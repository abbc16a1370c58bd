// Conformance: scenarios of the twentieth hunt, written as java/.../Hunt20Scenarios.java writes
// them, compared with Java Kafka Streams' outputs: stream joins with asymmetric windows (before /
// after), self-joins with and without optimization; joiners taking the key in every join that
// accepts one; versioned tables from to_table and map_values with store reads; Processor API
// processors with timestamped, versioned and window stores, re-timed records with headers,
// punctuations cancelled; windowed and session aggregations returning null; windowed keys mapped
// by to_stream; result timestamps of every kind; window boundaries in every window kind;
// deserialization errors on table sources, repartition topics and global tables (with and
// without a dead-letter queue); processing errors after a forward; suppression of table views.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/state/stores.hpp>

#include "harness.hpp"
#include "store_entries.hpp"
#include "windowed_show.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using ostr = std::optional<std::string>;
using i64 = std::int64_t;
using type::l;
using type::s;

namespace {

auto plus2 = [](const str& x, const str& y) { return x + "+" + y; };
auto comma = [](const str& a, const str& c) { return a + "," + c; };

std::map<str, str> opt(const char* setting) {
    if (!setting) return {};
    return {{"topology.optimization", setting}};
}

str version(const std::optional<versioned_record<str>>& r) { return r ? r->value + "@" + std::to_string(r->timestamp) : "null"; }

/// Hunt20Scenarios.Picky: strings, whose deserializer refuses values starting with `bad`.
struct picky {
    str bad;
    void serialize(const str& v, std::string& out) const { out += v; }
    str deserialize(std::string_view in) const {
        if (in.starts_with(bad)) throw std::invalid_argument("picky: " + str(in));
        return str(in);
    }
};

const std::map<str, str> continue_on_errors{
    {"deserialization.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler"},
    {"processing.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler"}};

std::map<str, str> with_dlq(std::map<str, str> p) {
    p["errors.dead.letter.queue.topic.name"] = "dlq";
    return p;
}

/// Left and right records out of order around asymmetric windows (Hunt20Scenarios.leftRight).
void left_right(harness& h) {
    h.pipe("left", S("a"), S("L1"), 10);
    h.pipe("right", S("a"), S("R1"), 12);
    h.pipe("right", S("a"), S("R2"), 5);
    h.pipe("left", S("a"), S("L2"), 8);
    h.pipe("right", S("a"), S("R3"), 16);
    h.pipe("left", S("b"), S("L3"), 20);
    h.pipe("right", S("a"), S("R4"), 9);
    h.pipe("left", S("a"), S("L4"), 30);
    h.pipe("right", S("b"), S("R5"), 21);
    h.pipe("left", S("a"), S("L5"), 13);
    h.pipe("right", S("a"), S("R6"), 26);
    h.pipe("right", S("c"), S("R7"), 40);
    h.pipe("left", S("c"), S("L6"), 44);
    h.pipe("left", S("c"), S("L7"), 60);
}

/// Hunt20Scenarios.selfJoin: a stream joined with itself over windows 2 ms before, 5 ms after.
void self_join(const char* scenario, const char* setting, bool left) {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    const auto w = join_windows::of_time_difference_and_grace(5ms, 2ms).before(2ms);
    if (left) st.left_join(st, [](const str& x, const ostr& y) { return x + "+" + show(y); }, w).to("out");
    else st.join(st, plus2, w).to("out");
    harness h(scenario, b.build(opt(setting)), opt(setting));
    h.input("in", s, s).output("out", s, s);
    for (const auto& [k, v, t] : std::vector<std::tuple<str, str, i64>>{
             {"a", "1", 10}, {"a", "2", 12}, {"a", "3", 7}, {"a", "4", 16}, {"b", "5", 16}, {"a", "6", 9}, {"a", "7", 30}, {"a", "8", 14}})
        h.pipe("in", S(k), S(v), t);
    h.dropped();
    h.finish();
}

/// Hunt20Scenarios.Retimer: keeps each key's last value and time in "last"; forwards the value
/// with the previous one, at the later of the two times, with a "prev" header and without "drop".
struct retimer final : processor<str, str, str, str> {
    timestamped_key_value_store<str, str>* last = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        last = &ctx.get_state_store<timestamped_key_value_store<str, str>>("last");
    }
    void process(const record<str, str>& r) override {
        const auto prev = last->get(r.key);
        last->put(r.key, value_and_timestamp<str>{r.value, r.timestamp});
        auto out = r.with_value(r.value + "<" + (prev ? prev->value : str("none")));
        if (prev && prev->timestamp > r.timestamp) out = out.with_timestamp(prev->timestamp);
        out.headers.remove("drop");
        out.headers.add("prev", prev ? prev->value : str("none"));
        context().forward(out);
    }
};

/// Hunt20Scenarios.Ticker: a stream-time punctuation every 5 ms, cancelled by its second call,
/// and a wall-clock one every 10 ms, cancelled by its third; each forwards a record at its time.
struct ticker final : processor<str, str, str, str> {
    cancellable stream_tick, wall_tick;
    int stream_calls = 0, wall_calls = 0;
    void init(context_type& ctx) override {
        processor::init(ctx);
        stream_tick = ctx.schedule(5ms, punctuation_type::stream_time, [this](i64 t) {
            context().forward(record<str, str>{"st", "st" + std::to_string(++stream_calls), t});
            if (stream_calls == 2) stream_tick.cancel();
        });
        wall_tick = ctx.schedule(10ms, punctuation_type::wall_clock_time, [this](i64 t) {
            context().forward(record<str, str>{"wc", "wc" + std::to_string(++wall_calls), t});
            if (wall_calls == 3) wall_tick.cancel();
        });
    }
    void process(const record<str, str>& r) override { context().forward(r); }
};

/// Hunt20Scenarios.VersionedKeeper: puts each value into the versioned store "pv" at its time
/// and forwards it with the put's return code (or the version "del" removed), the version 3 ms
/// before and the latest.
struct versioned_keeper final : fixed_key_processor<str, str, str> {
    versioned_key_value_store<str, str>* pv = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        pv = &ctx.get_state_store<versioned_key_value_store<str, str>>("pv");
    }
    void process(const record<str, str>& r) override {
        const str done = r.value == "del" ? "old=" + version(pv->remove(r.key, r.timestamp))
                                          : "rc=" + std::to_string(pv->put(r.key, r.value, r.timestamp));
        context().forward(r.with_value(r.value + "|" + done + "|before=" + version(pv->get(r.key, r.timestamp - 3)) +
                                       "|latest=" + version(pv->get(r.key))));
    }
};

/// Hunt20Scenarios.WindowKeeper: puts each value into the window store "ws" (window 10 ms,
/// retention 30 ms) at its time rounded down to 10, forwards what the key has from 0 to 100.
struct window_keeper final : fixed_key_processor<str, str, str> {
    window_store<str, str>* ws = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        ws = &ctx.get_state_store<window_store<str, str>>("ws");
    }
    void process(const record<str, str>& r) override {
        ws->put(r.key, r.value, r.timestamp - r.timestamp % 10);
        context().forward(r.with_value(r.value + "|" + entries(ws->fetch(r.key, 0, 100))));
    }
};

/// Hunt20Scenarios.ForwardThenThrow: forwards its record, then throws for "boom".
struct forward_then_throw final : processor<str, str, str, str> {
    void process(const record<str, str>& r) override {
        context().forward(r.with_value(r.value + "!"));
        if (r.value == "boom") throw std::logic_error("boom after forward");
    }
};

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("join_before_after_kinds") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    const auto w = join_windows::of_time_difference_and_grace(6ms, 2ms);
    lt.join(rt, plus2, w.before(1ms)).to("out-inner");
    lt.left_join(rt, [](const str& x, const ostr& y) { return x + "+" + show(y); }, w.after(1ms)).to("out-left");
    lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); }, w.before(0ms).after(4ms)).to("out-outer");
    harness h("join_before_after_kinds", b.build());
    h.input("left", s, s).input("right", s, s).output("out-inner", s, s).output("out-left", s, s).output("out-outer", s, s);
    left_right(h);
    h.dropped();
    h.finish();
}

TEST_CASE("outer_join_no_grace_before_after") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    const auto w = join_windows::of_time_difference_with_no_grace(4ms).before(0ms);
    lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); }, w).to("out-outer");
    rt.left_join(lt, [](const str& x, const ostr& y) { return x + "+" + show(y); }, w.after(1ms)).to("out-left");
    harness h("outer_join_no_grace_before_after", b.build());
    h.input("left", s, s).input("right", s, s).output("out-outer", s, s).output("out-left", s, s);
    left_right(h);
    h.dropped();
    h.finish();
}

TEST_CASE("joiners_with_key_everywhere") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    auto tab = b.table<str, str>("tab");
    auto glob = b.global_table<str, str>("glob");
    const auto w = join_windows::of_time_difference_with_no_grace(5ms);
    lt.join(rt, [](const str& k, const str& x, const str& y) { return k + ":" + x + "+" + y; }, w).to("out-ss");
    lt.left_join(rt, [](const str& k, const str& x, const ostr& y) { return k + ":" + x + "+" + show(y); }, w).to("out-ssl");
    lt.outer_join(rt, [](const str& k, const ostr& x, const ostr& y) { return k + ":" + show(x) + "+" + show(y); }, w).to("out-sso");
    lt.join(tab, [](const str& k, const str& x, const str& y) { return k + ":" + x + "/" + y; }).to("out-st");
    lt.left_join(tab, [](const str& k, const str& x, const ostr& y) { return k + ":" + x + "/" + show(y); }).to("out-stl");
    const auto first = [](const str&, const str& v) { return v.substr(0, 1); };
    lt.join(glob, first, [](const str& k, const str& x, const str& y) { return k + ":" + x + "#" + y; }).to("out-sg");
    lt.left_join(glob, first, [](const str& k, const str& x, const ostr& y) { return k + ":" + x + "#" + show(y); }).to("out-sgl");
    harness h("joiners_with_key_everywhere", b.build());
    h.input("left", s, s).input("right", s, s).input("tab", s, s).input("glob", s, s);
    h.output("out-ss", s, s).output("out-ssl", s, s).output("out-sso", s, s).output("out-st", s, s).output("out-stl", s, s);
    h.output("out-sg", s, s).output("out-sgl", s, s);
    h.pipe("glob", S("x"), S("GX"), 1);
    h.pipe("tab", S("a"), S("T1"), 2);
    h.pipe("left", S("a"), S("x1"), 10);
    h.pipe("right", S("a"), S("r1"), 12);
    h.pipe("left", S("b"), S("y2"), 13);
    h.pipe("tab", S("b"), S("T2"), 14);
    h.pipe("right", S("b"), S("r2"), 15);
    h.pipe("left", S("b"), S("x3"), 16);
    h.pipe("glob", S("y"), S("GY"), 17);
    h.pipe("left", S("a"), S("y4"), 30);
    h.finish();
}

TEST_CASE("self_join_asymmetric_none") { self_join("self_join_asymmetric_none", nullptr, false); }
TEST_CASE("self_join_asymmetric_all") { self_join("self_join_asymmetric_all", "all", false); }
TEST_CASE("self_left_join_asymmetric_all") { self_join("self_left_join_asymmetric_all", "all", true); }

TEST_CASE("versioned_to_table_joins_reads") {
    streams_builder b;
    auto vt = b.stream<str, str>("updates").to_table(materialized<>::as(stores::persistent_versioned_key_value_store("vt", 20ms)));
    auto other = b.table<str, str>("other");
    vt.to_stream().to("out-vt");
    vt.join(other, plus2).to_stream().to("out-join");
    vt.left_join(other, [](const str& x, const ostr& y) { return x + "+" + show(y); }).to_stream().to("out-left");
    b.stream<str, str>("in")
        .join(vt, [](const str& k, const str& x, const str& y) { return k + ":" + x + "/" + y; }, joined<>{}.with_grace_period(5ms))
        .to("out-stream");
    harness h("versioned_to_table_joins_reads", b.build());
    h.input("updates", s, s).input("other", s, s).input("in", s, s);
    h.output("out-vt", s, s).output("out-join", s, s).output("out-left", s, s).output("out-stream", s, s);
    auto& d = h.driver();
    auto reads = [&] {
        auto& st = d.get_versioned_key_value_store<str, str>("vt");
        h.line("= vt a " + version(st.get("a")) + " a@12 " + version(st.get("a", 12)) + " a@5 " + version(st.get("a", 5)) + " b " +
               version(st.get("b")));
    };
    h.pipe("updates", S("a"), S("A10"), 10);
    h.pipe("other", S("a"), S("O1"), 11);
    h.pipe("updates", S("a"), S("A5"), 5);
    h.pipe("in", S("a"), S("i1"), 7);
    h.pipe("updates", S("a"), S("A20"), 20);
    h.pipe("in", S("a"), S("i2"), 15);
    reads();
    h.pipe("updates", S("a"), null, 14);
    h.pipe("updates", S("b"), S("B1"), 30);
    h.pipe("in", S("a"), S("i3"), 12);
    h.pipe("updates", S("a"), S("A3"), 3);
    h.pipe("in", S("a"), S("i4"), 21);
    reads();
    h.pipe("updates", S("a"), null, 40);
    h.pipe("in", S("a"), S("i5"), 41);
    reads();
    h.dropped();
    h.finish();
}

TEST_CASE("versioned_map_values_filter_reads") {
    streams_builder b;
    auto src = b.table<str, str>("in", materialized<>::as(stores::persistent_versioned_key_value_store("src", 15ms)));
    auto mv = src.map_values([](const str& v) { return v + "!"; },
                             materialized<>::as(stores::persistent_versioned_key_value_store("mv", 15ms)));
    auto fv = mv.filter([](const str&, const str& v) { return v.size() > 3; },
                        materialized<>::as(stores::persistent_versioned_key_value_store("fv", 15ms)));
    mv.to_stream().to("out-mv");
    fv.to_stream().to("out-fv");
    fv.group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k); }).count().to_stream().to("out-count");
    harness h("versioned_map_values_filter_reads", b.build());
    h.input("in", s, s).output("out-mv", s, s).output("out-fv", s, s).output("out-count", s, l);
    auto& d = h.driver();
    auto reads = [&] {
        str line = "=";
        for (const str name : {"src", "mv", "fv"}) {
            auto& st = d.get_versioned_key_value_store<str, str>(name);
            line += " " + name + " " + version(st.get("k")) + " @8 " + version(st.get("k", 8)) + " j " + version(st.get("j"));
        }
        h.line(line);
    };
    h.pipe("in", S("k"), S("abc"), 10);
    h.pipe("in", S("k"), S("x"), 6);
    h.pipe("in", S("j"), S("abcd"), 12);
    reads();
    h.pipe("in", S("k"), S("ab"), 20);
    h.pipe("in", S("k"), S("abcde"), 9);
    h.pipe("in", S("j"), null, 11);
    h.pipe("in", S("k"), null, 30);
    reads();
    h.pipe("in", S("k"), S("late"), 5);
    h.pipe("in", S("j"), S("again"), 31);
    reads();
    h.dropped();
    h.finish();
}

TEST_CASE("papi_timestamped_store_retime_headers") {
    streams_builder b;
    b.add_state_store(stores::timestamped_key_value_store_builder<str, str>(stores::persistent_timestamped_key_value_store("last")));
    auto p = b.stream<str, str>("in").process([] { return std::make_unique<retimer>(); }, named::as("retimer"), {"last"});
    p.to("out");
    show_to(p.group_by_key().windowed_by(time_windows::of_size_and_grace(10ms, 5ms)).count(), "out-windows");
    p.group_by_key().reduce(comma).to_stream().to("out-reduce");
    harness h("papi_timestamped_store_retime_headers", b.build());
    h.input("in", s, s).output("out", s, s).output("out-windows", s, l).output("out-reduce", s, s);
    h.pipe("in", S("a"), S("1"), 10, {"drop=x", "h=1"});
    h.pipe("in", S("a"), S("2"), 4, {"h=2"});
    h.pipe("in", S("b"), S("3"), 25, {"drop=y"});
    h.pipe("in", S("a"), S("4"), 30);
    h.pipe("in", S("a"), S("5"), 22, {"h=5", "drop=z", "h=6"});
    h.pipe("in", S("b"), S("6"), 3);
    auto& d = h.driver();
    h.line("= last " + entries(d.get_timestamped_key_value_store<str, str>("last").all()));
    h.dropped();
    h.finish();
}

TEST_CASE("papi_punctuations_cancelled") {
    streams_builder b;
    b.stream<str, str>("in").process([] { return std::make_unique<ticker>(); }).to("out");
    harness h("papi_punctuations_cancelled", b.build());
    h.input("in", s, s).output("out", s, s);
    h.pipe("in", S("k"), S("v0"), 0);
    h.advance_wall_clock(10);
    h.pipe("in", S("k"), S("v3"), 3);
    h.pipe("in", S("k"), S("v6"), 6);
    h.advance_wall_clock(25);
    h.pipe("in", S("k"), S("v12"), 12);
    h.pipe("in", S("k"), S("v20"), 20);
    h.advance_wall_clock(10);
    h.advance_wall_clock(10);
    h.pipe("in", S("k"), S("v40"), 40);
    h.advance_wall_clock(30);
    h.finish();
}

TEST_CASE("papi_versioned_store_process_values") {
    streams_builder b;
    b.add_state_store(stores::versioned_key_value_store_builder<str, str>(stores::persistent_versioned_key_value_store("pv", 10ms)));
    b.stream<str, str>("in").process_values([] { return std::make_unique<versioned_keeper>(); }, {"pv"}).to("out");
    harness h("papi_versioned_store_process_values", b.build());
    h.input("in", s, s).output("out", s, s);
    for (const auto& [v, t] : std::vector<std::pair<str, i64>>{
             {"v10", 10}, {"v20", 20}, {"v15", 15}, {"del", 17}, {"v30", 30}, {"v12", 12}, {"v19", 19}, {"v21", 21}, {"del", 40}, {"v35", 35}})
        h.pipe("in", S("k"), S(v), t);
    h.finish();
}

TEST_CASE("papi_window_store_process_values") {
    streams_builder b;
    b.add_state_store(stores::window_store_builder<str, str>(stores::persistent_window_store("ws", 30ms, 10ms, false)));
    b.stream<str, str>("in").process_values([] { return std::make_unique<window_keeper>(); }, {"ws"}).to("out");
    harness h("papi_window_store_process_values", b.build());
    h.input("in", s, s).output("out", s, s);
    for (const auto& [v, t] : std::vector<std::pair<str, i64>>{
             {"v5", 5}, {"v15", 15}, {"v12", 12}, {"v41", 41}, {"v11", 11}, {"v19", 19}, {"v60", 60}, {"v31", 31}, {"v30", 30}})
        h.pipe("in", S("k"), S(v), t);
    auto& d = h.driver();
    h.line("= ws " + entries(d.get_window_store<str, str>("ws").all()));
    h.finish();
}

TEST_CASE("windowed_reduce_aggregate_null") {
    streams_builder b;
    auto g = b.stream<str, ostr>("in").group_by_key();
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 5ms))
                .reduce([](const ostr& a, const ostr& c) { return *c == "nul" ? ostr() : ostr(*a + "," + *c); },
                        materialized<>::as("tumble-red").with_caching_disabled()),
            "out-tumbling");
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 5ms).advance_by(5ms))
                .aggregate([] { return ostr(""); },
                           [](const str&, const ostr& v, const ostr& agg) { return *v == "nul" ? ostr() : ostr(show(agg) + "/" + *v); },
                           materialized<>::as("hop-agg").with_caching_disabled()),
            "out-hopping");
    harness h("windowed_reduce_aggregate_null", b.build());
    h.input("in", s, s).output("out-tumbling", s, s).output("out-hopping", s, s);
    for (const auto& [v, t] : std::vector<std::pair<str, i64>>{{"a", 1}, {"b", 3}, {"nul", 4}, {"c", 6}, {"d", 12}, {"nul", 13}, {"e", 14}, {"f", 2}})
        h.pipe("in", S("k"), S(v), t);
    h.dropped();
    h.finish();
}

TEST_CASE("session_aggregate_null") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(session_windows::of_inactivity_gap_and_grace(5ms, 5ms))
                .aggregate([] { return ostr(""); },
                           [](const str&, const str& v, const ostr& agg) -> ostr { return v == "nul" ? ostr() : ostr(show(agg) + "/" + v); },
                           [](const str&, const ostr& a, const ostr& c) -> ostr { return ostr(show(a) + "|" + show(c)); },
                           materialized<>::as("sess-agg").with_caching_disabled()),
            "out-session");
    harness h("session_aggregate_null", b.build());
    h.input("in", s, s).output("out-session", s, s);
    for (const auto& [v, t] : std::vector<std::pair<str, i64>>{{"a", 1}, {"b", 3}, {"nul", 5}, {"c", 7}, {"d", 20}, {"nul", 30}, {"e", 26}, {"f", 12}})
        h.pipe("in", S("k"), S(v), t);
    h.dropped();
    h.finish();
}

TEST_CASE("windowed_to_stream_key_mapper_regrouped") {
    streams_builder b;
    auto counts = b.stream<str, str>("in").group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).count();
    auto st = counts.to_stream([](const windowed<str>& w, i64) { return w.key + "@" + std::to_string(w.window.start); });
    st.to("out-mapped");
    st.group_by_key().reduce([](i64 a, i64 c) { return a + c; }).to_stream().to("out-sum");
    counts.to_stream([](const windowed<str>& w, i64) { return w.key; }).group_by_key().count().to_stream().to("out-changes");
    harness h("windowed_to_stream_key_mapper_regrouped", b.build());
    h.input("in", s, s).output("out-mapped", s, l).output("out-sum", s, l).output("out-changes", s, l);
    for (const auto& [k, t] : std::vector<std::pair<str, i64>>{{"a", 1}, {"a", 5}, {"b", 7}, {"a", 12}, {"a", 3}, {"b", 25}, {"a", 9}})
        h.pipe("in", S(k), S("x"), t);
    h.finish();
}

TEST_CASE("result_timestamps_all_kinds") {
    streams_builder b;
    auto st = b.stream<str, str>("s1");
    auto st2 = b.stream<str, str>("s2");
    auto t1 = b.table<str, str>("t1");
    auto t2 = b.table<str, str>("t2");
    st.join(st2, plus2, join_windows::of_time_difference_with_no_grace(20ms)).to("out-ss");
    st.join(t1, plus2).to("out-st");
    t1.join(t2, plus2).to_stream().to("out-tt");
    t1.outer_join(t2, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); }).to_stream().to("out-tto");
    st.group_by_key().count().to_stream().to("out-count");
    t1.group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k); }).reduce(comma, [](const str& a, const str&) { return a; }).to_stream().to("out-regroup");
    show_to(st.group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).count().suppress(
                suppressed::until_window_closes(buffer_config::unbounded())),
            "out-final");
    harness h("result_timestamps_all_kinds", b.build());
    h.input("s1", s, s).input("s2", s, s).input("t1", s, s).input("t2", s, s);
    h.output("out-ss", s, s).output("out-st", s, s).output("out-tt", s, s).output("out-tto", s, s).output("out-count", s, l);
    h.output("out-regroup", s, s).output("out-final", s, l);
    h.pipe("t1", S("a"), S("x1"), 20);
    h.pipe("t2", S("a"), S("y1"), 5);
    h.pipe("s1", S("a"), S("p"), 8);
    h.pipe("s2", S("a"), S("q"), 15);
    h.pipe("s1", S("a"), S("r"), 3);
    h.pipe("t2", S("a"), S("y2"), 30);
    h.pipe("t1", S("a"), S("x2"), 25);
    h.pipe("t1", S("b"), S("z1"), 2);
    h.pipe("s2", S("a"), S("u"), 1);
    h.pipe("s1", S("a"), S("w"), 40);
    h.pipe("t2", S("a"), null, 35);
    h.pipe("t1", S("a"), null, 22);
    h.finish();
}

TEST_CASE("window_boundaries_every_kind_final") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto final_ = [] { return suppressed::until_window_closes(buffer_config::unbounded()); };
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 2ms)).reduce(comma).suppress(final_()), "out-tumbling");
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 2ms).advance_by(4ms)).reduce(comma).suppress(final_()), "out-hopping");
    show_to(g.windowed_by(sliding_windows::of_time_difference_and_grace(10ms, 2ms)).reduce(comma).suppress(final_()), "out-sliding");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_and_grace(10ms, 2ms)).reduce(comma).suppress(final_()), "out-session");
    harness h("window_boundaries_every_kind_final", b.build());
    h.input("in", s, s).output("out-tumbling", s, s).output("out-hopping", s, s).output("out-sliding", s, s).output("out-session", s, s);
    for (const auto& t : std::vector<i64>{0, 10, 9, 20, 12, 11, 22, 8, 32, 34, 21, 44, 33, 57})
        h.pipe("in", S("k"), S(std::to_string(t)), t);
    h.dropped();
    h.finish();
}

TEST_CASE("hopping_sliding_emit_on_close_in_memory") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 3ms).advance_by(5ms))
                .emit_strategy(emit_strategy::on_window_close())
                .reduce(comma, materialized<>::as("hop-mem").with_in_memory_store()),
            "out-hopping");
    show_to(g.windowed_by(sliding_windows::of_time_difference_and_grace(5ms, 3ms))
                .emit_strategy(emit_strategy::on_window_close())
                .reduce(comma, materialized<>::as("slide-mem").with_in_memory_store()),
            "out-sliding");
    harness h("hopping_sliding_emit_on_close_in_memory", b.build());
    h.input("in", s, s).output("out-hopping", s, s).output("out-sliding", s, s);
    for (const auto& [k, t] : std::vector<std::pair<str, i64>>{
             {"a", 2}, {"a", 7}, {"b", 9}, {"a", 14}, {"a", 5}, {"b", 18}, {"a", 22}, {"a", 11}, {"b", 30}, {"a", 19}, {"a", 50}})
        h.pipe("in", S(k), S(std::to_string(t)), t);
    h.dropped();
    h.finish();
}

namespace {
/// Hunt20Scenarios.pickyTables: a table source refusing "bad..." values, regrouped through a
/// repartition topic refusing "worse..." values; a stream grouped through one refusing "worse...".
void picky_tables(const char* scenario, std::map<str, str> properties) {
    streams_builder b;
    auto tab = b.table<str, str>("tab", consumed<>{}.with_value_serde(picky{"bad"}), materialized<>::as("tab-store"));
    tab.to_stream().to("out-tab");
    tab.group_by([](const str&, const str& v) { return std::pair<str, str>(v.substr(v.size() - 1), v); },
                 grouped<>::as("regroup").with_value_serde(picky{"worse"}))
        .reduce(comma, [](const str& a, const str&) { return a; }, materialized<>::as("regroup-store"))
        .to_stream()
        .to("out-regroup");
    b.stream<str, str>("in")
        .group_by([](const str&, const str& v) { return v.substr(v.size() - 1); }, grouped<>::as("stream-group").with_value_serde(picky{"worse"}))
        .count()
        .to_stream()
        .to("out-count");
    harness h(scenario, b.build(), std::move(properties));
    h.input("tab", s, s).input("in", s, s).output("out-tab", s, s).output("out-regroup", s, s).output("out-count", s, l);
    h.error_output("dlq", s, type::x);
    h.pipe("tab", S("k1"), S("v1"), 1);
    h.pipe("tab", S("k2"), S("bad2"), 2, {"h=1"});
    h.pipe("tab", S("k1"), S("worse1"), 3, {"h=2"});
    h.pipe("tab", S("k1"), S("ok1"), 4);
    h.pipe("tab", S("k3"), S("x2"), 5);
    h.pipe("tab", S("k3"), S("bad"), 6);
    h.pipe("tab", S("k3"), null, 7);
    h.pipe("in", S("s"), S("a1"), 8);
    h.pipe("in", S("s"), S("worse1"), 9, {"h=3"});
    h.pipe("in", S("s"), S("b1"), 10);
    auto& d = h.driver();
    h.line("= tab-store " + entries(d.get_key_value_store<str, str>("tab-store").all()) + "| regroup-store " +
           entries(d.get_key_value_store<str, str>("regroup-store").all()));
    h.dropped();
    h.finish();
}
}  // namespace

TEST_CASE("deserialization_errors_table_repartition") {
    picky_tables("deserialization_errors_table_repartition", continue_on_errors);
}

TEST_CASE("deserialization_errors_table_repartition_dlq") {
    picky_tables("deserialization_errors_table_repartition_dlq", with_dlq(continue_on_errors));
}

TEST_CASE("deserialization_errors_global_table_dlq") {
    streams_builder b;
    auto glob = b.global_table<str, str>("glob", consumed<>{}.with_value_serde(picky{"bad"}), materialized<>::as("glob-store"));
    b.stream<str, str>("in")
        .left_join(glob, [](const str&, const str& v) { return v; }, [](const str& x, const ostr& y) { return x + "#" + show(y); })
        .to("out");
    harness h("deserialization_errors_global_table_dlq", b.build(), with_dlq(continue_on_errors));
    h.input("glob", s, s).input("in", s, s).output("out", s, s).error_output("dlq", s, s);
    h.pipe("glob", S("g1"), S("G1"), 1);
    h.pipe("glob", S("g1"), S("bad1"), 2, {"h=1"});
    h.pipe("glob", S("g2"), S("bad2"), 3);
    h.pipe("in", S("k"), S("g1"), 4);
    h.pipe("in", S("k"), S("g2"), 5);
    auto& d = h.driver();
    h.line("= glob-store " + entries(d.get_key_value_store<str, str>("glob-store").all()));
    h.dropped();
    h.finish();
}

TEST_CASE("processing_errors_forward_then_throw_dlq") {
    streams_builder b;
    auto p = b.stream<str, str>("in").process([] { return std::make_unique<forward_then_throw>(); }, named::as("fwd-throw"));
    p.to("out");
    p.map_values([](const str& v) {
         if (v == "fail!") throw std::logic_error("fail downstream");
         return v + "?";
     }).to("out-mapped");
    p.group_by_key().count().to_stream().to("out-count");
    harness h("processing_errors_forward_then_throw_dlq", b.build(), with_dlq(continue_on_errors));
    h.input("in", s, s).output("out", s, s).output("out-mapped", s, s).output("out-count", s, l).error_output("dlq", s, s);
    h.pipe("in", S("a"), S("ok"), 1, {"h=1"});
    h.pipe("in", S("a"), S("boom"), 2, {"h=2"});
    h.pipe("in", S("b"), S("fail"), 3);
    h.pipe("in", S("a"), S("ok2"), 4);
    h.dropped();
    h.finish();
}

TEST_CASE("suppress_time_limit_table_views") {
    streams_builder b;
    auto src = b.table<str, str>("in", materialized<>::as("src").with_caching_disabled());
    src.suppress(suppressed::until_time_limit(5ms, buffer_config::unbounded())).to_stream().to("out-src");
    auto fil = src.filter([](const str&, const str& v) { return v.size() > 1; });
    fil.suppress(suppressed::until_time_limit(5ms, buffer_config::unbounded())).to_stream().to("out-filter");
    auto sup = src.map_values([](const str& v) { return v + "!"; }).suppress(suppressed::until_time_limit(3ms, buffer_config::max_records(2).emit_early_when_full()));
    sup.join(b.table<str, str>("side"), plus2).to_stream().to("out-join");
    harness h("suppress_time_limit_table_views", b.build());
    h.input("in", s, s).input("side", s, s).output("out-src", s, s).output("out-filter", s, s).output("out-join", s, s);
    h.pipe("side", S("a"), S("S"), 0);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("22"), 2);
    h.pipe("in", S("b"), S("33"), 3);
    h.pipe("in", S("a"), null, 4);
    h.pipe("in", S("c"), S("4"), 6);
    h.pipe("in", S("b"), S("5"), 8);
    h.pipe("side", S("b"), S("T"), 9);
    h.pipe("in", S("a"), S("66"), 9);
    h.pipe("in", S("d"), S("77"), 20);
    h.finish();
}

TEST_CASE("aggregate_null_regroup_table") {
    streams_builder b;
    b.table<str, str>("in")
        .group_by([](const str&, const str& v) { return std::pair<str, str>(v.substr(0, 1), v); })
        .aggregate([] { return ostr(); },
                   [](const str&, const str& v, const ostr& agg) -> ostr {
                       if (v == "nul") return std::nullopt;
                       return ostr(show(agg) + "+" + v);
                   },
                   [](const str&, const str& v, const ostr& agg) -> ostr {
                       if (!agg || agg->size() < 8) return std::nullopt;
                       return ostr(*agg + "-" + v);
                   })
        .to_stream()
        .to("out");
    harness h("aggregate_null_regroup_table", b.build());
    h.input("in", s, s).output("out", s, s);
    h.pipe("in", S("k1"), S("n1"), 1);
    h.pipe("in", S("k2"), S("n2"), 2);
    h.pipe("in", S("k3"), S("nul"), 3);
    h.pipe("in", S("k1"), S("m1"), 4);
    h.pipe("in", S("k4"), S("n4"), 5);
    h.pipe("in", S("k2"), null, 6);
    h.pipe("in", S("k3"), S("m3"), 7);
    h.pipe("in", S("k3"), S("nul"), 8);
    h.finish();
}

TEST_CASE("join_negative_before_shifted") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    const auto w = join_windows::of_time_difference_and_grace(5ms, 1ms).before(-2ms);
    lt.join(rt, plus2, w).to("out-inner");
    lt.left_join(rt, [](const str& x, const ostr& y) { return x + "+" + show(y); }, w).to("out-left");
    lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); }, w.after(2ms)).to("out-outer");
    harness h("join_negative_before_shifted", b.build());
    h.input("left", s, s).input("right", s, s).output("out-inner", s, s).output("out-left", s, s).output("out-outer", s, s);
    left_right(h);
    h.dropped();
    h.finish();
}

TEST_CASE("stream_table_left_join_versioned_grace_with_key") {
    streams_builder b;
    auto vt = b.table<str, str>("tab", materialized<>::as(stores::persistent_versioned_key_value_store("vtab", 30ms)));
    b.stream<str, str>("in")
        .left_join(vt, [](const str& k, const str& x, const ostr& y) { return k + ":" + x + "/" + show(y); },
                   joined<>{}.with_grace_period(4ms))
        .to("out");
    harness h("stream_table_left_join_versioned_grace_with_key", b.build());
    h.input("tab", s, s).input("in", s, s).output("out", s, s);
    h.pipe("tab", S("a"), S("A10"), 10);
    h.pipe("in", S("a"), S("i12"), 12);
    h.pipe("in", S("a"), S("i5"), 5);
    h.pipe("tab", S("a"), S("A4"), 4);
    h.pipe("in", S("b"), S("i14"), 14);
    h.pipe("in", S("a"), S("i9"), 9);
    h.pipe("tab", S("a"), null, 15);
    h.pipe("in", S("a"), S("i16"), 16);
    h.pipe("in", S("a"), S("i11"), 11);
    h.pipe("in", S("a"), S("i30"), 30);
    h.pipe("in", S("a"), S("i25"), 25);
    h.pipe("tab", S("a"), S("A20"), 20);
    h.pipe("in", S("a"), S("i27"), 27);
    h.dropped();
    h.finish();
}

TEST_CASE("repartition_partitioned_windowed_count") {
    streams_builder b;
    const auto by_length = [](std::string_view, const str&, const str& v, std::int32_t n) {
        return std::optional<std::int32_t>(static_cast<std::int32_t>(v.size()) % n);
    };
    auto rp = b.stream<str, str>("in").repartition(
        repartitioned<>::as("rp").with_number_of_partitions(3).with_stream_partitioner(by_length));
    show_to(rp.group_by_key().windowed_by(time_windows::of_size_and_grace(10ms, 2ms)).count(), "out-windows");
    rp.to("out-rp");
    harness h("repartition_partitioned_windowed_count", b.build());
    h.input("in", s, s).output("out-windows", s, l).output("out-rp", s, s);
    for (const auto& [k, v, t] : std::vector<std::tuple<str, str, i64>>{
             {"a", "x", 1}, {"a", "xx", 3}, {"b", "xxx", 12}, {"a", "x", 2}, {"a", "xxxx", 11}, {"a", "xx", 9}, {"b", "x", 25}, {"a", "xxx", 7}})
        h.pipe("in", S(k), S(v), t);
    h.dropped();
    h.finish();
}

// Wire formats of internal topics, in hex: the stores of an outer join (this, other, shared), of
// a left join, a table regroup's repartition topic (changes with old and new values), suppression
// buffers.
TEST_CASE("wire_outer_join_store_changelogs") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); },
                  join_windows::of_time_difference_and_grace(6ms, 2ms).before(1ms))
        .to("out");
    harness h("wire_outer_join_store_changelogs", b.build());
    h.input("left", s, s).input("right", s, s).output("out", s, s);
    h.output("conformance-KSTREAM-OUTERTHIS-0000000004-store-changelog", type::x, type::x);
    h.output("conformance-KSTREAM-OUTEROTHER-0000000005-store-changelog", type::x, type::x);
    h.output("conformance-KSTREAM-OUTERSHARED-0000000004-store-changelog", type::x, type::x);
    left_right(h);
    h.finish();
}

TEST_CASE("wire_left_join_store_changelogs") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    lt.left_join(rt, [](const str& x, const ostr& y) { return x + "+" + show(y); },
                 join_windows::of_time_difference_and_grace(6ms, 2ms).after(1ms))
        .to("out");
    harness h("wire_left_join_store_changelogs", b.build());
    h.input("left", s, s).input("right", s, s).output("out", s, s);
    h.output("conformance-KSTREAM-JOINTHIS-0000000004-store-changelog", type::x, type::x);
    h.output("conformance-KSTREAM-OUTEROTHER-0000000005-store-changelog", type::x, type::x);
    h.output("conformance-KSTREAM-OUTERSHARED-0000000004-store-changelog", type::x, type::x);
    left_right(h);
    h.finish();
}

TEST_CASE("wire_suppress_changelogs") {
    streams_builder b;
    b.table<str, str>("in")
        .suppress(suppressed::until_time_limit(5ms, buffer_config::unbounded()).with_name("sup-t"))
        .to_stream()
        .to("out-t");
    show_to(b.stream<str, str>("s")
                .group_by_key()
                .windowed_by(time_windows::of_size_and_grace(10ms, 2ms))
                .count()
                .suppress(suppressed::until_window_closes(buffer_config::unbounded()).with_name("sup-w")),
            "out-w");
    harness h("wire_suppress_changelogs", b.build());
    h.input("in", s, s).input("s", s, s).output("out-t", s, s).output("out-w", s, l);
    h.output("conformance-sup-t-store-changelog", s, type::x).output("conformance-sup-w-store-changelog", type::x, type::x);
    h.pipe("in", S("a"), S("1"), 1, {"h=1"});
    h.pipe("in", S("a"), S("2"), 2);
    h.pipe("in", S("b"), null, 3);
    h.pipe("s", S("x"), S("p"), 4, {"g=2"});
    h.pipe("s", S("x"), S("q"), 6);
    h.pipe("in", S("a"), null, 7);
    h.pipe("s", S("y"), S("r"), 14);
    h.pipe("in", S("c"), S("3"), 20);
    h.finish();
}

TEST_CASE("wire_table_regroup_repartition") {
    streams_builder b;
    b.table<str, str>("in")
        .group_by([](const str&, const str& v) { return std::pair<str, str>(v.substr(0, 1), v); }, grouped<>::as("rg"))
        .reduce(comma, [](const str& a, const str& c) {
            str r = a;  // Java's String.replace: every occurrence
            for (auto i = r.find(c); i != str::npos; i = r.find(c, i)) r.erase(i, c.size());
            return r;
        })
        .to_stream()
        .to("out");
    harness h("wire_table_regroup_repartition", b.build());
    h.input("in", s, s).output("out", s, s).output("conformance-rg-repartition", s, type::x);
    const str long_value = "b0123456789012345678901234567890123456789012345678901234567890123456789";
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k1"), S("a22"), 2, {"h=1"});
    h.pipe("in", S("k1"), S("b1"), 3);
    h.pipe("in", S("k2"), S(long_value), 4);
    h.pipe("in", S("k2"), S(long_value + "x"), 5);
    h.pipe("in", S("k1"), null, 6);
    h.pipe("in", S("k2"), S("c"), 7);
    h.finish();
}

TEST_CASE("wire_outer_join_same_time_list") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    lt.outer_join(rt, [](const ostr& x, const ostr& y) { return show(x) + "+" + show(y); },
                  join_windows::of_time_difference_with_no_grace(3ms))
        .to("out");
    harness h("wire_outer_join_same_time_list", b.build());
    h.input("left", s, s).input("right", s, s).output("out", s, s);
    h.output("conformance-KSTREAM-OUTERSHARED-0000000004-store-changelog", type::x, type::x);
    h.pipe("left", S("a"), S("L1"), 10);
    h.pipe("left", S("a"), S("L2"), 10);
    h.pipe("right", S("b"), S("R1"), 10);
    h.pipe("left", S("a"), S("L3"), 10);
    h.pipe("right", S("b"), S("R2"), 11);
    h.pipe("right", S("a"), S("R3"), 12);
    h.pipe("left", S("c"), S("L4"), 30);
    h.finish();
}

// The stream-table join's grace buffer changelog: time-first keys, records with no timestamp.
TEST_CASE("wire_stream_table_grace_buffer") {
    streams_builder b;
    auto vt = b.table<str, str>("tab", materialized<>::as(stores::persistent_versioned_key_value_store("vtab", 30ms)));
    b.stream<str, str>("in")
        .join(vt, [](const str& x, const str& y) { return x + "/" + y; }, joined<>{}.with_grace_period(4ms))
        .to("out");
    harness h("wire_stream_table_grace_buffer", b.build());
    h.input("tab", s, s).input("in", s, s).output("out", s, s);
    h.output("conformance-KSTREAM-JOIN-0000000003-Buffer-changelog", type::x, type::x).output("conformance-vtab-changelog", s, type::x);
    h.pipe("tab", S("a"), S("A10"), 10);
    h.pipe("in", S("a"), S("i12"), 12, {"h=1"});
    h.pipe("in", S("a"), S("i5"), 5);
    h.pipe("tab", S("a"), S("A4"), 4);
    h.pipe("in", S("a"), S("i16"), 16);
    h.pipe("tab", S("a"), null, 15);
    h.pipe("in", S("a"), S("i30"), 30);
    h.finish();
}

}  // TEST_SUITE
