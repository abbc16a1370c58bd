// Kafka Streams' metrics from a running app on the embedded cluster, read as Prometheus text.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <thread>

#include <kstreams/dsl.hpp>
#include <kstreams/embedded_cluster.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

#include "tests/observe/observe_support.hpp"

using namespace kstreams;
using namespace std::chrono_literals;

TEST_CASE("the Prometheus text of a running app has Kafka's names and tags, and its counts move") {
    streams_builder b;
    b.stream<std::string, std::string>("metrics-in")
        .group_by_key()
        .count(materialized<>::as("metrics-counts"))
        .to_stream()
        .to("metrics-out");
    auto cfg = test::observe_config("metrics-app");
    cfg.metrics_recording_level = metrics_recording_level::debug;
    kafka_streams app(b.build(), cfg);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));

    test::topic_writer writer(app.bootstrap_servers());
    for (int i = 0; i < 5; ++i) writer.send("metrics-in", "k" + std::to_string(i % 2), "v");
    writer.send("metrics-in", std::nullopt, std::string("no key"));  // dropped: null key
    writer.flush();

    const std::string thread = "{thread_id=\"metrics-app-StreamThread-1\"}";
    const std::string task = "{thread_id=\"metrics-app-StreamThread-1\",task_id=\"0_0\"}";
    std::string text;
    REQUIRE(test::poll_until(20s, [&] {
        text = to_prometheus(app.metric_samples());
        // The cache forwards the counts at a commit.
        return test::prometheus_value(text, "kstreams_stream_thread_metrics_process_total" + thread) >= 6 &&
               test::prometheus_value(text, "kstreams_stream_processor_node_metrics_process_total{thread_id=\""
                                            "metrics-app-StreamThread-1\",task_id=\"0_0\",processor_node_id=\""
                                            "KTABLE-TOSTREAM-0000000002\"}") >= 2;
    }));
    INFO(text);
    CHECK(text.find("# TYPE kstreams_stream_thread_metrics_process_total counter\n") != std::string::npos);
    CHECK(text.find("# TYPE kstreams_stream_thread_metrics_process_rate gauge\n") != std::string::npos);
    CHECK(test::prometheus_value(text, "kstreams_stream_thread_metrics_process_rate" + thread) > 0);
    CHECK(test::prometheus_value(text, "kstreams_stream_thread_metrics_commit_latency_max" + thread) >= 0);
    CHECK(text.find("kstreams_stream_thread_metrics_commit_latency_avg" + thread) != std::string::npos);
    CHECK(text.find("kstreams_stream_thread_metrics_poll_latency_avg" + thread) != std::string::npos);
    CHECK(text.find("kstreams_stream_thread_metrics_punctuate_total" + thread) != std::string::npos);
    CHECK(test::prometheus_value(text, "kstreams_stream_task_metrics_process_total" + task) == 6);
    CHECK(test::prometheus_value(text, "kstreams_stream_task_metrics_dropped_records_total" + task) == 1);
    CHECK(test::prometheus_value(text, "kstreams_stream_task_metrics_dropped_records_by_reason_total{thread_id=\""
                                       "metrics-app-StreamThread-1\",task_id=\"0_0\",reason=\"null-key\"}") == 1);
    CHECK(test::prometheus_value(text, "kstreams_stream_task_metrics_restore_remaining_records_total" + task) == 0);
    CHECK(test::prometheus_value(text, "kstreams_stream_processor_node_metrics_process_total{thread_id=\""
                                       "metrics-app-StreamThread-1\",task_id=\"0_0\",processor_node_id=\""
                                       "KSTREAM-SOURCE-0000000000\"}") == 6);
    CHECK(test::prometheus_value(text, "kstreams_stream_thread_metrics_commit_total" + thread) >= 1);
    CHECK(test::prometheus_value(text, "kstreams_consumer_fetch_manager_metrics_records_lag{client_id=\""
                                       "metrics-app-StreamThread-1-consumer\",topic=\"metrics-in\",partition=\"0\"}") == 0);
    CHECK(test::prometheus_value(text, "kstreams_stream_metrics_alive_stream_threads{client_id=\"metrics-app\"}") == 1);
    CHECK(test::prometheus_value(text, "kstreams_stream_thread_metrics_task_created_total" + thread) == 1);  // 0_0
    CHECK(test::prometheus_value(text, "kstreams_stream_thread_metrics_task_closed_total" + thread) == 0);
    CHECK(text.find("kstreams_stream_thread_metrics_task_created_rate" + thread) != std::string::npos);
    // The count's store reads each key through the record cache (k0 k1 k0 k1 k0): the first read
    // of a key misses; each hit records, as Kafka's, the share of hits among the reads so far:
    // 1/3, 2/4, 3/5.
    const std::string cache = "{thread_id=\"metrics-app-StreamThread-1\",task_id=\"0_0\",record_cache_id=\"metrics-counts\"}";
    CHECK(test::prometheus_value(text, "kstreams_stream_record_cache_metrics_hit_ratio_avg" + cache) ==
          doctest::Approx((1.0 / 3 + 2.0 / 4 + 3.0 / 5) / 3).epsilon(1e-5));
    CHECK(test::prometheus_value(text, "kstreams_stream_record_cache_metrics_hit_ratio_min" + cache) ==
          doctest::Approx(1.0 / 3).epsilon(1e-5));
    CHECK(test::prometheus_value(text, "kstreams_stream_record_cache_metrics_hit_ratio_max" + cache) ==
          doctest::Approx(3.0 / 5).epsilon(1e-5));
    // Kafka's cache-size-bytes-total (DEBUG): the two keys' entries are in the task's cache.
    CHECK(test::prometheus_value(text, "kstreams_stream_task_metrics_cache_size_bytes_total" + task) > 0);
    CHECK(test::prometheus_value(text, "kstreams_stream_metrics_state{client_id=\"metrics-app\",state=\"RUNNING\"}") == 1);
    CHECK(text.find("kstreams_stream_state_metrics_put_rate{thread_id=\"metrics-app-StreamThread-1\",task_id=\"0_0\","
                    "rocksdb_state_id=\"metrics-counts\"}") != std::string::npos);
    // Store operations are timed at DEBUG, in ns as Kafka's: the count flushed its cache into the
    // store (puts) and read it (gets); each took some time.
    const std::string store = "{thread_id=\"metrics-app-StreamThread-1\",task_id=\"0_0\",rocksdb_state_id=\"metrics-counts\"}";
    CHECK(test::prometheus_value(text, "kstreams_stream_state_metrics_put_latency_avg" + store) > 0);
    CHECK(test::prometheus_value(text, "kstreams_stream_state_metrics_put_latency_max" + store) >=
          test::prometheus_value(text, "kstreams_stream_state_metrics_put_latency_avg" + store));
    CHECK(test::prometheus_value(text, "kstreams_stream_state_metrics_get_latency_avg" + store) > 0);
    CHECK(text.find("kstreams_stream_state_metrics_flush_latency_avg" + store) != std::string::npos);

    // More records: the counts move.
    for (int i = 0; i < 4; ++i) writer.send("metrics-in", "k" + std::to_string(i), "v");
    writer.flush();
    CHECK(test::poll_until(20s, [&] {
        text = to_prometheus(app.metric_samples());
        return test::prometheus_value(text, "kstreams_stream_task_metrics_process_total" + task) == 10;
    }));
    CHECK(app.close(30s));
}

