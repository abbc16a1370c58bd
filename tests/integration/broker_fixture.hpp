// What the integration tests share: the broker's address, unique names per run (the broker may be
// reused across runs), topic creation, and reading an output topic until it holds what is expected.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <kstreams/error.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

#include "lib/kafka/topic_admin.hpp"

namespace kstreams::test {

inline std::string broker() { return std::getenv("KSTREAMS_BOOTSTRAP"); }

/// A name unique to this process and call, so reruns on one broker never collide.
inline std::string unique(const std::string& base) {
    static int n = 0;
    return base + "-" + std::to_string(::getpid()) + "-" +
           std::to_string(std::chrono::system_clock::now().time_since_epoch().count() % 1000000) + "-" +
           std::to_string(n++);
}

inline void create_topics(const std::map<std::string, std::int32_t>& topics) {
    kafka::topic_admin admin({{"bootstrap.servers", broker()}, {"log_level", "3"}}, std::chrono::seconds(30), nullptr);
    std::vector<kafka::topic_spec> specs;
    for (const auto& [name, parts] : topics) specs.push_back({name, parts, 1, {}});
    admin.create_topics(specs);
}

inline std::filesystem::path temp_state_dir(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / unique("kstreams-it-" + name);
    std::filesystem::create_directories(dir);
    return dir;
}

/// Settings for a test app on the real broker: short commit interval and session timeout.
inline streams_config broker_config(const std::string& app_id, const std::filesystem::path& state_dir) {
    streams_config c;
    c.application_id = app_id;
    c.bootstrap_servers = broker();
    c.commit_interval = std::chrono::milliseconds(100);
    c.state_dir = state_dir;
    c.replication_factor = 1;
    c.consumer["session.timeout.ms"] = "6000";
    c.consumer["heartbeat.interval.ms"] = "500";
    c.kafka["log_level"] = "3";
    return c;
}

/// broker_config's settings with Java-style `properties` over them, read as from_properties reads them.
inline streams_config streams_config_from(const std::string& app_id, const std::string& state_dir_name,
                                          const std::map<std::string, std::string>& properties) {
    auto config = broker_config(app_id, temp_state_dir(state_dir_name));
    const auto read = streams_config::from_properties(properties);
    config.app_configs.insert(read.app_configs.begin(), read.app_configs.end());
    config.kafka.insert(read.kafka.begin(), read.kafka.end());
    return config;
}

/// Starts `app`, which must fail (on a real cluster start() returns and the app reaches ERROR, as
/// Kafka's): the message of its error, or "" if it did not reach ERROR within a minute.
inline std::string start_error(kafka_streams& app) {
    app.start();
    if (!app.wait_until(streams_state::error, std::chrono::seconds(60)) || !app.error()) return {};
    try {
        std::rethrow_exception(app.error());
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

/// The latest value per key of a topic, read until it equals `expected` or `timeout` passes.
template <class V>
std::map<std::string, V> read_until_latest_equals(topic_reader& reader, const std::map<std::string, V>& expected,
                                                  std::chrono::milliseconds timeout,
                                                  std::map<std::string, V>& latest) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (latest != expected && std::chrono::steady_clock::now() < deadline) {
        for (auto& r : reader.read_until_quiet(std::chrono::milliseconds(300))) {
            if (r.value) latest[r.key_as<std::string>()] = r.template value_as<V>();
            else latest.erase(r.key_as<std::string>());
        }
    }
    return latest;
}

/// Reads `topic` from the beginning (`read_committed`: only what exactly-once transactions
/// committed), handing each record to `take`, until a read finds nothing new for a second and
/// `done()` holds, or `timeout` passes.
inline void read_until_done(const std::string& topic, bool read_committed,
                            const std::function<void(const consumed_record&)>& take, const std::function<bool()>& done,
                            std::chrono::milliseconds timeout = std::chrono::seconds(90)) {
    topic_reader reader(broker(), {topic},
                        read_committed ? std::map<std::string, std::string>{{"isolation.level", "read_committed"}}
                                       : std::map<std::string, std::string>{});
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        const auto batch = reader.read_until_quiet(std::chrono::seconds(1));
        for (const auto& r : batch) take(r);
        if (batch.empty() && done()) break;
    }
}

}  // namespace kstreams::test
