// ktable::transform_values through the test driver: a transformer with a store of its own, deletes
// turned into rows, old values for a regrouping (materialized and not), a join reading the
// unmaterialized result through a getter of its own, punctuation from the transformer's context.
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/test/topology_test_driver.hpp>

#include "tests/support/value_transformers.hpp"

using namespace kstreams;
using str = std::string;
using ostr = std::optional<str>;
using strs = std::vector<str>;

namespace {

std::vector<str> lines(test::topology_test_driver& d, const str& topic) {
    std::vector<str> v;
    for (auto& p : d.produced(topic))
        v.push_back(p.key.value_or("null") + "=" + p.value.value_or("null") + "@" + std::to_string(p.timestamp));
    d.produced(topic).clear();
    return v;
}

std::vector<str> counts(test::topology_test_driver& d, const str& topic) {
    std::vector<str> v;
    for (auto& r : d.create_output_topic<str, std::int64_t>(topic).read_records_to_list())
        v.push_back(r.key + "=" + (r.value_null ? str("null") : std::to_string(r.value)));
    return v;
}

}  // namespace

TEST_CASE("transform_values runs the transformer on every update, deletes included, with its own store") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, std::int64_t>(stores::in_memory_key_value_store("seen")));
    b.table<str, str>("in").transform_values([] { return std::make_unique<test::counting_transformer>(); }, {"seen"}).to_stream().to("out");
    topology t = b.build();
    const str text = t.describe().to_string();
    CAPTURE(text);
    CHECK(text.find("KTABLE-TRANSFORMVALUES-0000000003 (stores: [seen])") != str::npos);
    test::topology_test_driver d(t);
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 1);
    in.pipe_input("a", "y", 2);
    in.pipe_input("b", std::nullopt, 3);
    in.pipe_input("a", std::nullopt, 4);
    CHECK(lines(d, "out") == strs{"a=x#1@1", "a=y#2@2", "b=gone#1@3", "a=gone#3@4"});
}

TEST_CASE("transform_values sends old values to a regrouping, materialized or not") {
    for (bool named_store : {false, true}) {
        CAPTURE(named_store);
        streams_builder b;
        auto supplier = [] { return std::make_unique<test::upper_transformer>(); };
        auto src = b.table<str, str>("in");
        auto up = named_store ? src.transform_values(supplier, materialized<>::as("up"))
                              : src.transform_values(supplier, named::as("up"));
        up.group_by([](const str& k, const str& v) { return std::pair<str, str>(v, k); }).count().to_stream().to("out");
        test::topology_test_driver d(b.build());
        auto in = d.create_input_topic<str, str>("in");
        in.pipe_input("a", "x", 1);
        in.pipe_input("b", "x", 2);
        in.pipe_input("a", "y", 3);
        in.pipe_input("b", "drop", 4);
        in.pipe_input("a", std::nullopt, 5);
        CHECK(counts(d, "out") == strs{"X=1", "X=2", "X=1", "Y=1", "X=0", "Y=0"});
        if (named_store) {
            auto& store = d.get_key_value_store<str, str>("up");
            CHECK(store.get("a") == std::nullopt);
            in.pipe_input("c", "z", 6);
            CHECK(store.get("c") == ostr("Z"));
        }
    }
}

TEST_CASE("a stream-table join reads an unmaterialized transform_values through a transformer of its own, closed with it") {
    struct closing final : value_transformer_with_key<str, str, str> {
        std::shared_ptr<int> made, closed;
        closing(std::shared_ptr<int> m, std::shared_ptr<int> c) : made(std::move(m)), closed(std::move(c)) { ++*made; }
        std::optional<str> transform(const str&, const std::optional<str>& v) override {
            return v.value_or("gone") + "#" + std::to_string(*made);
        }
        void close() override { ++*closed; }
    };
    auto made = std::make_shared<int>(0), closed = std::make_shared<int>(0);
    {
        streams_builder b;
        auto table = b.table<str, str>("table").transform_values([made, closed] { return std::make_unique<closing>(made, closed); });
        b.stream<str, str>("stream")
            .left_join(table, [](const str& v, const std::optional<str>& t) { return v + "/" + t.value_or("none"); })
            .to("out");
        test::topology_test_driver d(b.build());
        CHECK(*made == 2);  // the table's processor and the join's getter
        auto tin = d.create_input_topic<str, str>("table");
        auto sin = d.create_input_topic<str, str>("stream");
        tin.pipe_input("a", "x", 1);
        sin.pipe_input("a", "s1", 2);
        sin.pipe_input("b", "s2", 3);  // no row: the getter's transformer still runs, on a null
        CHECK(lines(d, "out") == strs{"a=s1/x#2@2", "b=s2/gone#2@3"});
        CHECK(*closed == 0);
    }
    CHECK(*closed == 2);
}