TEST_CASE("a suppress buffer's suppression-buffer-size and -count metrics, with Kafka's names and tags (DEBUG)") {
    streams_builder b;
    b.stream<std::string, std::string>("sup-in")
        .group_by_key()
        .windowed_by(time_windows::of_size_with_no_grace(std::chrono::seconds(10)))
        .count()
        .suppress(suppressed::until_window_closes(buffer_config::unbounded()).with_name("final"))
        .to_stream()
        .select_key([](const windowed<std::string>& w, std::int64_t) { return w.key; })
        .to("sup-out");
    auto cfg = test::observe_config("sup-app");
    cfg.metrics_recording_level = metrics_recording_level::debug;
    kafka_streams app(b.build(), cfg);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    test::topic_writer writer(app.bootstrap_servers());
    writer.send("sup-in", std::string("a"), std::string("v"), 1000);
    writer.send("sup-in", std::string("b"), std::string("v"), 2000);
    writer.flush();
    const std::string tags = "{thread_id=\"sup-app-StreamThread-1\",task_id=\"0_0\",in_memory_suppression_state_id=\"final-store\"}";
    std::string text;
    CHECK(test::poll_until(20s, [&] {
        text = to_prometheus(app.metric_samples());
        return test::prometheus_value(text, "kstreams_stream_state_metrics_suppression_buffer_count_max" + tags) == 2;
    }));
    INFO(text);
    CHECK(test::prometheus_value(text, "kstreams_stream_state_metrics_suppression_buffer_size_max" + tags) > 0);
    CHECK(text.find("kstreams_stream_state_metrics_suppression_buffer_count_avg" + tags) != std::string::npos);
    CHECK(text.find("kstreams_stream_state_metrics_suppression_buffer_size_avg" + tags) != std::string::npos);
    CHECK(app.close(30s));
}

