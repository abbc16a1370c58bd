// The open-loop latency run: the driver writes the input at a fixed rate while the app runs (on
// empty topics: INPUT and OUTPUT exist and hold nothing), and a consumer of the output measures
// each output record's end-to-end latency: its arrival (wall clock) minus its record timestamp,
// which the app carries over from the input record (for a count: the latest input record the
// count includes), set by the driver when it sent it. Record timestamps are whole milliseconds,
// so a latency reads up to 1 ms high.
//
// Phases: a trickle (100 records/s) until the first output arrives (the app joined its group and
// runs), then the rate: `warm-up` seconds unmeasured (E2E_LATENCY_WARMUP, default 5: the JVM's
// JIT, the caches), SECONDS measured (records whose timestamp falls in that span), 2 s more, then
// up to 10 s for the last outputs. The input is the benchmark's (4-byte keys over KEYS, 100-byte
// values), sent with linger.ms=1. For passthrough and stateless every measured input has one
// output: one that never arrives is counted missing and as an infinite latency.
#include "benchmarks/e2e/latency.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <thread>
#include <unistd.h>
#include <vector>

#include "benchmarks/e2e/driver_support.hpp"

namespace e2e {

namespace {

using namespace std::chrono_literals;

double wall_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// Reads OUTPUT from its beginning on a thread of its own and keeps the latencies of the records
/// whose timestamps fall in [from, to).
class output_reader {
public:
    output_reader(const std::string& bootstrap, const std::string& topic, std::int32_t partitions, bool read_committed)
        : rk_(consumer(bootstrap, "e2e-latency-" + std::to_string(::getpid()), read_committed)) {
        kafka::tpl_ptr tpl = kafka::make_tpl();
        for (std::int32_t p = 0; p < partitions; ++p)
            rd_kafka_topic_partition_list_add(tpl.get(), topic.c_str(), p)->offset = RD_KAFKA_OFFSET_BEGINNING;
        if (rd_kafka_assign(rk_.get(), tpl.get())) die("assigning " + topic);
        thread_ = std::thread([this] { run(); });
    }
    ~output_reader() { stop(); }

    void measure(std::int64_t from, std::int64_t to) {
        from_ = from;
        to_ = to;
    }
    bool seen_any() const { return seen_; }
    std::int64_t measured() const { return measured_; }
    /// Stops reading; the latencies (ms) of the measured records.
    std::vector<double> stop() {
        if (thread_.joinable()) {
            reading_ = false;
            thread_.join();
            rd_kafka_consumer_close(rk_.get());
        }
        return latencies_;
    }

private:
    void run() {
        while (reading_) {
            kafka::message_ptr m(rd_kafka_consumer_poll(rk_.get(), 50));
            if (!m || m->err) continue;
            const double now = wall_ms();
            seen_ = true;
            const std::int64_t ts = rd_kafka_message_timestamp(m.get(), nullptr);
            if (ts < from_ || ts >= to_) continue;
            latencies_.push_back(now - static_cast<double>(ts));
            ++measured_;
        }
    }

    kafka::rk_ptr rk_;
    std::atomic<std::int64_t> from_{std::numeric_limits<std::int64_t>::max()}, to_{std::numeric_limits<std::int64_t>::max()};
    std::atomic<bool> seen_{false}, reading_{true};
    std::atomic<std::int64_t> measured_{0};
    std::vector<double> latencies_;
    std::thread thread_;
};

double percentile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return std::nan("");
    return sorted[std::min(sorted.size() - 1, static_cast<std::size_t>(q * static_cast<double>(sorted.size())))];
}

}  // namespace

