// The task manager's ports in memory, for the test driver: topics are logs in memory, the consumer
// hands out their records in order, the producer captures what tasks send, the restore reader
// replays changelog histories. Deterministic and single-threaded.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <kstreams/test/topology_test_driver.hpp>

#include "lib/runtime/ports.hpp"

namespace kstreams::test::detail_impl {

namespace d = kstreams::detail;

/// Input topics: each partition a log of records not yet processed.
class memory_consumer final : public d::consumer_port {
public:
    void append(const d::topic_partition& tp, produced_record r);

    std::vector<std::int64_t> committed(const std::vector<d::topic_partition>& parts) override {
        return std::vector<std::int64_t>(parts.size(), no_offset);
    }
    void assign(const std::vector<d::topic_partition>&, const std::vector<std::int64_t>&) override {}
    void unassign() override {}
    /// The driver's task restores before any input is piped: there is never anything to rewind.
    void seek(const d::topic_partition&, std::int64_t) override {}
    void pause(const d::topic_partition&) override {}
    void resume(const d::topic_partition&) override {}
    std::size_t fetch(const d::topic_partition& tp, std::size_t max, std::vector<d::fetched_record>& out) override;
    void release(const d::fetched_record& r) noexcept override;
    const headers* headers_of(const d::fetched_record& r, headers&) override;
    std::optional<std::int64_t> lag(const d::topic_partition&, std::int64_t) override { return 0; }
    commit_result commit(std::span<const d::partition_offset> offsets) override {
        for (const auto& o : offsets) {
            committed_offsets[*o.tp] = o.offset;
            committed_metadata_of[*o.tp] = std::string(o.metadata);
        }
        return commit_result::ok;
    }
    std::optional<std::string> committed_metadata(const d::topic_partition& tp) override {
        auto it = resume_metadata.find(tp.topic);
        if (it == resume_metadata.end()) return std::nullopt;
        return it->second;
    }
    std::map<d::topic_partition, std::int64_t> committed_offsets;
    std::map<d::topic_partition, std::string> committed_metadata_of;
    /// driver_config::committed_metadata
    std::map<std::string, std::string> resume_metadata;
    /// driver_config::first_input_offsets
    std::map<std::string, std::int64_t> first_offsets;

private:
    struct log;
    struct slot {
        produced_record rec;
        std::int64_t offset = 0;
        log* owner = nullptr;
        bool released = false;
    };
    struct log {
        std::deque<slot> slots;  ///< fetched and not released, then not fetched yet
        std::size_t fetched = 0;
        std::int64_t next_offset = 0;
    };
    std::map<d::topic_partition, log> logs_;
};

/// Captures what the tasks send; a flush hands it to the driver (`deliver`), which routes it.
class memory_producer final : public d::producer_port, public d::record_collector {
public:
    std::deque<produced_record> sent;
    std::function<void()> deliver;
    d::checkpoint_offsets acked;  ///< last offset of each changelog partition

    d::record_collector& collector() override { return *this; }
    void flush() override {
        if (deliver) deliver();
    }
    const d::checkpoint_offsets& changelog_offsets() override { return acked; }

    void send(std::string_view topic, std::optional<std::int32_t>, std::optional<std::string_view> key,
              std::optional<std::string_view> value, std::int64_t timestamp, const headers& hdrs,
              std::string_view) override {
        sent.push_back({std::string(topic), key ? std::optional<std::string>(*key) : std::nullopt,
                        value ? std::optional<std::string>(*value) : std::nullopt, timestamp, hdrs});
    }
    std::int32_t partition_count(std::string_view) override { return 1; }
};

/// Replays changelog topics' histories (offset = index), one partition per read, in batches.
class memory_restorer final : public d::restore_reader, private d::restore_batch_details {
public:
    explicit memory_restorer(const std::map<std::string, std::vector<produced_record>, std::less<>>& history)
        : history_(history) {}
    std::optional<std::pair<std::int64_t, std::int64_t>> offsets(const d::topic_partition& tp) override;
    void add(const d::topic_partition& tp, std::int64_t from) override { reading_.emplace_back(tp, from); }
    void remove(const d::topic_partition& tp) override;
    std::size_t read(std::size_t max, d::restore_sink& sink) override;

private:
    // The batch's offsets and headers (restore_batch_details).
    std::int64_t offset_of(std::size_t i) const override { return sources_.at(i).first; }
    const headers& headers_of(std::size_t i, headers&) const override { return sources_.at(i).second->headers; }

    const std::map<std::string, std::vector<produced_record>, std::less<>>& history_;
    std::vector<std::pair<d::topic_partition, std::int64_t>> reading_;
    std::vector<restore_record> batch_;
    std::vector<std::pair<std::int64_t, const produced_record*>> sources_;  ///< of batch_'s records
};

}  // namespace kstreams::test::detail_impl
