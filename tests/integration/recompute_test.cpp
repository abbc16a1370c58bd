// Recovery by recomputation (issue J) on the real broker: a windowed count whose store has no
// changelog (window_app), SIGKILLed at random moments while input flows and restarted each time.
// The restarted instance replays its input from the offsets held at the earliest open window and
// takes the stream time and what was already emitted from the commit's metadata. Every window's
// final count is exact; under exactly_once_v2 each final is written once, under at_least_once a
// final written after the last commit may be written again (the test prints how many were). And a
// second instance joining mid-stream takes a partition over by replaying it from the held commit.
// No changelog topic is ever created. The same over session windows (window_app's "session": each
// key's records in bursts of 5, every other second, 200 ms apart, so each burst is one session of
// 5): input 30 times faster than real time moves stream time seconds between the app's commits
// and emissions and across minute segments of its store, where every session must still go out.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <random>
#include <thread>

#include "tests/integration/app_process.hpp"
#include "tests/integration/broker_fixture.hpp"

using namespace kstreams;
using namespace std::chrono_literals;

namespace {

constexpr int keys = 20;
constexpr int records = 30000;            // 10 ms of event time each: 300 windows of 1 s
// An hour ago, on a whole second: recent enough for any broker's time-based retention.
const std::int64_t base_ms =
    (std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count() - 3600) *
    1000;
constexpr std::int64_t per_window = 1000 / 10 / keys;  // each key's records in one window

std::string key_of(int i) { return "k" + std::to_string(i % keys); }

/// One app's input and output topics, its state directory, and a feeder writing the input at
/// about 3,000 records per second (30 s of event time per second) on a thread of its own.
struct scenario {
    std::string guarantee;
    bool sessions = false;  ///< window_app's session windows; the input skips every other second
    bool eos = guarantee == "exactly_once_v2";
    std::string in = test::unique("recompute-in"), out = test::unique("recompute-out");
    std::string app_id = test::unique("recompute-" + guarantee);
    std::filesystem::path dir = test::temp_state_dir("recompute");
    std::atomic<bool> fed{false};
    std::thread feeder;

    explicit scenario(std::string g, bool session_windows = false) : guarantee(std::move(g)), sessions(session_windows) {
        test::create_topics({{in, 2}, {out, 2}});
        feeder = std::thread([this] {
            test::topic_writer writer(test::broker());
            const auto start = std::chrono::steady_clock::now();
            for (int i = 0; i < records; ++i) {
                if (!sessions || (i / 100) % 2 == 0) writer.send(in, key_of(i), std::string("v"), base_ms + 10LL * i);
                if (i % 1000 == 999) std::this_thread::sleep_until(start + std::chrono::milliseconds(i / 3));
            }
            // Far in event time on every key, so on both partitions: closes every window above.
            for (int k = 0; k < keys; ++k) writer.send(in, key_of(k), std::string("v"), base_ms + 10LL * records + 60000);
            writer.flush(120s);
            fed = true;
        });
    }
    ~scenario() {
        if (feeder.joinable()) feeder.join();
    }
    /// window_app's arguments; `instance`: its group.instance.id (static membership: a restarted
    /// instance takes its place in the group at once).
    std::vector<std::string> args(const std::string& instance) const {
        std::vector<std::string> a{test::broker(), app_id, in, out, (dir / "state").string(), guarantee, instance};
        if (sessions) a.emplace_back("session");
        return a;
    }
    /// Every final's key: a tumbling window "<key>@<start>" per key and second; a session
    /// "<key>@<start>/<end>" per key and burst (every other second, its 5 records 200 ms apart).
    std::vector<std::string> expected_finals() const {
        std::vector<std::string> out;
        for (int w = 0; w < records / 100; ++w)
            for (int k = 0; k < keys; ++k) {
                const std::int64_t start = base_ms + 1000LL * w;
                if (!sessions) out.push_back("k" + std::to_string(k) + "@" + std::to_string(start));
                else if (w % 2 == 0)
                    out.push_back("k" + std::to_string(k) + "@" + std::to_string(start + 10 * k) + "/" +
                                  std::to_string(start + 10 * k + 800));
            }
        return out;
    }
    /// The store recovered by recomputation has no changelog topic.
    void check_no_changelog() const {
        kafka::topic_admin admin({{"bootstrap.servers", test::broker()}, {"log_level", "3"}}, std::chrono::seconds(30), nullptr);
        for (const auto& [topic, partitions] : admin.partition_counts(true))
            CHECK_MESSAGE(!(topic.starts_with(app_id) && topic.find("changelog") != std::string::npos),
                          "a changelog topic exists: " << topic);
    }
    void wait_fed() {
        feeder.join();
        REQUIRE(fed);
    }

