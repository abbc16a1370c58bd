package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KGroupedTable;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.Suppressed.BufferConfig;
import org.apache.kafka.streams.kstream.TableJoined;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.ValueTransformerWithKey;
import org.apache.kafka.streams.processor.ProcessorContext;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.apache.kafka.streams.processor.TopicNameExtractor;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Scenarios of the tenth conformance hunt (tests/conformance/hunt10_scenarios_test.cpp writes the
 * same with the kstreams DSL): every window kind at the grace boundary (grace 0 and 5), merges and
 * windows reaching records past the store's retention (RocksDB and in memory, cached or not),
 * final results of windowed cogroups and of sliding and session windows without grace, chains of
 * table views into table-table joins of every kind, to_table then joins, foreign-key joins with a
 * (key, value) extractor and partitioners, sinks with partitioners and topic extractors reading
 * headers, invalid timestamps at every kind of source, grouped-table aggregations on each store.
 */
final class Hunt10Scenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());
    static final Produced<String, Long> PSL = Produced.with(Serdes.String(), Serdes.Long());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    static String concat(String x, String y) { return x + "+" + y; }

    /** "ts:payload" values give ts ("p" the partition time); others the record's timestamp. */
    static long fromValue(org.apache.kafka.clients.consumer.ConsumerRecord<Object, Object> r, long partitionTime) {
        String v = (String) r.value();
        int i = v == null ? -1 : v.indexOf(':');
        if (i < 0) return r.timestamp();
        String t = v.substring(0, i);
        return t.equals("p") ? partitionTime : Long.parseLong(t);
    }

    /** Values "v<ts>" on key a (and b) around the grace boundaries of 10 ms windows. */
    static void graceInputs(Harness h) {
        long[] ts = {0, 10, 9, 14, 4, 15, 9, 5, 25, 15, 14, 30, 20, 19, 45, 35, 34, 36};
        for (long t : ts) h.pipe("in", "a", "v" + t, t);
        h.pipe("in", "b", "v44", 44);
        h.pipe("in", "b", "v33", 33);
        h.dropped();
    }

    /** "value#n", n counting the transformer's calls for the key (state in the transformer). */
    static final class Numbered implements ValueTransformerWithKey<String, String, String> {
        private final Map<String, Integer> calls = new java.util.HashMap<>();

        @Override
        public void init(ProcessorContext context) { }

        @Override
        public String transform(String key, String value) {
            int n = calls.merge(key, 1, Integer::sum);
            return value == null ? (n % 2 == 0 ? "gone#" + n : null) : value + "#" + n;
        }

        @Override
        public void close() { }
    }

    /** "out-" + the last "route" header, else "out-" + the source topic. */
    static final class ByHeader implements TopicNameExtractor<String, String> {
        @Override
        public String extract(String k, String v, org.apache.kafka.streams.processor.RecordContext ctx) {
            org.apache.kafka.common.header.Header hd = ctx.headers().lastHeader("route");
            return hd == null ? "out-" + ctx.topic() : "out-" + new String(hd.value(), java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        public String toString() { return "topic_name_extractor"; }
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // Each window kind at the grace boundary, grace 0 and 5: tumbling and hopping (end +
        // grace), sliding (record time + difference + grace), sessions (session end + grace);
        // reduces concatenating values, the dropped records counted.
        scenarios.put("window_grace_exact", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            Duration ten = Duration.ofMillis(10);
            for (int grace : new int[] {0, 5}) {
                Duration gr = Duration.ofMillis(grace);
                WindowKindScenarios.showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(ten, gr)).reduce(Hunt10Scenarios::concat),
                    "out-tumbling-" + grace, PSS);
                WindowKindScenarios.showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(ten, gr).advanceBy(Duration.ofMillis(5)))
                    .reduce(Hunt10Scenarios::concat, Materialized.<String, String, WindowStore<Bytes, byte[]>>as("hop-" + grace)
                        .withCachingDisabled()), "out-hopping-" + grace, PSS);
                WindowKindScenarios.showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(ten, gr))
                    .reduce(Hunt10Scenarios::concat, Materialized.<String, String, WindowStore<Bytes, byte[]>>as("slide-" + grace)
                        .withCachingDisabled()), "out-sliding-" + grace, PSS);
                WindowKindScenarios.showTo(g.windowedBy(SessionWindows.ofInactivityGapAndGrace(ten, gr))
                    .reduce(Hunt10Scenarios::concat, Materialized.<String, String, SessionStore<Bytes, byte[]>>as("sess-" + grace)
                        .withCachingDisabled()), "out-session-" + grace, PSS);
            }
            Harness h = new Harness(b.build(), out).input("in", S, S);
            for (String k : new String[] {"tumbling", "hopping", "sliding", "session"})
                for (int grace : new int[] {0, 5}) h.output("out-" + k + "-" + grace, S, S);
            graceInputs(h);
            h.finish();
        });

        // Sessions (gap 10, grace 5) and sliding windows (10, grace 5) on RocksDB and in memory,
        // cached and not, at the default retention: a record in grace merging (or reading)
        // sessions and windows that the store's retention has passed.
        scenarios.put("window_retention_reach", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            for (String kind : new String[] {"rocks", "mem"}) {
                for (boolean cached : new boolean[] {true, false}) {
                    String n = kind + (cached ? "-cached" : "-uncached");
                    Materialized.StoreType type = kind.equals("mem") ? Materialized.StoreType.IN_MEMORY : Materialized.StoreType.ROCKS_DB;
                    Materialized<String, String, SessionStore<Bytes, byte[]>> ms =
                        Materialized.<String, String, SessionStore<Bytes, byte[]>>as("sess-" + n).withStoreType(type);
                    Materialized<String, String, WindowStore<Bytes, byte[]>> mw =
                        Materialized.<String, String, WindowStore<Bytes, byte[]>>as("slide-" + n).withStoreType(type);
                    if (!cached) {
                        ms = ms.withCachingDisabled();
                        mw = mw.withCachingDisabled();
                    }
                    WindowKindScenarios.showTo(g.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                        .reduce(Hunt10Scenarios::concat, ms), "out-session-" + n, PSS);
                    WindowKindScenarios.showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                        .reduce(Hunt10Scenarios::concat, mw), "out-sliding-" + n, PSS);
                }
            }
            Harness h = new Harness(b.build(), out).input("in", S, S);
            for (String kind : new String[] {"rocks", "mem"})
                for (String c : new String[] {"-cached", "-uncached"}) {
                    h.output("out-session-" + kind + c, S, S);
                    h.output("out-sliding-" + kind + c, S, S);
                }
            h.pipe("in", "a", "s0", 0);
            h.pipe("in", "a", "s20", 20);
            h.pipe("in", "a", "s10", 10);
            h.pipe("in", "a", "s40", 40);
            h.pipe("in", "a", "s52", 52);
            h.pipe("in", "a", "s36", 36);
            h.pipe("in", "a", "s46", 46);
            h.pipe("in", "a", "s70", 70);
            h.pipe("in", "a", "s61", 61);
            h.pipe("in", "a", "s66", 66);
            h.dropped();
            h.finish();
        });

        // Final results (suppress until window closes) of windowed cogroups (tumbling, session),
        // and of sliding and session reduces with no grace.
        scenarios.put("suppress_final_cogroup_no_grace", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g1 = b.stream("in1", SS).groupByKey();
            KGroupedStream<String, String> g2 = b.stream("in2", SS).groupByKey();
            WindowKindScenarios.showTo(g1.<String>cogroup((k, v, agg) -> agg + "+" + v).cogroup(g2, (k, v, agg) -> agg + "#" + v)
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(2)))
                .aggregate(() -> "", Materialized.with(Serdes.String(), Serdes.String()))
                .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-cogroup-tumbling", PSS);
            WindowKindScenarios.showTo(g1.<String>cogroup((k, v, agg) -> agg + "+" + v).cogroup(g2, (k, v, agg) -> agg + "#" + v)
                .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(5), Duration.ofMillis(2)))
                .aggregate(() -> "", (k, x, y) -> x + "|" + y, Materialized.with(Serdes.String(), Serdes.String()))
                .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-cogroup-session", PSS);
            WindowKindScenarios.showTo(g1.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5)))
                .reduce(Hunt10Scenarios::concat).suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())),
                "out-sliding", PSS);
            WindowKindScenarios.showTo(g1.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5)))
                .reduce(Hunt10Scenarios::concat).suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())),
                "out-session", PSS);
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, S).output("out-cogroup-tumbling", S, S)
                .output("out-cogroup-session", S, S).output("out-sliding", S, S).output("out-session", S, S);
            h.pipe("in1", "a", "a1", 1);
            h.pipe("in2", "a", "b3", 3);
            h.pipe("in1", "b", "c5", 5);
            h.pipe("in1", "a", "a6", 6);
            h.pipe("in2", "b", "d11", 11);
            h.pipe("in1", "a", "a12", 12);
            h.pipe("in2", "a", "b9", 9);
            h.pipe("in1", "a", "a17", 17);
            h.pipe("in1", "a", "a11", 11);
            h.pipe("in2", "b", "d24", 24);
            h.pipe("in1", "a", "a22", 22);
            h.pipe("in1", "b", "c40", 40);
            h.finish();
        });

        // Chains of views into table-table joins: filterNot then mapValues (unmaterialized), a
        // transformValues materialized, a filter materialized uncached; joined inner, left and
        // outer with results materialized cached and uncached, tombstones on both sides,
        // out-of-order timestamps.
        scenarios.put("table_join_view_chains", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> l = b.table("left", SS);
            KTable<String, String> r = b.table("right", SS);
            KTable<String, String> lv = l.filterNot((k, v) -> v.startsWith("x")).mapValues(v -> v.toUpperCase());
            KTable<String, String> rv = r.transformValues(Numbered::new,
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("rt").withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
            KTable<String, String> rf = r.filter((k, v) -> !v.startsWith("y"),
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("rf").withCachingDisabled());
            lv.join(rv, (x, y) -> x + "*" + y).toStream().to("out-inner", PSS);
            lv.leftJoin(rf, (x, y) -> x + "*" + show(y),
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("lj").withCachingDisabled()).toStream().to("out-left", PSS);
            lv.outerJoin(rf, (x, y) -> show(x) + "*" + show(y),
                Materialized.as("oj")).toStream().to("out-outer-cached", PSS);
            rv.outerJoin(lv, (x, y) -> show(x) + "*" + show(y)).filter((k, v) -> !v.contains("null"))
                .toStream().to("out-outer-filtered", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out-inner", S, S)
                .output("out-left", S, S).output("out-outer-cached", S, S).output("out-outer-filtered", S, S);
            h.pipe("left", "a", "l1", 10);
            h.pipe("right", "a", "r1", 5);
            h.pipe("right", "b", "r2", 12);
            h.pipe("left", "b", "xl2", 3);
            h.pipe("left", "b", "l3", 20);
            h.pipe("right", "a", "y4", 8);
            h.pipe("right", "a", null, 25);
            h.pipe("left", "a", "xl5", 7);
            h.pipe("right", "a", "r6", 30);
            h.pipe("left", "a", "l7", 2);
            h.pipe("left", "b", null, 40);
            h.pipe("right", "b", null, 41);
            h.pipe("left", "c", null, 42);
            h.pipe("right", "c", null, 43);
            h.pipe("right", "c", "r8", 44);
            h.pipe("left", "c", "xl9", 45);
            h.pipe("left", "c", "l10", 46);
            h.pipe("right", "c", "y11", 1);
            h.finish();
        });

        // A stream turned into a table (unmaterialized and materialized), then joined by a stream
        // (inner), with another table (left) and regrouped; null values are deletes.
        scenarios.put("to_table_then_join", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.stream("in", SS).toTable();
            KTable<String, String> m = b.stream("in2", SS).mapValues(v -> v == null ? null : v + "!")
                .toTable(Materialized.as("m"));
            b.stream("st", SS).join(t, (x, y) -> x + "@" + y).to("out-stream", PSS);
            t.leftJoin(m, (x, y) -> x + "&" + show(y)).toStream().to("out-left", PSS);
            m.join(t, (x, y) -> x + "&" + y).groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k)).count()
                .toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("in2", S, S).input("st", S, S)
                .output("out-stream", S, S).output("out-left", S, S).output("out-count", S, L);
            h.pipe("in", "a", "t1", 1);
            h.pipe("st", "a", "s1", 2);
            h.pipe("in2", "a", "m1", 3);
            h.pipe("in", "a", "t2", 4);
            h.pipe("in2", "a", null, 5);
            h.pipe("st", "b", "s2", 6);
            h.pipe("in", "b", "u1", 7);
            h.pipe("in2", "b", "n1", 8);
            h.pipe("in", "a", null, 9);
            h.pipe("st", "a", "s3", 10);
            h.pipe("in2", "b", "t3", 11);
            h.pipe("in", "b", null, 12);
            h.finish();
        });

        // Foreign-key joins with the (key, value) extractor: the foreign key moves back and forth,
        // a left join with null foreign keys, deletes on both sides; TableJoined with both
        // partitioners (one partition in the driver).
        scenarios.put("fk_join_key_value_extractor", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS);
            KTable<String, String> customers = b.table("customers", SS);
            StreamPartitioner<String, Void> p = (topic, k, v, n) -> Optional.of(Set.of(0));
            orders.join(customers, (k, v) -> v.equals("self") ? k : FkJoinScenarios.fk(v),
                    (o, c) -> o + "/" + c, TableJoined.with(p, p))
                .toStream().to("out-inner", PSS);
            orders.leftJoin(customers, (k, v) -> v.startsWith("none") ? null : k.substring(0, 1) + (v.equals("self") ? k : FkJoinScenarios.fk(v)),
                    (o, c) -> o + "/" + show(c), TableJoined.<String, String>as("lfk").withPartitioner(p))
                .toStream().to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S)
                .output("out-inner", S, S).output("out-left", S, S);
            h.pipe("customers", "c1", "Ann", 1);
            h.pipe("customers", "oc1", "Oan", 2);
            h.pipe("orders", "o", "c1:x", 3);
            h.pipe("orders", "o", "c2:x", 4);
            h.pipe("orders", "o", "c1:y", 5);
            h.pipe("customers", "c2", "Ben", 6);
            h.pipe("orders", "o", "c2:z", 7);
            h.pipe("orders", "o", "c1:z", 8);
            h.pipe("customers", "oc2", "Oben", 9);
            h.pipe("orders", "o", "none", 10);
            h.pipe("orders", "o", "c2:w", 11);
            h.pipe("customers", "c2", null, 12);
            h.pipe("customers", "oc2", null, 13);
            h.pipe("orders", "c1", "self", 14);
            h.pipe("customers", "c1", "Anna", 15);
            h.pipe("orders", "c1", null, 16);
            h.pipe("orders", "o", null, 17);
            h.pipe("customers", "c2", "Bea", 18);
            h.finish();
        });

        // Sinks: a stream partitioner on to() and on repartition() with a partition count, a
        // topic extractor reading the record's headers and source topic.
        scenarios.put("sink_partitioner_extractor_headers", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            StreamPartitioner<String, String> zero = (topic, k, v, n) -> Optional.of(Set.of(0));
            s.to("out-part", Produced.with(Serdes.String(), Serdes.String()).withStreamPartitioner(zero));
            s.repartition(Repartitioned.<String, String>as("rp").withNumberOfPartitions(1).withStreamPartitioner(zero))
                .groupByKey().count().toStream().to("out-count", PSL);
            s.mapValues(v -> v + "!").to(new ByHeader(), PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-part", S, S).output("out-count", S, L)
                .output("out-x", S, S).output("out-y", S, S).output("out-in", S, S);
            h.pipe("in", "a", "v1", 1, "route=x");
            h.pipe("in", "b", "v2", 2);
            h.pipe("in", "a", "v3", 3, "route=y", "route=x");
            h.pipe("in", "c", "v4", 4, "other=1");
            h.pipe("in", null, "v5", 5, "route=y");
            h.finish();
        });

        // Negative timestamps from the extractor ("ts:payload" values) at each kind of source: a
        // stream, a table, a global table (skipped and counted, or taken); the partition time
        // for "p:" values.
        scenarios.put("invalid_timestamps_sources", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", SS.withTimestampExtractor(Hunt10Scenarios::fromValue)).to("out-stream", PSS);
            b.table("tab", SS.withTimestampExtractor(Hunt10Scenarios::fromValue)).toStream().to("out-table", PSS);
            b.table("tab2", SS.withTimestampExtractor(Hunt10Scenarios::fromValue), Materialized.as("tab2-store"))
                .toStream().to("out-table-mat", PSS);
            org.apache.kafka.streams.kstream.GlobalKTable<String, String> g =
                b.globalTable("glob", SS.withTimestampExtractor(Hunt10Scenarios::fromValue));
            b.stream("orders", SS).leftJoin(g, (k, v) -> v, (o, x) -> o + "=" + show(x)).to("out-global", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tab", S, S).input("tab2", S, S)
                .input("glob", S, S).input("orders", S, S).output("out-stream", S, S)
                .output("out-table", S, S).output("out-table-mat", S, S).output("out-global", S, S);
            h.pipe("in", "a", "5:v1", 1);
            h.pipe("in", "a", "-1:v2", 2);
            h.pipe("in", "a", "p:v3", 3);
            h.pipe("in", "a", "3:v4", 4);
            h.pipe("in", "a", "p:v5", 5);
            h.pipe("tab", "t", "4:x1", 6);
            h.pipe("tab", "t", "-2:x2", 7);
            h.pipe("tab", "t", "p:x3", 8);
            h.pipe("tab2", "t", "4:x1", 6);
            h.pipe("tab2", "t", "-2:x2", 7);
            h.pipe("tab2", "t", null, 8);
            h.pipe("glob", "g", "-1:y1", 9);
            h.pipe("glob", "g2", "2:y2", 10);
            h.pipe("orders", "o", "g", 11);
            h.pipe("orders", "o", "g2", 12);
            h.dropped();
            h.finish();
        });

        // A grouped table's count, reduce and aggregate in memory uncached, persistent uncached
        // and in memory cached.
        scenarios.put("grouped_table_store_kinds", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedTable<String, String> g = b.table("users", SS)
                .groupBy((k, v) -> KeyValue.pair(v, k), Grouped.with(Serdes.String(), Serdes.String()));
            g.count(Materialized.<String, Long>as(Stores.inMemoryKeyValueStore("cnt-mem")).withCachingDisabled())
                .toStream().to("out-count-mem", PSL);
            g.reduce(Hunt10Scenarios::concat, (x, y) -> x + "-" + y,
                    Materialized.<String, String>as(Stores.persistentKeyValueStore("red-rocks")).withCachingDisabled())
                .toStream().to("out-reduce-rocks", PSS);
            g.aggregate(() -> "", (k, v, agg) -> agg + "+" + k, (k, v, agg) -> agg + "-" + k,
                    Materialized.<String, String>as(Stores.inMemoryKeyValueStore("agg-mem")).withCachingEnabled())
                .toStream().to("out-agg-mem-cached", PSS);
            Harness h = new Harness(b.build(), out).input("users", S, S).output("out-count-mem", S, L)
                .output("out-reduce-rocks", S, S).output("out-agg-mem-cached", S, S);
            Main.userMoves(h);
            h.finish();
        });

        // The join-semantics walk of Kafka's developer guide: one key, values and nulls taking
        // turns on both sides, through stream-stream (window 10, no grace), stream-table and
        // table-table joins of every kind.
        scenarios.put("docs_join_semantics", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            KTable<String, String> tl = b.table("tleft", SS);
            KTable<String, String> tr = b.table("tright", SS);
            org.apache.kafka.streams.kstream.JoinWindows w =
                org.apache.kafka.streams.kstream.JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10));
            l.join(r, (x, y) -> x + "+" + y, w).to("out-ss-inner", PSS);
            l.leftJoin(r, (x, y) -> x + "+" + show(y), w).to("out-ss-left", PSS);
            l.outerJoin(r, (x, y) -> show(x) + "+" + show(y), w).to("out-ss-outer", PSS);
            l.join(tr, (x, y) -> x + "+" + y).to("out-st-inner", PSS);
            l.leftJoin(tr, (x, y) -> x + "+" + show(y)).to("out-st-left", PSS);
            tl.join(tr, (x, y) -> x + "+" + y).toStream().to("out-tt-inner", PSS);
            tl.leftJoin(tr, (x, y) -> x + "+" + show(y)).toStream().to("out-tt-left", PSS);
            tl.outerJoin(tr, (x, y) -> show(x) + "+" + show(y)).toStream().to("out-tt-outer", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).input("tleft", S, S)
                .input("tright", S, S);
            for (String o : new String[] {"ss-inner", "ss-left", "ss-outer", "st-inner", "st-left", "tt-inner", "tt-left", "tt-outer"})
                h.output("out-" + o, S, S);
            String[][] walk = {{"left", null}, {"right", null}, {"left", "A"}, {"right", "a"}, {"left", "B"}, {"right", "b"},
                {"left", null}, {"right", null}, {"left", "C"}, {"right", "c"}, {"right", null}, {"left", null},
                {"right", null}, {"right", "d"}, {"left", "D"}};
            for (int i = 0; i < walk.length; i++) {
                h.pipe(walk[i][0], "k", walk[i][1], i + 1);
                h.pipe("t" + walk[i][0], "k", walk[i][1], i + 1);
            }
            h.pipe("left", "k", "E", 40);
            h.pipe("tleft", "k", "E", 40);
            h.dropped();
            h.finish();
        });

        // Sliding windows (10, grace 20) with records exactly 10 apart and out-of-order ones on
        // the window boundaries: an uncached reduce, a cached aggregate, a count on window close.
        scenarios.put("sliding_exact_boundaries", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            SlidingWindows w = SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(20));
            WindowKindScenarios.showTo(g.windowedBy(w).reduce(Hunt10Scenarios::concat,
                Materialized.<String, String, WindowStore<Bytes, byte[]>>as("sr").withCachingDisabled()), "out-reduce", PSS);
            WindowKindScenarios.showTo(g.windowedBy(w).aggregate(() -> "", (k, v, agg) -> agg + "/" + v), "out-agg", PSS);
            WindowKindScenarios.showTo(g.windowedBy(w).emitStrategy(org.apache.kafka.streams.kstream.EmitStrategy.onWindowClose())
                .count(), "out-close", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-reduce", S, S).output("out-agg", S, S)
                .output("out-close", S, L);
            for (long t : new long[] {10, 20, 0, 30, 15, 5, 25, 20, 40, 30, 9, 60, 41, 50, 70, 80, 59})
                h.pipe("in", "a", "v" + t, t);
            h.dropped();
            h.finish();
        });

        // Two streams with different timestamps merged into windowed aggregations: a tumbling
        // count without grace emitting on update and on close, hopping windows whose advance is
        // their size; stream time is the merged records'.
        scenarios.put("merged_streams_windowed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> m = b.stream("in1", SS).merge(b.stream("in2", SS).mapValues(v -> v + "'"));
            KGroupedStream<String, String> g = m.groupByKey();
            WindowKindScenarios.showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(), "out-count", PSL);
            WindowKindScenarios.showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                .emitStrategy(org.apache.kafka.streams.kstream.EmitStrategy.onWindowClose()).reduce(Hunt10Scenarios::concat),
                "out-close", PSS);
            WindowKindScenarios.showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(3))
                .advanceBy(Duration.ofMillis(10))).reduce(Hunt10Scenarios::concat), "out-hopping", PSS);
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, S).output("out-count", S, L)
                .output("out-close", S, S).output("out-hopping", S, S);
            h.pipe("in1", "a", "x1", 1);
            h.pipe("in2", "a", "y12", 12);
            h.pipe("in1", "a", "x8", 8);
            h.pipe("in1", "b", "x9", 9);
            h.pipe("in2", "b", "y11", 11);
            h.pipe("in1", "a", "x21", 21);
            h.pipe("in2", "a", "y19", 19);
            h.pipe("in2", "a", "y18", 18);
            h.pipe("in1", "b", "x30", 30);
            h.pipe("in2", "a", "y29", 29);
            h.dropped();
            h.finish();
        });

        // Time limits on a table-table join's result (a buffer of two records emitting early) and
        // on a left join's materialized result (no wait).
        scenarios.put("suppress_time_limit_join", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> l = b.table("left", SS);
            KTable<String, String> r = b.table("right", SS);
            l.join(r, (x, y) -> x + "+" + y)
                .suppress(Suppressed.untilTimeLimit(Duration.ofMillis(5), BufferConfig.maxRecords(2).emitEarlyWhenFull()))
                .toStream().to("out-inner", PSS);
            l.leftJoin(r, (x, y) -> x + "+" + show(y), Materialized.as("lj"))
                .suppress(Suppressed.untilTimeLimit(Duration.ZERO, BufferConfig.unbounded()))
                .toStream().to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out-inner", S, S)
                .output("out-left", S, S);
            h.pipe("left", "a", "l1", 1);
            h.pipe("right", "a", "r1", 2);
            h.pipe("left", "b", "l2", 3);
            h.pipe("right", "b", "r2", 4);
            h.pipe("right", "c", "r3", 5);
            h.pipe("left", "c", "l3", 6);
            h.pipe("left", "a", "l4", 6);
            h.pipe("right", "a", null, 8);
            h.pipe("left", "d", "l5", 20);
            h.pipe("right", "b", "r6", 21);
            h.pipe("left", "b", null, 22);
            h.pipe("right", "d", "r7", 40);
            h.finish();
        });

        // Tables in key-value stores that keep no timestamps (Stores.inMemoryKeyValueStore,
        // persistentKeyValueStore: Kafka reads their rows back with timestamp -1 unless a cache
        // still holds them), cached and not, joined with tables that keep them: a result's
        // timestamp is the larger of the two sides' as read.
        scenarios.put("plain_store_timestamps", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> ta = b.table("ta", SS, Materialized.as(Stores.inMemoryKeyValueStore("ta-store")));
            KTable<String, String> tb = b.table("tb", SS, Materialized.as(Stores.persistentKeyValueStore("tb-store")));
            KTable<String, String> tc = b.table("tc", SS);
            KTable<String, String> td = b.table("td", SS, Materialized.<String, String>as(Stores.inMemoryKeyValueStore("td-store"))
                .withCachingDisabled());
            tc.join(td, (x, y) -> x + "+" + y).toStream().to("out-cd", PSS);
            ta.join(tc, (x, y) -> x + "+" + y).toStream().to("out-ac", PSS);
            tc.join(tb, (x, y) -> x + "+" + y).toStream().to("out-cb", PSS);
            ta.outerJoin(tb, (x, y) -> show(x) + "+" + show(y)).toStream().to("out-ab", PSS);
            ta.filter((k, v) -> !v.startsWith("x"), Materialized.as(Stores.inMemoryKeyValueStore("fa")))
                .join(tc, (x, y) -> x + "*" + y).toStream().to("out-fc", PSS);
            KTable<String, Long> cnt = b.stream("st", SS).groupByKey()
                .count(Materialized.as(Stores.inMemoryKeyValueStore("cnt")));
            cnt.toStream().to("out-count", PSL);
            tc.join(cnt, (x, n) -> x + "#" + n).toStream().to("out-cnt-join", PSS);
            b.stream("probe", SS).join(ta, (x, y) -> x + "@" + y).to("out-probe", PSS);
            Harness h = new Harness(b.build(), out).input("ta", S, S).input("tb", S, S).input("tc", S, S)
                .input("td", S, S).input("st", S, S).input("probe", S, S).output("out-cd", S, S).output("out-ac", S, S).output("out-cb", S, S)
                .output("out-ab", S, S).output("out-fc", S, S).output("out-count", S, L).output("out-cnt-join", S, S)
                .output("out-probe", S, S);
            h.pipe("ta", "k", "a1", 10);
            h.pipe("td", "k", "d1", 15);
            h.pipe("tb", "k", "b1", 20);
            h.pipe("tc", "k", "c1", 5);
            h.pipe("ta", "k", "a2", 3);
            h.pipe("tb", "k", "b2", 4);
            h.pipe("st", "k", "s", 30);
            h.pipe("tc", "k", "c2", 6);
            h.pipe("st", "k", "s", 2);
            h.pipe("ta", "k", "xa3", 7);
            h.pipe("tc", "k", "c3", 1);
            h.pipe("probe", "k", "p", 0);
            h.pipe("ta", "k", null, 8);
            h.pipe("tb", "k", null, 9);
            h.pipe("td", "k", "d2", 2);
            h.pipe("tc", "k", "c4", 3);
            h.finish();
        });

        // Stream-stream joins (window 10) dropping records whose window has expired (record time
        // + after + grace below stream time), inner with grace 5, left with none, outer with
        // grace 5 and an asymmetric window; the dropped records counted.
        scenarios.put("stream_join_expired_dropped", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            org.apache.kafka.streams.kstream.JoinWindows w = org.apache.kafka.streams.kstream.JoinWindows
                .ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5));
            l.join(r, (x, y) -> x + "+" + y, w).to("out-inner", PSS);
            l.leftJoin(r, (x, y) -> x + "+" + show(y),
                org.apache.kafka.streams.kstream.JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10))).to("out-left", PSS);
            l.outerJoin(r, (x, y) -> show(x) + "+" + show(y), w.before(Duration.ofMillis(2))).to("out-outer", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out-inner", S, S)
                .output("out-left", S, S).output("out-outer", S, S);
            h.pipe("left", "a", "L100", 100);
            h.pipe("right", "a", "R100", 100);
            h.pipe("left", "a", "L84", 84);
            h.pipe("left", "a", "L85", 85);
            h.pipe("right", "a", "R90", 90);
            h.pipe("right", "a", "R84", 84);
            h.dropped();
            h.pipe("left", "b", "L120", 120);
            h.pipe("right", "a", "R105", 105);
            h.pipe("right", "b", "R112", 112);
            h.pipe("left", "a", "L104", 104);
            h.pipe("left", "b", "L109", 109);
            h.pipe("left", "c", "L140", 140);
            h.dropped();
            h.finish();
        });

        // DSL stores from suppliers that keep no timestamps, uncached: Kafka puts a persistent
        // one (Stores.persistentKeyValueStore, persistentWindowStore) behind an adapter that reads
        // every row back with timestamp -1, while an in-memory one keeps them. Aggregations take
        // max(record, row) as the result's timestamp, table-table joins the larger side's.
        scenarios.put("plain_persistent_stores", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t1 = b.table("t1", SS, Materialized.<String, String>as(Stores.persistentKeyValueStore("t1-store"))
                .withCachingDisabled());
            KTable<String, String> t2 = b.table("t2", SS, Materialized.<String, String>as(
                Stores.persistentTimestampedKeyValueStore("t2-store")).withCachingDisabled());
            t2.join(t1, (x, y) -> x + "+" + y).toStream().to("out-join", PSS);
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            g.count(Materialized.<String, Long>as(Stores.persistentKeyValueStore("cnt-plain")).withCachingDisabled())
                .toStream().to("out-count-plain", PSL);
            g.count(Materialized.<String, Long>as(Stores.inMemoryKeyValueStore("cnt-mem")).withCachingDisabled())
                .toStream().to("out-count-mem", PSL);
            g.reduce(Hunt10Scenarios::concat, Materialized.<String, String>as(Stores.persistentKeyValueStore("red-cached")))
                .toStream().to("out-reduce-cached", PSS);
            WindowKindScenarios.showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                .count(Materialized.<String, Long>as(Stores.persistentWindowStore("w-plain", Duration.ofMillis(100),
                    Duration.ofMillis(10), false)).withCachingDisabled()), "out-window-plain", PSL);
            WindowKindScenarios.showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                .count(Materialized.<String, Long>as(Stores.inMemoryWindowStore("w-mem", Duration.ofMillis(100),
                    Duration.ofMillis(10), false)).withCachingDisabled()), "out-window-mem", PSL);
            WindowKindScenarios.showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                .count(Materialized.<String, Long>as(Stores.persistentTimestampedWindowStore("w-ts", Duration.ofMillis(100),
                    Duration.ofMillis(10), false)).withCachingDisabled()), "out-window-ts", PSL);
            Harness h = new Harness(b.build(), out).input("t1", S, S).input("t2", S, S).input("in", S, S)
                .output("out-join", S, S).output("out-count-plain", S, L).output("out-count-mem", S, L)
                .output("out-reduce-cached", S, S).output("out-window-plain", S, L).output("out-window-mem", S, L)
                .output("out-window-ts", S, L);
            h.pipe("t1", "k", "a", 20);
            h.pipe("t2", "k", "x", 5);
            h.pipe("t1", "k", "b", 3);
            h.pipe("t2", "k", "y", 2);
            h.pipe("in", "k", "v", 8);
            h.pipe("in", "k", "w", 4);
            h.pipe("in", "k", "u", 6);
            h.pipe("in", "j", "z", 15);
            h.pipe("in", "j", "z", 12);
            h.finish();
        });

        // Sliding and hopping windows in window stores that keep no timestamps
        // (Stores.persistentWindowStore), uncached and cached: the sliding aggregation reads each
        // window's latest record time back as -1.
        scenarios.put("plain_window_stores_sliding", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            SlidingWindows w = SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(20));
            WindowKindScenarios.showTo(g.windowedBy(w).reduce(Hunt10Scenarios::concat,
                Materialized.<String, String>as(Stores.persistentWindowStore("sl-plain", Duration.ofMillis(100),
                    Duration.ofMillis(10), false)).withCachingDisabled()), "out-sliding-plain", PSS);
            WindowKindScenarios.showTo(g.windowedBy(w).reduce(Hunt10Scenarios::concat,
                Materialized.<String, String>as(Stores.persistentWindowStore("sl-cached", Duration.ofMillis(100),
                    Duration.ofMillis(10), false))), "out-sliding-cached", PSS);
            WindowKindScenarios.showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(20))
                    .advanceBy(Duration.ofMillis(5)))
                .reduce(Hunt10Scenarios::concat, Materialized.<String, String>as(Stores.persistentWindowStore("hop-plain",
                    Duration.ofMillis(100), Duration.ofMillis(10), false)).withCachingDisabled()), "out-hopping-plain", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-sliding-plain", S, S)
                .output("out-sliding-cached", S, S).output("out-hopping-plain", S, S);
            for (long t : new long[] {10, 20, 0, 15, 5, 25, 12, 40, 33, 31})
                h.pipe("in", "a", "v" + t, t);
            h.finish();
        });
    }

    private Hunt10Scenarios() { }
}