int latency(const std::string& bootstrap, const std::string& input, const std::string& output,
            const std::string& pipeline, double rate, double seconds, std::int64_t keys, char** command) {
    const bool eos = pipeline.ends_with("-eos");
    const std::string kind = eos ? pipeline.substr(0, pipeline.size() - 4) : pipeline;
    const double warmup = std::getenv("E2E_LATENCY_WARMUP") ? std::atof(std::getenv("E2E_LATENCY_WARMUP")) : 5;
    warm_group_coordinator(bootstrap, input);
    output_reader reader(bootstrap, output, partition_count(bootstrap, output), eos);
    loader in(bootstrap, 1);
    app_process app(command);

    std::int64_t i = 0;
    auto send = [&] {
        in.send(input, static_cast<std::int32_t>(i % keys), value_of(i),
                static_cast<std::int64_t>(wall_ms()));
        ++i;
    };
    const auto joined_by = std::chrono::steady_clock::now() + 180s;
    while (!reader.seen_any()) {
        if (app.exited()) die("the app exited before its first output");
        if (std::chrono::steady_clock::now() > joined_by) die("no output within 180 s of a trickle of input");
        app.drain_output();
        send();
        std::this_thread::sleep_for(10ms);
    }

    // The rate: each millisecond, as many records as are due by then.
    const auto t0 = std::chrono::steady_clock::now();
    const std::int64_t first = i;
    double window_from = 0, window_to = 0, cpu_from = 0, cpu_to = 0;
    std::int64_t measured_from = -1, measured_to = -1;
    for (;;) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (measured_from < 0 && elapsed >= warmup) {
            measured_from = i;
            window_from = std::ceil(wall_ms());
            cpu_from = cpu_seconds(app.pid());
            reader.measure(static_cast<std::int64_t>(window_from), std::numeric_limits<std::int64_t>::max());
        }
        if (measured_from >= 0 && measured_to < 0 && elapsed >= warmup + seconds) {
            window_to = std::ceil(wall_ms());
            measured_to = i;
            cpu_to = cpu_seconds(app.pid());
            reader.measure(static_cast<std::int64_t>(window_from), static_cast<std::int64_t>(window_to));
        }
        if (elapsed >= warmup + seconds + 2) break;
        const auto due = first + static_cast<std::int64_t>(rate * elapsed);
        while (i < due) send();
        app.drain_output();
        if (app.exited()) die("the app exited while its input was coming");
        std::this_thread::sleep_for(1ms);
    }
    in.flush();
    // The records sent in the measured span whose timestamps fell in it (a record sent in its last
    // millisecond may carry the next one's): the inputs, and for the sinks the outputs expected.
    const std::int64_t inputs = measured_to - measured_from;
    std::int64_t expected = -1;
    if (kind == "passthrough") expected = inputs;
    if (kind == "stateless")
        expected = inputs - (measured_to + 9) / 10 + (measured_from + 9) / 10;  // i % 10 == 0 is filtered out
    // Up to 10 s for the sinks' last outputs; 3 s (more than two commits) for an aggregation's.
    const std::int64_t tolerance = std::max<std::int64_t>(1, static_cast<std::int64_t>(rate / 1000) * 2);
    const auto drain_until = std::chrono::steady_clock::now() + (expected >= 0 ? 10s : 3s);
    while (std::chrono::steady_clock::now() < drain_until && (expected < 0 || reader.measured() < expected - tolerance))
        std::this_thread::sleep_for(50ms);
    const double rss = peak_rss_mib(app.pid());
    std::vector<double> got = reader.stop();
    app.stop();
    std::sort(got.begin(), got.end());
    const auto outputs = static_cast<std::int64_t>(got.size());
    // A record sent in the window's last millisecond can carry the next one's timestamp: a few
    // outputs fewer than inputs are not lost records; more than 0.01 % missing are counted.
    std::int64_t missing = 0;
    if (expected >= 0 && outputs < expected) {
        missing = expected - outputs;
        if (missing <= tolerance) missing = 0;
        got.insert(got.end(), static_cast<std::size_t>(missing), std::numeric_limits<double>::infinity());
    }
    const double span = (window_to - window_from) / 1000;
    std::printf("LATENCY %s rate %.0f records/s inputs %lld outputs %lld missing %lld p50 %.1f ms p99 %.1f ms "
                "p99.9 %.1f ms max %.1f ms cpu %.2f cores rss %.0f MiB\n",
                pipeline.c_str(), static_cast<double>(inputs) / span, static_cast<long long>(inputs),
                static_cast<long long>(outputs), static_cast<long long>(missing), percentile(got, 0.5),
                percentile(got, 0.99), percentile(got, 0.999), got.empty() ? std::nan("") : got.back(),
                (cpu_to - cpu_from) / span, rss);
    return 0;
}

}  // namespace e2e
