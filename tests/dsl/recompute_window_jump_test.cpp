// Recovery by recomputation of tumbling and hopping windows emitting on close
// (emit_strategy::on_window_close, or an on-update count behind suppress(until_window_closes)):
// one record moving stream time over several of the store's minute segments at once must not lose
// a closed window's final, cached or not, at the driver's emit interval and at the app's; each
// final goes out exactly once, also across a restart from the commit after such a jump. Checked
// against a model of the windows, and against the changelog variant where it keeps every final.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
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
using input_rows = std::vector<std::pair<str, std::int64_t>>;
using finals = std::vector<std::tuple<str, std::int64_t, std::int64_t>>;  // key@start/end, count, ts

struct window_shape {
    const char* name;
    std::chrono::milliseconds size, advance, grace;
    time_windows windows() const { return time_windows::of_size_and_grace(size, grace).advance_by(advance); }
};

const window_shape shapes[] = {
    {"tumbling 1 s, no grace", 1000ms, 1000ms, 0ms},
    {"tumbling 1 s, grace 400 ms", 1000ms, 1000ms, 400ms},
    {"hopping 1 s by 250 ms, no grace", 1000ms, 250ms, 0ms},
    {"hopping 2 s by 500 ms, grace 300 ms", 2000ms, 500ms, 300ms},
};

enum class emission { on_window_close, suppress };

str show(const windowed<str>& w) { return w.key + "@" + std::to_string(w.window.start) + "/" + std::to_string(w.window.end); }

topology count_on_close(const window_shape& s, emission how, const materialized<>& m) {
    streams_builder b;
    auto w = b.stream<str, str>("in").group_by_key().windowed_by(s.windows());
    auto counts = how == emission::on_window_close ? w.emit_strategy(emit_strategy::on_window_close()).count(m)
                                                   : w.count(m).suppress(suppressed::until_window_closes(buffer_config::unbounded()));
    counts.to_stream().select_key([](const windowed<str>& k, std::int64_t) { return show(k); }).to("out");
    return b.build();
}

/// The finals of the windows closed by the end of `input`: a record counts in each window it
/// falls in that is still open at the stream time it brings (end > stream time - grace).
finals expected_finals(const window_shape& s, const input_rows& input) {
    const std::int64_t size = s.size.count(), advance = s.advance.count(), grace = s.grace.count();
    std::map<std::pair<str, std::int64_t>, std::pair<std::int64_t, std::int64_t>> windows;  // count, ts
    std::int64_t stream_time = -1;
    for (const auto& [key, ts] : input) {
        stream_time = std::max(stream_time, ts);
        for (std::int64_t start = ts - ts % advance; start > ts - size && start >= 0; start -= advance) {
            if (start + size <= stream_time - grace) continue;  // late
            auto& [count, max_ts] = windows[{key, start}];
            ++count;
            max_ts = std::max(max_ts, ts);
        }
    }
    finals out;
    for (const auto& [w, v] : windows)
        if (w.second + size <= stream_time - grace)
            out.emplace_back(w.first + "@" + std::to_string(w.second) + "/" + std::to_string(w.second + size), v.first, v.second);
    std::sort(out.begin(), out.end());
    return out;
}

/// Four keys at real-world times: seconds of records 20 ms apart across a minute, a record that
/// moves stream time over five minute segments, more seconds of records (some out of order
/// within the grace), a jump of ten minutes, and a last record that closes everything before it.
input_rows jumping_input() {
    const std::int64_t base = 1796576160000 - 3000;
    input_rows in;
    for (int i = 0; i < 300; ++i) in.emplace_back("k" + std::to_string(i % 4), base + 20LL * i);
    in.emplace_back("k1", base + 5 * 60000 + 1234);
    for (int i = 0; i < 200; ++i) {
        const std::int64_t ts = base + 5 * 60000 + 1300 + 20LL * i - (i % 7 == 3 ? 250 : 0);
        in.emplace_back("k" + std::to_string((i * 3) % 4), ts);
    }
    in.emplace_back("k2", base + 15 * 60000 + 777);
    in.emplace_back("k3", base + 15 * 60000 + 790);
    in.emplace_back("k0", base + 40 * 60000);
    return in;
}

struct run_config {
    bool cached = true;
    std::int64_t emit_interval_ms = 0;
    int commit_every = 1;  ///< records between commits (the wall clock moves 100 ms a commit)
};

struct run_state {
    std::int64_t committed = 0;
    std::map<std::string, std::string> metadata;
    std::map<std::string, std::vector<test::produced_record>> changelogs;
};

