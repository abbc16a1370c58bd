// What Kafka Streams users call that kstreams lacked (issue I): a braced list after a supplier is
// the store list (process, process_values, ktable::transform_values); the processor context's app
// configuration, state directory, default serdes and ids; user configuration kept by
// streams_config; all through the test driver.
#include <doctest/doctest.h>

#include <kstreams/dsl.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "tests/support/process_state_dir.hpp"
#include "tests/support/value_transformers.hpp"

using namespace kstreams;

namespace {
using str = std::string;

/// Counts the records of each key in the store "seen" and forwards the count as the value.
struct seen_counter : processor<str, str, str, str> {
    key_value_store<str, std::int64_t>* seen = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        seen = &ctx.get_state_store<key_value_store<str, std::int64_t>>("seen");
    }
    void process(const record<str, str>& r) override {
        const std::int64_t n = seen->get(r.key).value_or(0) + 1;
        seen->put(r.key, n);
        context().forward(record<str, str>{r.key, std::to_string(n), r.timestamp});
    }
};

void add_seen(streams_builder& b) {
    b.add_state_store(stores::key_value_store_builder<str, std::int64_t>(stores::in_memory_key_value_store("seen")));
}

std::vector<key_value<str, str>> run(const topology& t, const std::vector<std::pair<str, str>>& in,
                                     test::driver_config c = {}) {
    test::topology_test_driver d(t, std::move(c));
    auto input = d.create_input_topic<str, str>("in");
    for (const auto& [k, v] : in) input.pipe_input(k, v, 0);
    return d.create_output_topic<str, str>("out").read_key_values_to_list();
}

}  // namespace

TEST_CASE("process(supplier, {\"seen\"}) connects the store, as Kafka's process(supplier, \"seen\")") {
    streams_builder b;
    add_seen(b);
    b.stream<str, str>("in").process([] { return std::make_unique<seen_counter>(); }, {"seen"}).to("out");
    const topology t = b.build();
    CHECK(run(t, {{"a", "x"}, {"a", "y"}, {"b", "z"}}) == std::vector<key_value<str, str>>{{"a", "1"}, {"a", "2"}, {"b", "1"}});
    // Before, the braced string named the processor "seen" and connected no store.
    CHECK(t.describe().to_string().find("KSTREAM-PROCESSOR-0000000001") != std::string::npos);
    CHECK(t.describe().to_string().find("stores: [seen]") != std::string::npos);
}

TEST_CASE("process(supplier, named::as(...), {stores}) names the processor and connects the stores") {
    streams_builder b;
    add_seen(b);
    b.stream<str, str>("in").process([] { return std::make_unique<seen_counter>(); }, named::as("counter"), {"seen"}).to("out");
    const topology t = b.build();
    CHECK(t.describe().to_string().find("Processor: counter (stores: [seen])") != std::string::npos);
    CHECK(run(t, {{"a", "x"}}) == std::vector<key_value<str, str>>{{"a", "1"}});
}

TEST_CASE("process_values(supplier, {\"seen\"}) connects the store") {
    struct seen_values : fixed_key_processor<str, str, str> {
        key_value_store<str, std::int64_t>* seen = nullptr;
        void init(context_type& ctx) override {
            processor::init(ctx);
            seen = &ctx.get_state_store<key_value_store<str, std::int64_t>>("seen");
        }
        void process(const record<str, str>& r) override {
            seen->put(r.key, seen->get(r.key).value_or(0) + 1);
            context().forward(record<str, str>{r.key, r.value + std::to_string(*seen->get(r.key)), r.timestamp});
        }
    };
    streams_builder b;
    add_seen(b);
    b.stream<str, str>("in").process_values([] { return std::make_unique<seen_values>(); }, {"seen"}).to("out");
    CHECK(run(b.build(), {{"a", "x"}, {"a", "y"}}) == std::vector<key_value<str, str>>{{"a", "x1"}, {"a", "y2"}});
}

TEST_CASE("ktable::transform_values(supplier, materialized, {\"seen\"}) is the store list, not a name") {
    streams_builder b;
    add_seen(b);
    b.table<str, str>("in")
        .transform_values([] { return std::make_unique<test::counting_transformer>(); }, materialized<>::as("tv"), {"seen"})
        .to_stream()
        .to("out");
    const topology t = b.build();
    // The operator's line lists both stores (in Java's HashSet order).
    const str d = t.describe().to_string();
    const auto at = d.find("Processor: KTABLE-TRANSFORMVALUES");
    REQUIRE(at != str::npos);
    const str line = d.substr(at, d.find('\n', at) - at);
    CHECK(line.find("seen") != str::npos);
    CHECK(line.find("tv") != str::npos);
    CHECK(run(t, {{"a", "x"}, {"a", "y"}}) == std::vector<key_value<str, str>>{{"a", "x#1"}, {"a", "y#2"}});
}

