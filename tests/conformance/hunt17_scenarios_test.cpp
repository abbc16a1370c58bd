// Conformance: scenarios of the seventeenth hunt, written as java/.../Hunt17Scenarios.java writes
// them, compared with Java Kafka Streams' outputs: LRU stores under a count, stateful table
// transformers asked for old values, a stream joined with its own count, sliding reduces out of
// order, outer table joins regrouped, zero time limits, counts read back as a global table,
// foreign-key self joins, hopping windows under a small cache, table groupings to null keys, join
// results aggregated, tables merged through streams, process_values dedup into a table, split
// branches aggregated, partially late hopping records, session merges without a cache.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kstreams/dsl.hpp>
#include <kstreams/state/stores.hpp>

#include "harness.hpp"
#include "store_entries.hpp"
#include "windowed_show.hpp"

using namespace kstreams;
using namespace conformance;
using namespace std::chrono_literals;
using str = std::string;
using ostr = std::optional<std::string>;
using i64 = std::int64_t;
using olong = std::optional<std::int64_t>;
using type::l;
using type::s;

namespace {

auto concat = [](const str& x, const str& y) { return x + "+" + y; };
auto plus_v = [](const str&, const str& v, const str& agg) { return agg + "+" + v; };
auto minus_v = [](const str&, const str& v, const str& agg) { return agg + "-" + v; };
auto empty_init = [] { return str(); };

str show_long(const olong& v) { return v ? std::to_string(*v) : str("null"); }

/// Hunt17Scenarios.Calls: "value#n", n counting every call for the key (deletes too, which stay
/// deletes), in the store "calls".
struct calls_counted final : value_transformer_with_key<str, str, str> {
    key_value_store<str, i64>* calls = nullptr;
    void init(value_transformer_context& ctx) override {
        value_transformer_with_key::init(ctx);
        calls = &ctx.get_state_store<key_value_store<str, i64>>("calls");
    }
    std::optional<str> transform(const str& key, const std::optional<str>& value) override {
        const i64 n = calls->get(key).value_or(0) + 1;
        calls->put(key, n);
        if (!value) return std::nullopt;
        return *value + "#" + std::to_string(n);
    }
};

/// Hunt17Scenarios.Changed: forwards a value only when it differs from the key's last one (kept in
/// "last"), as "value<last".
struct changed_only final : fixed_key_processor<str, ostr, ostr> {
    key_value_store<str, str>* last = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        last = &ctx.get_state_store<key_value_store<str, str>>("last");
    }
    void process(const record<str, ostr>& r) override {
        const ostr before = last->get(r.key);
        if (r.value && r.value == before) return;
        if (r.value) {
            last->put(r.key, *r.value);
        } else {
            last->remove(r.key);
        }
        context().forward(r.with_value(r.value ? ostr(*r.value + "<" + show(before)) : ostr()));
    }
};

/// Hunt17Scenarios.LruWriter: counts each key in a plain and a timestamped store (both LRU maps),
/// forwards nothing.
struct lru_writer final : processor<str, str, str, str> {
    key_value_store<str, i64>* plain = nullptr;
    key_value_store<str, value_and_timestamp<i64>>* stamped = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        plain = &ctx.get_state_store<key_value_store<str, i64>>("lru-papi");
        stamped = &ctx.get_state_store<key_value_store<str, value_and_timestamp<i64>>>("lru-ts");
    }
    void process(const record<str, str>& r) override {
        plain->put(r.key, plain->get(r.key).value_or(0) + 1);
        const auto m = stamped->get(r.key);
        stamped->put(r.key, value_and_timestamp<i64>{m ? m->value + 1 : 1, r.timestamp});
    }
};

/// Hunt17Scenarios.LruOps: runs the operation in the value ("put:v", "get", "del", "pia:v",
/// "putall:k=v;k=v") on the LRU stores "lru-ops" and the cached "lru-ops-cached", and forwards what
/// each answered and then held.
struct lru_ops final : processor<str, str, str, str> {
    std::vector<key_value_store<str, str>*> stores_;
    void init(context_type& ctx) override {
        processor::init(ctx);
        stores_ = {&ctx.get_state_store<key_value_store<str, str>>("lru-ops"),
                   &ctx.get_state_store<key_value_store<str, str>>("lru-ops-cached")};
    }
    static str op(key_value_store<str, str>& st, const str& key, const str& value) {
        const auto colon = value.find(':');
        const str name = value.substr(0, colon);
        const str arg = colon == str::npos ? str() : value.substr(colon + 1);
        if (name == "put") {
            st.put(key, arg);
            return "put";
        }
        if (name == "get") return "get=" + show(st.get(key));
        if (name == "del") return "del=" + show(st.remove(key));
        if (name == "pia") return "pia=" + show(st.put_if_absent(key, arg));
        std::vector<key_value<str, str>> all;
        for (const auto& kv : split(arg, ';')) {
            const auto eq = kv.find('=');
            all.push_back({kv.substr(0, eq), kv.substr(eq + 1)});
        }
        st.put_all(all);
        return "putall";
    }
    void process(const record<str, str>& r) override {
        str out;
        for (auto* st : stores_) {
            out += op(*st, r.key, r.value);  // before reading the store back: + has no evaluation order
            out += " [" + entries(st->all()) + "] ";
        }
        context().forward(r.with_value(out));
    }
};

