// Conformance: API that ported applications use, written as java/.../ApiScenarios.java writes it,
// compared with Java Kafka Streams' outputs: ktable::transform_values with a store, materialized
// (named and not) and read by a join through its getter.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <kstreams/dsl.hpp>
#include <kstreams/state/stores.hpp>

#include "harness.hpp"
#include "tests/support/value_transformers.hpp"

using namespace kstreams;
using namespace conformance;
using str = std::string;
using type::l;
using type::s;

namespace {

/// ApiScenarios.Stamped: appends the record's timestamp; schedules a stream-time punctuation.
struct stamped final : value_transformer_with_key<str, str, str> {
    void init(value_transformer_context& ctx) override {
        value_transformer_with_key::init(ctx);
        ctx.schedule(std::chrono::milliseconds(10), punctuation_type::stream_time, [](std::int64_t) {});
    }
    std::optional<str> transform(const str&, const std::optional<str>& value) override {
        return value.value_or("null") + "@" + std::to_string(context().timestamp());
    }
};

/// ApiScenarios.Context: "value@timestamp:topic:partition:offset:h<headers>".
struct context_shown final : value_transformer_with_key<str, str, str> {
    std::optional<str> transform(const str&, const std::optional<str>& value) override {
        const auto m = context().metadata();
        return value.value_or("null") + "@" + std::to_string(context().timestamp()) + ":" +
               (m ? str(m->topic) : str("null")) + ":" + std::to_string(m ? m->partition : -1) + ":" +
               std::to_string(m ? m->offset : -1) + ":h" + std::to_string(context().headers().size());
    }
};

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("table_transform_values_getter") {
    streams_builder b;
    auto view = b.table<str, str>("in").transform_values([] { return std::make_unique<context_shown>(); });
    view.to_stream().to("out-view");
    b.stream<str, str>("st")
        .left_join(view, [](const str& v, const std::optional<str>& r) { return v + "/" + r.value_or("none"); })
        .to("out-join");
    harness h("table_transform_values_getter", b.build());
    h.input("in", s, s).input("st", s, s).output("out-view", s, s).output("out-join", s, s);
    h.pipe("in", S("a"), S("x"), 5, {"h=1"});
    h.pipe("st", S("a"), S("s1"), 7, {"h=2", "i=3"});
    h.pipe("st", S("b"), S("s2"), 8);
    h.pipe("in", S("a"), S("y"), 9, {"h=3"});
    h.pipe("in", S("b"), null, 10);
    h.pipe("st", S("a"), S("s3"), 11);
    h.pipe("st", S("b"), S("s4"), 12, {"h=4"});
    h.finish();
}

TEST_CASE("table_transform_values") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, std::int64_t>(stores::in_memory_key_value_store("seen")));
    auto t = b.table<str, str>("in");
    t.transform_values([] { return std::make_unique<test::counting_transformer>(); }, {"seen"}).to_stream().to("out-count");
    t.transform_values([] { return std::make_unique<test::upper_transformer>(); }, materialized<>::as("up"), named::as("upper"))
        .group_by([](const str& k, const str& v) { return std::pair<str, str>(v, k); })
        .count()
        .to_stream()
        .to("out-regroup");
    t.transform_values([] { return std::make_unique<stamped>(); }, materialized<>{}).to_stream().to("out-stamped");
    auto view = t.transform_values([] { return std::make_unique<test::upper_transformer>(); });
    b.stream<str, str>("st")
        .left_join(view, [](const str& v, const std::optional<str>& r) { return v + "/" + r.value_or("none"); })
        .to("out-join");
    harness h("table_transform_values", b.build());
    h.input("in", s, s).input("st", s, s)
        .output("out-count", s, s).output("out-regroup", s, l).output("out-stamped", s, s).output("out-join", s, s);
    h.pipe("in", S("a"), S("x"), 1);
    h.pipe("in", S("b"), S("x"), 2);
    h.pipe("st", S("a"), S("s1"), 3);
    h.pipe("in", S("a"), S("y"), 4);
    h.pipe("in", S("b"), S("drop"), 5);
    h.pipe("st", S("b"), S("s2"), 6);
    h.pipe("in", S("c"), null, 7);
    h.pipe("in", S("a"), null, 8);
    h.pipe("st", S("a"), S("s3"), 9);
    h.pipe("in", null, S("z"), 10);
    h.pipe("in", S("c"), S("w"), 11);
    h.pipe("st", S("c"), S("s4"), 12);
    h.finish();
}

}  // TEST_SUITE
