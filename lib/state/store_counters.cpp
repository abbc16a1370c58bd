#include "lib/state/store_counters.hpp"

#include "lib/state/store_resources.hpp"

namespace kstreams::state {

void store_counters::bind(store_context& ctx, const std::string& store_name, const std::string& scope) {
    auto* res = ctx.resources();
    if (!res || !res->metrics) return;
    auto& m = *res->metrics;
    // Kafka's operation names; a session store's remove and a window store's fetch are counted
    // as delete and get (metered_window_stores.hpp).
    static constexpr std::array<std::string_view, 5> names = {"put", "get", "delete", "range", "flush"};
    for (std::size_t i = 0; i < names.size(); ++i) {
        counts_[i] = &m.counter("store." + store_name + "." + std::string(names[i]));
        if (res->time_store_operations)
            timers_[i].emplace(m, std::string(store_latency_prefix) + store_name + "." + std::string(names[i]));
    }
    m.counter("store-scope." + store_name + "." + scope) = 1;
}

}  // namespace kstreams::state
