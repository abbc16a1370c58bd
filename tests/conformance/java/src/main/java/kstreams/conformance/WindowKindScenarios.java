package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Harness.Type.X;

import java.time.Duration;
import java.util.Map;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.WindowedSerdes;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Sliding and session windows (tests/conformance/window_kind_scenarios_test.cpp writes the same
 * with the kstreams DSL). Windowed keys are shown as "key@start/end", and as the bytes of Kafka's
 * windowed key serdes, in hex.
 */
final class WindowKindScenarios {
    static final Produced<String, String> PSS = WindowScenarios.PSS;
    static final Produced<String, Long> PSL = WindowScenarios.PSL;

    /** selectKey, not map: sessions replaced by a merge arrive as tombstones. */
    static <V> void showTo(KTable<Windowed<String>, V> t, String topic, Produced<String, V> p) {
        t.toStream().selectKey((w, v) -> WindowScenarios.show(w)).to(topic, p);
    }

    /** Sliding windows of 10 ms, grace 5 ms: early records, both sides, grace boundary, nulls. */
    static void slidingInputs(Harness h) {
        h.pipe("in", "a", "e5", 5);
        h.pipe("in", "a", "e2", 2);
        h.pipe("in", "a", "e8", 8);
        h.pipe("in", "a", "v12", 12);
        h.pipe("in", "b", "w10", 10);
        h.pipe("in", "a", "v30", 30);
        h.pipe("in", "a", "v22", 22);
        h.pipe("in", "a", "v14", 14);
        h.pipe("in", "a", "v15", 15);
        h.pipe("in", "a", null, 31);
        h.pipe("in", null, "vnull", 31);
        h.pipe("in", "a", "v26", 26);
        h.pipe("in", "a", "v40", 40);
        h.pipe("in", "a", "v41", 41);
        h.pipe("in", "a", "v40b", 40);
        h.pipe("in", "b", "w50", 50);
        h.pipe("in", "b", "w39", 39);
        h.pipe("in", "b", "w60", 60);
    }

    /** Sessions with a 10 ms gap and 5 ms grace: extend, merge three, same instant, grace boundary. */
    static void sessionInputs(Harness h) {
        h.pipe("in", "a", "s0", 0);
        h.pipe("in", "a", "s5", 5);
        h.pipe("in", "a", "s30", 30);
        h.pipe("in", "a", "s20", 20);
        h.pipe("in", "a", "s12", 12);
        h.pipe("in", "b", "t10", 10);
        h.pipe("in", "b", "t10b", 10);
        h.pipe("in", "a", "s60", 60);
        h.pipe("in", "a", "s34", 34);
        h.pipe("in", "c", "u45", 45);
        h.pipe("in", "c", "u44", 44);
        h.pipe("in", "d", "x44", 44);
        h.pipe("in", "a", null, 61);
        h.pipe("in", null, "vnull", 61);
        h.pipe("in", "b", "t80", 80);
        h.pipe("in", "b", "t71", 71);
    }

    /** Records for emit-on-close: windows closing one by one, late ones, two keys. */
    static void closeInputs(Harness h) {
        h.pipe("in", "a", "c1", 1);
        h.pipe("in", "b", "c3", 3);
        h.pipe("in", "a", "c9", 9);
        h.pipe("in", "a", "c12", 12);
        h.pipe("in", "b", "c14", 14);
        h.pipe("in", "a", "c15", 15);
        h.pipe("in", "a", "c4", 4);
        h.pipe("in", "b", "c20", 20);
        h.pipe("in", "a", "c26", 26);
        h.pipe("in", "a", "c27", 27);
        h.pipe("in", "b", "c33", 33);
        h.pipe("in", "a", "c45", 45);
        h.pipe("in", "b", "c70", 70);
        h.pipe("in", "a", "c71", 71);
        h.pipe("in", "a", "c100", 100);
    }

    static <W extends org.apache.kafka.streams.kstream.Window> void closeTo(KTable<Windowed<String>, Long> t, String topic) {
        showTo(t, topic, PSL);
    }

    /** A value serde that writes strings reversed: shows which serde wrote a topic. */
    static final Serde<String> REVERSED = Serdes.serdeFrom(
        (topic, v) -> v == null ? null : new StringBuilder(v).reverse().toString().getBytes(StandardCharsets.UTF_8),
        (topic, b) -> b == null ? null : new StringBuilder(new String(b, StandardCharsets.UTF_8)).reverse().toString());

