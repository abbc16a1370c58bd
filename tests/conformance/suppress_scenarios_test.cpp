// Conformance: ktable::suppress, written as java/.../SuppressScenarios.java writes it, compared
// with Java Kafka Streams' outputs: final results of time, sliding and session windows, time
// limits, full buffers in both modes (by records and by bytes), tombstones, and one buffer's
// changelog in bytes. Windowed keys are shown as "key@start/end".
#include <doctest/doctest.h>

#include <exception>
#include <optional>
#include <string>

#include <kstreams/dsl.hpp>

#include "harness.hpp"
#include "windowed_show.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using ostr = std::optional<std::string>;
using type::l;
using type::s;
using type::x;

namespace {

void window_inputs(harness& h) {
    h.pipe("in", S("a"), S("w1"), 1, {"h=1"});
    h.pipe("in", S("b"), S("w3"), 3);
    h.pipe("in", S("a"), S("w9"), 9, {"h=9"});
    h.pipe("in", S("a"), S("w12"), 12);
    h.pipe("in", S("b"), S("w14"), 14);
    h.pipe("in", S("a"), S("w15"), 15);
    h.pipe("in", S("a"), S("w4"), 4);
    h.pipe("in", S("b"), S("w20"), 20);
    h.pipe("in", S("a"), null, 21);
    h.pipe("in", S("a"), S("w26"), 26);
    h.pipe("in", S("a"), S("w27"), 27, {"h=27", "k=x"});
    h.pipe("in", S("b"), S("w33"), 33);
    h.pipe("in", S("a"), S("w45"), 45);
    h.pipe("in", S("b"), S("w70"), 70);
    h.pipe("in", S("a"), S("w71"), 71);
    h.pipe("in", S("a"), S("w100"), 100);
}

/// SuppressScenarios.pipeFailing: "! " and the error's message from `from` on.
void pipe_failing(harness& h, const str& from, const str& topic, const str& key, const str& value, std::int64_t ts) {
    try {
        h.pipe(topic, S(key), S(value), ts);
        h.line("! no error");
    } catch (const std::exception& e) {
        const str m = e.what();
        const auto at = m.find(from);
        h.line("! " + (at == str::npos ? m : m.substr(at)));
    }
}

auto concat = [](const ostr& a, const ostr& v) { return ostr(show(a) + "+" + show(v)); };

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("suppress_final_windows") {
    streams_builder b;
    auto g = b.stream<str, ostr>("in").group_by_key();
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 5ms))
                .count()
                .suppress(suppressed::until_window_closes(buffer_config::unbounded()).with_name("final-tumbling")),
            "out-tumbling");
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms).advance_by(5ms))
                .reduce(concat)
                .suppress(suppressed::until_window_closes(buffer_config::unbounded().with_logging_disabled())),
            "out-hopping");
    show_to(g.windowed_by(sliding_windows::of_time_difference_and_grace(10ms, 3ms))
                .count()
                .suppress(suppressed::until_window_closes(
                    buffer_config::max_records(100).with_max_bytes(100000).shut_down_when_full())),
            "out-sliding");
    harness h("suppress_final_windows", b.build());
    h.input("in", s, s).output("out-tumbling", s, l).output("out-hopping", s, s).output("out-sliding", s, l);
    h.output("conformance-final-tumbling-store-changelog", x, x);
    window_inputs(h);
    h.finish();
}

