// Conformance: the spine the other scenarios miss (a hand-built topology with stores and
// punctuations, process_values, stream time and record metadata, caching under the driver's
// per-record commits, named operators, aggregations returning null), written as
// java/.../SpineScenarios.java writes them.
#include <doctest/doctest.h>

#include <cctype>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <kstreams/dsl.hpp>

#include "harness.hpp"

using namespace kstreams;
using namespace conformance;
using str = std::string;
using ostr = std::optional<std::string>;
using i64 = std::int64_t;
using type::l;
using type::s;

namespace {

str show(const ostr& v) { return v.value_or("null"); }

str upper(str v) {
    for (auto& c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return v;
}

template <class K, class V>
str keys_of(key_value_iterator<K, V> it, const char* sep = "") {
    str out;
    while (it.has_next()) {
        if constexpr (std::is_same_v<K, str>) out += it.next().key;
        else out += std::to_string(it.next().key);
        out += sep;
    }
    return out;
}

/// Keeps the last value per key in "last" and the first-seen key per timestamp in "seen".
/// Forwards prev>value at timestamp+1 with a "prev" header (to every child); a tombstone deletes
/// the key and forwards "deleted" to sink-main only; a null key goes to sink-side.
struct last_value_processor : processor<ostr, ostr, ostr, ostr> {
    key_value_store<str, str>* last = nullptr;
    key_value_store<i64, str>* seen = nullptr;
    cancellable st;
    int st_runs = 0;

    void init(context_type& ctx) override {
        processor::init(ctx);
        last = &ctx.get_state_store<key_value_store<str, str>>("last");
        seen = &ctx.get_state_store<key_value_store<i64, str>>("seen");
        st = ctx.schedule(std::chrono::milliseconds(20), punctuation_type::stream_time, [this](i64 ts) {
            str sb;
            for (auto it = last->all(); it.has_next();) {
                auto kv = it.next();
                sb += kv.key + "=" + kv.value + ";";
            }
            sb += "|" + keys_of(last->reverse_all()) + "|" + keys_of(last->range(str("b"), str("d")));
            context().forward(record<ostr, ostr>{str("st"), std::to_string(ts) + ":" + sb, ts}, "sink-side");
            if (++st_runs == 3) st.cancel();
        });
        ctx.schedule(std::chrono::milliseconds(100), punctuation_type::wall_clock_time, [this](i64 ts) {
            int n = 0;
            for (auto it = seen->all(); it.has_next(); it.next()) ++n;
            context().forward(record<ostr, ostr>{str("wall"),
                                                 std::to_string(ts) + ":" + std::to_string(n) + ":" +
                                                     std::to_string(context().current_stream_time_ms()),
                                                 ts});
        });
    }

    void process(const record<ostr, ostr>& r) override {
        seen->put_if_absent(r.timestamp, r.key ? *r.key : str("null"));
        if (!r.key) {
            context().forward(r.with_value(ostr("nokey:" + *r.value)), "sink-side");
            return;
        }
        if (!r.value) {
            last->remove(*r.key);
            context().forward(r.with_value(ostr("deleted")), "sink-main");
            return;
        }
        const auto prev = last->get(*r.key);
        last->put(*r.key, *r.value);
        auto hs = r.headers;
        hs.add("prev", prev.value_or("none"));
        context().forward(r.with_value(ostr(show(prev) + ">" + *r.value)).with_timestamp(r.timestamp + 1).with_headers(hs));
    }
};

/// Appends the number of times the key was seen; a stream-time punctuation scheduled on the
/// first record (aligned to 0) forwards a marker under the last key seen.
struct seen_values : fixed_key_processor<str, str, str> {
    key_value_store<str, i64>* seen = nullptr;
    bool scheduled = false;
    record<str, str> last_record;

    void init(context_type& ctx) override {
        processor::init(ctx);
        seen = &ctx.get_state_store<key_value_store<str, i64>>("seen");
    }
    void process(const record<str, str>& r) override {
        last_record = r;
        if (!scheduled) {
            scheduled = true;
            context().schedule(std::chrono::milliseconds(10), punctuation_type::stream_time, [this](i64 ts) {
                context().forward(last_record.with_value(str("tick@" + std::to_string(ts))).with_timestamp(ts));
            });
        }
        const i64 c = seen->get(r.key).value_or(0) + 1;
        seen->put(r.key, c);
        context().forward(r.with_value(r.value + "#" + std::to_string(c)));
    }
};

/// Swaps key and value; drops "skip"; forwards a second record at timestamp-1 for "x".
struct swap_processor : processor<str, str, str, str> {
    void process(const record<str, str>& r) override {
        if (r.value == "skip") return;
        context().forward(record<str, str>{r.value, r.key, r.timestamp});
        if (r.value == "x") context().forward(record<str, str>{r.value, r.key + "-early", r.timestamp - 1});
    }
};

/// Forwards the value with the stream time, the record's topic, partition and offset, and the task.
struct info_processor : processor<str, str, str, str> {
    void process(const record<str, str>& r) override {
        const auto m = context().metadata();
        const str where = m ? str(m->topic) + "/" + std::to_string(m->partition) + "@" + std::to_string(m->offset) : "none";
        context().forward(r.with_value(r.value + "|st=" + std::to_string(context().current_stream_time_ms()) + "|" + where +
                                       "|" + context().task_id().to_string() +
                                       "|wall=" + std::to_string(context().current_system_time_ms())));
    }
};

/// Counts records; a stream-time punctuation every 10 ms forwards the count and stream time.
struct ticking_processor : processor<str, str, str, str> {
    int seen = 0;
    void init(context_type& ctx) override {
        processor::init(ctx);
        ctx.schedule(std::chrono::milliseconds(10), punctuation_type::stream_time, [this](i64 ts) {
            context().forward(record<str, str>{"tick", std::to_string(ts) + ":" + std::to_string(seen) + ":" +
                                                           std::to_string(context().current_stream_time_ms()),
                                               ts});
        });
    }
    void process(const record<str, str>& r) override {
        ++seen;
        context().forward(r);
    }
};

/// Keeps the last value per key in "pairs" and forwards previous+value with the source topic.
struct pairing_processor : processor<str, str, str, str> {
    key_value_store<str, str>* pairs = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        pairs = &ctx.get_state_store<key_value_store<str, str>>("pairs");
    }
    void process(const record<str, str>& r) override {
        const auto prev = pairs->get(r.key);
        pairs->put(r.key, r.value);
        const auto m = context().metadata();
        context().forward(r.with_value(show(prev) + "+" + r.value + "@" + (m ? str(m->topic) : str("none"))));
    }
};

/// Upper-cases the value.
struct upper_processor : processor<str, str, str, str> {
    void process(const record<str, str>& r) override { context().forward(r.with_value(upper(r.value))); }
};

/// On its first record schedules a wall-clock punctuation every 50 ms (aligned to that moment);
/// the punctuation forwards its time and cancels itself on its third run, when the next record
/// schedules a stream-time one instead.
struct late_scheduler : processor<str, str, str, str> {
    cancellable wall;
    int runs = 0;
    bool scheduled = false;
    void process(const record<str, str>& r) override {
        if (!scheduled) {
            scheduled = true;
            wall = context().schedule(std::chrono::milliseconds(50), punctuation_type::wall_clock_time, [this](i64 ts) {
                context().forward(record<str, str>{"wall", std::to_string(ts) + ":" + std::to_string(++runs), ts});
                if (runs == 3) wall.cancel();
            });
        } else if (runs >= 3 && runs < 100) {
            runs = 100;
            context().schedule(std::chrono::milliseconds(7), punctuation_type::stream_time,
                               [this](i64 ts) { context().forward(record<str, str>{"st", std::to_string(ts), ts}); });
        }
        context().forward(r.with_value(r.value + "@" + std::to_string(context().current_system_time_ms())));
    }
};

/// Forwards one record per comma-separated "key@timestamp" part of the value.
struct fan_out_processor : processor<str, str, str, str> {
    void process(const record<str, str>& r) override {
        for (const auto& part : split(r.value, ',')) {
            const auto kt = split(part, '@');
            context().forward(record<str, str>{kt[0], r.key + ":" + part, std::stoll(kt[1])});
        }
    }
};

/// Buffers the last value per key; a wall-clock punctuation every 50 ms forwards the buffer
/// re-keyed by value (in key order) and empties it.
struct buffer_processor : processor<str, str, str, str> {
    key_value_store<str, str>* buffer = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        buffer = &ctx.get_state_store<key_value_store<str, str>>("buffer");
        ctx.schedule(std::chrono::milliseconds(50), punctuation_type::wall_clock_time, [this](i64 ts) {
            const auto all = buffer->all().to_vector();
            for (const auto& kv : all) {
                buffer->remove(kv.key);
                context().forward(record<str, str>{kv.value, kv.key, ts});
            }
        });
    }
    void process(const record<str, str>& r) override { buffer->put(r.key, r.value); }
};

