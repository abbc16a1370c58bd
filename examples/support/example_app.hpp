// What each example does around its pipeline: run on the embedded cluster (or the cluster named by
// its first argument), wait until the app runs, read an output topic until it holds the expected
// results, and report. Kept out of the examples so that they show only the pipeline and its data.
#pragma once

#include <chrono>
#include <iostream>
#include <map>
#include <string>

#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

namespace examples {

/// The embedded cluster, or the bootstrap address given as the first argument.
inline kstreams::streams_config config_for(std::string application_id, int argc, char** argv) {
    kstreams::streams_config config;
    config.application_id = std::move(application_id);
    config.bootstrap_servers = argc > 1 ? argv[1] : "embedded";
    config.commit_interval = std::chrono::milliseconds(100);
    config.kafka["log_level"] = "3";
    return config;
}

/// Starts the app and waits until it runs; false (said on stderr) if it does not within 30 s.
inline bool start(kstreams::kafka_streams& app, const std::string& name) {
    app.start();
    if (app.wait_until(kstreams::streams_state::running, std::chrono::seconds(30))) return true;
    std::cerr << name << ": the app did not reach RUNNING (state " << kstreams::to_string(app.state()) << ")\n";
    return false;
}

/// Reads `topic` until the latest value of each key equals `expected` or 30 s passed; prints what it
/// read, one key and value per line, and whether it matched.
template <class K, class V, class KS = kstreams::serde<K>, class VS = kstreams::serde<V>>
bool read_expected(const kstreams::kafka_streams& app, const std::string& topic, const std::map<K, V>& expected,
                   const std::string& name, KS key_serde = KS{}, VS value_serde = VS{}) {
    kstreams::test::topic_reader reader(app.bootstrap_servers(), {topic});
    std::map<K, V> latest;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (latest != expected && std::chrono::steady_clock::now() < deadline)
        for (const auto& r : reader.read_until_quiet(std::chrono::milliseconds(300)))
            latest[r.template key_as<K>(key_serde)] = r.template value_as<V>(value_serde);
    for (const auto& [k, v] : latest) std::cout << k << "\t" << v << "\n";
    if (latest != expected) std::cerr << name << ": " << topic << " did not hold the expected results within 30 s\n";
    return latest == expected;
}

}  // namespace examples
