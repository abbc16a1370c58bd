// Word count. For now through the test driver; issue F moves it onto the embedded cluster.
#include <iostream>
#include <sstream>

#include <kstreams/state/stores.hpp>
#include <kstreams/test/topology_test_driver.hpp>
#include <kstreams/topology.hpp>

using namespace kstreams;

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

int main() {
    topology t;
    t.add_source<std::string, std::string>("lines", {"text-lines"})
        .add_processor("count", [] { return std::make_unique<split_and_count>(); }, {"lines"})
        .add_state_store(stores::key_value_store_builder<std::string, std::int64_t>(stores::in_memory_key_value_store("counts")),
                         {"count"})
        .add_sink<std::string, std::int64_t>("counts-out", "word-counts", {"count"});
    std::cout << t.describe().to_string();

    test::topology_test_driver driver(t);
    auto in = driver.create_input_topic<std::string, std::string>("text-lines");
    auto out = driver.create_output_topic<std::string, std::int64_t>("word-counts");
    for (const char* line : {"all streams lead to kafka", "hello kafka streams", "join kafka summit"})
        in.pipe_value(line, 0);
    for (const auto& [word, count] : out.read_key_values_to_map()) std::cout << word << "\t" << count << "\n";
}