/// The text after the first ':' ("e2:ann" -> "ann").
str after_colon(const str& v) { return v.substr(v.find(':') + 1); }

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("lru_map_count") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, i64>(stores::lru_map("lru-papi", 2)));
    b.add_state_store(stores::timestamped_key_value_store_builder<str, i64>(stores::lru_map("lru-ts", 2)));
    auto st = b.stream<str, str>("in");
    st.process([] { return std::make_unique<lru_writer>(); }, {"lru-papi", "lru-ts"});
    auto g = st.group_by_key();
    g.count(materialized<>::as(stores::lru_map("lru", 2))).to_stream().to("out");
    g.count(materialized<>::as(stores::lru_map("lru-raw", 2)).with_caching_disabled()).to_stream().to("out-raw");
    harness h("lru_map_count", b.build());
    h.input("in", s, s).output("out", s, l).output("out-raw", s, l);
    h.output("conformance-lru-changelog", s, l).output("conformance-lru-raw-changelog", s, l);
    h.output("conformance-lru-papi-changelog", s, l).output("conformance-lru-ts-changelog", s, l);
    const std::vector<std::pair<str, i64>> in{{"a", 1}, {"b", 2}, {"a", 3}, {"c", 4}, {"b", 5}, {"a", 6}, {"c", 7}, {"c", 8}};
    for (const auto& [k, t] : in) h.pipe("in", S(k), S("v"), t);
    h.line("= lru " + entries(h.driver().get_key_value_store<str, i64>("lru").all()) + "| lru-raw " +
           entries(h.driver().get_key_value_store<str, i64>("lru-raw").all()) + "| lru-papi " +
           entries(h.driver().get_key_value_store<str, i64>("lru-papi").all()) + "| lru-ts " +
           entries(h.driver().get_timestamped_key_value_store<str, i64>("lru-ts").all()));
    h.finish();
}

TEST_CASE("transform_values_stateful_old_values") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, i64>(stores::in_memory_key_value_store("calls")));
    auto t = b.table<str, str>("in");
    auto v = t.transform_values([] { return std::make_unique<calls_counted>(); }, {"calls"});
    v.to_stream().to("out-view");
    v.group_by([](const str& k, const str& x) { return std::pair<str, str>(x.substr(0, 1), k + ":" + x); })
        .aggregate(empty_init, plus_v, minus_v)
        .to_stream()
        .to("out-agg");
    harness h("transform_values_stateful_old_values", b.build());
    h.input("in", s, s).output("out-view", s, s).output("out-agg", s, s);
    h.pipe("in", S("k1"), S("a"), 1);
    h.pipe("in", S("k2"), S("a"), 2);
    h.pipe("in", S("k1"), S("b"), 3);
    h.pipe("in", S("k1"), S("b"), 4);
    h.pipe("in", S("k2"), null, 5);
    h.pipe("in", S("k3"), null, 6);
    h.pipe("in", S("k2"), S("c"), 7);
    h.finish();
}

TEST_CASE("stream_counted_then_joined") {
    streams_builder b;
    for (const str topic : {"in", "in2"}) {
        auto st = b.stream<str, str>(topic);
        auto before = st.map_values([](const str& x) { return x; });
        auto c = topic == "in" ? st.group_by_key().count() : st.group_by_key().count(materialized<>{}.with_caching_disabled());
        st.join(c, [](const str& x, i64 n) { return x + "#" + std::to_string(n); }).to("out-after");
        before.join(c, [](const str& x, i64 n) { return x + "#" + std::to_string(n); }).to("out-before");
        st.left_join(c, [](const str& x, const olong& n) { return x + "#" + show_long(n); }).to("out-left");
    }
    harness h("stream_counted_then_joined", b.build());
    h.input("in", s, s).input("in2", s, s).output("out-after", s, s).output("out-before", s, s).output("out-left", s, s);
    h.pipe("in", S("a"), S("x1"), 1);
    h.pipe("in", S("a"), S("x2"), 2);
    h.pipe("in2", S("a"), S("y1"), 3);
    h.pipe("in", S("b"), S("x3"), 4);
    h.pipe("in2", S("a"), S("y2"), 5);
    h.pipe("in2", S("a"), null, 6);
    h.pipe("in", null, S("x4"), 7);
    h.finish();
}

TEST_CASE("sliding_reduce_out_of_order") {
    streams_builder b;
    show_to(b.stream<str, str>("in").group_by_key().windowed_by(sliding_windows::of_time_difference_and_grace(5ms, 10ms)).reduce(concat),
            "out");
    harness h("sliding_reduce_out_of_order", b.build());
    h.input("in", s, s).output("out", s, s);
    h.pipe("in", S("a"), S("10"), 10);
    h.pipe("in", S("a"), S("3"), 3);
    h.pipe("in", S("a"), S("7"), 7);
    h.pipe("in", S("a"), S("12"), 12);
    h.pipe("in", S("a"), S("5"), 5);
    h.pipe("in", S("a"), S("16"), 16);
    h.pipe("in", S("a"), S("9"), 9);
    h.pipe("in", S("a"), S("10b"), 10);
    h.finish();
}

