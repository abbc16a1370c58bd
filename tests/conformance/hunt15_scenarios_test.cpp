// Conformance: scenarios of the fifteenth hunt, written as java/.../Hunt15Scenarios.java writes
// them, compared with Java Kafka Streams' outputs: the Processor API mixed with the DSL
// (forwarding to named DSL children, new timestamps and headers into windows, punctuations of two
// processors, DSL stores read by a processor), groupings by another key type, windowed roll-ups,
// views of windowed tables under suppression, time-limited suppression with wall-clock advances,
// table round trips through streams, join names, timestamp extractors on every source kind, topics
// written and read back, pattern and multi-topic sources, windows near the epoch.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/timestamp_extractors.hpp>

#include "harness.hpp"
#include "store_entries.hpp"
#include "windowed_show.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using ostr = std::optional<std::string>;
using i64 = std::int64_t;
using i32 = std::int32_t;
using type::l;
using type::s;

namespace {

auto concat = [](const str& x, const str& y) { return x + "+" + y; };

/// Routes by the value's first letter: "a" to the child "to-a" (value + "!"), "b" to "to-b" at
/// timestamp + 100, "s" to the sink "sink-all", "n" nowhere, anything else to every child.
struct router : processor<ostr, str, ostr, str> {
    void process(const record<ostr, str>& r) override {
        const str& v = r.value;
        if (v.starts_with("a")) context().forward(r.with_value(v + "!"), "to-a");
        else if (v.starts_with("b")) context().forward(r.with_timestamp(r.timestamp + 100), "to-b");
        else if (v.starts_with("s")) context().forward(r.with_value(v + "$"), "sink-all");
        else if (!v.starts_with("n")) context().forward(r);
    }
};

/// Doubles the timestamp and adds a header "n" counting records seen (per task).
struct retimer : fixed_key_processor<str, str, str> {
    int n = 0;
    void process(const record<str, str>& r) override {
        auto hs = r.headers;
        hs.add("n", std::to_string(++n));
        context().forward(r.with_timestamp(r.timestamp * 2).with_headers(hs).with_value(r.value + "@" + std::to_string(r.timestamp)));
    }
};

/// Forwards each record, and on a stream-time punctuation every `interval` a record
/// name -> "tick@<time>:<records seen>".
struct ticker : processor<str, str, str, str> {
    str name;
    std::chrono::milliseconds interval;
    int seen = 0;
    ticker(str n, std::chrono::milliseconds i) : name(std::move(n)), interval(i) {}
    void init(context_type& ctx) override {
        processor::init(ctx);
        ctx.schedule(interval, punctuation_type::stream_time, [this](i64 ts) {
            context().forward(record<str, str>{name, "tick@" + std::to_string(ts) + ":" + std::to_string(seen), ts});
        });
    }
    void process(const record<str, str>& r) override {
        ++seen;
        context().forward(r.with_value(r.value + "|" + name));
    }
};

/// Reads the DSL count store "counts" for the looked-up key.
struct count_lookup : processor<str, str, str, str> {
    timestamped_key_value_store<str, i64>* counts = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        counts = &ctx.get_state_store<timestamped_key_value_store<str, i64>>("counts");
    }
    void process(const record<str, str>& r) override {
        const auto c = counts->get(r.value);
        context().forward(r.with_value(r.value + "=" + (c ? std::to_string(c->value) + "@" + std::to_string(c->timestamp) : str("none"))));
    }
};

/// Re-keys by the value's first letter; keeps the last value and timestamp per new key in a
/// timestamped store and forwards "previous>value" at the previous record's timestamp.
struct last_by_letter : processor<str, str, str, str> {
    timestamped_key_value_store<str, str>* last = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        last = &ctx.get_state_store<timestamped_key_value_store<str, str>>("last");
    }
    void process(const record<str, str>& r) override {
        const str k = r.value.substr(0, 1);
        const auto prev = last->get(k);
        last->put(k, value_and_timestamp<str>{r.value, r.timestamp});
        const i64 ts = prev ? prev->timestamp : r.timestamp;
        context().forward(record<str, str>{k, (prev ? prev->value : str("none")) + ">" + r.value, ts});
    }
};

/// Hunt15Scenarios' extractor: the value's "payload@ts" time; a null value takes the partition time.
i64 at_time(const ostr&, const ostr& v, i64 partition_time) {
    if (!v) return partition_time;
    return std::stoll(v->substr(v->find('@') + 1));
}

