// A windowed count on the real broker (issue C): its window store (RocksDB, segmented) restores
// from the changelog after the state directory is wiped, so a later record in an old window
// counts on from the restored count; the changelog holds Kafka's windowed key format.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <string>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/state/restore_listener.hpp>
#include <kstreams/streams.hpp>

#include "tests/integration/broker_fixture.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
namespace fs = std::filesystem;
using str = std::string;
using counts = std::map<str, std::int64_t>;

namespace {

topology windowed_count(const str& in, const str& out) {
    streams_builder b;
    b.stream<str, str>(in)
        .group_by_key()
        .windowed_by(time_windows::of_size_and_grace(1000ms, std::chrono::hours(1)))
        .count(materialized<>::as("window-counts"))
        .to_stream()
        .map([](const windowed<str>& k, std::int64_t n) {
            return key_value<str, std::int64_t>{k.key + "@" + std::to_string(k.window.start), n};
        })
        .to(out);
    return b.build();
}

struct counting_listener final : state_restore_listener {
    std::atomic<std::int64_t> restored{0};
    void on_restore_start(std::string_view, std::int32_t, std::string_view, std::int64_t, std::int64_t) override {}
    void on_batch_restored(std::string_view, std::int32_t, std::string_view, std::int64_t, std::int64_t n) override {
        restored += n;
    }
    void on_restore_end(std::string_view, std::int32_t, std::string_view, std::int64_t) override {}
};

}  // namespace

TEST_CASE("a windowed count restores its window store from the changelog after a state-directory wipe") {
    const str app_id = test::unique("wrestore"), in = test::unique("wrestore-in"), out = test::unique("wrestore-out");
    const fs::path state = test::temp_state_dir("wrestore");
    test::create_topics({{in, 2}, {out, 2}});
    const topology topo = windowed_count(in, out);
    constexpr int keys = 20, windows = 3, per_window = 5;
    // An hour ago on a whole second: the windowed changelog has a time retention (the store's plus
    // a day), and a broker's retention check deletes records older than that (1970's would go).
    const std::int64_t base =
        (std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count() -
         3600) * 1000;

    counts expected;
    {
        test::topic_writer writer(test::broker());
        for (int w = 0; w < windows; ++w)
            for (int i = 0; i < per_window; ++i)
                for (int k = 0; k < keys; ++k)
                    writer.send(in, "k" + std::to_string(k), "x", base + w * 1000 + i * 100 + k);
        writer.flush();
        for (int w = 0; w < windows; ++w)
            for (int k = 0; k < keys; ++k) expected["k" + std::to_string(k) + "@" + std::to_string(base + w * 1000)] = per_window;
    }
    test::topic_reader reader(test::broker(), {out});
    counts latest;
    {
        kafka_streams app(topo, test::broker_config(app_id, state));
        app.start();
        CHECK(test::read_until_latest_equals(reader, expected, 90s, latest) == expected);
        CHECK(app.close(60s));
    }

    fs::remove_all(state);  // the only copy left is the changelog
    kafka_streams app(topo, test::broker_config(app_id, state));
    auto listener = std::make_shared<counting_listener>();
    app.set_global_state_restore_listener(listener);
    app.start();
    {
        // One more record per key in the oldest window (inside the grace): counted on from 5.
        test::topic_writer writer(test::broker());
        for (int k = 0; k < keys; ++k) writer.send(in, "k" + std::to_string(k), "x", base + 500 + k);
        writer.flush();
    }
    for (int k = 0; k < keys; ++k) expected["k" + std::to_string(k) + "@" + std::to_string(base)] = per_window + 1;
    CHECK(test::read_until_latest_equals(reader, expected, 90s, latest) == expected);
    CHECK(listener->restored >= keys * windows);  // every window's row came back from the changelog
    CHECK(app.close(60s));
    std::error_code ec;
    fs::remove_all(state, ec);
}
