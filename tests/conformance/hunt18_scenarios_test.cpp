// Conformance: scenarios of the eighteenth hunt, written as java/.../Hunt18Scenarios.java writes
// them, compared with Java Kafka Streams' outputs: the byte formats of Kafka's Double, Float,
// Short, Integer, Boolean, UUID, List, Bytes and Void serdes through sinks, repartition topics and
// stores; table to_stream with a key mapper; filter_not and store-type combinations of
// materialized; asymmetric, three-way and self stream joins; sessions of 1 ms gaps; sliding
// windows wider than the input; windows near the largest timestamp; negative extracted
// timestamps; rows moving between groups and back; repartition options; Processor API stores and
// punctuations feeding windows, joins and suppression; headers through foreign-key joins and
// suppression.
#include <doctest/doctest.h>

#include <bit>
#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/list_serde.hpp>
#include <kstreams/state/stores.hpp>
#include <kstreams/uuid_serde.hpp>

#include "harness.hpp"
#include "timestamp_from_value.hpp"
#include "windowed_show.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using ostr = std::optional<std::string>;
using i64 = std::int64_t;
using i16 = std::int16_t;
using olong = std::optional<std::int64_t>;
using type::l;
using type::s;
using type::x;

namespace {

auto concat = [](const str& a, const str& b) { return a + "+" + b; };
auto plus_v = [](const str&, const str& v, const str& agg) { return agg + "+" + v; };
auto minus_v = [](const str&, const str& v, const str& agg) { return agg + "-" + v; };
auto empty_init = [] { return str(); };
auto slash = [](const str&, const str& v, const str& agg) { return agg + "/" + v; };

/// Java's Double.toString for the whole numbers these scenarios use ("256.0").
str show_key(double d) { return std::to_string(static_cast<i64>(d)) + ".0"; }
str show_key(i16 k) { return std::to_string(k); }
str show_key(const uuid& u) { return u.to_string(); }

/// Hunt18Scenarios.entries: "key=value " per entry in the store's iteration order.
template <class It>
str listing(It it) {
    str out;
    while (it.has_next()) {
        const auto kv = it.next();
        out += show_key(kv.key) + "=" + std::to_string(kv.value) + " ";
    }
    return out;
}

/// Hunt18Scenarios.Numbered: "value#n", n counting the key's records so far (in the store
/// "seen"); the timestamp moved back 3 ms.
struct numbered final : fixed_key_processor<str, str, str> {
    key_value_store<str, i64>* seen = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        seen = &ctx.get_state_store<key_value_store<str, i64>>("seen");
    }
    void process(const record<str, str>& r) override {
        const i64 next = seen->get(r.key).value_or(0) + 1;
        seen->put(r.key, next);
        context().forward(r.with_value(r.value + "#" + std::to_string(next)).with_timestamp(r.timestamp - 3));
    }
};

/// Hunt18Scenarios.Ticker: forwards each record, and on a punctuation every 10 ms a record
/// "tick" -> "p<time>" with the punctuation's time as its timestamp and no headers.
struct ticker final : processor<str, str, str, str> {
    punctuation_type kind;
    explicit ticker(punctuation_type k) : kind(k) {}
    void init(context_type& ctx) override {
        processor::init(ctx);
        ctx.schedule(10ms, kind, [this](i64 t) { context().forward(record<str, str>{"tick", "p" + std::to_string(t), t}); });
    }
    void process(const record<str, str>& r) override { context().forward(r); }
};