/// Writes each record into four logged stores: "kv" (cached; value "del" deletes), "ts"
/// (timestamped, at timestamp + 1), "win" (window of start timestamp - timestamp % 10) and "sess"
/// (cached; session [timestamp, timestamp + 5]); a stream-time punctuation every 20 ms puts
/// "punct" -> "@time" into "kv". Forwards "ok".
struct store_writer : processor<str, str, str, str> {
    key_value_store<str, str>* kv = nullptr;
    timestamped_key_value_store<str, str>* ts = nullptr;
    window_store<str, str>* win = nullptr;
    session_store<str, str>* sess = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        kv = &ctx.get_state_store<key_value_store<str, str>>("kv");
        ts = &ctx.get_state_store<timestamped_key_value_store<str, str>>("ts");
        win = &ctx.get_state_store<window_store<str, str>>("win");
        sess = &ctx.get_state_store<session_store<str, str>>("sess");
        ctx.schedule(20ms, punctuation_type::stream_time, [this](i64 t) { kv->put("punct", "@" + std::to_string(t)); });
    }
    void process(const record<str, str>& r) override {
        if (r.value == "del") kv->remove(r.key);
        else kv->put(r.key, r.value);
        ts->put(r.key, value_and_timestamp<str>{r.value, r.timestamp + 1});
        win->put(r.key, r.value, r.timestamp - r.timestamp % 10);
        sess->put(windowed<str>{r.key, {r.timestamp, r.timestamp + 5}}, r.value);
        context().forward(r.with_value(str("ok")));
    }
};

/// Forwards the value with the record's topic and offset and its timestamp.
struct where : processor<str, str, str, str> {
    void process(const record<str, str>& r) override {
        const auto m = context().metadata();
        context().forward(r.with_value(r.value + "|" + (m ? str(m->topic) + "@" + std::to_string(m->offset) : str("none")) + "|" +
                                       std::to_string(r.timestamp)));
    }
};

/// Wall-clock punctuations every 10 and 33 ms forward "w10@time" / "w33@time"; records forward
/// their value with the wall-clock time.
struct wall_ticker : processor<str, str, str, str> {
    void init(context_type& ctx) override {
        processor::init(ctx);
        ctx.schedule(10ms, punctuation_type::wall_clock_time,
                     [this](i64 t) { context().forward(record<str, str>{"w10", "@" + std::to_string(t), t}); });
        ctx.schedule(33ms, punctuation_type::wall_clock_time,
                     [this](i64 t) { context().forward(record<str, str>{"w33", "@" + std::to_string(t), t}); });
    }
    void process(const record<str, str>& r) override {
        context().forward(r.with_value(r.value + "@" + std::to_string(context().current_system_time_ms())));
    }
};

/// Counts values per key in the connected store "seen" and appends the count.
struct seen_counter : fixed_key_processor<str, str, str> {
    key_value_store<str, i64>* seen = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        seen = &ctx.get_state_store<key_value_store<str, i64>>("seen");
    }
    void process(const record<str, str>& r) override {
        const i64 c = seen->get(r.key).value_or(0) + 1;
        seen->put(r.key, c);
        context().forward(r.with_value(r.value + "#" + std::to_string(c)));
    }
};

std::vector<str> side_effects;

/// Pipes a record, then prints the side effects it caused (peek / foreach), as "! " lines.
void pipe_logged(harness& h, const str& topic, const datum& key, const datum& value, i64 ts) {
    h.pipe(topic, key, value, ts);
    for (const auto& l : side_effects) h.line("! " + l);
    side_effects.clear();
}

/// Forwards its record untouched (a processor for shaping topologies).
struct pass : processor<str, str, str, str> {
    void process(const record<str, str>& r) override { context().forward(r); }
};

/// A global store's update processor: keeps the value.
struct keep_global : processor<str, str, str, str> {
    key_value_store<str, str>* store = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        store = &ctx.get_state_store<key_value_store<str, str>>("glob");
    }
    void process(const record<str, str>& r) override { store->put(r.key, r.value); }
};

/// Reads the DSL's windowed count "wcnt" and session count "scnt" for the value as key.
struct window_reader : processor<str, str, str, str> {
    window_store<str, value_and_timestamp<i64>>* wcnt = nullptr;
    session_store<str, i64>* scnt = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        wcnt = &ctx.get_state_store<window_store<str, value_and_timestamp<i64>>>("wcnt");
        scnt = &ctx.get_state_store<session_store<str, i64>>("scnt");
    }
    void process(const record<str, str>& r) override {
        context().forward(r.with_value(entries(wcnt->fetch(r.value, 0, r.timestamp)) + "| " + entries(wcnt->backward_fetch_all(0, 100)) +
                                       "| " + entries(scnt->fetch(r.value))));
    }
};


}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("papi_route_to_named_dsl_children") {
    streams_builder b;
    auto r = b.stream<ostr, str>("in").process([] { return std::make_unique<router>(); }, named::as("router"));
    r.filter([](const str& v) { return !v.ends_with("x"); }, named::as("to-a")).to("out-a");
    r.map_values([](const str& v) { return v + "#"; }, named::as("to-b")).to("out-b");
    r.to("out-all", produced<>{}.with_name("sink-all"));
    harness h("papi_route_to_named_dsl_children", b.build());
    h.input("in", s, s).output("out-a", s, s).output("out-b", s, s).output("out-all", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("b2"), 2);
    h.pipe("in", S("k3"), S("c3"), 3);
    h.pipe("in", S("k4"), S("n4"), 4);
    h.pipe("in", S("k5"), S("ax"), 5);
    h.pipe("in", S("k6"), S("s6"), 6);
    h.pipe("in", null, S("c7"), 7, {"h=7"});
    h.finish();
}