TEST_CASE("table_outer_join_regroup") {
    streams_builder b;
    auto j = b.table<str, str>("left").outer_join(b.table<str, str>("right"),
                                                  [](const ostr& x, const ostr& y) { return show(x) + "|" + show(y); });
    j.to_stream().to("out-join");
    j.group_by([](const str& k, const str& v) { return std::pair<str, str>(k.substr(0, 1), v); })
        .aggregate(empty_init, plus_v, minus_v)
        .to_stream()
        .to("out-agg");
    harness h("table_outer_join_regroup", b.build());
    h.input("left", s, s).input("right", s, s).output("out-join", s, s).output("out-agg", s, s);
    h.pipe("left", S("a1"), S("L1"), 1);
    h.pipe("right", S("a1"), S("R1"), 2);
    h.pipe("right", S("a2"), S("R2"), 3);
    h.pipe("left", S("a1"), null, 4);
    h.pipe("right", S("a1"), null, 5);
    h.pipe("left", S("a2"), S("L2"), 6);
    h.pipe("right", S("a2"), S("R3"), 7);
    h.finish();
}

TEST_CASE("suppress_time_limit_zero") {
    streams_builder b;
    auto t = b.table<str, str>("in");
    t.suppress(suppressed::until_time_limit(0ms, buffer_config::unbounded())).to_stream().to("out");
    t.group_by([](const str& k, const str& v) { return std::pair<str, str>(v, k); })
        .count()
        .suppress(suppressed::until_time_limit(0ms, buffer_config::max_records(1).emit_early_when_full()))
        .to_stream()
        .to("out-count");
    harness h("suppress_time_limit_zero", b.build());
    h.input("in", s, s).output("out", s, s).output("out-count", s, l);
    h.pipe("in", S("a"), S("x"), 5);
    h.pipe("in", S("b"), S("x"), 5);
    h.pipe("in", S("a"), S("y"), 3);
    h.pipe("in", S("c"), S("y"), 8);
    h.pipe("in", S("b"), null, 8);
    h.pipe("in", S("a"), S("x"), 9);
    h.finish();
}

TEST_CASE("count_into_global_table") {
    streams_builder b;
    b.stream<str, str>("in").group_by_key().count().to_stream().to("counts");
    auto g = b.global_table<str, i64>("counts");
    b.stream<str, str>("q")
        .left_join(g, [](const str&, const str& v) { return v; }, [](const str& v, const olong& n) { return v + "#" + show_long(n); })
        .to("out");
    harness h("count_into_global_table", b.build());
    h.input("in", s, s).input("q", s, s).output("counts", s, l).output("out", s, s);
    h.pipe("q", S("q1"), S("a"), 1);
    h.pipe("in", S("a"), S("x"), 2);
    h.pipe("q", S("q2"), S("a"), 3);
    h.pipe("in", S("a"), S("x"), 4);
    h.pipe("in", S("b"), S("x"), 5);
    h.pipe("q", S("q3"), S("a"), 6);
    h.pipe("q", S("q4"), S("b"), 7);
    h.finish();
}

TEST_CASE("fk_self_join_managers") {
    streams_builder b;
    auto emp = b.table<str, str>("emp");
    emp.join(emp, fk, [](const str& e, const str& m) { return after_colon(e) + "->" + after_colon(m); }).to_stream().to("out-inner");
    emp.left_join(emp, fk, [](const str& e, const ostr& m) { return after_colon(e) + "->" + (m ? after_colon(*m) : str("none")); })
        .to_stream()
        .to("out-left");
    harness h("fk_self_join_managers", b.build());
    h.input("emp", s, s).output("out-inner", s, s).output("out-left", s, s);
    h.pipe("emp", S("e1"), S("e2:ann"), 1);
    h.pipe("emp", S("e2"), S("e3:bob"), 2);
    h.pipe("emp", S("e3"), S("none:cy"), 3);
    h.pipe("emp", S("e2"), S("e1:bob"), 4);
    h.pipe("emp", S("e3"), null, 5);
    h.pipe("emp", S("e1"), S("e1:ann"), 6);
    h.pipe("emp", S("e2"), S("e3:bo"), 7);
    h.finish();
}

TEST_CASE("hopping_many_windows_small_cache") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto w = time_windows::of_size_and_grace(10ms, 20ms).advance_by(1ms);
    show_to(g.windowed_by(w).count(), "out-count");
    show_to(g.windowed_by(w).reduce(concat), "out-reduce");
    harness h("hopping_many_windows_small_cache", b.build(), {{"statestore.cache.max.bytes", "900"}});
    h.input("in", s, s).output("out-count", s, l).output("out-reduce", s, s);
    h.pipe("in", S("a"), S("1"), 10);
    h.pipe("in", S("b"), S("2"), 12);
    h.pipe("in", S("a"), S("3"), 15);
    h.pipe("in", S("a"), S("4"), 11);
    h.finish();
}

