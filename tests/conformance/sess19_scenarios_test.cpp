// Conformance: scenarios of session 19, written as java/.../Sess19Scenarios.java writes them,
// compared with Java Kafka Streams' outputs: a session that ends exactly the retention (gap +
// grace) before stream time when it is written. Kafka's RocksDB session stores keep it (they drop
// a write only when its whole segment is out of retention) and an aggregation emitting on close
// emits it; the in-memory session store drops it (and counts it in dropped-records); reads of one
// key never show it in either.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>

#include "harness.hpp"
#include "store_entries.hpp"
#include "windowed_show.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using i64 = std::int64_t;
using type::s;

namespace {

auto comma = [](const str& a, const str& c) { return a + "," + c; };
const auto gap5_grace3 = session_windows::of_inactivity_gap_and_grace(5ms, 3ms);

/// Hunt19Scenarios.sessionsOutOfOrder (hunt19_scenarios_test.cpp).
void sessions_out_of_order(harness& h) {
    for (const auto& [k, t] : std::vector<std::pair<str, i64>>{{"a", 10}, {"a", 20}, {"b", 12}, {"a", 15}, {"a", 28}, {"b", 30}, {"a", 3},
                                                               {"a", 24}, {"a", 40}, {"b", 19}, {"b", 60}, {"a", 35}, {"a", 90}})
        h.pipe("in", S(k), S(std::to_string(t)), t);
}

/// A reduce emitting on close and an eager reduce suppressed until its sessions close, over
/// sessions_out_of_order, in the default stores or (named) in memory.
void suppress_close_out_of_order(const char* scenario, const materialized<>& close, const materialized<>& sup) {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(gap5_grace3).emit_strategy(emit_strategy::on_window_close()).reduce(comma, close), "out-close");
    show_to(g.windowed_by(gap5_grace3).reduce(comma, sup).suppress(suppressed::until_window_closes(buffer_config::unbounded())),
            "out-suppressed");
    harness h(scenario, b.build());
    h.input("in", s, s).output("out-close", s, s).output("out-suppressed", s, s);
    sessions_out_of_order(h);
    h.dropped();
    h.finish();
}

}  // namespace

TEST_CASE("session_suppress_close_out_of_order") {
    suppress_close_out_of_order("session_suppress_close_out_of_order", {}, {});
}

TEST_CASE("session_suppress_close_out_of_order_in_memory") {
    suppress_close_out_of_order("session_suppress_close_out_of_order_in_memory",
                                materialized<>::as("mem-close").with_in_memory_store(),
                                materialized<>::as("mem-sup").with_in_memory_store());
}

TEST_CASE("session_eager_retention_edge_reads") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(gap5_grace3).reduce(comma, materialized<>::as("edge-db").with_caching_disabled()), "out-db");
    show_to(g.windowed_by(gap5_grace3).reduce(comma, materialized<>::as("edge-mem").with_in_memory_store().with_caching_disabled()),
            "out-mem");
    show_to(g.windowed_by(gap5_grace3).emit_strategy(emit_strategy::on_window_close()).reduce(comma, materialized<>::as("edge-close")),
            "out-close");
    harness h("session_eager_retention_edge_reads", b.build());
    h.input("in", s, s).output("out-db", s, s).output("out-mem", s, s).output("out-close", s, s);
    auto& d = h.driver();
    for (const auto& [k, t] : std::vector<std::pair<str, i64>>{{"a", 10}, {"a", 20}, {"b", 12}, {"b", 16}, {"a", 15},
                                                               {"b", 13}, {"a", 28}, {"b", 21}, {"a", 36}, {"b", 30}}) {
        h.pipe("in", S(k), S(std::to_string(t)), t);
        str line = "=";
        for (const str name : {"edge-db", "edge-mem", "edge-close"}) {
            auto& st = d.get_session_store<str, str>(name);
            line += " " + name + ": " + entries(st.fetch(str("a"))) + "| " + entries(st.fetch(str("b")));
        }
        h.line(line);
    }
    h.dropped();
    h.finish();
}
