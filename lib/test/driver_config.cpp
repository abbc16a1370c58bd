// driver_config::from_properties: Kafka Streams properties for the test driver, read as the
// runtime's streams_config reads them, plus what only the driver takes.
#include <kstreams/detail/internal_configs.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include <charconv>
#include <stdexcept>

namespace kstreams::test {

namespace {
std::int64_t parse_ms(const std::string& key, const std::string& value) {
    std::int64_t out = 0;
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
    if (ec != std::errc{} || ptr != value.data() + value.size() || out < 0)
        throw std::invalid_argument("driver config: " + key + "=" + value + " is not a valid number of milliseconds");
    return out;
}
}  // namespace

driver_config driver_config::from_properties(const std::map<std::string, std::string>& properties) {
    driver_config c;
    std::map<std::string, std::string> runtime;
    for (const auto& [key, value] : properties) {
        if (key == detail::internal_config::outer_join_emit_interval_ms) c.outer_join_emit_interval_ms = parse_ms(key, value);
        else if (key == detail::internal_config::windowed_aggregation_emit_interval_ms) c.windowed_aggregation_emit_interval_ms = parse_ms(key, value);
        else runtime.emplace(key, value);
    }
    const streams_config s = streams_config::from_properties(runtime);
    if (properties.count("application.id")) c.application_id = s.application_id;
    if (properties.count("state.dir")) c.state_dir = s.state_dir;
    c.cache_max_bytes = s.statestore_cache_max_bytes;
    c.rocksdb.block_cache_bytes = s.rocksdb.block_cache_bytes;
    c.rocksdb.write_buffer_manager_bytes = s.rocksdb.write_buffer_manager_bytes;
    c.log_and_continue_on_deserialization_error = s.log_and_continue_on_deserialization_error;
    c.errors = s.errors;
    c.log_and_continue_on_production_error = s.on_production_error == production_error_policy::log_and_continue;
    c.max_async_in_flight_per_task = s.max_async_in_flight_per_task;
    c.default_timestamp_extractor = s.default_timestamp_extractor;
    c.default_dsl_store = s.default_dsl_store;
    c.app_configs = s.app_configs;
    for (const auto& [key, value] : properties) c.app_configs.emplace(key, value);  // the intervals too
    c.metrics_recording_level = s.metrics_recording_level;
    return c;
}

}  // namespace kstreams::test