TEST_CASE("at the default recording level (INFO) the processor-node metrics are the e2e latency of the sources, the "
          "sinks and the terminal processors") {
    streams_builder b;
    auto in = b.stream<std::string, std::string>("metrics-info-in");
    in.filter([](const std::string&, const std::string&) { return true; }).to("metrics-info-out");
    in.foreach([](const std::string&, const std::string&) {});  // terminal: no children, not a sink
    kafka_streams app(b.build(), test::observe_config("metrics-info"));
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    test::topic_writer writer(app.bootstrap_servers());
    writer.send("metrics-info-in", "k", "v");
    writer.flush();
    std::string text;
    REQUIRE(test::poll_until(20s, [&] {
        text = to_prometheus(app.metric_samples());
        return test::prometheus_value(text, "kstreams_stream_task_metrics_process_total{thread_id=\"metrics-info-"
                                            "StreamThread-1\",task_id=\"0_0\"}") == 1;
    }));
    INFO(text);
    CHECK(text.find("stream_processor_node_metrics_process") == std::string::npos);
    // Kafka's record-e2e-latency at the source, the sink and the terminal foreach (the filter
    // between them has none): the record was stamped when it was sent, a moment before.
    for (const std::string node : {"KSTREAM-SOURCE-0000000000", "KSTREAM-SINK-0000000002", "KSTREAM-FOREACH-0000000003"}) {
        CAPTURE(node);
        const std::string tags = "{thread_id=\"metrics-info-StreamThread-1\",task_id=\"0_0\",processor_node_id=\"" +
                                 node + "\"}";
        const double avg = test::prometheus_value(text, "kstreams_stream_processor_node_metrics_record_e2e_latency_avg" + tags);
        const double min = test::prometheus_value(text, "kstreams_stream_processor_node_metrics_record_e2e_latency_min" + tags);
        const double max = test::prometheus_value(text, "kstreams_stream_processor_node_metrics_record_e2e_latency_max" + tags);
        CHECK(avg >= 0);
        CHECK(avg < 60'000);
        CHECK(min == avg);  // one record
        CHECK(max == avg);
    }
    CHECK(text.find("processor_node_id=\"KSTREAM-FILTER-0000000001\"") == std::string::npos);
    CHECK(app.close(30s));
}

TEST_CASE("metrics.recording.level is read from properties") {
    CHECK(streams_config::from_properties({{"metrics.recording.level", "DEBUG"}}).metrics_recording_level ==
          metrics_recording_level::debug);
    CHECK_THROWS_AS(streams_config::from_properties({{"metrics.recording.level", "LOUD"}}), std::invalid_argument);
}

TEST_CASE("restore metrics: a store wiped and restored from its changelog counts what it restored") {
    embedded_cluster cluster;
    cluster.create_topic("restore-in", 1);
    auto make = [] {
        streams_builder b;
        b.stream<std::string, std::string>("restore-in")
            .group_by_key()
            .count(materialized<>::as("restore-counts"))
            .to_stream()
            .to("restore-out");
        return b.build();
    };
    auto cfg = test::observe_config("metrics-restore");
    cfg.bootstrap_servers = cluster.bootstrap_servers();
    const std::string task = "{thread_id=\"metrics-restore-StreamThread-1\",task_id=\"0_0\"}";
    {
        kafka_streams app(make(), cfg);
        app.start();
        REQUIRE(app.wait_until(streams_state::running, 30s));
        test::topic_writer writer(app.bootstrap_servers());
        for (int i = 0; i < 20; ++i) writer.send("restore-in", "k" + std::to_string(i % 5), "v");
        writer.flush();
        REQUIRE(test::poll_until(20s, [&] {
            return test::prometheus_value(to_prometheus(app.metric_samples()),
                                          "kstreams_stream_task_metrics_process_total" + task) == 20;
        }));
        const std::string text = to_prometheus(app.metric_samples());
        CHECK(test::prometheus_value(text, "kstreams_stream_task_metrics_restore_total" + task) == 0);
        CHECK(app.close(30s));  // commits: the counts reach the changelog
        app.clean_up();         // the local store is gone: the next start restores it
    }
    kafka_streams app(make(), cfg);
    app.start();
    REQUIRE(app.wait_until(streams_state::running, 30s));
    std::string text;
    CHECK(test::poll_until(20s, [&] {
        text = to_prometheus(app.metric_samples());
        return test::prometheus_value(text, "kstreams_stream_task_metrics_restore_total" + task) >= 5;
    }));
    INFO(text);
    CHECK(test::prometheus_value(text, "kstreams_stream_task_metrics_restore_remaining_records_total" + task) == 0);
    CHECK(test::prometheus_value(text, "kstreams_stream_task_metrics_active_restoring" + task) == 0);
    CHECK(test::prometheus_value(text, "kstreams_stream_task_metrics_restore_rate" + task) > 0);
    CHECK(app.close(30s));
}