    /// Reads the output until every window has a final (or 90 s pass) and checks each final's
    /// count; under exactly_once_v2 each is written once. Returns whether all was right.
    bool check_finals(const test::instance& app) {
        std::map<std::string, std::vector<std::int64_t>> finals;  // window or session → every count written
        const std::vector<std::string> expected = expected_finals();
        const std::size_t windows = expected.size();
        test::read_until_done(
            out, eos, [&](const test::consumed_record& r) { finals[r.key_as<std::string>()].push_back(r.value_as<std::int64_t>()); },
            [&] { return finals.size() >= windows; });
        std::size_t missing = 0, wrong = 0, repeated = 0;
        std::string example;
        for (const std::string& key : expected) {
            auto it = finals.find(key);
            if (it == finals.end()) {
                if (missing++ == 0) example = key + " missing";
                continue;
            }
            for (std::int64_t c : it->second)
                if (c != per_window && wrong++ == 0) example = key + " = " + std::to_string(c);
            repeated += it->second.size() - 1;
        }
        CHECK_MESSAGE(finals.size() == windows, finals.size() << " windows written, expected " << windows);
        CHECK_MESSAGE(missing == 0, missing << " windows without a final, e.g. " << example
                                            << "; the last app's log ends:\n" << app.tail());
        CHECK_MESSAGE(wrong == 0, wrong << " finals with a wrong count (expected " << per_window << "), e.g. " << example);
        if (eos) CHECK_MESSAGE(repeated == 0, repeated << " finals written more than once");
        else MESSAGE(guarantee << ": " << repeated << " finals written again (same counts)");
        const bool ok = missing == 0 && wrong == 0 && (!eos || repeated == 0);
        if (!ok) MESSAGE("the runs' logs are kept in " << dir.string());
        return ok;
    }
};

/// What an instance's log says it replayed (window_app prints records-replayed at close).
std::string replayed(const std::string& log) {
    const auto at = log.find("records-replayed=");
    return at == std::string::npos ? std::string("did not say what it replayed") : log.substr(at, log.find(',', at) - at);
}

void crash_and_restart(const std::string& guarantee, bool sessions = false) {
    scenario s(guarantee, sessions);
    const unsigned seed = std::random_device{}();
    MESSAGE(guarantee << ": kill moments from seed " << seed);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> lifetime_ms(800, 2500);
    for (int run = 0; run < 5; ++run) {
        test::instance app(s.args("recompute-instance"), s.dir / ("run" + std::to_string(run) + ".log"), "KSTREAMS_WINDOW_APP");
        std::this_thread::sleep_for(std::chrono::milliseconds(lifetime_ms(rng)));
        app.kill_hard();
    }
    s.wait_fed();
    test::instance app(s.args("recompute-instance"), s.dir / "final.log", "KSTREAMS_WINDOW_APP");
    const bool ok = s.check_finals(app);
    CHECK(app.stop() == 0);
    MESSAGE(guarantee << std::string(sessions ? ", sessions" : "") << ": the final run " << replayed(app.output()));
    s.check_no_changelog();
    if (ok) std::filesystem::remove_all(s.dir);
}

/// A second instance joins while input flows: the first gives up a partition (its task commits
/// no further than its open windows, and closes), the second replays that partition from there
/// and rebuilds the open windows; every final is exact, as one instance alone would write them.
void join_mid_stream(const std::string& guarantee, bool sessions = false) {
    scenario s(guarantee, sessions);
    test::instance first(s.args("recompute-a"), s.dir / "a.log", "KSTREAMS_WINDOW_APP");
    std::this_thread::sleep_for(3s);  // about a third of the input
    test::instance second(s.args("recompute-b"), s.dir / "b.log", "KSTREAMS_WINDOW_APP");
    s.wait_fed();
    const bool ok = s.check_finals(second);
    CHECK(first.stop() == 0);
    CHECK(second.stop() == 0);
    const std::string b = second.output();
    MESSAGE(guarantee << std::string(sessions ? ", sessions" : "") << ": the joining instance " << replayed(b) << ", the first "
                      << replayed(first.output()));
    CHECK_MESSAGE(second.had_partitions(), "the second instance took no partition:\n" << b);
    if (ok) std::filesystem::remove_all(s.dir);
}

}  // namespace

TEST_CASE("recompute, exactly_once_v2: SIGKILLed 5 times at random moments, every window's final is exact and "
          "written once") {
    crash_and_restart("exactly_once_v2");
}

TEST_CASE("recompute, at_least_once: SIGKILLed 5 times at random moments, every window's final is exact") {
    crash_and_restart("at_least_once");
}

TEST_CASE("recompute, exactly_once_v2: a second instance joins mid-stream and rebuilds the open windows of the "
          "partition it takes; every final is exact and written once") {
    join_mid_stream("exactly_once_v2");
}

TEST_CASE("recompute, at_least_once: a second instance joins mid-stream; every final is exact") {
    join_mid_stream("at_least_once");
}

TEST_CASE("recompute, exactly_once_v2, session windows: SIGKILLed 5 times at random moments, every session's final "
          "is exact and written once") {
    crash_and_restart("exactly_once_v2", true);
}

TEST_CASE("recompute, at_least_once, session windows: SIGKILLed 5 times at random moments, every session's final is "
          "exact") {
    crash_and_restart("at_least_once", true);
}

TEST_CASE("recompute, exactly_once_v2, session windows: a second instance joins mid-stream and rebuilds the open "
          "sessions of the partition it takes; every final is exact and written once") {
    join_mid_stream("exactly_once_v2", true);
}

TEST_CASE("recompute, at_least_once, session windows: a second instance joins mid-stream; every session's final is "
          "exact") {
    join_mid_stream("at_least_once", true);
}
