#include "lib/state/metered_key_value_store.hpp"

#include "lib/state/store_resources.hpp"

namespace kstreams::state {

void metered_key_value_store::init(store_context& ctx) {
    inner_->init(ctx);
    auto* res = ctx.resources();
    if (!res || !res->metrics) return;
    auto& m = *res->metrics;
    const std::string prefix = "store." + name() + ".";
    puts_ = &m.counter(prefix + "put");
    gets_ = &m.counter(prefix + "get");
    deletes_ = &m.counter(prefix + "delete");
    ranges_ = &m.counter(prefix + "range");
    flushes_ = &m.counter(prefix + "flush");
}

}  // namespace kstreams::state
