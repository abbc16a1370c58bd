package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;

import java.io.PrintStream;
import java.time.Duration;
import java.util.function.BinaryOperator;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * Null keys and repartition topics: a stream repartition's filter drops null-key records unless a
 * left/outer join is downstream of it (tests/conformance/null_key_scenarios_test.cpp writes the
 * same with the kstreams DSL). The repartition topics are read as outputs.
 */
final class NullKeyScenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());

    static String show(String v) { return v == null ? "null" : v; }

    /** Text before the first ',' of v, or null if there is none. */
    static String beforeComma(String v) {
        int at = v.indexOf(',');
        return at < 0 ? null : v.substring(0, at);
    }

    /** left and right re-keyed by beforeComma, joined by `join` into "out"; reads both repartition topics. */
    static void bothSidesRekeyed(PrintStream out, BinaryOperator<KStream<String, String>> join, boolean oneMore) {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> l = b.stream("left", SS).selectKey((k, v) -> beforeComma(v));
        KStream<String, String> r = b.stream("right", SS).selectKey((k, v) -> beforeComma(v));
        join.apply(l, r).to("out", PSS);
        Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out", S, S)
            .output("conformance-KSTREAM-KEY-SELECT-0000000001-repartition", S, S)
            .output("conformance-KSTREAM-KEY-SELECT-0000000003-repartition", S, S);
        h.pipe("left", "x", "x", 0);
        h.pipe("left", "y", "a,1", 1);
        h.pipe("right", "z", "a,2", 2);
        h.pipe("right", "w", "w", 3);
        if (oneMore) h.pipe("left", "v", "b,3", 30);
        h.finish();
    }

    static void register() {
        // Both sides re-keyed, inner join: nothing with a null key reaches either repartition topic.
        Main.SCENARIOS.put("null_keys_inner_join_repartition", out -> bothSidesRekeyed(out,
            (l, r) -> l.join(r, (a, c) -> a + "+" + c, JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5))),
            false));

        // Both sides re-keyed, outer join: both repartition topics carry the null-key records.
        Main.SCENARIOS.put("null_keys_outer_join_repartition", out -> bothSidesRekeyed(out,
            (l, r) -> l.outerJoin(r, (k, a, c) -> show(k) + ":" + show(a) + "+" + show(c),
                JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5))),
            true));

        // A left join further downstream: the explicit repartition() before an inner join keeps
        // null keys because the inner join's result feeds a left join; a grouping of the same
        // re-keyed stream (no left join below it) drops them.
        Main.SCENARIOS.put("null_keys_left_join_downstream", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> rekeyed = b.stream("left", SS).selectKey((k, v) -> beforeComma(v));
            KStream<String, String> once = rekeyed.repartition(Repartitioned.<String, String>as("through")
                .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
            KStream<String, String> inner = once.join(b.stream("right", SS), (a, c) -> a + "+" + c,
                JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10)));
            inner.leftJoin(b.stream("third", SS), (a, c) -> a + "+" + show(c), JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10)))
                .to("out", PSS);
            rekeyed.groupByKey(Grouped.<String, String>as("counted").withKeySerde(Serdes.String()).withValueSerde(Serdes.String()))
                .count().toStream().to("counts", Produced.with(Serdes.String(), Serdes.Long()));
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).input("third", S, S)
                .output("out", S, S).output("counts", S, L)
                .output("conformance-through-repartition", S, S).output("conformance-counted-repartition", S, S);
            h.pipe("left", "x", "x", 0);
            h.pipe("right", "a", "R", 1);
            h.pipe("left", "y", "a,1", 2);
            h.pipe("third", "q", "T", 3);
            h.pipe("left", "z", "z", 40);
            h.finish();
        });
    }
}
