#include "lib/runtime/fused_run.hpp"

#include <optional>
#include <unordered_set>

namespace kstreams::detail {

fused_run::fused_run(std::vector<node*> ops, node& last)
    : node(ops.front()->name()), ops_(std::move(ops)), last_(last) {}

void fused_run::process_erased(const void* rec) {
    // What an operator throws is its own error, as when its parent's forward called it: the
    // handler names it and either drops the record there (the rest of the run never sees it) or
    // fails the task. Every operator but the last forwards in the context it runs in, so the
    // record context is the one the run was called in throughout.
    std::size_t i = 0;
    try {
        for (const std::size_t last = ops_.size() - 1; i < last; ++i) {
            rec = ops_[i]->step(rec);
            if (!rec) return;
        }
        last_.process_erased(rec);
    } catch (...) {
        context().processing_failed(*ops_[i]);
    }
}

std::vector<std::vector<std::size_t>> fusable_runs(const topology_model& model, const topology_groups& groups,
                                                   const subtopology_group& sub,
                                                   const std::function<const node&(std::size_t)>& instance) {
    auto fusable = [&](std::size_t idx) {
        return model.nodes[idx].kind == node_kind::processor && instance(idx).fusable();
    };
    // What follows `idx` in a run: its only child, if fusable and `idx` is its only parent.
    auto next_in_run = [&](std::size_t idx) -> std::optional<std::size_t> {
        if (groups.children[idx].size() != 1) return std::nullopt;
        const std::size_t next = groups.children[idx].front();
        if (groups.parents[next].size() != 1 || !fusable(next)) return std::nullopt;
        return next;
    };
    std::vector<std::vector<std::size_t>> runs;
    std::unordered_set<std::size_t> taken;
    for (std::size_t idx : sub.nodes) {  // parents first: a run is met at its first operator
        if (taken.contains(idx) || !fusable(idx)) continue;
        std::vector<std::size_t> run{idx};
        while (const auto next = next_in_run(run.back())) run.push_back(*next);
        taken.insert(run.begin(), run.end());
        if (run.size() > 1) runs.push_back(std::move(run));
    }
    return runs;
}

}  // namespace kstreams::detail
