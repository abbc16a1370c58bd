package kstreams.conformance;

import static kstreams.conformance.Harness.Type.I;
import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Scenarios of the ninth conformance hunt (tests/conformance/hunt_scenarios_test.cpp writes the
 * same with the kstreams DSL): record headers through joins, grace buffers and emission on
 * window close; windowed and foreign-key join results regrouped; the record cache sized small and
 * caching stores chained; Materialized without a store name; the smallest windows; functions
 * answering null; the log-and-continue error handlers (deserialization, processing, punctuations,
 * global tables) with their dropped-records counts.
 */
final class HuntScenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());
    static final Produced<String, Long> PSL = Produced.with(Serdes.String(), Serdes.Long());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    /** Forwards each record; a stream-time punctuation every 10 ms throws on odd runs. */
    static final class FailingTicks implements org.apache.kafka.streams.processor.api.Processor<String, String, String, String> {
        private org.apache.kafka.streams.processor.api.ProcessorContext<String, String> ctx;
        private int runs = 0;

        @Override
        public void init(org.apache.kafka.streams.processor.api.ProcessorContext<String, String> context) {
            ctx = context;
            context.schedule(Duration.ofMillis(10), org.apache.kafka.streams.processor.PunctuationType.STREAM_TIME, ts -> {
                runs++;
                if (runs % 2 == 1) throw new IllegalStateException("tick " + ts);
                ctx.forward(new org.apache.kafka.streams.processor.api.Record<>("tick", Long.toString(ts), ts));
            });
        }

        @Override
        public void process(org.apache.kafka.streams.processor.api.Record<String, String> r) {
            if (r.value().equals("bad")) throw new IllegalStateException("bad");
            ctx.forward(r);
        }
    }

    /** A global table joined, a table of Integers, a processor whose punctuation throws. */
    static org.apache.kafka.streams.Topology globalPunctuationTopology() {
        StreamsBuilder b = new StreamsBuilder();
        org.apache.kafka.streams.kstream.GlobalKTable<String, Integer> g =
            b.globalTable("glob", Consumed.with(Serdes.String(), Serdes.Integer()));
        b.stream("orders", SS).leftJoin(g, (k, v) -> v, (o, n) -> o + "=" + n).to("out-join", PSS);
        b.table("tab", Consumed.with(Serdes.String(), Serdes.Integer())).toStream()
            .to("out-tab", Produced.with(Serdes.String(), Serdes.Integer()));
        b.stream("ticks", SS).process(FailingTicks::new).to("out-ticks", PSS);
        return b.build();
    }

    /**
     * "nums" (Integers): a mapValues throwing on values ending in '!' (else `show`), an aggregate
     * throwing on key "boom".
     */
    static void throwingNums(StreamsBuilder b, java.util.function.Function<Integer, String> show) {
        KStream<String, Integer> nums = b.stream("nums", Consumed.with(Serdes.String(), Serdes.Integer()));
        nums.mapValues(v -> {
            if ((v & 0xff) == '!') throw new IllegalArgumentException("bang");
            return show.apply(v);
        }).to("out-mapped", PSS);
        nums.groupByKey(Grouped.with(Serdes.String(), Serdes.Integer()))
            .aggregate(() -> 0L, (k, v, agg) -> {
                if (k.equals("boom")) throw new IllegalStateException("aggregator");
                return agg + 1;
            }, Materialized.with(Serdes.String(), Serdes.Long()))
            .toStream().to("out-count", PSL);
    }

    /** "tab": a mapValues throwing on "bad". */
    static void throwingTable(StreamsBuilder b) {
        b.table("tab", SS).mapValues(v -> {
            if (v.equals("bad")) throw new IllegalStateException("table");
            return v + "?";
        }).toStream().to("out-table", PSS);
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // Headers of join results: stream-stream inner and outer (the unmatched records emitted
        // later), stream-table left, table-table inner and outer (tombstones included).
        scenarios.put("headers_joins", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            KTable<String, String> t = b.table("tab", SS);
            KTable<String, String> u = b.table("tab2", SS);
            JoinWindows w = JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10));
            l.join(r, (x, y) -> x + "+" + y, w).to("out-inner", PSS);
            l.outerJoin(r, (x, y) -> show(x) + "+" + show(y), w).to("out-outer", PSS);
            l.leftJoin(t, (x, y) -> x + "+" + show(y)).to("out-stream-table", PSS);
            t.join(u, (x, y) -> x + "+" + y).toStream().to("out-table-inner", PSS);
            t.outerJoin(u, (x, y) -> show(x) + "+" + show(y)).toStream().to("out-table-outer", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).input("tab", S, S)
                .input("tab2", S, S).output("out-inner", S, S).output("out-outer", S, S).output("out-stream-table", S, S)
                .output("out-table-inner", S, S).output("out-table-outer", S, S);
            h.pipe("left", "a", "L1", 10, "h=l1");
            h.pipe("right", "a", "R1", 12, "h=r1");
            h.pipe("tab", "a", "T1", 5, "h=t1");
            h.pipe("left", "a", "L2", 14, "h=l2", "x=2");
            h.pipe("tab2", "a", "U1", 15, "h=u1");
            h.pipe("right", "b", "R2", 20, "h=r2");
            h.pipe("tab", "a", "T2", 21, "h=t2");
            h.pipe("left", "b", "L3", 22);
            h.pipe("tab2", "a", null, 23, "h=u-del");
            h.pipe("right", "c", "R3", 40, "h=r3");
            h.pipe("left", "d", "L4", 45, "h=l4");
            h.pipe("tab2", "d", "U4", 46, "h=u4");
            h.pipe("left", "e", "L5", 70, "h=l5");
            h.pipe("tab", "a", null, 71, "h=t-del");
            h.pipe("tab2", "d", null, 72);
            h.finish();
        });

        // Headers of stream-table join results held by a versioned table's grace buffer (the
        // buffered record's own), and of a global-table join.
        scenarios.put("headers_versioned_join_grace", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> users = b.table("users", SS, VersionedScenarios.versioned("users", 100));
            b.stream("orders", SS).leftJoin(users, (o, u) -> o + "@" + show(u),
                    org.apache.kafka.streams.kstream.Joined.<String, String, String>as("graceful")
                        .withGracePeriod(Duration.ofMillis(5)))
                .to("out", PSS);
            org.apache.kafka.streams.kstream.GlobalKTable<String, String> g = b.globalTable("glob", SS);
            b.stream("orders2", SS).join(g, (k, v) -> v, (o, x) -> o + "#" + x).to("out-global", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("users", S, S).input("orders2", S, S)
                .input("glob", S, S).output("out", S, S).output("out-global", S, S);
            h.pipe("users", "u", "U1", 1, "u=1");
            h.pipe("orders", "u", "o10", 10, "o=10");
            h.pipe("orders", "u", "o8", 8, "o=8", "x=y");
            h.pipe("users", "u", "U2", 9, "u=2");
            h.pipe("orders", "u", "o12", 12);
            h.pipe("orders", "v", "o13", 13, "o=13");
            h.pipe("orders", "u", "o20", 20, "o=20");
            h.pipe("orders", "u", "o14", 14, "o=14");
            h.pipe("orders", "u", "o30", 30, "o=30");
            h.pipe("glob", "k", "G1", 1, "g=1");
            h.pipe("orders2", "a", "k", 2, "p=2");
            h.finish();
        });

        // Headers of uncached windowed aggregations: hopping counts (every window of a record),
        // sliding reduces (windows created on both sides), session reduces (merged sessions'
        // tombstones: Kafka forwards sessions without headers unless through the record cache), and of
        // a regrouped table's reduce.
        scenarios.put("headers_windows", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            WindowKindScenarios.showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5))
                    .advanceBy(Duration.ofMillis(5)))
                .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("hop").withCachingDisabled()), "out-hopping", PSL);
            WindowKindScenarios.showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                .reduce((x, y) -> x + "+" + y,
                    Materialized.<String, String, WindowStore<Bytes, byte[]>>as("slide").withCachingDisabled()), "out-sliding", PSS);
            WindowKindScenarios.showTo(g.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                .reduce((x, y) -> x + "+" + y,
                    Materialized.<String, String, SessionStore<Bytes, byte[]>>as("sess").withCachingDisabled()), "out-session", PSS);
            WindowKindScenarios.showTo(g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(10))).count(),
                "out-session-cached", PSL);
            b.table("tab", SS)
                .groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k), Grouped.with(Serdes.String(), Serdes.String()))
                .reduce((x, y) -> x + "+" + y, (x, y) -> x + "-" + y,
                    Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("regrouped").withCachingDisabled())
                .toStream().to("out-regrouped", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tab", S, S).output("out-hopping", S, L)
                .output("out-sliding", S, S).output("out-session", S, S).output("out-session-cached", S, L).output("out-regrouped", S, S);
            h.pipe("in", "a", "w1", 1, "h=1");
            h.pipe("in", "a", "w7", 7, "h=7");
            h.pipe("in", "a", "w30", 30, "h=30");
            h.pipe("in", "a", "w22", 22, "h=22", "z=z");
            h.pipe("in", "a", "w14", 14, "h=14");
            h.pipe("in", "a", "w18", 18);
            h.pipe("in", "b", "v40", 40, "h=40");
            h.pipe("in", "a", "w26", 26, "h=26");
            h.pipe("tab", "k1", "x1", 1, "t=1");
            h.pipe("tab", "k2", "x2", 2, "t=2");
            h.pipe("tab", "k1", "y1", 3, "t=3");
            h.pipe("tab", "k2", null, 4, "t=4");
            h.pipe("tab", "k1", "y2", 5);
            h.finish();
        });

        // Windowed tables regrouped (old values from the window and session stores): sums of
        // tumbling counts per window start, sliding counts over 1 regrouped per key through a
        // filter, session counts through mapValues, and live sessions per key (merged sessions'
        // tombstones subtract).
        scenarios.put("windowed_table_regroup", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            Grouped<String, Long> gsl = Grouped.with(Serdes.String(), Serdes.Long());
            g.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5))).count()
                .groupBy((w, n) -> KeyValue.pair(Long.toString(w.window().start()), n), gsl)
                .reduce(Long::sum, (x, y) -> x - y).toStream().to("out-tumbling", PSL);
            g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("slide").withCachingDisabled())
                .filter((w, n) -> n > 1)
                .groupBy((w, n) -> KeyValue.pair(w.key(), n), gsl)
                .reduce(Long::sum, (x, y) -> x - y).toStream().to("out-sliding", PSL);
            KTable<org.apache.kafka.streams.kstream.Windowed<String>, Long> sessions =
                g.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(10), Duration.ofMillis(5))).count();
            sessions.mapValues(n -> n * 10)
                .groupBy((w, n) -> KeyValue.pair(w.key(), n), gsl)
                .reduce(Long::sum, (x, y) -> x - y).toStream().to("out-session", PSL);
            sessions.groupBy((w, n) -> KeyValue.pair(w.key(), Long.toString(w.window().start())),
                    Grouped.with(Serdes.String(), Serdes.String()))
                .count().toStream().to("out-live", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-tumbling", S, L)
                .output("out-sliding", S, L).output("out-session", S, L).output("out-live", S, L);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "b", "2", 3);
            h.pipe("in", "a", "3", 8);
            h.pipe("in", "a", "4", 25);
            h.pipe("in", "a", "5", 14);
            h.pipe("in", "b", "6", 16);
            h.pipe("in", "a", "7", 40);
            h.pipe("in", "a", "8", 31);
            h.pipe("in", "b", "9", 20);
            h.pipe("in", "a", "10", 4);
            h.pipe("in", "a", null, 41);
            h.pipe("in", "a", "11", 60);
            h.finish();
        });

        // Foreign-key join results regrouped (old values of the results): orders per customer
        // name through an inner join, per customer (or "null") through a left join.
        scenarios.put("fk_join_regroup", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS);
            KTable<String, String> customers = b.table("customers", SS);
            orders.join(customers, FkJoinScenarios::fk, (o, c) -> c)
                .groupBy((k, c) -> KeyValue.pair(c, k)).count().toStream().to("out-inner", PSL);
            orders.leftJoin(customers, FkJoinScenarios::fk, (o, c) -> show(c))
                .groupBy((k, c) -> KeyValue.pair(c, k))
                .reduce((x, y) -> x + "+" + y, (x, y) -> x + "-" + y).toStream().to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S)
                .output("out-inner", S, L).output("out-left", S, S);
            FkJoinScenarios.orders(h);
            h.finish();
        });

        // The record cache sized by statestore.cache.max.bytes: 0 (Kafka turns caching off for
        // every store) and 400 bytes (entries evicted while a record is processed).
        for (String size : new String[] {"0", "400"}) {
            scenarios.put("cache_size_" + size, out -> {
                Properties p = new Properties();
                p.put("statestore.cache.max.bytes", size);
                StreamsBuilder b = new StreamsBuilder();
                KStream<String, String> st = b.stream("in", SS);
                st.flatMapValues(v -> Main.split(v, ",")).groupByKey().count().toStream().to("out-count", PSL);
                st.flatMap((k, v) -> {
                    java.util.List<KeyValue<String, String>> r = new java.util.ArrayList<>();
                    for (String w : Main.split(v, ",")) r.add(KeyValue.pair(w, k));
                    return r;
                }).groupByKey().reduce((x, y) -> x + "+" + y).toStream().to("out-rekeyed", PSS);
                WindowKindScenarios.showTo(st.groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(),
                    "out-windowed", PSL);
                WindowKindScenarios.showTo(st.groupByKey().windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(10)))
                    .count(), "out-session", PSL);
                KTable<String, String> t = b.table("tin", SS, Materialized.as("tin-store"));
                t.toStream().to("out-table", PSS);
                t.join(b.table("tin2", SS), (x, y) -> x + "+" + y).toStream().to("out-join", PSS);
                Harness h = new Harness(b.build(), p, out).input("in", S, S).input("tin", S, S).input("tin2", S, S)
                    .output("out-count", S, L).output("out-rekeyed", S, S).output("out-windowed", S, L)
                    .output("out-session", S, L).output("out-table", S, S).output("out-join", S, S);
                h.pipe("in", "a", "x,y,x", 1);
                h.pipe("in", "b", "p,q,r,s,t,u,p,q,v,w,x,y", 2);
                h.pipe("in", "a", "y,y,z", 12);
                h.pipe("in", "c", "k1,k2,k3,k4,k5,k6,k7,k8,k1,k2", 5);
                h.pipe("tin", "t1", "v1", 3);
                h.pipe("tin2", "t1", "w1", 4);
                h.pipe("tin", "t1", "v2", 6);
                h.pipe("tin", "t2", null, 7);
                h.pipe("in", "a", "x", 30);
                h.finish();
            });
        }

        // Materialized with serdes but no store name: a table source, filter, mapValues and a
        // table-table join stay unmaterialized (as without Materialized), an aggregation gets a
        // store of a generated name.
        scenarios.put("materialized_without_name", out -> {
            StreamsBuilder b = new StreamsBuilder();
            Materialized<String, String, KeyValueStore<Bytes, byte[]>> m = Materialized.with(Serdes.String(), Serdes.String());
            KTable<String, String> src = b.table("in", Materialized.with(Serdes.String(), Serdes.String()));
            src.toStream().to("out-src", PSS);
            src.filter((k, v) -> v.length() > 1, m).toStream().to("out-filter", PSS);
            src.mapValues(v -> v + "!", Materialized.with(Serdes.String(), Serdes.String())).toStream().to("out-mapped", PSS);
            src.join(b.table("in2", SS), (x, y) -> x + "+" + y, Materialized.with(Serdes.String(), Serdes.String()))
                .toStream().to("out-join", PSS);
            src.groupBy((k, v) -> KeyValue.pair(v, k)).count(Materialized.with(Serdes.String(), Serdes.Long()))
                .toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("in2", S, S).output("out-src", S, S)
                .output("out-filter", S, S).output("out-mapped", S, S).output("out-join", S, S).output("out-count", S, L);
            h.pipe("in2", "a", "r1", 1);
            h.pipe("in", "a", "1", 2);
            h.pipe("in", "a", "22", 3);
            h.pipe("in", "a", "3", 4);
            h.pipe("in", "b", null, 5);
            h.pipe("in", "b", "4", 6);
            h.pipe("in", "a", null, 7);
            h.pipe("in", "b", "4", 8);
            h.pipe("in2", "b", "r2", 9);
            h.finish();
        });

        // The smallest windows: sessions of gap 0 (only records of one instant merge), 1 ms
        // tumbling windows, 2 ms windows hopping by 1 ms, sliding windows of difference 1 ms, each
        // with a 1 ms grace.
        scenarios.put("window_zero_sizes", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            Duration one = Duration.ofMillis(1);
            WindowKindScenarios.showTo(g.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ZERO, one))
                .reduce((x, y) -> x + "+" + y), "out-session", PSS);
            WindowKindScenarios.showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(one, one)).reduce((x, y) -> x + "+" + y),
                "out-tumbling", PSS);
            WindowKindScenarios.showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(2), one).advanceBy(one))
                .reduce((x, y) -> x + "+" + y), "out-hopping", PSS);
            WindowKindScenarios.showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(one, one))
                .reduce((x, y) -> x + "+" + y), "out-sliding", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-session", S, S)
                .output("out-tumbling", S, S).output("out-hopping", S, S).output("out-sliding", S, S);
            h.pipe("in", "a", "v0", 0);
            h.pipe("in", "a", "v0b", 0);
            h.pipe("in", "a", "v1", 1);
            h.pipe("in", "a", "v3", 3);
            h.pipe("in", "a", "v2", 2);
            h.pipe("in", "a", "v3b", 3);
            h.pipe("in", "a", "v1b", 1);
            h.pipe("in", "a", "v5", 5);
            h.pipe("in", "a", "v4", 4);
            h.pipe("in", "a", "v3c", 3);
            h.dropped();
            h.finish();
        });

        // Caching stores one after another: a flatMap's records into a cached table (several
        // updates of a key per input record), a cached mapValues of it, a cached join of it with
        // another table, and a regrouped count behind a repartition topic.
        scenarios.put("cache_chained_stores", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t1 = b.stream("in", SS).flatMap((k, v) -> {
                java.util.List<KeyValue<String, String>> r = new java.util.ArrayList<>();
                for (String w : Main.split(v, ",")) r.add(KeyValue.pair(w.substring(0, 1), w));
                return r;
            }).toTable(Materialized.as("t1"));
            t1.mapValues(v -> v + "!", Materialized.as("t2")).toStream().to("out-mapped", PSS);
            t1.join(b.table("side", SS), (x, y) -> x + "+" + y, Materialized.as("j")).toStream().to("out-join", PSS);
            t1.groupBy((k, v) -> KeyValue.pair(v.substring(v.length() - 1), k)).count().toStream().to("out-count", PSL);
            t1.toStream().to("out-t1", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("side", S, S).output("out-t1", S, S)
                .output("out-mapped", S, S).output("out-join", S, S).output("out-count", S, L);
            h.pipe("side", "a", "A", 1);
            h.pipe("in", "k", "a1,b1,a2", 2);
            h.pipe("in", "k", "a3,a1,c1,b2", 3);
            h.pipe("side", "b", "B", 4);
            h.pipe("in", "k", "b3,b1,b3", 5);
            h.pipe("side", "a", null, 6);
            h.pipe("in", "k", "a4", 7);
            h.finish();
        });

        // Functions answering null: a stream's mapValues (then into a table) and flatMapValues,
        // a table's mapValues unmaterialized, materialized and regrouped (a null is a delete).
        scenarios.put("functions_returning_null", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> st = b.stream("in", SS);
            KStream<String, String> mv = st.mapValues(v -> v.startsWith("x") ? null : v);
            mv.to("out-mv", PSS);
            mv.toTable().toStream().to("out-to-table", PSS);
            st.flatMapValues(v -> java.util.Arrays.asList(v, v.startsWith("x") ? null : v + "'")).to("out-fmv", PSS);
            KTable<String, String> t = b.table("tab", SS);
            t.mapValues(v -> v.startsWith("x") ? null : v + "!").toStream().to("out-tmv", PSS);
            KTable<String, String> m = t.mapValues(v -> v.startsWith("x") ? null : v + "?", Materialized.as("tmv-store"));
            m.toStream().to("out-tmv-mat", PSS);
            m.groupBy((k, v) -> KeyValue.pair(v, k)).count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tab", S, S).output("out-mv", S, S)
                .output("out-to-table", S, S).output("out-fmv", S, S).output("out-tmv", S, S).output("out-tmv-mat", S, S)
                .output("out-count", S, L);
            h.pipe("in", "a", "v1", 1);
            h.pipe("in", "a", "x2", 2);
            h.pipe("in", "b", "x3", 3);
            h.pipe("tab", "a", "v1", 4);
            h.pipe("tab", "a", "x2", 5);
            h.pipe("tab", "b", "x3", 6);
            h.pipe("tab", "b", "v4", 7);
            h.pipe("tab", "a", "x5", 8);
            h.pipe("tab", "b", null, 9);
            h.finish();
        });

        // Headers of results emitted on window close by hopping and sliding windows, and of a
        // cogroup's (uncached) updates.
        scenarios.put("emit_on_close_headers_more", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            WindowKindScenarios.showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(2))
                    .advanceBy(Duration.ofMillis(5)))
                .emitStrategy(org.apache.kafka.streams.kstream.EmitStrategy.onWindowClose()).reduce((x, y) -> x + "+" + y),
                "out-hopping", PSS);
            WindowKindScenarios.showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(5), Duration.ofMillis(2)))
                .emitStrategy(org.apache.kafka.streams.kstream.EmitStrategy.onWindowClose()).reduce((x, y) -> x + "+" + y),
                "out-sliding", PSS);
            g.cogroup((String k, String v, String agg) -> agg + "/" + v)
                .aggregate(() -> "", Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("co").withCachingDisabled())
                .toStream().to("out-cogroup", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-hopping", S, S).output("out-sliding", S, S)
                .output("out-cogroup", S, S);
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

        // Log-and-continue handlers where the records come from a global table's topic and a
        // table's topic (values that do not deserialize), and from a processor and its
        // punctuation throwing.
        scenarios.put("error_handlers_global_punctuation", out -> {
            Properties p = new Properties();
            p.put("deserialization.exception.handler", LogAndContinueExceptionHandler.class.getName());
            p.put("processing.exception.handler", LogAndContinueProcessingExceptionHandler.class.getName());
            Harness h = new Harness(globalPunctuationTopology(), p, out).input("glob", S, S).input("orders", S, S).input("tab", S, S)
                .input("ticks", S, S).output("out-join", S, S).output("out-tab", S, I).output("out-ticks", S, S);
            h.pipe("glob", "k1", "abcd", 1);
            h.pipe("glob", "k2", "abc", 2);
            h.pipe("orders", "o1", "k1", 3);
            h.pipe("orders", "o2", "k2", 4);
            h.dropped();
            h.pipe("tab", "t", "ab", 5);
            h.pipe("tab", "t", "wxyz", 6);
            h.dropped();
            h.pipe("ticks", "a", "x0", 0);
            h.pipe("ticks", "a", "x5", 5);
            h.pipe("ticks", "a", "x10", 10);
            h.pipe("ticks", "a", "x20", 20);
            h.pipe("ticks", "a", "bad", 25);
            h.pipe("ticks", "a", "x30", 30);
            h.pipe("ticks", "a", "x41", 41);
            h.dropped();
            h.finish();
        });

        // Log-and-continue handlers: values and keys that do not deserialize (an Integer serde
        // reading 3 bytes), exceptions thrown by a mapValues, an aggregator and a table's
        // mapValues, and a timestamp extractor answering -1; each dropped record counted.
        scenarios.put("error_handlers_continue", out -> {
            Properties p = new Properties();
            p.put("deserialization.exception.handler", LogAndContinueExceptionHandler.class.getName());
            p.put("processing.exception.handler", LogAndContinueProcessingExceptionHandler.class.getName());
            StreamsBuilder b = new StreamsBuilder();
            throwingNums(b, v -> Integer.toString(v % 1000));
            b.stream("ints", Consumed.with(Serdes.Integer(), Serdes.String())).mapValues(v -> v + "!")
                .to("out-ints", Produced.with(Serdes.Integer(), Serdes.String()));
            throwingTable(b);
            b.stream("stamped", SS.withTimestampExtractor((rec, partitionTime) ->
                    rec.value() == null ? -1 : Long.parseLong((String) rec.value())))
                .to("out-stamped", PSS);
            Harness h = new Harness(b.build(), p, out).input("nums", S, S).input("ints", S, S).input("tab", S, S)
                .input("stamped", S, S).output("out-mapped", S, S).output("out-count", S, L).output("out-ints", I, S)
                .output("out-table", S, S).output("out-stamped", S, S);
            h.pipe("nums", "a", "1234", 1);
            h.pipe("nums", "a", "123", 2);
            h.pipe("nums", "b", "abc!", 3);
            h.pipe("nums", "boom", "9999", 4);
            h.pipe("nums", "a", null, 5);
            h.pipe("nums", "b", "", 6);
            h.pipe("nums", "b", "4321", 7);
            h.dropped();
            h.pipe("ints", "abcd", "v", 8);
            h.pipe("ints", "abc", "w", 9);
            h.pipe("ints", null, "x", 10);
            h.dropped();
            h.pipe("tab", "k", "good", 11);
            h.pipe("tab", "k", "bad", 12);
            h.pipe("tab", "k", null, 13);
            h.dropped();
            h.pipe("stamped", "s", "5", 14);
            h.pipe("stamped", "s", null, 15);
            h.pipe("stamped", "s", "3", 16);
            h.dropped();
            h.finish();
        });
    }
}
