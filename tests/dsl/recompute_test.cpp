// Recovery by recomputation (materialized<>::with_recovery(recovery::recompute)) through the test
// driver: time-windowed aggregations give what their changelog variant gives and keep their store
// in memory with no changelog; commits hold input offsets back to the earliest record of an open
// window, and a restart from such a commit rebuilds the open windows exactly (sliding windows
// too, whose replayed records are judged from the stream time noted with the first of them;
// session windows, whose first records stay held while their sessions can still change); an
// unbounded aggregation or table (or, for now, a session cogroup of several streams) asking for it
// is refused when the topology is built, naming the store and the node.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {
using rows = std::vector<std::tuple<str, std::optional<std::int64_t>, std::int64_t>>;  // key@start/end, count, ts

str show(const windowed<str>& w) {
    return w.key + "@" + std::to_string(w.window.start) + "/" + std::to_string(w.window.end);
}

struct run_result {
    rows out;
    std::map<std::string, std::vector<test::produced_record>> changelogs;
    std::vector<std::string> topics;
};

/// Pipes the same records (key, timestamp) into a topology and reads what comes out.
run_result run(const topology& t, const std::vector<std::pair<str, std::int64_t>>& input) {
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, str>("in");
    for (const auto& [k, ts] : input) in.pipe_input(k, "x", ts);
    run_result r;
    for (const auto& rec : d.create_output_topic<str, std::optional<std::int64_t>>("out").read_records_to_list())
        r.out.emplace_back(rec.key, rec.value, rec.timestamp);
    r.changelogs = d.changelog_records();
    r.topics = d.produced_topic_names();
    return r;
}

const std::vector<std::pair<str, std::int64_t>> input{{"a", 1}, {"b", 3},  {"a", 12}, {"a", 4},  {"b", 25},
                                                      {"a", 9}, {"a", 26}, {"b", 2},  {"a", 40}, {"b", 41},
                                                      {"a", 33}, {"a", 70}, {"b", 69}, {"a", 61}};

template <class Windows>
topology time_count(Windows windows, const materialized<>& m, bool on_close = false) {
    streams_builder b;
    auto w = b.stream<str, str>("in").group_by_key().windowed_by(windows);
    if (on_close) w = w.emit_strategy(emit_strategy::on_window_close());
    w.count(m).to_stream().select_key([](const windowed<str>& k, std::int64_t) { return show(k); }).to("out");
    return b.build();
}

topology session_count(const materialized<>& m, bool on_close = false,
                       session_windows windows = session_windows::of_inactivity_gap_and_grace(5ms, 3ms)) {
    streams_builder b;
    auto w = b.stream<str, str>("in").group_by_key().windowed_by(windows);
    if (on_close) w = w.emit_strategy(emit_strategy::on_window_close());
    // In memory, a session is kept only its gap plus grace past its end unless the retention
    // says more: emitting on close needs it longer (as Kafka's in-memory session store).
    w.count(m.retention ? m : m.with_retention(100ms))
        .to_stream()
        .select_key([](const windowed<str>& k, const std::optional<std::int64_t>&) { return show(k); })
        .to("out");
    return b.build();
}

topology cogroup_count(const materialized<>& m) {
    streams_builder b;
    b.stream<str, str>("in")
        .group_by_key()
        .cogroup([](const str&, const str&, std::int64_t n) { return n + 1; })
        .windowed_by(time_windows::of_size_and_grace(10ms, 5ms))
        .aggregate([] { return std::int64_t{0}; }, m)
        .to_stream()
        .select_key([](const windowed<str>& k, std::int64_t) { return show(k); })
        .to("out");
    return b.build();
}

