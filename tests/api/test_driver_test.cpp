// The topology test driver's API, including its error cases.
#include <doctest/doctest.h>

#include <kstreams/detail/topology_writer.hpp>
#include <kstreams/dsl.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/test/topology_test_driver.hpp>
#include <kstreams/topology.hpp>

using namespace kstreams;
using namespace std::chrono_literals;

namespace {
using str = std::string;
using kvs = std::vector<key_value<str, str>>;

topology pass_through() {
    topology t;
    t.add_source<str, str>("src", {"in"}).add_sink<str, str>("sink", "out", {"src"});
    return t;
}

struct count_into_store : processor<str, str, str, std::int64_t> {
    void process(const record<str, str>& r) override {
        auto& s = context().get_state_store<key_value_store<str, std::int64_t>>("counts");
        const std::int64_t n = s.get(r.key).value_or(0) + 1;
        s.put(r.key, n);
        context().forward(r.with_value(n));
    }
};
}  // namespace

TEST_CASE("an input topic no source reads is refused, naming the topic") {
    auto t = pass_through();
    test::topology_test_driver driver(t);
    try {
        driver.create_input_topic<str, str>("nobody-reads-this");
        FAIL("no error");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("nobody-reads-this") != std::string::npos);
    }
    CHECK_THROWS_AS(driver.pipe_raw("also-unknown", "k", "v", 0), std::invalid_argument);
}

TEST_CASE("reading an empty output topic is an empty_topic_error naming the topic") {
    auto t = pass_through();
    test::topology_test_driver driver(t);
    auto out = driver.create_output_topic<str, str>("out");
    auto never = driver.create_output_topic<str, str>("never-written");
    CHECK(out.is_empty());
    CHECK(out.get_queue_size() == 0);
    CHECK_THROWS_AS(out.read_value(), test::empty_topic_error);
    CHECK_THROWS_AS(out.read_key_value(), test::empty_topic_error);
    try {
        never.read_record();
        FAIL("no error");
    } catch (const test::empty_topic_error& e) {
        CHECK(std::string(e.what()).find("never-written") != std::string::npos);
    }
    CHECK(never.read_records_to_list().empty());  // the list readers just return nothing
}

TEST_CASE("records come out in order with key, value, timestamp; the queue shrinks as they are read") {
    auto t = pass_through();
    test::topology_test_driver driver(t);
    auto in = driver.create_input_topic<str, str>("in");
    auto out = driver.create_output_topic<str, str>("out");
    in.pipe_input("a", "1", 10);
    in.pipe_input("b", "2", 5);
    in.pipe_input("c", "3", 20);
    CHECK(out.get_queue_size() == 3);
    CHECK(out.read_value() == "1");
    auto kv = out.read_key_value();
    CHECK(kv == key_value<str, str>{"b", "2"});
    auto r = out.read_record();
    CHECK(r.key == "c");
    CHECK(r.timestamp == 20);
    CHECK(out.is_empty());
}

TEST_CASE("a driver given a temporary topology keeps it alive") {
    test::topology_test_driver driver(pass_through());  // the topology is a temporary here
    auto in = driver.create_input_topic<str, str>("in");
    auto out = driver.create_output_topic<str, str>("out");
    in.pipe_input("a", "1", 10);
    CHECK(out.read_key_value() == key_value<str, str>{"a", "1"});
}

TEST_CASE("auto-advancing timestamps and advance_time") {
    auto t = pass_through();
    test::topology_test_driver driver(t);
    auto in = driver.create_input_topic<str, str>("in", serde<str>{}, serde<str>{}, 1000, 100ms);
    auto out = driver.create_output_topic<str, str>("out");
    in.pipe_input("a", "x");
    in.pipe_input("b", "y");
    in.advance_time(1s);
    in.pipe_value("z");
    in.pipe_input("c", "w", 5);  // an explicit timestamp does not move the topic's clock
    in.pipe_input("d", "v");
    std::vector<std::int64_t> ts;
    for (const auto& r : out.read_records_to_list()) ts.push_back(r.timestamp);
    CHECK(ts == std::vector<std::int64_t>{1000, 1100, 2200, 5, 2300});
}

TEST_CASE("pipe lists: key-value, value and record lists") {
    auto t = pass_through();
    test::topology_test_driver driver(t);
    auto in = driver.create_input_topic<str, str>("in", serde<str>{}, serde<str>{}, 0, 1ms);
    auto out = driver.create_output_topic<str, str>("out");

    in.pipe_key_value_list({{"a", "1"}, {"b", "2"}});
    CHECK(out.read_key_values_to_list() == kvs{{"a", "1"}, {"b", "2"}});

    in.pipe_value_list({"x", "y"});
    auto recs = out.read_records_to_list();
    REQUIRE(recs.size() == 2);
    CHECK(recs[0].key_null);
    CHECK(recs[1].value == "y");

    record<str, str> r1{"k1", "v1", 50, {{"h", "1"}}, false, false};
    record<str, str> r2{"k2", "", 60, {}, false, true};
    in.pipe_record_list({r1, r2});
    auto got = out.read_records_to_list();
    REQUIRE(got.size() == 2);
    CHECK(got[0] == r1);
    CHECK(got[1].value_null);
    CHECK(got[1].timestamp == 60);
}

