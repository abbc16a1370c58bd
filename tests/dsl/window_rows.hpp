// What the windowed DSL tests read from "out": (key@start/end, count, timestamp) rows; and the
// windowed counts several of them run.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

namespace window_rows {

using rows = std::vector<std::tuple<std::string, std::int64_t, std::int64_t>>;

inline std::string show(const kstreams::windowed<std::string>& w) {
    return w.key + "@" + std::to_string(w.window.start) + "/" + std::to_string(w.window.end);
}

/// Everything written to "out" (string keys, int64 values) since the last read.
inline rows read(kstreams::test::topology_test_driver& d) {
    rows out;
    for (const auto& r : d.create_output_topic<std::string, std::int64_t>("out").read_records_to_list())
        out.emplace_back(r.key, r.value, r.timestamp);
    return out;
}

/// Counts of "in" per window of `w` (applied to the grouped stream), emitting on window close,
/// into store "counts", written to "out" keyed key@start/end.
template <class Windowed>
kstreams::topology count_on_close(const Windowed& w) {
    kstreams::streams_builder b;
    w(b.stream<std::string, std::string>("in").group_by_key())
        .emit_strategy(kstreams::emit_strategy::on_window_close())
        .count(kstreams::materialized<>::as("counts"))
        .to_stream()
        .select_key([](const kstreams::windowed<std::string>& k, std::int64_t) { return show(k); })
        .to("out");
    return b.build();
}

/// Counts of "in" per 10 ms window (grace 5 ms) in store "counts", through
/// suppress(until_window_closes) named "final" (its buffer: store "final-store"); `terminal` takes
/// the stream of final counts.
template <class Terminal>
kstreams::topology final_counts_to(Terminal terminal) {
    kstreams::streams_builder b;
    terminal(b.stream<std::string, std::string>("in")
                 .group_by_key()
                 .windowed_by(kstreams::time_windows::of_size_and_grace(std::chrono::milliseconds(10), std::chrono::milliseconds(5)))
                 .count(kstreams::materialized<>::as("counts"))
                 .suppress(kstreams::suppressed::until_window_closes(kstreams::buffer_config::unbounded()).with_name("final"))
                 .to_stream());
    return b.build();
}
/// final_counts_to "out", keyed key@start/end.
inline kstreams::topology final_counts() {
    return final_counts_to([](auto s) {
        s.select_key([](const kstreams::windowed<std::string>& k, std::int64_t) { return show(k); }).to("out");
    });
}

}  // namespace window_rows
