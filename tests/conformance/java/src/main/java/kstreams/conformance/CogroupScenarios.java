package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.CogroupedKStream;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Cogroup (KIP-150; tests/conformance/cogroup_scenarios_test.cpp writes the same with the kstreams
 * DSL): streams of different value types into one aggregate, one of them re-keyed, unwindowed and
 * with each kind of window. Windowed keys are shown as "key@start/end".
 */
final class CogroupScenarios {
    static final Consumed<String, Long> SL = Consumed.with(Serdes.String(), Serdes.Long());

    static void inputs(Harness h) {
        h.pipe("in1", "a", "x1", 1);
        h.pipe("in2", "a", 5L, 2);
        h.pipe("in3", "k1", "a3", 3);
        h.pipe("in1", "b", "y4", 4);
        h.pipe("in2", "b", null, 5);
        h.pipe("in1", null, "n6", 6);
        h.pipe("in3", "k2", "b7", 7);
        h.pipe("in1", "a", "x12", 12);
        h.pipe("in2", "a", 13L, 13);
        h.pipe("in1", "a", "x3", 3);
        h.pipe("in2", "b", 30L, 30);
        h.pipe("in1", "a", "x20", 20);
        h.pipe("in1", "b", "y41", 41);
        h.pipe("in2", "a", 1L, 1);
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // Three streams (String, Long, and a re-keyed String one through a repartition topic named
        // after the store), then a named and materialized cogroup of two.
        scenarios.put("cogroup_unwindowed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g1 = b.stream("in1", WindowScenarios.SS).groupByKey();
            KGroupedStream<String, Long> g2 = b.stream("in2", SL).groupByKey();
            KGroupedStream<String, String> g3 = b.stream("in3", WindowScenarios.SS)
                .selectKey((k, v) -> v.substring(0, 1)).groupByKey();
            g1.<String>cogroup((k, v, agg) -> agg + "+" + v)
                .cogroup(g2, (k, v, agg) -> agg + "#" + v)
                .cogroup(g3, (k, v, agg) -> agg + "@" + v)
                .aggregate(() -> "")
                .toStream().to("out", WindowScenarios.PSS);
            g2.<Long>cogroup((k, v, agg) -> agg + v)
                .cogroup(g1, (k, v, agg) -> agg + v.length())
                .aggregate(() -> 100L, Named.as("sums"), Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("sums-store").withValueSerde(Serdes.Long()))
                .toStream().to("out-sums", WindowScenarios.PSL);
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, L).input("in3", S, S)
                .output("out", S, S).output("out-sums", S, L);
            inputs(h);
            h.finish();
        });

        // The same two streams over tumbling (grace 5), sliding (10, grace 5) and session (gap 10,
        // grace 5) windows; a re-keyed stream with a named grouping in the tumbling one.
        scenarios.put("cogroup_windowed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g1 = b.stream("in1", WindowScenarios.SS).groupByKey();
            KGroupedStream<String, Long> g2 = b.stream("in2", SL).groupByKey();
            KGroupedStream<String, String> g3 = b.stream("in3", WindowScenarios.SS)
                .selectKey((k, v) -> v.substring(0, 1)).groupByKey(Grouped.as("rekeyed"));
            CogroupedKStream<String, String> tumbling = g1.<String>cogroup((k, v, agg) -> agg + "+" + v)
                .cogroup(g2, (k, v, agg) -> agg + "#" + v)
                .cogroup(g3, (k, v, agg) -> agg + "@" + v);
            WindowKindScenarios.showTo(tumbling.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                .aggregate(() -> ""), "out-tumbling", WindowScenarios.PSS);
            CogroupedKStream<String, String> two = g1.<String>cogroup((k, v, agg) -> agg + "+" + v)
                .cogroup(g2, (k, v, agg) -> agg + "#" + v);
            WindowKindScenarios.showTo(two.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                .aggregate(() -> ""), "out-sliding", WindowScenarios.PSS);
            CogroupedKStream<String, String> three = g1.<String>cogroup((k, v, agg) -> agg + "+" + v)
                .cogroup(g2, (k, v, agg) -> agg + "#" + v);
            WindowKindScenarios.showTo(three.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                .aggregate(() -> "", (k, x, y) -> x + "|" + y, Named.as("sessions")), "out-session", WindowScenarios.PSS);
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, L).input("in3", S, S)
                .output("out-tumbling", S, S).output("out-sliding", S, S).output("out-session", S, S);
            inputs(h);
            h.finish();
        });
    }

    private CogroupScenarios() {}
}
