#include <kstreams/timestamp_extractors.hpp>

#include <array>
#include <chrono>

#include <kstreams/error.hpp>

namespace kstreams::timestamp_extractors {

namespace {

std::string where(const detail::raw_record& r) {
    return "topic " + std::string(r.topic) + ", partition " + std::to_string(r.partition) + ", offset " +
           std::to_string(r.offset);
}

}  // namespace

timestamp_extractor fail_on_invalid_timestamp() {
    return [](const detail::raw_record& r, std::int64_t) -> std::int64_t {
        if (r.timestamp < 0)
            throw streams_error("Input record at " + where(r) + " has invalid (negative) timestamp " +
                                std::to_string(r.timestamp) +
                                " (FailOnInvalidTimestamp); use a different timestamp extractor to process this data");
        return r.timestamp;
    };
}

timestamp_extractor log_and_skip_on_invalid_timestamp() {
    // A negative result is what the task skips, logs and counts.
    return [](const detail::raw_record& r, std::int64_t) { return r.timestamp; };
}

timestamp_extractor use_partition_time_on_invalid_timestamp() {
    return [](const detail::raw_record& r, std::int64_t partition_time) -> std::int64_t {
        if (r.timestamp >= 0) return r.timestamp;
        if (partition_time < 0)
            throw streams_error("Could not infer new timestamp for input record at " + where(r) +
                                " because partition time is unknown (UsePartitionTimeOnInvalidTimestamp)");
        return partition_time;
    };
}

timestamp_extractor wall_clock() {
    return [](const detail::raw_record&, std::int64_t) -> std::int64_t {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    };
}

std::optional<timestamp_extractor> by_class_name(std::string_view name) {
    constexpr std::string_view package = "org.apache.kafka.streams.processor.";
    if (name.substr(0, package.size()) == package) name.remove_prefix(package.size());
    if (name == "FailOnInvalidTimestamp") return fail_on_invalid_timestamp();
    if (name == "LogAndSkipOnInvalidTimestamp") return log_and_skip_on_invalid_timestamp();
    if (name == "UsePartitionTimeOnInvalidTimestamp") return use_partition_time_on_invalid_timestamp();
    if (name == "WallclockTimestampExtractor") return wall_clock();
    return std::nullopt;
}

}  // namespace kstreams::timestamp_extractors
