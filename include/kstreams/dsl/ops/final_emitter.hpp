// Emitting closed windows' final results (emit_strategy::on_window_close; Kafka's
// AbstractKStreamTimeWindowAggregateProcessor.maybeForwardFinalResult): after a record, if the
// emit interval of wall-clock time has passed since the last look and the close time moved, the
// windows closed since the last emission are read from the store, in time order then by key
// bytes (as Kafka's time-ordered stores return them), and forwarded with their final aggregates.
// The close time emitted up to is committed as processor metadata under the store's name and read
// back after a restart, as Kafka's, so windows emitted before the commit are not emitted again.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include <kstreams/detail/internal_configs.hpp>
#include <kstreams/detail/processor_metadata.hpp>
#include <kstreams/detail/task_context.hpp>
#include <kstreams/dsl/serde_ref.hpp>

namespace kstreams::dsl_detail {

class final_emitter {
public:
    /// At the processor's init: where its emission progress is committed (`store`: its key).
    void init(kstreams::detail::task_context& ctx, std::string store) {
        metadata_ = kstreams::detail::processor_metadata_of(ctx);
        key_ = std::move(store);
        restored_ = false;
    }
    /// Kafka's shouldEmitFinal: throttled by wall-clock time, then only if windows may have closed.
    bool should_emit(kstreams::detail::task_context& ctx, std::int64_t close_time) {
        const std::int64_t now = ctx.wall_clock_time();
        if (now < next_time_to_emit_) return false;
        if (emit_interval_ms_ < 0)
            emit_interval_ms_ = kstreams::detail::internal_config::milliseconds(
                ctx, kstreams::detail::internal_config::windowed_aggregation_emit_interval_ms, 1000);
        next_time_to_emit_ = now + emit_interval_ms_;
        return closed_since(close_time);
    }
    /// Whether windows may have closed since the last emission (at a commit, whatever the time).
    bool closed_since(std::int64_t close_time) {
        const std::int64_t last = last_close_time();
        return last == -1 || last < close_time;
    }
    /// The close time of the last emission (committed before a restart); -1 before the first.
    std::int64_t last_close_time() {
        restore();
        return last_close_time_;
    }
    void emitted(std::int64_t close_time) {
        restore();
        last_close_time_ = close_time;
        if (metadata_) metadata_->add_processor_metadata(key_, close_time);
    }

    /// Sorts `rows` by (time_of(row), key bytes, then_of(row)): Kafka's time-first key schemas.
    template <class K, class Row, class Time, class Then>
    static void sort_time_first(std::vector<Row>& rows, const serde_ref<K>& ks, Time time_of, Then then_of) {
        std::vector<std::tuple<std::int64_t, std::string, std::int64_t, std::size_t>> order;
        order.reserve(rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            std::string bytes;
            ks.serialize(rows[i].key.key, bytes);
            order.emplace_back(time_of(rows[i]), std::move(bytes), then_of(rows[i]), i);
        }
        std::sort(order.begin(), order.end());
        std::vector<Row> sorted;
        sorted.reserve(rows.size());
        for (const auto& o : order) sorted.push_back(std::move(rows[std::get<3>(o)]));
        rows = std::move(sorted);
    }

private:
    /// Reads the committed progress once, before the first record (the task reads its commit's
    /// metadata after its processors' init, before it processes anything).
    void restore() {
        if (restored_) return;
        restored_ = true;
        if (!metadata_) return;
        if (auto committed = metadata_->processor_metadata_for_key(key_)) last_close_time_ = *committed;
    }

    std::int64_t last_close_time_ = -1;
    std::int64_t next_time_to_emit_ = 0;
    std::int64_t emit_interval_ms_ = -1;  // read from the app's settings at the first look
    kstreams::detail::processor_metadata* metadata_ = nullptr;
    std::string key_;
    bool restored_ = true;  // until init() names where to read from
};

}  // namespace kstreams::dsl_detail
