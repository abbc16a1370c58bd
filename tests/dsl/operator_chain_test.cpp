// Runs of stateless operators (map_values, filter, map, peek, select_key): each forwards to its only
// child in the record context it runs in, without a context of its own. What must not change with
// that: describe() lists every processor, an error names the operator that threw, a processor sees
// its record's timestamp and headers in the context, and what a sink releases stays within its own branch. And the
// task's inline "no punctuation due" answer: it sees a schedule made after records flowed.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/error_handlers.hpp>
#include <kstreams/processor.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {

/// stream -> map_values -> filter -> map_values (throws on "boom") -> peek -> select_key -> map -> to.
topology chain_topology(bool named_third) {
    streams_builder b;
    b.stream<str, str>("in")
        .map_values([](const str& v) { return v + "1"; })
        .filter([](const str& v) { return !v.empty(); })
        .map_values(
            [](const str& v) -> str {
                if (v == "boom1") throw std::runtime_error("third operator cannot map boom");
                return v + "3";
            },
            named_third ? named::as("third") : named{})
        .peek([](const str&, const str&) {})
        .select_key([](const str& k, const str&) { return k + "!"; })
        .map([](const str& k, const str& v) { return std::pair{k, v + "6"}; })
        .to("out");
    return b.build();
}

std::vector<str> names_of(const topology& t) {
    REQUIRE(t.describe().subtopologies.size() == 1);
    return t.describe().subtopologies.front().nodes;
}

}  // namespace

TEST_CASE("describe() of a stateless chain lists every operator with its name and edges") {
    const topology t = chain_topology(true);
    const std::vector<str> names = names_of(t);
    for (const char* n : {"KSTREAM-SOURCE-0000000000", "KSTREAM-MAPVALUES-0000000001", "KSTREAM-FILTER-0000000002", "third",
                          "KSTREAM-PEEK-0000000004", "KSTREAM-KEY-SELECT-0000000005", "KSTREAM-MAP-0000000006",
                          "KSTREAM-SINK-0000000007"})
        CHECK(std::find(names.begin(), names.end(), str(n)) != names.end());
    CHECK(names.size() == 8);
    const str text = t.describe().to_string();
    CHECK(text.find("Processor: KSTREAM-FILTER-0000000002 (stores: [])\n      --> third\n      <-- "
                    "KSTREAM-MAPVALUES-0000000001") != str::npos);
    CHECK(text.find("Processor: third (stores: [])\n      --> KSTREAM-PEEK-0000000004\n      <-- "
                    "KSTREAM-FILTER-0000000002") != str::npos);
}

TEST_CASE("an error in the third operator of a chain names that operator, generated or named") {
    for (const bool named_third : {false, true}) {
        CAPTURE(named_third);
        test::driver_config config;
        std::vector<str> seen;
        config.errors.processing = [&](const error_handler_context& ctx, std::exception_ptr e) {
            try {
                std::rethrow_exception(e);
            } catch (const std::exception& ex) {
                str hs;
                if (ctx.headers)
                    for (const auto& h : *ctx.headers) hs += h.key + "=" + h.value.value_or("-");
                seen.push_back(str(ctx.processor_node_id) + " t=" + std::to_string(ctx.timestamp) + " " + hs + " " +
                               str(ctx.source_raw_key.value_or("-")) + "/" + str(ctx.source_raw_value.value_or("-")) +
                               " " + ex.what());
            }
            return handler_response::resume();
        };
        test::topology_test_driver d(chain_topology(named_third), config);
        auto in = d.create_input_topic<str, str>("in");
        auto out = d.create_output_topic<str, str>("out");
        in.pipe_input("a", "x", 5);
        in.pipe_record(record<str, str>{"b", "boom", 7, headers{{"h", "v"}}});
        in.pipe_input("c", "y", 9);
        const str where = named_third ? "third" : "KSTREAM-MAPVALUES-0000000003";
        CHECK(seen == std::vector<str>{where + " t=7 h=v b/boom third operator cannot map boom"});
        CHECK(out.read_key_values_to_list() ==
              std::vector<key_value<str, str>>{{"a!", "x136"}, {"c!", "y136"}});
        CHECK(d.metrics().value("dropped-records.processing-error") == 1);
    }
}

TEST_CASE("an aggregation after a stateless chain reads its record's timestamp from the context") {
    // count's result timestamp is the largest of the records counted, read from the record context.
    streams_builder b;
    b.stream<str, str>("in")
        .map_values([](const str& v) { return v + "1"; })
        .filter([](const str&) { return true; })
        .peek([](const str&, const str&) {})
        .group_by_key()
        .count()
        .to_stream()
        .to("out");
    test::topology_test_driver d(b.build());
    auto in = d.create_input_topic<str, str>("in");
    auto out = d.create_output_topic<str, std::int64_t>("out");
    in.pipe_input("k", "a", 30);
    in.pipe_input("k", "b", 20);
    in.pipe_input("j", "c", 40);
    std::vector<str> got;
    while (!out.is_empty()) {
        const auto r = out.read_record();
        got.push_back(r.key + "=" + std::to_string(r.value) + "@" + std::to_string(r.timestamp));
    }
    CHECK(got == std::vector<str>{"k=1@30", "k=2@30", "j=1@40"});
}

