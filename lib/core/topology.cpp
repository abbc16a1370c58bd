// topology: collecting definitions, validating them, and describing the result.
#include <kstreams/topology.hpp>

#include "lib/core/topology_describe.hpp"
#include "lib/core/topology_groups.hpp"

namespace kstreams {

topology::topology() : model_(std::make_unique<detail::topology_model>()) {}
topology::~topology() = default;
topology::topology(topology&&) noexcept = default;
topology& topology::operator=(topology&&) noexcept = default;

topology& topology::add_node(detail::node_def def) {
    model_->nodes.push_back(std::move(def));
    return *this;
}

topology& topology::add_state_store(std::shared_ptr<const store_builder> builder, std::vector<std::string> processors) {
    model_->stores.push_back({std::move(builder), std::move(processors)});
    return *this;
}

topology& topology::add_global_state_store(std::shared_ptr<const store_builder> builder) {
    model_->stores.push_back({std::move(builder), {}, true});
    return *this;
}

topology& topology::connect_processor_and_state_stores(std::string processor, std::vector<std::string> stores) {
    model_->pending_connections.emplace_back(std::move(processor), std::move(stores));
    return *this;
}

void topology::validate() const { detail::group_topology(*model_); }

topology_description topology::describe() const {
    return detail::describe_topology(*model_, detail::group_topology(*model_));
}

}  // namespace kstreams
