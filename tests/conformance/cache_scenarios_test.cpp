// Conformance with the record cache on: cached stores forward the timestamp and headers of the
// record that last wrote each entry, written as java/.../CacheScenarios.java writes them.
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using str = std::string;
using type::l;
using type::s;

namespace {
/// Forwards each record with a copy of its headers plus n=<value>.
struct tag_with_value : fixed_key_processor<str, str, str> {
    void process(const record<str, str>& r) override {
        headers hs = r.headers;
        hs.add("n", r.value);
        context().forward(r.with_headers(std::move(hs)));
    }
};
}  // namespace

TEST_CASE("headers_cached") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    st.group_by_key().count(materialized<>::as("c")).to_stream().to("out-count");
    st.select_key([](const str& v) { return v; })
        .group_by_key()
        .reduce([](const str& a, const str& c) { return a + c; }, materialized<>::as("r"))
        .to_stream()
        .to("out-reduce");
    st.flat_map_values([](const str& v) { return split(v, ' '); })
        .process_values([] { return std::make_unique<tag_with_value>(); })
        .group_by_key()
        .count(materialized<>::as("c2"))
        .to_stream()
        .to("out-last");
    auto t = b.table<str, str>("tin", materialized<>::as("t"));
    t.to_stream().to("out-table");
    t.filter([](const str&, const str& v) { return v != "drop"; }, materialized<>::as("f")).to_stream().to("out-filter");
    t.group_by([](const str& k, const str& v) { return std::pair<str, str>(v, k); })
        .count(materialized<>::as("g"))
        .to_stream()
        .to("out-group");
    harness h("headers_cached", b.build());
    h.input("in", s, s).input("tin", s, s);
    h.output("out-count", s, l).output("out-reduce", s, s).output("out-last", s, l);
    h.output("out-table", s, s).output("out-filter", s, s).output("out-group", s, l);
    h.pipe("in", S("a"), S("x y"), 1, {"h=1"});
    h.pipe("in", S("b"), S("x"), 2, {"h=2", "g=3"});
    h.pipe("in", S("a"), S("z"), 3);
    h.pipe("in", S("a"), S("x y"), 4, {"h=4"});
    h.pipe("tin", S("k"), S("v"), 5, {"t=1"});
    h.pipe("tin", S("k"), S("w"), 6, {"t=2"});
    h.pipe("tin", S("j"), S("v"), 7);
    h.pipe("tin", S("k"), S("drop"), 8, {"t=3"});
    h.pipe("tin", S("k"), null, 9, {"t=4"});
    h.pipe("tin", S("j"), null, 10, {"t=5"});
    h.finish();
}