/// Stores value by Long key (a null value deletes), then forwards the keys in order, in reverse
/// order and in the range [0, 300], and the deleted key's tombstone.
struct long_keys_processor : processor<i64, ostr, str, ostr> {
    key_value_store<i64, str>* nums = nullptr;
    void init(context_type& ctx) override {
        processor::init(ctx);
        nums = &ctx.get_state_store<key_value_store<i64, str>>("nums");
    }
    void process(const record<i64, ostr>& r) override {
        if (!r.value) {
            const auto old = nums->remove(r.key);
            context().forward(record<str, ostr>{std::to_string(r.key), std::nullopt, r.timestamp});
            context().forward(record<str, ostr>{"deleted", show(old), r.timestamp});
            return;
        }
        nums->put(r.key, *r.value);
        const str v = keys_of(nums->all(), ",") + "|" + keys_of(nums->reverse_all(), ",") + "|" +
                      keys_of(nums->range(i64(0), i64(300)), ",");
        context().forward(record<str, ostr>{std::to_string(r.key), v, r.timestamp});
    }
};

/// `s` with every occurrence of `part` removed (Java's s.replace(part, "")).
str without(str s, const str& part) {
    for (auto p = s.find(part); p != str::npos; p = s.find(part, p)) s.erase(p, part.size());
    return s;
}

}  // namespace