/// Pipes `input[from, to)` (the records keep their offsets) into a fresh driver resuming from
/// `resume`, and reads the finals; `after` (if given) gets what the run committed.
finals pipe(const topology& t, const input_rows& input, std::size_t from, std::size_t to, const run_config& rc,
            const run_state& resume = {}, run_state* after = nullptr) {
    test::driver_config cfg;
    cfg.commit_after_every_record = rc.commit_every == 1;
    cfg.windowed_aggregation_emit_interval_ms = rc.emit_interval_ms;
    cfg.committed_metadata = resume.metadata;
    cfg.changelogs = resume.changelogs;
    cfg.first_input_offsets["in"] = static_cast<std::int64_t>(from);
    test::topology_test_driver d(t, cfg);
    auto in = d.create_input_topic<str, str>("in");
    for (std::size_t i = from; i < to; ++i) {
        in.pipe_input(input[i].first, "x", input[i].second);
        if (rc.commit_every > 1 && (i + 1) % static_cast<std::size_t>(rc.commit_every) == 0) {
            d.advance_wall_clock_time(100ms);
            d.commit();
        }
    }
    d.commit();
    finals out;
    for (const auto& rec : d.create_output_topic<str, std::int64_t>("out").read_records_to_list())
        out.emplace_back(rec.key, rec.value, rec.timestamp);
    if (after) {
        after->committed = d.committed_offsets().count("in") ? d.committed_offsets().at("in") : 0;
        after->metadata = d.committed_metadata();
        after->changelogs = d.changelog_records();
    }
    return out;
}

std::string describe(const finals& missing_or_extra) {
    std::string out = std::to_string(missing_or_extra.size());
    if (!missing_or_extra.empty()) out += ", e.g. " + std::get<0>(missing_or_extra.front());
    return out;
}

/// Every final of the model, each once.
void check_every_final_once(finals emitted, const finals& expected) {
    std::sort(emitted.begin(), emitted.end());
    finals missing, extra;
    std::set_difference(expected.begin(), expected.end(), emitted.begin(), emitted.end(), std::back_inserter(missing));
    std::set_difference(emitted.begin(), emitted.end(), expected.begin(), expected.end(), std::back_inserter(extra));
    CHECK_MESSAGE(missing.empty(), "finals never emitted (or wrong): " << describe(missing));
    CHECK_MESSAGE(extra.empty(), "finals emitted twice (or wrong): " << describe(extra));
}

materialized<> recomputed_store(bool cached) {
    const auto m = materialized<>::as("counts").with_recovery(recovery::recompute);
    return cached ? m : m.with_caching_disabled();
}
}  // namespace

TEST_CASE("emitting on close, tumbling and hopping windows recovered by recomputation emit every final once when one "
          "record moves stream time over several minute segments") {
    const input_rows input = jumping_input();
    for (const auto& shape : shapes) {
        const finals expected = expected_finals(shape, input);
        REQUIRE(expected.size() > 40);
        for (const emission how : {emission::on_window_close, emission::suppress}) {
            for (const bool cached : {true, false}) {
                for (const run_config rc : {run_config{cached, 0, 1}, run_config{cached, 1000, 30}}) {
                    const std::string label = std::string(shape.name) +
                                              (how == emission::suppress ? ", suppress" : ", on_window_close") +
                                              (cached ? ", cached" : ", uncached") + ", emit interval " +
                                              std::to_string(rc.emit_interval_ms) + " ms, a commit every " +
                                              std::to_string(rc.commit_every) + " records";
                    INFO(label);
                    check_every_final_once(pipe(count_on_close(shape, how, recomputed_store(cached)), input, 0, input.size(), rc),
                                           expected);
                }
            }
        }
    }
}

TEST_CASE("uncached, the changelog variant (Kafka's) loses finals a jump of stream time hides; with a retention that "
          "keeps them it gives what recomputation gives, record for record") {
    const input_rows input = jumping_input();
    for (const auto& shape : shapes) {
        INFO(std::string(shape.name));
        const auto logged = materialized<>::as("counts").with_in_memory_store().with_caching_disabled();
        const finals recomputed = pipe(count_on_close(shape, emission::on_window_close, recomputed_store(false)), input, 0,
                                       input.size(), {});
        const finals kept = pipe(count_on_close(shape, emission::on_window_close, logged.with_retention(1h)), input, 0,
                                 input.size(), {});
        const finals lost = pipe(count_on_close(shape, emission::on_window_close, logged), input, 0, input.size(), {});
        CHECK(recomputed == kept);
        CHECK(lost.size() < kept.size());
        // Cached, the driver's flush after every record keeps the store's clock a record behind.
        CHECK(pipe(count_on_close(shape, emission::on_window_close, recomputed_store(true)), input, 0, input.size(), {}) ==
              pipe(count_on_close(shape, emission::on_window_close, materialized<>::as("counts")), input, 0, input.size(), {}));
    }
}

