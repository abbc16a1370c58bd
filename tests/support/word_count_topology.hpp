// Word count in the Processor API, shared by the runtime and integration suites: lines in,
// (word, count) out, counts in a logged key-value store named "counts".
#pragma once

#include <memory>
#include <sstream>
#include <string>

#include <kstreams/state/stores.hpp>
#include <kstreams/topology.hpp>

namespace kstreams::test {

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

inline topology word_count_topology(const std::string& in, const std::string& out) {
    topology t;
    t.add_source<std::string, std::string>("lines", {in})
        .add_processor("count", [] { return std::make_unique<split_and_count>(); }, {"lines"})
        .add_state_store(stores::key_value_store_builder<std::string, std::int64_t>(
                             stores::in_memory_key_value_store("counts")),
                         {"count"})
        .add_sink<std::string, std::int64_t>("counts-out", out, {"count"});
    return t;
}

}  // namespace kstreams::test
