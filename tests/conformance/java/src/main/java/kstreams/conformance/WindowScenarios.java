package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Harness.Type.X;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.UnlimitedWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.WindowedSerdes;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Windowed aggregations (tests/conformance/window_scenarios_test.cpp writes the same with the
 * kstreams DSL). Windowed keys are shown as "key@start/end" (Windowed.toString without the
 * brackets), and once as the bytes of Kafka's time-windowed key serde, in hex.
 */
final class WindowScenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());
    static final Produced<String, Long> PSL = Produced.with(Serdes.String(), Serdes.Long());

    static String show(Windowed<String> w) {
        return w.key() + "@" + w.window().start() + "/" + w.window().end();
    }

    static <V> void showTo(KTable<Windowed<String>, V> t, String topic, Produced<String, V> p) {
        t.toStream().map((w, v) -> KeyValue.pair(show(w), v)).to(topic, p);
    }

    /** Tumbling windows of 10 ms, grace 5 ms: window edges, the grace boundary, late drops. */
    static void tumblingInputs(Harness h) {
        h.pipe("in", "a", "v0", 0);
        h.pipe("in", "a", "v9", 9);
        h.pipe("in", "a", "v10", 10);
        h.pipe("in", "b", "v5", 5);
        h.pipe("in", null, "vnull", 6);
        h.pipe("in", "a", null, 11);
        h.pipe("in", "a", "v4", 4);
        h.pipe("in", "a", "v24", 24);
        h.pipe("in", "a", "v12", 12);
        h.pipe("in", "b", "v25", 25);
        h.pipe("in", "a", "v13", 13);
        h.pipe("in", "a", "v19", 19);
        h.pipe("in", "a", "v20", 20);
        h.pipe("in", "b", "v3", 3);
    }

    /** Hopping windows of 10 ms every 5 ms without grace: every covering window is updated. */
    static void hoppingInputs(Harness h) {
        h.pipe("in", "a", "x0", 0);
        h.pipe("in", "a", "x7", 7);
        h.pipe("in", "b", "y7", 7);
        h.pipe("in", "a", "x12", 12);
        h.pipe("in", "a", "x9", 9);
        h.pipe("in", "b", "y10", 10);
        h.pipe("in", "a", "x4", 4);
        h.pipe("in", "a", "x30", 30);
        h.pipe("in", "b", "y24", 24);
        h.pipe("in", "b", "y25", 25);
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // count, default store (RocksDB, cached), windowed key bytes as Kafka's serde writes them.
        scenarios.put("window_tumbling_count", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<Windowed<String>, Long> c = b.stream("in", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                .count();
            showTo(c, "out", PSL);
            c.toStream().to("out-bytes", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10), Serdes.Long()));
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, L).output("out-bytes", X, L);
            tumblingInputs(h);
            h.finish();
        });

        // reduce and aggregate, named, in-memory and uncached / RocksDB with a retention,
        // no grace.
        scenarios.put("window_tumbling_reduce_aggregate", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                .reduce((x, y) -> x + "+" + y, Named.as("win-reduce"),
                    Materialized.<String, String, WindowStore<Bytes, byte[]>>as("reduce-store")
                        .withStoreType(Materialized.StoreType.IN_MEMORY).withCachingDisabled()),
                "out-reduce", PSS);
            showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                .aggregate(() -> "", (k, v, agg) -> agg + "/" + v,
                    Materialized.<String, String, WindowStore<Bytes, byte[]>>as("agg-store")
                        .withRetention(Duration.ofMillis(100)).withLoggingDisabled()),
                "out-agg", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-reduce", S, S).output("out-agg", S, S);
            tumblingInputs(h);
            h.finish();
        });

        // Hopping windows over a re-keyed stream (repartitioned), count and aggregate sharing the
        // grouping's topic.
        scenarios.put("window_hopping", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS)
                .groupBy((k, v) -> k.toUpperCase(), Grouped.with("regroup", Serdes.String(), Serdes.String()));
            TimeWindows w = TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)).advanceBy(Duration.ofMillis(5));
            showTo(g.windowedBy(w).count(Materialized.with(Serdes.String(), Serdes.Long())), "out-count", PSL);
            showTo(g.windowedBy(w).aggregate(() -> "", (k, v, agg) -> agg + v,
                    Materialized.<String, String, WindowStore<Bytes, byte[]>>as("hop-agg").withCachingDisabled()),
                "out-agg", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-agg", S, S);
            hoppingInputs(h);
            h.finish();
        });
        // Windowed tables joined: a table-table join reads a time-windowed count through its
        // window store and a session count through its session store (Kafka's value getters).
        scenarios.put("window_table_join", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> in = b.stream("in", SS);
            KStream<String, String> in2 = b.stream("in2", SS);
            TimeWindows w = TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10));
            KTable<Windowed<String>, Long> left = in.groupByKey().windowedBy(w).count();
            KTable<Windowed<String>, Long> right = in2.groupByKey().windowedBy(w).count();
            showTo(left.join(right, (x, y) -> x + ":" + y), "out-join", PSS);
            showTo(left.leftJoin(right, (x, y) -> x + ":" + y), "out-left", PSS);
            SessionWindows gap = SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5));
            KTable<Windowed<String>, Long> s1 = in.groupByKey().windowedBy(gap).count();
            KTable<Windowed<String>, Long> s2 = in2.groupByKey().windowedBy(gap).count();
            // selectKey, not map: the sessions a merge replaces arrive as tombstones, which it keeps.
            s1.outerJoin(s2, (x, y) -> x + ":" + y).toStream().selectKey((k, v) -> show(k)).to("out-session-outer", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("in2", S, S)
                .output("out-join", S, S).output("out-left", S, S).output("out-session-outer", S, S);
            h.pipe("in", "a", "1", 0);
            h.pipe("in2", "a", "2", 3);
            h.pipe("in", "a", "3", 5);
            h.pipe("in", "b", "4", 6);
            h.pipe("in2", "a", "5", 12);
            h.pipe("in", "a", "6", 14);
            h.pipe("in2", "b", "7", 9);
            h.pipe("in2", "a", "8", 8);
            h.pipe("in", "b", "9", 30);
            h.finish();
        });

        // UnlimitedWindows: one window per key from 0 (a cached count, its key bytes) and from 10
        // (an uncached aggregate: records before the start fall in no window), never closing.
        scenarios.put("window_unlimited", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            KTable<Windowed<String>, Long> c = g.windowedBy(UnlimitedWindows.of()).count();
            showTo(c, "out", PSL);
            c.toStream().to("out-bytes", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, Long.MAX_VALUE), Serdes.Long()));
            showTo(g.windowedBy(UnlimitedWindows.of().startOn(java.time.Instant.ofEpochMilli(10)))
                .aggregate(() -> "", (k, v, agg) -> agg + "/" + v,
                    Materialized.<String, String, WindowStore<Bytes, byte[]>>as("from-10").withCachingDisabled()),
                "out-from", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, L).output("out-bytes", X, L)
                .output("out-from", S, S);
            tumblingInputs(h);
            h.pipe("in", "a", "late", 1);
            h.dropped();
            h.finish();
        });
    }

    private WindowScenarios() {}
}
