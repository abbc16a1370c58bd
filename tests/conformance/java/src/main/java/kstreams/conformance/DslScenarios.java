package kstreams.conformance;

import static kstreams.conformance.Harness.Type.B;
import static kstreams.conformance.Harness.Type.D;
import static kstreams.conformance.Harness.Type.I;
import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Main.PSL;
import static kstreams.conformance.Main.PSS;
import static kstreams.conformance.Main.SCENARIOS;
import static kstreams.conformance.Main.SS;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

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

/** DSL scenarios (see Main): non-string serdes, table chains, named aggregations, patterns. */
final class DslScenarios {
    static byte[] b(String s) { return s.getBytes(StandardCharsets.UTF_8); }

    static void register() {
        // Long keys and Double values through select_key, a named repartition and reduce; the
        // same stream mapped to Integer keys and aggregated into Strings.
        SCENARIOS.put("dsl_long_keys_double_values", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<Long, Double> s = b.stream("in", Consumed.with(Serdes.Long(), Serdes.Double()));
            s.selectKey((k, v) -> k == null ? -1L : k % 3)
                .repartition(Repartitioned.with(Serdes.Long(), Serdes.Double()).withName("mod"))
                .groupByKey(Grouped.with(Serdes.Long(), Serdes.Double()))
                .reduce(Double::sum)
                .toStream().to("out-sum", Produced.with(Serdes.Long(), Serdes.Double()));
            s.map((k, v) -> KeyValue.pair(v == null ? 0 : (int) Math.floor(v), k == null ? -1L : k))
                .groupByKey(Grouped.with(Serdes.Integer(), Serdes.Long()))
                .aggregate(() -> "", (k, v, agg) -> agg + "," + v, Materialized.with(Serdes.Integer(), Serdes.String()))
                .toStream().to("out-agg", Produced.with(Serdes.Integer(), Serdes.String()));
            Harness h = new Harness(b.build(), out).input("in", L, D)
                .output("out-sum", L, D).output("out-agg", I, S);
            h.pipe("in", 1L, 1.5, 1);
            h.pipe("in", 4L, 2.25, 2);
            h.pipe("in", 2L, -3.0, 3);
            h.pipe("in", 7L, 1.75, 4);
            h.pipe("in", null, 0.5, 5);
            h.pipe("in", 5L, null, 6);
            h.pipe("in", -2L, 2.0, 7);
            h.finish();
        });

