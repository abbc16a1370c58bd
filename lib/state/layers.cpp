// Stacks the store layers a builder asked for. Issue E adds the caching and logging layers here.
#include <kstreams/state/stores.hpp>

namespace kstreams::detail {

std::unique_ptr<bytes_key_value_store> wrap_key_value_layers(std::unique_ptr<bytes_key_value_store> inner,
                                                             bool caching, const logging_config& logging) {
    return wrap_key_value_layers(std::move(inner), caching, logging, false);
}

std::unique_ptr<bytes_key_value_store> wrap_key_value_layers(std::unique_ptr<bytes_key_value_store> inner, bool,
                                                             const logging_config&, bool) {
    return inner;
}

}  // namespace kstreams::detail
