// The kind of the DSL's stores: RocksDB unless an operator says otherwise
// (materialized::with_store_type / as(dsl_store_type), stream_joined::with_store_type) or the
// application's default.dsl.store / dsl.store.suppliers.class says in_memory, as Kafka's; stream-
// stream join stores included (Kafka's StreamJoined follows the same default).
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <optional>
#include <string>

#include <kstreams/dsl.hpp>
#include <kstreams/streams.hpp>
#include <kstreams/test/topology_test_driver.hpp>

using namespace kstreams;
using namespace std::chrono_literals;
using str = std::string;

namespace {

/// Every kind of DSL store, named: a table, an aggregation, time and session windows, a
/// stream-stream join (its two window stores and the outer join's), one store fixed in memory and
/// one fixed in RocksDB.
topology every_store() {
    streams_builder b;
    b.table<str, str>("t", materialized<>::as("table"));
    auto s = b.stream<str, str>("in");
    s.group_by_key().count(materialized<>::as("count"));
    s.group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).count(materialized<>::as("windows"));
    s.group_by_key().windowed_by(session_windows::of_inactivity_gap_with_no_grace(10ms)).count(materialized<>::as("sessions"));
    s.group_by_key().reduce([](const str& a, const str& v) { return a + v; },
                            materialized<>::as("fixed-memory").with_store_type(dsl_store_type::in_memory));
    s.group_by_key().reduce([](const str& a, const str& v) { return v + a; },
                            materialized<>::as("fixed-rocks").with_store_type(dsl_store_type::rocks_db));
    s.outer_join(b.stream<str, str>("other"), [](const std::optional<str>& a, const std::optional<str>& o) { return a.value_or("") + o.value_or(""); },
                 join_windows::of_time_difference_with_no_grace(10ms), stream_joined<>::as("j"))
        .to("out");
    return b.build();
}

std::map<str, bool> persistence(test::topology_test_driver& d) {
    std::map<str, bool> out;
    for (const char* name : {"table", "count", "windows", "sessions", "fixed-memory", "fixed-rocks", "j-outer-this-join-store",
                             "j-outer-other-join-store", "j-outer-shared-join-store"})
        out[name] = d.get_state_store(name).persistent();
    return out;
}

}  // namespace

TEST_CASE("DSL stores are RocksDB by default, stream-stream join stores too, unless fixed in memory") {
    test::topology_test_driver d(every_store());
    CHECK(persistence(d) == std::map<str, bool>{{"table", true}, {"count", true}, {"windows", true}, {"sessions", true},
                                                {"fixed-memory", false}, {"fixed-rocks", true}, {"j-outer-this-join-store", true},
                                                {"j-outer-other-join-store", true}, {"j-outer-shared-join-store", true}});
}

TEST_CASE("default.dsl.store=in_memory / dsl.store.suppliers.class=InMemoryDslStoreSuppliers: every open DSL store in memory") {
    for (const auto& props : std::vector<std::map<str, str>>{
             {{"default.dsl.store", "in_memory"}},
             {{"dsl.store.suppliers.class", "org.apache.kafka.streams.state.BuiltInDslStoreSuppliers$InMemoryDslStoreSuppliers"}},
             {{"default.dsl.store", "rocksDB"}, {"dsl.store.suppliers.class", "BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers"}}}) {
        CAPTURE(props.begin()->second);
        test::topology_test_driver d(every_store(), test::driver_config::from_properties(props));
        CHECK(persistence(d) == std::map<str, bool>{{"table", false}, {"count", false}, {"windows", false}, {"sessions", false},
                                                    {"fixed-memory", false}, {"fixed-rocks", true}, {"j-outer-this-join-store", false},
                                                    {"j-outer-other-join-store", false}, {"j-outer-shared-join-store", false}});
        // The stores work as before: a count in memory.
        auto in = d.create_input_topic<str, str>("in");
        in.pipe_input("a", "x", 1);
        in.pipe_input("a", "y", 2);
        CHECK(d.get_timestamped_key_value_store<str, std::int64_t>("count").get("a")->value == 2);
    }
}

TEST_CASE("materialized::as(dsl_store_type) keeps an unnamed store of that kind; the settings are checked") {
    streams_builder b;
    b.stream<str, str>("in").group_by_key().count(materialized<>::as(dsl_store_type::in_memory)).to_stream().to("out");
    test::topology_test_driver d(b.build());
    // Index 1 is burnt: Kafka's count(Materialized) uses one up when the Materialized names no store.
    CHECK_FALSE(d.get_state_store("KSTREAM-AGGREGATE-STATE-STORE-0000000002").persistent());
    CHECK(streams_config::from_properties({{"default.dsl.store", "in_memory"}}).default_dsl_store == dsl_store_type::in_memory);
    CHECK(streams_config{}.default_dsl_store == dsl_store_type::rocks_db);
    CHECK_THROWS_AS(streams_config::from_properties({{"default.dsl.store", "IN_MEMORY"}}), std::invalid_argument);
    CHECK_THROWS_AS(streams_config::from_properties({{"dsl.store.suppliers.class", "com.example.MySuppliers"}}),
                    std::invalid_argument);
}
