// Stacks the store layers a builder asked for: metered(caching(logging(bytes))), as Kafka Streams.
#include <kstreams/state/stores.hpp>

#include "lib/state/caching_key_value_store.hpp"
#include "lib/state/logging_key_value_store.hpp"
#include "lib/state/metered_key_value_store.hpp"
#include "lib/state/plain_value_adapter.hpp"

namespace kstreams::detail {

std::unique_ptr<bytes_key_value_store> wrap_key_value_layers(std::unique_ptr<bytes_key_value_store> inner,
                                                             bool caching, const logging_config& logging) {
    return wrap_key_value_layers(std::move(inner), caching, logging, false);
}

std::unique_ptr<bytes_key_value_store> wrap_key_value_layers(std::unique_ptr<bytes_key_value_store> inner,
                                                             bool caching, const logging_config& logging,
                                                             bool timestamped) {
    if (timestamped) inner = state::adapt_plain_values(std::move(inner));
    if (logging.enabled) inner = std::make_unique<state::logging_key_value_store>(std::move(inner), timestamped);
    // Unlogged, a timestamped store is restored only from a table's source topic (plain values):
    // the layer puts the timestamps back in front, and sends nothing.
    else if (timestamped) inner = std::make_unique<state::logging_key_value_store>(std::move(inner), true, false);
    if (caching) inner = std::make_unique<state::caching_key_value_store>(std::move(inner));
    return std::make_unique<state::metered_key_value_store>(std::move(inner));
}

}  // namespace kstreams::detail