TEST_CASE("tombstones: a null value travels through; read_key_values_to_map drops the key") {
    auto t = pass_through();
    test::topology_test_driver driver(t);
    auto in = driver.create_input_topic<str, str>("in");
    auto out = driver.create_output_topic<str, str>("out");
    in.pipe_input("a", "1", 1);
    in.pipe_input("b", "2", 2);
    in.pipe_input("a", std::nullopt, 3);
    in.pipe_input("b", "3", 4);
    CHECK(out.get_queue_size() == 4);
    CHECK(out.read_key_values_to_map() == std::map<str, str>{{"b", "3"}});

    // With an optional value type the tombstone stays visible, as Kafka's map holds a null.
    auto opt_out = driver.create_output_topic<str, std::optional<str>>("out");
    in.pipe_input("c", std::nullopt, 5);
    CHECK(opt_out.read_key_values_to_map() == std::map<str, std::optional<str>>{{"c", std::nullopt}});
}

TEST_CASE("read_key_values_to_map refuses a null key") {
    auto t = pass_through();
    test::topology_test_driver driver(t);
    auto in = driver.create_input_topic<str, str>("in");
    auto out = driver.create_output_topic<str, str>("out");
    in.pipe_value("no key", 1);
    try {
        (void)out.read_key_values_to_map();
        FAIL("no error");
    } catch (const std::logic_error& e) {
        const std::string m = e.what();
        CHECK(m.find("null key") != std::string::npos);
        CHECK(m.find("out") != std::string::npos);
    }
}

TEST_CASE("get_key_value_store: the store, and errors for an unknown name or wrong types") {
    topology t;
    t.add_source<str, str>("src", {"in"})
        .add_processor("count", [] { return std::make_unique<count_into_store>(); }, {"src"})
        .add_state_store(stores::key_value_store_builder<str, std::int64_t>(stores::in_memory_key_value_store("counts")), {"count"})
        .add_sink<str, std::int64_t>("sink", "out", {"count"});
    test::topology_test_driver driver(t);
    auto in = driver.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 1);
    in.pipe_input("a", "y", 2);

    auto& store = driver.get_key_value_store<str, std::int64_t>("counts");
    CHECK(store.get("a") == 2);
    store.put("b", 40);  // tests may seed or change a store directly
    in.pipe_input("b", "z", 3);
    CHECK(driver.create_output_topic<str, std::int64_t>("out").read_key_values_to_map() ==
          std::map<str, std::int64_t>{{"a", 2}, {"b", 41}});

    try {
        driver.get_key_value_store<str, std::int64_t>("no-such-store");
        FAIL("no error");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("no-such-store") != std::string::npos);
    }
    try {
        driver.get_key_value_store<str, str>("counts");
        FAIL("no error");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("counts") != std::string::npos);
    }
    CHECK(driver.get_state_store("counts").name() == "counts");
}

TEST_CASE("get_key_value_store offers a DSL (timestamped) store as a plain one; get_timestamped_key_value_store keeps the timestamps") {
    streams_builder b;
    b.stream<str, str>("in").group_by_key().count(materialized<>::as("counts")).to_stream().to("out");
    test::topology_test_driver driver(b.build());
    auto in = driver.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 5);
    in.pipe_input("b", "x", 6);
    in.pipe_input("a", "y", 7);

    auto& plain = driver.get_key_value_store<str, std::int64_t>("counts");
    CHECK(plain.get("a") == 2);
    CHECK(plain.get("c") == std::nullopt);
    CHECK(plain.all().to_vector() == std::vector<key_value<str, std::int64_t>>{{"a", 2}, {"b", 1}});
    CHECK(plain.reverse_range("a", "b").to_vector() == std::vector<key_value<str, std::int64_t>>{{"b", 1}, {"a", 2}});
    CHECK(plain.prefix_scan(str("b")).to_vector() == std::vector<key_value<str, std::int64_t>>{{"b", 1}});
    CHECK(&driver.get_key_value_store<str, std::int64_t>("counts") == &plain);  // one view per store

    auto& stamped = driver.get_timestamped_key_value_store<str, std::int64_t>("counts");
    CHECK(stamped.get("a") == value_and_timestamp<std::int64_t>{2, 7});
    plain.put("c", 10);  // a write through the view stores no timestamp (-1), as Kafka's facade
    CHECK(stamped.get("c") == value_and_timestamp<std::int64_t>{10, -1});
    in.pipe_input("c", "z", 8);
    CHECK(plain.get("c") == 11);
    CHECK(plain.remove("b") == 1);
    CHECK(stamped.get("b") == std::nullopt);

    CHECK_THROWS_AS((driver.get_timestamped_key_value_store<str, str>("counts")), std::invalid_argument);
    CHECK_THROWS_AS((driver.get_window_store<str, std::int64_t>("counts")), std::invalid_argument);
    CHECK(driver.state_store_names() == std::vector<str>{"counts"});
}

