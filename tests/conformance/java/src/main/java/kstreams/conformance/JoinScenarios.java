package kstreams.conformance;

import static kstreams.conformance.Harness.Type.S;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.StreamJoined;

/**
 * Windowed stream-stream join scenarios (tests/conformance/join_scenarios_test.cpp writes the same
 * with the kstreams DSL). The harness's wall clock stays at 0, so Kafka looks for closed
 * left/outer windows only once (its emission is throttled by wall-clock time).
 */
final class JoinScenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());

    static String show(String v) { return v == null ? "null" : v; }

    static void register(Map<String, Main.Scenario> scenarios) {
        // Inner join: edges inclusive, result timestamp max, duplicates, null key/value dropped,
        // a late record joining what the other store still keeps, grace.
        scenarios.put("stream_join_inner", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            l.join(r, (a, c) -> a + "+" + c, JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out", S, S);
            h.pipe("left", "a", "L1", 100);
            h.pipe("right", "a", "R1", 90);
            h.pipe("right", "a", "R2", 110);
            h.pipe("right", "a", "R3", 111);
            h.pipe("left", "a", "L2", 105);
            h.pipe("right", "b", "R4", 100);
            h.pipe("right", "b", "R4", 100);
            h.pipe("left", "b", "L3", 95);
            h.pipe("left", null, "L4", 100);
            h.pipe("right", "a", null, 100);
            h.pipe("right", "c", "R5", 200);
            h.pipe("left", "a", "L5", 104);
            h.pipe("right", "a", "R6", 101);
            h.pipe("left", "a", "L6", 102);
            h.finish();
        });

        // Asymmetric windows, a re-keyed side read through a repartition topic.
        scenarios.put("stream_join_rekeyed_asymmetric", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS).selectKey((k, v) -> v.substring(0, 1));
            KStream<String, String> r = b.stream("right", SS);
            l.join(r, (k, a, c) -> k + ":" + a + "+" + c,
                    JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(0)).after(Duration.ofMillis(5)))
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out", S, S);
            h.pipe("left", "x", "a1", 100);
            h.pipe("right", "a", "R99", 99);
            h.pipe("right", "a", "R105", 105);
            h.pipe("right", "a", "R106", 106);
            h.pipe("left", "y", "a2", 101);
            h.pipe("right", "b", "Rb", 50);
            h.pipe("left", "z", "b1", 45);
            h.pipe("left", "z", "b2", 50);
            h.finish();
        });

        // Left join: unmatched records parked, a later match, late records emitted at once, a
        // null-key left record passed on at once.
        scenarios.put("stream_join_left", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            l.leftJoin(r, (a, c) -> a + "+" + show(c), JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10)))
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out", S, S);
            h.pipe("left", "a", "L1", 100);
            h.pipe("left", "b", "L2", 105);
            h.pipe("right", "b", "R1", 108);
            h.pipe("right", "c", "R2", 120);
            h.pipe("left", "d", "L3", 125);
            h.pipe("left", "e", "L4", 90);
            h.pipe("left", null, "L5", 130);
            h.pipe("right", null, "R3", 130);
            h.pipe("left", "a", "L6", 200);
            h.finish();
        });

        // A re-keyed left side whose new key may be null: null keys go through the repartition
        // topic and are emitted null-padded by the left join.
        scenarios.put("stream_join_left_rekeyed_null_keys", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS).selectKey((k, v) -> v.startsWith("n") ? null : v.substring(0, 1));
            KStream<String, String> r = b.stream("right", SS);
            l.leftJoin(r, (k, a, c) -> show(k) + ":" + a + "+" + show(c), JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10)),
                    StreamJoined.<String, String, String>as("st").withName("lj"))
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out", S, S);
            h.pipe("right", "a", "R1", 10);
            h.pipe("left", "x", "a1", 12);
            h.pipe("left", "y", "n1", 13);
            h.pipe("left", "z", "b1", 14);
            h.pipe("right", "q", "R2", 40);
            h.pipe("left", "w", "a2", 41);
            h.finish();
        });

        // Outer join, named processors and stores, grace.
        scenarios.put("stream_join_outer_named", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            l.outerJoin(r, (a, c) -> show(a) + "+" + show(c),
                    JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(3)),
                    StreamJoined.with(Serdes.String(), Serdes.String(), Serdes.String()).withName("j").withStoreName("js"))
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out", S, S);
            h.pipe("right", "r", "R1", 100);
            h.pipe("left", "l", "L1", 101);
            h.pipe("left", "m", "L2", 102);
            h.pipe("right", "m", "R2", 103);
            h.pipe("left", "z", "Z", 130);
            h.pipe("right", "late", "R3", 110);
            h.pipe("left", "late2", "L3", 116);
            h.finish();
        });
    }

    private JoinScenarios() {}
}