TEST_CASE("a sink at the end of one chain releases the raw record in its branch only") {
    // source -> map_values -> filter -> to("out"), and source -> map_values that throws: the
    // handler of the second branch still sees the source's raw bytes (Kafka's per-forward context).
    test::driver_config config;
    std::vector<str> seen;
    config.errors.processing = [&](const error_handler_context& ctx, std::exception_ptr) {
        seen.push_back(str(ctx.processor_node_id) + " " + str(ctx.source_raw_key.value_or("-")) + "/" +
                       str(ctx.source_raw_value.value_or("-")));
        return handler_response::resume();
    };
    streams_builder b;
    auto s = b.stream<str, str>("in");
    s.map_values([](const str& v) { return v + "!"; }).filter([](const str&) { return true; }).to("out");
    s.map_values([](const str& v) -> str { throw std::runtime_error("no " + v); }, named::as("thrower")).to("other");
    test::topology_test_driver d(b.build(), config);
    auto in = d.create_input_topic<str, str>("in");
    auto out = d.create_output_topic<str, str>("out");
    in.pipe_input("k", "v", 1);
    CHECK(out.read_values_to_list() == std::vector<str>{"v!"});
    CHECK(seen == std::vector<str>{"thrower k/v"});
}

namespace {
/// Schedules a punctuation of `type` every `interval` when it sees the record valued "schedule"
/// (after other records flowed), or at init when `at_init`; records what fires, forwarding nothing.
struct late_scheduler : processor<str, str, str, str> {
    std::vector<str>* fired;
    punctuation_type type;
    std::chrono::milliseconds interval;
    bool at_init;
    late_scheduler(std::vector<str>* f, punctuation_type t, std::chrono::milliseconds i, bool init_time)
        : fired(f), type(t), interval(i), at_init(init_time) {}
    void init(context_type& ctx) override {
        processor::init(ctx);
        if (at_init) schedule();
    }
    void process(const record<str, str>& r) override {
        if (!at_init && r.value == "schedule") schedule();
    }
    void schedule() {
        const str kind = type == punctuation_type::stream_time ? "stream@" : "wall@";
        context().schedule(interval, type, [this, kind](std::int64_t ts) { fired->push_back(kind + std::to_string(ts)); });
    }
};

str listed(const std::vector<str>& xs) {
    str out;
    for (const str& x : xs) out += (out.empty() ? "" : " ") + x;
    return out;
}

topology with_schedulers(std::vector<str>& fired, bool wall_too) {
    topology t;
    t.add_source<str, str>("src", {"in"});
    t.add_processor("stream-late",
                    [&fired] {
                        return std::make_unique<late_scheduler>(&fired, punctuation_type::stream_time, 10ms, false);
                    },
                    {"src"});
    if (wall_too)
        t.add_processor("wall",
                        [&fired] {
                            return std::make_unique<late_scheduler>(&fired, punctuation_type::wall_clock_time, 100ms, true);
                        },
                        {"src"});
    return t;
}
}  // namespace

TEST_CASE("a stream-time punctuation scheduled after records flowed fires at the next record") {
    std::vector<str> fired;
    test::topology_test_driver d(with_schedulers(fired, false));
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("k", "a", 1);
    in.pipe_input("k", "b", 2);
    CHECK(listed(fired).empty());
    in.pipe_input("k", "schedule", 3);  // aligned to 0: due at once
    CHECK(listed(fired) == listed({"stream@3"}));
    in.pipe_input("k", "c", 5);
    in.pipe_input("k", "d", 12);
    in.pipe_input("k", "e", 19);
    in.pipe_input("k", "f", 20);
    CHECK(listed(fired) == listed({"stream@3", "stream@12", "stream@20"}));
}

TEST_CASE("wall-clock and stream-time punctuations of one task each fire on their own time") {
    std::vector<str> fired;
    test::topology_test_driver d(with_schedulers(fired, true), test::driver_config{.initial_wall_clock_ms = 1000});
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("k", "schedule", 4);
    CHECK(listed(fired) == listed({"stream@4"}));
    d.advance_wall_clock_time(99ms);
    in.pipe_input("k", "a", 9);
    CHECK(listed(fired) == listed({"stream@4"}));
    d.advance_wall_clock_time(1ms);
    CHECK(listed(fired) == listed({"stream@4", "wall@1100"}));
    in.pipe_input("k", "b", 10);
    d.advance_wall_clock_time(100ms);
    in.pipe_input("k", "c", 35);
    CHECK(listed(fired) == listed({"stream@4", "wall@1100", "stream@10", "wall@1200", "stream@35"}));
}
