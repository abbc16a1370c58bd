package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Main.PSL;
import static kstreams.conformance.Main.PSS;
import static kstreams.conformance.Main.SCENARIOS;
import static kstreams.conformance.Main.SS;
import static kstreams.conformance.Main.split;

import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;

/** split() with Branched chains (see Main): withFunction and withConsumer run at once. */
final class SplitScenarios {
    static void register() {
        // Chains on named and unnamed splits: a function's stream is the branch's result (null
        // leaves it out), a consumer's branch is never in the result; the chains' operators are
        // numbered before the next branch.
        SCENARIOS.put("split_chains", out -> {
            StreamsBuilder b = new StreamsBuilder();
            Map<String, KStream<String, String>> m = b.stream("in", SS).split(Named.as("s-"))
                .branch((k, v) -> v.startsWith("a"), Branched.withFunction(ks -> ks.mapValues(v -> v + "!"), "a"))
                .branch((k, v) -> v.startsWith("b"), Branched.withConsumer(ks -> ks.to("out-b", PSS)))
                .branch((k, v) -> v.startsWith("c"), Branched.withFunction(ks -> null))
                .branch((k, v) -> v.startsWith("d"), Branched.withConsumer(ks -> ks.filter((k, v) -> v.length() > 1).to("out-d", PSS), "d"))
                .defaultBranch(Branched.withFunction(ks -> ks.selectKey((k, v) -> v), "rest"));
            new TreeMap<>(m).forEach((name, s) -> s.to("out-" + name, PSS));
            m.get("s-rest").groupByKey().count().toStream().to("out-rest-count", PSL);
            Map<String, KStream<String, String>> m2 = b.stream("in2", SS).split()
                .branch((k, v) -> v.length() > 2, Branched.withFunction(ks -> ks.flatMapValues(v -> split(v, " "))))
                .branch((k, v) -> v.length() > 1)
                .defaultBranch(Branched.withConsumer(ks -> ks.to("out-short", PSS)));
            new TreeMap<>(m2).forEach((name, s) -> s.to("out-" + name, PSS));
            Harness h = new Harness(b.build(), out).input("in", S, S).input("in2", S, S)
                .output("out-b", S, S).output("out-d", S, S).output("out-s-a", S, S).output("out-s-rest", S, S)
                .output("out-rest-count", S, L).output("out-short", S, S)
                .output("out-KSTREAM-BRANCH-00000000221", S, S).output("out-KSTREAM-BRANCH-00000000222", S, S);
            h.pipe("in", "1", "ax", 1);
            h.pipe("in", "2", "bx", 2);
            h.pipe("in", "3", "cx", 3);
            h.pipe("in", "4", "d", 4);
            h.pipe("in", "5", "dx", 5);
            h.pipe("in", "6", "ex", 6);
            h.pipe("in", "7", "ex", 7);
            h.pipe("in2", "8", "p q r", 8);
            h.pipe("in2", "9", "pq", 9);
            h.pipe("in2", "10", "p", 10);
            h.finish();
        });
    }

    private SplitScenarios() {}
}
