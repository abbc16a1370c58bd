// What the DSL's lowering (and the tests that build what it builds) write into a topology beyond
// the public Processor API: internal topics, a table's source topic as its changelog,
// co-partitioning groups. Kept out of `topology`'s public interface.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kstreams {
class topology;
}

namespace kstreams::detail {

struct node_def;

class topology_writer {
public:
    /// Adds a node as it is defined (the DSL's lowering builds its own node definitions).
    static void add_node(topology& t, node_def def);
    /// Registers a repartition topic (created by the runtime as `<application.id>-<topic>`);
    /// no partitions: as many as its upstream source topics.
    static void add_repartition_topic(topology& t, std::string topic, std::optional<std::int32_t> partitions);
    /// Marks a node's topic as internal (its name gets the application id prefix).
    static void mark_internal(topology& t, std::string_view node_name);
    /// The store restores from (and checkpoints at) its table's source topic instead of a changelog.
    static void use_source_topic_as_changelog(topology& t, std::string_view store_name, std::string topic);
    /// Source topics (as written; internal ones without prefix) that must have the same partition count.
    static void add_copartition_group(topology& t, std::vector<std::string> topics);
};

}  // namespace kstreams::detail
