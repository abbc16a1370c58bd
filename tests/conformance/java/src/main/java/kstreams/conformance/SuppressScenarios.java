package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Harness.Type.X;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.Suppressed.BufferConfig;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.SessionStore;

/**
 * KTable.suppress (tests/conformance/suppress_scenarios_test.cpp writes the same with the kstreams
 * DSL): final results of windows, time limits, full buffers in both modes, tombstones. Windowed
 * keys are shown as "key@start/end"; one buffer's changelog is shown in hex (Kafka's format v3).
 */
final class SuppressScenarios {
    static final Produced<String, String> PSS = WindowScenarios.PSS;
    static final Produced<String, Long> PSL = WindowScenarios.PSL;

    static <V> void showTo(KTable<Windowed<String>, V> t, String topic, Produced<String, V> p) {
        WindowKindScenarios.showTo(t, topic, p);
    }

    /** Records for windows of 10 ms: two keys, out of order, late, headers, a null value. */
    static void windowInputs(Harness h) {
        h.pipe("in", "a", "w1", 1, "h=1");
        h.pipe("in", "b", "w3", 3);
        h.pipe("in", "a", "w9", 9, "h=9");
        h.pipe("in", "a", "w12", 12);
        h.pipe("in", "b", "w14", 14);
        h.pipe("in", "a", "w15", 15);
        h.pipe("in", "a", "w4", 4);
        h.pipe("in", "b", "w20", 20);
        h.pipe("in", "a", null, 21);
        h.pipe("in", "a", "w26", 26);
        h.pipe("in", "a", "w27", 27, "h=27", "k=x");
        h.pipe("in", "b", "w33", 33);
        h.pipe("in", "a", "w45", 45);
        h.pipe("in", "b", "w70", 70);
        h.pipe("in", "a", "w71", 71);
        h.pipe("in", "a", "w100", 100);
    }

