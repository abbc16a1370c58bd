#include "lib/runtime/topic_plan.hpp"

#include <algorithm>
#include <optional>
#include <regex>

#include <kstreams/error.hpp>

namespace kstreams::detail {

topic_plan plan_topics(const topology_model& model, const topology_groups& groups, kafka::topic_admin& admin,
                       const plan_options& options) {
    const std::string prefix = options.application_id + "-";
    std::set<std::string> internal;  // unprefixed names of repartition topics
    for (const auto& r : model.repartition_topics) internal.insert(r.name);
    for (const auto& n : model.nodes)
        if (n.internal_topic) {
            internal.insert(n.topics.begin(), n.topics.end());
            if (!n.topic.empty()) internal.insert(n.topic);
        }
    auto full_name = [&](const std::string& t) { return internal.count(t) ? prefix + t : t; };
    std::set<std::string> internal_full;
    for (const auto& t : internal) internal_full.insert(prefix + t);

    // External topics: on the embedded cluster the app creates what is missing; elsewhere a missing
    // source topic is an error (Kafka Streams' MissingSourceTopicException).
    std::vector<kafka::topic_spec> external;
    for (const auto& n : model.nodes) {
        if (n.internal_topic) continue;
        if (n.kind == node_kind::source)
            for (const auto& t : n.topics) external.push_back({t, options.embedded_partitions, 1, {}});
        if (n.kind == node_kind::sink && !n.topic.empty())
            external.push_back({n.topic, options.embedded_partitions, 1, {}});
    }
    if (!options.dead_letter_topic.empty()) external.push_back({options.dead_letter_topic, options.embedded_partitions, 1, {}});
    if (options.create_external) admin.create_topics(external);
    for (std::size_t i = 0; i < groups.subtopologies.size(); ++i)
        for (const auto& t : groups.subtopologies[i].source_topics)
            if (!internal.count(t) && !admin.partition_count(t))
                throw streams_error("source topic " + t + " of sub-topology " +
                                    std::to_string(groups.subtopologies[i].id) +
                                    " is missing on the cluster; create it before starting the app");
    // Sinks with a fixed topic (not a topic-name extractor): librdkafka would only report a
    // missing one after message.timeout.ms, and the thread would die then.
    if (options.check_sinks)
        for (const auto& n : model.nodes)
            if (n.kind == node_kind::sink && !n.internal_topic && !n.topic.empty() && !admin.partition_count(n.topic))
                throw streams_error("sink topic " + n.topic + " of processor " + n.name +
                                    " is missing on the cluster; create it before starting the app");

    if (options.check_sinks && !options.dead_letter_topic.empty() && !admin.partition_count(options.dead_letter_topic))
        throw streams_error("dead-letter queue topic " + options.dead_letter_topic +
                            " (errors.dead.letter.queue.topic.name) is missing on the cluster; create it before starting "
                            "the app");

    topic_plan plan;
    const auto& counts = admin.partition_counts();

    // Pattern sources read the topics that match now (Kafka Streams would also follow new ones).
    std::vector<std::vector<std::string>> sources(groups.subtopologies.size());
    for (std::size_t i = 0; i < groups.subtopologies.size(); ++i) {
        const auto& sub = groups.subtopologies[i];
        for (const auto& t : sub.source_topics) sources[i].push_back(full_name(t));
        for (const auto& p : sub.source_patterns) {
            const std::regex re(p);
            for (const auto& [topic, n] : counts)
                if (topic.rfind("__", 0) != 0 && std::regex_match(topic, re)) sources[i].push_back(topic);
        }
    }

    // Repartition topics take their upstream's partition count unless fixed; resolve to a fixpoint
    // because a repartition topic's writer may itself read repartition topics.
    std::map<std::string, std::int32_t> repartition_count;
    for (const auto& r : model.repartition_topics)
        if (r.partitions) repartition_count[prefix + r.name] = *r.partitions;
    auto count_of = [&](const std::string& topic) -> std::int32_t {
        if (auto it = repartition_count.find(topic); it != repartition_count.end()) return it->second;
        if (internal_full.count(topic)) return 0;  // not resolved yet
        if (auto it = counts.find(topic); it != counts.end()) return it->second;
        return 0;
    };
    // A repartition topic co-partitioned with source topics (a join's re-keyed side) takes their
    // partition count (Kafka's CopartitionedTopicsEnforcer); a fixed count that differs fails below.
    for (const auto& group : model.copartition_groups) {
        std::int32_t external_count = 0;
        for (const auto& t : group)
            if (!internal.count(t))
                if (auto it = counts.find(t); it != counts.end()) external_count = std::max(external_count, it->second);
        if (external_count == 0) continue;
        for (const auto& t : group)
            if (internal.count(t)) repartition_count.try_emplace(prefix + t, external_count);
    }
    std::map<std::string, std::vector<std::size_t>> writers;  // prefixed repartition topic -> sub indices
    for (std::size_t i = 0; i < groups.subtopologies.size(); ++i)
        for (std::size_t idx : groups.subtopologies[i].nodes) {
            const auto& n = model.nodes[idx];
            if (n.kind == node_kind::sink && n.internal_topic && !n.topic.empty())
                writers[prefix + n.topic].push_back(i);
        }
    for (bool changed = true; changed;) {
        changed = false;
        for (const auto& [topic, subs] : writers) {
            if (repartition_count.count(topic)) continue;
            std::int32_t n = 0;
            bool known = true;
            for (std::size_t s : subs)
                for (const auto& t : sources[s]) {
                    const std::int32_t c = count_of(t);
                    if (c == 0) known = false;
                    n = std::max(n, c);
                }
            if (known && n > 0) {
                repartition_count[topic] = n;
                changed = true;
            }
        }
    }
    // A group of internal topics only (a join of two aggregations, a foreign-key join of an
    // aggregation: its response topic is written by the other side) gets one count, as Kafka's
    // CopartitionedTopicsEnforcer: the count fixed for one of them, else the largest worked out.
    for (const auto& group : model.copartition_groups) {
        if (std::any_of(group.begin(), group.end(), [&](const std::string& t) { return !internal.count(t); })) continue;
        std::optional<std::int32_t> fixed;
        std::int32_t largest = 0;
        for (const auto& t : group) {
            for (const auto& r : model.repartition_topics)
                if (r.name == t && r.partitions && !fixed) fixed = *r.partitions;
            if (auto it = repartition_count.find(prefix + t); it != repartition_count.end()) largest = std::max(largest, it->second);
        }
        const std::int32_t n = fixed.value_or(largest);
        if (n == 0) continue;
        for (const auto& t : group) {
            const bool is_fixed = std::any_of(model.repartition_topics.begin(), model.repartition_topics.end(),
                                              [&](const internal_topic_def& r) { return r.name == t && r.partitions; });
            if (!is_fixed) repartition_count[prefix + t] = n;
        }
    }
    for (const auto& name : internal)
        if (!repartition_count.count(prefix + name))
            throw streams_error("could not work out the partition count of repartition topic " + prefix + name +
                                " (no writer reads topics of known size)");

    // Co-partitioning: topics joined must have the same partition count.
    for (const auto& group : model.copartition_groups) {
        std::int32_t expected = -1;
        std::string first;
        for (const auto& t : group) {
            const std::string name = full_name(t);
            const std::int32_t c = count_of(name);
            if (expected < 0) {
                expected = c;
                first = name;
            } else if (c != expected) {
                throw streams_error("topics " + first + " (" + std::to_string(expected) + " partitions) and " + name +
                                    " (" + std::to_string(c) +
                                    " partitions) must be co-partitioned: give them the same number of partitions");
            }
        }
    }

    for (const auto& n : model.nodes) {
        if (n.kind != node_kind::source) continue;
        // Repartition topics are always read from the start, whatever the consumer's default.
        const offset_reset reset = n.internal_topic ? offset_reset::earliest : n.reset;
        if (reset == offset_reset::none) continue;
        for (const auto& t : n.topics) plan.offset_reset_of_topic.emplace(full_name(t), reset);
        if (n.pattern) {
            const std::regex re(*n.pattern);
            for (const auto& [topic, count] : counts)
                if (topic.rfind("__", 0) != 0 && std::regex_match(topic, re)) plan.offset_reset_of_topic.emplace(topic, reset);
        }
    }

    plan.task_count.resize(groups.subtopologies.size());
    for (std::size_t i = 0; i < groups.subtopologies.size(); ++i) {
        if (groups.subtopologies[i].global) continue;  // read by the global thread, not by tasks
        std::int32_t n = 0;
        for (const auto& t : sources[i]) {
            n = std::max(n, count_of(t));
            plan.subtopology_of_topic.emplace(t, i);
        }
        plan.task_count[i] = n;
    }

    // Internal topics to create: repartition topics and changelogs (compacted, one partition per task).
    std::vector<kafka::topic_spec> wanted;
    for (const auto& [topic, n] : repartition_count) {
        plan.repartition_topics.insert(topic);
        wanted.push_back({topic, n, options.replication_factor,
                          repartition_topic_config(options.internal_topic_configs)});
    }
    for (std::size_t i = 0; i < groups.subtopologies.size(); ++i)
        for (std::size_t s : groups.subtopologies[i].stores) {
            const auto& builder = *model.stores[s].builder;
            if (!builder.logging_enabled()) continue;
            const std::string topic = prefix + builder.name() + "-changelog";
            plan.changelog_topics.insert(topic);
            wanted.push_back({topic, plan.task_count[i], options.replication_factor,
                              changelog_topic_config(builder.logging().topic_config, options.internal_topic_configs,
                                                     options.window_changelog_additional_retention)});
        }
    for (const auto& t : wanted)
        if (auto existing = admin.partition_count(t.name); existing && *existing != t.partitions)
            throw streams_error("internal topic " + t.name + " exists with " + std::to_string(*existing) +
                                " partitions but the app needs " + std::to_string(t.partitions) +
                                "; delete it (or reset the application) and start again");
    admin.create_topics(wanted);

    for (const auto& [topic, n] : admin.partition_counts(true)) plan.partition_counts.emplace(topic, n);
    return plan;
}

}  // namespace kstreams::detail