TEST_CASE("process_values_retimed_into_windows") {
    streams_builder b;
    auto p = b.stream<str, str>("in").process_values([] { return std::make_unique<retimer>(); }, named::as("retime"));
    p.to("out");
    show_to(p.group_by_key().windowed_by(time_windows::of_size_and_grace(10ms, 5ms)).count(), "out-count");
    harness h("process_values_retimed_into_windows", b.build());
    h.input("in", s, s).output("out", s, s).output("out-count", s, l);
    h.pipe("in", S("a"), S("1"), 1, {"x=1"});
    h.pipe("in", S("a"), S("2"), 4);
    h.pipe("in", S("b"), S("3"), 6, {"x=3"});
    h.pipe("in", S("a"), S("4"), 3);
    h.pipe("in", S("a"), S("5"), 13);
    h.pipe("in", S("a"), S("6"), 8);
    h.pipe("in", S("b"), S("7"), 5);
    h.dropped();
    h.finish();
}

TEST_CASE("stream_time_punctuations_chained") {
    streams_builder b;
    b.stream<str, str>("in")
        .process([] { return std::make_unique<ticker>("p1", 10ms); }, named::as("p1"))
        .process([] { return std::make_unique<ticker>("p2", 25ms); }, named::as("p2"))
        .to("out");
    harness h("stream_time_punctuations_chained", b.build());
    h.input("in", s, s).output("out", s, s);
    h.pipe("in", S("a"), S("1"), 3);
    h.pipe("in", S("a"), S("2"), 12);
    h.pipe("in", S("b"), S("3"), 9);
    h.pipe("in", S("b"), S("4"), 27);
    h.pipe("in", S("a"), S("5"), 80);
    h.advance_wall_clock(1000);
    h.pipe("in", S("a"), S("6"), 81);
    h.pipe("in", S("a"), S("7"), 100);
    h.finish();
}

TEST_CASE("papi_reads_dsl_count_store") {
    streams_builder b;
    b.stream<str, str>("in").group_by_key().count(materialized<>::as("counts")).to_stream().to("out-count");
    b.stream<str, str>("lookups").process([] { return std::make_unique<count_lookup>(); }, named::as("lookup"), {"counts"}).to("out");
    harness h("papi_reads_dsl_count_store", b.build());
    h.input("in", s, s).input("lookups", s, s).output("out-count", s, l).output("out", s, s);
    h.pipe("lookups", S("q1"), S("a"), 1);
    h.pipe("in", S("a"), S("x"), 5);
    h.pipe("in", S("a"), S("y"), 3);
    h.pipe("lookups", S("q2"), S("a"), 2);
    h.pipe("in", S("b"), S("z"), 9);
    h.pipe("lookups", S("q3"), S("b"), 4);
    h.pipe("lookups", S("q4"), S("c"), 10);
    h.finish();
}

TEST_CASE("process_rekey_timestamped_store") {
    streams_builder b;
    b.add_state_store(stores::timestamped_key_value_store_builder<str, str>(stores::persistent_timestamped_key_value_store("last")));
    auto p = b.stream<str, str>("in").process([] { return std::make_unique<last_by_letter>(); }, {"last"});
    p.group_by_key().reduce([](const str& x, const str& y) { return x + "," + y; }).to_stream().to("out-reduce");
    p.to_table(named::as("pt"), materialized<>::as("pt-store")).to_stream().to("out-table");
    harness h("process_rekey_timestamped_store", b.build());
    h.input("in", s, s).output("out-reduce", s, s).output("out-table", s, s);
    h.pipe("in", S("k1"), S("a1"), 10);
    h.pipe("in", S("k2"), S("a2"), 5);
    h.pipe("in", S("k3"), S("b3"), 7);
    h.pipe("in", S("k1"), S("a4"), 20);
    h.pipe("in", S("k4"), S("b5"), 1);
    h.finish();
}