TEST_CASE("a restart from the commit after a jump of stream time over several minute segments emits every final once") {
    const input_rows input = jumping_input();
    for (const auto& shape : shapes) {
        const finals expected = expected_finals(shape, input);
        for (const emission how : {emission::on_window_close, emission::suppress}) {
            for (const bool cached : {true, false}) {
                for (const run_config rc : {run_config{cached, 0, 1}, run_config{cached, 1000, 30}}) {
                    const topology t = count_on_close(shape, how, recomputed_store(cached));
                    const finals whole = pipe(t, input, 0, input.size(), rc);
                    // Stopped within the first seconds, right after the jump of five minutes, right
                    // after the jump of ten.
                    for (const std::size_t stop : {std::size_t{150}, std::size_t{301}, std::size_t{502}}) {
                        const std::string label = std::string(shape.name) +
                                                  (how == emission::suppress ? ", suppress" : ", on_window_close") +
                                                  (cached ? ", cached" : ", uncached") + ", emit interval " +
                                                  std::to_string(rc.emit_interval_ms) + " ms, stopped after " +
                                                  std::to_string(stop) + " records";
                        INFO(label);
                        run_state state;
                        finals out = pipe(t, input, 0, stop, rc, {}, &state);
                        REQUIRE(state.committed <= static_cast<std::int64_t>(stop));
                        const finals after = pipe(t, input, static_cast<std::size_t>(state.committed), input.size(), rc, state);
                        out.insert(out.end(), after.begin(), after.end());
                        if (rc.emit_interval_ms == 0) CHECK(out == whole);
                        check_every_final_once(out, expected);
                    }
                }
            }
        }
    }
}

namespace {
topology sliding_count_on_close(std::chrono::milliseconds difference, std::chrono::milliseconds grace, const materialized<>& m) {
    streams_builder b;
    b.stream<str, str>("in")
        .group_by_key()
        .windowed_by(sliding_windows::of_time_difference_and_grace(difference, grace))
        .emit_strategy(emit_strategy::on_window_close())
        .count(m)
        .to_stream()
        .select_key([](const windowed<str>& k, std::int64_t) { return show(k); })
        .to("out");
    return b.build();
}

finals sorted(finals f) {
    std::sort(f.begin(), f.end());
    return f;
}
}  // namespace

TEST_CASE("emitting on close, sliding windows recovered by recomputation emit every final once across jumps of stream "
          "time, also after a restart from the commit after a jump") {
    const input_rows input = jumping_input();
    for (const auto& [difference, grace] : {std::pair{1000ms, 0ms}, std::pair{500ms, 300ms}}) {
        INFO("difference " << difference.count() << " ms, grace " << grace.count() << " ms");
        // Emitting on close, a sliding aggregation's store is uncached: every write moves its clock.
        const auto logged = materialized<>::as("counts").with_in_memory_store();
        const finals kept = pipe(sliding_count_on_close(difference, grace, logged.with_retention(1h)), input, 0, input.size(), {});
        const finals lost = pipe(sliding_count_on_close(difference, grace, logged), input, 0, input.size(), {});
        CHECK(lost.size() < kept.size());  // Kafka's (conformance window_emit_on_close_uncached_jump)
        const topology t = sliding_count_on_close(difference, grace, recomputed_store(true));
        for (const run_config rc : {run_config{true, 0, 1}, run_config{true, 1000, 30}}) {
            INFO("emit interval " << rc.emit_interval_ms << " ms");
            const finals whole = pipe(t, input, 0, input.size(), rc);
            if (rc.emit_interval_ms == 0) CHECK(whole == kept);
            CHECK(sorted(whole) == sorted(kept));
            for (const std::size_t stop : {std::size_t{301}, std::size_t{502}}) {
                INFO("stopped after " << stop << " records");
                run_state state;
                finals out = pipe(t, input, 0, stop, rc, {}, &state);
                const finals after = pipe(t, input, static_cast<std::size_t>(state.committed), input.size(), rc, state);
                out.insert(out.end(), after.begin(), after.end());
                if (rc.emit_interval_ms == 0) CHECK(out == whole);
                CHECK(sorted(out) == sorted(kept));
            }
        }
    }
}
