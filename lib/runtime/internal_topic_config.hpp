// The configs the app creates its internal topics with (Kafka's InternalTopicConfig kinds and
// InternalTopicManager): each kind's defaults, under the app's "topic."-prefixed properties, under a
// store's own changelog configs, and last what is computed from the store (a window store's
// retention).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace kstreams::detail {

using topic_configs = std::map<std::string, std::string>;

/// Carried in a window or session store builder's changelog configs (store_builder::logging()) in
/// place of retention.ms: the store's retention, to which the changelog adds the app's
/// windowstore.changelog.additional.retention.ms when the topics are planned. Never sent to Kafka.
inline constexpr std::string_view windowed_store_retention_key = "kstreams.windowed.store.retention.ms";

/// windowstore.changelog.additional.retention.ms among the app's properties (Kafka's default: one
/// day). Throws std::invalid_argument naming the property when it is not a number.
std::int64_t window_changelog_additional_retention(const topic_configs& app_configs);

/// The "topic."-prefixed properties among `app_configs`, prefix removed, except those librdkafka
/// reads itself (topic.metadata.refresh.interval.ms and its kin are client settings).
topic_configs internal_topic_configs(const topic_configs& app_configs);

/// A repartition topic's configs: delete, unlimited retention, 50 MiB segments, under topic.*.
topic_configs repartition_topic_config(const topic_configs& app_topic_configs);

/// A changelog topic's configs from its store's logging configs. Plain and versioned stores:
/// compact, under topic.*, under the store's own. Window stores (windowed_store_retention_key
/// present): compact,delete, under topic.*, under the store's own, then retention.ms = the store's
/// retention + `additional_retention` (saturating) unless the store's own configs set retention.ms.
topic_configs changelog_topic_config(const topic_configs& store_config, const topic_configs& app_topic_configs,
                                     std::int64_t additional_retention);

}  // namespace kstreams::detail
