// One instance of a windowed counting app recovered by recomputation, as its own process, for the
// crash tests of issue J:
//   window_app <bootstrap> <application.id> <input> <output> <state.dir> <at_least_once|exactly_once_v2>
//              [group.instance.id] [session]
// Counts each key's records in tumbling 1 s windows (no grace), emitting each window's final count
// once it closes; the window store is in memory with no changelog (recovery::recompute), so a
// restarted instance rebuilds the open windows from the held input offsets. Writes "<key>@<start>"
// → count to <output>. With "session": session windows of a 300 ms gap (no grace) instead, each
// final written as "<key>@<start>/<end>" → count. Runs until SIGTERM or SIGINT, then closes
// cleanly (exit 0); logs to stderr.
#include <iostream>
#include <string>

#include <kstreams/dsl.hpp>

#include "tests/integration/app_main.hpp"

using namespace std::chrono_literals;

namespace {
/// Counts per window (or session) recovered by recomputation, each final written once it closes
/// as "<key>@<show(window)>" → count.
template <class Windowed, class Show>
void count_on_close(Windowed windowed, kstreams::materialized<> store, const char* output, Show show) {
    windowed.emit_strategy(kstreams::emit_strategy::on_window_close())
        .count(store.with_recovery(kstreams::recovery::recompute))
        .to_stream()
        .select_key([show](const kstreams::windowed<std::string>& w, const auto&) { return w.key + "@" + show(w.window); })
        .to(output);
}
}  // namespace

int main(int argc, char** argv) {
    if (argc < 7) {
        std::cerr << "usage: window_app bootstrap app-id input output state-dir guarantee [group.instance.id] [session]\n";
        return 2;
    }
    kstreams::streams_builder b;
    auto grouped = b.stream<std::string, std::string>(argv[3]).group_by_key();
    if (argc > 8 && std::string(argv[8]) == "session")
        count_on_close(grouped.windowed_by(kstreams::session_windows::of_inactivity_gap_with_no_grace(300ms)),
                       kstreams::materialized<>::as("session-counts"), argv[4],
                       [](const kstreams::window& w) {
                           return std::to_string(w.start) + "/" + std::to_string(w.end);
                       });
    else
        count_on_close(grouped.windowed_by(kstreams::time_windows::of_size_with_no_grace(1s)),
                       kstreams::materialized<>::as("window-counts"), argv[4],
                       [](const kstreams::window& w) { return std::to_string(w.start); });
    auto c = kstreams::test::process_config(argv[1], argv[2], argv[5], argc > 7 ? argv[7] : nullptr);
    if (std::string(argv[6]) == "exactly_once_v2")
        c.guarantee = kstreams::processing_guarantee::exactly_once_v2;  // commits every 100 ms (the default)
    else
        c.commit_interval = 100ms;
    kstreams::kafka_streams app(b.build(), c);
    return kstreams::test::run_until_signalled(app, "window_app");
}