TEST_SUITE("conformance") {

TEST_CASE("papi_topology_store_punctuations") {
    topology t;
    t.add_source<ostr, ostr>("src", {"in"});
    t.add_processor("proc", [] { return std::make_unique<last_value_processor>(); }, {"src"});
    t.add_state_store(stores::key_value_store_builder<str, str>(stores::persistent_key_value_store("last")), {"proc"});
    t.add_state_store(stores::key_value_store_builder<i64, str>(stores::in_memory_key_value_store("seen")).with_logging_disabled(),
                      {"proc"});
    t.add_sink<ostr, ostr>("sink-main", "out", {"proc"});
    t.add_sink<ostr, ostr>("sink-side", "out-side", {"proc"});
    harness h("papi_topology_store_punctuations", std::move(t));
    h.input("in", s, s).output("out", s, s).output("out-side", s, s);
    h.pipe("in", S("b"), S("1"), 5, {"h=0"});
    h.pipe("in", S("a"), S("2"), 12);
    h.pipe("in", S("c"), S("3"), 8);
    h.pipe("in", S("a"), S("4"), 25, {"x=1"});
    h.pipe("in", S("b"), null, 26);
    h.advance_wall_clock(100);
    h.pipe("in", null, S("5"), 27);
    h.pipe("in", S("d"), S("6"), 40);
    h.pipe("in", S("e"), S("7"), 70);
    h.advance_wall_clock(150);
    h.pipe("in", S("a"), null, 71);
    h.finish();
}

TEST_CASE("process_values_and_process_grouping") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, i64>(stores::in_memory_key_value_store("seen")));
    auto st = b.stream<str, str>("in");
    auto pv = st.process_values([] { return std::make_unique<seen_values>(); }, named::as("pv"), {"seen"});
    pv.to("out-pv");
    pv.group_by_key().count().to_stream().to("out-pv-count");
    auto p = st.process([] { return std::make_unique<swap_processor>(); });
    p.to("out-p");
    p.group_by_key().count().to_stream().to("out-p-count");
    harness h("process_values_and_process_grouping", b.build());
    h.input("in", s, s).output("out-pv", s, s).output("out-pv-count", s, l).output("out-p", s, s).output("out-p-count", s, l);
    h.pipe("in", S("a"), S("x"), 25);
    h.pipe("in", S("b"), S("skip"), 26);
    h.pipe("in", S("a"), S("y"), 29);
    h.pipe("in", S("c"), S("x"), 31);
    h.pipe("in", S("a"), S("x"), 20);
    h.pipe("in", S("b"), S("z"), 55);
    h.finish();
}

