// Latency recording for the thread and task metrics: the count, the sum and a maximum over Kafka's
// sample window (two samples of 30 s: metrics.num.samples, metrics.sample.window.ms), kept as
// counters of the thread's or task's kstreams::metrics so that they are published with the rest.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include <kstreams/metrics.hpp>

namespace kstreams::detail {

/// Internal counter names (not Kafka's: metric_registry turns them into Kafka's names).
namespace internal_metric {
/// `<op>-total`, `<op>-latency-ns-total`, `<op>-latency-ns-max` for op in commit, poll, process
/// (a round of processing), punctuate.
inline constexpr std::string_view node_process_prefix = "node-process-total.";  ///< + node name
inline constexpr std::string_view records_restored = "records-restored";
/// Thread counters of tasks opened and closed (Kafka's task-created / task-closed; a task revived
/// after corruption is closed and created again).
inline constexpr std::string_view task_created = "task-created-total";
inline constexpr std::string_view task_closed = "task-closed-total";
}  // namespace internal_metric

/// A maximum over the last one or two 30-second windows, as Kafka's Max stat with two samples.
class windowed_max {
public:
    static constexpr std::int64_t window_ns = 30'000'000'000;
    std::uint64_t record(std::uint64_t v, std::int64_t now_ns) {
        roll(now_ns);
        current_ = std::max(current_, v);
        return value();
    }
    std::uint64_t value() const { return std::max(current_, previous_); }

private:
    void roll(std::int64_t now_ns) {
        if (start_ns_ < 0) start_ns_ = now_ns;
        while (now_ns - start_ns_ >= window_ns) {
            previous_ = now_ns - start_ns_ >= 2 * window_ns ? 0 : current_;
            current_ = 0;
            start_ns_ = now_ns - start_ns_ >= 2 * window_ns ? now_ns : start_ns_ + window_ns;
        }
    }
    std::int64_t start_ns_ = -1;
    std::uint64_t current_ = 0, previous_ = 0;
};

/// Records one operation of `op` that took `ns` into `m` (three counters: count, sum, windowed max).
class latency_recorder {
public:
    latency_recorder(kstreams::metrics& m, std::string_view op)
        : total_(&m.counter(std::string(op) + "-total")),
          sum_(&m.counter(std::string(op) + "-latency-ns-total")),
          max_(&m.counter(std::string(op) + "-latency-ns-max")) {}
    void record(std::chrono::steady_clock::duration took, std::chrono::steady_clock::time_point now) {
        const auto ns = static_cast<std::uint64_t>(std::max<std::int64_t>(
            0, std::chrono::duration_cast<std::chrono::nanoseconds>(took).count()));
        ++*total_;
        *sum_ += ns;
        *max_ = max_window_.record(ns, std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count());
    }
    /// Times `fn` and records it.
    template <class F>
    decltype(auto) time(F&& fn) {
        const auto start = std::chrono::steady_clock::now();
        struct done {
            latency_recorder& r;
            std::chrono::steady_clock::time_point start;
            ~done() {
                const auto end = std::chrono::steady_clock::now();
                r.record(end - start, end);
            }
        } guard{*this, start};
        return fn();
    }

private:
    std::uint64_t* total_;
    std::uint64_t* sum_;
    std::uint64_t* max_;
    windowed_max max_window_;
};

}  // namespace kstreams::detail
