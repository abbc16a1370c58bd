#include "lib/kafka/rd.hpp"

#include <kstreams/error.hpp>

#include "lib/core/log.hpp"

namespace kstreams::kafka {

namespace {

/// librdkafka's log lines (syslog levels) through kstreams' sink, from librdkafka's threads.
void route_log(const rd_kafka_t* rk, int level, const char* facility, const char* line) {
    const detail::log_level l = level <= 3   ? detail::log_level::error
                                : level == 4 ? detail::log_level::warn
                                : level <= 6 ? detail::log_level::info
                                             : detail::log_level::debug;
    if (!detail::log_enabled(l)) return;
    detail::log_line(l, std::string("librdkafka ") + (rk ? rd_kafka_name(rk) : "") + " " + facility + ": " + line);
}

}  // namespace

conf_ptr make_conf(const std::map<std::string, std::string>& settings, std::string_view client_kind) {
    conf_ptr conf(rd_kafka_conf_new());
    rd_kafka_conf_set_log_cb(conf.get(), &route_log);
    char err[512];
    for (const auto& [key, value] : settings) {
        if (rd_kafka_conf_set(conf.get(), key.c_str(), value.c_str(), err, sizeof err) != RD_KAFKA_CONF_OK)
            throw streams_error("invalid " + std::string(client_kind) + " setting " + key + "=" + value + ": " + err);
    }
    return conf;
}

rk_ptr make_client(rd_kafka_type_t type, conf_ptr conf, std::string_view client_kind) {
    char err[512];
    rd_kafka_t* rk = rd_kafka_new(type, conf.get(), err, sizeof err);
    if (!rk) throw streams_error("could not create the " + std::string(client_kind) + ": " + err);
    conf.release();  // owned by rk now
    return rk_ptr(rk);
}

std::string describe_partition(std::string_view topic, std::int32_t partition) {
    return "topic " + std::string(topic) + ", partition " + std::to_string(partition);
}

}  // namespace kstreams::kafka
