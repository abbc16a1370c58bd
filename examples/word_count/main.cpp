// Word count on the embedded Kafka cluster: no broker needed. Pass a bootstrap address (and make
// sure the topics text-lines and word-counts exist there) to run it on a real cluster instead.
//
//   word_count [bootstrap.servers] [lines...]
#include <chrono>
#include <iostream>
#include <map>
#include <sstream>
#include <vector>

#include <kstreams/state/stores.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topic_client.hpp>
#include <kstreams/topology.hpp>

using namespace kstreams;
using namespace std::chrono_literals;

namespace {
struct split_and_count : processor<std::string, std::string, std::string, std::int64_t> {
    key_value_store<std::string, std::int64_t>* counts = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        counts = &ctx.get_state_store<key_value_store<std::string, std::int64_t>>("counts");
    }
    void process(const record<std::string, std::string>& r) override {
        std::istringstream words(r.value);
        for (std::string w; words >> w;) {
            const std::int64_t n = counts->get(w).value_or(0) + 1;
            counts->put(w, n);
            context().forward(record<std::string, std::int64_t>{w, n, r.timestamp});
        }
    }
};
}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> lines;
    for (int i = 2; i < argc; ++i) lines.emplace_back(argv[i]);
    if (lines.empty()) lines = {"all streams lead to kafka", "hello kafka streams", "join kafka summit"};

    topology t;
    t.add_source<std::string, std::string>("lines", {"text-lines"})
        .add_processor("count", [] { return std::make_unique<split_and_count>(); }, {"lines"})
        .add_state_store(stores::key_value_store_builder<std::string, std::int64_t>(stores::in_memory_key_value_store("counts")),
                         {"count"})
        .add_sink<std::string, std::int64_t>("counts-out", "word-counts", {"count"});
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
        std::size_t words = 0;
        {
            test::topic_writer writer(app.bootstrap_servers());
            for (const auto& line : lines) {
                writer.send("text-lines", std::nullopt, line);
                std::istringstream in(line);
                for (std::string w; in >> w;) ++words;
            }
            writer.flush();
        }
        test::topic_reader reader(app.bootstrap_servers(), {"word-counts"});
        std::map<std::string, std::int64_t> counts;
        for (const auto& r : reader.read(words, 30s)) counts[r.key_as<std::string>()] = r.value_as<std::int64_t>();
        for (const auto& [word, count] : counts) std::cout << word << "\t" << count << "\n";
    } catch (const std::exception& e) {
        std::cerr << "word_count: " << e.what() << "\n";
        return 1;
    }
    return app.close(30s) ? 0 : 1;
}
