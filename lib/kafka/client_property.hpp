// Whether librdkafka takes a setting: streams_config::from_properties hands it to the clients only
// then, and keeps any other unknown key as the application's own (app_configs).
#pragma once

#include <string_view>

namespace kstreams::kafka {

/// True if librdkafka knows `key` (a global or a default-topic property), whatever its value.
bool librdkafka_knows(std::string_view key, std::string_view value);

}  // namespace kstreams::kafka
