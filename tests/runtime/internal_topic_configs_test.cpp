// Which properties become configs of the internal topics (Kafka's "topic." prefix), and the configs
// each kind of internal topic is created with (Kafka's InternalTopicManager and InternalTopicConfig).
#include <doctest/doctest.h>

#include <chrono>
#include <limits>
#include <stdexcept>

#include <kstreams/state/stores.hpp>
#include <kstreams/state/versioned_key_value_store.hpp>
#include <kstreams/state/window_stores.hpp>

#include "lib/runtime/internal_topic_config.hpp"

using namespace std::chrono_literals;
using kstreams::detail::changelog_topic_config;
using kstreams::detail::internal_topic_configs;
using kstreams::detail::repartition_topic_config;
using kstreams::detail::window_changelog_additional_retention;
using configs = std::map<std::string, std::string>;
namespace stores = kstreams::stores;

namespace {
constexpr std::int64_t day = 24 * 60 * 60 * 1000;

configs window_store_logging(configs own = {}) {
    auto b = stores::window_store_builder<std::string, std::string>(stores::in_memory_window_store("w", 1000ms, 10ms, false));
    if (!own.empty()) b.with_logging_enabled(std::move(own));
    return b.logging().topic_config;
}
}  // namespace

TEST_CASE("topic.-prefixed properties are internal topic configs, the prefix removed") {
    CHECK(internal_topic_configs({{"topic.segment.ms", "3600000"}, {"topic.min.insync.replicas", "2"}, {"my.key", "x"}}) ==
          configs{{"segment.ms", "3600000"}, {"min.insync.replicas", "2"}});
}

TEST_CASE("topic. keys librdkafka reads itself stay client settings") {
    CHECK(internal_topic_configs({{"topic.metadata.refresh.interval.ms", "10000"}, {"topic.", "x"}}).empty());
}

TEST_CASE("windowstore.changelog.additional.retention.ms: a day unless set, a clear error when not a number") {
    CHECK(window_changelog_additional_retention({}) == day);
    CHECK(window_changelog_additional_retention({{"windowstore.changelog.additional.retention.ms", "3600000"}}) == 3'600'000);
    CHECK_THROWS_WITH_AS(window_changelog_additional_retention({{"windowstore.changelog.additional.retention.ms", "1h"}}),
                         doctest::Contains("windowstore.changelog.additional.retention.ms=1h"), std::invalid_argument);
}

TEST_CASE("a window store's changelog: compact,delete, retention.ms = the store's retention + the additional retention") {
    CHECK(changelog_topic_config(window_store_logging(), {}, day) ==
          configs{{"cleanup.policy", "compact,delete"},
                  {"message.timestamp.type", "CreateTime"},
                  {"retention.ms", std::to_string(1000 + day)}});
    CHECK(changelog_topic_config(window_store_logging(), {}, 3'600'000).at("retention.ms") == std::to_string(1000 + 3'600'000));
    CHECK(changelog_topic_config(window_store_logging(), {}, 0).at("retention.ms") == "1000");
    // Unlimited windows: the sum stays at the largest time (Kafka's addExact, overflow caught).
    auto unlimited = stores::session_store_builder<std::string, std::string>(
        stores::in_memory_session_store("s", std::chrono::milliseconds(std::numeric_limits<std::int64_t>::max())));
    CHECK(changelog_topic_config(unlimited.logging().topic_config, {}, day).at("retention.ms") ==
          std::to_string(std::numeric_limits<std::int64_t>::max()));
}

TEST_CASE("a window store's changelog: topic.* over the kind's defaults, the store's own over topic.*, the computed retention last") {
    const configs app_topic{{"cleanup.policy", "compact"}, {"retention.ms", "5"}, {"segment.ms", "600000"}};
    // topic.cleanup.policy replaces compact,delete; topic.retention.ms gives way to the computed retention.
    CHECK(changelog_topic_config(window_store_logging(), app_topic, day) ==
          configs{{"cleanup.policy", "compact"},
                  {"message.timestamp.type", "CreateTime"},
                  {"retention.ms", std::to_string(1000 + day)},
                  {"segment.ms", "600000"}});
    // The store's own configs (with_logging_enabled) over topic.*; its own retention.ms is kept as given.
    CHECK(changelog_topic_config(window_store_logging({{"cleanup.policy", "delete"}, {"retention.ms", "42"}}), app_topic,
                                 day) == configs{{"cleanup.policy", "delete"},
                                                 {"message.timestamp.type", "CreateTime"},
                                                 {"retention.ms", "42"},
                                                 {"segment.ms", "600000"}});
}

TEST_CASE("a key-value store's changelog: compact, topic.* over it, the store's own over topic.*, no retention") {
    auto b = stores::key_value_store_builder<std::string, std::string>(stores::in_memory_key_value_store("kv"));
    CHECK(changelog_topic_config(b.logging().topic_config, {}, day) ==
          configs{{"cleanup.policy", "compact"}, {"message.timestamp.type", "CreateTime"}});
    CHECK(changelog_topic_config(b.logging().topic_config, {{"cleanup.policy", "compact,delete"}}, day).at("cleanup.policy") ==
          "compact,delete");
    b.with_logging_enabled({{"cleanup.policy", "compact"}, {"min.insync.replicas", "2"}});
    CHECK(changelog_topic_config(b.logging().topic_config, {{"cleanup.policy", "delete"}, {"min.insync.replicas", "1"}}, day) ==
          configs{{"cleanup.policy", "compact"}, {"message.timestamp.type", "CreateTime"}, {"min.insync.replicas", "2"}});
}

TEST_CASE("a repartition topic: delete, unlimited retention, 50 MiB segments, topic.* over them") {
    CHECK(repartition_topic_config({}) == configs{{"cleanup.policy", "delete"},
                                                  {"message.timestamp.type", "CreateTime"},
                                                  {"retention.ms", "-1"},
                                                  {"segment.bytes", "52428800"}});
    CHECK(repartition_topic_config({{"retention.ms", "86400000"}, {"message.timestamp.type", "LogAppendTime"}}) ==
          configs{{"cleanup.policy", "delete"},
                  {"message.timestamp.type", "LogAppendTime"},
                  {"retention.ms", "86400000"},
                  {"segment.bytes", "52428800"}});
}
