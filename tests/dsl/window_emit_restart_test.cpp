// emit_strategy::on_window_close across a restart, as Kafka's windowed aggregations do it: the
// close time emitted up to is committed with the input offsets (processor metadata under the store's
// name, in Kafka's TopicPartitionMetadata format) and read back, so that a task restored from its
// changelog and resuming from the commit emits no window a second time.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "window_rows.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {
using window_rows::rows;
using window_rows::count_on_close;


using input_rows = std::vector<std::pair<str, std::int64_t>>;

/// What a run left behind for the next one: its changelogs and the commit's offset and metadata.
struct stopped {
    std::map<std::string, std::vector<test::produced_record>> changelogs;
    std::map<std::string, std::string> metadata;
    std::int64_t committed = 0;
};

/// Pipes input[from, to) into a fresh driver of `t` (its stores restored from `before`'s
/// changelogs, its processors resuming from `before`'s commit); what it wrote to "out".
rows run(const topology& t, const input_rows& input, std::size_t from, std::size_t to, const stopped& before,
         stopped* after = nullptr) {
    test::driver_config cfg;
    cfg.changelogs = before.changelogs;
    cfg.committed_metadata = before.metadata;
    test::topology_test_driver d(t, cfg);
    auto in = d.create_input_topic<str, str>("in");
    for (std::size_t i = from; i < to; ++i) in.pipe_input(input[i].first, "x", input[i].second);
    rows out = window_rows::read(d);
    if (after) {
        after->changelogs = d.changelog_records();
        after->metadata = d.committed_metadata();
        after->committed = d.committed_offsets().count("in") ? d.committed_offsets().at("in") : 0;
    }
    return out;
}

std::string dump(const rows& r) {
    std::string out;
    for (const auto& [k, v, ts] : r) out += k + "=" + std::to_string(v) + "@" + std::to_string(ts) + " ";
    return out;
}

/// Stopped after every prefix of `input` and restarted from the commit there, the runs together
/// write exactly what one uninterrupted run writes: each window once.
void check_restarts(const topology& t, const input_rows& input) {
    const rows whole = run(t, input, 0, input.size(), {});
    REQUIRE(!whole.empty());
    for (std::size_t stop = 1; stop < input.size(); ++stop) {
        INFO("stopped after " << stop << " records");
        stopped s;
        rows both = run(t, input, 0, stop, {}, &s);
        REQUIRE(s.committed == static_cast<std::int64_t>(stop));
        const rows after = run(t, input, stop, input.size(), s);
        both.insert(both.end(), after.begin(), after.end());
        INFO("split: " << dump(both) << " / uninterrupted: " << dump(whole));
        CHECK(both == whole);
    }
}

// In timestamp order: a restarted processor's observed stream time starts again from its first
// record, as Kafka's, so out-of-order input could be judged differently after a restart.
const input_rows ordered_input{{"a", 1},  {"b", 5},  {"a", 12}, {"a", 12}, {"b", 19}, {"a", 25},
                               {"c", 26}, {"b", 33}, {"a", 40}, {"c", 41}, {"a", 58}, {"b", 70}};

}  // namespace

TEST_CASE("emitting on close, a restarted time window aggregation does not emit closed windows again") {
    const topology t = count_on_close([](auto g) { return g.windowed_by(time_windows::of_size_with_no_grace(10ms)); });
    stopped s;
    CHECK(run(t, ordered_input, 0, 6, {}, &s) == rows{{"a@0/10", 1, 1}, {"b@0/10", 1, 5}, {"a@10/20", 2, 12}, {"b@10/20", 1, 19}});
    // Kafka's TopicPartitionMetadata v2: partition time 25, {"counts": 25} (close time 25 - grace 0).
    CHECK(s.metadata.at("in") == "AgAAAAAAAAAZAAAAAQAAAAZjb3VudHMAAAAAAAAAGQ==");
    // Resumed at c@26: [0,10) and [10,20) are in the restored store but were emitted before.
    CHECK(run(t, ordered_input, 6, 9, s) == rows{{"a@20/30", 1, 25}, {"c@20/30", 1, 26}, {"b@30/40", 1, 33}});
    // Without the commit's metadata, what the restored store still keeps (retention: size + grace)
    // would come again (what kstreams did before).
    stopped no_metadata = s;
    no_metadata.metadata.clear();
    CHECK(run(t, ordered_input, 6, 7, no_metadata) == rows{{"a@10/20", 2, 12}, {"b@10/20", 1, 19}});
}

TEST_CASE("emitting on close, time, hopping, sliding and session windows restart from any commit without duplicates") {
    check_restarts(count_on_close([](auto g) { return g.windowed_by(time_windows::of_size_and_grace(10ms, 3ms)); }),
                   ordered_input);
    check_restarts(count_on_close([](auto g) {
                       return g.windowed_by(time_windows::of_size_and_grace(10ms, 2ms).advance_by(5ms));
                   }),
                   ordered_input);
    check_restarts(count_on_close([](auto g) { return g.windowed_by(sliding_windows::of_time_difference_and_grace(10ms, 2ms)); }),
                   ordered_input);
    check_restarts(count_on_close([](auto g) { return g.windowed_by(session_windows::of_inactivity_gap_and_grace(5ms, 2ms)); }),
                   ordered_input);
}