namespace {
/// Writes what its context says into the output: app settings, the task's directory, serdes.
struct context_reporter : processor<str, str, str, str> {
    void process(const record<str, str>& r) override {
        auto& c = context();
        auto emit = [&](str k, str v) { c.forward(record<str, str>{std::move(k), std::move(v), r.timestamp}); };
        const auto& all = c.app_configs();
        emit("service.url", all.count("my.service.url") ? all.at("my.service.url") : "missing");
        for (const auto& [k, v] : c.app_configs_with_prefix("my.")) emit("prefixed." + k, v);
        emit("application.id", str(c.application_id()));
        emit("task", c.task_id().to_string());
        emit("state.dir", c.state_dir().string());
        str bytes;
        c.key_serde().serialize(r.key, bytes);
        emit("key.serde", c.key_serde().deserialize(bytes));
        str long_bytes;
        c.value_serde<std::int64_t>().serialize(258, long_bytes);
        emit("long.serde.bytes", std::to_string(long_bytes.size()));
    }
};
}  // namespace

TEST_CASE("processor context: app_configs, app_configs_with_prefix, state_dir, default serdes, ids") {
    streams_builder b;
    b.stream<str, str>("in").process([] { return std::make_unique<context_reporter>(); }).to("out");
    const auto dir = kstreams::test::process_state_dir("kstreams-api-gaps");
    auto c = test::driver_config::from_properties({{"application.id", "ctx-app"},
                                                   {"state.dir", dir.string()},
                                                   {"my.service.url", "http://127.0.0.1:9"},
                                                   {"my.retries", "3"}});
    const auto out = run(b.build(), {{"k", "v"}}, c);
    std::map<str, str> got;
    for (const auto& kv : out) got[kv.key] = kv.value;
    CHECK(got["service.url"] == "http://127.0.0.1:9");
    CHECK(got["prefixed.service.url"] == "http://127.0.0.1:9");
    CHECK(got["prefixed.retries"] == "3");
    CHECK(got["application.id"] == "ctx-app");
    CHECK(got["task"] == "0_0");
    CHECK(got["state.dir"] == (dir / "ctx-app" / "0_0").string());
    CHECK(got["key.serde"] == "k");
    CHECK(got["long.serde.bytes"] == "8");
    std::filesystem::remove_all(dir);
}

TEST_CASE("value transformer context: app_configs and ids as the processor context's") {
    struct config_reader final : value_transformer_with_key<str, str, str> {
        std::optional<str> transform(const str&, const std::optional<str>&) override {
            return context().app_configs_with_prefix("my.").at("flag") + "@" + context().task_id().to_string();
        }
    };
    streams_builder b;
    b.table<str, str>("in").transform_values([] { return std::make_unique<config_reader>(); }).to_stream().to("out");
    test::driver_config c;
    c.app_configs["my.flag"] = "on";
    CHECK(run(b.build(), {{"a", "x"}}, c) == std::vector<key_value<str, str>>{{"a", "on@0_0"}});
}

TEST_CASE("streams_config::from_properties keeps unknown keys as the app's own, not the clients'") {
    const auto c = streams_config::from_properties({{"application.id", "a"},
                                                    {"my.service.url", "http://x"},  // nobody's
                                                    {"linger.ms", "7"},              // librdkafka's
                                                    {"max.warmup.replicas", "1"},    // Kafka Streams', not implemented
                                                    {"consumer.my.flag", "1"}});     // a client's, as asked
    CHECK(c.kafka.count("my.service.url") == 0);
    CHECK(c.kafka.count("max.warmup.replicas") == 0);
    CHECK(c.kafka.at("linger.ms") == "7");
    CHECK(c.consumer.at("my.flag") == "1");
    // Every property is the processors' to read.
    CHECK(c.app_configs.at("my.service.url") == "http://x");
    CHECK(c.app_configs.at("linger.ms") == "7");
    CHECK(c.app_configs.at("application.id") == "a");
    CHECK(c.app_configs.at("max.warmup.replicas") == "1");
}
