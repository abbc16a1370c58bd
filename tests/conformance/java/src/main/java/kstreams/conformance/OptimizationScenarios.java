package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Properties;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * topology.optimization (StreamsBuilder.build(Properties)): reuse.ktable.source.topics,
 * merge.repartition.topics, single.store.self.join, all, and lists of them; also how one re-keyed
 * stream's repartition topic is reused by several joins without optimization
 * (tests/conformance/optimization_scenarios_test.cpp writes the same with the kstreams DSL).
 */
final class OptimizationScenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());
    static final Produced<String, Long> PSL = Produced.with(Serdes.String(), Serdes.Long());
    static final JoinWindows W = JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10));

    static String show(String v) { return v == null ? "null" : v; }

    static Properties opt(String setting) {
        Properties p = new Properties();
        if (setting != null) p.put(StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG, setting);
        return p;
    }

    static Harness harness(StreamsBuilder b, String setting, PrintStream out) {
        Properties p = opt(setting);
        return new Harness(b.build(p), p, out);
    }

    /** Two table sources (one with a store name, one materialized because a join reads it). */
    static void tableSources(PrintStream out, String setting) {
        StreamsBuilder b = new StreamsBuilder();
        KTable<String, String> users = b.table("users", SS, Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("user-store"));
        KTable<String, String> regions = b.table("regions", SS);
        b.stream("clicks", SS).join(users, (c, u) -> c + "@" + u).leftJoin(regions, (x, r) -> x + "/" + show(r)).to("out", PSS);
        Harness h = harness(b, setting, out).input("users", S, S).input("regions", S, S).input("clicks", S, S).output("out", S, S);
        h.pipe("users", "alice", "eu", 1);
        h.pipe("regions", "alice", "north", 2);
        h.pipe("clicks", "alice", "p1", 5);
        h.pipe("users", "alice", null, 6);
        h.pipe("clicks", "alice", "p2", 7);
        h.pipe("users", "bob", "us", 9);
        h.pipe("clicks", "bob", "p3", 10);
        h.finish();
    }

    /**
     * One re-keyed stream: an unnamed grouping below a filter, one beside it, a named one. (Two
     * repartitions below one filter make Kafka's merge.repartition.topics throw at build().)
     */
    static void groupings(PrintStream out, String setting) {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> rekeyed = b.stream("in", SS).selectKey((k, v) -> v.substring(0, 1));
        KStream<String, String> kept = rekeyed.filter((k, v) -> !v.endsWith("x"));
        kept.groupByKey().count().toStream().to("counts", PSL);
        rekeyed.groupByKey().reduce((a, c) -> a + "," + c).toStream().to("reduced", PSS);
        rekeyed.groupByKey(Grouped.as("named")).aggregate(() -> "", (k, v, agg) -> agg + v).toStream().to("aggregated", PSS);
        rekeyed.to("rekeyed", PSS);
        kept.to("kept", PSS);
        Harness h = harness(b, setting, out).input("in", S, S)
            .output("counts", S, L).output("reduced", S, S).output("aggregated", S, S).output("rekeyed", S, S).output("kept", S, S);
        h.pipe("in", "k1", "a1", 1);
        h.pipe("in", "k2", "b2", 2);
        h.pipe("in", "k3", "ax", 3);
        h.pipe("in", "k4", "a3", 4);
        h.pipe("in", null, "b4", 5);
        h.finish();
    }

    /** One re-keyed stream joined with two streams (an inner and a left join), named or not. */
    static void joinedTwice(PrintStream out, String setting, boolean named) {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> rekeyed = b.stream("in", SS).selectKey((k, v) -> v.substring(0, 1));
        StreamJoined<String, String, String> jx = StreamJoined.with(Serdes.String(), Serdes.String(), Serdes.String());
        StreamJoined<String, String, String> jy = jx;
        if (named) {
            jx = jx.withName("jx");
            jy = jy.withName("jy");
        }
        rekeyed.join(b.stream("x", SS), (a, c) -> a + "+" + c, W, jx).to("out-x", PSS);
        rekeyed.leftJoin(b.stream("y", SS), (a, c) -> a + "+" + show(c), W, jy).to("out-y", PSS);
        Harness h = harness(b, setting, out).input("in", S, S).input("x", S, S).input("y", S, S)
            .output("out-x", S, S).output("out-y", S, S);
        h.pipe("in", "k1", "a1", 1);
        h.pipe("x", "a", "X1", 2);
        h.pipe("y", "a", "Y1", 3);
        h.pipe("in", "k2", "b2", 4);
        h.pipe("in", "k3", "c3", 30);
        h.finish();
    }

    /** One re-keyed stream aggregated, joined with a stream and joined with a table. */
    static void aggregatedAndJoined(PrintStream out, String setting) {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> rekeyed = b.stream("in", SS).selectKey((k, v) -> v.substring(0, 1));
        rekeyed.groupByKey().count().toStream().to("counts", PSL);
        rekeyed.join(b.stream("x", SS), (a, c) -> a + "+" + c, W).to("out-x", PSS);
        rekeyed.join(b.table("t", SS), (a, t) -> a + "/" + t).to("out-t", PSS);
        Harness h = harness(b, setting, out).input("in", S, S).input("x", S, S).input("t", S, S)
            .output("counts", S, L).output("out-x", S, S).output("out-t", S, S);
        h.pipe("t", "a", "T1", 0);
        h.pipe("in", "k1", "a1", 1);
        h.pipe("x", "a", "X1", 2);
        h.pipe("in", "k2", "a2", 3);
        h.pipe("in", "k3", "b3", 4);
        h.finish();
    }

    /** Two re-keyed streams merged, then counted. */
    static void mergedThenGrouped(PrintStream out, String setting) {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> a = b.stream("in-a", SS).selectKey((k, v) -> v.substring(0, 1));
        KStream<String, String> c = b.stream("in-b", SS).map((k, v) -> KeyValue.pair(v.substring(0, 1), v.toUpperCase()));
        a.merge(c).groupByKey().count().toStream().to("counts", PSL);
        Harness h = harness(b, setting, out).input("in-a", S, S).input("in-b", S, S).output("counts", S, L);
        h.pipe("in-a", "k1", "a1", 1);
        h.pipe("in-b", "k2", "a2", 2);
        h.pipe("in-b", "k3", "b3", 3);
        h.finish();
    }

    /** Re-keyed, then a value changed before grouping; a process() whose processor re-keys. */
    static void valueChangedThenGrouped(PrintStream out, String setting) {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> rekeyed = b.stream("in", SS).selectKey((k, v) -> v.substring(0, 1));
        rekeyed.mapValues(v -> v + "!").groupByKey().count().toStream().to("counts", PSL);
        rekeyed.groupByKey().count().toStream().to("counts2", PSL);
        KStream<String, String> processed = b.stream("in2", SS).process(() -> new Processor<String, String, String, String>() {
            private ProcessorContext<String, String> ctx;
            @Override public void init(ProcessorContext<String, String> c) { ctx = c; }
            @Override public void process(Record<String, String> r) { ctx.forward(r.withKey(r.value())); }
        });
        processed.groupByKey().count().toStream().to("counts3", PSL);
        processed.groupByKey().reduce((x, y) -> x + y).toStream().to("reduced3", PSS);
        Harness h = harness(b, setting, out).input("in", S, S).input("in2", S, S)
            .output("counts", S, L).output("counts2", S, L).output("counts3", S, L).output("reduced3", S, S);
        h.pipe("in", "k1", "a1", 1);
        h.pipe("in2", "k2", "v", 2);
        h.finish();
    }

    /** A stream joined with itself. */
    static void selfJoin(PrintStream out, String setting, boolean left) {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> s = b.stream("in", SS);
        (left ? s.leftJoin(s, (a, c) -> a + "+" + show(c), W) : s.join(s, (a, c) -> a + "+" + c, W)).to("out", PSS);
        Harness h = harness(b, setting, out).input("in", S, S).output("out", S, S);
        h.pipe("in", "a", "1", 1);
        h.pipe("in", "a", "2", 5);
        h.pipe("in", "b", "3", 6);
        h.pipe("in", "a", "4", 20);
        h.pipe("in", null, "5", 21);
        h.pipe("in", "a", "6", 40);
        h.finish();
    }

    /** A table source, a re-keyed stream aggregated and joined with it, a self-join. */
    static void everything(PrintStream out, String setting) {
        StreamsBuilder b = new StreamsBuilder();
        KTable<String, String> users = b.table("users", SS, Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("user-store"));
        KStream<String, String> rekeyed = b.stream("in", SS).selectKey((k, v) -> v.substring(0, 1));
        rekeyed.groupByKey().count().toStream().to("counts", PSL);
        rekeyed.join(users, (v, u) -> v + "@" + u).to("enriched", PSS);
        KStream<String, String> s = b.stream("self", SS);
        s.join(s, (a, c) -> a + "+" + c, W).to("pairs", PSS);
        Harness h = harness(b, setting, out).input("users", S, S).input("in", S, S).input("self", S, S)
            .output("counts", S, L).output("enriched", S, S).output("pairs", S, S);
        h.pipe("users", "a", "alice", 0);
        h.pipe("in", "k1", "a1", 1);
        h.pipe("in", "k2", "b2", 2);
        h.pipe("self", "s", "1", 3);
        h.pipe("self", "s", "2", 4);
        h.finish();
    }

    /** Text before the first ',' of v, or null if there is none. */
    static String beforeComma(String v) {
        int at = v.indexOf(',');
        return at < 0 ? null : v.substring(0, at);
    }

    /**
     * A stream re-keyed to null now and then, counted and left-joined: the join's repartition
     * topic keeps null keys, the count's drops them; merged, the one topic keeps them.
     */
    static void nullKeys(PrintStream out, String setting, String... topics) {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> rekeyed = b.stream("in", SS).selectKey((k, v) -> beforeComma(v));
        rekeyed.groupByKey().count().toStream().to("counts", PSL);
        rekeyed.leftJoin(b.stream("x", SS), (a, c) -> a + "+" + show(c), W).to("out", PSS);
        Harness h = harness(b, setting, out).input("in", S, S).input("x", S, S).output("counts", S, L).output("out", S, S);
        for (String t : topics) h.output(t, S, S);
        h.pipe("in", "k1", "a,1", 1);
        h.pipe("in", "k2", "nocomma", 2);
        h.pipe("x", "a", "X", 3);
        h.pipe("in", "k3", "b,2", 30);
        h.finish();
    }

    static void register() {
        Main.SCENARIOS.put("opt_null_keys_none", out -> nullKeys(out, null,
            "conformance-KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition", "conformance-KSTREAM-KEY-SELECT-0000000001-repartition"));
        Main.SCENARIOS.put("opt_null_keys_merge", out -> nullKeys(out, "merge.repartition.topics",
            "conformance-KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition"));
        Main.SCENARIOS.put("opt_table_sources_none", out -> tableSources(out, null));
        Main.SCENARIOS.put("opt_table_sources_reuse", out -> tableSources(out, "reuse.ktable.source.topics"));
        Main.SCENARIOS.put("opt_groupings_none", out -> groupings(out, "none"));
        Main.SCENARIOS.put("opt_groupings_merge", out -> groupings(out, "merge.repartition.topics"));
        Main.SCENARIOS.put("rekeyed_joined_twice", out -> joinedTwice(out, null, false));
        Main.SCENARIOS.put("rekeyed_joined_twice_named", out -> joinedTwice(out, null, true));
        Main.SCENARIOS.put("opt_joined_twice_merge", out -> joinedTwice(out, "merge.repartition.topics", false));
        Main.SCENARIOS.put("opt_joined_twice_named_merge", out -> joinedTwice(out, "merge.repartition.topics", true));
        Main.SCENARIOS.put("rekeyed_aggregated_and_joined", out -> aggregatedAndJoined(out, null));
        Main.SCENARIOS.put("opt_aggregated_and_joined_merge", out -> aggregatedAndJoined(out, "merge.repartition.topics"));
        Main.SCENARIOS.put("opt_merged_then_grouped_merge", out -> mergedThenGrouped(out, "merge.repartition.topics"));
        Main.SCENARIOS.put("opt_value_changed_merge", out -> valueChangedThenGrouped(out, "merge.repartition.topics"));
        Main.SCENARIOS.put("opt_self_join_none", out -> selfJoin(out, null, false));
        Main.SCENARIOS.put("opt_self_join_single_store", out -> selfJoin(out, "single.store.self.join", false));
        Main.SCENARIOS.put("opt_self_left_join_single_store", out -> selfJoin(out, "single.store.self.join", true));
        Main.SCENARIOS.put("opt_all", out -> everything(out, "all"));
        Main.SCENARIOS.put("opt_list", out -> everything(out, "merge.repartition.topics, reuse.ktable.source.topics"));
    }
}