/// The recompute variant of `make` gives what the changelog variant gives, with no changelog.
/// `changelog_retention`: the changelog variant's, where its default would lose finals
/// recomputation emits (an uncached store emitting on close, recompute_window_jump_test.cpp).
void check_same_as_changelog(const char* what, const std::function<topology(const materialized<>&)>& make,
                             std::optional<std::chrono::milliseconds> changelog_retention = std::nullopt) {
    INFO(std::string(what));
    const auto logged = materialized<>::as("counts").with_in_memory_store();
    const auto changelog = run(make(changelog_retention ? logged.with_retention(*changelog_retention) : logged), input);
    const auto recompute = run(make(materialized<>::as("counts").with_recovery(recovery::recompute)), input);
    CHECK(!changelog.out.empty());
    CHECK(recompute.out == changelog.out);
    CHECK(changelog.changelogs.count("test-app-counts-changelog") == 1);
    CHECK(recompute.changelogs.empty());
    for (const auto& topic : recompute.topics) CHECK(topic.find("changelog") == std::string::npos);
    // The topology keeps the store, unlogged and in memory.
    const topology t = make(materialized<>::as("counts").with_recovery(recovery::recompute));
    REQUIRE(t.model().stores.size() == 1);
    CHECK_FALSE(t.model().stores.front().builder->logging_enabled());
    CHECK_FALSE(t.model().stores.front().builder->build()->persistent());
    CHECK(t.describe().to_string().find("counts") != std::string::npos);
}
}  // namespace

TEST_CASE("a tumbling-window count recovered by recomputation gives what the changelog variant gives") {
    check_same_as_changelog("tumbling", [](const materialized<>& m) { return time_count(time_windows::of_size_and_grace(10ms, 5ms), m); });
}

TEST_CASE("hopping windows, emitting on update and on close, recovered by recomputation") {
    const auto hopping = time_windows::of_size_and_grace(10ms, 5ms).advance_by(5ms);
    check_same_as_changelog("hopping", [&](const materialized<>& m) { return time_count(hopping, m); });
    check_same_as_changelog("hopping on close", [&](const materialized<>& m) { return time_count(hopping, m, true); });
}

TEST_CASE("sliding windows, emitting on update and on close, recovered by recomputation") {
    const auto sliding = sliding_windows::of_time_difference_and_grace(10ms, 5ms);
    check_same_as_changelog("sliding", [&](const materialized<>& m) { return time_count(sliding, m); });
    // Emitting on close, a sliding aggregation's store is uncached: at the default retention
    // (Kafka's) the jumps of `input` hide closed windows from the emission after them.
    check_same_as_changelog("sliding on close", [&](const materialized<>& m) { return time_count(sliding, m, true); }, 1h);
    CHECK(run(time_count(sliding, materialized<>::as("counts").with_in_memory_store(), true), input).out.size() <
          run(time_count(sliding, materialized<>::as("counts").with_recovery(recovery::recompute), true), input).out.size());
}

TEST_CASE("session windows, emitting on update and on close, recovered by recomputation") {
    check_same_as_changelog("session", [](const materialized<>& m) { return session_count(m); });
    check_same_as_changelog("session on close", [](const materialized<>& m) { return session_count(m, true); });
}

TEST_CASE("unlimited windows and session cogroups of several streams asking for recomputation are refused at build()") {
    const auto m = materialized<>::as("counts").with_recovery(recovery::recompute);
    // Unlimited windows never close: their records would be held for ever.
    CHECK_THROWS_WITH_AS(time_count(unlimited_windows::of(), m),
                         doctest::Contains("store counts of KSTREAM-AGGREGATE-0000000001: recovery::recompute is for "
                                           "windowed aggregations only"), topology_error);
    CHECK_NOTHROW(time_count(unlimited_windows::of(), materialized<>::as("counts")));
    // Each stream's processor merges the others' sessions: not followed yet.
    auto cogroup = [](const materialized<>& mm, bool two) {
        streams_builder b;
        auto add = [](const str&, const str&, std::int64_t n) { return n + 1; };
        auto c = b.stream<str, str>("in").group_by_key().cogroup(add);
        if (two) c = c.cogroup(b.stream<str, str>("in2").group_by_key(), add);
        c.windowed_by(session_windows::of_inactivity_gap_and_grace(5ms, 3ms))
            .aggregate([] { return std::int64_t{0}; }, [](const str&, std::int64_t a, std::int64_t x) { return a + x; }, mm);
        return b.build();
    };
    CHECK_THROWS_WITH_AS(cogroup(m, true), doctest::Contains("store counts of COGROUPKSTREAM-AGGREGATE-0000000002: "
                                                             "recovery::recompute does not hold input offsets for "
                                                             "session windows over a cogroup of several streams yet"),
                         topology_error);
    CHECK_NOTHROW(cogroup(m, false));
    CHECK_NOTHROW(cogroup(materialized<>::as("counts"), true));
}

