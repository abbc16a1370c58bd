// The Prometheus text exposition of metric samples (format 0.0.4).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include <kstreams/metric_samples.hpp>

using namespace kstreams;

TEST_CASE("families are named <prefix>_<group>_<name>, sanitised, with HELP and TYPE once each") {
    std::vector<metric_sample> s{
        {"stream-thread-metrics", "process-total", "The total number of records processed",
         {{"thread-id", "app-StreamThread-1"}}, 42, metric_kind::counter},
        {"stream-task-metrics", "process-rate", "rate", {{"thread-id", "t"}, {"task-id", "0_1"}}, 1.5},
        {"stream-thread-metrics", "process-total", "The total number of records processed",
         {{"thread-id", "app-StreamThread-2"}}, 7, metric_kind::counter},
    };
    const std::string text = to_prometheus(s);
    CHECK(text ==
          "# HELP kstreams_stream_task_metrics_process_rate rate\n"
          "# TYPE kstreams_stream_task_metrics_process_rate gauge\n"
          "kstreams_stream_task_metrics_process_rate{thread_id=\"t\",task_id=\"0_1\"} 1.5\n"
          "# HELP kstreams_stream_thread_metrics_process_total The total number of records processed\n"
          "# TYPE kstreams_stream_thread_metrics_process_total counter\n"
          "kstreams_stream_thread_metrics_process_total{thread_id=\"app-StreamThread-1\"} 42\n"
          "kstreams_stream_thread_metrics_process_total{thread_id=\"app-StreamThread-2\"} 7\n");
}

TEST_CASE("label values and help text are escaped; NaN and infinities as Prometheus writes them") {
    std::vector<metric_sample> s{
        {"g", "a", "line one\nback\\slash", {{"topic", "we\"ird\\na\nme"}}, std::numeric_limits<double>::quiet_NaN()},
        {"g", "b", "", {}, std::numeric_limits<double>::infinity()},
        {"g", "c", "", {{"processor-node-id", "KSTREAM-SOURCE-0000000000"}}, -std::numeric_limits<double>::infinity()},
    };
    const std::string text = to_prometheus(s, "");
    CHECK(text.find("# HELP g_a line one\\nback\\\\slash\n") != std::string::npos);
    CHECK(text.find("g_a{topic=\"we\\\"ird\\\\na\\nme\"} NaN\n") != std::string::npos);
    CHECK(text.find("# HELP g_b b\n") != std::string::npos);  // no description: the name
    CHECK(text.find("g_b +Inf\n") != std::string::npos);
    CHECK(text.find("g_c{processor_node_id=\"KSTREAM-SOURCE-0000000000\"} -Inf\n") != std::string::npos);
}

TEST_CASE("names keep [a-zA-Z0-9_:] only and never start with a digit") {
    CHECK(prometheus_name("stream-state-metrics.put rate") == "stream_state_metrics_put_rate");
    CHECK(prometheus_name("a:b_c9") == "a:b_c9");
    CHECK(prometheus_name("9lives") == "_9lives");
    CHECK(prometheus_name("caf\xc3\xa9") == "caf__");
}
