// IQv2, store lags, close(close_options) and a setting of the app's own on the real broker, with
// two instances of one app: each instance answers a key query for the partitions it holds and
// not_present for the others; a property librdkafka does not know no longer stops the clients; the
// stores' lags are 0 once running; the instance closed with leave_group hands its partitions over
// well before the session timeout, and the other then answers every key.
#include <doctest/doctest.h>

#include <thread>

#include <kstreams/dsl.hpp>
#include <kstreams/state/state_query.hpp>
#include <kstreams/streams.hpp>

#include "tests/integration/broker_fixture.hpp"
#include "tests/support/eventually.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using kstreams::test::eventually;
using str = std::string;

namespace {

topology counting(const str& in) {
    streams_builder b;
    b.stream<str, str>(in).group_by_key().count(materialized<>::as("counts"));
    return b.build();
}

std::size_t assigned(const kafka_streams& app) {
    std::size_t n = 0;
    for (const auto& t : app.metadata_for_local_threads())
        for (const auto& task : t.active_tasks) n += task.topic_partitions.size();
    return n;
}

/// The count of `key` as `app` answers it (nullopt: no local partition has it).
std::optional<std::int64_t> count_of(const kafka_streams& app, const str& key) {
    const auto result = app.query(in_store("counts").with_query(key_query<str, std::int64_t>::with_key(key)));
    const auto r = result.only_partition_result();
    return r ? r->result() : std::nullopt;
}

}  // namespace

TEST_CASE("IQv2, lags, close_options and the app's own settings on the real broker") {
    const auto in = test::unique("gaps-in");
    test::create_topics({{in, 4}});
    const auto app_id = test::unique("gaps");
    auto config = [&](const str& name) {
        auto base = test::broker_config(app_id, test::temp_state_dir(name));
        auto c = streams_config::from_properties({{"my.dashboard.url", "http://127.0.0.1:1"}});
        c.application_id = base.application_id;
        c.bootstrap_servers = base.bootstrap_servers;
        c.commit_interval = base.commit_interval;
        c.state_dir = base.state_dir;
        c.replication_factor = base.replication_factor;
        c.consumer = base.consumer;
        c.consumer["session.timeout.ms"] = "30000";  // leaving must not wait for it
        c.kafka.insert(base.kafka.begin(), base.kafka.end());
        return c;
    };
    const auto cfg_a = config("gaps-a");
    CHECK(cfg_a.kafka.count("my.dashboard.url") == 0);
    kafka_streams a(counting(in), cfg_a);
    auto b = std::make_unique<kafka_streams>(counting(in), config("gaps-b"));
    a.start();
    b->start();
    REQUIRE(eventually([&] {
        return a.state() == streams_state::running && b->state() == streams_state::running && assigned(a) == 2 &&
               assigned(*b) == 2;
    }));

    constexpr int keys = 12;
    test::topic_writer writer(test::broker());
    for (int k = 0; k < keys; ++k)
        for (int i = 0; i <= k % 3; ++i) writer.send(in, "k" + std::to_string(k), str("v"), 1000 + i);
    writer.flush();

    REQUIRE(eventually([&] {
        for (int k = 0; k < keys; ++k) {
            const str key = "k" + std::to_string(k);
            if (count_of(a, key).value_or(0) + count_of(*b, key).value_or(0) != k % 3 + 1) return false;
        }
        return true;
    }));
    for (int k = 0; k < keys; ++k) {
        const str key = "k" + std::to_string(k);
        const auto md = a.query_metadata_for_key("counts", key);
        const bool on_a = count_of(a, key).has_value();
        CHECK(on_a != count_of(*b, key).has_value());
        // Asked for the key's partition, the instance that does not hold it answers not_present.
        const kafka_streams& other = on_a ? *b : a;
        const auto elsewhere = other.query(in_store("counts")
                                               .with_query(key_query<str, std::int64_t>::with_key(key))
                                               .partitions({md.partition})
                                               .require_active());
        REQUIRE(elsewhere.partition_results().count(md.partition) == 1);
        CHECK(elsewhere.partition_results().at(md.partition).get_failure_reason() == failure_reason::not_present);
    }
    // Running: every store partition is at its changelog's end.
    REQUIRE(eventually([&] {
        const auto lags = a.all_local_store_partition_lags();
        if (lags.count("counts") == 0 || lags.at("counts").size() != 2) return false;
        for (const auto& [p, lag] : lags.at("counts"))
            if (lag.offset_lag != 0 || lag.current_offset_position != lag.end_offset_position) return false;
        return true;
    }));

    // B leaves the group on close: A gets its partitions long before the 30 s session timeout.
    const auto closing = std::chrono::steady_clock::now();
    REQUIRE(b->close(close_options{30s, true}));
    b.reset();
    REQUIRE(eventually([&] { return a.state() == streams_state::running && assigned(a) == 4; }, 60s));
    CHECK(std::chrono::steady_clock::now() - closing < 20s);
    const bool all_counted = eventually([&] {
        for (int k = 0; k < keys; ++k)
            if (count_of(a, "k" + std::to_string(k)) != k % 3 + 1) return false;
        return true;
    });
    if (!all_counted)
        for (int k = 0; k < keys; ++k) {
            const auto r = a.query(in_store("counts").with_query(key_query<str, std::int64_t>::with_key("k" + std::to_string(k))));
            for (const auto& [p, q] : r.partition_results())
                MESSAGE("k" << k << " partition " << p << ": "
                            << (q.is_failure() ? std::string(to_string(q.get_failure_reason())) + " " + q.failure_message()
                                               : q.result() ? std::to_string(*q.result()) : std::string("-")));
        }
    REQUIRE(all_counted);
    // The lags come from the stream threads' last publication (every 100 ms or so while they run):
    // the partitions taken over reach the end once their restoration is over.
    REQUIRE(eventually([&] {
        const auto lags = a.all_local_store_partition_lags();
        if (lags.count("counts") == 0 || lags.at("counts").size() != 4) return false;
        for (const auto& [p, lag] : lags.at("counts"))
            if (lag.offset_lag != 0) return false;
        return true;
    }, 30s));
    REQUIRE(a.close(close_options{30s, false}));
}
