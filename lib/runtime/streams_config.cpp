#include <kstreams/detail/internal_configs.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/timestamp_extractors.hpp>

#include <charconv>
#include <vector>

#include "lib/core/log.hpp"
#include "lib/kafka/client_property.hpp"
#include <string_view>
#include <stdexcept>

namespace kstreams {

namespace {
template <class T>
T parse_number(const std::string& key, const std::string& value) {
    T out{};
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
    if (ec != std::errc{} || ptr != value.data() + value.size())
        throw std::invalid_argument("streams config: " + key + "=" + value + " is not a valid number");
    return out;
}
/// A built-in handler's class name (simple or qualified): true for `resume`, false for `fail`.
bool builtin_handler(const std::string& key, const std::string& value, std::string_view resume, std::string_view fail) {
    auto is = [&](std::string_view name) {
        return value == name ||
               (value.size() > name.size() && value.ends_with(name) && value[value.size() - name.size() - 1] == '.');
    };
    if (is(resume)) return true;
    if (is(fail)) return false;
    throw std::invalid_argument("streams config: " + key + "=" + value + " is not one of " + std::string(resume) +
                                ", " + std::string(fail) + "; set a handler of your own in code (streams_config::errors)");
}
/// StreamsConfig settings kstreams has nothing for (warm-up replicas, the task assignor's knobs,
/// Java-only classes): not the clients' either.
bool unimplemented_streams_setting(std::string_view key) {
    static constexpr std::string_view names[] = {
        "acceptable.recovery.lag", "built.in.metrics.version", "default.client.supplier",
        "default.list.key.serde.inner", "default.list.key.serde.type", "default.list.value.serde.inner",
        "default.list.value.serde.type", "enable.metrics.push", "ensure.explicit.internal.resource.naming",
        "group.protocol", "log.summary.interval.ms", "max.warmup.replicas", "metric.reporters",
        "metrics.num.samples", "metrics.sample.window.ms", "poll.ms",
        "probing.rebalance.interval.ms", "rack.aware.assignment.non_overlap_cost", "rack.aware.assignment.strategy",
        "rack.aware.assignment.tags", "rack.aware.assignment.traffic_cost",
        "rocksdb.config.setter", "state.cleanup.delay.ms", "task.assignor.class", "upgrade.from",
        "window.size.ms", "windowed.inner.class.serde"};
    for (auto n : names)
        if (key == n) return true;
    return key.starts_with("client.tag.");
}

std::string joined(const std::vector<std::string>& keys) {
    std::string out;
    for (const auto& k : keys) out += (out.empty() ? "'" : ", '") + k + "'";
    return out;
}
}  // namespace

streams_config streams_config::from_properties(const std::map<std::string, std::string>& props) {
    streams_config c;
    std::optional<dsl_store_type> dsl_store, dsl_suppliers;
    std::vector<std::string> unknown, not_implemented;
    for (const auto& [key, value] : props) {
        if (key == "application.id") c.application_id = value;
        else if (key == "default.dsl.store") {
            if (value == "rocksDB") dsl_store = dsl_store_type::rocks_db;
            else if (value == "in_memory") dsl_store = dsl_store_type::in_memory;
            else throw std::invalid_argument("streams config: default.dsl.store=" + value + " is not one of rocksDB, in_memory");
        } else if (key == "dsl.store.suppliers.class") {
            auto is = [&](std::string_view name) {
                return value == name || (value.size() > name.size() && value.ends_with(name) &&
                                         (value[value.size() - name.size() - 1] == '.' || value[value.size() - name.size() - 1] == '$'));
            };
            if (is("RocksDBDslStoreSuppliers")) dsl_suppliers = dsl_store_type::rocks_db;
            else if (is("InMemoryDslStoreSuppliers")) dsl_suppliers = dsl_store_type::in_memory;
            else throw std::invalid_argument("streams config: dsl.store.suppliers.class=" + value +
                                             " is not one of Kafka's BuiltInDslStoreSuppliers (RocksDBDslStoreSuppliers, "
                                             "InMemoryDslStoreSuppliers); give the operators a supplier of your own in code");
        }
        else if (key == "bootstrap.servers") c.bootstrap_servers = value;
        else if (key == "num.stream.threads") c.num_stream_threads = parse_number<int>(key, value);
        else if (key == "num.standby.replicas") c.num_standby_replicas = parse_number<int>(key, value);
        else if (key == "commit.interval.ms") c.commit_interval = std::chrono::milliseconds(parse_number<std::int64_t>(key, value));
        else if (key == "processing.guarantee") {
            if (value == "at_least_once") c.guarantee = processing_guarantee::at_least_once;
            else if (value == "exactly_once_v2") c.guarantee = processing_guarantee::exactly_once_v2;
            else throw std::invalid_argument("streams config: processing.guarantee=" + value +
                                             " is not one of at_least_once, exactly_once_v2");
        } else if (key == "state.dir") c.state_dir = value;
        else if (key == "statestore.cache.max.bytes" || key == "cache.max.bytes.buffering")
            c.statestore_cache_max_bytes = parse_number<std::size_t>(key, value);
        else if (key == "task.timeout.ms") c.task_timeout = std::chrono::milliseconds(parse_number<std::int64_t>(key, value));
        else if (key == detail::internal_config::windowed_aggregation_emit_interval_ms)
            c.windowed_emit_interval = std::chrono::milliseconds(parse_number<std::int64_t>(key, value));
        else if (key == detail::internal_config::outer_join_emit_interval_ms)
            c.outer_join_emit_interval = std::chrono::milliseconds(parse_number<std::int64_t>(key, value));
        else if (key == "max.task.idle.ms") c.max_task_idle = std::chrono::milliseconds(parse_number<std::int64_t>(key, value));
        else if (key == "buffered.records.per.partition") c.buffered_records_per_partition = parse_number<std::size_t>(key, value);
        else if (key == "async.max.in.flight.per.task") c.max_async_in_flight_per_task = parse_number<std::size_t>(key, value);
        else if (key == "windowstore.changelog.additional.retention.ms")
            (void)parse_number<std::int64_t>(key, value);  // checked here, read from app_configs when the topics are planned
        else if (key == "repartition.purge.interval.ms")
            (void)parse_number<std::int64_t>(key, value);  // checked here, read from app_configs by the stream threads
        else if (key == "replication.factor") c.replication_factor = parse_number<std::int16_t>(key, value);
        else if (key == "group.instance.id") c.group_instance_id = value;
        else if (key == "application.server") c.application_server = value;
        else if (key == "rocksdb.block.cache.bytes") c.rocksdb.block_cache_bytes = parse_number<std::size_t>(key, value);
        else if (key == "rocksdb.write.buffer.manager.bytes")
            c.rocksdb.write_buffer_manager_bytes = parse_number<std::size_t>(key, value);
        else if (key == "metrics.recording.level") {
            if (value == "INFO") c.metrics_recording_level = metrics_recording_level::info;
            else if (value == "DEBUG") c.metrics_recording_level = metrics_recording_level::debug;
            else if (value == "TRACE") c.metrics_recording_level = metrics_recording_level::trace;
            else throw std::invalid_argument("streams config: metrics.recording.level=" + value +
                                             " is not one of INFO, DEBUG, TRACE");
        } else if (key == "status.listener") c.status_listener = value;
        else if (key == "deserialization.exception.handler" || key == "default.deserialization.exception.handler")
            c.log_and_continue_on_deserialization_error = builtin_handler(key, value, "LogAndContinueExceptionHandler",
                                                                          "LogAndFailExceptionHandler");
        else if (key == "processing.exception.handler")
            c.errors.log_and_continue_on_processing_error = builtin_handler(
                key, value, "LogAndContinueProcessingExceptionHandler", "LogAndFailProcessingExceptionHandler");
        else if (key == "production.exception.handler" || key == "default.production.exception.handler")
            c.on_production_error = value.find("Continue") != std::string::npos ? production_error_policy::log_and_continue
                                                                                   : production_error_policy::fail;
        // Kafka's StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG; the KIP's spelling is taken too.
        else if (key == "errors.dead.letter.queue.topic.name" || key == "errors.deadletterqueue.topic.name")
            c.errors.dead_letter_queue_topic = value;
        else if (key == "default.timestamp.extractor") {
            auto e = timestamp_extractors::by_class_name(value);
            if (!e)
                throw std::invalid_argument("streams config: default.timestamp.extractor=" + value +
                                            " is not one of Kafka's built-in extractors (FailOnInvalidTimestamp, "
                                            "LogAndSkipOnInvalidTimestamp, UsePartitionTimeOnInvalidTimestamp, "
                                            "WallclockTimestampExtractor); set streams_config::default_timestamp_extractor "
                                            "in code for one of your own");
            c.default_timestamp_extractor = std::move(*e);
        }
        else if (key == "topology.optimization" || key == "default.key.serde" || key == "default.value.serde") {
            // Not the clients' business: streams_builder::build(properties) applies the first;
            // kstreams picks serdes by type.
        } else if (key.rfind("consumer.", 0) == 0) c.consumer[key.substr(9)] = value;
        else if (key.rfind("producer.", 0) == 0) c.producer[key.substr(9)] = value;
        else if (key.rfind("admin.", 0) == 0) c.admin[key.substr(6)] = value;
        else if (unimplemented_streams_setting(key)) not_implemented.push_back(key);
        else if (kafka::librdkafka_knows(key, value)) c.kafka[key] = value;
        else if (key.starts_with("topic.")) {
            // Configs of the internal topics the app creates (Kafka's topic prefix): read from
            // app_configs when the topics are planned.
        } else unknown.push_back(key);
    }
    // Every property is the application's to read (Kafka's appConfigs()); unknown ones only there.
    c.app_configs.insert(props.begin(), props.end());
    if (!unknown.empty())
        KSTREAMS_LOG(warn, "streams config: " + joined(unknown) +
                               " supplied but not a known config of Kafka Streams or librdkafka; kept for the "
                               "processors (processor_context::app_configs()), not given to the clients");
    if (!not_implemented.empty())
        KSTREAMS_LOG(warn, "streams config: " + joined(not_implemented) +
                               " (Kafka Streams) not implemented by kstreams: no effect; kept in app_configs");
    // The newer setting wins where both are given.
    if (dsl_suppliers) c.default_dsl_store = *dsl_suppliers;
    else if (dsl_store) c.default_dsl_store = *dsl_store;
    return c;
}

const char* to_string(streams_state s) noexcept {
    switch (s) {
        case streams_state::created: return "CREATED";
        case streams_state::rebalancing: return "REBALANCING";
        case streams_state::running: return "RUNNING";
        case streams_state::pending_shutdown: return "PENDING_SHUTDOWN";
        case streams_state::not_running: return "NOT_RUNNING";
        case streams_state::pending_error: return "PENDING_ERROR";
        case streams_state::error: return "ERROR";
    }
    return "?";
}

}  // namespace kstreams
