// split, merge, process / process_values with stores, print, repartition, and the error paths of
// DSL pipelines (deserialization failures, a missing store), through the test driver.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;
using str = std::string;
using kv = key_value<str, str>;

namespace {
struct fixture {
    topology topo;
    test::topology_test_driver driver;
    test::test_input_topic<str, str> in;
    explicit fixture(topology t, test::driver_config c = {})
        : topo(std::move(t)), driver(topo, std::move(c)), in(driver.create_input_topic<str, str>("in")) {}
    std::vector<kv> out(const str& topic) { return driver.create_output_topic<str, str>(topic).read_key_values_to_list(); }
};

struct running_total : processor<str, str, str, std::int64_t> {
    key_value_store<str, std::int64_t>* totals = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        totals = &ctx.get_state_store<key_value_store<str, std::int64_t>>("totals");
    }
    void process(const record<str, str>& r) override {
        const std::int64_t t = totals->get(r.key).value_or(0) + static_cast<std::int64_t>(r.value.size());
        totals->put(r.key, t);
        context().forward(record<str, std::int64_t>{r.value, t, r.timestamp});  // re-keys by value
    }
};

struct shout : fixed_key_processor<str, str, str> {
    void process(const record<str, str>& r) override { context().forward(r.with_value(r.value + "!")); }
};
}  // namespace

TEST_CASE("split: the first matching branch wins, the default takes the rest, unmatched records are dropped without a default") {
    streams_builder b;
    auto s = b.stream<str, str>("in");
    auto br = s.split(named::as("n-"))
                  .branch([](const str& v) { return v.starts_with("a"); }, branched::as("a"))
                  .branch([](const str& v) { return v.starts_with("ab"); }, branched::as("ab"))
                  .default_branch(branched::as("rest"));
    br.at("n-a").to("a");
    br.at("n-ab").to("ab");
    br.at("n-rest").to("rest");
    auto only = s.split().branch([](const str& k, const str&) { return k == "x"; }).no_default_branch();
    REQUIRE(only.size() == 1);
    only.begin()->second.to("x");
    fixture f(b.build());
    f.in.pipe_input("k", "abc", 0);
    f.in.pipe_input("x", "zzz", 0);
    CHECK(f.out("a") == std::vector<kv>{{"k", "abc"}});
    CHECK(f.out("ab").empty());
    CHECK(f.out("rest") == std::vector<kv>{{"x", "zzz"}});
    CHECK(f.out("x") == std::vector<kv>{{"x", "zzz"}});
}

TEST_CASE("merge: records of both streams, in arrival order") {
    streams_builder b;
    auto l = b.stream<str, str>("in");
    auto r = b.stream<str, str>("in2");
    l.merge(r).to("out");
    fixture f(b.build());
    auto in2 = f.driver.create_input_topic<str, str>("in2");
    f.in.pipe_input("1", "a", 0);
    in2.pipe_input("2", "b", 0);
    f.in.pipe_input("3", "c", 0);
    CHECK(f.out("out") == std::vector<kv>{{"1", "a"}, {"2", "b"}, {"3", "c"}});
}

TEST_CASE("process runs a Processor API processor with a store; process_values keeps the key") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, std::int64_t>(stores::in_memory_key_value_store("totals")));
    auto s = b.stream<str, str>("in");
    auto totals = s.process([] { return std::make_unique<running_total>(); }, named::as("total"), {"totals"});
    totals.to("totals-out");
    totals.group_by_key().count().to_stream().to("per-value");  // process() may change keys: repartitions
    s.process_values([] { return std::make_unique<shout>(); }).to("shouted");
    fixture f(b.build());
    f.in.pipe_input("k", "ab", 0);
    f.in.pipe_input("k", "abc", 0);
    auto out = f.driver.create_output_topic<str, std::int64_t>("totals-out").read_key_values_to_list();
    CHECK(out == std::vector<key_value<str, std::int64_t>>{{"ab", 2}, {"abc", 5}});
    CHECK(f.driver.create_output_topic<str, std::int64_t>("per-value").read_key_values_to_list().size() == 2);
    CHECK(f.out("shouted") == std::vector<kv>{{"k", "ab!"}, {"k", "abc!"}});
}

TEST_CASE("print writes [label]: key, value lines") {
    const auto path = std::filesystem::temp_directory_path() / ("kstreams-print-" + std::to_string(::getpid()) + ".txt");
    {
        streams_builder b;
        auto s = b.stream<str, std::optional<str>>("in");
        s.print(printed::to_file(path.string()).with_label("seen"));
        s.print(printed::to_file(path.string() + ".2"));
        const topology t = b.build();
        test::topology_test_driver d(t);
        auto in = d.create_input_topic<str, std::optional<str>>("in");
        in.pipe_input("k", std::optional<str>("v"), 0);
        in.pipe_input("k", std::nullopt, 0);
    }
    std::ifstream f(path);
    std::stringstream text;
    text << f.rdbuf();
    CHECK(text.str() == "[seen]: k, v\n[seen]: k, null\n");
    std::ifstream f2(path.string() + ".2");
    std::string first;
    std::getline(f2, first);
    CHECK(first == "[KSTREAM-SOURCE-0000000000]: k, v");  // labelled with the printed stream's name
    std::filesystem::remove(path);
    std::filesystem::remove(path.string() + ".2");
}