TEST_CASE("a windowed cogroup recovered by recomputation") {
    check_same_as_changelog("cogroup", [](const materialized<>& m) { return cogroup_count(m); });
}

TEST_CASE("recomputation wins over the persistence and logging asked for") {
    const topology t = time_count(time_windows::of_size_with_no_grace(10ms), materialized<>::as("counts")
                                                                                 .with_persistent_store()
                                                                                 .with_logging_enabled()
                                                                                 .with_recovery(recovery::recompute));
    CHECK_FALSE(t.model().stores.front().builder->logging_enabled());
    CHECK_FALSE(t.model().stores.front().builder->build()->persistent());
}

TEST_CASE("recovery by recomputation is refused at build() for unbounded aggregations and tables") {
    const auto m = materialized<>::as("totals").with_recovery(recovery::recompute);
    auto refused = [](const std::function<void(streams_builder&)>& make, const std::string& node) {
        streams_builder b;
        make(b);
        CHECK_THROWS_WITH_AS(b.build(), doctest::Contains(("store totals of " + node + ": recovery::recompute is for windowed").c_str()),
                             topology_error);
    };
    refused([&](streams_builder& b) { b.stream<str, str>("in").group_by_key().count(m); }, "KSTREAM-AGGREGATE-0000000001");
    refused([&](streams_builder& b) {
        b.stream<str, str>("in").group_by_key().reduce([](const str& a, const str& v) { return a + v; }, named::as("r"), m);
    }, "r");
    refused([&](streams_builder& b) { b.table<str, str>("in", m); }, "KTABLE-SOURCE-0000000001");
    refused([&](streams_builder& b) {
        b.table<str, str>("in").group_by([](const str& k, const str& v) { return std::pair{v, k}; }).count(named::as("c"), m);
    }, "c");
    refused([&](streams_builder& b) {
        b.table<str, str>("in").filter([](const str&, const str& v) { return !v.empty(); }, named::as("f"), m);
    }, "f");
    // The same windowed aggregation is accepted.
    streams_builder ok;
    ok.stream<str, str>("in").group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).count(m);
    CHECK_NOTHROW(ok.build());
}

// ---- offsets held until windows close, and a restart from the held commit ----------------------

TEST_CASE("commits stay at the earliest record an open window holds") {
    // Tumbling 10 ms, grace 5 ms: a record is needed until stream time reaches its window's end + 5.
    const topology t = time_count(time_windows::of_size_and_grace(10ms, 5ms), materialized<>::as("counts").with_recovery(recovery::recompute));
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 1);  // offset 0: [0,10)
    CHECK(d.committed_offsets().at("in") == 0);
    in.pipe_input("b", "x", 12);  // offset 1: [10,20); stream time 12 < 15
    CHECK(d.committed_offsets().at("in") == 0);
    in.pipe_input("a", "x", 16);  // offset 2: [10,20) closes [0,10)
    CHECK(d.committed_offsets().at("in") == 1);
    in.pipe_input("c", "x", 4);  // offset 3: late, dropped: holds nothing
    CHECK(d.committed_offsets().at("in") == 1);
    in.pipe_input("a", "x", 40);  // offset 4: closes [10,20); [40,50) holds offset 4
    CHECK(d.committed_offsets().at("in") == 4);
    CHECK(d.committed_metadata().at("in").find("|kstreams-recompute:2:5;") != std::string::npos);
    CHECK(d.metrics().value("commit-held-records.in.0") == 1);
}

TEST_CASE("hopping windows hold a record until the last window it falls in closes") {
    const auto hopping = time_windows::of_size_with_no_grace(10ms).advance_by(5ms);
    const topology t = time_count(hopping, materialized<>::as("counts").with_recovery(recovery::recompute));
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 7);   // offset 0: [0,10) and [5,15)
    in.pipe_input("a", "x", 12);  // offset 1: [5,15) and [10,20); stream time 12 closes [0,10) only
    CHECK(d.committed_offsets().at("in") == 0);
    in.pipe_input("a", "x", 15);  // closes [5,15): offset 0 released, offset 1 held by [10,20)
    CHECK(d.committed_offsets().at("in") == 1);
}

