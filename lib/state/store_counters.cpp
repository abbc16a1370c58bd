#include "lib/state/store_counters.hpp"

#include "lib/state/store_resources.hpp"

namespace kstreams::state {

void store_counters::bind(store_context& ctx, const std::string& store_name, const std::string& scope) {
    auto* res = ctx.resources();
    if (!res || !res->metrics) return;
    auto& m = *res->metrics;
    const std::string prefix = "store." + store_name + ".";
    puts = &m.counter(prefix + "put");
    gets = &m.counter(prefix + "get");
    deletes = &m.counter(prefix + "delete");
    ranges = &m.counter(prefix + "range");
    flushes = &m.counter(prefix + "flush");
    m.counter("store-scope." + store_name + "." + scope) = 1;
}

}  // namespace kstreams::state