/// Hunt18Scenarios.WhereFrom: appends the record's topic (or "none" without record metadata) and
/// its timestamp.
struct where_from final : fixed_key_processor<str, str, str> {
    void process(const record<str, str>& r) override {
        const auto m = context().metadata();
        const str topic = m ? str(m->topic) : str("none");
        context().forward(r.with_value(r.value + "@" + topic + "/" + std::to_string(r.timestamp)));
    }
};

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("serde_number_bytes") {
    streams_builder b;
    auto st = b.stream<str, i64>("in");
    st.map_values([](const olong& v) { return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt; }).to("out-double");
    st.map_values([](const olong& v) { return v ? std::optional<double>(std::bit_cast<double>(*v)) : std::nullopt; })
        .to("out-double-bits");
    st.map_values([](const olong& v) { return v ? std::optional<float>(static_cast<float>(*v)) : std::nullopt; }).to("out-float");
    st.map_values([](const olong& v) {
          return v ? std::optional<float>(std::bit_cast<float>(static_cast<std::int32_t>(*v))) : std::nullopt;
      }).to("out-float-bits");
    st.map_values([](const olong& v) { return v ? std::optional<i16>(static_cast<i16>(*v)) : std::nullopt; }).to("out-short");
    st.map_values([](const olong& v) { return v ? std::optional<std::int32_t>(static_cast<std::int32_t>(*v)) : std::nullopt; })
        .to("out-int");
    st.map_values([](const olong& v) { return v ? std::optional<bool>(*v % 2 != 0) : std::nullopt; }).to("out-bool");
    st.map_values([](const olong& v) {
          return v ? std::optional<uuid>(uuid{static_cast<std::uint64_t>(*v), static_cast<std::uint64_t>(~*v)}) : std::nullopt;
      }).to("out-uuid");
    harness h("serde_number_bytes", b.build());
    h.input("in", s, l).output("out-double", s, x).output("out-double-bits", s, x).output("out-float", s, x);
    h.output("out-float-bits", s, x).output("out-short", s, x).output("out-int", s, x).output("out-bool", s, x);
    h.output("out-uuid", s, s);
    const std::vector<i64> in{0, -1, 65537, 9007199254740993, 0x7ff0000000000001, 0x7fc00001, std::numeric_limits<i64>::min(),
                              0x3ff0000000000000, 16777217, static_cast<i64>(0xfff8000000000000ULL)};
    std::int64_t t = 1;
    for (const i64 v : in) {
        h.pipe("in", S("k" + std::to_string(t)), L(v), t);
        ++t;
    }
    h.pipe("in", S("k0"), null, t);
    h.finish();
}

TEST_CASE("serde_keys_store_order") {
    streams_builder b;
    auto st = b.stream<str, i64>("in");
    st.group_by([](const str&, i64 v) { return static_cast<i16>(v); }, grouped<>::as("by-short"))
        .count(materialized<>::as("short-count"))
        .to_stream()
        .to("out-short");
    st.group_by([](const str&, i64 v) { return static_cast<double>(v); }, grouped<>::as("by-double"))
        .count(materialized<>::as("double-count"))
        .to_stream()
        .to("out-double");
    st.group_by([](const str&, i64 v) { return uuid{static_cast<std::uint64_t>(v), 7}; }, grouped<>::as("by-uuid"))
        .count(materialized<>::as("uuid-count"))
        .to_stream()
        .to("out-uuid");
    harness h("serde_keys_store_order", b.build());
    h.input("in", s, l).output("out-short", x, l).output("out-double", x, l).output("out-uuid", s, l);
    h.output("conformance-by-short-repartition", x, x);
    const std::vector<i64> in{1, -1, 2, 256, -256, 1, 0, 65537};
    std::int64_t t = 1;
    for (const i64 v : in) h.pipe("in", S("k"), L(v), t++);
    auto& shorts = h.driver().get_key_value_store<i16, i64>("short-count");
    h.line("= short " + listing(shorts.all()));
    h.line("= double " + listing(h.driver().get_key_value_store<double, i64>("double-count").all()));
    h.line("= uuid " + listing(h.driver().get_key_value_store<uuid, i64>("uuid-count").all()));
    h.line("= short range -1..2 " + listing(shorts.range(-1, 2)));
    h.finish();
}

TEST_CASE("serde_list_aggregates") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    g.aggregate([] { return std::vector<ostr>(); },
                [](const str&, const str& v, std::vector<ostr> agg) {
                    agg.push_back(v == "-" ? ostr() : ostr(v));
                    return agg;
                },
                materialized<>::as("strs"))
        .to_stream()
        .to("out-strs");
    using lengths = std::vector<std::optional<std::int32_t>>;
    g.aggregate([] { return lengths(); },
                [](const str&, const str& v, lengths agg) {
                    agg.push_back(v == "-" ? std::optional<std::int32_t>() : std::optional<std::int32_t>(static_cast<std::int32_t>(v.size())));
                    return agg;
                },
                materialized<>::as("lens").with_caching_disabled())
        .to_stream()
        .to("out-lens");
    harness h("serde_list_aggregates", b.build());
    h.input("in", s, s).output("out-strs", s, x).output("out-lens", s, x).output("conformance-lens-changelog", s, x);
    h.pipe("in", S("a"), S("x"), 1);
    h.pipe("in", S("a"), S("-"), 2);
    h.pipe("in", S("a"), S(""), 3);
    h.pipe("in", S("b"), S("-"), 4);
    h.pipe("in", S("a"), S("yz"), 5);
    h.finish();
}