TEST_CASE("stream_time_and_metadata") {
    streams_builder b;
    auto a = b.stream<str, str>("in-a");
    auto c = b.stream<str, str>("in-b");
    const auto info = [] { return std::make_unique<info_processor>(); };
    a.process(info, named::as("info-a")).to("out-a");
    c.select_key([](const str& v) { return v; }).repartition(repartitioned<>::as("rk")).process(info, named::as("info-rk")).to("out-rk");
    a.merge(c).process(info, named::as("info-m")).to("out-m");
    harness h("stream_time_and_metadata", b.build());
    h.input("in-a", s, s).input("in-b", s, s).output("out-a", s, s).output("out-rk", s, s).output("out-m", s, s);
    h.pipe("in-a", S("k1"), S("v1"), 10);
    h.pipe("in-b", S("k2"), S("v2"), 5);
    h.pipe("in-a", S("k3"), S("v3"), 3);
    h.pipe("in-b", S("k4"), S("v4"), 20);
    h.pipe("in-a", S("k5"), S("v5"), 15);
    h.advance_wall_clock(7);
    h.pipe("in-b", S("k6"), S("v6"), 1);
    h.finish();
}

TEST_CASE("flat_map_cached_dedup") {
    streams_builder b;
    auto st = b.stream<ostr, str>("in");
    auto words = st.flat_map_values([](const str& v) { return split(v, ','); });
    words.group_by_key().count().to_stream().to("out-cached");
    words.group_by_key().count(materialized<>::as("uncached").with_caching_disabled()).to_stream().to("out-uncached");
    st.flat_map([](const ostr& k, const str& v) {
          std::vector<std::pair<str, ostr>> r;
          for (const auto& w : split(v, ','))
              if (!w.empty()) r.emplace_back(w, k);
          return r;
      })
        .group_by_key()
        .reduce([](const ostr& x, const ostr& y) { return ostr(*x + "+" + *y); })
        .to_stream()
        .to("out-rekeyed");
    harness h("flat_map_cached_dedup", b.build());
    h.input("in", s, s).output("out-cached", s, l).output("out-uncached", s, l).output("out-rekeyed", s, s);
    h.pipe("in", S("a"), S("x,y,x"), 1);
    h.pipe("in", S("a"), S(""), 2);
    h.pipe("in", S("b"), S("x"), 3);
    h.pipe("in", S("a"), S("y,y"), 4);
    h.pipe("in", null, S("x,z"), 5);
    h.finish();
}

TEST_CASE("many_keys_cached") {
    streams_builder b;
    auto st = b.stream<str, str>("in");
    st.group_by_key().count().to_stream().to("out-by-key");
    st.group_by([](const str& v) { return v; }).count().to_stream().to("out-by-value");
    b.table<str, str>("tin", materialized<>::as("tin-store")).to_stream().to("out-table");
    harness h("many_keys_cached", b.build());
    h.input("in", s, s).input("tin", s, s).output("out-by-key", s, l).output("out-by-value", s, l).output("out-table", s, s);
    for (int i = 0; i < 60; i++) {
        h.pipe("in", S("k" + std::to_string(i % 23)), S("v" + std::to_string(i % 7)), i * 3 % 50);
        if (i % 4 == 0) h.pipe("tin", S("t" + std::to_string(i % 9)), i % 3 == 0 ? null : S("w" + std::to_string(i)), i);
    }
    h.finish();
}

TEST_CASE("named_operators_everywhere") {
    streams_builder b;
    auto st = b.stream<str, str>("in", consumed<>{}.with_name("source-in"));
    auto f = st.filter([](const str& v) { return !v.empty(); }, named::as("non-empty"))
                 .map_values([](const str& v) { return upper(v); }, named::as("upper"))
                 .peek([](const str&, const str&) {}, named::as("look"));
    auto sk = f.select_key([](const str& v) { return v; }, named::as("by-value"));
    auto fm = f.flat_map_values([](const str& v) { return split(v, '-'); }, named::as("parts"));
    auto m = sk.merge(fm, named::as("merged"));
    m.group_by_key(grouped<>::as("grp"))
        .count(named::as("counter"), materialized<>::as("count-store"))
        .to_stream(named::as("count-out"))
        .to("out-count", produced<>{}.with_name("count-sink"));
    m.map([](const str& k, const str& v) { return std::pair<str, str>(v, k); }, named::as("swap"))
        .to("out-swap", produced<>{}.with_name("swap-sink"));
    auto t = b.table<str, str>("tin", consumed<>{}.with_name("table-src"), materialized<>::as("tin-store"));
    t.filter([](const str& v) { return v.size() < 3; }, named::as("short"))
        .map_values([](const str& v) { return v + "!"; }, named::as("bang"))
        .group_by([](const str& k, const str& v) { return std::pair<str, str>(v, k); }, grouped<>::as("regroup"))
        .aggregate([] { return str(); }, [](const str&, const str& v, const str& a) { return a + "+" + v; },
                   [](const str&, const str& v, const str& a) { return a + "-" + v; }, named::as("agg"),
                   materialized<>::as("agg-store"))
        .to_stream(named::as("agg-out"))
        .to("out-agg", produced<>{}.with_name("agg-to"));
    harness h("named_operators_everywhere", b.build());
    h.input("in", s, s).input("tin", s, s).output("out-count", s, l).output("out-swap", s, s).output("out-agg", s, s);
    h.pipe("in", S("1"), S("a-b"), 1);
    h.pipe("in", S("2"), S(""), 2);
    h.pipe("in", S("3"), S("a"), 3);
    h.pipe("tin", S("x"), S("p"), 4);
    h.pipe("tin", S("y"), S("p"), 5);
    h.pipe("tin", S("x"), S("long"), 6);
    h.pipe("tin", S("y"), S("q"), 7);
    h.pipe("tin", S("z"), null, 8);
    h.finish();
}