TEST_CASE("group_by_integer_key") {
    streams_builder b;
    auto g = b.stream<ostr, ostr>("in").group_by([](const ostr&, const ostr& v) { return v ? static_cast<i32>(v->size()) : i32(-1); },
                                                 grouped<>::as("by-len").with_key_serde(serde<i32>{}).with_value_serde(serde<ostr>{}));
    g.count().to_stream().to("out-count");
    g.reduce([](const ostr& x, const ostr& y) { return ostr(*x + "+" + *y); })
        .to_stream()
        .map_values([](const i32& k, const ostr& v) { return std::to_string(k) + ":" + *v; })
        .to("out-reduce");
    g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count().to_stream().to("out-windowed");
    harness h("group_by_integer_key", b.build());
    h.input("in", s, s).output("out-count", type::i, l).output("out-reduce", type::i, s).output("out-windowed", type::x, l);
    h.pipe("in", S("k1"), S("ab"), 1);
    h.pipe("in", S("k2"), S("cd"), 2);
    h.pipe("in", S("k3"), S("efg"), 3);
    h.pipe("in", null, S("hi"), 12);
    h.pipe("in", S("k1"), S(""), 4);
    h.pipe("in", S("k1"), null, 5);
    h.finish();
}

TEST_CASE("windowed_rollup_chain") {
    streams_builder b;
    auto fine = b.stream<str, str>("in")
                    .group_by_key()
                    .windowed_by(time_windows::of_size_with_no_grace(5ms))
                    .count()
                    .to_stream()
                    .map([](const windowed<str>& w, i64 c) { return std::pair<str, i64>(w.key, c); });
    show_to(fine.group_by_key().windowed_by(time_windows::of_size_with_no_grace(20ms)).reduce([](i64 x, i64 y) { return x + y; }), "out-sum");
    auto closed = b.stream<str, str>("in")
                      .group_by_key()
                      .windowed_by(time_windows::of_size_and_grace(5ms, 1ms))
                      .emit_strategy(emit_strategy::on_window_close())
                      .count(materialized<>::as("fine-close"))
                      .to_stream()
                      .map([](const windowed<str>& w, i64 c) { return std::pair<str, i64>(w.key, c); });
    show_to(closed.group_by_key(grouped<>::as("closed")).windowed_by(time_windows::of_size_with_no_grace(20ms)).reduce([](i64 x, i64 y) { return x + y; }),
            "out-close-sum");
    harness h("windowed_rollup_chain", b.build());
    h.input("in", s, s).output("out-sum", s, l).output("out-close-sum", s, l);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 3);
    h.pipe("in", S("b"), S("3"), 4);
    h.pipe("in", S("a"), S("4"), 7);
    h.pipe("in", S("a"), S("5"), 12);
    h.pipe("in", S("b"), S("6"), 19);
    h.pipe("in", S("a"), S("7"), 21);
    h.pipe("in", S("a"), S("8"), 26);
    h.pipe("in", S("b"), S("9"), 45);
    h.finish();
}

TEST_CASE("windowed_views_suppressed") {
    streams_builder b;
    auto c = b.stream<str, str>("in").group_by_key().windowed_by(time_windows::of_size_and_grace(10ms, 2ms)).count();
    show_to(c.filter([](i64 v) { return v >= 2; }).suppress(suppressed::until_window_closes(buffer_config::unbounded())), "out-filter");
    show_to(c.map_values([](i64 v) { return "n" + std::to_string(v); })
                .suppress(suppressed::until_window_closes(buffer_config::unbounded()).with_name("mv-sup")),
            "out-mapped");
    show_to(c.filter_not([](i64 v) { return v >= 2; }, named::as("fnot")).suppress(suppressed::until_window_closes(buffer_config::unbounded())),
            "out-filter-not");
    harness h("windowed_views_suppressed", b.build());
    h.input("in", s, s).output("out-filter", s, l).output("out-mapped", s, s).output("out-filter-not", s, l);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("b"), S("2"), 2);
    h.pipe("in", S("a"), S("3"), 5);
    h.pipe("in", S("c"), S("4"), 11);
    h.pipe("in", S("b"), S("5"), 9);
    h.pipe("in", S("a"), S("6"), 12);
    h.pipe("in", S("c"), S("7"), 13);
    h.pipe("in", S("a"), S("8"), 25);
    h.pipe("in", S("c"), S("9"), 40);
    h.finish();
}

TEST_CASE("suppress_time_limit_wall_clock") {
    streams_builder b;
    auto t = b.table<str, str>("in");
    t.suppress(suppressed::until_time_limit(10ms, buffer_config::unbounded())).to_stream().to("out");
    t.suppress(suppressed::until_time_limit(10ms, buffer_config::max_records(2).emit_early_when_full())).to_stream().to("out-eager");
    harness h("suppress_time_limit_wall_clock", b.build());
    h.input("in", s, s).output("out", s, s).output("out-eager", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.advance_wall_clock(50);
    h.pipe("in", S("b"), S("2"), 2);
    h.pipe("in", S("a"), S("3"), 3);
    h.advance_wall_clock(50);
    h.pipe("in", S("c"), S("4"), 4);
    h.pipe("in", S("a"), null, 11);
    h.advance_wall_clock(1000);
    h.pipe("in", S("d"), S("5"), 12);
    h.pipe("in", S("b"), S("6"), 30);
    h.finish();
}

TEST_CASE("table_stream_round_trips") {
    streams_builder b;
    auto t = b.table<str, str>("in");
    auto copy = t.to_stream().to_table(materialized<>::as("copy"));
    auto plain = t.to_stream().map_values([](const ostr& v) { return v ? ostr(*v + "!") : ostr(); }).to_table();
    copy.join(plain, [](const str& x, const ostr& y) { return x + "&" + *y; }).to_stream().to("out-join");
    plain.filter([](const ostr& v) { return !v->starts_with("x"); }).to_stream().to("out-filter");
    copy.group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k); }).count().to_stream().to("out-count");
    harness h("table_stream_round_trips", b.build());
    h.input("in", s, s).output("out-join", s, s).output("out-filter", s, s).output("out-count", s, l);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("x2"), 2);
    h.pipe("in", S("k1"), S("b3"), 3);
    h.pipe("in", S("k3"), null, 4);
    h.pipe("in", S("k2"), null, 5);
    h.pipe("in", S("k1"), S("b3"), 6);
    h.finish();
}

