// Which properties become configs of the internal topics (Kafka's "topic." prefix).
#include <doctest/doctest.h>

#include "lib/runtime/topic_plan.hpp"

using kstreams::detail::internal_topic_configs;
using configs = std::map<std::string, std::string>;

TEST_CASE("topic.-prefixed properties are internal topic configs, the prefix removed") {
    CHECK(internal_topic_configs({{"topic.segment.ms", "3600000"}, {"topic.min.insync.replicas", "2"}, {"my.key", "x"}}) ==
          configs{{"segment.ms", "3600000"}, {"min.insync.replicas", "2"}});
}

TEST_CASE("topic. keys librdkafka reads itself stay client settings") {
    CHECK(internal_topic_configs({{"topic.metadata.refresh.interval.ms", "10000"}, {"topic.", "x"}}).empty());
}