TEST_CASE("serde_void_bytes_empty") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    st.map([](const str&, const ostr& v) { return std::pair<void_value, ostr>(void_value{}, v); }).to("out-void");
    st.map_values([](const ostr& v) {
          if (!v) return std::optional<bytes>();
          const auto* p = reinterpret_cast<const std::byte*>(v->data());
          return std::optional<bytes>(bytes(p, p + v->size()));
      }).to("out-bytes");
    st.group_by_key().count().to_stream().to("out-count");
    st.filter([](const ostr& v) { return v && v->empty(); }).map_values([](const str&) { return void_value{}; }).to("out-deletes");
    harness h("serde_void_bytes_empty", b.build());
    h.input("in", s, s).output("out-void", x, s).output("out-bytes", s, x).output("out-count", s, l).output("out-deletes", s, x);
    h.pipe("in", S(""), S(""), 1);
    h.pipe("in", S("a"), S("hi"), 2);
    h.pipe("in", S(""), S("x"), 3);
    h.pipe("in", null, S("y"), 4);
    h.pipe("in", S("a"), S(""), 5);
    h.pipe("in", S("a"), null, 6);
    h.dropped();
    h.finish();
}

TEST_CASE("table_to_stream_key_mapper_joined") {
    streams_builder b;
    auto t = b.table<str, str>("t");
    auto by_value = t.to_stream([](const str& k, const ostr& v) { return v ? *v : k; });
    by_value.to("out-rekeyed");
    by_value.join(b.table<str, str>("names"), [](const str& a, const str& c) { return a + "/" + c; }).to("out-joined");
    by_value.group_by_key().count().to_stream().to("out-count");
    t.to_stream([](const str& k, const ostr& v) { return k + ":" + show(v); }, named::as("named-mapper")).to("out-named");
    harness h("table_to_stream_key_mapper_joined", b.build());
    h.input("t", s, s).input("names", s, s).output("out-rekeyed", s, s).output("out-joined", s, s).output("out-count", s, l);
    h.output("out-named", s, s);
    h.pipe("names", S("x"), S("X"), 1);
    h.pipe("t", S("k1"), S("x"), 2);
    h.pipe("t", S("k2"), S("y"), 3);
    h.pipe("names", S("y"), S("Y"), 4);
    h.pipe("t", S("k2"), S("x"), 5);
    h.pipe("t", S("k1"), null, 6);
    h.pipe("t", S("k3"), null, 7);
    h.finish();
}

TEST_CASE("table_filter_not_store_combos") {
    streams_builder b;
    auto t = b.table<str, str>("in");
    auto f = t.filter_not([](const str& v) { return v.starts_with("x"); }, named::as("fnot"),
                          materialized<>::as("fnot-store").with_caching_disabled().with_logging_disabled());
    f.to_stream().to("out-fnot");
    f.map_values([](const str& v) { return v + "!"; }, materialized<>::as(dsl_store_type::in_memory)).to_stream().to("out-mv");
    f.group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k); })
        .aggregate(empty_init, plus_v, minus_v, materialized<>::as("agg").with_store_type(dsl_store_type::in_memory).with_caching_disabled())
        .to_stream()
        .to("out-agg");
    harness h("table_filter_not_store_combos", b.build());
    h.input("in", s, s).output("out-fnot", s, s).output("out-mv", s, s).output("out-agg", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("x2"), 2);
    h.pipe("in", S("k1"), S("x3"), 3);
    h.pipe("in", S("k2"), S("b4"), 4);
    h.pipe("in", S("k1"), S("a5"), 5);
    h.pipe("in", S("k2"), null, 6);
    h.pipe("in", S("k3"), S("x7"), 7);
    h.finish();
}

TEST_CASE("materialized_combos_describe") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    g.count(materialized<>::as("c1").with_caching_disabled().with_logging_disabled()).to_stream().to("out-c1");
    g.count(materialized<>::as(dsl_store_type::in_memory).with_logging_disabled()).to_stream().to("out-c2");
    g.count(materialized<>::as("c3").with_store_type(dsl_store_type::rocks_db).with_caching_enabled().with_logging_enabled({{"retention.ms", "100"}}))
        .to_stream()
        .to("out-c3");
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms))
                .count(materialized<>::as("w4").with_store_type(dsl_store_type::in_memory).with_logging_disabled()),
            "out-w4");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(5ms))
                .reduce(concat, materialized<>::as("s5").with_caching_disabled().with_logging_disabled()),
            "out-s5");
    harness h("materialized_combos_describe", b.build());
    h.input("in", s, s).output("out-c1", s, l).output("out-c2", s, l).output("out-c3", s, l).output("out-w4", s, l).output("out-s5", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 4);
    h.pipe("in", S("b"), S("3"), 12);
    h.pipe("in", S("a"), S("4"), 11);
    h.finish();
}