TEST_CASE("join_names_rekeyed") {
    streams_builder b;
    auto lt = b.stream<str, str>("left").select_key([](const str& v) { return v.substr(0, 1); });
    auto rt = b.stream<str, str>("right").select_key([](const str& v) { return v.substr(0, 1); });
    lt.join(rt, concat, join_windows::of_time_difference_with_no_grace(5ms), stream_joined<>{}.with_name("sj").with_store_name("sj-store"))
        .to("out-ss");
    lt.left_join(b.table<str, str>("table"), [](const str& x, const ostr& y) { return x + "/" + show(y); }, joined<>::as("jt")).to("out-st");
    rt.outer_join(lt, [](const ostr& x, const ostr& y) { return show(x) + "|" + show(y); },
                  join_windows::of_time_difference_and_grace(2ms, 1ms), stream_joined<>::as("oj-store").with_name("oj"))
        .to("out-outer");
    harness h("join_names_rekeyed", b.build());
    h.input("left", s, s).input("right", s, s).input("table", s, s).output("out-ss", s, s).output("out-st", s, s).output("out-outer", s, s);
    h.pipe("table", S("a"), S("TA"), 1);
    h.pipe("left", S("k1"), S("a1"), 2);
    h.pipe("right", S("k2"), S("a2"), 3);
    h.pipe("left", S("k3"), S("b3"), 4);
    h.pipe("right", S("k4"), S("b9"), 9);
    h.pipe("left", S("k5"), S("a20"), 20);
    h.finish();
}

TEST_CASE("extractors_on_all_sources") {
    streams_builder b;
    const auto c = consumed<>{}.with_timestamp_extractor(timestamp_extractors::from_record<ostr, ostr>(at_time));
    auto st = b.stream<str, str>("in", c);
    auto t = b.table<str, str>("table", c);
    auto g = b.global_table<str, str>("global", c);
    st.left_join(t, [](const str& x, const ostr& y) { return x + "/" + show(y); }).to("out-table");
    st.join(g, [](const str& k, const str&) { return k; }, [](const str& x, const str& y) { return x + "/" + y; }).to("out-global");
    t.to_stream().to("out-changes");
    harness h("extractors_on_all_sources", b.build());
    h.input("in", s, s).input("table", s, s).input("global", s, s).output("out-table", s, s).output("out-global", s, s).output("out-changes", s, s);
    h.pipe("table", S("a"), S("t@5"), 100);
    h.pipe("global", S("a"), S("g@7"), 100);
    h.pipe("in", S("a"), S("s@3"), 100);
    h.pipe("in", S("a"), S("s@-1"), 100);
    h.pipe("table", S("a"), null, 100);
    h.pipe("in", S("a"), S("s@9"), 1);
    h.pipe("table", S("b"), S("t@-5"), 100);
    h.pipe("in", S("b"), S("s@10"), 100);
    h.dropped();
    h.finish();
}

TEST_CASE("written_topic_read_back") {
    streams_builder b;
    b.stream<str, str>("in").map_values([](const str& v) { return v + "!"; }).to("mid");
    auto mid = b.stream<str, str>("mid").map_values([](const str& v) { return v + "?"; });
    mid.to("out");
    mid.to("gmid");
    auto g = b.global_table<str, str>("gmid", materialized<>::as("gmid-store"));
    b.stream<str, str>("probe")
        .left_join(g, [](const str&, const str& v) { return v; }, [](const str& x, const ostr& y) { return x + "/" + show(y); })
        .to("out-probe");
    harness h("written_topic_read_back", b.build());
    h.input("in", s, s).input("probe", s, s).output("mid", s, s).output("out", s, s).output("gmid", s, s).output("out-probe", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("b"), S("2"), 2);
    h.pipe("probe", S("p"), S("a"), 3);
    h.pipe("in", S("a"), S("3"), 0);
    h.pipe("probe", S("p"), S("a"), 4);
    h.pipe("probe", S("p"), S("c"), 5);
    h.finish();
}

