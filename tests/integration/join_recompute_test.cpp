// Stream-stream join buffers recovered by recomputation (issue J) on the real broker: a left join
// whose buffers have no changelog (join_app), SIGKILLed at random moments while both inputs flow
// and restarted each time. The restarted instance replays each input from the offset held at the
// earliest record a buffer still needs. Every left record's result is there: its pair for those
// with a partner (at-least-once), "<left>+-" for those without (under exactly_once_v2 once), and
// no changelog topic exists.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <thread>

#include "lib/kafka/topic_admin.hpp"
#include "tests/integration/app_process.hpp"
#include "tests/integration/broker_fixture.hpp"

using namespace kstreams;
using namespace std::chrono_literals;

namespace {

constexpr int keys = 20;
constexpr int records = 20000;  // left records 10 ms apart in event time; every other one has a right partner
const std::int64_t base_ms =
    (std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count() - 3600) *
    1000;

void crash_and_restart_join(const std::string& guarantee) {
    const bool eos = guarantee == "exactly_once_v2";
    const std::string left = test::unique("join-left"), right = test::unique("join-right"), out = test::unique("join-out");
    const std::string app_id = test::unique("join-recompute-" + guarantee);
    const std::filesystem::path dir = test::temp_state_dir("join-recompute");
    test::create_topics({{left, 2}, {right, 2}, {out, 2}});
    std::atomic<bool> fed{false};
    std::thread feeder([&] {
        test::topic_writer writer(test::broker());
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < records; ++i) {
            const std::string key = "k" + std::to_string(i % keys);
            writer.send(left, key, "L" + std::to_string(i), base_ms + 10LL * i);
            // A key's records are 200 ms apart: each right record pairs with its left one only.
            if (i % 2 == 0) writer.send(right, key, "R" + std::to_string(i), base_ms + 10LL * i + 5);
            if (i % 1000 == 999) std::this_thread::sleep_until(start + std::chrono::milliseconds(i / 3));
        }
        // Far in event time on every key of both inputs: closes every window above.
        for (int k = 0; k < keys; ++k) {
            writer.send(left, "k" + std::to_string(k), std::string("end"), base_ms + 10LL * records + 60000);
            writer.send(right, "k" + std::to_string(k), std::string("end"), base_ms + 10LL * records + 60000);
        }
        writer.flush(120s);
        fed = true;
    });
    auto args = [&](const std::string& instance) {
        return std::vector<std::string>{test::broker(), app_id, left, right, out, (dir / "state").string(), guarantee, instance};
    };
    const unsigned seed = std::random_device{}();
    MESSAGE(guarantee << ": kill moments from seed " << seed);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> lifetime_ms(800, 2500);
    const char* kills_env = std::getenv("KSTREAMS_JOIN_KILLS");  // to compare with a run never killed
    const int kills = kills_env ? std::atoi(kills_env) : 4;
    for (int run = 0; run < kills; ++run) {
        test::instance app(args("join-instance"), dir / ("run" + std::to_string(run) + ".log"), "KSTREAMS_JOIN_APP");
        std::this_thread::sleep_for(std::chrono::milliseconds(lifetime_ms(rng)));
        app.kill_hard();
    }
    feeder.join();
    REQUIRE(fed);
    test::instance app(args("join-instance"), dir / "final.log", "KSTREAMS_JOIN_APP");

    // Every left record's results: "L<i>+R<i>" for even i, "L<i>+-" for odd i.
    std::map<int, std::map<std::string, int>> results;
    test::read_until_done(
        out, eos,
        [&](const test::consumed_record& r) {
            const std::string v = r.value_as<std::string>();
            if (v.size() < 2 || v[0] != 'L') return;  // the end records
            results[std::stoi(v.substr(1))][v]++;
        },
        [&] { return results.size() >= static_cast<std::size_t>(records); });
    std::size_t missing = 0, wrong = 0, repeated_pairs = 0, repeated_alone = 0;
    std::string example, wrong_example;
    for (int i = 0; i < records; ++i) {
        const std::string expected = "L" + std::to_string(i) + "+" + (i % 2 == 0 ? "R" + std::to_string(i) : "-");
        const auto it = results.find(i);
        if (it == results.end() || !it->second.count(expected)) {
            if (missing++ < 5) {
                example += expected + " missing (";
                if (it != results.end())
                    for (const auto& [v, n] : it->second) example += v + " x" + std::to_string(n) + " ";
                example += ") ";
            }
            continue;
        }
        if (it->second.size() != 1 && wrong++ == 0)
            for (const auto& [v, n] : it->second) wrong_example += v + " x" + std::to_string(n) + " ";
        const int times = it->second.at(expected);
        (i % 2 == 0 ? repeated_pairs : repeated_alone) += static_cast<std::size_t>(times - 1);
    }
    {
        // The ranges of left records without their result, to compare with the kill moments.
        std::string ranges;
        int from = -1, last = -1;
        auto wrong_at = [&](int i) {
            const std::string e = "L" + std::to_string(i) + "+" + (i % 2 == 0 ? "R" + std::to_string(i) : "-");
            const auto it = results.find(i);
            return it == results.end() || !it->second.count(e) || it->second.size() != 1 || it->second.at(e) != 1;
        };
        for (int i = 0; i <= records; ++i) {
            if (i < records && wrong_at(i)) {
                if (from < 0) from = i;
                last = i;
            } else if (from >= 0 && i - last > 2) {
                ranges += std::to_string(from) + "-" + std::to_string(last) + " ";
                from = -1;
            }
        }
        if (!ranges.empty()) MESSAGE("left records whose results are not exactly the expected ones: " << ranges);
    }
    CHECK_MESSAGE(missing == 0, missing << " left records without their result, e.g. " << example
                                        << "; the last app's log ends:\n" << app.tail());
    CHECK_MESSAGE(wrong == 0, wrong << " left records with a result they should not have, e.g. " << wrong_example);
    if (eos) CHECK_MESSAGE(repeated_alone == 0, repeated_alone << " results without partner written more than once");
    MESSAGE(guarantee << ": " << repeated_pairs << " pairs and " << repeated_alone << " results without partner written again");

    // No changelog topic of the application's.
    kafka::topic_admin admin({{"bootstrap.servers", test::broker()}, {"log_level", "3"}}, 30s, nullptr);
    for (const auto& [topic, partitions] : admin.partition_counts(true))
        CHECK_MESSAGE(topic.find(app_id) != 0, "topic " << topic << " of the application exists");
    CHECK(app.stop() == 0);
    if (missing == 0 && wrong == 0) std::filesystem::remove_all(dir);
}

}  // namespace

TEST_CASE("recompute join, exactly_once_v2: SIGKILLed 4 times at random moments, every left record's result is "
          "there, each result without partner once, no changelog topic") {
    crash_and_restart_join("exactly_once_v2");
}
