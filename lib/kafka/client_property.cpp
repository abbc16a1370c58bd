#include "lib/kafka/client_property.hpp"

#include <string>

#include "lib/kafka/rd.hpp"

namespace kstreams::kafka {

bool librdkafka_knows(std::string_view key, std::string_view value) {
    // Setting them on a scratch configuration would load plugins or call interceptors.
    if (key == "plugin.library.paths" || key.starts_with("interceptor.")) return true;
    conf_ptr conf(rd_kafka_conf_new());
    char error[256];
    return rd_kafka_conf_set(conf.get(), std::string(key).c_str(), std::string(value).c_str(), error,
                             sizeof error) != RD_KAFKA_CONF_UNKNOWN;
}

}  // namespace kstreams::kafka