TEST_CASE("print with a key-value mapper writes [label]: and the mapper's result") {
    const auto path = std::filesystem::temp_directory_path() / ("kstreams-print-mapped-" + std::to_string(::getpid()) + ".txt");
    {
        streams_builder b;
        auto s = b.stream<str, std::int64_t>("in");
        s.print(printed::to_file(path.string())
                    .with_key_value_mapper([](const str& k, std::int64_t v) { return k + "->" + std::to_string(v * 2); })
                    .with_label("doubled"));
        s.print(printed::to_file(path.string() + ".2").with_key_value_mapper([](std::int64_t v) { return v + 1; }));
        test::topology_test_driver d(b.build());
        auto in = d.create_input_topic<str, std::int64_t>("in");
        in.pipe_input("k", 3, 0);
        in.pipe_input("j", 5, 0);
    }
    std::ifstream f(path);
    std::stringstream text;
    text << f.rdbuf();
    CHECK(text.str() == "[doubled]: k->6\n[doubled]: j->10\n");
    std::ifstream f2(path.string() + ".2");
    std::stringstream text2;
    text2 << f2.rdbuf();
    CHECK(text2.str() == "[KSTREAM-SOURCE-0000000000]: 4\n[KSTREAM-SOURCE-0000000000]: 6\n");
    std::filesystem::remove(path);
    std::filesystem::remove(path.string() + ".2");
}

TEST_CASE("repartition: records go through <name>-repartition with the given serdes and come back unchanged; null keys are dropped (not counted)") {
    streams_builder b;
    b.stream<str, str>("in").repartition(repartitioned<>::as("through")).to("out");
    fixture f(b.build());
    f.in.pipe_input("k", "v", 9);
    f.in.pipe_value("keyless", 10);  // Kafka's repartition() filters null keys out before its topic
    auto& through = f.driver.produced("test-app-through-repartition");
    CHECK(through.size() == 1);
    CHECK(f.driver.metrics().value(metric::dropped_records) == 0);  // by a filter that counts nothing, as Kafka's
    auto rs = f.driver.create_output_topic<str, str>("out").read_records_to_list();
    REQUIRE(rs.size() == 1);
    CHECK(rs[0].key == "k");
    CHECK(rs[0].timestamp == 9);
}

TEST_CASE("a record that cannot be deserialized stops with an error naming topic, partition and offset, or is skipped and counted") {
    streams_builder b;
    b.stream<str, std::int64_t>("in").group_by_key().count().to_stream().to("out");
    {
        fixture f(b.build());
        try {
            f.driver.pipe_raw("in", str("k"), str("not-8-bytes"), 0);
            FAIL("expected a streams_error");
        } catch (const streams_error& e) {
            const str what = e.what();
            CHECK(what.find("topic in") != str::npos);
            CHECK(what.find("partition 0") != str::npos);
            CHECK(what.find("offset 0") != str::npos);
        }
    }
    {
        test::driver_config c;
        c.log_and_continue_on_deserialization_error = true;
        fixture f(b.build(), c);
        f.driver.pipe_raw("in", str("k"), str("bad"), 0);
        f.driver.create_input_topic<str, std::int64_t>("in").pipe_input("k", 7, 1);
        CHECK(f.driver.metrics().value(metric::skipped_deserialization) == 1);
        CHECK(f.driver.create_output_topic<str, std::int64_t>("out").read_key_values_to_list() ==
              std::vector<key_value<str, std::int64_t>>{{"k", 1}});
    }
}

TEST_CASE("a process() naming a store that was never added fails at build()") {
    streams_builder b;
    b.stream<str, str>("in").process([] { return std::make_unique<running_total>(); }, named{}, {"missing"});
    CHECK_THROWS_AS(b.build(), topology_error);
}

TEST_CASE("a value type without a serde can be grouped without a repartition; a repartition then needs a serde") {
    struct opaque {
        int n = 0;
    };
    streams_builder b;
    b.stream<str, str>("in")
        .map_values([](const str& v) { return opaque{static_cast<int>(v.size())}; })
        .group_by_key()
        .aggregate([] { return std::int64_t{0}; }, [](const str&, const opaque& o, std::int64_t a) { return a + o.n; })
        .to_stream()
        .to("out");
    fixture f(b.build());
    f.in.pipe_input("k", "abc", 0);
    CHECK(f.driver.create_output_topic<str, std::int64_t>("out").read_value() == 3);

    streams_builder rekeyed;
    auto g = rekeyed.stream<str, str>("in")
                 .map([](const str& k, const str& v) { return std::pair{k, opaque{static_cast<int>(v.size())}}; })
                 .group_by_key();
    CHECK_THROWS_AS(g.count(), topology_error);
}
