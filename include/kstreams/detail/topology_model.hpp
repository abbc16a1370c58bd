// The data a topology is: node and store definitions. Written by topology's add_* calls and by the
// DSL's lowering pass; read by the runtime and the test driver. Public only for the templates.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <typeindex>
#include <vector>

#include <kstreams/detail/node.hpp>
#include <kstreams/state/state_store.hpp>

namespace kstreams {

/// Picks a record's timestamp from its raw form; partition_time is the largest timestamp seen so
/// far on its partition (-1 before the first). Return a negative value to skip the record.
using timestamp_extractor = std::function<std::int64_t(const detail::raw_record&, std::int64_t partition_time)>;

/// Where a source starts when its group has no committed offset.
enum class offset_reset { none, earliest, latest };

}  // namespace kstreams

namespace kstreams::detail {

enum class node_kind { source, processor, sink };

struct node_def {
    node_kind kind = node_kind::processor;
    std::string name;
    std::vector<std::string> parents;
    /// typeid(record<K,V>) of what the node takes in and forwards; void where it does neither.
    std::type_index in_type = typeid(void);
    std::type_index out_type = typeid(void);
    std::function<std::unique_ptr<node>()> make;
    std::vector<std::string> stores;

    // sources
    std::vector<std::string> topics;
    std::optional<std::string> pattern;
    kstreams::timestamp_extractor extractor;  ///< empty = the record's own timestamp
    offset_reset reset = offset_reset::none;

    // sinks; empty topic = the topic is chosen per record by an extractor
    std::string topic;

    /// Topics of this source/sink are internal: the runtime names them `<application.id>-<topic>`.
    bool internal_topic = false;
    /// A global store's source or update processor: run by the global task of every instance over
    /// all partitions of its topic, never by stream tasks.
    bool global = false;
};

struct store_def {
    std::shared_ptr<const store_builder> builder;
    std::vector<std::string> processors;
    /// A global store: filled from its source topic (no changelog), readable by every processor.
    bool global = false;
    /// A table()'s store whose source topic is its changelog (topology.optimization
    /// reuse.ktable.source.topics): restored from that topic, never logged.
    std::string source_topic_changelog;
};

/// A repartition topic the DSL inserted (or a user asked for with repartition()).
struct internal_topic_def {
    std::string name;                        ///< without the application.id prefix
    std::optional<std::int32_t> partitions;  ///< nullopt = as many as the upstream source topics
};

struct topology_model {
    std::vector<node_def> nodes;
    std::vector<store_def> stores;
    std::vector<std::pair<std::string, std::vector<std::string>>> pending_connections;
    std::vector<internal_topic_def> repartition_topics;
    /// Groups of source topics (as written; internal ones without prefix) that must have the same
    /// partition count, e.g. the two sides of a join. Checked by the Kafka runtime at start.
    std::vector<std::vector<std::string>> copartition_groups;
};

/// Readable name of a record type for messages; the mangled name is good enough to name it.
std::string describe_type(std::type_index t);

}  // namespace kstreams::detail