TEST_CASE("table_group_by_null_key") {
    streams_builder b;
    b.table<str, str>("in")
        .group_by([](const str& k, const str& v) { return std::pair<ostr, str>(v.starts_with("n") ? ostr() : ostr(v.substr(0, 1)), k); })
        .aggregate(empty_init, [](const ostr&, const str& v, const str& agg) { return agg + "+" + v; },
                   [](const ostr&, const str& v, const str& agg) { return agg + "-" + v; })
        .to_stream()
        .to("out");
    harness h("table_group_by_null_key", b.build());
    h.input("in", s, s).output("out", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k1"), S("n2"), 2);
    h.pipe("in", S("k2"), S("n3"), 3);
    h.pipe("in", S("k2"), S("b4"), 4);
    h.pipe("in", S("k1"), S("a5"), 5);
    h.pipe("in", S("k2"), null, 6);
    h.dropped();
    h.finish();
}

TEST_CASE("stream_join_results_aggregated") {
    streams_builder b;
    auto lt = b.stream<str, str>("left");
    auto rt = b.stream<str, str>("right");
    const auto w = join_windows::of_time_difference_and_grace(5ms, 3ms);
    lt.join(rt, [](const str& x, const str& y) { return x + "&" + y; }, w)
        .group_by_key()
        .reduce([](const str& x, const str& y) { return x + "," + y; })
        .to_stream()
        .to("out-reduce");
    lt.outer_join(rt, [](const ostr& x, const ostr& y) { return str(!x ? "right-only" : !y ? "left-only" : "both"); }, w)
        .group_by([](const str&, const str& v) { return v; })
        .count()
        .to_stream()
        .to("out-count");
    harness h("stream_join_results_aggregated", b.build());
    h.input("left", s, s).input("right", s, s).output("out-reduce", s, s).output("out-count", s, l);
    h.pipe("left", S("a"), S("l1"), 1);
    h.pipe("right", S("a"), S("r4"), 4);
    h.pipe("left", S("b"), S("l5"), 5);
    h.pipe("right", S("a"), S("r2"), 2);
    h.pipe("right", S("c"), S("r10"), 10);
    h.pipe("left", S("a"), S("l8"), 8);
    h.pipe("right", S("b"), S("r20"), 20);
    h.pipe("left", S("a"), S("l30"), 30);
    h.finish();
}

TEST_CASE("merged_tables_to_table") {
    streams_builder b;
    auto t1 = b.table<str, str>("t1");
    auto t2 = b.table<str, str>("t2");
    auto m = t1.to_stream().merge(t2.to_stream()).to_table(materialized<>::as("merged"));
    m.to_stream().to("out-merged");
    m.left_join(t1, [](const str& x, const ostr& y) { return x + "/" + show(y); }).to_stream().to("out-join");
    harness h("merged_tables_to_table", b.build());
    h.input("t1", s, s).input("t2", s, s).output("out-merged", s, s).output("out-join", s, s);
    h.pipe("t1", S("a"), S("A1"), 1);
    h.pipe("t2", S("a"), S("B1"), 2);
    h.pipe("t2", S("b"), S("B2"), 3);
    h.pipe("t1", S("a"), null, 4);
    h.pipe("t2", S("b"), null, 5);
    h.pipe("t1", S("b"), S("A2"), 6);
    h.pipe("t2", S("a"), S("B3"), 1);
    h.finish();
}

TEST_CASE("process_values_dedup_to_table") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, str>(stores::in_memory_key_value_store("last")));
    auto changed = b.stream<str, ostr>("in").process_values([] { return std::make_unique<changed_only>(); }, named::as("changed"), {"last"});
    changed.to("out-changed");
    changed.to_table()
        .group_by([](const str& k, const ostr& v) { return std::pair<str, str>(v->substr(0, 1), k); })
        .count()
        .to_stream()
        .to("out-count");
    harness h("process_values_dedup_to_table", b.build());
    h.input("in", s, s).output("out-changed", s, s).output("out-count", s, l);
    h.pipe("in", S("k1"), S("a"), 1);
    h.pipe("in", S("k1"), S("a"), 2);
    h.pipe("in", S("k2"), S("a"), 3);
    h.pipe("in", S("k1"), S("b"), 4);
    h.pipe("in", S("k2"), null, 5);
    h.pipe("in", S("k2"), null, 6);
    h.pipe("in", S("k1"), S("b"), 7);
    h.finish();
}

