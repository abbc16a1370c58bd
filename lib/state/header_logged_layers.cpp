// The layers of the DSL stores whose changelogs carry headers (header_logged_stores.hpp).
#include <kstreams/dsl/detail/header_logged_stores.hpp>

#include "lib/state/logging_key_value_store.hpp"
#include "lib/state/logging_segmented_stores.hpp"
#include "lib/state/metered_key_value_store.hpp"
#include "lib/state/metered_window_stores.hpp"
#include "lib/state/plain_value_adapter.hpp"

namespace kstreams::detail {

std::unique_ptr<bytes_key_value_store> wrap_header_logged_timestamped_layers(std::unique_ptr<bytes_key_value_store> inner) {
    inner = state::adapt_plain_values(std::move(inner));
    inner = std::make_unique<state::logging_key_value_store>(std::move(inner), /*timestamped=*/true, /*send=*/true,
                                                             /*log_headers=*/true);
    return std::make_unique<state::metered_key_value_store>(std::move(inner));
}

std::unique_ptr<bytes_window_store> wrap_header_logged_window_layers(std::unique_ptr<bytes_window_store> inner,
                                                                     const logging_config& logging) {
    if (logging.enabled)
        inner = std::make_unique<state::logging_window_store>(std::move(inner), /*timestamped=*/false, /*log_headers=*/true);
    return std::make_unique<state::metered_window_store>(std::move(inner));
}

}  // namespace kstreams::detail
