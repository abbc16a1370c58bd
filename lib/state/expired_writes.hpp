// A write a store drops because it is out of retention: Kafka's expired-record sensor counts it
// in dropped-records, and the store warns once.
#pragma once

#include <string>
#include <string_view>

#include <kstreams/metrics.hpp>
#include <kstreams/state/state_store.hpp>

#include "lib/core/log.hpp"
#include "lib/state/store_resources.hpp"

namespace kstreams::state {

/// Counts one dropped write (dropped-records, dropped-records.expired); the first one (`warned`
/// still false) also logs "store <store>: skipping <what>; further ones are only counted".
inline void count_expired_write(store_context* ctx, bool& warned, std::string_view store, std::string_view what) {
    if (auto* res = ctx ? ctx->resources() : nullptr; res && res->metrics) {
        ++res->metrics->counter(metric::dropped_records);
        ++res->metrics->counter("dropped-records.expired");
    }
    if (warned) return;
    warned = true;
    KSTREAMS_LOG(warn, "store " + std::string(store) + ": skipping " + std::string(what) +
                           "; further ones are only counted (dropped-records)");
}

}  // namespace kstreams::state
