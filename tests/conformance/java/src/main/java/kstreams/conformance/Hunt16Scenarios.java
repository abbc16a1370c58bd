package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.Suppressed.BufferConfig;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.WindowedSerdes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.VersionedRecord;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Scenarios of the sixteenth conformance hunt (tests/conformance/hunt16_scenarios_test.cpp writes
 * the same with kstreams): the test driver's store getters (plain views of timestamped stores,
 * which getter accepts which store), windowed tables filtered, joined and regrouped, sliding and
 * session windows suppressed or emitted on close with several keys, cogroups with sliding and
 * session windows, table joins over a reduce that deletes, stream joins at exact window
 * boundaries with no grace, windowed counts after repartition(), FK joins against a join result,
 * window stores with a short retention read through the driver.
 */
final class Hunt16Scenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Consumed<String, Long> SL = Consumed.with(Serdes.String(), Serdes.Long());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());
    static final Produced<String, Long> PSL = Produced.with(Serdes.String(), Serdes.Long());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    static <V> void showTo(KTable<Windowed<String>, V> t, String topic, Produced<String, V> p) {
        WindowKindScenarios.showTo(t, topic, p);
    }

    static Instant at(long ms) { return Instant.ofEpochMilli(ms); }

    static String entries(KeyValueIterator<?, ?> it) {
        return Hunt15Scenarios.entries(it);
    }

    /** value@timestamp, or null (validTo left out: Java's metered versioned store never sets it
     * on reads, kstreams' does). */
    static String version(VersionedRecord<?> r) {
        if (r == null) return "null";
        return r.value() + "@" + r.timestamp();
    }

    /** Forwards its record untouched (a processor that holds stores). */
    static final class Pass implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        @Override public void init(ProcessorContext<String, String> c) { ctx = c; }
        @Override public void process(Record<String, String> r) { ctx.forward(r); }
    }

    /** The list without the first `v` ("a,b,a" less "a" is "b,a"); null when nothing is left. */
    static String removeOne(String agg, String v) {
        List<String> parts = new ArrayList<>(Arrays.asList(agg.split(",", -1)));
        parts.remove(v);
        return parts.isEmpty() ? null : String.join(",", parts);
    }

    /** Users ("users": user -> region) grouped by region into "user,user" lists; the subtractor
     * deletes a region left empty. */
    static KTable<String, String> usersPerRegion(StreamsBuilder b) {
        return b.table("users", SS)
            .groupBy((u, r) -> KeyValue.pair(r, u), Grouped.with(Serdes.String(), Serdes.String()))
            .reduce((agg, v) -> agg + "," + v, Hunt16Scenarios::removeOne);
    }

    static String tryGet(Function<String, Object> getter, String name) {
        try {
            return getter.apply(name) == null ? "none" : "ok";
        } catch (RuntimeException e) {
            return "throws";
        }
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // The driver's store reads after processing: key-value stores plain and timestamped
        // (RocksDB and in-memory), window stores through the plain and the timestamped view,
        // session stores, a versioned table's store.
        scenarios.put("driver_store_reads", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("tin", SS, Materialized.as("t"));
            b.table("vin", SS, Materialized.<String, String>as(Stores.persistentVersionedKeyValueStore("v", Duration.ofMillis(100)))
                .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            g.count(Materialized.as("cnt"));
            g.count(Materialized.<String, Long>as(Stores.inMemoryKeyValueStore("cnt-mem")));
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(Materialized.as("wcnt"));
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("wcnt-mem").withStoreType(Materialized.StoreType.IN_MEMORY));
            g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5))).count(Materialized.as("scnt"));
            Harness h = new Harness(b.build(), out).input("tin", S, S).input("vin", S, S).input("in", S, S);
            h.pipe("tin", "b", "B", 3);
            h.pipe("tin", "a", "A", 4);
            h.pipe("tin", "c", "C", 5);
            h.pipe("tin", "c", null, 6);
            h.pipe("vin", "a", "v10", 10);
            h.pipe("vin", "a", "v20", 20);
            h.pipe("vin", "a", null, 30);
            h.pipe("in", "b", "1", 12);
            h.pipe("in", "a", "2", 1);
            h.pipe("in", "a", "3", 14);
            h.pipe("in", "ab", "4", 2);
            h.pipe("in", "a", "5", 3);
            h.pipe("in", "b", "6", 25);
            TopologyTestDriver d = h.driver();
            h.line("= t " + entries(d.<String, String>getKeyValueStore("t").all()) + "| "
                   + entries(d.<String, String>getTimestampedKeyValueStore("t").all()));
            for (String name : List.of("cnt", "cnt-mem")) {
                h.line("= " + name + " " + entries(d.<String, Long>getKeyValueStore(name).all()) + "| "
                       + entries(d.<String, Long>getKeyValueStore(name).range("a", "b")) + "| "
                       + entries(d.<String, Long>getKeyValueStore(name).reverseAll()) + "| "
                       + entries(d.<String, Long>getTimestampedKeyValueStore(name).all()));
            }
            for (String name : List.of("wcnt", "wcnt-mem")) {
                h.line("= " + name + " " + entries(d.<String, Long>getWindowStore(name).all()) + "| "
                       + entries(d.<String, Long>getWindowStore(name).fetchAll(at(0), at(9))) + "| "
                       + entries(d.<String, Long>getWindowStore(name).fetch("a", at(0), at(100))) + "| "
                       + show(d.<String, Long>getWindowStore(name).fetch("a", 10)) + "| "
                       + entries(d.<String, Long>getWindowStore(name).backwardAll()) + "| "
                       + entries(d.<String, Long>getTimestampedWindowStore(name).all()));
            }
            h.line("= scnt " + entries(d.<String, Long>getSessionStore("scnt").fetch("a")) + "| "
                   + entries(d.<String, Long>getSessionStore("scnt").findSessions("b", 0, 100)) + "| "
                   + entries(d.<String, Long>getSessionStore("scnt").fetch("a", "b")));
            VersionedKeyValueStore<String, String> v = d.getVersionedKeyValueStore("v");
            h.line("= v " + version(v.get("a")) + " " + version(v.get("a", 15)) + " " + version(v.get("a", 25)) + " " + version(v.get("a", 5)));
            h.finish();
        });

        // Writes through the driver's plain views of DSL stores (no timestamp: uncached and
        // unlogged, as Kafka cannot send a record at -1) that the aggregations then continue from.
        scenarios.put("driver_store_writes", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            g.count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("cnt").withCachingDisabled().withLoggingDisabled())
                .toStream().to("out-count", PSL);
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                       .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("wcnt").withCachingDisabled().withLoggingDisabled()),
                   "out-window", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-window", S, L);
            h.pipe("in", "a", "1", 5);
            TopologyTestDriver d = h.driver();
            d.<String, Long>getKeyValueStore("cnt").put("a", 10L);
            d.<String, Long>getKeyValueStore("cnt").put("b", 20L);
            d.<String, Long>getWindowStore("wcnt").put("a", 5L, 10);
            d.<String, Long>getWindowStore("wcnt").put("b", 7L, 0);
            h.line("= cnt " + entries(d.<String, Long>getTimestampedKeyValueStore("cnt").all()));
            h.line("= wcnt " + entries(d.<String, Long>getTimestampedWindowStore("wcnt").all()));
            h.pipe("in", "a", "2", 12);
            h.pipe("in", "b", "3", 6);
            h.pipe("in", "a", "4", 3);
            h.line("= cnt " + entries(d.<String, Long>getTimestampedKeyValueStore("cnt").all()));
            h.line("= wcnt " + entries(d.<String, Long>getTimestampedWindowStore("wcnt").all()));
            h.finish();
        });

        // Which of the driver's store getters accept which store: Processor API stores of every
        // kind beside the DSL's (timestamped) count, windowed count, session count and a
        // versioned table. "none" where Java returns null.
        scenarios.put("driver_store_getters", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("pkv"), Serdes.String(), Serdes.Long()));
            b.addStateStore(Stores.timestampedKeyValueStoreBuilder(Stores.persistentTimestampedKeyValueStore("ptkv"), Serdes.String(), Serdes.Long()));
            b.addStateStore(Stores.windowStoreBuilder(
                Stores.inMemoryWindowStore("pw", Duration.ofMillis(100), Duration.ofMillis(10), false), Serdes.String(), Serdes.Long()));
            b.addStateStore(Stores.timestampedWindowStoreBuilder(
                Stores.persistentTimestampedWindowStore("ptw", Duration.ofMillis(100), Duration.ofMillis(10), false), Serdes.String(), Serdes.Long()));
            b.addStateStore(Stores.sessionStoreBuilder(Stores.inMemorySessionStore("ps", Duration.ofMillis(100)), Serdes.String(), Serdes.Long()));
            b.addStateStore(Stores.versionedKeyValueStoreBuilder(
                Stores.persistentVersionedKeyValueStore("pv", Duration.ofMillis(100)), Serdes.String(), Serdes.Long()));
            b.stream("in", SS).process(Pass::new, "pkv", "ptkv", "pw", "ptw", "ps", "pv");
            KGroupedStream<String, String> g = b.stream("in2", SS).groupByKey();
            g.count(Materialized.as("cnt"));
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(Materialized.as("wcnt"));
            g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5))).count(Materialized.as("scnt"));
            b.table("vin", SL, Materialized.<String, Long>as(Stores.persistentVersionedKeyValueStore("v", Duration.ofMillis(100)))
                .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()));
            Harness h = new Harness(b.build(), out).input("in", S, S);
            TopologyTestDriver d = h.driver();
            for (String name : List.of("pkv", "ptkv", "pw", "ptw", "ps", "pv", "cnt", "wcnt", "scnt", "v")) {
                h.line("= " + name + " kv:" + tryGet(d::getKeyValueStore, name)
                       + " tkv:" + tryGet(d::getTimestampedKeyValueStore, name)
                       + " vkv:" + tryGet(d::getVersionedKeyValueStore, name)
                       + " w:" + tryGet(d::getWindowStore, name)
                       + " tw:" + tryGet(d::getTimestampedWindowStore, name)
                       + " s:" + tryGet(d::getSessionStore, name));
            }
            h.finish();
        });

        // Sliding-window counts suppressed until their windows close, and joined with another
        // sliding-window table of the same windows (both topics in one task: one stream time).
        scenarios.put("sliding_suppressed_and_joined", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<Windowed<String>, Long> c = b.stream("in", SS).groupByKey()
                .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(5), Duration.ofMillis(2))).count();
            showTo(c.suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-final", PSL);
            KTable<Windowed<String>, String> r = b.stream("other", SS).groupByKey()
                .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(5), Duration.ofMillis(2)))
                .reduce((x, y) -> x + "+" + y);
            showTo(c.join(r, (n, s) -> n + ":" + s), "out-join", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("other", S, S)
                .output("out-final", S, L).output("out-join", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 4);
            h.pipe("other", "a", "x", 3);
            h.pipe("in", "b", "3", 3);
            h.pipe("other", "a", "y", 8);
            h.pipe("in", "a", "4", 9);
            h.pipe("other", "b", "z", 12);
            h.pipe("in", "a", "5", 6);
            h.pipe("in", "b", "6", 14);
            h.pipe("other", "a", "w", 20);
            h.pipe("in", "a", "7", 30);
            h.finish();
        });

        // A windowed count filtered into its own store (a windowed key serde), read back through
        // the driver, and its updates regrouped by "key#start" and summed.
        scenarios.put("windowed_table_filter_materialized", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<Windowed<String>, Long> c = b.stream("in", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5))).count(Materialized.as("wc"));
            KTable<Windowed<String>, Long> even = c.filter((w, v) -> v % 2 == 0,
                Materialized.<Windowed<String>, Long, KeyValueStore<Bytes, byte[]>>as("wc-even")
                    .withKeySerde(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10)).withValueSerde(Serdes.Long()));
            showTo(even, "out-even", PSL);
            c.toStream().map((w, v) -> KeyValue.pair(w.key() + "#" + w.window().start(), v))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.Long())).reduce(Long::sum)
                .toStream().to("out-sum", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-even", S, L).output("out-sum", S, L);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 5);
            h.pipe("in", "b", "3", 7);
            h.pipe("in", "a", "4", 12);
            h.pipe("in", "a", "5", 9);
            h.pipe("in", "b", "6", 16);
            h.pipe("in", "a", "7", 3);
            h.pipe("in", "a", "8", 14);
            h.line("= wc-even " + entries(h.driver().<Windowed<String>, Long>getKeyValueStore("wc-even").all()));
            h.finish();
        });

        // Tumbling counts of two streams in one task, left- and outer-joined as windowed tables;
        // a record late for one side's window (the shared stream time) is dropped.
        scenarios.put("windowed_tables_left_outer", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<Windowed<String>, Long> ca = b.stream("a", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count();
            KTable<Windowed<String>, Long> cb = b.stream("b", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count();
            showTo(ca.leftJoin(cb, (x, y) -> x + "/" + y), "out-left", PSS);
            showTo(ca.outerJoin(cb, (x, y) -> x + "/" + y), "out-outer", PSS);
            Harness h = new Harness(b.build(), out).input("a", S, S).input("b", S, S)
                .output("out-left", S, S).output("out-outer", S, S);
            h.pipe("a", "k", "1", 1);
            h.pipe("a", "k", "2", 2);
            h.pipe("a", "j", "3", 5);
            h.pipe("b", "k", "4", 3);
            h.pipe("b", "j", "5", 12);
            h.pipe("a", "k", "6", 11);
            h.pipe("b", "k", "7", 4);
            h.pipe("b", "m", "8", 13);
            h.pipe("a", "j", "9", 25);
            h.dropped();
            h.finish();
        });

        // A cogroup over sliding windows, all updates and suppressed finals.
        scenarios.put("cogroup_sliding_suppressed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g1 = b.stream("a", SS).groupByKey();
            KGroupedStream<String, String> g2 = b.stream("b", SS).groupByKey();
            KTable<Windowed<String>, String> t = g1.<String>cogroup((k, v, agg) -> agg + "1" + v)
                .cogroup(g2, (k, v, agg) -> agg + "2" + v)
                .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(5), Duration.ofMillis(2)))
                .aggregate(() -> "", Materialized.with(Serdes.String(), Serdes.String()));
            showTo(t, "out-all", PSS);
            showTo(t.suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-final", PSS);
            Harness h = new Harness(b.build(), out).input("a", S, S).input("b", S, S)
                .output("out-all", S, S).output("out-final", S, S);
            h.pipe("a", "k", "p", 2);
            h.pipe("b", "k", "q", 5);
            h.pipe("a", "k", "r", 9);
            h.pipe("b", "m", "s", 4);
            h.pipe("a", "k", "t", 3);
            h.pipe("b", "k", "u", 16);
            h.pipe("a", "m", "v", 30);
            h.finish();
        });

        // A cogroup over session windows (merges, a late record within grace), suppressed.
        scenarios.put("cogroup_session_suppressed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g1 = b.stream("a", SS).groupByKey();
            KGroupedStream<String, String> g2 = b.stream("b", SS).groupByKey();
            KTable<Windowed<String>, String> t = g1.<String>cogroup((k, v, agg) -> agg + "1" + v)
                .cogroup(g2, (k, v, agg) -> agg + "2" + v)
                .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(5), Duration.ofMillis(2)))
                .aggregate(() -> "", (k, x, y) -> x + "|" + y, Materialized.with(Serdes.String(), Serdes.String()));
            showTo(t, "out-all", PSS);
            showTo(t.suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-final", PSS);
            Harness h = new Harness(b.build(), out).input("a", S, S).input("b", S, S)
                .output("out-all", S, S).output("out-final", S, S);
            h.pipe("a", "k", "p", 1);
            h.pipe("b", "k", "q", 12);
            h.pipe("a", "k", "r", 6);
            h.pipe("b", "m", "s", 8);
            h.pipe("a", "k", "t", 19);
            h.pipe("b", "k", "u", 4);
            h.pipe("a", "m", "v", 10);
            h.pipe("b", "m", "w", 40);
            h.finish();
        });

        // Users grouped by region with a reduce whose subtractor deletes an emptied region,
        // joined inner, left and outer with a region table; tombstones on both sides.
        scenarios.put("table_joins_after_deleting_reduce", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> perRegion = usersPerRegion(b);
            KTable<String, String> regions = b.table("regions", SS);
            perRegion.join(regions, (m, i) -> m + "@" + i).toStream().to("out-inner", PSS);
            perRegion.leftJoin(regions, (m, i) -> m + "@" + i).toStream().to("out-left", PSS);
            perRegion.outerJoin(regions, (m, i) -> m + "@" + i).toStream().to("out-outer", PSS);
            Harness h = new Harness(b.build(), out).input("users", S, S).input("regions", S, S)
                .output("out-inner", S, S).output("out-left", S, S).output("out-outer", S, S);
            h.pipe("regions", "eu", "EU", 1);
            h.pipe("regions", "us", "US", 2);
            h.pipe("users", "alice", "eu", 3);
            h.pipe("users", "bob", "eu", 4);
            h.pipe("users", "alice", "us", 5);
            h.pipe("users", "bob", null, 6);
            h.pipe("users", "carol", "ap", 7);
            h.pipe("regions", "eu", null, 8);
            h.pipe("users", "dave", "eu", 9);
            h.pipe("regions", "ap", "AP", 10);
            h.pipe("users", "carol", null, 11);
            h.pipe("users", "alice", null, 12);
            h.finish();
        });

        // Left and outer joins with no grace and asymmetric windows, records exactly at the
        // window bounds, and records arriving exactly at and just past the close.
        scenarios.put("stream_joins_no_grace_boundaries", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            JoinWindows w = JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5)).before(Duration.ofMillis(2));
            l.leftJoin(r, (x, y) -> x + "/" + y, w).to("out-left", PSS);
            l.outerJoin(r, (x, y) -> x + "|" + y, JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(3))).to("out-outer", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-left", S, S).output("out-outer", S, S);
            h.pipe("left", "k", "l10", 10);
            h.pipe("right", "k", "r15", 15);
            h.pipe("right", "k", "r8", 8);
            h.pipe("right", "k", "r7", 7);
            h.pipe("left", "m", "l16", 16);
            h.pipe("right", "m", "r21", 21);
            h.pipe("left", "n", "l17", 17);
            h.pipe("left", "n", "l15", 15);
            h.pipe("left", "n", "l16", 16);
            h.pipe("right", "n", "r22", 22);
            h.pipe("right", "p", "r30", 30);
            h.pipe("left", "p", "l40", 40);
            h.dropped();
            h.finish();
        });

        // Re-keyed records through repartition() into windowed counts with grace: the stream
        // time of the counting task is the repartition topic's, out-of-order and late records.
        scenarios.put("repartition_then_windowed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> rp = b.stream("in", SS).selectKey((k, v) -> v.substring(0, 1))
                .repartition(Repartitioned.as("rp"));
            showTo(rp.groupByKey().windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(3))).count(),
                   "out-tumbling", PSL);
            showTo(rp.groupByKey().windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(4), Duration.ofMillis(1)))
                       .reduce((x, y) -> x + "+" + y), "out-sliding", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-tumbling", S, L).output("out-sliding", S, S);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k2", "b2", 2);
            h.pipe("in", "k3", "a9", 9);
            h.pipe("in", "k4", "b12", 12);
            h.pipe("in", "k5", "a8", 8);
            h.pipe("in", "k6", "a13", 13);
            h.pipe("in", "k7", "b6", 6);
            h.pipe("in", "k8", "a14", 14);
            h.pipe("in", "k9", "b10", 10);
            h.dropped();
            h.finish();
        });

        // An FK join whose foreign table is itself a table-table join (customers with tiers).
        scenarios.put("fk_join_on_join_result", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> customers = b.table("customers", SS);
            KTable<String, String> tiers = b.table("tiers", SS);
            KTable<String, String> enriched = customers.join(tiers, (c, t) -> c + "/" + t);
            KTable<String, String> orders = b.table("orders", SS);
            Function<String, String> fk = v -> v.split(":")[0];
            orders.join(enriched, fk, (o, c) -> o + "=" + c).toStream().to("out-inner", PSS);
            orders.leftJoin(enriched, fk, (o, c) -> o + "=" + c).toStream().to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("customers", S, S).input("tiers", S, S).input("orders", S, S)
                .output("out-inner", S, S).output("out-left", S, S);
            h.pipe("customers", "c1", "Ann", 1);
            h.pipe("orders", "o1", "c1:book", 2);
            h.pipe("tiers", "c1", "gold", 3);
            h.pipe("orders", "o2", "c2:pen", 4);
            h.pipe("customers", "c2", "Bo", 5);
            h.pipe("tiers", "c2", "tin", 6);
            h.pipe("tiers", "c1", null, 7);
            h.pipe("orders", "o1", "c2:book", 8);
            h.pipe("customers", "c2", "Bob", 9);
            h.pipe("orders", "o2", null, 10);
            h.pipe("customers", "c2", null, 11);
            h.finish();
        });

        // Sliding and session windows emitting only on close, keys interleaved, records at the
        // grace bounds; wall-clock advances let the emit interval pass.
        scenarios.put("emit_on_close_sliding_session_keys", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(5), Duration.ofMillis(3)))
                       .emitStrategy(EmitStrategy.onWindowClose()).count(), "out-sliding", PSL);
            showTo(g.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(4), Duration.ofMillis(3)))
                       .emitStrategy(EmitStrategy.onWindowClose()).count(), "out-session", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-sliding", S, L).output("out-session", S, L);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "b", "2", 2);
            h.pipe("in", "c", "3", 4);
            h.advanceWallClock(2000);
            h.pipe("in", "a", "4", 9);
            h.advanceWallClock(2000);
            h.pipe("in", "b", "5", 6);
            h.advanceWallClock(2000);
            h.pipe("in", "a", "6", 10);
            h.advanceWallClock(2000);
            h.pipe("in", "c", "7", 12);
            h.advanceWallClock(2000);
            h.pipe("in", "b", "8", 18);
            h.pipe("in", "a", "9", 17);
            h.advanceWallClock(2000);
            h.pipe("in", "c", "10", 30);
            h.advanceWallClock(2000);
            h.pipe("in", "a", "11", 60);
            h.dropped();
            h.finish();
        });

        // Window stores with a short retention (Materialized.withRetention), read through the
        // driver as stream time moves past it, cached and uncached, RocksDB and in memory.
        scenarios.put("window_retention_reads", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("r-db").withRetention(Duration.ofMillis(20)));
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("r-mem").withRetention(Duration.ofMillis(20))
                           .withStoreType(Materialized.StoreType.IN_MEMORY).withCachingDisabled());
            g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(3)))
                .count(Materialized.<String, Long, SessionStore<Bytes, byte[]>>as("s-db").withRetention(Duration.ofMillis(20)));
            Harness h = new Harness(b.build(), out).input("in", S, S);
            TopologyTestDriver d = h.driver();
            long[] times = {1, 5, 12, 25, 31, 33, 47, 70};
            for (long t : times) {
                h.pipe("in", "a", "x", t);
                StringBuilder sb = new StringBuilder("=");
                for (String name : List.of("r-db", "r-mem")) {
                    WindowStore<String, Long> w = d.getWindowStore(name);
                    sb.append(" ").append(name).append(": ").append(entries(w.all())).append("| ")
                      .append(entries(w.fetch("a", at(0), at(100)))).append("| ").append(show(w.fetch("a", 0)));
                }
                sb.append(" s-db: ").append(entries(d.<String, Long>getSessionStore("s-db").fetch("a")));
                h.line(sb.toString());
            }
            h.finish();
        });

        // A windowed count's updates re-keyed to the plain key and joined with a table; its
        // suppressed finals counted per key (a regroup after suppression).
        scenarios.put("windowed_results_rekeyed_downstream", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<Windowed<String>, Long> c = b.stream("in", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(2))).count();
            KTable<String, String> limits = b.table("limits", SS);
            c.toStream().map((w, v) -> KeyValue.pair(w.key(), w.window().start() + ":" + v))
                .join(limits, (v, lim) -> v + "<=" + lim).to("out-join", PSS);
            c.suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())).toStream()
                .groupBy((w, v) -> w.key(), Grouped.with(Serdes.String(), Serdes.Long())).count()
                .toStream().to("out-closed", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("limits", S, S)
                .output("out-join", S, S).output("out-closed", S, L);
            h.pipe("limits", "a", "A", 0);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "b", "2", 3);
            h.pipe("in", "a", "3", 11);
            h.pipe("limits", "b", "B", 5);
            h.pipe("in", "b", "4", 13);
            h.pipe("in", "a", "5", 9);
            h.pipe("in", "a", "6", 25);
            h.pipe("limits", "a", null, 26);
            h.pipe("in", "a", "7", 27);
            h.pipe("in", "b", "8", 40);
            h.finish();
        });

        // A session-windowed reduce's changelog (tombstones of merged sessions) as a stream:
        // tombstones filtered out, then a table keyed by the plain key, joined to itself.
        scenarios.put("session_results_to_table", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<Windowed<String>, String> s = b.stream("in", SS).groupByKey()
                .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(5), Duration.ofMillis(5))).reduce((x, y) -> x + "+" + y);
            KStream<Windowed<String>, String> changes = s.toStream();
            changes.filter((w, v) -> v == null).map((w, v) -> KeyValue.pair(WindowScenarios.show(w), "gone")).to("out-gone", PSS);
            KTable<String, String> latest = changes.filter((w, v) -> v != null)
                .map((w, v) -> KeyValue.pair(w.key(), w.window().start() + "-" + w.window().end() + ":" + v))
                .toTable(Materialized.with(Serdes.String(), Serdes.String()));
            latest.join(latest.mapValues(v -> v.length()), (v, n) -> v + "#" + n).toStream().to("out-latest", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-gone", S, S).output("out-latest", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 10);
            h.pipe("in", "b", "3", 4);
            h.pipe("in", "a", "4", 5);
            h.pipe("in", "b", "5", 20);
            h.pipe("in", "a", "6", 3);
            h.pipe("in", "b", "7", 14);
            h.finish();
        });

        // Hopping counts joined (windowed table-table join) with tumbling reduces of the same
        // size: only windows of equal bounds meet.
        scenarios.put("hopping_joined_tumbling", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<Windowed<String>, Long> hop = b.stream("in", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)).advanceBy(Duration.ofMillis(5))).count();
            KTable<Windowed<String>, String> tum = b.stream("other", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).reduce((x, y) -> x + "+" + y);
            showTo(hop.join(tum, (n, s) -> n + ":" + s), "out-inner", PSS);
            showTo(tum.leftJoin(hop, (s, n) -> s + ":" + n), "out-left", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("other", S, S)
                .output("out-inner", S, S).output("out-left", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("other", "a", "x", 2);
            h.pipe("in", "a", "2", 7);
            h.pipe("other", "a", "y", 8);
            h.pipe("in", "a", "3", 12);
            h.pipe("other", "a", "z", 13);
            h.pipe("other", "b", "w", 14);
            h.pipe("in", "b", "4", 16);
            h.finish();
        });

        // default.dsl.store=in_memory: the DSL's stores of every kind in memory; outputs and
        // store reads as with RocksDB.
        scenarios.put("default_dsl_store_in_memory", out -> {
            Properties p = new Properties();
            p.put("dsl.store.suppliers.class", "org.apache.kafka.streams.state.BuiltInDslStoreSuppliers$InMemoryDslStoreSuppliers");
            Properties full = new Properties();
            full.putAll(p);
            full.put("application.id", Harness.APP_ID);
            full.put("bootstrap.servers", "dummy:1234");
            StreamsBuilder b = new StreamsBuilder(new org.apache.kafka.streams.TopologyConfig(new org.apache.kafka.streams.StreamsConfig(full)));
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            g.count(Materialized.as("cnt")).toStream().to("out-count", PSL);
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(Materialized.as("wcnt")), "out-window", PSL);
            showTo(g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5))).count(Materialized.as("scnt")),
                   "out-session", PSL);
            KStream<String, String> other = b.stream("other", SS);
            b.stream("in", SS).join(other, (x, y) -> x + "&" + y, JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5))).to("out-join", PSS);
            Harness h = new Harness(b.build(), p, out).input("in", S, S).input("other", S, S)
                .output("out-count", S, L).output("out-window", S, L).output("out-session", S, L).output("out-join", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("other", "a", "x", 3);
            h.pipe("in", "a", "2", 4);
            h.pipe("in", "b", "3", 12);
            h.pipe("in", "a", "4", 2);
            h.pipe("other", "a", "y", 20);
            h.line("= cnt " + entries(h.driver().<String, Long>getKeyValueStore("cnt").all()) + "| wcnt "
                   + entries(h.driver().<String, Long>getWindowStore("wcnt").all()) + "| scnt "
                   + entries(h.driver().<String, Long>getSessionStore("scnt").fetch("a")));
            h.finish();
        });

        // An outer join with an asymmetric window (before 1, after 4) and grace 2: records of
        // both sides without partners expire at different times and are emitted in time order.
        scenarios.put("outer_join_asymmetric_expiry", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            l.outerJoin(r, (x, y) -> show(x) + "|" + show(y),
                        JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(4), Duration.ofMillis(2)).before(Duration.ofMillis(1)))
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out", S, S);
            h.pipe("left", "a", "l1", 1);
            h.pipe("right", "b", "r2", 2);
            h.pipe("left", "b", "l5", 5);
            h.pipe("right", "a", "r9", 9);
            h.pipe("right", "c", "r3", 3);
            h.pipe("left", "c", "l12", 12);
            h.pipe("right", "d", "r6", 6);
            h.pipe("right", "c", "r11", 11);
            h.pipe("left", "x", "l20", 20);
            h.pipe("right", "y", "r30", 30);
            h.pipe("left", "c", "l13", 13);
            h.pipe("left", "z", "l31", 31);
            h.dropped();
            h.finish();
        });

        // Streams joined with a table that a deleting reduce maintains: inner and left joins as
        // rows appear, change and disappear.
        scenarios.put("stream_table_join_deleting_reduce", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> perRegion = usersPerRegion(b);
            KStream<String, String> events = b.stream("events", SS);
            events.join(perRegion, (e, m) -> e + ">" + m).to("out-inner", PSS);
            events.leftJoin(perRegion, (e, m) -> e + ">" + m).to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("users", S, S).input("events", S, S)
                .output("out-inner", S, S).output("out-left", S, S);
            h.pipe("users", "alice", "eu", 1);
            h.pipe("events", "eu", "e1", 2);
            h.pipe("users", "bob", "eu", 3);
            h.pipe("events", "eu", "e2", 4);
            h.pipe("events", "us", "e3", 5);
            h.pipe("users", "alice", null, 6);
            h.pipe("users", "bob", "us", 7);
            h.pipe("events", "eu", "e4", 8);
            h.pipe("events", "us", "e5", 9);
            h.pipe("events", null, "e6", 10);
            h.finish();
        });

        // topology.optimization=all: a source table's topic reused as its changelog, one re-keyed
        // stream grouped twice (windowed and session counts: one repartition topic) and joined
        // with the table.
        scenarios.put("opt_all_windowed_groupings_and_table", out -> {
            Properties p = new Properties();
            p.put("topology.optimization", "all");
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("tin", SS, Materialized.as("tin-store"));
            KStream<String, String> rk = b.stream("in", SS).selectKey((k, v) -> v.substring(0, 1));
            showTo(rk.groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(), "out-w", PSL);
            showTo(rk.groupByKey().windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5))).count(), "out-s", PSL);
            rk.join(t, (v, tv) -> v + "&" + tv).to("out-j", PSS);
            Harness h = new Harness(b.build(p), p, out).input("tin", S, S).input("in", S, S)
                .output("out-w", S, L).output("out-s", S, L).output("out-j", S, S);
            h.pipe("tin", "a", "TA", 1);
            h.pipe("in", "k1", "a1", 2);
            h.pipe("in", "k2", "b2", 3);
            h.pipe("in", "k3", "a3", 6);
            h.pipe("tin", "b", "TB", 7);
            h.pipe("in", "k4", "b4", 12);
            h.pipe("in", "k5", "a5", 4);
            h.pipe("tin", "a", null, 13);
            h.pipe("in", "k6", "a6", 14);
            h.finish();
        });

        // Sliding-window counts filtered and mapped, each view suppressed until close.
        scenarios.put("sliding_views_suppressed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<Windowed<String>, Long> c = b.stream("in", SS).groupByKey()
                .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(4), Duration.ofMillis(1))).count();
            showTo(c.filter((w, v) -> v >= 2).suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-filter", PSL);
            showTo(c.mapValues(v -> "n" + v).suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-mapped", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-filter", S, L).output("out-mapped", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 3);
            h.pipe("in", "b", "3", 2);
            h.pipe("in", "a", "4", 6);
            h.pipe("in", "a", "5", 4);
            h.pipe("in", "b", "6", 9);
            h.pipe("in", "a", "7", 12);
            h.pipe("in", "b", "8", 20);
            h.finish();
        });

        // Clicks joined with a global table of users (the region as the value), then counted per
        // region in tumbling windows across the repartition; a user moving region meanwhile.
        scenarios.put("global_join_then_windowed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            org.apache.kafka.streams.kstream.GlobalKTable<String, String> users = b.globalTable("users", SS);
            KStream<String, String> regions = b.stream("clicks", SS).join(users, (k, v) -> k, (c, u) -> u);
            showTo(regions.groupBy((k, region) -> region).windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(2)))
                       .count(), "out-count", PSL);
            Harness h = new Harness(b.build(), out).input("users", S, S).input("clicks", S, S).output("out-count", S, L);
            h.pipe("users", "u1", "eu", 0);
            h.pipe("users", "u2", "us", 0);
            h.pipe("clicks", "u1", "c", 1);
            h.pipe("clicks", "u2", "c", 3);
            h.pipe("clicks", "u3", "c", 4);
            h.pipe("clicks", "u1", "c", 12);
            h.pipe("users", "u1", "us", 13);
            h.pipe("clicks", "u1", "c", 14);
            h.pipe("clicks", "u2", "c", 8);
            h.pipe("clicks", "u2", "c", 9);
            h.pipe("clicks", "u1", "c", 30);
            h.dropped();
            h.finish();
        });

        // split() into a tumbling count and a session count, each re-keyed by toStream(mapper),
        // merged into one topic (session tombstones included).
        scenarios.put("split_windowed_merge", out -> {
            StreamsBuilder b = new StreamsBuilder();
            Map<String, KStream<String, String>> m = b.stream("in", SS).split(org.apache.kafka.streams.kstream.Named.as("s-"))
                .branch((k, v) -> v.startsWith("a"), org.apache.kafka.streams.kstream.Branched.as("a"))
                .defaultBranch(org.apache.kafka.streams.kstream.Branched.as("rest"));
            KStream<String, Long> wa = m.get("s-a").groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count()
                .toStream((w, v) -> w.key() + "@" + w.window().start());
            KStream<String, Long> wr = m.get("s-rest").groupByKey().windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(3)))
                .count().toStream((w, v) -> w.key() + "@" + w.window().start() + "/" + w.window().end());
            wa.merge(wr).to("out", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, L);
            h.pipe("in", "k", "a1", 1);
            h.pipe("in", "k", "b2", 2);
            h.pipe("in", "k", "a3", 3);
            h.pipe("in", "k", "b4", 4);
            h.pipe("in", "j", "b5", 5);
            h.pipe("in", "k", "b9", 9);
            h.pipe("in", "k", "b6", 6);
            h.pipe("in", "k", "a12", 12);
            h.pipe("in", "k", "b20", 20);
            h.finish();
        });

        // A versioned table made by toTable() from out-of-order updates, joined by a stream with
        // a grace period (inner) and without (left).
        scenarios.put("versioned_to_table_join_grace", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.stream("updates", SS).toTable(
                Materialized.<String, String>as(Stores.persistentVersionedKeyValueStore("vt", Duration.ofMillis(50)))
                    .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
            KStream<String, String> orders = b.stream("orders", SS);
            orders.join(t, (o, u) -> o + "@" + u,
                        org.apache.kafka.streams.kstream.Joined.with(Serdes.String(), Serdes.String(), Serdes.String())
                            .withGracePeriod(Duration.ofMillis(5)))
                .to("out", PSS);
            orders.leftJoin(t, (o, u) -> o + "@" + show(u)).to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("updates", S, S).input("orders", S, S)
                .output("out", S, S).output("out-left", S, S);
            h.pipe("updates", "a", "A1", 10);
            h.pipe("orders", "a", "o1", 12);
            h.pipe("updates", "a", "A0", 5);
            h.pipe("orders", "a", "o2", 7);
            h.pipe("updates", "a", null, 15);
            h.pipe("orders", "a", "o3", 16);
            h.pipe("orders", "a", "o4", 11);
            h.pipe("updates", "b", "B", 20);
            h.pipe("orders", "b", "o5", 21);
            h.pipe("orders", "a", "o6", 30);
            h.pipe("orders", "b", "o7", 40);
            h.finish();
        });
    }
}