TEST_CASE("split_branches_aggregated") {
    streams_builder b;
    auto br = b.stream<str, str>("in")
                  .split(named::as("br-"))
                  .branch([](const str& v) { return v.starts_with("c"); }, branched::as("count"))
                  .branch([](const str& v) { return v.starts_with("r"); }, branched::as("reduce"))
                  .default_branch(branched::as("rest"));
    auto counted = br.at("br-count").group_by_key().count().to_stream().map_values([](i64 n) { return "count=" + std::to_string(n); });
    auto reduced = br.at("br-reduce").group_by_key().reduce(concat).to_stream().map_values([](const str& v) { return "reduce=" + v; });
    auto windowed_counts = br.at("br-rest")
                               .group_by_key()
                               .windowed_by(time_windows::of_size_with_no_grace(10ms))
                               .count()
                               .to_stream([](const windowed<str>& w, i64) { return w.key + "@" + std::to_string(w.window.start); })
                               .map_values([](i64 n) { return "window=" + std::to_string(n); });
    counted.merge(reduced).merge(windowed_counts).to("out");
    harness h("split_branches_aggregated", b.build());
    h.input("in", s, s).output("out", s, s);
    h.pipe("in", S("a"), S("c1"), 1);
    h.pipe("in", S("a"), S("r2"), 2);
    h.pipe("in", S("a"), S("x3"), 3);
    h.pipe("in", S("a"), S("c4"), 4);
    h.pipe("in", S("b"), S("r5"), 5);
    h.pipe("in", S("a"), S("r6"), 6);
    h.pipe("in", S("a"), S("x12"), 12);
    h.pipe("in", S("a"), S("x7"), 7);
    h.finish();
}

TEST_CASE("hopping_partially_late_dropped") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    show_to(g.windowed_by(time_windows::of_size_and_grace(10ms, 2ms).advance_by(3ms)).count(), "out");
    show_to(g.windowed_by(sliding_windows::of_time_difference_and_grace(4ms, 2ms)).count(), "out-sliding");
    harness h("hopping_partially_late_dropped", b.build());
    h.input("in", s, s).output("out", s, l).output("out-sliding", s, l);
    h.pipe("in", S("a"), S("1"), 10);
    h.pipe("in", S("a"), S("2"), 20);
    h.dropped();
    h.pipe("in", S("a"), S("3"), 12);
    h.dropped();
    h.pipe("in", S("a"), S("4"), 14);
    h.dropped();
    h.pipe("in", S("a"), S("5"), 17);
    h.dropped();
    h.finish();
}

TEST_CASE("session_same_instant_uncached") {
    streams_builder b;
    auto g = b.stream<str, str>("in").flat_map_values([](const str& v) { return split(v, ','); }).group_by_key();
    const auto w = session_windows::of_inactivity_gap_and_grace(5ms, 5ms);
    show_to(g.windowed_by(w).reduce(concat, materialized<>::as("sess").with_caching_disabled()), "out");
    show_to(g.windowed_by(w).reduce(concat, materialized<>::as("sess-cached")), "out-cached");
    harness h("session_same_instant_uncached", b.build());
    h.input("in", s, s).output("out", s, s).output("out-cached", s, s);
    h.pipe("in", S("a"), S("1,2"), 1);
    h.pipe("in", S("a"), S("3"), 10);
    h.pipe("in", S("a"), S("4,5,6"), 5);
    h.pipe("in", S("b"), S("7,8"), 3);
    h.pipe("in", S("a"), S("9"), 1);
    h.finish();
}

TEST_CASE("table_aggregate_init_null_results") {
    streams_builder b;
    b.table<str, str>("in")
        .group_by([](const str&, const str& v) { return std::pair<str, str>(v.substr(0, 1), v); })
        .aggregate([] { return ostr("init"); },
                   [](const str&, const str& v, const ostr& agg) { return v.ends_with("!") ? ostr() : ostr(*agg + "+" + v); },
                   [](const str&, const str& v, const ostr& agg) { return *agg == "init+" + v ? ostr() : ostr(*agg + "-" + v); })
        .to_stream()
        .to("out");
    harness h("table_aggregate_init_null_results", b.build());
    h.input("in", s, s).output("out", s, s);
    h.pipe("in", S("k1"), S("a1"), 1);
    h.pipe("in", S("k2"), S("a2"), 2);
    h.pipe("in", S("k1"), S("b1"), 3);
    h.pipe("in", S("k2"), S("a2!"), 4);
    h.pipe("in", S("k3"), S("a3"), 5);
    h.pipe("in", S("k1"), null, 6);
    h.pipe("in", S("k3"), null, 7);
    h.finish();
}

TEST_CASE("to_table_uncached_regrouped") {
    streams_builder b;
    auto t = b.stream<str, str>("in").to_table(named::as("tt"), materialized<>::as("tt-store").with_caching_disabled());
    t.to_stream().to("out-table");
    t.group_by([](const str& k, const str& v) { return std::pair<str, str>(v, k); })
        .reduce([](const str& x, const str& y) { return x + "," + y; }, [](const str& x, const str& y) { return x + "-" + y; })
        .to_stream()
        .to("out-reduce");
    harness h("to_table_uncached_regrouped", b.build());
    h.input("in", s, s).output("out-table", s, s).output("out-reduce", s, s);
    h.pipe("in", S("k1"), S("x"), 1);
    h.pipe("in", S("k2"), S("x"), 2);
    h.pipe("in", S("k1"), S("x"), 3);
    h.pipe("in", S("k1"), null, 4);
    h.pipe("in", S("k1"), null, 5);
    h.pipe("in", S("k2"), S("y"), 6);
    h.pipe("in", null, S("z"), 7);
    h.finish();
}