namespace {
using input_rows = std::vector<std::pair<str, std::int64_t>>;

/// Pipes `input[from, to)` into a fresh driver of `t` (the records keep their offsets), resuming
/// from `metadata` if given.
rows pipe(const topology& t, const input_rows& input, std::size_t from, std::size_t to,
          const std::map<std::string, std::string>& metadata = {}, std::int64_t* committed = nullptr,
          std::map<std::string, std::string>* committed_metadata = nullptr, kstreams::metrics* metrics = nullptr) {
    test::driver_config cfg;
    cfg.committed_metadata = metadata;
    cfg.first_input_offsets["in"] = static_cast<std::int64_t>(from);
    test::topology_test_driver d(t, cfg);
    auto in = d.create_input_topic<str, str>("in");
    for (std::size_t i = from; i < to; ++i) in.pipe_input(input[i].first, "x", input[i].second);
    rows out;
    for (const auto& rec : d.create_output_topic<str, std::optional<std::int64_t>>("out").read_records_to_list())
        out.emplace_back(rec.key, rec.value, rec.timestamp);
    if (committed) *committed = d.committed_offsets().count("in") ? d.committed_offsets().at("in") : 0;
    if (committed_metadata) *committed_metadata = d.committed_metadata();
    if (metrics) *metrics = d.metrics();
    return out;
}

std::string dump(const rows& r) {
    std::string out;
    for (const auto& [k, v, ts] : r) out += k + "=" + (v ? std::to_string(*v) : "null") + "@" + std::to_string(ts) + " ";
    return out;
}

/// The latest row of each window.
std::map<str, std::pair<std::optional<std::int64_t>, std::int64_t>> latest(const rows& r) {
    std::map<str, std::pair<std::optional<std::int64_t>, std::int64_t>> out;
    for (const auto& [k, v, ts] : r) out[k] = {v, ts};
    return out;
}

/// For every point of `input`: a run stopped right after a commit there, then a fresh one resuming
/// from the committed offset and metadata, gives what one uninterrupted run gives: exactly (each
/// final once) when emitting on close; the same latest row per window when emitting on update.
/// `changelog`: the same topology with changelog recovery, which an uninterrupted run of `t` must
/// equal too.
void check_restarts(const topology& t, const input_rows& input, bool on_close, const topology* changelog = nullptr) {
    const rows whole = pipe(t, input, 0, input.size());
    REQUIRE(!whole.empty());
    if (changelog) {
        const rows logged = pipe(*changelog, input, 0, input.size());
        INFO("recompute: " << dump(whole) << " / changelog: " << dump(logged));
        CHECK(whole == logged);
    }
    for (std::size_t stop = 1; stop < input.size(); ++stop) {
        INFO("stopped after " << stop << " records");
        std::int64_t committed = 0;
        std::map<std::string, std::string> metadata;
        rows before = pipe(t, input, 0, stop, {}, &committed, &metadata);
        REQUIRE(committed <= static_cast<std::int64_t>(stop));
        const rows after = pipe(t, input, static_cast<std::size_t>(committed), input.size(), metadata);
        before.insert(before.end(), after.begin(), after.end());
        INFO("resumed from " << committed << ": " << dump(before) << " / uninterrupted: " << dump(whole));
        if (on_close) CHECK(before == whole);
        else CHECK(latest(before) == latest(whole));
    }
}

/// Two restarts: the first resumed run stops again, either in the middle of its replay (a commit
/// taken while replaying must still hold what the first commit held) or a little past it, and a
/// third run resumes from its commit.
void check_double_restarts(const topology& t, const input_rows& input, bool on_close) {
    const rows whole = pipe(t, input, 0, input.size());
    for (std::size_t stop = 1; stop < input.size(); ++stop) {
        std::int64_t first = 0;
        std::map<std::string, std::string> metadata;
        const rows before = pipe(t, input, 0, stop, {}, &first, &metadata);
        const std::size_t from = static_cast<std::size_t>(first);
        for (std::size_t second_stop : {from + std::max<std::size_t>(1, (stop - from) / 2), stop + 2}) {
            if (second_stop <= from || second_stop >= input.size()) continue;
            INFO("stopped after " << stop << " records, resumed from " << from << ", stopped again after " << second_stop);
            std::int64_t second = 0;
            std::map<std::string, std::string> metadata2;
            rows out = before;
            const rows middle = pipe(t, input, from, second_stop, metadata, &second, &metadata2);
            REQUIRE(second <= static_cast<std::int64_t>(second_stop));
            const rows after = pipe(t, input, static_cast<std::size_t>(second), input.size(), metadata2);
            out.insert(out.end(), middle.begin(), middle.end());
            out.insert(out.end(), after.begin(), after.end());
            INFO("resumed again from " << second << ": " << dump(out) << " / uninterrupted: " << dump(whole));
            if (on_close) CHECK(out == whole);
            else CHECK(latest(out) == latest(whole));
        }
    }
}

const input_rows restart_input{{"a", 1},  {"b", 3},  {"a", 12}, {"a", 4},  {"b", 25}, {"a", 9},  {"a", 26},
                               {"b", 2},  {"a", 40}, {"b", 41}, {"a", 33}, {"a", 36}, {"b", 44}, {"a", 70},
                               {"b", 69}, {"a", 61}, {"a", 66}, {"b", 90}};
}  // namespace