TEST_CASE("wall_clock_punctuation_into_repartition") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<str, str>(stores::in_memory_key_value_store("buffer")));
    auto p = b.stream<str, str>("in").process([] { return std::make_unique<buffer_processor>(); }, named::as("buffer-proc"), {"buffer"});
    p.to("out-flushed");
    p.group_by_key().count(materialized<>::as("flushed-count").with_caching_disabled()).to_stream().to("out-count");
    harness h("wall_clock_punctuation_into_repartition", b.build());
    h.input("in", s, s).output("out-flushed", s, s).output("out-count", s, l);
    h.pipe("in", S("a"), S("x"), 1);
    h.pipe("in", S("b"), S("y"), 2);
    h.pipe("in", S("a"), S("z"), 3);
    h.advance_wall_clock(60);
    h.advance_wall_clock(60);
    h.pipe("in", S("c"), S("x"), 4);
    h.advance_wall_clock(30);
    h.advance_wall_clock(100);
    h.finish();
}

TEST_CASE("merge_timestamps_aggregations") {
    streams_builder b;
    auto a = b.stream<str, str>("in-a");
    auto c = b.stream<str, str>("in-b");
    a.merge(c).group_by_key().reduce([](const str& x, const str& y) { return x + y; }).to_stream().to("out-reduce");
    a.select_key([](const str& v) { return v; }).merge(c, named::as("m2")).group_by_key().count().to_stream().to("out-count");
    harness h("merge_timestamps_aggregations", b.build());
    h.input("in-a", s, s).input("in-b", s, s).output("out-reduce", s, s).output("out-count", s, l);
    h.pipe("in-a", S("k"), S("1"), 50);
    h.pipe("in-b", S("k"), S("2"), 10);
    h.pipe("in-b", S("1"), S("3"), 70);
    h.pipe("in-a", S("j"), S("k"), 60);
    h.pipe("in-a", S("k"), S("4"), 20);
    h.pipe("in-b", S("k"), S("5"), 80);
    h.finish();
}