TEST_CASE("a windowed aggregation's store reads as a plain window store too, as Kafka's getWindowStore facade") {
    streams_builder b;
    b.stream<str, str>("in").group_by_key().windowed_by(time_windows::of_size_with_no_grace(std::chrono::milliseconds(10))).count(
        materialized<>::as("w"));
    test::topology_test_driver driver(b.build());
    auto in = driver.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 5);
    in.pipe_input("b", "x", 6);
    in.pipe_input("a", "y", 12);

    auto& plain = driver.get_window_store<str, std::int64_t>("w");
    CHECK(&driver.get_window_store<str, std::int64_t>("w") == &plain);  // one view per store
    CHECK(plain.fetch("a", 0) == 1);
    CHECK(plain.fetch("a", 0, 100).to_vector() == std::vector<key_value<std::int64_t, std::int64_t>>{{0, 1}, {10, 1}});
    CHECK(plain.backward_fetch("a", 0, 100).to_vector() == std::vector<key_value<std::int64_t, std::int64_t>>{{10, 1}, {0, 1}});
    CHECK(plain.all().to_vector() == std::vector<key_value<windowed<str>, std::int64_t>>{
                                         {{"a", {0, 10}}, 1}, {{"a", {10, 20}}, 1}, {{"b", {0, 10}}, 1}});
    CHECK(plain.fetch_all(10, 10).to_vector() == std::vector<key_value<windowed<str>, std::int64_t>>{{{"a", {10, 20}}, 1}});

    auto& stamped = driver.get_timestamped_window_store<str, std::int64_t>("w");
    CHECK(stamped.fetch("b", 0) == value_and_timestamp<std::int64_t>{1, 6});
    plain.put("c", 7, 0);  // a write through the view stores no timestamp (-1), as Kafka's facade
    CHECK(stamped.fetch("c", 0) == value_and_timestamp<std::int64_t>{7, -1});
    plain.remove("c", 0);
    CHECK(plain.fetch("c", 0) == std::nullopt);
    CHECK_THROWS_AS((driver.get_window_store<str, str>("w")), std::invalid_argument);
}

TEST_CASE("a topic written by one sub-topology and read by another is routed in memory, in order") {
    struct tag : processor<str, str, str, str> {
        void process(const record<str, str>& r) override { context().forward(r.with_value(r.value + "!")); }
    };
    topology t;
    t.add_source<str, str>("first", {"in"})
        .add_sink<str, str>("to-through", "through", {"first"})
        .add_source<str, str>("second", {"through"})
        .add_processor("tag", [] { return std::make_unique<tag>(); }, {"second"})
        .add_sink<str, str>("sink", "out", {"tag"});
    test::topology_test_driver driver(t);
    REQUIRE(t.describe().subtopologies.size() == 2);
    auto in = driver.create_input_topic<str, str>("in");
    auto out = driver.create_output_topic<str, str>("out");
    auto through = driver.create_output_topic<str, str>("through");
    in.pipe_input("a", "1", 1);
    in.pipe_input("b", "2", 2);
    CHECK(out.read_key_values_to_list() == kvs{{"a", "1!"}, {"b", "2!"}});
    CHECK(through.read_values_to_list() == std::vector<str>{"1", "2"});  // the hop is visible too
    driver.create_input_topic<str, str>("through").pipe_input("c", "3", 3);  // it can be piped directly too
    CHECK(out.read_value() == "3!");
}

TEST_CASE("internal topics get the application id prefix and are routed in memory") {
    topology t;
    t.add_source<str, str>("src", {"in"})
        .add_sink<str, str>("KSTREAM-SINK-0000000001", "rekey-repartition", {"src"})
        .add_source<str, str>("KSTREAM-SOURCE-0000000002", {"rekey-repartition"})
        .add_sink<str, str>("sink", "out", {"KSTREAM-SOURCE-0000000002"});
    kstreams::detail::topology_writer::mark_internal(t, "KSTREAM-SINK-0000000001");
    kstreams::detail::topology_writer::mark_internal(t, "KSTREAM-SOURCE-0000000002");
    test::driver_config config;
    config.application_id = "my-app";
    test::topology_test_driver driver(t, config);
    driver.create_input_topic<str, str>("in").pipe_input("k", "v", 7);
    CHECK(driver.create_output_topic<str, str>("out").read_key_value() == key_value<str, str>{"k", "v"});
    auto names = driver.produced_topic_names();
    CHECK(std::find(names.begin(), names.end(), "my-app-rekey-repartition") != names.end());
    CHECK(driver.create_output_topic<str, str>("my-app-rekey-repartition").get_queue_size() == 1);
}

TEST_CASE("an output topic read with the wrong serde gives a deserialization_error") {
    auto t = pass_through();
    test::topology_test_driver driver(t);
    driver.create_input_topic<str, str>("in").pipe_input("k", "not eight", 1);
    auto out = driver.create_output_topic<str, std::int64_t>("out");
    CHECK_THROWS_AS(out.read_value(), deserialization_error);
}
