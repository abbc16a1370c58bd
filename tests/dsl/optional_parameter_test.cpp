// A function declaring std::optional<T> for a key or value of plain type T sees Kafka's null as
// nullopt (a tombstone from a table, a null key), on every stateless stream operator.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;
using str = std::string;
using ostr = std::optional<str>;

namespace {
str show(const ostr& v) { return v ? *v : str("null"); }
}  // namespace

TEST_CASE("a table's tombstone reaches map_values as nullopt when the function declares std::optional") {
    streams_builder b;
    b.table<str, str>("in")
        .to_stream()
        .map_values([](const ostr& v) -> ostr {
            if (!v) return std::nullopt;
            return *v + "!";
        })
        .to("out");
    b.table<str, str>("in2").to_stream().map_values([](const ostr& v) { return show(v); }).to("shown");
    test::topology_test_driver d(b.build());
    auto in = d.create_input_topic<str, ostr>("in");
    auto in2 = d.create_input_topic<str, ostr>("in2");
    auto out = d.create_output_topic<str, ostr>("out");
    auto shown = d.create_output_topic<str, str>("shown");
    in.pipe_input("a", ostr("x"), 1);
    in.pipe_input("a", std::nullopt, 2);
    in2.pipe_input("b", ostr(""), 3);
    in2.pipe_input("b", std::nullopt, 4);
    CHECK(out.read_values_to_list() == std::vector<ostr>{ostr("x!"), std::nullopt});
    CHECK(shown.read_values_to_list() == std::vector<str>{"", "null"});
}

TEST_CASE("filter, peek, select_key, map, flat_map_values and split see nullopt for a null key or value") {
    streams_builder b;
    std::vector<str> peeked;
    auto s = b.stream<str, str>("in");
    s.filter([](const ostr& k, const ostr& v) { return !k || !v; })
        .peek([&](const ostr& k, const ostr& v) { peeked.push_back(show(k) + "=" + show(v)); })
        .map([](const ostr& k, const ostr& v) { return key_value<str, str>{show(k), show(v)}; })
        .to("mapped");
    s.select_key([](const ostr& k, const str&) { return show(k); }).to("rekeyed");
    s.flat_map_values([](const ostr& v) { return std::vector<str>{show(v)}; }).to("flat");
    auto branches = s.split(named::as("s-"))
                        .branch([](const ostr& v) { return !v; }, branched::as("null"))
                        .default_branch(branched::as("rest"));
    branches.at("s-null").to("null-values");
    test::topology_test_driver d(b.build());
    auto in = d.create_input_topic<ostr, ostr>("in");
    auto mapped = d.create_output_topic<str, str>("mapped");
    auto rekeyed = d.create_output_topic<str, ostr>("rekeyed");
    auto flat = d.create_output_topic<ostr, str>("flat");
    auto nulls = d.create_output_topic<ostr, ostr>("null-values");
    in.pipe_input(ostr("a"), ostr("1"), 1);
    in.pipe_input(std::nullopt, ostr("2"), 2);
    in.pipe_input(ostr("c"), std::nullopt, 3);
    in.pipe_input(ostr(""), ostr(""), 4);
    CHECK(peeked == std::vector<str>{"null=2", "c=null"});
    CHECK(mapped.read_values_to_list() == std::vector<str>{"2", "null"});
    std::vector<str> keys;
    for (const auto& r : rekeyed.read_records_to_list()) keys.push_back(r.key);
    CHECK(keys == std::vector<str>{"a", "null", "c", ""});
    CHECK(flat.read_values_to_list() == std::vector<str>{"1", "2", "null", ""});
    const auto null_values = nulls.read_records_to_list();
    REQUIRE(null_values.size() == 1);
    CHECK(null_values[0].key == ostr("c"));
}