TEST_CASE("stream_join_asymmetric_out_of_order") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    const auto w = join_windows::of_time_difference_and_grace(3ms, 4ms).before(1ms).after(6ms);
    lt.join(rt, [](const str& a, const str& c) { return a + "&" + c; }, w).to("out-inner");
    lt.left_join(rt, [](const str& a, const ostr& c) { return a + "&" + show(c); }, w).to("out-left");
    lt.outer_join(rt, [](const ostr& a, const ostr& c) { return show(a) + "&" + show(c); }, w).to("out-outer");
    harness h("stream_join_asymmetric_out_of_order", b.build());
    h.input("left", s, s).input("right", s, s).output("out-inner", s, s).output("out-left", s, s).output("out-outer", s, s);
    h.pipe("left", S("a"), S("L10"), 10);
    h.pipe("right", S("a"), S("R16"), 16);
    h.pipe("right", S("a"), S("R9"), 9);
    h.pipe("right", S("a"), S("R8"), 8);
    h.pipe("left", S("a"), S("L17"), 17);
    h.pipe("right", S("a"), S("R11"), 11);
    h.pipe("left", S("a"), S("L5"), 5);
    h.pipe("right", S("a"), S("R24"), 24);
    h.pipe("left", S("a"), S("L12"), 12);
    h.pipe("right", S("b"), S("Rb30"), 30);
    h.pipe("left", S("a"), S("L18"), 18);
    h.pipe("right", S("a"), S("R14"), 14);
    h.pipe("left", S("c"), S("Lc50"), 50);
    h.dropped();
    h.finish();
}

TEST_CASE("stream_join_three_way") {
    streams_builder b;
    auto xs = b.stream<str, str>("x");
    auto ys = b.stream<str, str>("y");
    auto zs = b.stream<str, str>("z");
    const auto w = join_windows::of_time_difference_and_grace(5ms, 2ms);
    xs.join(ys, concat, w).join(zs, concat, w).to("out-inner");
    xs.left_join(ys, [](const str& p, const ostr& q) { return p + "+" + show(q); }, w)
        .outer_join(zs, [](const ostr& pq, const ostr& r) { return show(pq) + "|" + show(r); }, w)
        .to("out-left-outer");
    harness h("stream_join_three_way", b.build());
    h.input("x", s, s).input("y", s, s).input("z", s, s).output("out-inner", s, s).output("out-left-outer", s, s);
    h.pipe("x", S("a"), S("x1"), 1);
    h.pipe("y", S("a"), S("y4"), 4);
    h.pipe("z", S("a"), S("z9"), 9);
    h.pipe("z", S("a"), S("z10"), 10);
    h.pipe("y", S("a"), S("y0"), 0);
    h.pipe("x", S("a"), S("x6"), 6);
    h.pipe("z", S("b"), S("zb12"), 12);
    h.pipe("x", S("b"), S("xb13"), 13);
    h.pipe("y", S("b"), S("yb14"), 14);
    h.pipe("x", S("a"), S("x30"), 30);
    h.pipe("y", S("a"), S("y31"), 31);
    h.pipe("z", S("a"), S("z50"), 50);
    h.finish();
}

TEST_CASE("self_join_twice") {
    for (const str opt : {"none", "all"}) {
        const std::map<str, str> props{{"topology.optimization", opt}};
        streams_builder b;
        auto st = b.stream<str, str>("in");
        const auto w = join_windows::of_time_difference_with_no_grace(5ms);
        st.join(st, [](const str& a, const str& c) { return a + "*" + c; }, w).to("out-inner");
        st.left_join(st, [](const str& a, const ostr& c) { return a + "*" + show(c); }, w).to("out-left");
        harness h("self_join_twice_" + opt, b.build(props), props);
        h.input("in", s, s).output("out-inner", s, s).output("out-left", s, s);
        h.pipe("in", S("a"), S("1"), 1);
        h.pipe("in", S("a"), S("2"), 3);
        h.pipe("in", S("b"), S("3"), 4);
        h.pipe("in", S("a"), S("4"), 20);
        h.pipe("in", S("a"), S("5"), 2);
        h.finish();
    }
}