TEST_CASE("rekeyed_counts_outer_joined") {
    streams_builder b;
    auto by_value = [](const str&, const str& v) { return v; };
    auto c1 = b.stream<str, str>("in1").group_by(by_value).count();
    auto c2 = b.stream<str, str>("in2").group_by(by_value).count(materialized<>{});
    c1.outer_join(c2, [](const olong& x, const olong& y) { return show_long(x) + ":" + show_long(y); }).to_stream().to("out");
    harness h("rekeyed_counts_outer_joined", b.build());
    h.input("in1", s, s).input("in2", s, s).output("out", s, s);
    h.pipe("in1", S("k1"), S("a"), 1);
    h.pipe("in2", S("k2"), S("a"), 2);
    h.pipe("in2", S("k3"), S("b"), 3);
    h.pipe("in1", S("k4"), S("a"), 4);
    h.pipe("in2", S("k5"), S("a"), 5);
    h.finish();
}

TEST_CASE("windowed_changes_counted") {
    streams_builder b;
    auto c = b.stream<str, str>("in").group_by_key().windowed_by(time_windows::of_size_and_grace(10ms, 5ms)).count();
    c.to_stream()
        .group_by([](const windowed<str>& w, i64) { return w.key + "@" + std::to_string(w.window.start); },
                  grouped<>{}.with_key_serde(serde<str>{}).with_value_serde(serde<i64>{}))
        .count()
        .to_stream()
        .to("out-changes");
    c.to_stream()
        .filter([](const windowed<str>&, i64 n) { return n >= 2; })
        .map([](const windowed<str>& w, i64 n) { return std::pair<str, str>(w.key, std::to_string(w.window.start) + "=" + std::to_string(n)); })
        .group_by_key(grouped<>{}.with_key_serde(serde<str>{}).with_value_serde(serde<str>{}))
        .reduce([](const str& x, const str& y) { return x + ";" + y; })
        .to_stream()
        .to("out-busy");
    harness h("windowed_changes_counted", b.build());
    h.input("in", s, s).output("out-changes", s, l).output("out-busy", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 3);
    h.pipe("in", S("b"), S("3"), 4);
    h.pipe("in", S("a"), S("4"), 12);
    h.pipe("in", S("a"), S("5"), 6);
    h.pipe("in", S("b"), S("6"), 14);
    h.pipe("in", S("a"), S("7"), 30);
    h.pipe("in", S("a"), S("8"), 8);
    h.finish();
}

TEST_CASE("filtered_view_left_joined") {
    streams_builder b;
    auto f = b.table<str, str>("left").filter([](const str&, const str& v) { return !v.starts_with("x"); });
    auto j = f.left_join(b.table<str, str>("right"), [](const str& x, const ostr& y) { return x + "/" + show(y); },
                         materialized<>::as("joined").with_caching_disabled());
    j.to_stream().to("out-join");
    j.group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(v.find('/') + 1), k); })
        .count()
        .to_stream()
        .to("out-count");
    harness h("filtered_view_left_joined", b.build());
    h.input("left", s, s).input("right", s, s).output("out-join", s, s).output("out-count", s, l);
    h.pipe("left", S("a"), S("x1"), 1);
    h.pipe("left", S("a"), S("v2"), 2);
    h.pipe("right", S("a"), S("R"), 3);
    h.pipe("left", S("b"), S("v4"), 4);
    h.pipe("left", S("a"), S("x5"), 5);
    h.pipe("right", S("b"), S("R"), 6);
    h.pipe("left", S("b"), null, 7);
    h.pipe("left", S("a"), S("v8"), 8);
    h.finish();
}

TEST_CASE("suppressed_table_windowed_count") {
    streams_builder b;
    auto sup = b.table<str, str>("in").suppress(suppressed::until_time_limit(4ms, buffer_config::unbounded()));
    sup.to_stream().to("out-sup");
    show_to(sup.to_stream().group_by_key().windowed_by(time_windows::of_size_with_no_grace(10ms)).count(), "out-count");
    harness h("suppressed_table_windowed_count", b.build());
    h.input("in", s, s).output("out-sup", s, s).output("out-count", s, l);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 3);
    h.pipe("in", S("b"), S("3"), 6);
    h.pipe("in", S("a"), null, 7);
    h.pipe("in", S("b"), S("4"), 9);
    h.pipe("in", S("c"), S("5"), 15);
    h.pipe("in", S("a"), S("6"), 11);
    h.pipe("in", S("c"), S("7"), 30);
    h.finish();
}

TEST_CASE("stream_joined_with_rekeyed_count") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    auto by_value = st.group_by([](const str&, const str& v) { return v; }).count();
    st.select_key([](const str&, const str& v) { return v; })
        .join(by_value, [](const str& v, i64 n) { return v + "#" + std::to_string(n); })
        .to("out-join");
    st.select_key([](const str&, const str& v) { return v; })
        .left_join(by_value, [](const str& v, const olong& n) { return v + "#" + show_long(n); })
        .to("out-left");
    harness h("stream_joined_with_rekeyed_count", b.build());
    h.input("in", s, s).output("out-join", s, s).output("out-left", s, s);
    h.pipe("in", S("k1"), S("a"), 1);
    h.pipe("in", S("k2"), S("a"), 2);
    h.pipe("in", S("k3"), S("b"), 3);
    h.pipe("in", S("k1"), S("a"), 4);
    h.finish();
}