TEST_CASE("table_group_by_key_changes") {
    streams_builder b;
    auto t = b.table<str, str>("in");
    auto g = t.group_by([](const str& k, const str& v) { return std::pair<str, str>(v.substr(0, 1), k + ":" + v); });
    g.count().to_stream().to("out-count");
    g.aggregate([] { return str(); }, [](const str&, const str& v, const str& a) { return a + "+" + v; },
                [](const str&, const str& v, const str& a) { return a + "-" + v; },
                materialized<>::as("agg").with_caching_disabled())
        .to_stream()
        .to("out-agg");
    harness h("table_group_by_key_changes", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-agg", s, s);
    h.pipe("in", S("a"), S("x1"), 10);
    h.pipe("in", S("a"), S("x2"), 11);
    h.pipe("in", S("a"), S("y1"), 12);
    h.pipe("in", S("b"), null, 13);
    h.pipe("in", S("c"), S("y3"), 14);
    h.pipe("in", S("c"), S("y3"), 15);
    h.pipe("in", S("a"), null, 16);
    h.pipe("in", S("a"), null, 17);
    h.pipe("in", S("c"), S("x3"), 9);
    h.finish();
}

TEST_CASE("table_to_stream_rekeyed") {
    streams_builder b;
    auto t = b.table<str, ostr>("in");
    t.to_stream()
        .map([](const str& k, const ostr& v) { return std::pair<str, str>(v ? *v : str("none"), k); })
        .group_by_key()
        .count()
        .to_stream()
        .to("out-count");
    t.to_stream()
        .filter([](const ostr& v) { return v.has_value(); })
        .select_key([](const str& k, const ostr& v) { return *v + k; })
        .to_table(materialized<>::as("rekeyed").with_caching_disabled())
        .to_stream()
        .to(topic_name_extractor<str, ostr>([](const record<str, ostr>& r) {
            return r.value ? "out-" + r.value->substr(0, 1) : str("out-deleted");
        }));
    harness h("table_to_stream_rekeyed", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-x", s, s).output("out-y", s, s).output("out-deleted", s, s);
    h.pipe("in", S("a"), S("x"), 1);
    h.pipe("in", S("b"), S("y"), 2);
    h.pipe("in", S("a"), null, 3);
    h.pipe("in", S("c"), null, 4);
    h.pipe("in", S("b"), S("x"), 5);
    h.finish();
}

TEST_CASE("select_key_null_keys") {
    streams_builder b;
    auto st = b.stream<ostr, str>("in").select_key([](const str& v) { return v == "n" ? ostr() : ostr(v); });
    st.group_by_key().reduce([](const str& x, const str& y) { return x + y; }).to_stream().to("out-reduce");
    st.repartition().map_values([](const ostr& k, const str& v) { return show(k) + ":" + v; }).to("out-rp");
    harness h("select_key_null_keys", b.build());
    h.input("in", s, s).output("out-reduce", s, s).output("out-rp", s, s);
    h.pipe("in", S("1"), S("x"), 1);
    h.pipe("in", S("2"), S("n"), 2);
    h.pipe("in", S("3"), S("x"), 3);
    h.pipe("in", null, S("y"), 4);
    h.finish();
}

TEST_CASE("to_table_variants") {
    streams_builder b;
    auto st = b.stream<ostr, ostr>("in");
    st.to_table(materialized<>::as("tt").with_caching_disabled())
        .group_by([](const ostr& k, const ostr& v) { return std::pair<ostr, ostr>(v, k); })
        .count()
        .to_stream()
        .to("out-count");
    st.map_values([](const ostr& v) { return v ? ostr(*v + "!") : ostr(); })
        .to_table(named::as("tt2"))
        .filter([](const ostr& v) { return v->rfind('b', 0) != 0; })
        .to_stream()
        .to("out-filter");
    st.map([](const ostr& k, const ostr& v) { return std::pair<ostr, ostr>(v, k); }).to_table().to_stream().to("out-swapped");
    harness h("to_table_variants", b.build());
    h.input("in", s, s).output("out-count", s, l).output("out-filter", s, s).output("out-swapped", s, s);
    h.pipe("in", S("a"), S("a1"), 1);
    h.pipe("in", S("b"), S("b1"), 2);
    h.pipe("in", null, S("c1"), 3);
    h.pipe("in", S("a"), S("b2"), 4);
    h.pipe("in", S("b"), null, 5);
    h.pipe("in", S("c"), S("a1"), 6);
    h.pipe("in", S("a"), null, 7);
    h.finish();
}

TEST_CASE("aggregations_returning_null") {
    streams_builder b;
    auto g = b.stream<str, ostr>("in").group_by_key();
    g.reduce([](const ostr& x, const ostr& y) { return *y == "reset" ? ostr() : ostr(*x + *y); },
             materialized<>::as("red").with_caching_disabled())
        .to_stream()
        .to("out-reduce");
    g.aggregate([] { return ostr("i"); }, [](const str&, const ostr& v, const ostr& a) { return *v == "reset" ? ostr() : ostr(*a + *v); },
                materialized<>::as("agg"))
        .to_stream()
        .to("out-agg");
    b.table<str, str>("tin").map_values([](const str& v) { return v == "drop" ? ostr() : ostr(v + "!"); }).to_stream().to("out-mv");
    b.table<str, str>("tin2")
        .group_by([](const str&, const str& v) { return std::pair<str, ostr>("all", v); })
        .reduce([](const ostr& x, const ostr& y) { return ostr(*x + *y); },
                [](const ostr& x, const ostr& y) { return *x == *y ? ostr() : ostr(without(*x, *y)); },
                materialized<>::as("tred").with_caching_disabled())
        .to_stream()
        .to("out-table-reduce");
    harness h("aggregations_returning_null", b.build());
    h.input("in", s, s).input("tin", s, s).input("tin2", s, s);
    h.output("out-reduce", s, s).output("out-agg", s, s).output("out-mv", s, s).output("out-table-reduce", s, s);
    h.pipe("in", S("a"), S("1"), 1);
    h.pipe("in", S("a"), S("2"), 2);
    h.pipe("in", S("a"), S("reset"), 3);
    h.pipe("in", S("a"), S("3"), 4);
    h.pipe("in", S("a"), S("reset"), 5);
    h.pipe("in", S("a"), S("reset"), 6);
    h.pipe("tin", S("k"), S("v"), 7);
    h.pipe("tin", S("k"), S("drop"), 8);
    h.pipe("tin", S("k"), S("w"), 9);
    h.pipe("tin2", S("p"), S("x"), 10);
    h.pipe("tin2", S("q"), S("y"), 11);
    h.pipe("tin2", S("p"), null, 12);
    h.pipe("tin2", S("q"), null, 13);
    h.pipe("tin2", S("q"), S("z"), 14);
    h.finish();
}

TEST_CASE("long_key_store_order") {
    streams_builder b;
    b.add_state_store(stores::key_value_store_builder<i64, str>(stores::persistent_key_value_store("nums")));
    b.stream<i64, ostr>("in").process([] { return std::make_unique<long_keys_processor>(); }, named::as("nums-proc"), {"nums"}).to("out");
    harness h("long_key_store_order", b.build());
    h.input("in", l, s).output("out", s, s);
    h.pipe("in", L(5), S("five"), 1);
    h.pipe("in", L(-1), S("minus-one"), 2);
    h.pipe("in", L(300), S("three-hundred"), 3);
    h.pipe("in", L(0), S("zero"), 4);
    h.pipe("in", L(-300), S("minus-300"), 5);
    h.pipe("in", L(5), null, 6);
    h.pipe("in", L(7), S("seven"), 7);
    h.finish();
}

TEST_CASE("punctuation_after_repartition") {
    streams_builder b;
    b.stream<str, str>("in")
        .select_key([](const str& v) { return v; })
        .repartition(repartitioned<>::as("rk"))
        .process([] { return std::make_unique<ticking_processor>(); }, named::as("ticking"))
        .to("out");
    b.stream<str, str>("other").map_values([](const str& v) { return v + "!"; }).to("out-other");
    harness h("punctuation_after_repartition", b.build());
    h.input("in", s, s).input("other", s, s).output("out", s, s).output("out-other", s, s);
    h.pipe("in", S("a"), S("x"), 5);
    h.pipe("other", S("b"), S("y"), 12);
    h.pipe("other", S("b"), S("y"), 31);
    h.pipe("in", S("c"), S("z"), 8);
    h.pipe("in", S("d"), S("w"), 45);
    h.pipe("other", S("e"), S("v"), 44);
    h.finish();
}

TEST_CASE("aggregate_null_without_row") {
    streams_builder b;
    auto g = b.stream<str, str>("in").group_by_key();
    const auto add = [](const str&, const str& v, const ostr& a) { return v == "null" ? ostr() : ostr(*a + v); };
    g.aggregate([] { return ostr("i"); }, add, materialized<>::as("unc").with_caching_disabled()).to_stream().to("out-uncached");
    g.aggregate([] { return ostr("i"); }, add, materialized<>::as("cac")).to_stream().to("out-cached");
    b.table<str, str>("tin")
        .group_by([](const str&, const str& v) { return std::pair<str, str>("g", v); })
        .aggregate([] { return ostr(""); }, [](const str&, const str& v, const ostr& a) { return ostr(*a + v); },
                   [](const str&, const str& v, const ostr& a) { return *a == v ? ostr() : ostr(without(*a, v)); },
                   materialized<>::as("tagg"))
        .to_stream()
        .to("out-table");
    harness h("aggregate_null_without_row", b.build());
    h.input("in", s, s).input("tin", s, s).output("out-uncached", s, s).output("out-cached", s, s).output("out-table", s, s);
    h.pipe("in", S("a"), S("null"), 1);
    h.pipe("in", S("a"), S("1"), 2);
    h.pipe("in", S("a"), S("null"), 3);
    h.pipe("in", S("a"), S("null"), 4);
    h.pipe("tin", S("p"), S("x"), 5);
    h.pipe("tin", S("p"), S("y"), 6);
    h.pipe("tin", S("q"), S("z"), 7);
    h.pipe("tin", S("p"), null, 8);
    h.pipe("tin", S("q"), null, 9);
    h.pipe("tin", S("q"), S("w"), 10);
    h.finish();
}

TEST_CASE("empty_strings_and_long_keys") {
    streams_builder b;
    auto st = b.stream<ostr, str>("in");
    st.group_by_key().count().to_stream().to("out-count");
    st.group_by([](const str& v) { return static_cast<i64>(v.size()) - 1; })
        .reduce([](const str& x, const str& y) { return x + "|" + y; })
        .to_stream()
        .map_values([](const str& v) { return static_cast<std::int32_t>(v.size()); })
        .to("out-by-length");
    b.table<str, str>("tin").filter([](const str& v) { return v.empty(); }).to_stream().to("out-table");
    harness h("empty_strings_and_long_keys", b.build());
    h.input("in", s, s).input("tin", s, s).output("out-count", s, l).output("out-by-length", l, type::i).output("out-table", s, s);
    h.pipe("in", S(""), S(""), 1);
    h.pipe("in", S(""), S("ab"), 2);
    h.pipe("in", null, S(""), 3);
    h.pipe("in", S("k"), S(""), 4);
    h.pipe("in", S("k"), S("xy"), 5);
    h.pipe("tin", S(""), S(""), 6);
    h.pipe("tin", S(""), S("z"), 7);
    h.pipe("tin", S("a"), S(""), 8);
    h.pipe("tin", S("a"), null, 9);
    h.finish();
}

TEST_CASE("papi_fan_in_connected_store") {
    topology t;
    t.add_source<str, str>("s1", {"in-1"});
    t.add_source<str, str>("s2", {"in-2", "in-3"});
    t.add_processor("pairing", [] { return std::make_unique<pairing_processor>(); }, {"s1", "s2"});
    t.add_state_store(stores::key_value_store_builder<str, str>(stores::in_memory_key_value_store("pairs")));
    t.connect_processor_and_state_stores("pairing", {"pairs"});
    t.add_processor("upper", [] { return std::make_unique<upper_processor>(); }, {"pairing"});
    t.add_sink<str, str>("out-sink", "out", {"pairing", "upper"});
    harness h("papi_fan_in_connected_store", std::move(t));
    h.input("in-1", s, s).input("in-2", s, s).input("in-3", s, s).output("out", s, s);
    h.pipe("in-1", S("a"), S("x"), 1);
    h.pipe("in-2", S("a"), S("y"), 2);
    h.pipe("in-3", S("b"), S("z"), 3);
    h.pipe("in-3", S("a"), S("w"), 0);
    h.finish();
}

TEST_CASE("punctuations_scheduled_late") {
    streams_builder b;
    b.stream<str, str>("in").process([] { return std::make_unique<late_scheduler>(); }, named::as("late")).to("out");
    harness h("punctuations_scheduled_late", b.build());
    h.input("in", s, s).output("out", s, s);
    h.advance_wall_clock(30);
    h.pipe("in", S("a"), S("1"), 100);
    h.advance_wall_clock(40);
    h.advance_wall_clock(10);
    h.advance_wall_clock(120);
    h.pipe("in", S("a"), S("2"), 103);
    h.advance_wall_clock(100);
    h.pipe("in", S("a"), S("3"), 104);
    h.pipe("in", S("a"), S("4"), 112);
    h.pipe("in", S("a"), S("5"), 140);
    h.pipe("in", S("a"), S("6"), 141);
    h.finish();
}

TEST_CASE("repartition_queues_by_timestamp") {
    streams_builder b;
    auto br = b.stream<str, str>("in")
                  .process([] { return std::make_unique<fan_out_processor>(); }, named::as("fan"))
                  .split(named::as("by-key-"))
                  .branch([](const str& k, const str&) { return k == "a"; }, branched::as("a"))
                  .branch([](const str& k, const str&) { return k == "b"; }, branched::as("b"))
                  .default_branch(branched::as("other"));
    auto r1 = br.at("by-key-a").repartition(repartitioned<>::as("r1"));
    auto r2 = br.at("by-key-b").repartition(repartitioned<>::as("r2"));
    auto r3 = br.at("by-key-other").repartition(repartitioned<>::as("r3"));
    r1.merge(r2).merge(r3).process([] { return std::make_unique<info_processor>(); }, named::as("info")).to("out");
    harness h("repartition_queues_by_timestamp", b.build());
    h.input("in", s, s).output("out", s, s);
    h.pipe("in", S("k1"), S("a@5,b@3,c@3,a@1,b@1,c@9"), 10);
    h.pipe("in", S("k2"), S("c@2,b@2,a@2"), 11);
    h.pipe("in", S("k3"), S("b@7,a@7,b@6,c@7,a@0,c@8"), 12);
    h.finish();
}

}  // TEST_SUITE