TEST_CASE("a join is connected to the stores of an unmaterialized transform_values' parent only, as Kafka's") {
    auto build = [](bool materialize) {
        streams_builder b;
        b.add_state_store(stores::key_value_store_builder<str, std::int64_t>(stores::in_memory_key_value_store("seen")));
        auto supplier = [] { return std::make_unique<test::counting_transformer>(); };
        auto src = b.table<str, str>("table", materialized<>::as("rows"));
        auto table = materialize ? src.transform_values(supplier, materialized<>::as("counted"), strs{"seen"})
                                 : src.transform_values(supplier, {"seen"});
        b.stream<str, str>("stream")
            .left_join(table, [](const str& v, const std::optional<str>& t) { return v + "/" + t.value_or("none"); }, joined<>::as("join"))
            .to("out");
        return b.build();
    };
    topology unmaterialized = build(false);
    const str text = unmaterialized.describe().to_string();
    CAPTURE(text);
    CHECK(text.find("Processor: join (stores: [rows])") != str::npos);
    // The getter's transformer asks for its store from the join processor, which does not have it
    // (Kafka: StreamsException "Processor ... has no access to StateStore seen").
    CHECK_THROWS_WITH_AS(test::topology_test_driver(std::move(unmaterialized)), doctest::Contains("seen"), topology_error);
    // Materialized, the join reads the result's store and the transformer runs once per update.
    test::topology_test_driver d(build(true));
    auto tin = d.create_input_topic<str, str>("table");
    auto sin = d.create_input_topic<str, str>("stream");
    tin.pipe_input("a", "x", 1);
    sin.pipe_input("a", "s1", 2);
    sin.pipe_input("b", "s2", 3);
    CHECK(lines(d, "out") == strs{"a=s1/x#1@2", "b=s2/none@3"});
}

TEST_CASE("through a join's getter the transformer sees the row's timestamp and no input record") {
    struct shown final : value_transformer_with_key<str, str, str> {
        std::optional<str> transform(const str&, const std::optional<str>& v) override {
            const auto m = context().metadata();
            return v.value_or("null") + "@" + std::to_string(context().timestamp()) + (m ? ":" + str(m->topic) : str(":-")) +
                   ":h" + std::to_string(context().headers().size());
        }
    };
    streams_builder b;
    auto view = b.table<str, str>("table").transform_values([] { return std::make_unique<shown>(); });
    view.to_stream().to("view");
    b.stream<str, str>("stream")
        .left_join(view, [](const str& v, const std::optional<str>& t) { return v + "/" + t.value_or("none"); })
        .to("out");
    test::topology_test_driver d(b.build());
    auto tin = d.create_input_topic<str, str>("table");
    auto sin = d.create_input_topic<str, str>("stream");
    tin.pipe_record(record<str, str>{"a", "x", 5, headers{{"h", "1"}}});
    sin.pipe_record(record<str, str>{"a", "s", 7, headers{{"h", "2"}}});
    sin.pipe_input("b", "t", 8);
    CHECK(lines(d, "view") == strs{"a=x@5:table:h1@5"});
    CHECK(lines(d, "out") == strs{"a=s/x@5:-:h0@7", "b=t/null@-1:-:h0@8"});
}

TEST_CASE("a transformer schedules punctuations and sees the record's timestamp") {
    struct stamped final : value_transformer_with_key<str, str, str> {
        std::shared_ptr<std::vector<std::int64_t>> fired;
        explicit stamped(std::shared_ptr<std::vector<std::int64_t>> f) : fired(std::move(f)) {}
        void init(value_transformer_context& ctx) override {
            value_transformer_with_key::init(ctx);
            ctx.schedule(std::chrono::milliseconds(10), punctuation_type::stream_time,
                         [f = fired](std::int64_t t) { f->push_back(t); });
        }
        std::optional<str> transform(const str&, const std::optional<str>& v) override {
            return v.value_or("null") + "@" + std::to_string(context().timestamp());
        }
    };
    auto fired = std::make_shared<std::vector<std::int64_t>>();
    streams_builder b;
    b.table<str, str>("in").transform_values([fired] { return std::make_unique<stamped>(fired); }).to_stream().to("out");
    test::topology_test_driver d(b.build());
    auto in = d.create_input_topic<str, str>("in");
    in.pipe_input("a", "x", 5);
    in.pipe_input("a", "y", 25);
    CHECK(lines(d, "out") == strs{"a=x@5@5", "a=y@25@25"});
    CHECK(*fired == std::vector<std::int64_t>{5, 25});
}