TEST_CASE("session_aggregate_merger_on_close") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto w = session_windows::of_inactivity_gap_and_grace(4ms, 2ms);
    auto init = [] { return str("i"); };
    auto merger = [](const str&, const str& x, const str& y) { return "(" + x + "|" + y + ")"; };
    show_to(g.windowed_by(w).aggregate(init, plus_v, merger, materialized<>{}), "out-update");
    show_to(g.windowed_by(w).emit_strategy(emit_strategy::on_window_close()).aggregate(init, plus_v, merger, materialized<>{}), "out-close");
    harness h("session_aggregate_merger_on_close", b.build());
    h.input("in", s, s).output("out-update", s, s).output("out-close", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 10);
    h.pipe("in", S("a"), S("3"), 6);
    h.pipe("in", S("b"), S("4"), 12);
    h.pipe("in", S("a"), S("5"), 20);
    h.pipe("in", S("a"), S("6"), 16);
    h.pipe("in", S("b"), S("7"), 30);
    h.finish();
}

TEST_CASE("table_count_filtered_flips") {
    streams_builder b;
    auto c = b.table<str, str>("in").group_by([](const str& k, const str& v) { return std::pair<str, str>(v, k); }).count();
    c.to_stream().to("out-count");
    c.filter([](const str&, i64 n) { return n >= 2; }).to_stream().to("out-filter");
    c.filter([](const str&, i64 n) { return n >= 2; })
        .group_by([](const str& k, i64) { return std::pair<str, str>("busy", k); })
        .count()
        .to_stream()
        .to("out-busy");
    harness h("table_count_filtered_flips", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-filter", s, l).output("out-busy", s, l);
    h.pipe("in", S("k1"), S("x"), 1);
    h.pipe("in", S("k2"), S("x"), 2);
    h.pipe("in", S("k3"), S("y"), 3);
    h.pipe("in", S("k2"), S("y"), 4);
    h.pipe("in", S("k1"), S("y"), 5);
    h.pipe("in", S("k2"), S("x"), 6);
    h.pipe("in", S("k3"), null, 7);
    h.finish();
}

TEST_CASE("count_unnamed_materialized_names") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    g.count(materialized<>{}).to_stream().to("out-count");
    g.count(named::as("named-count"), materialized<>{}).to_stream().to("out-named");
    g.count(named::as("named-only")).to_stream().to("out-named-only");
    g.count(materialized<>::as(dsl_store_type::in_memory)).to_stream().to("out-in-memory");
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms)).count(materialized<>{}), "out-time");
    show_to(g.windowed_by(sliding_windows::of_time_difference_with_no_grace(10ms)).count(materialized<>{}), "out-sliding");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(10ms)).count(materialized<>{}), "out-session");
    b.table<str, str>("tin")
        .group_by([](const str& k, const str& v) { return std::pair<str, str>(v, k); })
        .count(materialized<>{})
        .to_stream()
        .to("out-table");
    harness h("count_unnamed_materialized_names", b.build());
    h.input("in", s, s).input("tin", s, s).output("out-count", s, l).output("out-named", s, l).output("out-named-only", s, l);
    h.output("out-in-memory", s, l).output("out-time", s, l).output("out-sliding", s, l).output("out-session", s, l).output("out-table", s, l);
    h.pipe("in", S("a"), S("x"), 1);
    h.pipe("tin", S("k"), S("v"), 2);
    h.finish();
}

TEST_CASE("stream_aggregations_unnamed_materialized") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    auto g = st.group_by_key();
    auto append = [](const str&, const str& v, const str& agg) { return agg + v; };
    g.reduce(concat, materialized<>{}).to_stream().to("out-reduce");
    g.aggregate(empty_init, append, materialized<>{}).to_stream().to("out-agg");
    show_to(g.windowed_by(time_windows::of_size_with_no_grace(10ms)).reduce(concat, materialized<>{}), "out-time");
    show_to(g.windowed_by(sliding_windows::of_time_difference_with_no_grace(10ms)).aggregate(empty_init, append, materialized<>{}),
            "out-sliding");
    show_to(g.windowed_by(session_windows::of_inactivity_gap_with_no_grace(10ms))
                .aggregate(empty_init, append, [](const str&, const str& x, const str& y) { return x + y; }, materialized<>{}),
            "out-session");
    g.cogroup(append).aggregate(empty_init, materialized<>{}).to_stream().to("out-cogroup");
    st.to_table(materialized<>{}).to_stream().to("out-table");
    harness h("stream_aggregations_unnamed_materialized", b.build());
    h.input("in", s, s).output("out-reduce", s, s).output("out-agg", s, s).output("out-time", s, s).output("out-sliding", s, s);
    h.output("out-session", s, s).output("out-cogroup", s, s).output("out-table", s, s);
    h.pipe("in", S("a"), S("x"), 1);
    h.finish();
}

