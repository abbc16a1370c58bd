package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
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
 * More stream-stream join scenarios (tests/conformance/join_more_scenarios_test.cpp writes the
 * same with the kstreams DSL): the order in which an outer join emits its unmatched records
 * (ties in time, both sides, several keys) as stream time and the wall clock move, many partners
 * per key, out-of-order records inside the grace and late ones after it, zero-width windows.
 */
final class JoinMoreScenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Consumed<String, Long> SL = Consumed.with(Serdes.String(), Serdes.Long());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    static void register(Map<String, Main.Scenario> scenarios) {
        scenarios.put("stream_join_outer_emit_order", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            l.outerJoin(r, (a, c) -> show(a) + "+" + show(c), JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10)))
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out", S, S);
            h.pipe("left", "b", "L1", 100);
            h.pipe("left", "a", "L2", 100);
            h.pipe("right", "c", "R1", 100);
            h.pipe("right", "a0", "R2", 99);
            h.pipe("left", "d", "L3", 101);
            h.pipe("right", "b", "R3", 100);
            h.pipe("right", "a", "R4", 100);
            h.pipe("left", "e", "L4", 100);
            h.pipe("right", "e", "R5", 100);
            h.pipe("left", "f", "L5", 115);
            h.advanceWallClock(1000);
            h.pipe("right", "g", "R6", 121);
            h.pipe("left", "h", "L6", 111);
            h.advanceWallClock(1000);
            h.pipe("left", "i", "L7", 140);
            h.pipe("right", "i", "R7", 131);
            h.advanceWallClock(1000);
            h.pipe("right", "j", "R8", 160);
            h.finish();
        });

        scenarios.put("stream_join_left_partners_grace", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, Long> r = b.stream("right", SL);
            l.leftJoin(r, (k, a, c) -> k + ":" + a + "+" + show(c),
                    JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)),
                    StreamJoined.with(Serdes.String(), Serdes.String(), Serdes.Long()))
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, L).output("out", S, S);
            h.pipe("right", "a", 1L, 100);
            h.pipe("right", "a", 2L, 105);
            h.pipe("right", "a", 3L, 95);
            h.pipe("left", "a", "L1", 100);
            h.pipe("left", "a", "L2", 103);
            h.pipe("right", "a", 4L, 101);
            h.pipe("left", "a", "L3", 92);
            h.pipe("left", "a", "L4", 80);
            h.pipe("right", "a", 5L, 84);
            h.pipe("left", "b", "L5", 106);
            h.pipe("left", "b", "L6", 106);
            h.pipe("right", "a", null, 104);
            h.pipe("left", "a", null, 104);
            h.pipe("right", "x", 6L, 118);
            h.advanceWallClock(1000);
            h.pipe("right", "x", 7L, 125);
            h.pipe("left", "c", "L7", 126);
            h.advanceWallClock(1000);
            h.pipe("right", "x", 8L, 150);
            h.finish();
        });

        scenarios.put("stream_join_zero_window", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            l.join(r, (a, c) -> a + "+" + c, JoinWindows.ofTimeDifferenceAndGrace(Duration.ZERO, Duration.ofMillis(2)))
                .to("same", PSS);
            l.leftJoin(r, (a, c) -> a + "+" + show(c),
                    JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ZERO).before(Duration.ofMillis(5)))
                .to("before", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("same", S, S).output("before", S, S);
            h.pipe("left", "a", "L1", 10);
            h.pipe("right", "a", "R1", 10);
            h.pipe("right", "a", "R2", 11);
            h.pipe("right", "a", "R3", 6);
            h.pipe("left", "a", "L2", 11);
            h.pipe("left", "a", "L3", 9);
            h.pipe("right", "a", "R4", 9);
            h.pipe("left", "b", "L4", 20);
            h.pipe("right", "b", "R5", 15);
            h.pipe("left", "b", "L5", 20);
            h.advanceWallClock(1000);
            h.pipe("left", "z", "L6", 40);
            h.finish();
        });
    }

    private JoinMoreScenarios() {}
}