TEST_CASE("session_gap_one_ms") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(session_windows::of_inactivity_gap_and_grace(1ms, 2ms))
                .aggregate(empty_init, slash, [](const str&, const str& a, const str& c) { return a + "|" + c; },
                           materialized<>::as("g1").with_caching_disabled()),
            "out-1");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(2ms)).count(), "out-2");
    harness h("session_gap_one_ms", b.build());
    h.input("in", s, s).output("out-1", s, s).output("out-2", s, l);
    for (const auto& [v, t] : std::vector<std::pair<str, i64>>{
             {"5", 5}, {"5b", 5}, {"7", 7}, {"6", 6}, {"9", 9}, {"4", 4}, {"2", 2}, {"12", 12}, {"10", 10}, {"8", 8}})
        h.pipe("in", S("a"), S(v), t);
    h.dropped();
    h.finish();
}

TEST_CASE("sliding_difference_wider_than_input") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto w = sliding_windows::of_time_difference_and_grace(1000ms, 5ms);
    show_to(g.windowed_by(w).count(), "out-count");
    show_to(g.windowed_by(w).reduce(concat, materialized<>::as("slide").with_caching_disabled()), "out-reduce");
    harness h("sliding_difference_wider_than_input", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-reduce", s, s);
    for (const auto& [v, t] : std::vector<std::pair<str, i64>>{
             {"20", 1020}, {"5", 1005}, {"30", 1030}, {"0", 1000}, {"25", 1025}, {"far", 2040}, {"late", 1030}})
        h.pipe("in", S("a"), S(v), t);
    h.dropped();
    h.finish();
}

TEST_CASE("windows_near_long_max") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count(), "out-tumbling");
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms).advance_by(5ms)).count(), "out-hopping");
    harness h("windows_near_long_max", b.build());
    h.input("in", s, s).output("out-tumbling", s, l).output("out-hopping", s, l);
    const i64 max = std::numeric_limits<i64>::max();
    h.pipe("in", S("a"), S("m30"), max - 30);
    h.pipe("in", S("a"), S("m12"), max - 12);
    h.pipe("in", S("a"), S("m8"), max - 8);
    h.pipe("in", S("a"), S("m17"), max - 17);
    h.dropped();
    try {
        h.pipe("in", S("a"), S("m0"), max);
    } catch (const std::exception&) {
        h.line("! failed");
    }
    h.finish();
}

TEST_CASE("negative_timestamps_windows_joins") {
    streams_builder b;
    const auto c = consumed<>{}.with_timestamp_extractor(from_value);
    auto lt = b.stream<str, str>("left", c);
    auto rt = b.stream<str, str>("right", c);
    show_to(lt.group_by_key().windowed_by(time_windows::of_size_and_grace(5ms, 100ms)).count(), "out-count");
    lt.join(rt, [](const str& a, const str& d) { return a + "&" + d; }, join_windows::of_time_difference_and_grace(2ms, 100ms))
        .to("out-join");
    harness h("negative_timestamps_windows_joins", b.build());
    h.input("left", s, s).input("right", s, s).output("out-count", s, l).output("out-join", s, s);
    h.pipe("left", S("a"), S("0:l0"), 50);
    h.pipe("right", S("a"), S("-1:r-1"), 51);
    h.pipe("right", S("a"), S("1:r1"), 52);
    h.pipe("left", S("a"), S("-5:l-5"), 53);
    h.pipe("left", S("a"), S("4:l4"), 54);
    h.pipe("right", S("a"), S("0:r0"), 55);
    h.pipe("left", S("a"), S("p:lp"), 56);
    h.dropped();
    h.finish();
}

TEST_CASE("table_aggregate_move_and_back") {
    streams_builder b;
    auto t = b.table<str, str>("in");
    const auto move = [](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k + v.substr(1)); };
    t.group_by(move).aggregate(empty_init, plus_v, minus_v, materialized<>::as("moves").with_caching_disabled()).to_stream().to("out-uncached");
    t.group_by(move).aggregate(empty_init, plus_v, minus_v).to_stream().to("out-cached");
    t.group_by([](const str&, const str& v) { return std::pair<str, str>(v.substr(0, 1), v); }).count().to_stream().to("out-count");
    harness h("table_aggregate_move_and_back", b.build());
    h.input("in", s, s).output("out-uncached", s, s).output("out-cached", s, s).output("out-count", s, l);
    h.pipe("in", S("r1"), S("a1"), 1);
    h.pipe("in", S("r2"), S("a2"), 2);
    h.pipe("in", S("r1"), S("b3"), 3);
    h.pipe("in", S("r1"), S("a4"), 4);
    h.pipe("in", S("r2"), S("a5"), 5);
    h.pipe("in", S("r1"), S("a5"), 6);
    h.pipe("in", S("r1"), null, 7);
    h.pipe("in", S("r1"), S("b8"), 8);
    h.finish();
}

