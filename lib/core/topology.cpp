// topology: collecting definitions, validating them, and describing the result.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include <kstreams/topology.hpp>

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

topology& topology::connect_processor_and_state_stores(std::string processor, std::vector<std::string> stores) {
    model_->pending_connections.emplace_back(std::move(processor), std::move(stores));
    return *this;
}

void topology::validate() const { detail::group_topology(*model_); }

topology_description topology::describe() const {
    const detail::topology_groups groups = detail::group_topology(*model_);
    const auto& m = *model_;
    topology_description d;
    std::ostringstream out;
    out << "Topologies:\n";
    for (const auto& g : groups.subtopologies) {
        subtopology_description sd{g.id, {}};
        out << "   Sub-topology: " << g.id << "\n";
        for (std::size_t idx : g.describe_order) {
            const detail::node_def& n = m.nodes[idx];
            sd.nodes.push_back(n.name);
            const auto& children = groups.children[idx];
            auto names = [&](const std::vector<std::size_t>& ids) {
                std::vector<std::string> v;
                for (auto i : ids) v.push_back(m.nodes[i].name);
                std::sort(v.begin(), v.end());
                std::string s;
                for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
                return s.empty() ? std::string("none") : s;
            };
            switch (n.kind) {
                case detail::node_kind::source: {
                    out << "    Source: " << n.name << " (topics: ";
                    if (n.pattern) out << "[" << *n.pattern << "]";
                    else {
                        out << "[";
                        for (std::size_t i = 0; i < n.topics.size(); ++i) out << (i ? ", " : "") << n.topics[i];
                        out << "]";
                    }
                    out << ")\n      --> " << names(children) << "\n";
                    break;
                }
                case detail::node_kind::processor: {
                    out << "    Processor: " << n.name << " (stores: [";
                    const auto& st = groups.node_stores[idx];
                    for (std::size_t i = 0; i < st.size(); ++i) out << (i ? ", " : "") << st[i];
                    out << "])\n      --> " << names(children) << "\n      <-- " << names(groups.parents[idx]) << "\n";
                    break;
                }
                case detail::node_kind::sink: {
                    out << "    Sink: " << n.name;
                    if (n.topic.empty()) out << " (extractor class: topic_name_extractor)\n";
                    else out << " (topic: " << n.topic << ")\n";
                    out << "      <-- " << names(groups.parents[idx]) << "\n";
                    break;
                }
            }
        }
        out << "\n";
        d.subtopologies.push_back(std::move(sd));
    }
    d.text = out.str();
    return d;
}

}  // namespace kstreams