TEST_CASE("suppress_final_sessions") {
    streams_builder b;
    auto g = b.stream<str, ostr>("in").group_by_key();
    const auto w = session_windows::of_inactivity_gap_and_grace(10ms, 5ms);
    show_to(g.windowed_by(w).count().suppress(suppressed::until_window_closes(buffer_config::unbounded())), "out-count");
    show_to(g.windowed_by(w)
                .aggregate([] { return str(); }, [](const str&, const ostr& v, const str& agg) { return agg + "/" + show(v); },
                           [](const str&, const str& a, const str& b2) { return a + "|" + b2; },
                           materialized<>::as("session-agg").with_in_memory_store().with_caching_disabled())
                .suppress(suppressed::until_window_closes(buffer_config::unbounded()).with_name("final-sessions")),
            "out-agg");
    harness h("suppress_final_sessions", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-agg", s, s);
    session_inputs(h);
    h.finish();
}

TEST_CASE("suppress_time_limit") {
    streams_builder b;
    auto t = b.table<str, ostr>("in");
    t.suppress(suppressed::until_time_limit(10ms, buffer_config::unbounded())).to_stream().to("out-limit");
    t.filter([](const ostr& v) { return !v || v->rfind("x", 0) != 0; })
        .suppress(suppressed::until_time_limit(0ms, buffer_config::max_records(100)).with_name("no-wait"))
        .to_stream()
        .to("out-zero");
    auto c = b.stream<str, str>("in2").group_by_key().count();
    c.suppress(suppressed::until_time_limit(20ms, buffer_config::max_records(2))).to_stream().to("out-records");
    c.suppress(suppressed::until_time_limit(20ms, buffer_config::max_bytes(150))).to_stream().to("out-bytes");
    harness h("suppress_time_limit", b.build());
    h.input("in", s, s).input("in2", s, s).output("out-limit", s, s).output("out-zero", s, s).output("out-records", s, l);
    h.output("out-bytes", s, l);
    h.pipe("in", S("a"), S("1"), 10);
    h.pipe("in", S("b"), S("2"), 12);
    h.pipe("in", S("a"), S("3"), 15);
    h.pipe("in", S("c"), S("x4"), 16);
    h.pipe("in", S("a"), null, 18);
    h.pipe("in", S("b"), S("5"), 20);
    h.pipe("in", S("d"), S("6"), 25, {"h=v"});
    h.pipe("in", S("c"), null, 26);
    h.pipe("in", S("a"), S("7"), 40);
    h.pipe("in", S("e"), S("8"), 41);
    h.pipe("in2", S("k1"), S("x"), 1);
    h.pipe("in2", S("k2"), S("x"), 2);
    h.pipe("in2", S("k1"), S("x"), 3);
    h.pipe("in2", S("k3"), S("x"), 4, {"hh=vvv"});
    h.pipe("in2", S("k4"), S("x"), 5);
    h.pipe("in2", S("k2"), S("x"), 6);
    h.pipe("in2", S("k5"), S("x"), 30);
    h.pipe("in2", S("k1"), S("x"), 31);
    h.finish();
}

TEST_CASE("suppress_full_records") {
    streams_builder b;
    show_to(b.stream<str, str>("in")
                .group_by_key()
                .windowed_by(time_windows::of_size_with_no_grace(10ms))
                .count()
                .suppress(suppressed::until_window_closes(buffer_config::max_records(2).shut_down_when_full())),
            "out");
    harness h("suppress_full_records", b.build());
    h.input("in", s, s).output("out", s, l);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("b"), S("2"), 2);
    h.pipe("in", S("a"), S("3"), 3);
    h.pipe("in", S("a"), S("4"), 11);
    h.pipe("in", S("b"), S("5"), 12);
    pipe_failing(h, "KTABLE-SUPPRESS", "in", "c", "6", 13);
    h.finish();
}

TEST_CASE("suppress_full_bytes") {
    streams_builder b;
    b.stream<str, str>("input-topic")
        .group_by_key(grouped<>::as("grp"))
        .count()
        .suppress(suppressed::until_time_limit(100ms, buffer_config::max_bytes(150).shut_down_when_full()).with_name("bytes-limit"))
        .to_stream()
        .to("out");
    harness h("suppress_full_bytes", b.build());
    h.input("input-topic", s, s).output("out", s, l);
    h.pipe("input-topic", S("key1"), S("1"), 1, {"header=value"});
    h.pipe("input-topic", S("key2"), S("2"), 2);
    h.pipe("input-topic", S("key1"), S("3"), 3);
    pipe_failing(h, "bytes-limit", "input-topic", "key3", "4", 4);
    h.finish();
}

}  // TEST_SUITE