TEST_CASE("a restart from a held commit rebuilds tumbling and hopping windows exactly") {
    const auto m = materialized<>::as("counts").with_recovery(recovery::recompute);
    check_restarts(time_count(time_windows::of_size_and_grace(10ms, 5ms), m), restart_input, false);
    check_restarts(time_count(time_windows::of_size_and_grace(10ms, 5ms), m, true), restart_input, true);
    const auto hopping = time_windows::of_size_and_grace(10ms, 3ms).advance_by(4ms);
    check_restarts(time_count(hopping, m), restart_input, false);
    check_restarts(time_count(hopping, m, true), restart_input, true);
}

TEST_CASE("a restart from a held commit rebuilds a windowed cogroup exactly") {
    check_restarts(cogroup_count(materialized<>::as("counts").with_recovery(recovery::recompute)), restart_input, false);
}

TEST_CASE("a restart from a held commit rebuilds sliding windows exactly") {
    const auto m = materialized<>::as("counts").with_recovery(recovery::recompute);
    for (const auto& [difference, grace] : {std::pair{10ms, 5ms}, std::pair{3ms, 20ms}, std::pair{5ms, 0ms}}) {
        INFO("difference " << difference.count() << " ms, grace " << grace.count() << " ms");
        const auto sliding = sliding_windows::of_time_difference_and_grace(difference, grace);
        check_restarts(time_count(sliding, m), restart_input, false);
        check_restarts(time_count(sliding, m, true), restart_input, true);
    }
}

TEST_CASE("a restart from a version 1 commit (no replay stream time) still resumes") {
    // Written by an older kstreams: the replay starts from the commit's stream time.
    const topology t = time_count(time_windows::of_size_and_grace(10ms, 5ms), materialized<>::as("counts").with_recovery(recovery::recompute));
    const input_rows rows_in{{"a", 1}, {"a", 12}, {"a", 16}};
    const rows whole = pipe(t, rows_in, 0, rows_in.size());
    // Stopped after a@12: [0,10) is open (close time 7), so the commit held offset 0.
    const rows resumed = pipe(t, rows_in, 0, rows_in.size(), {{"in", "kstreams-recompute:1:2;28:KSTREAM-AGGREGATE-000000000112,7"}});
    CHECK(latest(resumed) == latest(whole));
}

