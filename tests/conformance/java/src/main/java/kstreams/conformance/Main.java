package kstreams.conformance;

import static kstreams.conformance.Harness.Type.I;
import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;

import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Conformance scenarios: each builds a topology with the Java DSL and feeds fixed inputs through
 * the TopologyTestDriver. tests/conformance/*.cpp writes the same scenarios with the kstreams DSL;
 * keep the two in step (same operations in the same order, same inputs).
 * Usage: Main <output dir> [scenario...]
 */
public final class Main {
    interface Scenario {
        void run(PrintStream out);
    }

    static final Map<String, Scenario> SCENARIOS = new java.util.LinkedHashMap<>();

    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Consumed<String, Long> SL = Consumed.with(Serdes.String(), Serdes.Long());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());
    static final Produced<String, Long> PSL = Produced.with(Serdes.String(), Serdes.Long());

    static List<String> split(String v, String sep) {
        return Arrays.asList(v.split(sep, -1));
    }

    static {
        // filter, peek, map_values, flat_map_values, select_key, map; null keys pass through
        // key-preserving operations.
        SCENARIOS.put("stateless_chain", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            KStream<String, String> kept = s.filter((k, v) -> !v.startsWith("x")).peek((k, v) -> { });
            kept.mapValues(v -> v.toUpperCase()).flatMapValues(v -> split(v, ",")).to("out-values", PSS);
            kept.selectKey((k, v) -> v + "@" + k)
                .map((k, v) -> KeyValue.pair(k + "!", (long) v.length()))
                .to("out-map", PSL);
            s.filterNot((k, v) -> v.startsWith("x")).mapValues((k, v) -> k + ":" + v).to("out-rejected", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-values", S, S).output("out-map", S, L).output("out-rejected", S, S);
            h.pipe("in", "a", "p,q", 1);
            h.pipe("in", null, "r", 2);
            h.pipe("in", "b", "xdrop", 3);
            h.pipe("in", "c", "", 4);
            h.pipe("in", "d", "s,,t", 0);
            h.pipe("in", null, "x", 5);
            h.finish();
        });

        // flat_map with zero, one and several results per record; merge of two streams.
        SCENARIOS.put("flat_map_merge", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> a = b.stream("in-a", SS);
            KStream<String, String> c = b.stream("in-b", SS);
            KStream<String, String> fm = a.flatMap((k, v) -> {
                List<KeyValue<String, String>> r = new ArrayList<>();
                for (String p : split(v, ",")) if (!p.isEmpty()) r.add(KeyValue.pair(p, k));
                return r;
            });
            fm.merge(c.mapValues(v -> v + "+")).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in-a", S, S).input("in-b", S, S).output("out", S, S);
            h.pipe("in-a", "k1", "x,y", 3);
            h.pipe("in-b", "k2", "z", 1);
            h.pipe("in-a", "k3", "", 2);
            h.pipe("in-a", null, "w", 4);
            h.pipe("in-b", null, "v", 5);
            h.finish();
        });

        // split with named branches and a default branch, a second split without a default
        // (unmatched records are dropped), and a merge of two branches.
        SCENARIOS.put("split_merge", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            Map<String, KStream<String, String>> br = s.split(Named.as("sp-"))
                .branch((k, v) -> v.startsWith("a"), Branched.as("a"))
                .branch((k, v) -> v.startsWith("b"), Branched.as("b"))
                .defaultBranch(Branched.as("other"));
            br.get("sp-a").merge(br.get("sp-b")).to("out-ab", PSS);
            br.get("sp-other").to("out-other", PSS);
            Map<String, KStream<String, String>> br2 = s.split()
                .branch((k, v) -> v.length() > 3)
                .branch((k, v) -> v.length() == 1)
                .noDefaultBranch();
            for (Map.Entry<String, KStream<String, String>> e : new java.util.TreeMap<>(br2).entrySet())
                e.getValue().mapValues(v -> e.getKey() + ":" + v).to("out-len", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-ab", S, S).output("out-other", S, S).output("out-len", S, S);
            h.pipe("in", "k1", "apple", 1);
            h.pipe("in", "k2", "b", 2);
            h.pipe("in", "k3", "cc", 3);
            h.pipe("in", null, "a", 4);
            h.pipe("in", "k5", "zzzz", 5);
            h.finish();
        });

        // Word count: words become keys through a repartition topic; null input keys are fine.
        SCENARIOS.put("word_count", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("text", SS)
                .flatMapValues(v -> split(v.toLowerCase(), " "))
                .filter((k, w) -> !w.isEmpty())
                .groupBy((k, w) -> w, Grouped.with(Serdes.String(), Serdes.String()))
                .count()
                .toStream()
                .to("counts", PSL);
            Harness h = new Harness(b.build(), out).input("text", S, S).output("counts", S, L);
            h.pipe("text", null, "Hello World", 10);
            h.pipe("text", "k", "hello  kafka", 5);
            h.pipe("text", null, "", 20);
            h.pipe("text", "k", "world hello", 15);
            h.finish();
        });

        // count / reduce / aggregate of one grouped stream: null keys and null values dropped,
        // result timestamps are the largest seen per key.
        SCENARIOS.put("group_by_key_aggregations", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, Long> g = b.stream("in", SL).groupByKey(Grouped.with(Serdes.String(), Serdes.Long()));
            g.count().toStream().to("out-count", PSL);
            g.reduce(Long::sum).toStream().to("out-reduce", PSL);
            g.aggregate(() -> "", (k, v, agg) -> agg + "/" + v, Materialized.with(Serdes.String(), Serdes.String()))
                .toStream().to("out-agg", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, L)
                .output("out-count", S, L).output("out-reduce", S, L).output("out-agg", S, S);
            h.pipe("in", "a", 1L, 10);
            h.pipe("in", "b", 2L, 5);
            h.pipe("in", "a", 3L, 7);
            h.pipe("in", null, 4L, 11);
            h.pipe("in", "a", null, 12);
            h.pipe("in", "b", 5L, 20);
            h.pipe("in", "a", 6L, 9);
            h.finish();
        });

        // Clicks by region: group_by re-keys (repartition), count and reduce on the same grouping.
        SCENARIOS.put("clicks_by_region", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, Long> g = b.stream("clicks", SL)
                .groupBy((user, n) -> user.substring(0, 2), Grouped.with(Serdes.String(), Serdes.Long()));
            g.count().toStream().to("region-count", PSL);
            g.reduce(Long::sum, Materialized.as("clicks-sum")).toStream().to("region-sum", PSL);
            Harness h = new Harness(b.build(), out).input("clicks", S, L)
                .output("region-count", S, L).output("region-sum", S, L);
            h.pipe("clicks", "eu-alice", 3L, 100);
            h.pipe("clicks", "us-bob", 1L, 50);
            h.pipe("clicks", "eu-carol", 2L, 80);
            h.pipe("clicks", "us-bob", null, 90);
            h.pipe("clicks", "eu-alice", 4L, 120);
            h.finish();
        });

        // A named grouping after select_key: the repartition topic is named after the grouping
        // and shared by both aggregations.
        SCENARIOS.put("named_grouping_repartition", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS)
                .selectKey((k, v) -> v)
                .groupByKey(Grouped.as("by-value"));
            g.count(Named.as("cnt")).toStream(Named.as("cnt-stream")).to("out-count", Produced.with(Serdes.String(), Serdes.Long()).withName("cnt-sink"));
            g.reduce((a, c) -> a + c, Named.as("red"), Materialized.as("red-store")).toStream().to("out-reduce", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-count", S, L).output("out-reduce", S, S);
            h.pipe("in", "1", "x", 1);
            h.pipe("in", "2", "y", 2);
            h.pipe("in", "3", "x", 3);
            h.finish();
        });

        // Explicit repartition(), unnamed and named, then group_by_key needs no other.
        SCENARIOS.put("explicit_repartition", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS).selectKey((k, v) -> v);
            s.repartition().groupByKey().count().toStream().to("out-count", PSL);
            s.repartition(Repartitioned.as("manual")).mapValues(v -> v + "#").to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-count", S, L).output("out", S, S);
            h.pipe("in", "1", "x", 1);
            h.pipe("in", "2", "y", 2);
            h.pipe("in", "3", "x", 3);
            h.finish();
        });

        // An unmaterialized table source: every update forwarded, tombstones for unseen keys too.
        SCENARIOS.put("table_source_plain", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("in", SS).toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            tableInputs(h);
            h.finish();
        });

        // A materialized table source: emit on change.
        SCENARIOS.put("table_source_materialized", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("in", SS, Materialized.as("t")).toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            tableInputs(h);
            h.finish();
        });

        // The same without caching.
        SCENARIOS.put("table_source_materialized_uncached", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("in", SS, Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("t").withCachingDisabled())
                .toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            tableInputs(h);
            h.finish();
        });

        // filter / filter_not / map_values of a table: failing rows become tombstones.
        SCENARIOS.put("table_filter_map_values", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", SS);
            t.filter((k, v) -> v.length() > 1).toStream().to("out-filter", PSS);
            t.filterNot((k, v) -> v.length() > 1).toStream().to("out-filter-not", PSS);
            t.mapValues(v -> v + "!").toStream().to("out-map-values", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-filter", S, S).output("out-filter-not", S, S).output("out-map-values", S, S);
            tableInputs(h);
            h.finish();
        });

        // A materialized filter of a table: emits on change, like a materialized source.
        SCENARIOS.put("table_filter_materialized", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("in", SS).filter((k, v) -> v.length() > 1, Materialized.as("filtered")).toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            tableInputs(h);
            h.finish();
        });

        // Materialized map_values and filter_not under a regrouping: the subtractor's old values
        // come from the operators' own stores.
        SCENARIOS.put("table_map_values_materialized", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("users", SS)
                .mapValues(r -> "region-" + r, Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("mapped"))
                .filterNot((u, r) -> r.equals("region-us"), Named.as("not-us"),
                           Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("not-us-store").withCachingDisabled())
                .groupBy((u, r) -> KeyValue.pair(r, u), Grouped.with(Serdes.String(), Serdes.String()))
                .count()
                .toStream().to("out", PSL);
            Harness h = new Harness(b.build(), out).input("users", S, S).output("out", S, L);
            userMoves(h);
            h.finish();
        });

        // Table group_by + reduce(adder, subtractor): a user moves between regions.
        SCENARIOS.put("table_group_by_reduce", out -> tableGroupByReduce(out, true));
        SCENARIOS.put("table_group_by_reduce_uncached", out -> tableGroupByReduce(out, false));

        // Table group_by + aggregate and count.
        SCENARIOS.put("table_group_by_aggregate", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> users = b.table("users", SS);
            users.groupBy((u, r) -> KeyValue.pair(r, u), Grouped.with(Serdes.String(), Serdes.String()))
                .aggregate(() -> "", (k, v, agg) -> agg + "+" + v, (k, v, agg) -> agg + "-" + v,
                           Materialized.with(Serdes.String(), Serdes.String()))
                .toStream().to("out-agg", PSS);
            users.groupBy((u, r) -> KeyValue.pair(r, u), Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("region-count").withCachingDisabled())
                .toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("users", S, S)
                .output("out-agg", S, S).output("out-count", S, L);
            userMoves(h);
            h.finish();
        });

        // to_table: a stream read as a changelog; after select_key it repartitions first.
        SCENARIOS.put("to_table", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.toTable().toStream().to("out", PSS);
            s.filter((k, v) -> v != null).selectKey((k, v) -> v).toTable(Materialized.as("by-value")).toStream().to("out-rekeyed", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("out-rekeyed", S, S);
            h.pipe("in", "a", "1", 5);
            h.pipe("in", "a", "1", 6);
            h.pipe("in", null, "2", 7);
            h.pipe("in", "b", null, 8);
            h.pipe("in", "a", null, 9);
            h.pipe("in", "c", "1", 3);
            h.finish();
        });

        // Integer values, map_values to another type, aggregation of Integer into Long.
        SCENARIOS.put("integer_values", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", Consumed.with(Serdes.String(), Serdes.Integer()))
                .mapValues(v -> (long) v * 2)
                .groupByKey(Grouped.with(Serdes.String(), Serdes.Long()))
                .aggregate(() -> 100L, (k, v, agg) -> agg - v, Materialized.with(Serdes.String(), Serdes.Long()))
                .toStream()
                .mapValues(v -> v.intValue())
                .to("out", Produced.with(Serdes.String(), Serdes.Integer()));
            Harness h = new Harness(b.build(), out).input("in", S, I).output("out", S, I);
            h.pipe("in", "a", 1, 1);
            h.pipe("in", "a", -7, 2);
            h.pipe("in", "b", 2147483647, 3);
            h.finish();
        });

        JoinScenarios.register(SCENARIOS);
        JoinMoreScenarios.register(SCENARIOS);
    }

    static {
        EdgeScenarios.register();
        CacheScenarios.register();
        SpineScenarios.register();
        SplitScenarios.register();
        StoreScenarios.register();
        DslScenarios.register();
        NullKeyScenarios.register();
        TableJoinScenarios.register();
        GlobalJoinScenarios.register();
        FkJoinScenarios.register();
        OptimizationScenarios.register();
        VersionedScenarios.register();
        WindowScenarios.register(SCENARIOS);
        WindowKindScenarios.register(SCENARIOS);
        SuppressScenarios.register(SCENARIOS);
        CogroupScenarios.register(SCENARIOS);
        MoreScenarios.register(SCENARIOS);
        MoreScenarios.registerDropped(SCENARIOS);
        MoreScenarios.registerForwarded(SCENARIOS);
        HuntScenarios.register(SCENARIOS);
        ApiScenarios.register(SCENARIOS);
        Hunt10Scenarios.register(SCENARIOS);
        Hunt11Scenarios.register(SCENARIOS);
        JoinD12Scenarios.register(SCENARIOS);
        Lead13Scenarios.register(SCENARIOS);
        Hunt13Scenarios.register(SCENARIOS);
        Hunt15Scenarios.register(SCENARIOS);
        Hunt16Scenarios.register(SCENARIOS);
        Hunt17Scenarios.register(SCENARIOS);
        Hunt18Scenarios.register(SCENARIOS);
        Hunt19Scenarios.register(SCENARIOS);
        Sess19Scenarios.register(SCENARIOS);
        Hunt20Scenarios.register(SCENARIOS);
        Hunt21Scenarios.register(SCENARIOS);
    }

    static void tableInputs(Harness h) {
        h.pipe("in", "a", "1", 10);
        h.pipe("in", "a", "1", 11);
        h.pipe("in", "a", "1", 5);
        h.pipe("in", "a", "1", 5);
        h.pipe("in", "b", null, 12);
        h.pipe("in", "a", "22", 13);
        h.pipe("in", "c", "333", 14);
        h.pipe("in", null, "4", 15);
        h.pipe("in", "a", null, 16);
        h.pipe("in", "a", null, 17);
        h.pipe("in", "c", "3", 18);
    }

    static void userMoves(Harness h) {
        h.pipe("users", "alice", "eu", 10);
        h.pipe("users", "bob", "eu", 20);
        h.pipe("users", "alice", "us", 15);
        h.pipe("users", "bob", "eu", 30);
        h.pipe("users", "carol", null, 40);
        h.pipe("users", "alice", null, 50);
        h.pipe("users", "bob", "us", 5);
    }

    static void tableGroupByReduce(PrintStream out, boolean cached) {
        StreamsBuilder b = new StreamsBuilder();
        Materialized<String, Long, KeyValueStore<Bytes, byte[]>> m =
            Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>with(Serdes.String(), Serdes.Long());
        if (!cached) m = m.withCachingDisabled();
        b.table("users", SS)
            .groupBy((u, r) -> KeyValue.pair(r, 1L), Grouped.with(Serdes.String(), Serdes.Long()))
            .reduce(Long::sum, (agg, v) -> agg - v, m)
            .toStream().to("out", PSL);
        Harness h = new Harness(b.build(), out).input("users", S, S).output("out", S, L);
        userMoves(h);
        h.finish();
    }

    public static void main(String[] args) throws Exception {
        String dir = args[0];
        List<String> names = args.length > 1 ? Arrays.asList(args).subList(1, args.length) : new ArrayList<>(SCENARIOS.keySet());
        try {
            for (String n : names) {
                Scenario s = SCENARIOS.get(n);
                if (s == null) throw new IllegalArgumentException("no scenario " + n);
                try (PrintStream ps = new PrintStream(new FileOutputStream(dir + "/" + n + ".txt"), false, StandardCharsets.UTF_8)) {
                    ps.println("scenario " + n);
                    s.run(ps);
                }
                System.out.println("wrote " + n);
            }
        } finally {
            Harness.removeStateDir();
        }
    }
}
