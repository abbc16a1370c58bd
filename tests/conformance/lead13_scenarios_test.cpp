// Twins of tests/conformance/java/.../Lead13Scenarios.java: dead-letter records of processing
// errors after a sink already sent the record. As Kafka's, a sink releases the source record's raw
// bytes in the record context it ran in (each forward's own copy of its caller's): a later sibling
// of that sink gets none, while a sibling of the node above the sink, or a node after a forward
// with a new timestamp, still gets them.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using str = std::string;
using type::s;

namespace {

template <class T>
T fail(const str& v, const str& bad, T result) {
    if (v == bad) throw std::logic_error("failing at " + bad);
    return result;
}

struct one_ms_later final : processor<str, str, str, str> {
    void process(const record<str, str>& r) override { context().forward(r.with_timestamp(r.timestamp + 1)); }
};

}  // namespace

TEST_CASE("dead_letter_after_sink") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    st.to("out-first");
    st.map_values([](const str& v) { return fail(v, "bad", v + "!"); }).to("out-second");
    auto t = b.stream<str, str>("in2");
    t.filter([](const str&, const str&) { return true; }).to("out-third");
    t.map_values([](const str& v) { return fail(v, "bad", v + "?"); }).to("out-fourth");
    auto u = b.stream<str, str>("in3");
    u.map_values([](const str& v) { return fail(v, "bad", v + "#"); }).to("out-fifth");
    u.to("out-sixth");
    auto w = b.stream<str, str>("in4");
    w.process([] { return std::make_unique<one_ms_later>(); }).to("out-seventh");
    w.map_values([](const str& v) { return fail(v, "bad", v + "%"); }).to("out-eighth");
    harness h("dead_letter_after_sink", b.build(),
              {{"processing.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler"},
               {"errors.dead.letter.queue.topic.name", "dlq"}});
    h.input("in", s, s).input("in2", s, s).input("in3", s, s).input("in4", s, s);
    h.output("out-first", s, s).output("out-second", s, s).output("out-third", s, s).output("out-fourth", s, s);
    h.output("out-fifth", s, s).output("out-sixth", s, s).output("out-seventh", s, s).output("out-eighth", s, s);
    h.error_output("dlq", s, s);
    h.pipe("in", S("k"), S("ok"), 1);
    h.pipe("in", S("k"), S("bad"), 2);
    h.pipe("in2", S("k"), S("bad"), 3);
    h.pipe("in3", S("k"), S("bad"), 4);
    h.pipe("in4", S("k"), S("bad"), 5);
    h.dropped();
    h.finish();
}
