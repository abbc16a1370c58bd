package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Joined;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KGroupedTable;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.Suppressed.BufferConfig;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Scenarios of the thirteenth conformance hunt (tests/conformance/hunt13_scenarios_test.cpp writes
 * the same with the kstreams DSL): windows with out-of-order and late records over several keys in
 * both emit strategies, cached and uncached; session merges of three sessions and late merges;
 * suppression with small eager buffers; table regroupings whose key changes; chains of table views
 * into joins; three-table join chains with tombstones first; foreign keys flipping back and forth;
 * null keys and values at stream-table and stream-global-table joins; versioned tables with a join
 * grace; repartitions with partition counts; merges of re-keyed streams; split chains; flat_map
 * with repeated keys; to_table regroupings; timestamps and headers of outputs.
 */
final class Hunt13Scenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());
    static final Produced<String, Long> PSL = Produced.with(Serdes.String(), Serdes.Long());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    static <V> void showTo(KTable<Windowed<String>, V> t, String topic, Produced<String, V> p) {
        WindowKindScenarios.showTo(t, topic, p);
    }

    static String slash(String k, String v, String agg) { return agg + "/" + v; }

    static Materialized<String, String, KeyValueStore<Bytes, byte[]>> kv(String name, boolean cached) {
        Materialized<String, String, KeyValueStore<Bytes, byte[]>> m = Materialized.as(name);
        return cached ? m : m.withCachingDisabled();
    }

    /** Pipes a record, then prints the drops counted so far. */
    static void pipeCounted(Harness h, String topic, String key, String value, long ts) {
        h.pipe(topic, key, value, ts);
        h.dropped();
    }

    /** Several keys, out of order, late for some windows: tumbling/hopping inputs. */
    static void windowInputs(Harness h) {
        h.pipe("in", "a", "a1", 1);
        h.pipe("in", "b", "b2", 2);
        h.pipe("in", "a", "a8", 8);
        h.pipe("in", "c", "c5", 5);
        h.pipe("in", "a", "a12", 12);
        h.pipe("in", "b", "b3", 3);
        h.pipe("in", "b", "b14", 14);
        h.pipe("in", "a", "a6", 6);
        h.pipe("in", "c", "c20", 20);
        h.pipe("in", "a", "a9", 9);
        h.pipe("in", "b", "b10", 10);
        h.pipe("in", "a", "a21", 21);
        h.pipe("in", "c", "c13", 13);
        h.pipe("in", "a", "a30", 30);
        h.pipe("in", "b", "b22", 22);
        h.pipe("in", "a", "a17", 17);
        h.pipe("in", "c", "c45", 45);
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // Hopping windows of 7 ms advancing by 3 (the size no multiple of the advance), grace 2:
        // emit on update (cached count, uncached aggregate) and on close, several keys, late records.
        scenarios.put("hopping_uneven_emit_both", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            TimeWindows w = TimeWindows.ofSizeAndGrace(Duration.ofMillis(7), Duration.ofMillis(2)).advanceBy(Duration.ofMillis(3));
            showTo(g.windowedBy(w).count(), "out-count", PSL);
            showTo(g.windowedBy(w).aggregate(() -> "", Hunt13Scenarios::slash,
                Materialized.<String, String, org.apache.kafka.streams.state.WindowStore<Bytes, byte[]>>as("hop-agg").withCachingDisabled()),
                "out-agg", PSS);
            showTo(g.windowedBy(w).emitStrategy(EmitStrategy.onWindowClose()).aggregate(() -> "", Hunt13Scenarios::slash,
                Materialized.as("hop-close")), "out-close", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-count", S, L).output("out-agg", S, S).output("out-close", S, S);
            windowInputs(h);
            h.dropped();
            h.finish();
        });

        // Tumbling windows of 10 ms, grace 3: cached and uncached reduce, emit on close with a
        // cached and an uncached store, late records per key counted.
        scenarios.put("tumbling_cached_uncached_late", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            TimeWindows w = TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(3));
            showTo(g.windowedBy(w).reduce((x, y) -> x + "+" + y), "out-cached", PSS);
            showTo(g.windowedBy(w).reduce((x, y) -> x + "+" + y,
                Materialized.<String, String, org.apache.kafka.streams.state.WindowStore<Bytes, byte[]>>as("tum-uncached").withCachingDisabled()),
                "out-uncached", PSS);
            showTo(g.windowedBy(w).emitStrategy(EmitStrategy.onWindowClose()).reduce((x, y) -> x + "+" + y,
                Materialized.<String, String, org.apache.kafka.streams.state.WindowStore<Bytes, byte[]>>as("tum-close").withCachingDisabled()),
                "out-close", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-cached", S, S).output("out-uncached", S, S).output("out-close", S, S);
            windowInputs(h);
            h.dropped();
            h.finish();
        });

        // Sessions of gap 5, grace 10: three sessions merged by two bridging records, a late
        // record merging within the grace, one whose merge would end too early (dropped).
        scenarios.put("session_three_merges_late", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            SessionWindows w = SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(5), Duration.ofMillis(10));
            showTo(g.windowedBy(w).count(), "out-count", PSL);
            showTo(g.windowedBy(w).aggregate(() -> "", Hunt13Scenarios::slash, (k, x, y) -> "[" + x + "|" + y + "]",
                Materialized.<String, String, org.apache.kafka.streams.state.SessionStore<Bytes, byte[]>>as("sess-agg").withCachingDisabled()),
                "out-agg", PSS);
            showTo(g.windowedBy(w).reduce((x, y) -> x + "+" + y), "out-reduce", PSS);
            showTo(g.windowedBy(w).emitStrategy(EmitStrategy.onWindowClose()).reduce((x, y) -> x + "+" + y,
                Materialized.as("sess-close")), "out-close", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-count", S, L).output("out-agg", S, S).output("out-reduce", S, S).output("out-close", S, S);
            h.pipe("in", "a", "a0", 0);
            h.pipe("in", "a", "a10", 10);
            h.pipe("in", "a", "a20", 20);
            h.pipe("in", "b", "b3", 3);
            h.pipe("in", "a", "a5", 5);
            h.pipe("in", "a", "a15", 15);
            h.pipe("in", "b", "b12", 12);
            h.pipe("in", "a", "a3", 3);
            h.pipe("in", "b", "b8", 8);
            h.pipe("in", "a", "a40", 40);
            h.pipe("in", "a", "a22", 22);
            h.pipe("in", "b", "b27", 27);
            h.pipe("in", "a", "a31", 31);
            h.pipe("in", "a", "a36", 36);
            h.pipe("in", "b", "b60", 60);
            h.dropped();
            h.finish();
        });

        // Sliding windows of difference 5, grace 4, over several keys with records out of order
        // (new left and right windows created behind stream time), cached and uncached, on close.
        scenarios.put("sliding_out_of_order_keys", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            SlidingWindows w = SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(5), Duration.ofMillis(4));
            showTo(g.windowedBy(w).count(), "out-count", PSL);
            showTo(g.windowedBy(w).aggregate(() -> "", Hunt13Scenarios::slash,
                Materialized.<String, String, org.apache.kafka.streams.state.WindowStore<Bytes, byte[]>>as("sl-agg").withCachingDisabled()),
                "out-agg", PSS);
            showTo(g.windowedBy(w).emitStrategy(EmitStrategy.onWindowClose()).aggregate(() -> "", Hunt13Scenarios::slash,
                Materialized.as("sl-close")), "out-close", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-count", S, L).output("out-agg", S, S).output("out-close", S, S);
            windowInputs(h);
            h.dropped();
            h.finish();
        });

        // Suppress until a time limit with eager buffers of 1 and 2 records and of a few bytes:
        // the oldest record is emitted early when full; a key updated in the buffer keeps its place.
        scenarios.put("suppress_eager_small_buffers", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", SS);
            t.suppress(Suppressed.untilTimeLimit(Duration.ofMillis(10), BufferConfig.maxRecords(1).emitEarlyWhenFull()))
                .toStream().to("out-one", PSS);
            t.suppress(Suppressed.untilTimeLimit(Duration.ofMillis(10), BufferConfig.maxRecords(2).emitEarlyWhenFull())
                    .withName("two"))
                .toStream().to("out-two", PSS);
            t.suppress(Suppressed.untilTimeLimit(Duration.ofMillis(10), BufferConfig.maxBytes(120).emitEarlyWhenFull()))
                .toStream().to("out-bytes", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-one", S, S).output("out-two", S, S).output("out-bytes", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "b", "2", 2);
            h.pipe("in", "a", "3", 3);
            h.pipe("in", "c", "4", 4);
            h.pipe("in", "c", null, 5);
            h.pipe("in", "d", "6", 6);
            h.pipe("in", "a", "7", 12);
            h.pipe("in", "b", "8", 13);
            h.pipe("in", "e", "9", 14);
            h.pipe("in", "e", "10", 30);
            h.finish();
        });

        // Final results of hopping windows (size 10, advance 4, no grace) and of sessions (gap 3,
        // no grace) over several keys, with merges: one record per window or session, after close.
        scenarios.put("suppress_final_hopping_sessions", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)).advanceBy(Duration.ofMillis(4)))
                    .count().suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())),
                "out-hopping", PSL);
            showTo(g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(3)))
                    .reduce((x, y) -> x + "+" + y)
                    .suppress(Suppressed.untilWindowCloses(BufferConfig.maxRecords(10).shutDownWhenFull())),
                "out-sessions", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-hopping", S, L).output("out-sessions", S, S);
            windowInputs(h);
            h.finish();
        });

        // A table regrouped by the value's first letter with the old key in the new value:
        // aggregate (cached and uncached) and reduce see the subtractor before the adder, in the
        // old group, also when the group stays the same.
        scenarios.put("table_regroup_key_change_order", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedTable<String, String> g = b.table("in", SS)
                .groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k + ":" + v), Grouped.as("by-letter"));
            g.aggregate(() -> "", (k, v, agg) -> agg + "+" + v, (k, v, agg) -> agg + "-" + v, kv("agg-uncached", false))
                .toStream().to("out-uncached", PSS);
            g.aggregate(() -> "", (k, v, agg) -> agg + "+" + v, (k, v, agg) -> agg + "-" + v, kv("agg-cached", true))
                .toStream().to("out-cached", PSS);
            g.reduce((x, y) -> x + "&" + y, (x, y) -> x + "~" + y, kv("red", false)).toStream().to("out-reduce", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-uncached", S, S).output("out-cached", S, S).output("out-reduce", S, S);
            h.pipe("in", "k1", "x1", 1);
            h.pipe("in", "k2", "x2", 2);
            h.pipe("in", "k1", "x3", 3);
            h.pipe("in", "k1", "y4", 4);
            h.pipe("in", "k2", "y5", 5);
            h.pipe("in", "k3", null, 6);
            h.pipe("in", "k1", null, 7);
            h.pipe("in", "k1", "y8", 8);
            h.pipe("in", "k2", "y5", 9);
            h.pipe("in", "k2", "x10", 3);
            h.finish();
        });

        // Chains of views into joins: an unmaterialized filter then a materialized map_values
        // joined with a table; an unmaterialized map_values left-joined and then filtered; the
        // filter read by a stream-table join.
        scenarios.put("table_view_chains_into_joins", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> left = b.table("left", SS);
            KTable<String, String> right = b.table("right", SS);
            KTable<String, String> f = left.filter((k, v) -> !v.startsWith("x"));
            KTable<String, String> mv = f.mapValues(v -> v.toUpperCase(), Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("mv")
                .withValueSerde(Serdes.String()));
            mv.join(right, (x, y) -> x + "*" + y).toStream().to("out-join", PSS);
            left.mapValues(v -> v + "!").leftJoin(right, (x, y) -> x + "*" + show(y))
                .filter((k, v) -> !v.endsWith("null")).toStream().to("out-left-filtered", PSS);
            b.stream("events", SS).join(f, (e, v) -> e + "@" + v).to("out-stream", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).input("events", S, S)
                .output("out-join", S, S).output("out-left-filtered", S, S).output("out-stream", S, S);
            h.pipe("right", "a", "R1", 1);
            h.pipe("left", "a", "l2", 2);
            h.pipe("events", "a", "e3", 3);
            h.pipe("left", "a", "xl4", 4);
            h.pipe("events", "a", "e5", 5);
            h.pipe("left", "b", "l6", 6);
            h.pipe("right", "b", "R7", 7);
            h.pipe("right", "a", null, 8);
            h.pipe("left", "a", "l9", 9);
            h.pipe("left", "b", null, 10);
            h.pipe("events", "b", "e11", 11);
            h.pipe("right", "a", "R12", 12);
            h.pipe("left", "a", "xl13", 13);
            h.finish();
        });

        // Three tables joined in a chain: inner, then left, then outer, with tombstones arriving
        // before any value; result timestamps are the largest of the rows joined.
        scenarios.put("three_table_join_chain", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t1 = b.table("t1", SS);
            KTable<String, String> t2 = b.table("t2", SS);
            KTable<String, String> t3 = b.table("t3", SS);
            KTable<String, String> j12 = t1.join(t2, (x, y) -> x + "," + y);
            j12.leftJoin(t3, (x, y) -> x + "," + show(y)).toStream().to("out-left", PSS);
            j12.outerJoin(t3, (x, y) -> show(x) + "," + show(y)).toStream().to("out-outer", PSS);
            t1.outerJoin(t2, (x, y) -> show(x) + "|" + show(y)).outerJoin(t3, (x, y) -> show(x) + "|" + show(y))
                .toStream().to("out-outer3", PSS);
            Harness h = new Harness(b.build(), out).input("t1", S, S).input("t2", S, S).input("t3", S, S)
                .output("out-left", S, S).output("out-outer", S, S).output("out-outer3", S, S);
            h.pipe("t3", "k", null, 1);
            h.pipe("t1", "k", null, 2);
            h.pipe("t2", "k", null, 3);
            h.pipe("t1", "k", "A", 10);
            h.pipe("t3", "k", "C", 5);
            h.pipe("t2", "k", "B", 7);
            h.pipe("t3", "k", "C2", 20);
            h.pipe("t1", "k", null, 15);
            h.pipe("t2", "k", "B2", 16);
            h.pipe("t1", "k", "A2", 12);
            h.pipe("t3", "k", null, 25);
            h.pipe("t2", "k", null, 30);
            h.pipe("t3", "m", "M", 4);
            h.finish();
        });

        // A foreign key changing back and forth (c1, c2, c1, none, c1) while the right row is
        // deleted and re-inserted; inner and left.
        scenarios.put("fk_join_key_flips", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS);
            KTable<String, String> customers = b.table("customers", SS);
            orders.join(customers, v -> v.startsWith("none") ? null : v.substring(0, v.indexOf(':')), (o, c) -> o + "/" + c)
                .toStream().to("out-inner", PSS);
            orders.leftJoin(customers, v -> v.startsWith("none") ? null : v.substring(0, v.indexOf(':')), (o, c) -> o + "/" + show(c))
                .toStream().to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S)
                .output("out-inner", S, S).output("out-left", S, S);
            h.pipe("customers", "c1", "Ann", 1);
            h.pipe("customers", "c2", "Ben", 2);
            h.pipe("orders", "o1", "c1:a", 3);
            h.pipe("orders", "o1", "c2:b", 4);
            h.pipe("orders", "o1", "c1:c", 5);
            h.pipe("customers", "c1", null, 6);
            h.pipe("orders", "o1", "c1:d", 7);
            h.pipe("customers", "c1", "Ann2", 8);
            h.pipe("orders", "o1", "none", 9);
            h.pipe("orders", "o1", "c1:e", 10);
            h.pipe("customers", "c2", null, 11);
            h.pipe("orders", "o1", "c2:f", 12);
            h.pipe("customers", "c2", "Ben2", 13);
            h.pipe("orders", "o1", "c2:f", 14);
            h.pipe("orders", "o1", null, 15);
            h.pipe("customers", "c2", "Ben3", 16);
            h.finish();
        });

        // Null keys and values at stream-table and stream-global-table joins: the table ignores
        // null keys, the stream drops null keys (and null values for inner joins), a global join's
        // key mapper returning null joins with null on the left join; counted.
        scenarios.put("stream_table_global_nulls", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("table", SS);
            GlobalKTable<String, String> gt = b.globalTable("global", SS);
            KStream<String, String> s = b.stream("in", SS);
            s.join(t, (v, r) -> show(v) + "@" + r).to("out-inner", PSS);
            s.leftJoin(t, (v, r) -> show(v) + "@" + show(r)).to("out-left", PSS);
            s.join(gt, (k, v) -> v == null ? k : (v.startsWith("n") ? null : v), (k, v, r) -> show(k) + ":" + show(v) + "@" + r)
                .to("out-ginner", PSS);
            s.leftJoin(gt, (k, v) -> v == null ? k : (v.startsWith("n") ? null : v), (k, v, r) -> show(k) + ":" + show(v) + "@" + show(r))
                .to("out-gleft", PSS);
            Harness h = new Harness(b.build(), out).input("table", S, S).input("global", S, S).input("in", S, S)
                .output("out-inner", S, S).output("out-left", S, S).output("out-ginner", S, S).output("out-gleft", S, S);
            pipeCounted(h, "table", "k", "T", 1);
            pipeCounted(h, "table", null, "Tn", 2);
            pipeCounted(h, "global", "g", "G", 3);
            pipeCounted(h, "global", null, "Gn", 4);
            pipeCounted(h, "global", "k", "Gk", 5);
            pipeCounted(h, "in", "k", "g", 6);
            pipeCounted(h, "in", "k", null, 7);
            pipeCounted(h, "in", null, "g", 8);
            pipeCounted(h, "in", null, null, 9);
            pipeCounted(h, "in", "k", "nope", 10);
            pipeCounted(h, "in", "z", "k", 11);
            pipeCounted(h, "global", "g", null, 12);
            pipeCounted(h, "in", "k", "g", 13);
            pipeCounted(h, "table", "k", null, 14);
            pipeCounted(h, "in", "k", "k", 15);
            h.finish();
        });

        // A versioned table (history 30) with updates out of order, joined by a stream with a grace
        // of 5 (inner and left): stream records join in timestamp order, as of their own times.
        scenarios.put("versioned_out_of_order_grace", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> users = b.table("users", SS,
                Materialized.as(Stores.persistentVersionedKeyValueStore("vusers", Duration.ofMillis(30))));
            KStream<String, String> orders = b.stream("orders", SS);
            orders.join(users, (o, u) -> o + "@" + u, Joined.<String, String, String>as("vj").withGracePeriod(Duration.ofMillis(5)))
                .to("out-inner", PSS);
            orders.leftJoin(users, (o, u) -> o + "@" + show(u), Joined.<String, String, String>as("vl").withGracePeriod(Duration.ofMillis(5)))
                .to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("users", S, S).input("orders", S, S)
                .output("out-inner", S, S).output("out-left", S, S);
            h.pipe("users", "u", "v10", 10);
            h.pipe("users", "u", "v20", 20);
            h.pipe("users", "u", "v15", 15);
            h.pipe("orders", "u", "o17", 17);
            h.pipe("orders", "u", "o12", 12);
            h.pipe("users", "u", "v11", 11);
            h.pipe("orders", "u", "o21", 21);
            h.pipe("orders", "u", "o9", 9);
            h.pipe("users", "u", null, 18);
            h.pipe("orders", "u", "o19", 19);
            h.pipe("orders", "w", "o22", 22);
            h.pipe("users", "w", "w5", 5);
            h.pipe("orders", "u", "o30", 30);
            h.pipe("orders", "w", "o6", 6);
            h.pipe("orders", "u", "o40", 40);
            h.dropped();
            h.finish();
        });

        // repartition() with a partition count after select_key, then a count; a second select_key
        // grouped by key under a name; a third with Repartitioned serdes only.
        scenarios.put("repartition_counts_and_groupings", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.selectKey((k, v) -> v.substring(0, 1))
                .repartition(Repartitioned.<String, String>as("rp3").withNumberOfPartitions(3))
                .groupByKey().count().toStream().to("out-rp", PSL);
            s.selectKey((k, v) -> v.substring(v.length() - 1)).groupByKey(Grouped.as("last"))
                .reduce((x, y) -> x + "+" + y).toStream().to("out-last", PSS);
            s.map((k, v) -> KeyValue.pair(k + k, v))
                .repartition(Repartitioned.with(Serdes.String(), Serdes.String()).withNumberOfPartitions(2))
                .groupByKey().count(Materialized.as("dbl")).toStream().to("out-dbl", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-rp", S, L).output("out-last", S, S).output("out-dbl", S, L);
            h.pipe("in", "k1", "ab", 1);
            h.pipe("in", "k2", "bb", 2);
            h.pipe("in", "k1", "ac", 3);
            h.pipe("in", null, "cb", 4);
            h.pipe("in", "k3", "a", 5);
            h.finish();
        });

        // Two re-keyed streams merged, then counted (one repartition after the merge) and joined
        // with a table; a re-keyed stream merged with a plain one.
        scenarios.put("merge_rekeyed_streams", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> a = b.stream("in-a", SS).selectKey((k, v) -> v.substring(0, 1));
            KStream<String, String> c = b.stream("in-b", SS).map((k, v) -> KeyValue.pair(v.substring(0, 1), k + v));
            KStream<String, String> m = a.merge(c);
            m.groupByKey().count().toStream().to("out-count", PSL);
            m.join(b.table("table", SS), (v, t) -> v + "@" + t).to("out-join", PSS);
            a.merge(b.stream("in-c", SS)).groupByKey().reduce((x, y) -> x + "+" + y).toStream().to("out-mixed", PSS);
            Harness h = new Harness(b.build(), out).input("in-a", S, S).input("in-b", S, S).input("in-c", S, S)
                .input("table", S, S).output("out-count", S, L).output("out-join", S, S).output("out-mixed", S, S);
            h.pipe("table", "x", "TX", 1);
            h.pipe("in-a", "k1", "x1", 2);
            h.pipe("in-b", "k2", "x2", 3);
            h.pipe("in-c", "x", "c4", 4);
            h.pipe("in-b", "k3", "y5", 5);
            h.pipe("in-a", "k4", "y6", 6);
            h.pipe("table", "y", "TY", 7);
            h.pipe("in-a", "k5", "y8", 8);
            h.pipe("in-c", "y", "c9", 9);
            h.finish();
        });

        // split with function branches that re-key and map, a default branch that counts; the
        // branches merged back.
        scenarios.put("split_rekeyed_branches", out -> {
            StreamsBuilder b = new StreamsBuilder();
            Map<String, KStream<String, String>> br = b.stream("in", SS).split(Named.as("s-"))
                .branch((k, v) -> v.startsWith("a"), Branched.withFunction(ks -> ks.selectKey((k, v) -> v), "a"))
                .branch((k, v) -> v.startsWith("b"), Branched.withFunction(ks -> ks.mapValues(v -> v + "!"), "b"))
                .defaultBranch(Branched.withFunction(ks -> {
                    ks.groupByKey().count().toStream().to("out-count", PSL);
                    return ks;
                }, "rest"));
            br.get("s-a").merge(br.get("s-b")).merge(br.get("s-rest")).to("out-all", PSS);
            br.get("s-a").groupByKey().count().toStream().to("out-a-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-all", S, S).output("out-count", S, L).output("out-a-count", S, L);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k2", "b2", 2);
            h.pipe("in", "k3", "c3", 3);
            h.pipe("in", "k1", "a1", 4);
            h.pipe("in", null, "c5", 5);
            h.pipe("in", "k3", "c6", 6);
            h.finish();
        });

        // flat_map giving several records with one key (and flat_map_values repeating values):
        // counted cached and uncached, reduced, and read into a table.
        scenarios.put("flat_map_repeated_keys", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            KStream<String, String> fm = s.flatMap((k, v) -> {
                List<KeyValue<String, String>> r = new ArrayList<>();
                for (String p : Main.split(v, ",")) r.add(KeyValue.pair(p.substring(0, 1), p));
                return r;
            });
            fm.groupByKey().count(Materialized.as("fm-cached")).toStream().to("out-cached", PSL);
            fm.groupByKey().count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("fm-uncached").withCachingDisabled())
                .toStream().to("out-uncached", PSL);
            s.flatMapValues(v -> Main.split(v, ",")).groupByKey().reduce((x, y) -> x + "+" + y, kv("fv-reduce", true))
                .toStream().to("out-fv", PSS);
            fm.toTable(Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("fm-table").withCachingDisabled())
                .toStream().to("out-table", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-cached", S, L).output("out-uncached", S, L).output("out-fv", S, S).output("out-table", S, S);
            h.pipe("in", "k1", "a1,a2,b1", 1);
            h.pipe("in", "k2", "b2,b3", 2);
            h.pipe("in", "k1", "a3", 0);
            h.pipe("in", "k1", "c1,c1,c1", 5);
            h.finish();
        });

        // to_table (with tombstones) regrouped and counted and aggregated; the regrouping sees the
        // table's old values.
        scenarios.put("to_table_regrouped", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.stream("in", SS).toTable(Materialized.as("tt"));
            t.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), v)).count().toStream().to("out-count", PSL);
            t.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k))
                .aggregate(() -> "", (k, v, agg) -> agg + "+" + v, (k, v, agg) -> agg + "-" + v, kv("tt-agg", false))
                .toStream().to("out-agg", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-agg", S, S);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k2", "a2", 2);
            h.pipe("in", "k1", "b1", 3);
            h.pipe("in", "k3", null, 4);
            h.pipe("in", "k2", null, 5);
            h.pipe("in", null, "a9", 6);
            h.pipe("in", "k1", "b2", 7);
            h.finish();
        });

        // Timestamps of table-table join results (the largest of both rows, also for deletes and
        // for left and outer results of one side) and of their map_values and filters.
        scenarios.put("table_join_timestamps", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> l = b.table("left", SS);
            KTable<String, String> r = b.table("right", SS);
            l.join(r, (x, y) -> x + y).mapValues(v -> v + "!").toStream().to("out-inner", PSS);
            l.leftJoin(r, (x, y) -> x + show(y)).filter((k, v) -> !v.contains("x")).toStream().to("out-left", PSS);
            l.outerJoin(r, (x, y) -> show(x) + show(y), Materialized.as("outer")).toStream().to("out-outer", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-inner", S, S).output("out-left", S, S).output("out-outer", S, S);
            h.pipe("left", "k", "L50", 50);
            h.pipe("right", "k", "R10", 10);
            h.pipe("right", "k", "R60", 60);
            h.pipe("left", "k", "L20", 20);
            h.pipe("left", "k", "xL5", 5);
            h.pipe("right", "k", null, 1);
            h.pipe("left", "k", null, 30);
            h.pipe("right", "k", "R2", 2);
            h.pipe("left", "j", "J3", 3);
            h.finish();
        });

        // Headers through split, merge, flat_map, repartition and a suppressed table.
        scenarios.put("headers_split_merge_suppress", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            Map<String, KStream<String, String>> br = s.split(Named.as("h-"))
                .branch((k, v) -> v.startsWith("a"), Branched.as("a"))
                .defaultBranch(Branched.as("o"));
            br.get("h-a").merge(br.get("h-o").mapValues(v -> v + "?")).to("out-merged", PSS);
            s.flatMap((k, v) -> List.of(KeyValue.pair(v, k), KeyValue.pair(k, v)))
                .repartition(Repartitioned.as("hdr")).to("out-rp", PSS);
            s.toTable().suppress(Suppressed.untilTimeLimit(Duration.ofMillis(5), BufferConfig.unbounded()))
                .toStream().to("out-suppressed", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-merged", S, S).output("out-rp", S, S).output("out-suppressed", S, S);
            h.pipe("in", "k1", "a1", 1, "h=1");
            h.pipe("in", "k2", "b2", 2, "h=2", "x=y");
            h.pipe("in", "k1", "a3", 3);
            h.pipe("in", "k1", "c4", 4, "h=4");
            h.pipe("in", "k3", "a9", 9, "h=9");
            h.pipe("in", "k3", "a20", 20, "h=20");
            h.finish();
        });

        // Null keys into windowed, session, sliding and cogrouped aggregations and null values
        // into cogroups: dropped and counted.
        scenarios.put("null_keys_windowed_cogroup", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g1 = b.stream("in", SS).groupByKey();
            KGroupedStream<String, String> g2 = b.stream("in2", SS).groupByKey();
            showTo(g1.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)).advanceBy(Duration.ofMillis(5)))
                .emitStrategy(EmitStrategy.onWindowClose()).count(), "out-hop", PSL);
            g1.<String>cogroup((k, v, agg) -> agg + "/" + show(v)).cogroup(g2, (k, v, agg) -> agg + "#" + show(v))
                .aggregate(() -> "").toStream().to("out-cogroup", PSS);
            showTo(g1.<String>cogroup((k, v, agg) -> agg + "/" + show(v)).cogroup(g2, (k, v, agg) -> agg + "#" + show(v))
                .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5)))
                .aggregate(() -> "", (k, x, y) -> x + "|" + y), "out-cogroup-session", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("in2", S, S)
                .output("out-hop", S, L).output("out-cogroup", S, S).output("out-cogroup-session", S, S);
            pipeCounted(h, "in", "a", "1", 1);
            pipeCounted(h, "in", null, "2", 2);
            pipeCounted(h, "in2", null, "3", 3);
            pipeCounted(h, "in2", "a", null, 4);
            pipeCounted(h, "in", "a", null, 5);
            pipeCounted(h, "in2", "a", "6", 8);
            pipeCounted(h, "in", "b", "7", 20);
            pipeCounted(h, "in2", null, null, 21);
            pipeCounted(h, "in", "a", "8", 2);
            h.finish();
        });

        // A windowed count filtered and mapped (materialized and not), to streams; a count table
        // filtered (cached parent, old values sent) into a to_stream.
        scenarios.put("windowed_table_views", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            KTable<Windowed<String>, Long> c = g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count();
            showTo(c.filter((k, v) -> v > 1), "out-filter", PSL);
            showTo(c.mapValues(v -> "n" + v, Materialized.<Windowed<String>, String, KeyValueStore<Bytes, byte[]>>as("wmv")
                .withKeySerde(org.apache.kafka.streams.kstream.WindowedSerdes.timeWindowedSerdeFrom(String.class, 10L))
                .withValueSerde(Serdes.String())), "out-mapped", PSS);
            g.count().filter((k, v) -> v % 2 == 0).toStream().to("out-even", PSL);
            g.count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("cnt2").withCachingDisabled())
                .filter((k, v) -> v % 2 == 1, Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("odd").withValueSerde(Serdes.Long())).toStream().to("out-odd", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-filter", S, L).output("out-mapped", S, S).output("out-even", S, L).output("out-odd", S, L);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 2);
            h.pipe("in", "b", "3", 3);
            h.pipe("in", "a", "4", 12);
            h.pipe("in", "a", "5", 5);
            h.pipe("in", "b", "6", 15);
            h.pipe("in", "a", "7", 16);
            h.finish();
        });

        // A suppressed table (time limit) joined by a stream and by another table; its filter.
        scenarios.put("suppressed_table_joins", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> sup = b.table("in", SS, Materialized.as("src"))
                .suppress(Suppressed.untilTimeLimit(Duration.ofMillis(10), BufferConfig.unbounded()));
            b.stream("events", SS).leftJoin(sup, (e, v) -> e + "@" + show(v)).to("out-stream", PSS);
            sup.join(b.table("other", SS), (x, y) -> x + "&" + y).toStream().to("out-table", PSS);
            sup.filter((k, v) -> !v.startsWith("x")).toStream().to("out-filter", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("events", S, S).input("other", S, S)
                .output("out-stream", S, S).output("out-table", S, S).output("out-filter", S, S);
            h.pipe("other", "a", "O1", 1);
            h.pipe("in", "a", "v2", 2);
            h.pipe("events", "a", "e3", 3);
            h.pipe("in", "a", "xv4", 4);
            h.pipe("in", "b", "w5", 5);
            h.pipe("events", "a", "e13", 13);
            h.pipe("in", "c", "u15", 15);
            h.pipe("events", "a", "e16", 16);
            h.pipe("in", "a", null, 17);
            h.pipe("other", "b", "O18", 18);
            h.pipe("events", "b", "e19", 19);
            h.pipe("in", "d", "z40", 40);
            h.pipe("events", "a", "e41", 41);
            h.finish();
        });

        // Stream-stream left and outer joins with several records per key on both sides, out of
        // order, duplicates; unmatched records emitted after the window closes, in time order.
        scenarios.put("stream_join_many_per_key", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            org.apache.kafka.streams.kstream.JoinWindows w =
                org.apache.kafka.streams.kstream.JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(3), Duration.ofMillis(2));
            l.leftJoin(r, (x, y) -> x + "+" + show(y), w).to("out-left", PSS);
            l.outerJoin(r, (x, y) -> show(x) + "+" + show(y), w).to("out-outer", PSS);
            l.join(r, (x, y) -> x + "+" + y, w).to("out-inner", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-left", S, S).output("out-outer", S, S).output("out-inner", S, S);
            h.pipe("left", "k", "L10", 10);
            h.pipe("left", "k", "L11", 11);
            h.pipe("right", "j", "Rj12", 12);
            h.pipe("right", "k", "R13", 13);
            h.pipe("left", "k", "L10b", 10);
            h.pipe("right", "k", "R8", 8);
            h.pipe("left", "j", "Lj5", 5);
            h.pipe("right", "k", "R20", 20);
            h.pipe("left", "k", "L17", 17);
            h.pipe("right", "k", "R13", 13);
            h.pipe("left", "k", "L30", 30);
            h.pipe("right", "j", "Rj40", 40);
            h.dropped();
            h.finish();
        });

        // A table map_values returning null (the row becomes absent) and a filter_not, under a
        // regrouping with adder and subtractor.
        scenarios.put("table_map_null_regroup", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", SS);
            KTable<String, String> m = t.mapValues(v -> v.startsWith("n") ? null : v.toUpperCase());
            m.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k))
                .aggregate(() -> "", (k, v, agg) -> agg + "+" + v, (k, v, agg) -> agg + "-" + v, kv("mn-agg", false))
                .toStream().to("out-agg", PSS);
            t.filterNot((k, v) -> v.startsWith("x"), Materialized.as("fnot"))
                .groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), v)).count().toStream().to("out-count", PSL);
            m.toStream().to("out-mapped", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-agg", S, S).output("out-count", S, L).output("out-mapped", S, S);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k1", "n2", 2);
            h.pipe("in", "k1", "a3", 3);
            h.pipe("in", "k2", "x4", 4);
            h.pipe("in", "k2", "b5", 5);
            h.pipe("in", "k2", "x6", 6);
            h.pipe("in", "k1", null, 7);
            h.pipe("in", "k3", "n8", 8);
            h.pipe("in", "k3", null, 9);
            h.finish();
        });

        // A count re-keyed and read back as a table (two repartitions), then joined with the
        // count itself.
        scenarios.put("count_rekeyed_to_table", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, Long> c = b.stream("in", SS).groupBy((k, v) -> v).count();
            KTable<String, String> back = c.toStream().map((k, v) -> KeyValue.pair(k + v, k)).toTable();
            back.toStream().to("out-back", PSS);
            c.toStream().mapValues(v -> "" + v).toTable(Materialized.as("cs"))
                .leftJoin(back, (x, y) -> x + "|" + show(y)).toStream().to("out-join", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-back", S, S).output("out-join", S, S);
            h.pipe("in", "k1", "a", 1);
            h.pipe("in", "k2", "a", 2);
            h.pipe("in", "k3", "b", 3);
            h.pipe("in", "k4", "a1", 4);
            h.finish();
        });

        // The same windowed reduce, hopping with grace 3, final by suppress and by emit on close.
        scenarios.put("final_by_suppress_and_emit", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            TimeWindows w = TimeWindows.ofSizeAndGrace(Duration.ofMillis(8), Duration.ofMillis(3)).advanceBy(Duration.ofMillis(4));
            showTo(g.windowedBy(w).reduce((x, y) -> x + "+" + y).suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())),
                "out-suppress", PSS);
            showTo(g.windowedBy(w).emitStrategy(EmitStrategy.onWindowClose()).reduce((x, y) -> x + "+" + y), "out-emit", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-suppress", S, S).output("out-emit", S, S);
            windowInputs(h);
            h.finish();
        });

        // Cogroup of three streams with session windows (gap 4, grace 2) and a merger.
        scenarios.put("cogroup_sessions_three", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g1 = b.stream("in1", SS).groupByKey();
            KGroupedStream<String, String> g2 = b.stream("in2", SS).groupByKey();
            KGroupedStream<String, String> g3 = b.stream("in3", SS).groupByKey();
            showTo(g1.cogroup((String k, String v, String agg) -> agg + "1" + v)
                    .cogroup(g2, (k, v, agg) -> agg + "2" + v)
                    .cogroup(g3, (k, v, agg) -> agg + "3" + v)
                    .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(4), Duration.ofMillis(2)))
                    .aggregate(() -> "", (k, x, y) -> "(" + x + "," + y + ")"),
                "out", PSS);
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, S).input("in3", S, S).output("out", S, S);
            h.pipe("in1", "a", "p", 0);
            h.pipe("in2", "a", "q", 8);
            h.pipe("in3", "a", "r", 4);
            h.pipe("in1", "b", "s", 5);
            h.pipe("in2", "a", "t", 15);
            h.pipe("in3", "a", "u", 10);
            h.pipe("in1", "a", "v", 2);
            h.pipe("in2", "b", "w", 20);
            h.pipe("in3", "a", "x", 12);
            h.dropped();
            h.finish();
        });

        // Outer table-table join materialized and then filtered (materialized) and regrouped.
        scenarios.put("outer_join_filter_regroup", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> j = b.table("left", SS).outerJoin(b.table("right", SS), (x, y) -> show(x) + "|" + show(y),
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("oj").withCachingDisabled());
            j.filter((k, v) -> !v.contains("null"), Materialized.as("ojf")).toStream().to("out-full", PSS);
            j.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), v)).count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-full", S, S).output("out-count", S, L);
            h.pipe("left", "a", "L1", 1);
            h.pipe("right", "a", "R2", 2);
            h.pipe("right", "b", "R3", 3);
            h.pipe("left", "a", null, 4);
            h.pipe("left", "b", "L5", 5);
            h.pipe("right", "a", null, 6);
            h.pipe("right", "b", null, 7);
            h.pipe("left", "b", null, 8);
            h.finish();
        });

        // A global table fed by tombstones and updates, joined by a re-keyed stream; left join
        // with a mapper reading the value.
        scenarios.put("global_table_updates_rekeyed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            GlobalKTable<String, String> gt = b.globalTable("global", SS, Materialized.as("gstore"));
            KStream<String, String> s = b.stream("in", SS).selectKey((k, v) -> v.substring(0, 1));
            s.join(gt, (k, v) -> k, (k, v, g) -> k + ":" + v + "@" + g).to("out-inner", PSS);
            s.leftJoin(gt, (k, v) -> v.substring(1), (v, g) -> v + "@" + show(g)).to("out-left", PSS);
            s.groupByKey().count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("global", S, S).input("in", S, S)
                .output("out-inner", S, S).output("out-left", S, S).output("out-count", S, L);
            h.pipe("global", "a", null, 1);
            h.pipe("in", "k", "ab", 2);
            h.pipe("global", "a", "GA", 3);
            h.pipe("global", "b", "GB", 4);
            h.pipe("in", "k", "ab", 5);
            h.pipe("global", "a", null, 6);
            h.pipe("in", "k", "ba", 7);
            h.pipe("in", "k", "ab", 8);
            h.finish();
        });

        // One named grouping of a re-keyed stream under a plain count, a tumbling count, a session
        // reduce and a sliding aggregate: how many repartition topics, and their names.
        scenarios.put("named_grouping_windowed_shared", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupBy((k, v) -> v.substring(0, 1), Grouped.as("g"));
            g.count().toStream().to("out-count", PSL);
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(), "out-tumbling", PSL);
            showTo(g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5))).reduce((x, y) -> x + "+" + y),
                "out-session", PSS);
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5))).aggregate(() -> "", Hunt13Scenarios::slash),
                "out-sliding", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-count", S, L).output("out-tumbling", S, L).output("out-session", S, S).output("out-sliding", S, S);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k2", "a2", 4);
            h.pipe("in", "k3", "b3", 6);
            h.pipe("in", null, "a4", 12);
            h.pipe("in", "k1", "b5", 3);
            h.finish();
        });

        // A named table grouping whose aggregations are named too (count, reduce, aggregate).
        scenarios.put("named_table_grouping_named_ops", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedTable<String, String> g = b.table("in", SS).groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k), Grouped.as("tg"));
            g.count(Named.as("cnt")).toStream().to("out-count", PSL);
            g.reduce((x, y) -> x + "&" + y, (x, y) -> x + "~" + y, Named.as("red"), kv("red-store", true)).toStream().to("out-reduce", PSS);
            g.aggregate(() -> "", (k, v, agg) -> agg + "+" + v, (k, v, agg) -> agg + "-" + v, Named.as("agg"), kv("agg-store", false))
                .toStream().to("out-agg", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-count", S, L).output("out-reduce", S, S).output("out-agg", S, S);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k2", "a2", 2);
            h.pipe("in", "k1", "b3", 3);
            h.pipe("in", "k2", null, 4);
            h.finish();
        });

        // An unnamed table grouping with named aggregations: each its own repartition topic.
        scenarios.put("unnamed_table_grouping_named_ops", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedTable<String, String> g = b.table("in", SS).groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k));
            g.count(Named.as("cnt")).toStream().to("out-count", PSL);
            g.reduce((x, y) -> x + "&" + y, (x, y) -> x + "~" + y, Named.as("red"), kv("red-store", true)).toStream().to("out-reduce", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-reduce", S, S);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k2", "a2", 2);
            h.pipe("in", "k1", "b3", 3);
            h.pipe("in", "k2", null, 4);
            h.finish();
        });

        // Null keys through repartition() (kept) into a count (dropped there and counted), and
        // a select_key returning null before a grouping (dropped before the topic, counted).
        scenarios.put("repartition_null_keys_counted", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.repartition(Repartitioned.as("keep")).groupByKey().count().toStream().to("out-kept", PSL);
            s.selectKey((k, v) -> v.startsWith("n") ? null : v).groupByKey().count().toStream().to("out-rekeyed", PSL);
            s.repartition().to("out-rp", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-kept", S, L).output("out-rekeyed", S, L).output("out-rp", S, S);
            pipeCounted(h, "in", "k", "v1", 1);
            pipeCounted(h, "in", null, "v2", 2);
            pipeCounted(h, "in", "k", "n3", 3);
            pipeCounted(h, "in", null, "n4", 4);
            h.finish();
        });

        // Stream-stream left join without grace: late records on either side dropped and counted;
        // an unmatched left record emitted once stream time passes its window.
        scenarios.put("stream_left_join_no_grace_late", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            l.leftJoin(r, (x, y) -> x + "+" + show(y),
                org.apache.kafka.streams.kstream.JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5))).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out", S, S);
            pipeCounted(h, "left", "k", "L10", 10);
            pipeCounted(h, "right", "k", "R14", 14);
            pipeCounted(h, "left", "k", "L20", 20);
            pipeCounted(h, "left", "k", "L9", 9);
            pipeCounted(h, "right", "k", "R15", 15);
            pipeCounted(h, "right", "k", "R14b", 14);
            pipeCounted(h, "left", "j", "Lj14", 14);
            pipeCounted(h, "right", "x", "Rx26", 26);
            pipeCounted(h, "left", "k", "L21", 21);
            pipeCounted(h, "right", "k", "R30", 30);
            h.finish();
        });

        // Cogroups of re-keyed groupings, named and unnamed (the unnamed one in two cogroups),
        // windowed and not.
        scenarios.put("cogroup_rekeyed_named", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g1 = b.stream("in1", SS).groupBy((k, v) -> v.substring(0, 1), Grouped.as("c1"));
            KGroupedStream<String, String> g2 = b.stream("in2", SS).selectKey((k, v) -> v.substring(0, 1)).groupByKey();
            g1.<String>cogroup((k, v, agg) -> agg + "1" + v).cogroup(g2, (k, v, agg) -> agg + "2" + v)
                .aggregate(() -> "", Named.as("co"), kv("co-store", false)).toStream().to("out", PSS);
            KGroupedStream<String, String> g1w = b.stream("in3", SS).groupBy((k, v) -> v.substring(0, 1), Grouped.as("c3"));
            showTo(g1w.<String>cogroup((k, v, agg) -> agg + "3" + v).cogroup(g2, (k, v, agg) -> agg + "2" + v)
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).aggregate(() -> ""), "out-windowed", PSS);
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, S).input("in3", S, S)
                .output("out", S, S).output("out-windowed", S, S);
            h.pipe("in1", "k1", "a1", 1);
            h.pipe("in3", "k1", "a0", 0);
            h.pipe("in2", "k2", "a2", 2);
            h.pipe("in1", "k3", "b3", 3);
            h.pipe("in2", null, "b4", 12);
            h.finish();
        });

        // to_table after select_key: named (its repartition named after it) and unnamed.
        scenarios.put("to_table_rekeyed_named", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.selectKey((k, v) -> v.substring(0, 1)).toTable(Named.as("tt"), Materialized.as("tt-store")).toStream().to("out-named", PSS);
            s.map((k, v) -> KeyValue.pair(v.substring(1), k)).toTable().toStream().to("out-unnamed", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-named", S, S).output("out-unnamed", S, S);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k2", "a2", 2);
            h.pipe("in", "k3", "b1", 3);
            h.finish();
        });

        // Windowed operations named: a tumbling count, a session reduce, a sliding aggregate on
        // close, a suppress and the to_stream after it.
        scenarios.put("named_windowed_ops", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", Consumed.with(Serdes.String(), Serdes.String()).withName("src"))
                .groupByKey(Grouped.as("gk"));
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(Named.as("wc"), Materialized.with(Serdes.String(), Serdes.Long()))
                .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()).withName("final"))
                .toStream(Named.as("final-stream")).selectKey((w, v) -> WindowScenarios.show(w), Named.as("show"))
                .to("out-count", Produced.with(Serdes.String(), Serdes.Long()).withName("sink-count"));
            showTo(g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5)))
                .reduce((x, y) -> x + "+" + y, Named.as("sr"), Materialized.as("sr-store")), "out-session", PSS);
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5)))
                .emitStrategy(EmitStrategy.onWindowClose())
                .aggregate(() -> "", Hunt13Scenarios::slash, Named.as("sa"), Materialized.as("sa-store")), "out-sliding", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-count", S, L).output("out-session", S, S).output("out-sliding", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 4);
            h.pipe("in", "b", "3", 8);
            h.pipe("in", "a", "4", 12);
            h.pipe("in", "a", "5", 25);
            h.finish();
        });

        // Sliding windows (difference 4, grace 3) with several records at one timestamp, early
        // records (windows clipped at 0) and records exactly at the grace edge.
        scenarios.put("sliding_same_times_early", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            SlidingWindows w = SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(4), Duration.ofMillis(3));
            showTo(g.windowedBy(w).aggregate(() -> "", Hunt13Scenarios::slash,
                Materialized.<String, String, org.apache.kafka.streams.state.WindowStore<Bytes, byte[]>>as("sst").withCachingDisabled()),
                "out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.pipe("in", "a", "p2", 2);
            h.pipe("in", "a", "q2", 2);
            h.pipe("in", "a", "p0", 0);
            h.pipe("in", "a", "p5", 5);
            h.pipe("in", "a", "q5", 5);
            h.pipe("in", "a", "p3", 3);
            h.pipe("in", "a", "p12", 12);
            h.pipe("in", "a", "p5b", 5);
            h.pipe("in", "a", "p4", 4);
            h.pipe("in", "a", "p9", 9);
            h.pipe("in", "a", "p8", 8);
            h.dropped();
            h.finish();
        });

        // Sessions (gap 3, grace 2): records exactly one gap apart merge, a record between two
        // sessions at both their edges merges them, a record of the same time as a session's end.
        scenarios.put("session_gap_edges", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(3), Duration.ofMillis(2)))
                .aggregate(() -> "", Hunt13Scenarios::slash, (k, x, y) -> x + "|" + y,
                    Materialized.<String, String, org.apache.kafka.streams.state.SessionStore<Bytes, byte[]>>as("sg").withCachingDisabled()),
                "out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.pipe("in", "a", "p0", 0);
            h.pipe("in", "a", "p3", 3);
            h.pipe("in", "a", "p10", 10);
            h.pipe("in", "a", "p7", 7);
            h.pipe("in", "a", "p10b", 10);
            h.pipe("in", "a", "p16", 16);
            h.pipe("in", "a", "p13", 13);
            h.pipe("in", "a", "p20", 20);
            h.pipe("in", "a", "p12", 12);
            h.pipe("in", "a", "p14", 14);
            h.dropped();
            h.finish();
        });

        // Tumbling windows of 1 ms, hopping windows whose advance equals their size, and hopping
        // windows advancing by 1 ms.
        scenarios.put("window_size_one_and_equal_advance", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(1), Duration.ofMillis(1))).count(), "out-one", PSL);
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(5)).advanceBy(Duration.ofMillis(5))).count(), "out-equal", PSL);
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(3)).advanceBy(Duration.ofMillis(1))).count(), "out-step", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-one", S, L).output("out-equal", S, L).output("out-step", S, L);
            h.pipe("in", "a", "1", 0);
            h.pipe("in", "a", "2", 1);
            h.pipe("in", "a", "3", 1);
            h.pipe("in", "a", "4", 4);
            h.pipe("in", "a", "5", 2);
            h.pipe("in", "a", "6", 5);
            h.pipe("in", "a", "7", 3);
            h.dropped();
            h.finish();
        });

        // Table aggregations whose result does not change (the same value again, the adder
        // undoing the subtractor), cached and uncached, and a count whose old and new are equal.
        scenarios.put("table_aggregate_unchanged_results", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedTable<String, String> g = b.table("in", SS).groupBy((k, v) -> KeyValue.pair("all", v));
            g.aggregate(() -> "", (k, v, agg) -> agg.contains(v) ? agg : agg + v, (k, v, agg) -> agg, kv("same-uncached", false))
                .toStream().to("out-uncached", PSS);
            g.aggregate(() -> "", (k, v, agg) -> agg.contains(v) ? agg : agg + v, (k, v, agg) -> agg, kv("same-cached", true))
                .toStream().to("out-cached", PSS);
            g.count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-uncached", S, S).output("out-cached", S, S).output("out-count", S, L);
            h.pipe("in", "k1", "x", 1);
            h.pipe("in", "k1", "x", 2);
            h.pipe("in", "k2", "x", 3);
            h.pipe("in", "k1", "y", 4);
            h.pipe("in", "k2", null, 5);
            h.pipe("in", "k2", null, 6);
            h.finish();
        });

        // Named sources: a stream and a table by Consumed name, a global table by Consumed name
        // and store; a join of the stream with both.
        scenarios.put("named_sources_global", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", Consumed.with(Serdes.String(), Serdes.String()).withName("in-src"));
            KTable<String, String> t = b.table("table", Consumed.with(Serdes.String(), Serdes.String()).withName("table-src"),
                Materialized.as("table-store"));
            GlobalKTable<String, String> gt = b.globalTable("global", Consumed.with(Serdes.String(), Serdes.String()).withName("global-src"),
                Materialized.as("global-store"));
            s.join(t, (v, r) -> v + "@" + r, Joined.as("tj")).leftJoin(gt, (k, v) -> k, (v, r) -> v + "#" + show(r), Named.as("gj"))
                .to("out", Produced.with(Serdes.String(), Serdes.String()).withName("out-sink"));
            Harness h = new Harness(b.build(), out).input("in", S, S).input("table", S, S).input("global", S, S).output("out", S, S);
            h.pipe("table", "k", "T", 1);
            h.pipe("in", "k", "v2", 2);
            h.pipe("global", "k", "G", 3);
            h.pipe("in", "k", "v4", 4);
            h.finish();
        });

        // A stream joined with its own table: the table made before the join's stream sees the
        // record itself; a map_values made before the table joins with the previous row.
        scenarios.put("stream_joined_with_own_table", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            KStream<String, String> early = s.mapValues(v -> v + "'");
            KTable<String, String> t = s.toTable(Materialized.as("own"));
            s.leftJoin(t, (v, r) -> v + "@" + show(r)).to("out-after", PSS);
            early.leftJoin(t, (v, r) -> v + "@" + show(r)).to("out-before", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-after", S, S).output("out-before", S, S);
            h.pipe("in", "k", "v1", 1);
            h.pipe("in", "k", "v2", 2);
            h.pipe("in", "j", "w3", 3);
            h.pipe("in", "k", "v4", 0);
            h.finish();
        });

        // Three paths into one topic: direct, through a repartition, through a count; the order
        // of the records in the topic.
        scenarios.put("fan_in_same_topic_order", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.mapValues(v -> "direct:" + v).to("out", PSS);
            s.selectKey((k, v) -> v).repartition().mapValues(v -> "rp:" + v).to("out", PSS);
            s.groupByKey().count().toStream().mapValues(v -> "count:" + v).to("out", PSS);
            s.mapValues(v -> "late:" + v).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.pipe("in", "k", "a", 1);
            h.pipe("in", "k", "b", 2);
            h.pipe("in", "j", "c", 1);
            h.finish();
        });

        // Suppress until a time limit: a key updated while buffered is emitted at the limit
        // after its first buffered update or its last.
        scenarios.put("suppress_time_limit_updates", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("in", SS).suppress(Suppressed.untilTimeLimit(Duration.ofMillis(10), BufferConfig.unbounded()))
                .toStream().to("out", PSS);
            b.stream("in2", SS).groupByKey().count()
                .suppress(Suppressed.untilTimeLimit(Duration.ofMillis(10), BufferConfig.maxRecords(5)))
                .toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("in2", S, S).output("out", S, S).output("out-count", S, L);
            h.pipe("in", "a", "1", 0);
            h.pipe("in", "a", "2", 8);
            h.pipe("in", "c", "3", 10);
            h.pipe("in", "c", "4", 17);
            h.pipe("in", "d", "5", 18);
            h.pipe("in", "d", "6", 5);
            h.pipe("in", "e", "7", 40);
            h.pipe("in2", "a", "x", 0);
            h.pipe("in2", "a", "x", 8);
            h.pipe("in2", "b", "x", 10);
            h.pipe("in2", "b", "x", 18);
            h.pipe("in2", "c", "x", 30);
            h.finish();
        });
    }
}
