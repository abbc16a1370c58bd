#include "lib/runtime/internal_topic_config.hpp"

#include <charconv>
#include <limits>
#include <stdexcept>

#include "lib/kafka/client_property.hpp"

namespace kstreams::detail {

namespace {

constexpr std::string_view additional_retention_property = "windowstore.changelog.additional.retention.ms";

std::int64_t parse_ms(std::string_view what, const std::string& value) {
    std::int64_t out{};
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
    if (ec != std::errc{} || ptr != value.data() + value.size() || value.empty())
        throw std::invalid_argument(std::string(what) + "=" + value + " is not a valid number");
    return out;
}

/// Kafka's order: the kind's defaults, then the app's topic.* configs, then the store's own.
topic_configs layered(topic_configs kind_defaults, const topic_configs& app_topic_configs, const topic_configs& own) {
    kind_defaults.try_emplace("message.timestamp.type", "CreateTime");  // the records' own times, on any broker
    for (const auto& [k, v] : app_topic_configs) kind_defaults[k] = v;
    for (const auto& [k, v] : own)
        if (k != windowed_store_retention_key) kind_defaults[k] = v;
    return kind_defaults;
}

}  // namespace

std::int64_t window_changelog_additional_retention(const topic_configs& app_configs) {
    const auto it = app_configs.find(std::string(additional_retention_property));
    if (it == app_configs.end()) return 24 * 60 * 60 * 1000;
    return parse_ms("streams config: " + std::string(additional_retention_property), it->second);
}

topic_configs internal_topic_configs(const topic_configs& app_configs) {
    topic_configs out;
    constexpr std::string_view prefix = "topic.";
    for (const auto& [k, v] : app_configs)
        if (k.starts_with(prefix) && k.size() > prefix.size() && !kafka::librdkafka_knows(k, v))
            out[k.substr(prefix.size())] = v;
    return out;
}

topic_configs repartition_topic_config(const topic_configs& app_topic_configs) {
    return layered({{"cleanup.policy", "delete"}, {"segment.bytes", "52428800"}, {"retention.ms", "-1"}}, app_topic_configs,
                   {});
}

topic_configs changelog_topic_config(const topic_configs& store_config, const topic_configs& app_topic_configs,
                                     std::int64_t additional_retention) {
    const auto windowed = store_config.find(std::string(windowed_store_retention_key));
    if (windowed == store_config.end()) return layered({{"cleanup.policy", "compact"}}, app_topic_configs, store_config);
    auto out = layered({{"cleanup.policy", "compact,delete"}}, app_topic_configs, store_config);
    if (!store_config.contains("retention.ms")) {
        const std::int64_t retention = parse_ms(windowed_store_retention_key, windowed->second);
        // As Kafka's Math.addExact with its overflow caught: past the largest time it stays there.
        std::int64_t total{};
        if (__builtin_add_overflow(retention, additional_retention, &total)) total = std::numeric_limits<std::int64_t>::max();
        out["retention.ms"] = std::to_string(total);
    }
    return out;
}

}  // namespace kstreams::detail