        // Byte arrays as keys and values: grouped by their bytes, a materialized byte table.
        SCENARIOS.put("dsl_byte_array_keys_values", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .mapValues(v -> new String(v, StandardCharsets.UTF_8).toUpperCase())
                .groupByKey(Grouped.with(Serdes.ByteArray(), Serdes.String()))
                .count()
                .toStream().to("out-count", Produced.with(Serdes.ByteArray(), Serdes.Long()));
            b.table("tin", Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()),
                    Materialized.<byte[], byte[], KeyValueStore<Bytes, byte[]>>as("bt"))
                .mapValues(v -> v.length)
                .toStream().to("out-len", Produced.with(Serdes.ByteArray(), Serdes.Integer()));
            Harness h = new Harness(b.build(), out).input("in", B, B).input("tin", B, B)
                .output("out-count", B, L).output("out-len", B, I);
            h.pipe("in", b("k1"), b("a"), 1);
            h.pipe("in", b("k2"), b("b"), 2);
            h.pipe("in", b("k1"), b("c"), 3);
            h.pipe("in", b(""), b("d"), 4);
            h.pipe("tin", b("t1"), b("xyz"), 5);
            h.pipe("tin", b("t1"), b("xyz"), 6);
            h.pipe("tin", b("t2"), b(""), 7);
            h.pipe("tin", b("t1"), null, 8);
            h.finish();
        });

        // Aggregations whose result type differs from the value type, with their own serdes.
        SCENARIOS.put("dsl_aggregate_value_serde", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", SS).groupByKey()
                .aggregate(() -> 0L, (k, v, agg) -> agg + v.length(),
                           Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("len-sum").withValueSerde(Serdes.Long()))
                .toStream().to("out-len", PSL);
            b.table("users", SS)
                .groupBy((u, r) -> KeyValue.pair(r, u))
                .aggregate(() -> 0, (k, v, agg) -> agg + 1, (k, v, agg) -> agg - 1,
                           Materialized.<String, Integer, KeyValueStore<Bytes, byte[]>>as("per-region")
                               .withKeySerde(Serdes.String()).withValueSerde(Serdes.Integer()))
                .toStream().to("out-regions", Produced.with(Serdes.String(), Serdes.Integer()));
            Harness h = new Harness(b.build(), out).input("in", S, S).input("users", S, S)
                .output("out-len", S, L).output("out-regions", S, I);
            h.pipe("in", "a", "xx", 1);
            h.pipe("in", "a", "yyy", 2);
            h.pipe("in", "b", "", 3);
            h.pipe("in", "a", null, 4);
            Main.userMoves(h);
            h.finish();
        });

        // A table chain mixing unmaterialized and materialized (cached and uncached) filters and
        // map_values, to_stream after each step.
        SCENARIOS.put("dsl_table_chain_mixes", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t1 = b.table("in", SS).filter((k, v) -> v.length() < 3);
            t1.toStream().to("out-1", PSS);
            KTable<String, String> t2 = t1.mapValues(v -> v + "m", Materialized.as("mv"));
            t2.toStream().to("out-2", PSS);
            KTable<String, String> t3 = t2.filter((k, v) -> !v.startsWith("2"),
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("f3").withCachingDisabled());
            t3.toStream().to("out-3", PSS);
            KTable<String, String> t4 = t3.mapValues((k, v) -> k + v);
            t4.toStream().to("out-4", PSS);
            t4.filterNot((k, v) -> v.startsWith("c"), Materialized.as("f5")).toStream().to("out-5", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-1", S, S).output("out-2", S, S).output("out-3", S, S).output("out-4", S, S).output("out-5", S, S);
            Main.tableInputs(h);
            h.pipe("in", "b", "2x", 19);
            h.pipe("in", "b", "1", 20);
            h.pipe("in", "c", "4444", 21);
            h.pipe("in", "b", null, 22);
            h.finish();
        });

        // A table group_by whose selector sends several keys to one group, then deletes them.
        SCENARIOS.put("dsl_table_group_by_many_to_one", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", SS);
            t.groupBy((k, v) -> KeyValue.pair("all", k))
                .reduce((agg, v) -> agg + "+" + v, (agg, v) -> agg + "-" + v)
                .toStream().to("out-all", PSS);
            t.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), v))
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("by-first").withCachingDisabled())
                .toStream().to("out-first", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-all", S, S).output("out-first", S, L);
            h.pipe("in", "a", "x1", 1);
            h.pipe("in", "b", "x2", 2);
            h.pipe("in", "c", "y1", 3);
            h.pipe("in", "a", "y2", 4);
            h.pipe("in", "b", null, 5);
            h.pipe("in", "a", null, 6);
            h.pipe("in", "c", null, 7);
            h.pipe("in", "c", null, 8);
            h.finish();
        });

        // to_table of a re-keyed stream after a named repartition, materialized uncached and
        // named; a filter of that table.
        SCENARIOS.put("dsl_to_table_repartitioned", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.stream("in", SS)
                .selectKey((k, v) -> k == null ? "none" : k.substring(0, 1))
                .repartition(Repartitioned.as("rk"))
                .toTable(Named.as("tt"), Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("tt-store").withCachingDisabled());
            t.toStream().to("out", PSS);
            t.filter((k, v) -> v.length() > 1).toStream().to("out-f", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("out-f", S, S);
            h.pipe("in", "a1", "1", 1);
            h.pipe("in", "a2", "22", 2);
            h.pipe("in", "b1", "3", 3);
            h.pipe("in", "a3", null, 4);
            h.pipe("in", null, "44", 5);
            h.pipe("in", "b2", "55", 6);
            h.pipe("in", "b3", "55", 7);
            h.finish();
        });

        // Named grouping, named operators and named stores on one grouped stream.
        SCENARIOS.put("dsl_named_stream_aggregations", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupBy((k, v) -> v, Grouped.as("by-v"));
            g.count(Named.as("cnt"), Materialized.as("cnt-store")).toStream(Named.as("cnt-out")).to("out-count", PSL);
            g.aggregate(() -> 0L, (k, v, agg) -> agg + 1, Named.as("agg"),
                        Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("agg-store").withValueSerde(Serdes.Long()))
                .toStream().to("out-agg", PSL);
            g.reduce((a, c) -> a + c, Named.as("red"), Materialized.as("red-store"))
                .toStream(Named.as("red-out")).to("out-red", Produced.with(Serdes.String(), Serdes.String()).withName("red-sink"));
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-count", S, L).output("out-agg", S, L).output("out-red", S, S);
            h.pipe("in", "1", "x", 1);
            h.pipe("in", "2", "y", 2);
            h.pipe("in", "3", "x", 3);
            h.pipe("in", "4", null, 4);
            h.pipe("in", null, "y", 5);
            h.finish();
        });

        // Two independent sub-topologies: a pattern source over two topics and a plain source.
        SCENARIOS.put("dsl_pattern_two_subtopologies", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream(Pattern.compile("p-.*"), SS).mapValues(v -> v.toUpperCase()).to("out-p", PSS);
            b.stream("q", SS).groupByKey().count().toStream().to("out-q", PSL);
            Harness h = new Harness(b.build(), out).input("p-a", S, S).input("p-b", S, S).input("q", S, S)
                .output("out-p", S, S).output("out-q", S, L);
            h.pipe("p-a", "1", "x", 1);
            h.pipe("q", "k", "v", 2);
            h.pipe("p-b", "2", "y", 3);
            h.pipe("q", "k", "w", 4);
            h.pipe("p-a", null, "z", 5);
            h.finish();
        });

        // to_stream(mapper) of a table, then split with with_function chains, one of which
        // aggregates (a repartition, since the key changed).
        SCENARIOS.put("dsl_to_stream_mapper_split", out -> {
            StreamsBuilder b = new StreamsBuilder();
            Map<String, KStream<String, String>> m = b.table("in", SS)
                .toStream((k, v) -> v == null ? k : v.substring(0, 1))
                .split(Named.as("x-"))
                .branch((k, v) -> v != null && v.length() > 1, Branched.withFunction(ks -> ks.mapValues(v -> v + "!"), "long"))
                .defaultBranch(Branched.withFunction(ks -> ks.groupByKey().reduce((a, c) -> a + c).toStream(), "short"));
            new TreeMap<>(m).forEach((name, s) -> s.to("out-" + name, PSS));
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-x-long", S, S).output("out-x-short", S, S);
            h.pipe("in", "a", "p1", 1);
            h.pipe("in", "b", "q", 2);
            h.pipe("in", "c", "q", 3);
            h.pipe("in", "a", null, 4);
            h.pipe("in", "d", "pp", 5);
            h.finish();
        });

        // Long-keyed table regrouped onto Long keys (adder and subtractor), and its stream
        // flat-mapped onto Integer keys and counted.
        SCENARIOS.put("dsl_long_keyed_table_regroup", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<Long, String> t = b.table("in", Consumed.with(Serdes.Long(), Serdes.String()));
            t.groupBy((k, v) -> KeyValue.pair((long) v.length(), k), Grouped.with(Serdes.Long(), Serdes.Long()))
                .reduce(Long::sum, (a, v) -> a - v, Materialized.with(Serdes.Long(), Serdes.Long()))
                .toStream().to("out-sum", Produced.with(Serdes.Long(), Serdes.Long()));
            t.toStream()
                .flatMap((k, v) -> {
                    List<KeyValue<Integer, String>> r = new ArrayList<>();
                    if (v != null) for (String w : Main.split(v, " ")) r.add(KeyValue.pair(w.length(), w));
                    return r;
                })
                .groupByKey(Grouped.with(Serdes.Integer(), Serdes.String()))
                .count(Materialized.<Integer, Long, KeyValueStore<Bytes, byte[]>>as("by-len").withKeySerde(Serdes.Integer()))
                .toStream().to("out-len", Produced.with(Serdes.Integer(), Serdes.Long()));
            Harness h = new Harness(b.build(), out).input("in", L, S)
                .output("out-sum", L, L).output("out-len", I, L);
            h.pipe("in", 10L, "ab cd", 1);
            h.pipe("in", 20L, "xyzzy", 2);
            h.pipe("in", 10L, "q", 3);
            h.pipe("in", -5L, "ab", 4);
            h.pipe("in", 20L, null, 5);
            h.pipe("in", 30L, "", 6);
            h.finish();
        });

        // A count turned into Doubles by a materialized map_values with its own value serde, then
        // filtered; Double values summed per key in a stream reduce.
        SCENARIOS.put("dsl_double_table_chain", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, Double> half = b.stream("in", SS).groupByKey().count()
                .mapValues(c -> c / 2.0, Materialized.<String, Double, KeyValueStore<Bytes, byte[]>>as("half").withValueSerde(Serdes.Double()));
            half.toStream().to("out-half", Produced.with(Serdes.String(), Serdes.Double()));
            half.filter((k, v) -> v >= 1.0).toStream().to("out-big", Produced.with(Serdes.String(), Serdes.Double()));
            b.stream("nums", Consumed.with(Serdes.String(), Serdes.Double()))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.Double()))
                .reduce(Math::max, Materialized.<String, Double, KeyValueStore<Bytes, byte[]>>as("max").withCachingDisabled())
                .toStream().to("out-max", Produced.with(Serdes.String(), Serdes.Double()));
            Harness h = new Harness(b.build(), out).input("in", S, S).input("nums", S, D)
                .output("out-half", S, D).output("out-big", S, D).output("out-max", S, D);
            h.pipe("in", "a", "x", 1);
            h.pipe("in", "a", "y", 2);
            h.pipe("in", "b", "z", 3);
            h.pipe("in", "a", "w", 4);
            h.pipe("nums", "n", 1.25, 5);
            h.pipe("nums", "n", -7.5, 6);
            h.pipe("nums", "n", 3.0, 7);
            h.pipe("nums", "m", null, 8);
            h.finish();
        });
    }

    private DslScenarios() {}
}