    /** Pipes a record that should fail; prints "! " and the failure's message from `from` on. */
    static void pipeFailing(Harness h, String from, String topic, String key, String value, long ts) {
        try {
            h.pipe(topic, key, value, ts);
            h.line("! no error");
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                String m = t.getMessage();
                if (m != null && m.contains(from)) {
                    h.line("! " + m.substring(m.indexOf(from)));
                    return;
                }
            }
            h.line("! " + e);
        }
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // Final results of tumbling (grace 5, named, its buffer's changelog shown), hopping (no
        // grace, logging disabled) and sliding (grace 3) windows.
        scenarios.put("suppress_final_windows", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", WindowScenarios.SS).groupByKey();
            showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5))).count()
                    .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()).withName("final-tumbling")),
                "out-tumbling", PSL);
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)).advanceBy(Duration.ofMillis(5)))
                    .reduce((x, y) -> x + "+" + y)
                    .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded().withLoggingDisabled())),
                "out-hopping", PSS);
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(3))).count()
                    .suppress(Suppressed.untilWindowCloses(BufferConfig.maxRecords(100).withMaxBytes(100000).shutDownWhenFull())),
                "out-sliding", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-tumbling", S, L).output("out-hopping", S, S)
                .output("out-sliding", S, L).output("conformance-final-tumbling-store-changelog", X, X);
            windowInputs(h);
            h.finish();
        });

        // Final results of sessions (gap 10, grace 5): merges send tombstones into the buffer,
        // which are dropped when they come out; an aggregate with a merger, in memory.
        scenarios.put("suppress_final_sessions", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", WindowScenarios.SS).groupByKey();
            SessionWindows w = SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(10), Duration.ofMillis(5));
            showTo(g.windowedBy(w).count().suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-count", PSL);
            showTo(g.windowedBy(w).aggregate(() -> "", (k, v, agg) -> agg + "/" + v, (k, x, y) -> x + "|" + y,
                    Materialized.<String, String, SessionStore<Bytes, byte[]>>as("session-agg")
                        .withStoreType(Materialized.StoreType.IN_MEMORY).withCachingDisabled())
                    .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()).withName("final-sessions")),
                "out-agg", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-agg", S, S);
            WindowKindScenarios.sessionInputs(h);
            h.finish();
        });

        // Time limits: a source table (materialized for the buffer's old values), a filtered one
        // with no wait, tombstones passed on; a count with buffers that emit early when full, by
        // records and by bytes.
        scenarios.put("suppress_time_limit", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", WindowScenarios.SS);
            t.suppress(Suppressed.untilTimeLimit(Duration.ofMillis(10), BufferConfig.unbounded())).toStream().to("out-limit", PSS);
            t.filter((k, v) -> !v.startsWith("x"))
                .suppress(Suppressed.untilTimeLimit(Duration.ZERO, BufferConfig.maxRecords(100)).withName("no-wait"))
                .toStream().to("out-zero", PSS);
            KTable<String, Long> c = b.stream("in2", WindowScenarios.SS).groupByKey().count();
            c.suppress(Suppressed.untilTimeLimit(Duration.ofMillis(20), BufferConfig.maxRecords(2))).toStream().to("out-records", PSL);
            c.suppress(Suppressed.untilTimeLimit(Duration.ofMillis(20), BufferConfig.maxBytes(150))).toStream().to("out-bytes", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("in2", S, S).output("out-limit", S, S)
                .output("out-zero", S, S).output("out-records", S, L).output("out-bytes", S, L);
            h.pipe("in", "a", "1", 10);
            h.pipe("in", "b", "2", 12);
            h.pipe("in", "a", "3", 15);
            h.pipe("in", "c", "x4", 16);
            h.pipe("in", "a", null, 18);
            h.pipe("in", "b", "5", 20);
            h.pipe("in", "d", "6", 25, "h=v");
            h.pipe("in", "c", null, 26);
            h.pipe("in", "a", "7", 40);
            h.pipe("in", "e", "8", 41);
            h.pipe("in2", "k1", "x", 1);
            h.pipe("in2", "k2", "x", 2);
            h.pipe("in2", "k1", "x", 3);
            h.pipe("in2", "k3", "x", 4, "hh=vvv");
            h.pipe("in2", "k4", "x", 5);
            h.pipe("in2", "k2", "x", 6);
            h.pipe("in2", "k5", "x", 30);
            h.pipe("in2", "k1", "x", 31);
            h.finish();
        });

        // A final-results buffer of at most 2 records that shuts down when full.
        scenarios.put("suppress_full_records", out -> {
            StreamsBuilder b = new StreamsBuilder();
            showTo(b.stream("in", WindowScenarios.SS).groupByKey()
                    .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count()
                    .suppress(Suppressed.untilWindowCloses(BufferConfig.maxRecords(2).shutDownWhenFull())),
                "out", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, L);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "b", "2", 2);
            h.pipe("in", "a", "3", 3);
            h.pipe("in", "a", "4", 11);
            h.pipe("in", "b", "5", 12);
            pipeFailing(h, "KTABLE-SUPPRESS", "in", "c", "6", 13);
            h.finish();
        });

        // A time-limit buffer of at most 150 bytes that shuts down when full: the message says
        // how many bytes Kafka counts (key, values, and the record's topic, offsets and headers).
        scenarios.put("suppress_full_bytes", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("input-topic", WindowScenarios.SS).groupByKey(Grouped.as("grp")).count()
                .suppress(Suppressed.untilTimeLimit(Duration.ofMillis(100), BufferConfig.maxBytes(150).shutDownWhenFull())
                    .withName("bytes-limit"))
                .toStream().to("out", PSL);
            Harness h = new Harness(b.build(), out).input("input-topic", S, S).output("out", S, L);
            h.pipe("input-topic", "key1", "1", 1, "header=value");
            h.pipe("input-topic", "key2", "2", 2);
            h.pipe("input-topic", "key1", "3", 3);
            pipeFailing(h, "bytes-limit", "input-topic", "key3", "4", 4);
            h.finish();
        });
    }

    private SuppressScenarios() {}
}
