// topology_writer: the DSL lowering's access to a topology's definitions.
#include <kstreams/detail/topology_writer.hpp>

#include <kstreams/error.hpp>
#include <kstreams/topology.hpp>

namespace kstreams::detail {

void topology_writer::add_node(topology& t, node_def def) { t.add_node(std::move(def)); }

void topology_writer::add_repartition_topic(topology& t, std::string topic, std::optional<std::int32_t> partitions) {
    t.model_->repartition_topics.push_back({std::move(topic), partitions});
}

void topology_writer::mark_internal(topology& t, std::string_view node_name) {
    for (auto& n : t.model_->nodes)
        if (n.name == node_name) {
            n.internal_topic = true;
            return;
        }
    throw topology_error("no node named " + std::string(node_name) + " to mark internal");
}

void topology_writer::use_source_topic_as_changelog(topology& t, std::string_view store_name, std::string topic) {
    for (auto& s : t.model_->stores)
        if (s.builder->name() == store_name) {
            s.source_topic_changelog = std::move(topic);
            return;
        }
    throw topology_error("no store named " + std::string(store_name) + " to restore from " + topic);
}

void topology_writer::add_copartition_group(topology& t, std::vector<std::string> topics) {
    t.model_->copartition_groups.push_back(std::move(topics));
}

}  // namespace kstreams::detail