    static void register(Map<String, Main.Scenario> scenarios) {
        // reduce (plain, windowed, session) writes its table with the grouping's value serde when
        // materialized gives none; the sinks below take the table's serdes.
        scenarios.put("reduce_inherits_value_serde", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", WindowScenarios.SS).groupByKey(Grouped.with(Serdes.String(), REVERSED));
            g.reduce((x, y) -> x + "+" + y).toStream().to("out");
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).reduce((x, y) -> x + "+" + y).toStream()
                .selectKey((w, v) -> WindowScenarios.show(w)).to("out-window");
            g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(10))).reduce((x, y) -> x + "+" + y).toStream()
                .selectKey((w, v) -> WindowScenarios.show(w)).to("out-session");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("out-window", S, S)
                .output("out-session", S, S);
            h.pipe("in", "a", "ab", 1);
            h.pipe("in", "a", "cd", 2);
            h.pipe("in", "b", "ef", 15);
            h.finish();
        });

        // emit on window close: time windows (tumbling with grace, hopping), sliding and session
        // windows, each on RocksDB and in memory, at the default retention and a longer one.
        scenarios.put("window_emit_on_close", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", WindowScenarios.SS).groupByKey();
            EmitStrategy close = EmitStrategy.onWindowClose();
            TimeWindows tumbling = TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(3));
            closeTo(g.windowedBy(tumbling).emitStrategy(close).count(), "tumbling-rocks");
            closeTo(g.windowedBy(tumbling).emitStrategy(close).count(
                Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("tumbling-mem").withStoreType(Materialized.StoreType.IN_MEMORY)),
                "tumbling-mem");
            closeTo(g.windowedBy(tumbling).emitStrategy(close).count(
                Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("tumbling-mem-long")
                    .withStoreType(Materialized.StoreType.IN_MEMORY).withRetention(Duration.ofMillis(100))),
                "tumbling-mem-long");
            closeTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)).advanceBy(Duration.ofMillis(5)))
                .emitStrategy(close).count(Materialized.as("hopping")), "hopping");
            SlidingWindows sliding = SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(3));
            closeTo(g.windowedBy(sliding).emitStrategy(close).count(Materialized.as("sliding-rocks")), "sliding-rocks");
            closeTo(g.windowedBy(sliding).emitStrategy(close).count(
                Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("sliding-mem").withStoreType(Materialized.StoreType.IN_MEMORY)),
                "sliding-mem");
            SessionWindows session = SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(10), Duration.ofMillis(3));
            closeTo(g.windowedBy(session).emitStrategy(close).count(Materialized.as("session-rocks")), "session-rocks");
            closeTo(g.windowedBy(session).emitStrategy(close).count(
                Materialized.<String, Long, SessionStore<Bytes, byte[]>>as("session-mem").withStoreType(Materialized.StoreType.IN_MEMORY)),
                "session-mem");
            closeTo(g.windowedBy(session).emitStrategy(close).count(
                Materialized.<String, Long, SessionStore<Bytes, byte[]>>as("session-mem-long")
                    .withStoreType(Materialized.StoreType.IN_MEMORY).withRetention(Duration.ofMillis(100))),
                "session-mem-long");
            Harness h = new Harness(b.build(), out).input("in", S, S);
            for (String t : new String[] {"tumbling-rocks", "tumbling-mem", "tumbling-mem-long", "hopping", "sliding-rocks",
                                          "sliding-mem", "session-rocks", "session-mem", "session-mem-long"})
                h.output(t, S, L);
            closeInputs(h);
            h.finish();
        });

        // Emit on close, sessions (gap 300 ms, no grace) at real-world-like times: a jump of stream
        // time across a minute segment. Writing the later session drops the earlier segment of the
        // RocksDB time-ordered store (retention gap + grace) before the emission looks; the
        // in-memory store with a 5 min retention still has them.
        scenarios.put("session_emit_on_close_segment_jump", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", WindowScenarios.SS).groupByKey();
            SessionWindows w = SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(300));
            closeTo(g.windowedBy(w).emitStrategy(EmitStrategy.onWindowClose()).count(Materialized.as("session-rocks")),
                "session-rocks");
            closeTo(g.windowedBy(w).emitStrategy(EmitStrategy.onWindowClose()).count(
                Materialized.<String, Long, SessionStore<Bytes, byte[]>>as("session-mem-long")
                    .withStoreType(Materialized.StoreType.IN_MEMORY).withRetention(Duration.ofMinutes(5))),
                "session-mem-long");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("session-rocks", S, L)
                .output("session-mem-long", S, L);
            h.pipe("in", "a", "x", 59000);
            h.pipe("in", "b", "x", 59800);
            h.pipe("in", "a", "x", 200000);
            h.pipe("in", "b", "x", 200100);
            h.pipe("in", "c", "x", 201000);
            h.finish();
        });

        // Emit on close, tumbling, hopping and sliding windows, uncached (the driver flushes a cache after
        // every record, so a cached store shows the emission the previous record's clock): the
        // write of a record's window moves the store's clock before the emission looks. Windows
        // at the retention edge, then a jump of stream time over several minute segments; RocksDB
        // (time-ordered), in memory, and in memory with a retention of an hour.
        scenarios.put("window_emit_on_close_uncached_jump", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", WindowScenarios.SS).groupByKey();
            EmitStrategy close = EmitStrategy.onWindowClose();
            TimeWindows tumbling = TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(1000));
            closeTo(g.windowedBy(tumbling).emitStrategy(close).count(
                Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("tumbling-rocks").withCachingDisabled()),
                "tumbling-rocks");
            closeTo(g.windowedBy(tumbling).emitStrategy(close).count(
                Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("tumbling-mem")
                    .withStoreType(Materialized.StoreType.IN_MEMORY).withCachingDisabled()),
                "tumbling-mem");
            closeTo(g.windowedBy(tumbling).emitStrategy(close).count(
                Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("tumbling-mem-long")
                    .withStoreType(Materialized.StoreType.IN_MEMORY).withRetention(Duration.ofHours(1)).withCachingDisabled()),
                "tumbling-mem-long");
            TimeWindows graced = TimeWindows.ofSizeAndGrace(Duration.ofMillis(1000), Duration.ofMillis(300));
            closeTo(g.windowedBy(graced).emitStrategy(close).count(
                Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("graced-rocks").withCachingDisabled()),
                "graced-rocks");
            TimeWindows hopping = TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(1000)).advanceBy(Duration.ofMillis(500));
            closeTo(g.windowedBy(hopping).emitStrategy(close).count(
                Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("hopping-rocks").withCachingDisabled()),
                "hopping-rocks");
            closeTo(g.windowedBy(hopping).emitStrategy(close).count(
                Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("hopping-mem")
                    .withStoreType(Materialized.StoreType.IN_MEMORY).withCachingDisabled()),
                "hopping-mem");
            // Sliding windows emitting on close are always uncached.
            SlidingWindows sliding = SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(1000));
            closeTo(g.windowedBy(sliding).emitStrategy(close).count(Materialized.as("sliding-rocks")), "sliding-rocks");
            closeTo(g.windowedBy(sliding).emitStrategy(close).count(
                Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("sliding-mem-long")
                    .withStoreType(Materialized.StoreType.IN_MEMORY).withRetention(Duration.ofHours(1))),
                "sliding-mem-long");
            Harness h = new Harness(b.build(), out).input("in", S, S);
            for (String t : new String[] {"tumbling-rocks", "tumbling-mem", "tumbling-mem-long", "graced-rocks", "hopping-rocks",
                                          "hopping-mem", "sliding-rocks", "sliding-mem-long"})
                h.output(t, S, L);
            h.pipe("in", "a", "x", 58100);
            h.pipe("in", "b", "x", 58900);
            h.pipe("in", "a", "x", 59200);
            h.pipe("in", "b", "x", 60400);
            h.pipe("in", "a", "x", 61700);
            h.pipe("in", "b", "x", 62300);
            h.pipe("in", "a", "x", 300050);
            h.pipe("in", "b", "x", 300600);
            h.pipe("in", "a", "x", 301500);
            h.pipe("in", "c", "x", 900000);
            h.finish();
        });

        // Sliding count (RocksDB, cached), aggregate (in-memory, uncached), reduce (named store).
        scenarios.put("window_sliding", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", WindowScenarios.SS).groupByKey();
            SlidingWindows w = SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5));
            KTable<Windowed<String>, Long> c = g.windowedBy(w).count();
            showTo(c, "out-count", PSL);
            c.toStream().to("out-bytes", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10), Serdes.Long()));
            showTo(g.windowedBy(w).aggregate(() -> "", (k, v, agg) -> agg + "/" + v,
                    Materialized.<String, String, WindowStore<Bytes, byte[]>>as("slide-agg")
                        .withStoreType(Materialized.StoreType.IN_MEMORY).withCachingDisabled()),
                "out-agg", PSS);
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10)))
                .reduce((x, y) -> x + "+" + y, Named.as("slide-reduce"),
                    Materialized.<String, String, WindowStore<Bytes, byte[]>>as("slide-reduce-store").withCachingDisabled()),
                "out-reduce", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-bytes", X, L)
                .output("out-agg", S, S).output("out-reduce", S, S);
            slidingInputs(h);
            h.finish();
        });

        // Session count (RocksDB, cached), aggregate with a merger (in-memory, uncached), reduce.
        scenarios.put("window_session", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", WindowScenarios.SS).groupByKey();
            SessionWindows w = SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(10), Duration.ofMillis(5));
            KTable<Windowed<String>, Long> c = g.windowedBy(w).count();
            showTo(c, "out-count", PSL);
            c.toStream().to("out-bytes", Produced.with(WindowedSerdes.sessionWindowedSerdeFrom(String.class), Serdes.Long()));
            showTo(g.windowedBy(w).aggregate(() -> "", (k, v, agg) -> agg + "/" + v, (k, x, y) -> x + "|" + y,
                    Materialized.<String, String, SessionStore<Bytes, byte[]>>as("session-agg")
                        .withStoreType(Materialized.StoreType.IN_MEMORY).withCachingDisabled()),
                "out-agg", PSS);
            showTo(g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(10)))
                .reduce((x, y) -> x + "+" + y, Named.as("session-reduce"),
                    Materialized.<String, String, SessionStore<Bytes, byte[]>>as("session-reduce-store").withCachingDisabled()),
                "out-reduce", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-bytes", X, L)
                .output("out-agg", S, S).output("out-reduce", S, S);
            sessionInputs(h);
            h.finish();
        });
    }

    private WindowKindScenarios() {}
}