TEST_CASE("multi_topic_and_pattern_sources") {
    streams_builder b;
    b.stream<str, str>({"t1", "t2"}).group_by_key().count().to_stream().to("out-count");
    b.stream_pattern<str, str>("p-.*").map_values([](const str& k, const str& v) { return k + ":" + v; }).to("out-pattern");
    harness h("multi_topic_and_pattern_sources", b.build());
    h.input("t1", s, s).input("t2", s, s).input("p-x", s, s).input("p-y", s, s).output("out-count", s, l).output("out-pattern", s, s);
    h.pipe("t1", S("a"), S("1"), 1);
    h.pipe("t2", S("a"), S("2"), 2);
    h.pipe("p-x", S("b"), S("3"), 3);
    h.pipe("t2", S("b"), S("4"), 4);
    h.pipe("p-y", S("c"), S("5"), 5);
    h.finish();
}

TEST_CASE("windows_near_epoch") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms).advance_by(3ms)).count(), "out-hop");
    show_to(g.windowed_by(sliding_windows::of_time_difference_with_no_grace(5ms)).count(), "out-sliding");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(3ms)).count(), "out-session");
    harness h("windows_near_epoch", b.build());
    h.input("in", s, s).output("out-hop", s, l).output("out-sliding", s, l).output("out-session", s, l);
    h.pipe("in", S("a"), S("1"), 0);
    h.pipe("in", S("a"), S("2"), 2);
    h.pipe("in", S("a"), S("3"), 1);
    h.pipe("in", S("a"), S("4"), 6);
    h.pipe("in", S("b"), S("5"), 0);
    h.finish();
}

TEST_CASE("session_views_suppressed") {
    streams_builder b;
    auto sw = b.stream<str, str>("in").group_by_key().windowed_by(session_windows::of_inactivity_gap_and_grace(5ms, 2ms)).reduce(concat);
    show_to(sw.map_values([](const str& v) { return "[" + v + "]"; }).suppress(suppressed::until_window_closes(buffer_config::unbounded())),
            "out-mapped");
    show_to(sw.filter([](const str& v) { return v.find('+') != str::npos; }).suppress(suppressed::until_window_closes(buffer_config::unbounded())),
            "out-filter");
    harness h("session_views_suppressed", b.build());
    h.input("in", s, s).output("out-mapped", s, s).output("out-filter", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 10);
    h.pipe("in", S("a"), S("3"), 5);
    h.pipe("in", S("b"), S("4"), 6);
    h.pipe("in", S("a"), S("5"), 20);
    h.pipe("in", S("b"), S("6"), 30);
    h.pipe("in", S("a"), S("7"), 40);
    h.finish();
}

TEST_CASE("papi_store_changelogs") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, str>(stores::in_memory_key_value_store("kv")).with_caching_enabled());
    b.add_state_store(stores::timestamped_key_value_store_builder<str, str>(stores::persistent_timestamped_key_value_store("ts")));
    b.add_state_store(stores::window_store_builder<str, str>(stores::in_memory_window_store("win", 50ms, 10ms, false)));
    b.add_state_store(stores::session_store_builder<str, str>(stores::in_memory_session_store("sess", 50ms)).with_caching_enabled());
    b.stream<str, str>("in").process([] { return std::make_unique<store_writer>(); }, {"kv", "ts", "win", "sess"}).to("out");
    harness h("papi_store_changelogs", b.build());
    h.input("in", s, s).output("out", s, s).output("conformance-kv-changelog", s, s).output("conformance-ts-changelog", s, s);
    h.output("conformance-win-changelog", type::x, s).output("conformance-sess-changelog", type::x, s);
    h.pipe("in", S("a"), S("1"), 3, {"h=1"});
    h.pipe("in", S("b"), S("2"), 12);
    h.pipe("in", S("a"), S("3"), 14, {"h=3", "g=x"});
    h.pipe("in", S("a"), S("del"), 25, {"h=del"});
    h.pipe("in", S("b"), S("5"), 41);
    h.finish();
}