TEST_CASE("suppress_time_limit_outer_join_regroup") {
    streams_builder b;
    auto j = b.table<str, str>("left").outer_join(b.table<str, str>("right"),
                                                  [](const ostr& a, const ostr& c) { return show(a) + "|" + show(c); });
    j.suppress(suppressed::until_time_limit(4ms, buffer_config::unbounded()).with_name("sup-join")).to_stream().to("out-join");
    j.group_by([](const str& k, const str& v) { return std::pair<str, str>(v.find("null") != str::npos ? "half" : "full", k); })
        .count()
        .suppress(suppressed::until_time_limit(3ms, buffer_config::max_records(1).emit_early_when_full()))
        .to_stream()
        .to("out-count");
    harness h("suppress_time_limit_outer_join_regroup", b.build());
    h.input("left", s, s).input("right", s, s).output("out-join", s, s).output("out-count", s, l);
    h.pipe("left", S("a"), S("l1"), 1);
    h.pipe("right", S("a"), S("r1"), 2);
    h.pipe("right", S("b"), S("r2"), 3);
    h.pipe("left", S("a"), null, 6);
    h.pipe("left", S("b"), S("l3"), 7);
    h.pipe("right", S("a"), null, 9);
    h.pipe("left", S("c"), S("l4"), 14);
    h.pipe("right", S("c"), S("r4"), 20);
    h.finish();
}

TEST_CASE("repartition_options_describe") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    const auto zero_long = [](std::string_view, const i64&, const str&, std::int32_t) { return std::optional<std::int32_t>(0); };
    const auto zero = [](std::string_view, const str&, const str&, std::int32_t) { return std::optional<std::int32_t>(0); };
    st.select_key([](const str& v) { return static_cast<i64>(v.size()); })
        .repartition(repartitioned<>::as("lens").with_number_of_partitions(2).with_stream_partitioner(zero_long))
        .group_by_key()
        .count()
        .to_stream()
        .to("out-lens");
    st.repartition(repartitioned<>{}.with_number_of_partitions(3)).map_values([](const str& v) { return v + "#"; }).to("out-three");
    st.repartition(repartitioned<>{}.with_stream_partitioner(zero))
        .group_by_key()
        .reduce([](const str& a, const str& c) { return a + c; })
        .to_stream()
        .to("out-part");
    harness h("repartition_options_describe", b.build());
    h.input("in", s, s).output("out-lens", l, l).output("out-three", s, s).output("out-part", s, s);
    h.pipe("in", S("k1"), S("ab"), 1);
    h.pipe("in", S("k2"), S("cd"), 2);
    h.pipe("in", S("k1"), S("e"), 3);
    h.pipe("in", null, S("fg"), 4);
    h.finish();
}

TEST_CASE("papi_store_into_windows") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, i64>(stores::in_memory_key_value_store("seen")));
    auto g = b.stream<str, str>("in").process_values([] { return std::make_unique<numbered>(); }, {"seen"}).group_by_key();
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 2ms)).aggregate(empty_init, slash), "out-tumbling");
    show_to(g.windowed_by(sliding_windows::of_time_difference_with_no_grace(4ms)).count(), "out-sliding");
    harness h("papi_store_into_windows", b.build());
    h.input("in", s, s).output("out-tumbling", s, s).output("out-sliding", s, l).output("conformance-seen-changelog", s, l);
    h.pipe("in", S("a"), S("x"), 5);
    h.pipe("in", S("a"), S("y"), 12);
    h.pipe("in", S("b"), S("z"), 13);
    h.pipe("in", S("a"), S("w"), 14);
    h.pipe("in", S("a"), S("v"), 25);
    h.pipe("in", S("a"), S("u"), 15);
    h.dropped();
    h.finish();
}

