// One instance of a left stream-stream join recovered by recomputation, as its own process, for the
// crash test of issue J:
//   join_app <bootstrap> <application.id> <left> <right> <output> <state.dir> <at_least_once|exactly_once_v2>
//            [group.instance.id]
// Joins <left> with <right> on the key within 100 ms, grace 1 s: writes "<left value>+<right value>" for each pair and
// "<left value>+-" for a left record whose window closed without a partner, looking for those at
// every record (an emit interval of 0: the default 1 s of wall-clock time would leave the last ones
// waiting for a record that comes a second later). The
// buffers have no changelog (stream_joined::with_recovery(recovery::recompute)), so a restarted
// instance rebuilds them from the held input offsets. Runs until SIGTERM or SIGINT, then closes
// cleanly (exit 0); logs to stderr.
#include <iostream>
#include <optional>
#include <string>

#include <kstreams/dsl.hpp>

#include "tests/integration/app_main.hpp"

using namespace std::chrono_literals;

int main(int argc, char** argv) {
    if (argc < 8) {
        std::cerr << "usage: join_app bootstrap app-id left right output state-dir guarantee [group.instance.id]\n";
        return 2;
    }
    kstreams::streams_builder b;
    auto right = b.stream<std::string, std::string>(argv[4]);
    b.stream<std::string, std::string>(argv[3])
        .left_join(right,
                   [](const std::string& l, const std::optional<std::string>& r) { return l + "+" + (r ? *r : "-"); },
                   kstreams::join_windows::of_time_difference_and_grace(100ms, 1s),
                   kstreams::stream_joined<>::as("crash-join").with_recovery(kstreams::recovery::recompute))
        .to(argv[5]);
    auto c = kstreams::test::process_config(argv[1], argv[2], argv[6], argc > 8 ? argv[8] : nullptr);
    c.outer_join_emit_interval = 0ms;
    // The feeder writes 10 s of event time in a third of a second: a task waits for an input whose
    // records have not come yet rather than run seconds of event time ahead of it (and close its
    // windows early; Kafka's max.task.idle.ms, as a join over live inputs needs).
    c.max_task_idle = 2s;
    if (std::string(argv[7]) == "exactly_once_v2")
        c.guarantee = kstreams::processing_guarantee::exactly_once_v2;  // commits every 100 ms (the default)
    else
        c.commit_interval = 100ms;
    kstreams::kafka_streams app(b.build(), c);
    return kstreams::test::run_until_signalled(app, "join_app");
}
