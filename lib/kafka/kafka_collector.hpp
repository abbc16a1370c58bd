// Where a stream thread's tasks send records: one idempotent librdkafka producer per stream thread,
// murmur2 partitioning (as the Java producer), delivery failures routed to the production error
// policy, and the offsets of changelog records kept for checkpoints.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include <kstreams/detail/task_context.hpp>
#include <kstreams/metrics.hpp>
#include <kstreams/streams.hpp>

#include "lib/kafka/rd.hpp"

namespace kstreams::kafka {

class kafka_collector final : public detail::record_collector {
public:
    /// `settings`: the producer's librdkafka settings; `partition_counts`: the app's topics.
    /// `sink_settings`, if any, make a second producer for the topics that are not internal
    /// (`internal_topics`): sinks then write to another cluster than the one the app reads.
    kafka_collector(std::map<std::string, std::string> settings, production_error_policy policy,
                    kstreams::metrics& metrics, std::map<std::string, std::int32_t, std::less<>> partition_counts,
                    std::set<std::string, std::less<>> changelog_topics,
                    std::optional<std::map<std::string, std::string>> sink_settings = std::nullopt,
                    std::set<std::string, std::less<>> internal_topics = {});
    ~kafka_collector() override;

    void send(std::string_view topic, std::optional<std::int32_t> partition, std::optional<std::string_view> key,
              std::optional<std::string_view> value, std::int64_t timestamp, const headers& hdrs,
              std::string_view sink_node) override;
    std::int32_t partition_count(std::string_view topic) override;

    /// Serves delivery reports; throws streams_error for a failed send under the `fail` policy.
    void poll();
    /// Waits until every record sent was acknowledged, then as poll().
    void flush(std::chrono::milliseconds timeout);
    /// Last acknowledged offset of each changelog partition written by this producer.
    const std::map<std::pair<std::string, std::int32_t>, std::int64_t>& changelog_offsets() const {
        return changelog_offsets_;
    }
    rd_kafka_t* handle() const { return producer_.get(); }
    /// The producer for sink topics on another cluster, or nullptr.
    rd_kafka_t* sink_handle() const { return sink_producer_.get(); }

private:
    struct topic_entry {
        std::string name;
        rd_kafka_topic_t* rkt = nullptr;
        rd_kafka_t* rk = nullptr;
        bool changelog = false;
    };
    static void on_delivery(rd_kafka_t*, const rd_kafka_message_t* msg, void* opaque);
    void delivered(const rd_kafka_message_t* msg);
    topic_entry& entry(std::string_view topic);
    void check_failed();

    production_error_policy policy_;
    kstreams::metrics& metrics_;
    std::map<std::string, std::int32_t, std::less<>> partition_counts_;
    std::set<std::string, std::less<>> changelog_topics_;
    rk_ptr producer_;
    rk_ptr sink_producer_;
    std::set<std::string, std::less<>> internal_topics_;
    std::map<std::string, topic_entry, std::less<>> topics_;
    topic_entry* last_ = nullptr;
    std::map<std::pair<std::string, std::int32_t>, std::int64_t> changelog_offsets_;
    std::string failure_;
    /// Progress a user can watch between commits: records handed to the producer, and those the
    /// brokers acknowledged (all topics: sinks, repartition topics, changelogs).
    std::uint64_t& produced_;
    std::uint64_t& acknowledged_;
};

}  // namespace kstreams::kafka