TEST_CASE("lru_table_source_joined") {
    streams_builder b;
    auto t = b.table<str, str>("tin", materialized<>::as(stores::lru_map("t-lru", 2)).with_caching_disabled());
    t.to_stream().to("out-table");
    auto f = t.filter([](const str&, const str& v) { return !v.starts_with("x"); }, materialized<>::as(stores::lru_map("f-lru", 2)));
    auto q = b.stream<str, str>("q");
    q.left_join(t, [](const str& v, const ostr& x) { return v + "=" + show(x); }).to("out-join");
    q.left_join(f, [](const str& v, const ostr& x) { return v + "=" + show(x); }).to("out-filter-join");
    harness h("lru_table_source_joined", b.build());
    h.input("tin", s, s).input("q", s, s).output("out-table", s, s).output("out-join", s, s).output("out-filter-join", s, s);
    h.output("conformance-t-lru-changelog", s, s).output("conformance-f-lru-changelog", s, s);
    h.pipe("tin", S("a"), S("A"), 1);
    h.pipe("tin", S("b"), S("B"), 2);
    h.pipe("q", S("a"), S("q1"), 3);
    h.pipe("tin", S("c"), S("C"), 4);
    h.pipe("q", S("b"), S("q2"), 5);
    h.pipe("q", S("a"), S("q3"), 6);
    h.pipe("tin", S("a"), S("xA"), 7);
    h.pipe("q", S("c"), S("q4"), 8);
    h.pipe("q", S("a"), S("q5"), 9);
    h.line("= t-lru " + entries(h.driver().get_key_value_store<str, str>("t-lru").all()) + "| f-lru " +
           entries(h.driver().get_key_value_store<str, str>("f-lru").all()));
    h.finish();
}

TEST_CASE("lru_papi_operations") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, str>(stores::lru_map("lru-ops", 3)));
    b.add_state_store(stores::key_value_store_builder<str, str>(stores::lru_map("lru-ops-cached", 3)).with_caching_enabled());
    b.stream<str, str>("in").process([] { return std::make_unique<lru_ops>(); }, {"lru-ops", "lru-ops-cached"}).to("out");
    harness h("lru_papi_operations", b.build());
    h.input("in", s, s).output("out", s, s).output("conformance-lru-ops-changelog", s, s).output("conformance-lru-ops-cached-changelog", s, s);
    h.pipe("in", S("a"), S("put:1"), 1);
    h.pipe("in", S("b"), S("put:2"), 2);
    h.pipe("in", S("c"), S("put:3"), 3);
    h.pipe("in", S("a"), S("get"), 4);
    h.pipe("in", S("d"), S("put:4"), 5);
    h.pipe("in", S("c"), S("pia:9"), 6);
    h.pipe("in", S("e"), S("pia:5"), 7);
    h.pipe("in", S("a"), S("del"), 8);
    h.pipe("in", S("f"), S("putall:f=6;g=7;c=8"), 9);
    h.pipe("in", S("b"), S("get"), 10);
    h.pipe("in", S("x"), S("del"), 11);
    h.pipe("in", S("e"), S("put:50"), 12);
    h.pipe("in", S("h"), S("put:8"), 13);
    h.finish();
}

TEST_CASE("lru_table_aggregates") {
    streams_builder b;
    auto g = b.table<str, str>("in").group_by([](const str& k, const str& v) { return std::pair<str, str>(v, k); });
    g.count(materialized<>::as(stores::lru_map("cnt-lru", 2)).with_caching_disabled()).to_stream().to("out-count");
    g.reduce([](const str& x, const str& y) { return x + "," + y; }, [](const str& x, const str& y) { return x + "-" + y; },
             materialized<>::as(stores::lru_map("red-lru", 2)).with_caching_disabled())
        .to_stream()
        .to("out-reduce");
    harness h("lru_table_aggregates", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-reduce", s, s);
    h.pipe("in", S("k1"), S("x"), 1);
    h.pipe("in", S("k2"), S("y"), 2);
    h.pipe("in", S("k3"), S("x"), 3);
    h.pipe("in", S("k4"), S("z"), 4);
    h.pipe("in", S("k1"), S("y"), 5);
    h.pipe("in", S("k3"), S("z"), 6);
    h.pipe("in", S("k5"), S("x"), 7);
    h.pipe("in", S("k2"), null, 8);
    h.finish();
}

TEST_CASE("flat_map_values_empty_counted") {
    streams_builder b;
    auto words = b.stream<str, str>("in").flat_map_values([](const str& v) {
        std::vector<str> r;
        for (auto& w : split(v, ' ')) {
            if (!w.empty()) r.push_back(w);
        }
        return r;
    });
    words.group_by_key().count().to_stream().to("out-per-key");
    words.group_by([](const str&, const str& w) { return w; }).count().to_stream().to("out-per-word");
    harness h("flat_map_values_empty_counted", b.build());
    h.input("in", s, s).output("out-per-key", s, l).output("out-per-word", s, l);
    h.pipe("in", S("a"), S("x y x"), 1);
    h.pipe("in", S("a"), S(""), 2);
    h.pipe("in", S("b"), S("   "), 3);
    h.pipe("in", S("b"), S("y"), 4);
    h.pipe("in", null, S("x"), 5);
    h.pipe("in", S("a"), S("z  z"), 6);
    h.finish();
}

}  // TEST_SUITE
