// The operation counters of a metered store layer (`store.<store>.put|get|delete|range|flush`), its
// metrics scope (`store-scope.<store>.<scope>` = 1: Kafka's rocksdb, in-memory-window, ...) and, at
// metrics.recording.level DEBUG, each operation's latency (Kafka's `<op>-latency-avg/-max` in ns):
// a clock read either side of the call, which at INFO would cost more than many calls, so only
// then.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <kstreams/state/state_store.hpp>

#include "lib/observe/latency.hpp"

namespace kstreams::state {

/// Task counters of a caching store's record-cache hit ratio (windowed_stats.hpp, parts per
/// million), + the store's name + ".".
inline constexpr std::string_view cache_hit_ratio_prefix = "cache-hit-ratio.";
/// Task counter of the bytes a caching store holds in the record cache, + the store's name.
inline constexpr std::string_view cache_bytes_prefix = "cache-bytes.";
/// Prefix of a store operation's latency counters: `store-latency.<store>.<op>` + latency.hpp's
/// `-total`, `-latency-ns-total`, `-latency-ns-max`.
inline constexpr std::string_view store_latency_prefix = "store-latency.";

enum class store_op_kind { put, get, remove, range, flush };

/// A store's operation counters; local until bound to the runtime's metrics.
class store_counters {
public:
    /// One operation (`n`: how many it counts, a put_all's entries): counted at once, timed until
    /// it ends when latencies are recorded.
    class operation {
    public:
        operation(std::uint64_t& count, detail::latency_recorder* timer, std::uint64_t n) : timer_(timer) {
            count += n;
            if (timer_) [[unlikely]]
                start_ = std::chrono::steady_clock::now();
        }
        ~operation() {
            if (timer_) [[unlikely]] {
                const auto end = std::chrono::steady_clock::now();
                timer_->record(end - start_, end);
            }
        }
        operation(const operation&) = delete;
        operation& operator=(const operation&) = delete;

    private:
        detail::latency_recorder* timer_;
        std::chrono::steady_clock::time_point start_;
    };

    void bind(store_context& ctx, const std::string& store_name, const std::string& scope);
    [[nodiscard]] operation op(store_op_kind kind, std::uint64_t n = 1) {
        const auto i = static_cast<std::size_t>(kind);
        return operation(*counts_[i], timers_[i] ? &*timers_[i] : nullptr, n);
    }

private:
    std::array<std::uint64_t, 5> local_ = {};
    std::array<std::uint64_t*, 5> counts_ = {&local_[0], &local_[1], &local_[2], &local_[3], &local_[4]};
    std::array<std::optional<detail::latency_recorder>, 5> timers_;
};

}  // namespace kstreams::state