namespace {
/// Out-of-order input from a seed: keys a-c, timestamps wandering forward with jumps back.
input_rows generated_input(unsigned seed, std::size_t n) {
    input_rows out;
    std::uint64_t x = seed * 2654435761u + 1;
    auto next = [&x](std::uint64_t bound) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        return (x >> 33) % bound;
    };
    std::int64_t t = 0;
    for (std::size_t i = 0; i < n; ++i) {
        t += static_cast<std::int64_t>(next(6));
        const std::int64_t back = next(4) == 0 ? static_cast<std::int64_t>(next(15)) : 0;
        out.emplace_back(std::string(1, static_cast<char>('a' + next(3))), std::max<std::int64_t>(0, t - back));
    }
    return out;
}
}  // namespace

TEST_CASE("restarts at every point of generated out-of-order input rebuild sliding and hopping windows") {
    const auto m = materialized<>::as("counts").with_recovery(recovery::recompute);
    for (unsigned seed : {7u, 42u, 1234u}) {
        INFO("seed " << seed);
        const input_rows in = generated_input(seed, 40);
        const auto sliding = sliding_windows::of_time_difference_and_grace(6ms, 4ms);
        check_restarts(time_count(sliding, m), in, false);
        check_restarts(time_count(sliding, m, true), in, true);
        const auto hopping = time_windows::of_size_and_grace(8ms, 4ms).advance_by(3ms);
        check_restarts(time_count(hopping, m), in, false);
        check_restarts(time_count(hopping, m, true), in, true);
    }
}

// ---- session windows ---------------------------------------------------------------------------

namespace {
/// Restarts after every prefix of `input` for session windows `w` emitting on update (cached and
/// not) and on close, checked against the changelog variant run without a restart: uncached in
/// memory emitting on update (a record cache may show a merge sessions past the retention, which
/// a replay could not; recomputation shows what an uncached store shows, cached or not); RocksDB's
/// time-ordered store, the default, emitting on close (an in-memory one with the default
/// retention shows no closed session to emit).
void check_session_restarts(session_windows w, std::chrono::milliseconds retention, const input_rows& input) {
    const auto m = materialized<>::as("counts").with_retention(retention);
    const auto recompute = m.with_recovery(recovery::recompute);
    const topology logged_update = session_count(m.with_in_memory_store().with_caching_disabled(), false, w);
    const topology logged_close = session_count(m, true, w);
    {
        INFO("on update, uncached");
        check_restarts(session_count(recompute.with_caching_disabled(), false, w), input, false, &logged_update);
    }
    {
        INFO("on update, cached");
        check_restarts(session_count(recompute, false, w), input, false);
    }
    INFO("on close");
    check_restarts(session_count(recompute, true, w), input, true, &logged_close);
}

/// Sessions that grow, merge (a record bridging two), and records that are late or just in time.
const input_rows session_input{{"a", 1},  {"a", 4},  {"b", 2},  {"a", 12}, {"a", 8},  {"b", 9},  {"a", 20},
                               {"b", 30}, {"a", 3},  {"a", 16}, {"b", 22}, {"a", 26}, {"b", 27}, {"a", 40},
                               {"a", 33}, {"b", 44}, {"a", 36}, {"a", 31}, {"b", 60}, {"a", 61}, {"b", 52},
                               {"a", 90}};
}  // namespace

TEST_CASE("a session holds its first record while it can still change, however long it lasts") {
    // Gap 5 ms, no grace, the default retention (gap + grace): a session is done with once stream
    // time is more than 5 ms past its end.
    const topology t = session_count(materialized<>::as("counts").with_retention(5ms).with_recovery(recovery::recompute),
                                     false, session_windows::of_inactivity_gap_and_grace(5ms, 0ms));
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, str>("in");
    // A key active every 4 ms keeps one session open: its first record stays held.
    for (std::int64_t ts = 0; ts <= 40; ts += 4) {
        in.pipe_input("a", "x", ts);
        CHECK(d.committed_offsets().at("in") == 0);
    }
    in.pipe_input("b", "x", 44);  // offset 11: a's session [0,40] can still take a@45
    CHECK(d.committed_offsets().at("in") == 0);
    in.pipe_input("b", "x", 46);  // offset 12: stream time 46 is past a's end + 5: released
    CHECK(d.committed_offsets().at("in") == 11);
    in.pipe_input("a", "x", 40);  // late: holds nothing
    CHECK(d.committed_offsets().at("in") == 11);
}