TEST_CASE("dsl_store_changelogs") {
    streams_builder b;
    b.table<str, str>("tin", materialized<>::as("tstore")).to_stream().to("out-table");
    auto g = b.stream<str, str>("in").group_by_key();
    g.count(materialized<>::as("cnt")).to_stream().to("out-count");
    g.windowed_by(time_windows::of_size_with_no_grace(10ms)).reduce(concat, materialized<>::as("wred").with_caching_disabled());
    g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(5ms)).count(materialized<>::as("scnt"));
    g.windowed_by(sliding_windows::of_time_difference_with_no_grace(4ms)).count(materialized<>::as("slcnt").with_caching_disabled());
    harness h("dsl_store_changelogs", b.build());
    h.input("tin", s, s).input("in", s, s).output("out-table", s, s).output("out-count", s, l);
    h.output("conformance-tstore-changelog", s, s).output("conformance-cnt-changelog", s, l);
    h.output("conformance-wred-changelog", type::x, s).output("conformance-scnt-changelog", type::x, l);
    h.output("conformance-slcnt-changelog", type::x, l);
    h.pipe("tin", S("t"), S("1"), 5, {"h=t1"});
    h.pipe("tin", S("t"), null, 6, {"h=t2"});
    h.pipe("in", S("a"), S("x"), 1, {"h=1"});
    h.pipe("in", S("a"), S("y"), 7, {"h=2"});
    h.pipe("in", S("a"), S("z"), 4);
    h.pipe("in", S("b"), S("w"), 12, {"h=4"});
    h.finish();
}

TEST_CASE("duplicate_sources_merged") {
    streams_builder b;
    b.stream<str, str>("in", consumed<>{}.with_name("first")).map_values([](const str& v) { return v + "1"; }).to("out1");
    b.stream<str, str>("in", consumed<>{}.with_name("second").with_timestamp_extractor([](const detail::raw_record&, i64) -> i64 { return 42; }))
        .process([] { return std::make_unique<where>(); })
        .to("out2");
    b.stream<str, str>("in").select_key([](const str& v) { return v; }).group_by_key().count().to_stream().to("out-count");
    b.stream_pattern<str, str>("p-.*").to("out-p");
    b.stream_pattern<str, str>("p-.*", consumed<>{}.with_name("p2")).process([] { return std::make_unique<where>(); }).to("out-p2");
    harness h("duplicate_sources_merged", b.build());
    h.input("in", s, s).input("p-a", s, s).output("out1", s, s).output("out2", s, s).output("out-count", s, l);
    h.output("out-p", s, s).output("out-p2", s, s);
    h.pipe("in", S("k1"), S("v"), 5);
    h.pipe("in", S("k2"), S("w"), 3);
    h.pipe("p-a", S("k3"), S("v"), 7);
    h.pipe("in", S("k3"), S("v"), 9);
    h.finish();
}

TEST_CASE("wall_clock_punctuations_catch_up") {
    streams_builder b;
    b.stream<str, str>("in").process([] { return std::make_unique<wall_ticker>(); }, named::as("wall")).to("out");
    harness h("wall_clock_punctuations_catch_up", b.build());
    h.input("in", s, s).output("out", s, s);
    h.advance_wall_clock(5);
    h.advance_wall_clock(5);
    h.pipe("in", S("a"), S("1"), 1);
    h.advance_wall_clock(25);
    h.advance_wall_clock(100);
    h.pipe("in", S("a"), S("2"), 2);
    h.advance_wall_clock(3);
    h.advance_wall_clock(2);
    h.advance_wall_clock(30);
    h.pipe("in", S("a"), S("3"), 3);
    h.finish();
}

TEST_CASE("peek_foreach_side_effect_order") {
    using stream = kstream<str, str>;
    streams_builder b;
    auto st = b.stream<str, str>("in").peek([](const str& k, const str& v) { side_effects.push_back("peek1 " + k + "=" + v); });
    st.foreach([](const str& k, const str& v) { side_effects.push_back("each1 " + k + "=" + v); });
    st.select_key([](const str& v) { return v; })
        .repartition(repartitioned<>::as("rp"))
        .peek([](const str& k, const str& v) { side_effects.push_back("peek-rp " + k + "=" + v); })
        .group_by_key()
        .count()
        .to_stream()
        .foreach([](const str& k, i64 v) { side_effects.push_back("count " + k + "=" + std::to_string(v)); });
    st.split()
        .branch([](const str& v) { return v.starts_with("a"); },
                branched::with_consumer([](stream ks) { ks.foreach([](const str& k, const str&) { side_effects.push_back("branch-a " + k); }); }))
        .default_branch(branched::with_consumer([](stream ks) {
            ks.peek([](const str& k, const str&) { side_effects.push_back("branch-other " + k); }).to("out");
        }));
    st.foreach([](const str& k, const str&) { side_effects.push_back("each2 " + k); });
    harness h("peek_foreach_side_effect_order", b.build());
    h.input("in", s, s).output("out", s, s);
    pipe_logged(h, "in", S("k1"), S("a"), 1);
    pipe_logged(h, "in", S("k2"), S("b"), 2);
    pipe_logged(h, "in", S("k3"), S("a"), 3);
    h.finish();
}

