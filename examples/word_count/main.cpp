// Word count (DSL) on the embedded Kafka cluster: no broker needed. Pass a bootstrap address (and make
// sure the topics text-lines and word-counts exist there) to run it on a real cluster instead.
//
//   word_count [bootstrap.servers] [lines...]
#include <chrono>
#include <iostream>
#include <map>
#include <sstream>
#include <vector>

#include <kstreams/dsl/streams_builder.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>

using namespace kstreams;
using namespace std::chrono_literals;

int main(int argc, char** argv) {
    std::vector<std::string> lines;
    for (int i = 2; i < argc; ++i) lines.emplace_back(argv[i]);
    if (lines.empty()) lines = {"all streams lead to kafka", "hello kafka streams", "join kafka summit"};

    // Lines in, words out (re-keyed through a repartition topic), counted per word.
    streams_builder builder;
    builder.stream<std::string, std::string>("text-lines")
        .flat_map_values([](const std::string& line) {
            std::vector<std::string> words;
            std::istringstream in(line);
            for (std::string w; in >> w;) words.push_back(w);
            return words;
        })
        .group_by([](const std::string&, const std::string& word) { return word; })
        .count()
        .to_stream()
        .to("word-counts");
    const topology t = builder.build();
    std::cout << t.describe().to_string();

    streams_config config;
    config.application_id = "word-count";
    config.bootstrap_servers = argc > 1 ? argv[1] : "embedded";
    config.commit_interval = 100ms;
    config.kafka["log_level"] = "3";
    kafka_streams app(t, config);
    try {
        app.start();
        if (!app.wait_until(streams_state::running, 30s)) {
            std::cerr << "word_count: the app did not reach RUNNING (state " << to_string(app.state()) << ")\n";
            return 1;
        }
        std::map<std::string, std::int64_t> expected;
        {
            test::topic_writer writer(app.bootstrap_servers());
            for (const auto& line : lines) {
                writer.send("text-lines", std::nullopt, line);
                std::istringstream in(line);
                for (std::string w; in >> w;) ++expected[w];
            }
            writer.flush();
        }
        // Counts are updated per word (or per commit, with caching): read until they add up.
        test::topic_reader reader(app.bootstrap_servers(), {"word-counts"});
        std::map<std::string, std::int64_t> counts;
        const auto deadline = std::chrono::steady_clock::now() + 30s;
        while (counts != expected && std::chrono::steady_clock::now() < deadline)
            for (const auto& r : reader.read_until_quiet(300ms)) counts[r.key_as<std::string>()] = r.value_as<std::int64_t>();
        for (const auto& [word, count] : counts) std::cout << word << "\t" << count << "\n";
        if (counts != expected) {
            std::cerr << "word_count: the counts did not add up within 30 s\n";
            app.close(30s);
            return 1;
        }
    } catch (const std::exception& e) {
        std::cerr << "word_count: " << e.what() << "\n";
        return 1;
    }
    return app.close(30s) ? 0 : 1;
}
