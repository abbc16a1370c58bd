package kstreams.conformance;

import static kstreams.conformance.Harness.Type.S;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindowedKStream;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.Suppressed.BufferConfig;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.SessionStore;

/**
 * Scenarios of session 19 (tests/conformance/sess19_scenarios_test.cpp writes the same with
 * kstreams): a session that ends exactly the retention (gap + grace) before stream time when it is
 * written. Kafka's RocksDB session stores keep it (they drop a write only when its whole segment
 * is out of retention) and an aggregation emitting on close emits it; the in-memory session store
 * drops it (and counts it in dropped-records); reads of one key never show it in either.
 */
final class Sess19Scenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());

    static void showTo(KTable<Windowed<String>, String> t, String topic) {
        WindowKindScenarios.showTo(t, topic, PSS);
    }

    static Materialized<String, String, SessionStore<Bytes, byte[]>> inMemory(String name) {
        return Materialized.<String, String, SessionStore<Bytes, byte[]>>as(name).withStoreType(Materialized.StoreType.IN_MEMORY);
    }

    static final SessionWindows GAP5_GRACE3 = SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(5), Duration.ofMillis(3));

    /** A reduce emitting on close and an eager reduce suppressed until its sessions close, over
     * Hunt19Scenarios.sessionsOutOfOrder, in the default stores (null) or the ones given. */
    static void suppressCloseOutOfOrder(java.io.PrintStream out, Materialized<String, String, SessionStore<Bytes, byte[]>> close,
                                        Materialized<String, String, SessionStore<Bytes, byte[]>> sup) {
        StreamsBuilder b = new StreamsBuilder();
        KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
        SessionWindowedKStream<String, String> onClose = g.windowedBy(GAP5_GRACE3).emitStrategy(EmitStrategy.onWindowClose());
        showTo(close == null ? onClose.reduce((a, c) -> a + "," + c) : onClose.reduce((a, c) -> a + "," + c, close), "out-close");
        SessionWindowedKStream<String, String> eager = g.windowedBy(GAP5_GRACE3);
        showTo((sup == null ? eager.reduce((a, c) -> a + "," + c) : eager.reduce((a, c) -> a + "," + c, sup))
            .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-suppressed");
        Harness h = new Harness(b.build(), out).input("in", S, S).output("out-close", S, S).output("out-suppressed", S, S);
        Hunt19Scenarios.sessionsOutOfOrder(h);
        h.dropped();
        h.finish();
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // A reduce emitting on close from the default (RocksDB) store, and an eager reduce
        // suppressed until its sessions close: b@12 comes at stream time 20, its session ends at
        // exactly stream time - (gap + grace), is kept (its segment is live) and emitted at a@28.
        scenarios.put("session_suppress_close_out_of_order", out -> suppressCloseOutOfOrder(out, null, null));

        // The same with in-memory stores: the store emitting on close drops b's session (written
        // one retention behind) and counts it; it cuts every read at its retention, so with gap +
        // grace it shows no closed session to emit.
        scenarios.put("session_suppress_close_out_of_order_in_memory",
            out -> suppressCloseOutOfOrder(out, inMemory("mem-close"), inMemory("mem-sup")));

        // Emitting eagerly, uncached, RocksDB and in memory, beside a reduce emitting on close:
        // b@16 at stream time 20 does not merge into b's session ending at 12 (reads of one key are
        // cut at the retention, whichever store keeps it), and each store read of a and b after
        // every record shows the same cut; emitting on close, both b sessions go out.
        scenarios.put("session_eager_retention_edge_reads", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(GAP5_GRACE3)
                .reduce((a, c) -> a + "," + c, Materialized.<String, String, SessionStore<Bytes, byte[]>>as("edge-db").withCachingDisabled()),
                "out-db");
            showTo(g.windowedBy(GAP5_GRACE3).reduce((a, c) -> a + "," + c, inMemory("edge-mem").withCachingDisabled()), "out-mem");
            showTo(g.windowedBy(GAP5_GRACE3).emitStrategy(EmitStrategy.onWindowClose())
                .reduce((a, c) -> a + "," + c, Materialized.as("edge-close")), "out-close");
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-db", S, S).output("out-mem", S, S).output("out-close", S, S);
            TopologyTestDriver d = h.driver();
            String[][] rows = {{"a", "10"}, {"a", "20"}, {"b", "12"}, {"b", "16"}, {"a", "15"}, {"b", "13"}, {"a", "28"},
                               {"b", "21"}, {"a", "36"}, {"b", "30"}};
            for (String[] r : rows) {
                h.pipe("in", r[0], r[1], Long.parseLong(r[1]));
                StringBuilder sb = new StringBuilder("=");
                for (String name : List.of("edge-db", "edge-mem", "edge-close")) {
                    SessionStore<String, String> s = d.getSessionStore(name);
                    sb.append(" ").append(name).append(": ").append(Hunt15Scenarios.entries(s.fetch("a")))
                      .append("| ").append(Hunt15Scenarios.entries(s.fetch("b")));
                }
                h.line(sb.toString());
            }
            h.dropped();
            h.finish();
        });
    }
}