TEST_CASE("emitting on close, a session is held until it is emitted, also past its retention") {
    // Retention 20 ms: a session ending at 10 is merged into while stream time < 30; emitted once
    // stream time passes 10 + gap + grace = 15, which comes first here; then held until 30.
    const topology t = session_count(materialized<>::as("counts").with_retention(20ms).with_recovery(recovery::recompute),
                                     true, session_windows::of_inactivity_gap_and_grace(5ms, 0ms));
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 10);  // offset 0
    in.pipe_input("b", "x", 16);  // offset 1: a@10 closes and is emitted, still shown to merges
    CHECK(d.create_output_topic<str, std::optional<std::int64_t>>("out").read_records_to_list().size() == 1);
    CHECK(d.committed_offsets().at("in") == 0);
    in.pipe_input("b", "x", 30);  // offset 2: a's session is gone from the store; b@16 still held
    CHECK(d.committed_offsets().at("in") == 1);
}

TEST_CASE("a restart from a held commit rebuilds session windows exactly") {
    for (const auto& [gap, grace, retention] :
         {std::tuple{5ms, 3ms, 8ms}, std::tuple{5ms, 0ms, 5ms}, std::tuple{3ms, 10ms, 13ms}, std::tuple{4ms, 2ms, 30ms}}) {
        INFO("gap " << gap.count() << " ms, grace " << grace.count() << " ms, retention " << retention.count() << " ms");
        check_session_restarts(session_windows::of_inactivity_gap_and_grace(gap, grace), retention, session_input);
        check_session_restarts(session_windows::of_inactivity_gap_and_grace(gap, grace), retention, restart_input);
    }
}

TEST_CASE("restarts at every point of generated out-of-order input rebuild session windows") {
    for (unsigned seed : {7u, 42u, 1234u}) {
        INFO("seed " << seed);
        const input_rows in = generated_input(seed, 40);
        check_session_restarts(session_windows::of_inactivity_gap_and_grace(3ms, 4ms), 7ms, in);
        check_session_restarts(session_windows::of_inactivity_gap_and_grace(2ms, 0ms), 2ms, in);
        check_session_restarts(session_windows::of_inactivity_gap_and_grace(3ms, 2ms), 25ms, in);
    }
}

TEST_CASE("two restarts, the second in the middle of the replay, rebuild session windows exactly") {
    const auto m = materialized<>::as("counts").with_recovery(recovery::recompute);
    for (unsigned seed : {7u, 42u}) {
        INFO("seed " << seed);
        const input_rows in = generated_input(seed, 40);
        for (const auto& w : {session_windows::of_inactivity_gap_and_grace(3ms, 4ms), session_windows::of_inactivity_gap_and_grace(2ms, 0ms)}) {
            const auto retention = std::chrono::milliseconds(w.inactivity_gap() + w.grace());
            check_double_restarts(session_count(m.with_retention(retention), false, w), in, false);
            check_double_restarts(session_count(m.with_retention(retention), true, w), in, true);
        }
    }
    check_double_restarts(session_count(m.with_retention(8ms), true, session_windows::of_inactivity_gap_and_grace(5ms, 3ms)),
                          session_input, true);
}

TEST_CASE("replayed records dropped as late are not counted again") {
    // Tumbling 10 ms, no grace: a@3 is late once a@12 has closed [0,10); the commit holds a@12.
    const topology t = time_count(time_windows::of_size_with_no_grace(10ms), materialized<>::as("counts").with_recovery(recovery::recompute));
    const input_rows rows_in{{"a", 1}, {"a", 12}, {"a", 3}, {"a", 5}};
    std::int64_t committed = 0;
    std::map<std::string, std::string> metadata;
    kstreams::metrics first;
    pipe(t, rows_in, 0, 3, {}, &committed, &metadata, &first);
    CHECK(committed == 1);
    CHECK(first.value("dropped-records") == 1);
    CHECK(first.value("dropped-records.late") == 1);
    // Resumed: a@12 and a@3 come again (a@3 dropped again, not counted), then a@5 is new and late.
    kstreams::metrics second;
    pipe(t, rows_in, 1, rows_in.size(), metadata, nullptr, nullptr, &second);
    CHECK(second.value("dropped-records") == 1);
    CHECK(second.value("dropped-records.late") == 1);
    CHECK(second.value("records-replayed") == 2);
}

