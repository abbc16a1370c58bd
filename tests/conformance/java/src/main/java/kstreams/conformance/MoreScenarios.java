package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Harness.Type.X;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.Suppressed.BufferConfig;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.WindowedSerdes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * More table and window scenarios (tests/conformance/more_scenarios_test.cpp writes the same with
 * the kstreams DSL): old values through suppress and through joins of views into a regrouping,
 * hopping windows whose advance does not divide their size, sliding windows at their exact
 * bounds, emit-on-close for aggregate and reduce (with headers), time limits on windowed tables.
 */
final class MoreScenarios {
    static final org.apache.kafka.streams.kstream.Produced<String, String> PSS = WindowScenarios.PSS;
    static final org.apache.kafka.streams.kstream.Produced<String, Long> PSL = WindowScenarios.PSL;

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    static <V> void showTo(KTable<org.apache.kafka.streams.kstream.Windowed<String>, V> t, String topic,
                           org.apache.kafka.streams.kstream.Produced<String, V> p) {
        WindowKindScenarios.showTo(t, topic, p);
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // A source table suppressed by a time limit, then regrouped (the subtractor needs the old
        // values the buffer keeps: the source gets a store) and mapped.
        scenarios.put("table_suppress_regroup", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> sup = b.table("in", WindowScenarios.SS)
                .suppress(Suppressed.untilTimeLimit(Duration.ofMillis(10), BufferConfig.unbounded()));
            sup.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k), Grouped.with(Serdes.String(), Serdes.String()))
                .count().toStream().to("out-count", PSL);
            sup.mapValues(v -> v + "!").toStream().to("out-mapped", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-mapped", S, S);
            h.pipe("in", "a", "x1", 10);
            h.pipe("in", "b", "y1", 12);
            h.pipe("in", "a", "x2", 15);
            h.pipe("in", "a", "y2", 18);
            h.pipe("in", "c", "x3", 25);
            h.pipe("in", "b", null, 26);
            h.pipe("in", "a", "z1", 27);
            h.pipe("in", "d", "y4", 40);
            h.pipe("in", "c", null, 41);
            h.pipe("in", "c", "z2", 42);
            h.pipe("in", "e", "x5", 60);
            h.finish();
        });

        // A left join and an outer join of a filtered view and a source table, mapped, then
        // regrouped by the result's first letter (reduce with a subtractor): old values computed
        // through the joins and the views.
        scenarios.put("table_join_regroup", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> l = b.table("left", WindowScenarios.SS).filter((k, v) -> !v.startsWith("x"));
            KTable<String, String> r = b.table("right", WindowScenarios.SS);
            l.leftJoin(r, (x, y) -> x + "+" + show(y)).mapValues(v -> v.toUpperCase())
                .groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k), Grouped.with(Serdes.String(), Serdes.String()))
                .reduce((agg, v) -> agg + "," + v, (agg, v) -> agg + "-" + v)
                .toStream().to("out-left", PSS);
            l.outerJoin(r, (x, y) -> show(x) + "+" + show(y))
                .groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k), Grouped.with(Serdes.String(), Serdes.String()))
                .count().toStream().to("out-outer", PSL);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-left", S, S).output("out-outer", S, L);
            h.pipe("left", "k1", "a1", 1);
            h.pipe("right", "k1", "r1", 2);
            h.pipe("left", "k2", "b1", 3);
            h.pipe("left", "k1", "b2", 4);
            h.pipe("right", "k2", "s1", 5);
            h.pipe("left", "k2", "x1", 6);
            h.pipe("right", "k3", "t1", 7);
            h.pipe("left", "k1", null, 8);
            h.pipe("right", "k1", null, 9);
            h.pipe("left", "k3", "a3", 10);
            h.pipe("right", "k3", null, 11);
            h.pipe("left", "k3", "x3", 12);
            h.pipe("left", "k2", "a4", 13);
            h.finish();
        });

        // Hopping windows of 10 ms every 3 ms (the advance does not divide the size), grace 4:
        // windows before 0 left out, the grace boundary, late records; count on RocksDB and an
        // aggregate in memory emitting on close.
        scenarios.put("window_hopping_uneven", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", WindowScenarios.SS).groupByKey();
            TimeWindows w = TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(4)).advanceBy(Duration.ofMillis(3));
            showTo(g.windowedBy(w).count(), "out-count", PSL);
            showTo(g.windowedBy(w).emitStrategy(EmitStrategy.onWindowClose())
                    .aggregate(() -> "", (k, v, agg) -> agg + "/" + v,
                        Materialized.<String, String, WindowStore<Bytes, byte[]>>as("hop-close").withStoreType(Materialized.StoreType.IN_MEMORY)),
                "out-close", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-close", S, S);
            h.pipe("in", "a", "v0", 0);
            h.pipe("in", "a", "v2", 2);
            h.pipe("in", "a", "v7", 7);
            h.pipe("in", "b", "w9", 9);
            h.pipe("in", "a", "v11", 11);
            h.pipe("in", "a", "v3", 3);
            h.pipe("in", "a", "v17", 17);
            h.pipe("in", "a", "v5", 5);
            h.pipe("in", "a", "v6", 6);
            h.pipe("in", "b", "w30", 30);
            h.pipe("in", "a", "v20", 20);
            h.pipe("in", "a", "v19", 19);
            h.finish();
        });

        // Sliding windows of 5 ms without grace: records exactly 5 ms apart, several at the same
        // time, one at 0; reduce uncached, count cached, an aggregate emitting on close.
        scenarios.put("window_sliding_bounds", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", WindowScenarios.SS).groupByKey();
            SlidingWindows w = SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5));
            showTo(g.windowedBy(w).reduce((x, y) -> x + "+" + y,
                    Materialized.<String, String, WindowStore<Bytes, byte[]>>as("slide-r").withCachingDisabled()),
                "out-reduce", PSS);
            showTo(g.windowedBy(w).count(), "out-count", PSL);
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(5), Duration.ofMillis(2)))
                    .emitStrategy(EmitStrategy.onWindowClose())
                    .aggregate(() -> "", (k, v, agg) -> agg + "/" + v, Materialized.as("slide-close")),
                "out-close", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-reduce", S, S).output("out-count", S, L)
                .output("out-close", S, S);
            h.pipe("in", "a", "p0", 0);
            h.pipe("in", "a", "p5", 5);
            h.pipe("in", "a", "p10", 10);
            h.pipe("in", "a", "q10", 10);
            h.pipe("in", "a", "p7", 7);
            h.pipe("in", "a", "p15", 15);
            h.pipe("in", "a", "p21", 21);
            h.pipe("in", "a", "p16", 16);
            h.pipe("in", "a", "q21", 21);
            h.pipe("in", "a", "p26", 26);
            h.pipe("in", "a", "p40", 40);
            h.finish();
        });

        // Emit on close for reduce (tumbling) and a session aggregate with a merger, with headers
        // on the inputs: which record's headers and timestamp the closed windows carry.
        scenarios.put("emit_on_close_headers", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", WindowScenarios.SS).groupByKey();
            showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(2)))
                    .emitStrategy(EmitStrategy.onWindowClose()).reduce((x, y) -> x + "+" + y),
                "out-tumbling", PSS);
            showTo(g.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(5), Duration.ofMillis(2)))
                    .emitStrategy(EmitStrategy.onWindowClose())
                    .aggregate(() -> "", (k, v, agg) -> agg + "/" + v, (k, x, y) -> x + "|" + y,
                        Materialized.<String, String, SessionStore<Bytes, byte[]>>as("sess-close").withCachingDisabled()),
                "out-session", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-tumbling", S, S).output("out-session", S, S);
            h.pipe("in", "a", "h1", 1, "n=1");
            h.pipe("in", "b", "h4", 4, "n=4");
            h.pipe("in", "a", "h8", 8, "n=8");
            h.pipe("in", "a", "h13", 13, "n=13");
            h.pipe("in", "b", "h11", 11);
            h.pipe("in", "a", "h25", 25, "n=25");
            h.pipe("in", "a", "h9", 9, "n=9");
            h.pipe("in", "b", "h40", 40, "n=40", "m=x");
            h.finish();
        });

        // Time limits on windowed tables: a tumbling count held 5 ms with a buffer of one record
        // that emits early; a session reduce held 3 ms.
        scenarios.put("suppress_time_limit_windowed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", WindowScenarios.SS).groupByKey();
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count()
                    .suppress(Suppressed.untilTimeLimit(Duration.ofMillis(5), BufferConfig.maxRecords(1))),
                "out-count", PSL);
            showTo(g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(4))).reduce((x, y) -> x + "+" + y)
                    .suppress(Suppressed.untilTimeLimit(Duration.ofMillis(3), BufferConfig.unbounded())),
                "out-session", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-session", S, S);
            h.pipe("in", "a", "t1", 1);
            h.pipe("in", "a", "t2", 2);
            h.pipe("in", "b", "t3", 3);
            h.pipe("in", "a", "t6", 6);
            h.pipe("in", "a", "t9", 9);
            h.pipe("in", "b", "t12", 12);
            h.pipe("in", "a", "t14", 14);
            h.pipe("in", "a", "t30", 30);
            h.finish();
        });
    }

    /** Pipes a record, then prints the drops counted so far. */
    static void pipeCounted(Harness h, String topic, String key, String value, long ts) {
        h.pipe(topic, key, value, ts);
        h.dropped();
    }

    /** Null for values starting with "n", else the first letter. */
    static String letterOrNull(String v) {
        return v.startsWith("n") ? null : v.substring(0, 1);
    }

    static void registerDropped(Map<String, Main.Scenario> scenarios) {
        // Records dropped and counted by aggregations: null keys, null values, late records, and
        // null keys from a grouping's key selector.
        scenarios.put("dropped_records_aggregations", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", WindowScenarios.SS);
            KGroupedStream<String, String> g = s.groupByKey();
            g.count().toStream().to("out-count", PSL);
            g.reduce((x, y) -> x + "+" + y).toStream().to("out-reduce", PSS);
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(), "out-window", PSL);
            showTo(g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5))).count(), "out-session", PSL);
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5))).count(), "out-sliding", PSL);
            s.groupBy((k, v) -> v == null ? "none" : letterOrNull(v)).count().toStream().to("out-regrouped", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-reduce", S, S)
                .output("out-window", S, L).output("out-session", S, L).output("out-sliding", S, L).output("out-regrouped", S, L);
            pipeCounted(h, "in", "a", "v1", 1);
            pipeCounted(h, "in", null, "v2", 2);
            pipeCounted(h, "in", "a", null, 3);
            pipeCounted(h, "in", "b", "v20", 20);
            pipeCounted(h, "in", "a", "v5", 5);
            pipeCounted(h, "in", "a", "nx", 21);
            pipeCounted(h, "in", null, "nx", 22);
            pipeCounted(h, "in", "b", "v19", 19);
            h.finish();
        });

        // Records dropped and counted by joins: a table source's null keys, stream-table inner and
        // left joins (null keys, null values), a stream-stream join, a table-table join.
        scenarios.put("dropped_records_joins", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("table", WindowScenarios.SS);
            KStream<String, String> s = b.stream("in", WindowScenarios.SS);
            s.join(t, (x, y) -> x + "@" + y).to("out-inner", PSS);
            s.leftJoin(t, (x, y) -> show(x) + "@" + show(y)).to("out-left", PSS);
            s.join(b.stream("in2", WindowScenarios.SS), (x, y) -> x + "+" + y,
                JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10))).to("out-ss", PSS);
            t.join(b.table("table2", WindowScenarios.SS), (x, y) -> x + "&" + y).toStream().to("out-tt", PSS);
            Harness h = new Harness(b.build(), out).input("table", S, S).input("table2", S, S).input("in", S, S).input("in2", S, S)
                .output("out-inner", S, S).output("out-left", S, S).output("out-ss", S, S).output("out-tt", S, S);
            pipeCounted(h, "table", "k1", "T1", 1);
            pipeCounted(h, "table", null, "Tn", 2);
            pipeCounted(h, "table2", null, "Un", 3);
            pipeCounted(h, "table2", "k1", "U1", 4);
            pipeCounted(h, "in", "k1", "a", 5);
            pipeCounted(h, "in", null, "b", 6);
            pipeCounted(h, "in", "k1", null, 7);
            pipeCounted(h, "in", "k2", "c", 8);
            pipeCounted(h, "in2", "k1", "d", 9);
            pipeCounted(h, "in2", null, "e", 10);
            pipeCounted(h, "in2", "k1", null, 11);
            pipeCounted(h, "table", "k1", null, 12);
            h.finish();
        });

        // Records dropped and counted by global-table joins (a key mapper answering null) and
        // foreign-key joins (a null foreign key), inner and left, and a table regrouped to null
        // keys. The key mapper takes a null value to "a".
        scenarios.put("dropped_records_tables", out -> {
            StreamsBuilder b = new StreamsBuilder();
            GlobalKTable<String, String> glob = b.globalTable("glob", WindowScenarios.SS);
            KStream<String, String> s = b.stream("in", WindowScenarios.SS);
            s.join(glob, (k, v) -> v == null ? "a" : letterOrNull(v), (x, y) -> show(x) + "@" + y).to("out-global", PSS);
            s.leftJoin(glob, (k, v) -> v == null ? "a" : letterOrNull(v), (x, y) -> show(x) + "@" + show(y)).to("out-global-left", PSS);
            KTable<String, String> orders = b.table("orders", WindowScenarios.SS);
            KTable<String, String> cust = b.table("cust", WindowScenarios.SS);
            orders.join(cust, MoreScenarios::letterOrNull, (x, y) -> x + "/" + y).toStream().to("out-fk", PSS);
            orders.leftJoin(cust, MoreScenarios::letterOrNull, (x, y) -> x + "/" + show(y)).toStream().to("out-fk-left", PSS);
            cust.groupBy((k, v) -> KeyValue.pair(letterOrNull(v), k), Grouped.with(Serdes.String(), Serdes.String()))
                .count().toStream().to("out-grouped", PSL);
            Harness h = new Harness(b.build(), out).input("glob", S, S).input("in", S, S).input("orders", S, S).input("cust", S, S)
                .output("out-global", S, S).output("out-global-left", S, S).output("out-fk", S, S).output("out-fk-left", S, S)
                .output("out-grouped", S, L);
            pipeCounted(h, "glob", "a", "G1", 1);
            pipeCounted(h, "glob", null, "Gn", 2);
            pipeCounted(h, "in", "k1", "a1", 3);
            pipeCounted(h, "in", "k2", "n1", 4);
            pipeCounted(h, "in", null, "a2", 5);
            pipeCounted(h, "in", "k3", null, 6);
            pipeCounted(h, "cust", "a", "Ann", 7);
            pipeCounted(h, "cust", "n", "nobody", 8);
            pipeCounted(h, "orders", "o1", "a-1", 9);
            pipeCounted(h, "orders", "o2", "n-2", 10);
            pipeCounted(h, "orders", null, "a-3", 11);
            pipeCounted(h, "orders", "o1", "n-1", 12);
            pipeCounted(h, "cust", "a", "nan", 13);
            pipeCounted(h, "cust", "n", null, 14);
            h.finish();
        });
    }

    /** For a value "t1,t2,..." forwards one record per time, valued "v<t>", at that time. */
    static final class Spread implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;

        @Override
        public void init(ProcessorContext<String, String> context) { ctx = context; }

        @Override
        public void process(Record<String, String> r) {
            for (String t : r.value().split(",")) ctx.forward(new Record<>(r.key(), "v" + t, Long.parseLong(t)));
        }
    }

    static void registerForwarded(Map<String, Main.Scenario> scenarios) {
        // A processor forwards several records at times of its own for one input record: windowed
        // aggregations downstream see their own stream time move within that record (late ones
        // dropped), sessions created and merged away before the commit, a final-results buffer.
        scenarios.put("forwarded_times_windows", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", WindowScenarios.SS).process(Spread::new).groupByKey();
            KTable<org.apache.kafka.streams.kstream.Windowed<String>, Long> tumbling =
                g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(Materialized.with(Serdes.String(), Serdes.Long()));
            showTo(tumbling, "out-tumbling", PSL);
            SessionWindows gap = SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5));
            showTo(g.windowedBy(gap).count(), "out-session", PSL);
            showTo(g.windowedBy(gap).aggregate(() -> "", (k, v, agg) -> agg + "/" + v, (k, x, y) -> x + "|" + y,
                    Materialized.<String, String, SessionStore<Bytes, byte[]>>as("spread-sessions").withCachingDisabled()),
                "out-session-agg", PSS);
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5))).count(), "out-sliding", PSL);
            showTo(tumbling.suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-final", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-tumbling", S, L).output("out-session", S, L)
                .output("out-session-agg", S, S).output("out-sliding", S, L).output("out-final", S, L);
            pipeCounted(h, "in", "a", "0,8,4", 1);
            pipeCounted(h, "in", "a", "20,3", 2);
            pipeCounted(h, "in", "b", "5,5,30", 3);
            pipeCounted(h, "in", "a", "21,12,22", 4);
            pipeCounted(h, "in", "a", "40", 5);
            h.finish();
        });

        // More drops: left and outer stream-stream joins (null keys, null values), a stream-table
        // left join's null value, a versioned table (a record past its history retention, an
        // out-of-order update the join drops).
        scenarios.put("dropped_records_more", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", WindowScenarios.SS);
            KStream<String, String> s2 = b.stream("in2", WindowScenarios.SS);
            JoinWindows w = JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10));
            s.leftJoin(s2, (x, y) -> show(x) + "+" + show(y), w).to("out-left", PSS);
            s.outerJoin(s2, (x, y) -> show(x) + "+" + show(y), w).to("out-outer", PSS);
            KTable<String, String> v = b.table("vt", WindowScenarios.SS, VersionedScenarios.versioned("vt-store", 10));
            v.toStream().to("out-v", PSS);
            v.join(b.table("t2", WindowScenarios.SS), (x, y) -> x + "&" + y).toStream().to("out-vjoin", PSS);
            s2.leftJoin(v, (x, y) -> show(x) + "@" + show(y)).to("out-stream-table", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("in2", S, S).input("vt", S, S).input("t2", S, S)
                .output("out-left", S, S).output("out-outer", S, S).output("out-v", S, S).output("out-vjoin", S, S)
                .output("out-stream-table", S, S);
            pipeCounted(h, "in", "a", "x", 1);
            pipeCounted(h, "in", null, "y", 2);
            pipeCounted(h, "in", "a", null, 3);
            pipeCounted(h, "in2", "a", "z", 4);
            pipeCounted(h, "in2", null, "w", 5);
            pipeCounted(h, "in2", "a", null, 6);
            pipeCounted(h, "t2", "a", "T", 7);
            pipeCounted(h, "vt", "a", "1", 100);
            pipeCounted(h, "vt", "a", "2", 50);
            pipeCounted(h, "vt", "a", "3", 95);
            pipeCounted(h, "in", "a", "late", 80);
            pipeCounted(h, "in2", "a", "q", 101);
            h.finish();
        });

        // Long keys through a time-windowed count (named, its changelog's bytes shown) and a
        // session count, written with Kafka's windowed serdes: the windowed key bytes.
        scenarios.put("windowed_long_key_bytes", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<Long, String> g = b.stream("in", Consumed.with(Serdes.Long(), Serdes.String())).groupByKey();
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(Materialized.as("long-counts")).toStream()
                .to("out-time", org.apache.kafka.streams.kstream.Produced.with(WindowedSerdes.timeWindowedSerdeFrom(Long.class, 10), Serdes.Long()));
            g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5))).count().toStream()
                .to("out-session", org.apache.kafka.streams.kstream.Produced.with(WindowedSerdes.sessionWindowedSerdeFrom(Long.class), Serdes.Long()));
            Harness h = new Harness(b.build(), out).input("in", L, S).output("out-time", X, L).output("out-session", X, L)
                .output("conformance-long-counts-changelog", X, X);
            h.pipe("in", 1L, "a", 1);
            h.pipe("in", 258L, "b", 3);
            h.pipe("in", 1L, "c", 12);
            h.pipe("in", 1L, "d", 4);
            h.pipe("in", -5L, "e", 20);
            h.finish();
        });

        // A table joined with itself: inner, left and outer (each update reaches both sides).
        scenarios.put("table_self_join", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", WindowScenarios.SS);
            t.join(t, (x, y) -> x + "=" + y).toStream().to("out-inner", PSS);
            t.leftJoin(t, (x, y) -> x + "=" + show(y)).toStream().to("out-left", PSS);
            t.outerJoin(t, (x, y) -> show(x) + "=" + show(y)).toStream().to("out-outer", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-inner", S, S).output("out-left", S, S)
                .output("out-outer", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 2);
            h.pipe("in", "b", "3", 3);
            h.pipe("in", "a", null, 4);
            h.pipe("in", "c", null, 5);
            h.finish();
        });
    }

    private MoreScenarios() {}
}
