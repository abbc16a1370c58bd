// Fusion of stateless operators: a run of operators that offer node::step() (map_values, filter,
// map, select_key, peek), each the single child of the one before, runs as one node. Its parents
// call it once per record; it steps through the operators in a loop (one virtual call each, no
// forward, no handler block per operator) and hands the last one's input to that operator, which
// forwards to its children as it does alone. The operators stay nodes of the topology: names,
// describe(), their init and close, and errors named per operator are theirs.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include <kstreams/detail/node.hpp>

#include "lib/core/topology_groups.hpp"

namespace kstreams::detail {

class fused_run final : public node {
public:
    /// `ops`: the run in order (at least two); `last`: what the last operator's parent calls (the
    /// operator itself, or a stand-in wired in its place).
    fused_run(std::vector<node*> ops, node& last);
    void process_erased(const void* rec) override;

private:
    std::vector<node*> ops_;
    node& last_;
};

/// The runs to fuse in a sub-topology, each as node indices from first to last: maximal chains of
/// processors whose instance (`instance(index)`) is fusable(), each one the only child of the one
/// before and that one's only parent. Runs of one operator are left out.
std::vector<std::vector<std::size_t>> fusable_runs(const topology_model& model, const topology_groups& groups,
                                                   const subtopology_group& sub,
                                                   const std::function<const node&(std::size_t)>& instance);

}  // namespace kstreams::detail