TEST_CASE("session windows at real-world times, across a store's minute segments, emit every final on close") {
    // Bursts of 5 records 200 ms apart every other second for 3 minutes, 4 keys, gap 300 ms.
    const std::int64_t base = 1796576171000;
    input_rows in;
    for (int i = 0; i < 18000; ++i)
        if ((i / 100) % 2 == 0 && i % 20 < 4) in.emplace_back("k" + std::to_string(i % 20), base + 10LL * i);
    const auto w = session_windows::of_inactivity_gap_with_no_grace(300ms);
    const auto m = materialized<>::as("counts").with_retention(10s);
    const rows recomputed = pipe(session_count(m.with_recovery(recovery::recompute), true, w), in, 0, in.size());
    const rows logged = pipe(session_count(m, true, w), in, 0, in.size());
    CHECK(recomputed.size() == logged.size());
    CHECK(recomputed == logged);
    CHECK(logged.size() == 4 * 90 - 4);  // the last burst's sessions are still open
}

TEST_CASE("emitting on close, sessions closed while commits and the emit interval are seconds of stream time apart are "
          "all emitted, across the store's minute segments and a jump of stream time") {
    // As the real app sees it: input 30 times faster than the wall clock, a commit every 3 s of
    // stream time (100 ms of wall-clock time), the app's 1 s emit interval (and the driver's 0).
    // The in-memory store drops a minute segment once its stream time is the retention past the
    // minute: the sessions that closed in it must have gone out before, though no commit or
    // emission came in between (and with emission at every record as in the driver, the write
    // that drops the segment comes before the record's emission). 4 keys, a burst of 5 records
    // 200 ms apart every other second (one session of 5 each; gap 300 ms, no grace, the default
    // retention), from 3 s before a minute for 3 minutes, then a record 62 s later closes the
    // last bursts' sessions.
    const std::int64_t base = 1796576160000 - 3000;
    const auto w = session_windows::of_inactivity_gap_with_no_grace(300ms);
    const topology t = session_count(materialized<>::as("counts").with_retention(300ms).with_recovery(recovery::recompute),
                                     true, w);
    for (const std::int64_t emit_interval : {1000, 0}) {
        INFO("emit interval " << emit_interval << " ms");
        test::driver_config cfg;
        cfg.commit_after_every_record = false;
        cfg.windowed_aggregation_emit_interval_ms = emit_interval;
        test::topology_test_driver d(t, cfg);
        auto in = d.create_input_topic<str, str>("in");
        std::vector<str> expected;
        for (int i = 0; i < 18000; ++i) {
            const int key = i % 20;
            if ((i / 100) % 2 == 0 && key < 4) in.pipe_input("k" + std::to_string(key), "x", base + 10LL * i);
            if ((i / 100) % 2 == 0 && i % 100 < 4) {
                const std::int64_t start = base + 10LL * i;
                expected.push_back("k" + std::to_string(key) + "@" + std::to_string(start) + "/" +
                                   std::to_string(start + 800));
            }
            if (i % 300 == 299) {
                d.advance_wall_clock_time(100ms);
                d.commit();
            }
        }
        in.pipe_input("k0", "x", base + 180000 + 62000);
        d.commit();
        std::vector<str> emitted;
        for (const auto& rec : d.create_output_topic<str, std::optional<std::int64_t>>("out").read_records_to_list()) {
            CHECK_MESSAGE(rec.value == std::optional<std::int64_t>(5), rec.key);
            emitted.push_back(rec.key);
        }
        std::sort(expected.begin(), expected.end());
        std::sort(emitted.begin(), emitted.end());
        std::vector<str> missing;
        std::set_difference(expected.begin(), expected.end(), emitted.begin(), emitted.end(),
                            std::back_inserter(missing));
        CHECK_MESSAGE(missing.empty(),
                      missing.size() << " sessions never emitted, e.g. " << (missing.empty() ? "" : missing.front()));
        CHECK(emitted == expected);  // each once
    }
}