TEST_CASE("join_results_windowed") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    const auto w = join_windows::of_time_difference_and_grace(3ms, 2ms);
    const auto comma = [](const str& x, const str& y) { return x + "," + y; };
    show_to(lt.join(rt, concat, w).group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).reduce(comma), "out-inner");
    show_to(lt.left_join(rt, [](const str& x, const ostr& y) { return x + "+" + show(y); }, w)
                .group_by_key()
                .windowed_by(time_windows::of_size_with_no_grace(10ms))
                .reduce(comma),
            "out-left");
    harness h("join_results_windowed", b.build());
    h.input("left", s, s).input("right", s, s).output("out-inner", s, s).output("out-left", s, s);
    h.pipe("left", S("k"), S("L1"), 1);
    h.pipe("right", S("k"), S("R3"), 3);
    h.pipe("left", S("k"), S("L8"), 8);
    h.pipe("right", S("k"), S("R11"), 11);
    h.pipe("left", S("j"), S("J12"), 12);
    h.pipe("right", S("k"), S("R20"), 20);
    h.pipe("left", S("k"), S("L30"), 30);
    h.pipe("right", S("k"), S("R31"), 31);
    h.pipe("left", S("k"), S("L45"), 45);
    h.dropped();
    h.finish();
}

TEST_CASE("process_values_store_then_join") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, i64>(stores::in_memory_key_value_store("seen")));
    auto p = b.stream<str, str>("in").process_values([] { return std::make_unique<seen_counter>(); }, named::as("seen-counter"), {"seen"});
    p.join(b.table<str, str>("table"), [](const str& x, const str& y) { return x + "/" + y; }).to("out-join");
    p.group_by_key().count().to_stream().to("out-count");
    harness h("process_values_store_then_join", b.build());
    h.input("in", s, s).input("table", s, s).output("out-join", s, s).output("out-count", s, l);
    h.pipe("table", S("a"), S("TA"), 1);
    h.pipe("in", S("a"), S("x"), 2);
    h.pipe("in", S("b"), S("y"), 3);
    h.pipe("in", S("a"), S("z"), 4);
    h.pipe("table", S("b"), S("TB"), 5);
    h.pipe("in", S("b"), S("w"), 6);
    h.finish();
}

TEST_CASE("repartition_shared_consumers") {
    streams_builder b;
    auto rp = b.stream<str, str>("in").select_key([](const str& v) { return v.substr(0, 1); }).repartition(repartitioned<>::as("rp"));
    rp.group_by_key().count().to_stream().to("out-count");
    rp.left_join(b.table<str, str>("table"), [](const str& x, const ostr& y) { return x + "/" + show(y); }).to("out-join");
    rp.process([] { return std::make_unique<where>(); }).to("out-where");
    harness h("repartition_shared_consumers", b.build());
    h.input("in", s, s).input("table", s, s).output("out-count", s, l).output("out-join", s, s).output("out-where", s, s);
    h.pipe("table", S("a"), S("TA"), 1);
    h.pipe("in", S("k1"), S("a1"), 2);
    h.pipe("in", S("k2"), S("b2"), 3);
    h.pipe("in", S("k3"), S("a3"), 1);
    h.finish();
}

TEST_CASE("describe_many_stores_and_global") {
    topology t;
    t.add_source<str, str>("src", {"in"});
    t.add_processor("proc", [] { return std::make_unique<pass>(); }, {"src"});
    t.add_processor("proc2", [] { return std::make_unique<pass>(); }, {"proc"});
    for (const char* n : {"zeta", "alpha", "mid", "aa", "b1"})
        t.add_state_store(stores::key_value_store_builder<str, str>(stores::in_memory_key_value_store(n)), {"proc"});
    t.add_state_store(stores::key_value_store_builder<str, str>(stores::in_memory_key_value_store("other")), {"proc2"});
    t.connect_processor_and_state_stores("proc2", {"alpha"});
    auto glob = stores::key_value_store_builder<str, str>(stores::in_memory_key_value_store("glob"));
    glob.with_logging_disabled();
    t.add_global_store<str, str>(std::move(glob), "gsrc", "g", "gproc", [] { return std::make_unique<keep_global>(); });
    t.add_sink<str, str>("sink", "out", {"proc2"});
    harness h("describe_many_stores_and_global", std::move(t));
    h.input("in", s, s).input("g", s, s).output("out", s, s);
    h.pipe("g", S("x"), S("G"), 1);
    h.pipe("in", S("a"), S("1"), 2);
    h.finish();
}

TEST_CASE("papi_reads_dsl_window_stores") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count(materialized<>::as("wcnt"));
    g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(5ms)).count(materialized<>::as("scnt"));
    b.stream<str, str>("q").process([] { return std::make_unique<window_reader>(); }, {"wcnt", "scnt"}).to("out");
    harness h("papi_reads_dsl_window_stores", b.build());
    h.input("in", s, s).input("q", s, s).output("out", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 4);
    h.pipe("in", S("b"), S("3"), 12);
    h.pipe("q", S("q1"), S("a"), 13);
    h.pipe("in", S("a"), S("4"), 15);
    h.pipe("q", S("q2"), S("a"), 30);
    h.pipe("q", S("q3"), S("b"), 31);
    h.finish();
}

}  // TEST_SUITE
