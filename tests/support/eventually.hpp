// Waits for a condition on a running app: interactive queries throw invalid_state_store_error
// while the group rebalances, so a query that throws counts as "not yet".
#pragma once

#include <chrono>
#include <thread>

#include <kstreams/state/queryable_store.hpp>

namespace kstreams::test {

/// Retries `f` until it returns true (true) or `limit` passed (false).
template <class F>
bool eventually(F f, std::chrono::seconds limit = std::chrono::seconds(60)) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
        try {
            if (f()) return true;
        } catch (const invalid_state_store_error&) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

}  // namespace kstreams::test