TEST_CASE("flat_map_keys_table_join") {
    streams_builder b;
    auto t = b.table<str, str>("t");
    auto st = b.stream<str, str>("in").flat_map([](const ostr& k, const str& v) {
        std::vector<std::pair<str, ostr>> out;
        for (const auto& p : split(v, ','))
            if (!p.empty()) out.emplace_back(p, k);
        return out;
    });
    st.join(t, [](const ostr& a, const str& c) { return show(a) + "=" + c; }).to("out-join");
    st.left_join(t, [](const ostr& a, const ostr& c) { return show(a) + "=" + show(c); }).to("out-left");
    harness h("flat_map_keys_table_join", b.build());
    h.input("t", s, s).input("in", s, s).output("out-join", s, s).output("out-left", s, s);
    h.pipe("t", S("x"), S("X"), 1);
    h.pipe("in", S("k1"), S("x,y,x"), 2);
    h.pipe("t", S("y"), S("Y"), 3);
    h.pipe("in", S("k2"), S("y,,z"), 4);
    h.pipe("in", S("k3"), S(""), 5);
    h.pipe("t", S("x"), null, 6);
    h.pipe("in", null, S("x,y"), 7);
    h.finish();
}

TEST_CASE("wall_clock_ticks_into_suppressed_windows") {
    streams_builder b;
    auto st = b.stream<str, str>("in").process([] { return std::make_unique<ticker>(punctuation_type::wall_clock_time); });
    st.to("out-ticks");
    show_to(st.group_by_key()
                .windowed_by(time_windows::of_size_and_grace(20ms, 5ms))
                .count()
                .suppress(suppressed::until_window_closes(buffer_config::unbounded())),
            "out-final");
    harness h("wall_clock_ticks_into_suppressed_windows", b.build());
    h.input("in", s, s).output("out-ticks", s, s).output("out-final", s, l);
    h.pipe("in", S("a"), S("1"), 1);
    h.advance_wall_clock(10);
    h.pipe("in", S("tick"), S("2"), 12);
    h.advance_wall_clock(15);
    h.advance_wall_clock(10);
    h.pipe("in", S("a"), S("3"), 2);
    h.advance_wall_clock(30);
    h.pipe("in", S("a"), S("4"), 40);
    h.advance_wall_clock(5);
    h.finish();
}

TEST_CASE("punctuation_records_downstream") {
    streams_builder b;
    auto names = b.table<str, str>("names");
    auto st = b.stream<str, str>("in").process([] { return std::make_unique<ticker>(punctuation_type::stream_time); });
    st.process_values([] { return std::make_unique<where_from>(); }).to("out-where");
    st.group_by_key().count().to_stream().to("out-count");
    st.join(names, [](const str& a, const str& c) { return a + "=" + c; }).to("out-join");
    st.to_table().map_values([](const str& v) { return v + "!"; }).to_stream().to("out-table");
    show_to(st.group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).count(), "out-windowed");
    harness h("punctuation_records_downstream", b.build());
    h.input("names", s, s).input("in", s, s).output("out-where", s, s).output("out-count", s, l).output("out-join", s, s);
    h.output("out-table", s, s).output("out-windowed", s, l);
    h.pipe("names", S("tick"), S("T"), 0);
    h.pipe("in", S("a"), S("1"), 3, {"h=1"});
    h.pipe("in", S("a"), S("2"), 12, {"h=2"});
    h.pipe("in", S("tick"), S("3"), 15, {"h=3"});
    h.pipe("in", S("a"), S("4"), 34);
    h.pipe("in", S("a"), S("5"), 20, {"h=5"});
    h.finish();
}

TEST_CASE("headers_fk_join_suppressed_regrouped") {
    streams_builder b;
    auto orders = b.table<str, str>("orders");
    auto customers = b.table<str, str>("customers");
    auto j = orders.left_join(customers, fk, [](const str& o, const ostr& c) { return o + "/" + show(c); });
    j.suppress(suppressed::until_time_limit(5ms, buffer_config::unbounded())).to_stream().to("out-suppressed");
    j.group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 2), k); })
        .aggregate(empty_init, plus_v, minus_v)
        .to_stream()
        .to("out-agg");
    harness h("headers_fk_join_suppressed_regrouped", b.build());
    h.input("orders", s, s).input("customers", s, s).output("out-suppressed", s, s).output("out-agg", s, s);
    h.pipe("customers", S("c1"), S("Ann"), 1, {"src=c", "n=1"});
    h.pipe("orders", S("o1"), S("c1:tea"), 2, {"src=o", "n=2"});
    h.pipe("orders", S("o2"), S("c2:jam"), 3, {"src=o", "n=3"});
    h.pipe("customers", S("c2"), S("Bo"), 4, {"src=c", "n=4"});
    h.pipe("orders", S("o1"), S("c2:tea"), 9, {"src=o", "n=5"});
    h.pipe("customers", S("c1"), null, 12, {"src=c", "n=6"});
    h.pipe("orders", S("o2"), null, 20, {"src=o", "n=7"});
    h.finish();
}

