// Restoration that never blocks, on the real broker: a store with 1 M changelog records restores
// while another task of the same app keeps processing, and the member stays in the group although
// the restore takes longer than max.poll.interval.ms (the loop keeps polling between batches).
#include <doctest/doctest.h>

#include <librdkafka/rdkafka.h>

#include <atomic>
#include <stdexcept>
#include <thread>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/serde.hpp>
#include <kstreams/state/restore_listener.hpp>
#include <kstreams/streams.hpp>

#include "tests/integration/broker_fixture.hpp"

using namespace kstreams;
using namespace std::chrono_literals;

namespace {

/// Writes records straight to a partition with a raw librdkafka producer (fast: large batches).
class raw_producer {
public:
    raw_producer() {
        rd_kafka_conf_t* conf = rd_kafka_conf_new();
        char err[512];
        for (auto [k, v] : {std::pair{"bootstrap.servers", test::broker()}, std::pair{"linger.ms", std::string("20")},
                            std::pair{"batch.num.messages", std::string("10000")},
                            std::pair{"queue.buffering.max.messages", std::string("1000000")},
                            std::pair{"acks", std::string("1")}, std::pair{"log_level", std::string("3")}})
            REQUIRE(rd_kafka_conf_set(conf, k, v.c_str(), err, sizeof err) == RD_KAFKA_CONF_OK);
        rk_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
        REQUIRE(rk_);
    }
    ~raw_producer() { rd_kafka_destroy(rk_); }
    void send(const std::string& topic, std::int32_t partition, const std::string& key, const std::string& value,
              std::int64_t ts) {
        for (;;) {
            const rd_kafka_resp_err_t e = rd_kafka_producev(
                rk_, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(partition),
                RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(key.data(), key.size()),
                RD_KAFKA_V_VALUE(const_cast<char*>(value.data()), value.size()), RD_KAFKA_V_TIMESTAMP(ts),
                RD_KAFKA_V_END);
            if (e == RD_KAFKA_RESP_ERR_NO_ERROR) return;
            if (e != RD_KAFKA_RESP_ERR__QUEUE_FULL) throw std::runtime_error(rd_kafka_err2str(e));
            rd_kafka_poll(rk_, 50);
        }
    }
    void flush() { REQUIRE(rd_kafka_flush(rk_, 120000) == RD_KAFKA_RESP_ERR_NO_ERROR); }

private:
    rd_kafka_t* rk_;
};

std::string be64(std::int64_t v) {
    std::string s;
    serde<std::int64_t>{}.serialize(v, s);
    return s;
}

/// Slows each restored batch a little, so that the restore certainly outlasts max.poll.interval.ms.
struct slow_listener final : state_restore_listener {
    std::atomic<int> starts{0}, ends{0};
    std::atomic<std::int64_t> restored{0}, total{-1};
    std::atomic<bool> restoring{false};
    std::chrono::steady_clock::time_point began, finished;
    void on_restore_start(std::string_view, std::int32_t, std::string_view, std::int64_t, std::int64_t) override {
        ++starts;
        began = std::chrono::steady_clock::now();
        restoring = true;
    }
    void on_batch_restored(std::string_view, std::int32_t, std::string_view, std::int64_t, std::int64_t n) override {
        restored += n;
        std::this_thread::sleep_for(8ms);
    }
    void on_restore_end(std::string_view, std::int32_t, std::string_view, std::int64_t n) override {
        finished = std::chrono::steady_clock::now();
        total = n;
        ++ends;
        restoring = false;
    }
};

}  // namespace

TEST_CASE("a store with 1 M changelog records restores while another task processes; the member is never dropped") {
    constexpr int changelog_records = 1'000'000;
    constexpr int keys = 1000;
    const auto app_id = test::unique("restore-big");
    const auto in = test::unique("restore-in"), out = test::unique("restore-out");
    const auto changelog = app_id + "-counts-changelog";
    {
        kafka::topic_admin admin({{"bootstrap.servers", test::broker()}, {"log_level", "3"}}, 30s, nullptr);
        admin.create_topics({{in, 2, 1, {}}, {out, 2, 1, {}}, {changelog, 2, 1, {{"cleanup.policy", "compact"}}}});
    }
    // The store of task 0_0 ends with count 1000 for each key k0..k999.
    raw_producer producer;
    for (int i = 0; i < changelog_records; ++i)
        producer.send(changelog, 0, "k" + std::to_string(i % keys), be64(i / keys + 1), 1);
    producer.flush();

    streams_builder b;
    b.stream<std::string, std::string>(in)
        .group_by_key()
        .count(materialized<>::as("counts").with_in_memory_store())
        .to_stream()
        .to(out);
    auto cfg = test::broker_config(app_id, test::temp_state_dir("restore-big"));
    cfg.consumer["session.timeout.ms"] = "6000";
    cfg.consumer["max.poll.interval.ms"] = "6000";  // the restore below takes longer than this
    const topology topo = b.build();
    kafka_streams app(topo, cfg);
    auto listener = std::make_shared<slow_listener>();
    app.set_global_state_restore_listener(listener);
    std::atomic<int> rebalances{0};
    app.set_state_listener([&](streams_state now, streams_state) {
        if (now == streams_state::rebalancing) ++rebalances;
    });
    app.start();

    // Task 0_1 (partition 1, empty changelog) processes while task 0_0 restores.
    test::topic_reader reader(test::broker(), {out});
    const auto deadline = std::chrono::steady_clock::now() + 120s;
    while (listener->starts == 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(50ms);
    REQUIRE(listener->starts == 1);
    producer.send(in, 0, "k7", "x", 100);
    int during_restore = 0;
    int sent = 0;
    std::optional<std::int64_t> k7;
    // Progress readable while it restores: restored grows, remaining shrinks, they add up.
    std::vector<store_restoration> samples;
    while (!k7 && std::chrono::steady_clock::now() < deadline) {
        for (auto& p : app.restoration_progress())
            if (p.store == "counts" && p.partition == 0 && p.remaining >= 0) samples.push_back(std::move(p));
        if (listener->restoring && sent < 50) {
            producer.send(in, 1, "p" + std::to_string(sent++), "x", 100);
            producer.flush();
        }
        for (auto& r : reader.read_until_quiet(200ms)) {
            if (r.partition == 1 && listener->restoring) ++during_restore;
            if (r.key == std::optional<std::string>("k7")) k7 = r.value_as<std::int64_t>();
        }
    }
    CHECK(during_restore >= 5);
    REQUIRE(samples.size() >= 2);
    CHECK(samples.front().changelog_topic == changelog);
    CHECK(samples.front().task == task_id{0, 0});
    CHECK(samples.back().restored > samples.front().restored);
    CHECK(samples.back().remaining < samples.front().remaining);
    for (const auto& p : samples) CHECK(p.restored + p.remaining == changelog_records);
    CHECK(app.restoration_progress().empty());  // done
    REQUIRE(k7.has_value());
    CHECK(*k7 == 1001);  // the restored count, then the new record
    CHECK(listener->total == changelog_records);
    CHECK(listener->ends == 1);
    CHECK(listener->finished - listener->began > 6s);  // longer than max.poll.interval.ms ...
    CHECK(rebalances == 1);                            // ... and the member was never dropped
    CHECK(listener->starts == 1);
    CHECK(app.wait_until(streams_state::running, 30s));
    CHECK(app.close(60s));
}