TEST_CASE("a null value is never turned into a real one by a function taking a plain value type") {
    streams_builder b;
    std::vector<str> peeked;
    auto s = b.stream<str, str>("in");
    // Functions making the new value from it: the tombstone is dropped and counted, not mapped
    // from an invented str{} into a real value.
    s.map_values([](const str& v) { return v + "!"; }).to("mapped");
    s.flat_map_values([](const str& v) { return std::vector<str>{v}; }).to("flat");
    s.map([](const str& k, const str& v) { return key_value<str, str>{k, v}; }).to("pairs");
    s.flat_map([](const str& k, const str& v) { return std::vector<key_value<str, str>>{{k, v}}; }).to("flat-pairs");
    // Predicates, key selectors and actions keep the record a tombstone (they see str{} flagged null).
    s.filter([](const str&, const str&) { return true; }).to("kept");
    s.select_key([](const str& k, const str&) { return k + "!"; }).to("rekeyed");
    s.peek([&](const str& k, const str& v) { peeked.push_back(k + "=" + v); }).to("peeked");
    // No function: the tombstone passes on as Kafka's does.
    s.to("copied");
    test::topology_test_driver d(b.build());
    auto in = d.create_input_topic<str, ostr>("in");
    in.pipe_input("a", ostr("1"), 1);
    in.pipe_input("b", std::nullopt, 2);
    CHECK(d.create_output_topic<str, ostr>("mapped").read_values_to_list() == std::vector<ostr>{ostr("1!")});
    CHECK(d.create_output_topic<str, ostr>("flat").read_values_to_list() == std::vector<ostr>{ostr("1")});
    CHECK(d.create_output_topic<str, ostr>("pairs").read_values_to_list() == std::vector<ostr>{ostr("1")});
    CHECK(d.create_output_topic<str, ostr>("flat-pairs").read_values_to_list() == std::vector<ostr>{ostr("1")});
    CHECK(d.metrics().value(metric::dropped_null_value_plain_type) == 4);
    const std::vector<ostr> both{ostr("1"), std::nullopt};
    CHECK(d.create_output_topic<str, ostr>("kept").read_values_to_list() == both);
    CHECK(d.create_output_topic<str, ostr>("rekeyed").read_values_to_list() == both);
    CHECK(d.create_output_topic<str, ostr>("peeked").read_values_to_list() == both);
    CHECK(peeked == std::vector<str>{"a=1", "b="});
    CHECK(d.create_output_topic<str, ostr>("copied").read_values_to_list() == both);
}

TEST_CASE("map_values declaring std::optional for a plain value type is called with the null") {
    streams_builder b;
    b.stream<str, str>("in").map_values([](const ostr& v) { return v ? *v : str("was null"); }).to("out");
    test::topology_test_driver d(b.build());
    auto in = d.create_input_topic<str, ostr>("in");
    in.pipe_input("b", std::nullopt, 2);
    CHECK(d.create_output_topic<str, str>("out").read_values_to_list() == std::vector<str>{"was null"});
    CHECK(d.metrics().value(metric::dropped_null_value_plain_type) == 0);
}

TEST_CASE("a windowed aggregator or reducer taking a plain value type never aggregates a null value") {
    using namespace std::chrono_literals;
    streams_builder b;
    auto w = b.stream<str, str>("in").group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms));
    auto show_window = [](const windowed<str>& k, const auto&) { return k.key + "@" + std::to_string(k.window.start); };
    // Plain: the tombstone is dropped and counted, not aggregated as "".
    w.aggregate([] { return str(); }, [](const str&, const str& v, const str& agg) { return agg + "[" + v + "]"; })
        .to_stream().select_key(show_window).to("plain");
    w.reduce([](const str& agg, const str& v) { return agg + v; }).to_stream().select_key(show_window).to("reduced");
    // Declared optional: called with nullopt, as Java's aggregator is called with null.
    w.aggregate([] { return str(); }, [](const str&, const ostr& v, const str& agg) { return agg + "[" + show(v) + "]"; })
        .to_stream().select_key(show_window).to("declared");
    // count() counts every record, a null value too (as Kafka's windowed count).
    w.count().to_stream().select_key(show_window).to("counted");
    test::topology_test_driver d(b.build());
    auto in = d.create_input_topic<str, ostr>("in");
    in.pipe_input("a", ostr("x"), 1);
    in.pipe_input("a", std::nullopt, 2);
    in.pipe_input("a", ostr("y"), 3);
    CHECK(d.create_output_topic<str, str>("plain").read_values_to_list() == std::vector<str>{"[x]", "[x][y]"});
    CHECK(d.create_output_topic<str, str>("reduced").read_values_to_list() == std::vector<str>{"x", "xy"});
    CHECK(d.create_output_topic<str, str>("declared").read_values_to_list() ==
          std::vector<str>{"[x]", "[x][null]", "[x][null][y]"});
    CHECK(d.create_output_topic<str, std::int64_t>("counted").read_values_to_list() == std::vector<std::int64_t>{1, 2, 3});
    CHECK(d.metrics().value(metric::dropped_null_value_plain_type) == 2);
}