TEST_CASE("stream_join_no_grace_same_instant") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    const auto w = join_windows::of_time_difference_with_no_grace(3ms);
    lt.join(rt, [](const str& a, const str& c) { return a + "&" + c; }, w).to("out-inner");
    lt.outer_join(rt, [](const ostr& a, const ostr& c) { return show(a) + "&" + show(c); }, w).to("out-outer");
    harness h("stream_join_no_grace_same_instant", b.build());
    h.input("left", s, s).input("right", s, s).output("out-inner", s, s).output("out-outer", s, s);
    h.pipe("left", S("a"), S("L5"), 5);
    h.pipe("left", S("a"), S("L5b"), 5);
    h.pipe("right", S("a"), S("R5"), 5);
    h.pipe("right", S("a"), S("R3"), 3);
    h.pipe("left", S("a"), null, 6);
    h.pipe("right", null, S("Rn"), 6);
    h.pipe("left", S("b"), S("Lb9"), 9);
    h.pipe("right", S("a"), S("R1"), 1);
    h.pipe("left", S("a"), S("L1"), 1);
    h.pipe("right", S("b"), S("Rb20"), 20);
    h.pipe("left", S("a"), S("L8"), 8);
    h.dropped();
    h.finish();
}

TEST_CASE("windowed_serdes_short_long_keys") {
    streams_builder b;
    auto st = b.stream<str, i64>("in");
    st.group_by([](const str&, i64 v) { return static_cast<i16>(v); })
        .windowed_by(time_windows::of_size_with_no_grace(10ms))
        .count()
        .to_stream()
        .to("out-tw", produced<>{}.with_key_serde(time_windowed_serde<i16>{{}, 10}));
    st.group_by([](const str&, i64 v) { return v; })
        .windowed_by(session_windows::of_inactivity_gap_with_no_grace(3ms))
        .count()
        .to_stream()
        .to("out-sw", produced<>{}.with_key_serde(session_windowed_serde<i64>{}));
    harness h("windowed_serdes_short_long_keys", b.build());
    h.input("in", s, l).output("out-tw", x, l).output("out-sw", x, l);
    h.pipe("in", S("k"), L(1), 3);
    h.pipe("in", S("k"), L(-2), 5);
    h.pipe("in", S("k"), L(1), 14);
    h.pipe("in", S("k"), L(-2), 7);
    h.finish();
}

TEST_CASE("split_function_null_no_default") {
    streams_builder b;
    auto m = b.stream<str, str>("in")
                 .split(named::as("s-"))
                 .branch([](const str& v) { return v.starts_with("n"); },
                         branched::with_function(
                             [](kstream<str, str> ks) {
                                 ks.map_values([](const str& v) { return v + "?"; }).to("out-null-branch");
                                 return std::optional<kstream<str, str>>();
                             },
                             "nul"))
                 .branch([](const str& v) { return v.starts_with("c"); },
                         branched::with_consumer([](kstream<str, str> ks) { ks.to("out-consumed"); }, "con"))
                 .branch([](const str& v) { return v.starts_with("f"); },
                         branched::with_function([](kstream<str, str> ks) { return ks.map_values([](const str& v) { return v + "!"; }); }))
                 .branch([](const str& v) { return v.starts_with("p"); })
                 .no_default_branch();
    str branches = "= branches [";
    for (const auto& [name, st] : m) branches += (branches.ends_with("[") ? "" : ", ") + name;
    branches += "]";
    for (const auto& [name, st] : m) {
        const str n = name;
        st.map_values([n](const str& v) { return n + ":" + v; }).to("out-rest");
    }
    harness h("split_function_null_no_default", b.build());
    h.input("in", s, s).output("out-null-branch", s, s).output("out-consumed", s, s).output("out-rest", s, s);
    h.line(branches);
    h.pipe("in", S("a"), S("n1"), 1);
    h.pipe("in", S("a"), S("c2"), 2);
    h.pipe("in", S("a"), S("f3"), 3);
    h.pipe("in", S("a"), S("p4"), 4);
    h.pipe("in", S("a"), S("z5"), 5);
    h.dropped();
    h.finish();
}

}  // TEST_SUITE
