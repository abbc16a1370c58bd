// The internal topics' configs on the real broker, as Kafka Streams creates them: each kind's
// defaults, then the app's "topic."-prefixed properties, then a store's own changelog configs;
// a windowed changelog's retention computed from its store; CreateTime timestamps everywhere.
#include <doctest/doctest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <thread>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/streams.hpp>

#include "lib/kafka/rd.hpp"
#include "tests/integration/broker_fixture.hpp"

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {

/// The configs set on the topic itself (not the broker's defaults), as the broker describes them.
std::map<str, str> topic_configs(const str& topic) {
    auto client = kafka::make_client(RD_KAFKA_PRODUCER,
                                     kafka::make_conf({{"bootstrap.servers", test::broker()}, {"log_level", "3"}}, "test admin"),
                                     "test admin");
    kafka::queue_ptr queue(rd_kafka_queue_new(client.get()));
    rd_kafka_ConfigResource_t* resource = rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic.c_str());
    rd_kafka_DescribeConfigs(client.get(), &resource, 1, nullptr, queue.get());
    rd_kafka_ConfigResource_destroy(resource);
    kafka::event_ptr event(rd_kafka_queue_poll(queue.get(), 30000));
    if (!event) throw std::runtime_error("DescribeConfigs of " + topic + ": no answer within 30 s");
    if (rd_kafka_event_error(event.get()))
        throw std::runtime_error("DescribeConfigs of " + topic + ": " + rd_kafka_event_error_string(event.get()));
    const auto* result = rd_kafka_event_DescribeConfigs_result(event.get());
    size_t resources = 0;
    const auto* const* described = rd_kafka_DescribeConfigs_result_resources(result, &resources);
    std::map<str, str> configs;
    for (size_t r = 0; r < resources; ++r) {
        if (rd_kafka_ConfigResource_error(described[r]))
            throw std::runtime_error("DescribeConfigs of " + topic + ": " + rd_kafka_ConfigResource_error_string(described[r]));
        size_t entries = 0;
        const auto* const* e = rd_kafka_ConfigResource_configs(described[r], &entries);
        for (size_t i = 0; i < entries; ++i)
            if (const char* value = rd_kafka_ConfigEntry_value(e[i]);
                value && rd_kafka_ConfigEntry_source(e[i]) == RD_KAFKA_CONFIG_SOURCE_DYNAMIC_TOPIC_CONFIG)
                configs[rd_kafka_ConfigEntry_name(e[i])] = value;
    }
    return configs;
}

/// The low watermark (first offset still held) of a partition.
std::int64_t low_watermark(const str& topic, std::int32_t partition) {
    auto client = kafka::make_client(RD_KAFKA_PRODUCER,
                                     kafka::make_conf({{"bootstrap.servers", test::broker()}, {"log_level", "3"}}, "test admin"),
                                     "test admin");
    std::int64_t low = -1, high = -1;
    if (rd_kafka_query_watermark_offsets(client.get(), topic.c_str(), partition, &low, &high, 10000))
        throw std::runtime_error("watermarks of " + topic + ": no answer");
    return low;
}

}  // namespace

TEST_CASE("committed repartition records are deleted every repartition.purge.interval.ms") {
    const auto in = test::unique("purge-in"), out = test::unique("purge-out");
    const auto app_id = test::unique("purge");
    test::create_topics({{in, 1}, {out, 1}});
    streams_builder b;
    b.stream<str, str>(in)
        .select_key([](const str&, const str& v) { return v; })
        .group_by_key(grouped<>::as("by-value"))
        .count()
        .to_stream()
        .to(out);
    const topology topo = b.build();
    auto config = test::streams_config_from(app_id, "purge", {{"repartition.purge.interval.ms", "200"}});
    kafka_streams app(topo, config);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));
    {
        test::topic_writer writer(test::broker());
        for (int i = 0; i < 100; ++i) writer.send(in, "k" + std::to_string(i), "v" + std::to_string(i % 10), 1000 + i);
        writer.flush();
    }
    const auto repartition = app_id + "-by-value-repartition";
    std::int64_t low = 0;
    const auto deadline = std::chrono::steady_clock::now() + 20s;  // the default 30 s would not do
    while ((low = low_watermark(repartition, 0)) < 100 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(200ms);
    CHECK(low == 100);  // all 100 records read, committed and deleted
    app.close();
}

TEST_CASE("internal topics get each kind's configs, the app's topic.* configs and a store's own, in Kafka's order") {
    const auto in = test::unique("it-in"), counts_out = test::unique("it-counts"), windows_out = test::unique("it-windows");
    const auto app_id = test::unique("it-configs");
    test::create_topics({{in, 2}, {counts_out, 1}, {windows_out, 1}});
    streams_builder b;
    auto rekeyed = b.stream<str, str>(in).select_key([](const str&, const str& v) { return v; });
    rekeyed.group_by_key(grouped<>::as("by-value"))
        .count(materialized<>::as("counts").with_logging_enabled({{"segment.ms", "7200000"}}))
        .to_stream()
        .to(counts_out);
    rekeyed.group_by_key(grouped<>::as("by-value-windowed"))
        .windowed_by(time_windows::of_size_with_no_grace(1min))
        .count(materialized<>::as("window-counts"))
        .to_stream([](const windowed<str>& w, const std::int64_t&) { return w.key; })
        .to(windows_out);
    const topology topo = b.build();

    // A topic.* key librdkafka reads itself stays a client setting, not a topic config.
    auto config = test::streams_config_from(app_id, "it-configs",
                                            {{"topic.segment.ms", "3600000"},
                                             {"topic.retention.ms", "1000000"},
                                             {"topic.cleanup.policy", "delete"},
                                             {"topic.metadata.refresh.interval.ms", "10000"},
                                             {"windowstore.changelog.additional.retention.ms", "3600000"}});
    kafka_streams app(topo, config);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 60s));

    const auto repartition = topic_configs(app_id + "-by-value-repartition");
    CHECK(repartition.at("cleanup.policy") == "delete");
    CHECK(repartition.at("segment.bytes") == "52428800");
    CHECK(repartition.at("retention.ms") == "1000000");  // topic.* over the kind's -1
    CHECK(repartition.at("segment.ms") == "3600000");
    CHECK(repartition.at("message.timestamp.type") == "CreateTime");

    const auto counts = topic_configs(app_id + "-counts-changelog");
    CHECK(counts.at("cleanup.policy") == "delete");  // topic.* over the kind's compact
    CHECK(counts.at("segment.ms") == "7200000");  // the store's own over topic.*
    CHECK(counts.at("retention.ms") == "1000000");
    CHECK(counts.at("message.timestamp.type") == "CreateTime");

    const auto windows = topic_configs(app_id + "-window-counts-changelog");
    CHECK(windows.at("cleanup.policy") == "delete");  // topic.* over the kind's compact,delete
    // The store's retention (size + grace) plus windowstore.changelog.additional.retention.ms,
    // whatever topic.retention.ms says.
    CHECK(windows.at("retention.ms") == std::to_string(60'000 + 3'600'000));
    CHECK(windows.at("segment.ms") == "3600000");
    CHECK(windows.at("message.timestamp.type") == "CreateTime");
    CHECK_FALSE(windows.contains("metadata.refresh.interval.ms"));
    CHECK_FALSE(windows.contains("kstreams.windowed.store.retention.ms"));  // kstreams' own key stays home
    app.close();
}
