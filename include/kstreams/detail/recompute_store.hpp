// Recovery by recomputation (materialized<>::with_recovery(recovery::recompute)): a windowed
// aggregation's store kept in memory only, with no changelog; after a failure its open windows are
// rebuilt by processing their input again. The DSL marks such a store by wrapping its builder; the
// runtime finds the mark, and the topology refuses it on a store whose state is not bounded by
// windows (checked when the topology is built).
#pragma once

#include <memory>
#include <string>
#include <utility>

#include <kstreams/state/state_store.hpp>

namespace kstreams {

/// How a store's state survives a failure or a move to another instance.
enum class recovery {
    /// Every change is written to a compacted changelog topic and replayed on restart (Kafka
    /// Streams' only way, and the default).
    changelog,
    /// Windowed aggregations (tumbling, hopping, sliding, session) only: no changelog and nothing
    /// on disk; the state is rebuilt by processing the input of the windows and sessions still
    /// open again (see the README).
    recompute,
};

}  // namespace kstreams

namespace kstreams::detail {

/// The builder of a store recovered by recomputation: the wrapped builder's store, never logged.
class recompute_store_builder final : public store_builder {
public:
    /// `bounded`: the store's state is bounded by its windows and grace (a windowed aggregation);
    /// `not_yet`: a bounded kind whose offsets are not held yet (refused when the topology is
    /// built, naming it), empty when they are.
    recompute_store_builder(std::shared_ptr<const store_builder> inner, bool bounded, std::string not_yet = {})
        : inner_(std::move(inner)), bounded_(bounded), not_yet_(std::move(not_yet)) {
        logging_.enabled = false;
    }
    const std::string& name() const override { return inner_->name(); }
    std::unique_ptr<state_store> build() const override { return inner_->build(); }
    bool logging_enabled() const override { return false; }
    const logging_config& logging() const override { return logging_; }
    bool caching_enabled() const override { return inner_->caching_enabled(); }
    bool bounded() const { return bounded_; }
    const std::string& not_yet() const { return not_yet_; }

private:
    std::shared_ptr<const store_builder> inner_;
    bool bounded_;
    std::string not_yet_;
    logging_config logging_;
};

/// The store's builder marked for recomputation, or nullptr.
inline const recompute_store_builder* as_recompute(const store_builder& b) {
    return dynamic_cast<const recompute_store_builder*>(&b);
}

}  // namespace kstreams::detail
