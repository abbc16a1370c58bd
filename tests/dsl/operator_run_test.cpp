// Runs of stateless operators (map_values, filter, map, select_key, peek), each the only child of
// the one before: what any way of running them (one node per operator, or a run fused into one)
// must keep. A filter in the middle drops the record before the operators after it, an error is
// handled at the operator that threw (the rest of the run never sees that record), the last
// operator of a run feeds all its children, a run feeds a repartition like any node, and
// timestamps and headers go through unchanged.
#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/error_handlers.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;
using str = std::string;

TEST_CASE("a filter in the middle of a run drops the record before the operators after it") {
    int before = 0, after = 0;
    streams_builder b;
    b.stream<str, std::int64_t>("in")
        .peek([&](const str&, std::int64_t) { ++before; })
        .map_values([](std::int64_t v) { return v * 10; })
        .filter([](const str&, std::int64_t v) { return v >= 20; })
        .peek([&](const str&, std::int64_t) { ++after; })
        .map_values([](std::int64_t v) { return v + 1; })
        .to("out");
    test::topology_test_driver d(b.build());
    auto in = d.create_input_topic<str, std::int64_t>("in");
    auto out = d.create_output_topic<str, std::int64_t>("out");
    for (std::int64_t v = 0; v < 4; ++v) in.pipe_input("k", v, v);
    CHECK(before == 4);
    CHECK(after == 2);
    CHECK(out.read_values_to_list() == std::vector<std::int64_t>{21, 31});
}

TEST_CASE("an error at the first or the last operator of a run is handled there and drops only that record") {
    test::driver_config config;
    std::vector<str> seen;
    config.errors.processing = [&](const error_handler_context& ctx, std::exception_ptr e) {
        try {
            std::rethrow_exception(e);
        } catch (const std::exception& ex) {
            seen.push_back(str(ctx.processor_node_id) + " t=" + std::to_string(ctx.timestamp) + " " + ex.what());
        }
        return handler_response::resume();
    };
    int reached_second = 0;
    streams_builder b;
    b.stream<str, str>("in")
        .map_values(
            [](const str& v) -> str {
                if (v == "first") throw std::runtime_error("first cannot");
                return v;
            },
            named::as("first-op"))
        .peek([&](const str&, const str&) { ++reached_second; })
        .select_key(
            [](const str& k, const str& v) -> str {
                if (v == "last") throw std::runtime_error("last cannot");
                return k + "!";
            },
            named::as("last-op"))
        .to("out");
    test::topology_test_driver d(b.build(), config);
    auto in = d.create_input_topic<str, str>("in");
    auto out = d.create_output_topic<str, str>("out");
    in.pipe_input("a", "first", 1);
    in.pipe_input("b", "last", 2);
    in.pipe_input("c", "fine", 3);
    CHECK(seen == std::vector<str>{"first-op t=1 first cannot", "last-op t=2 last cannot"});
    CHECK(reached_second == 2);  // "last" and "fine"
    CHECK(out.read_key_values_to_list() == std::vector<key_value<str, str>>{{"c!", "fine"}});
    CHECK(d.metrics().value("dropped-records.processing-error") == 2);
}

TEST_CASE("under the default processing handler (fail) an error inside a run fails naming its operator") {
    streams_builder b;
    b.stream<str, str>("in")
        .map_values([](const str& v) { return v + "1"; })
        .map_values([](const str& v) -> str { throw std::runtime_error("cannot map " + v); })
        .filter([](const str&) { return true; })
        .to("out");
    test::topology_test_driver d(b.build());
    auto in = d.create_input_topic<str, str>("in");
    try {
        in.pipe_input("k", "v", 1);
        FAIL("no error");
    } catch (const streams_error& e) {
        const str what = e.what();
        CHECK(what.find("cannot map v1") != str::npos);
        CHECK(what.find("processor KSTREAM-MAPVALUES-0000000002") != str::npos);
        CHECK(what.find("offset 0") != str::npos);
    }
}

TEST_CASE("the last operator of a run feeds each of its children, and branches run on after it") {
    streams_builder b;
    auto mid = b.stream<str, std::int64_t>("in")
                   .map_values([](std::int64_t v) { return v + 1; })
                   .filter([](const str&, std::int64_t v) { return v % 2 == 0; });
    mid.to("evens");
    mid.map_values([](std::int64_t v) { return v * 100; }).map([](const str& k, std::int64_t v) {
        return key_value<str, std::int64_t>{k + "x", v};
    }).to("scaled");
    test::topology_test_driver d(b.build());
    auto in = d.create_input_topic<str, std::int64_t>("in");
    auto evens = d.create_output_topic<str, std::int64_t>("evens");
    auto scaled = d.create_output_topic<str, std::int64_t>("scaled");
    for (std::int64_t v = 0; v < 5; ++v) in.pipe_input("k", v, v);
    CHECK(evens.read_values_to_list() == std::vector<std::int64_t>{2, 4});
    CHECK(scaled.read_key_values_to_list() ==
          std::vector<key_value<str, std::int64_t>>{{"kx", 200}, {"kx", 400}});
}

TEST_CASE("a run feeding a repartition: re-keyed records are counted under their new key") {
    streams_builder b;
    b.stream<str, str>("in")
        .filter([](const str&, const str& v) { return !v.empty(); })
        .select_key([](const str&, const str& v) { return v.substr(0, 1); })
        .map_values([](const str& v) { return v + "!"; })
        .group_by_key()
        .count()
        .to_stream()
        .to("out");
    const topology t = b.build();
    CHECK(t.describe().to_string().find("KSTREAM-KEY-SELECT-0000000002") != str::npos);
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, str>("in");
    auto out = d.create_output_topic<str, std::int64_t>("out");
    in.pipe_input("a", "x1", 1);
    in.pipe_input("b", "", 2);
    in.pipe_input("c", "y1", 3);
    in.pipe_input("d", "x2", 4);
    CHECK(out.read_key_values_to_list() == std::vector<key_value<str, std::int64_t>>{{"x", 1}, {"y", 1}, {"x", 2}});
}

TEST_CASE("a run keeps each record's timestamp and headers up to the sink") {
    streams_builder b;
    b.stream<str, str>("in")
        .map_values([](const str& v) { return v + "1"; })
        .peek([](const str&, const str&) {})
        .map([](const str& k, const str& v) { return key_value<str, str>{v, k}; })
        .filter([](const str&, const str&) { return true; })
        .to("out");
    test::topology_test_driver d(b.build());
    auto in = d.create_input_topic<str, str>("in");
    auto out = d.create_output_topic<str, str>("out");
    in.pipe_record(record<str, str>{"k", "v", 42, headers{{"h", "one"}, {"h", "two"}}});
    in.pipe_input("j", "w", 43);
    const auto first = out.read_record();
    CHECK(first.key == "v1");
    CHECK(first.value == "k");
    CHECK(first.timestamp == 42);
    CHECK(first.headers == headers{{"h", "one"}, {"h", "two"}});
    const auto second = out.read_record();
    CHECK(second.timestamp == 43);
    CHECK(second.headers.empty());
}
