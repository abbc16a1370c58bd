package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Main.PSL;
import static kstreams.conformance.Main.PSS;
import static kstreams.conformance.Main.SCENARIOS;
import static kstreams.conformance.Main.SL;
import static kstreams.conformance.Main.SS;
import static kstreams.conformance.Main.split;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.RecordContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.processor.TopicNameExtractor;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Edge-case scenarios (see Main): topic extractors, repartition with a partition count, table
 * regrouping onto the same key, unnamed split branches, self-merge, extracted timestamps,
 * several groupings of one re-keyed stream, uncached aggregations of out-of-order records,
 * Processor API punctuations, headers.
 */
final class EdgeScenarios {
    /** Named so that describe() prints the same text as kstreams. */
    static final class FirstLetterTopic implements TopicNameExtractor<String, String> {
        @Override
        public String extract(String key, String value, RecordContext ctx) { return "out-" + value.substring(0, 1); }
        @Override
        public String toString() { return "topic_name_extractor"; }
    }

    static void register() {
        // to() with a topic-name extractor; repartition() with a name and a partition count.
        SCENARIOS.put("topic_extractor_sink", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.to(new FirstLetterTopic(), PSS);
            s.selectKey((k, v) -> v)
                .repartition(Repartitioned.<String, String>as("rp").withNumberOfPartitions(3))
                .mapValues(v -> v + "#")
                .to("out-rp", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-a", S, S).output("out-b", S, S).output("out-rp", S, S);
            h.pipe("in", "k1", "a1", 3);
            h.pipe("in", "k2", "b2", 1);
            h.pipe("in", null, "a3", 2);
            h.finish();
        });

        // A table regrouped onto its own key: the subtractor and adder apply to the same key.
        SCENARIOS.put("table_group_by_same_key", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", SS);
            t.groupBy((k, v) -> KeyValue.pair(k, v), Grouped.with(Serdes.String(), Serdes.String()))
                .aggregate(() -> "", (k, v, agg) -> agg + "+" + v, (k, v, agg) -> agg + "-" + v,
                           Materialized.with(Serdes.String(), Serdes.String()))
                .toStream().to("out-agg", PSS);
            t.groupBy((k, v) -> KeyValue.pair(k, v), Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("same-count").withCachingDisabled())
                .toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-agg", S, S).output("out-count", S, L);
            h.pipe("in", "a", "1", 10);
            h.pipe("in", "a", "2", 5);
            h.pipe("in", "a", "2", 20);
            h.pipe("in", "b", "3", 30);
            h.pipe("in", "a", null, 40);
            h.pipe("in", "b", "4", 25);
            h.finish();
        });

        // split() without names (branch keys are KSTREAM-BRANCH-<n> + position), a named branch,
        // an unnamed default branch; a stream merged with itself emits every record twice.
        SCENARIOS.put("split_unnamed_merge_self", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.merge(s).to("out-self", PSS);
            Map<String, KStream<String, String>> br = s.split()
                .branch((k, v) -> v.startsWith("a"))
                .branch((k, v) -> v.startsWith("b"), Branched.as("bee"))
                .defaultBranch();
            for (Map.Entry<String, KStream<String, String>> e : new java.util.TreeMap<>(br).entrySet())
                e.getValue().mapValues(v -> e.getKey() + ":" + v).to("out-split", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-self", S, S).output("out-split", S, S);
            h.pipe("in", "k1", "apple", 1);
            h.pipe("in", "k2", "bean", 2);
            h.pipe("in", null, "cherry", 3);
            h.finish();
        });

        // A timestamp extractor reading the value: a negative timestamp skips the record, "p"
        // takes the partition time; outputs and aggregates carry the extracted timestamps.
        SCENARIOS.put("extracted_timestamps", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", Consumed.with(Serdes.String(), Serdes.String())
                .withTimestampExtractor((r, partitionTime) -> r.value().equals("p") ? partitionTime : Long.parseLong((String) r.value())));
            s.mapValues(v -> v + "!").to("out", PSS);
            s.groupByKey().count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("out-count", S, L);
            h.pipe("in", "a", "5", 100);
            h.pipe("in", "a", "-1", 101);
            h.pipe("in", "b", "3", 102);
            h.pipe("in", "a", "p", 103);
            h.pipe("in", "b", "9", 104);
            h.pipe("in", "b", "p", 1);
            h.finish();
        });

        // Three groupings of one re-keyed stream: each group_by_key / group_by has its own
        // repartition topic, named after its aggregation's store.
        SCENARIOS.put("select_key_three_groupings", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS).selectKey((k, v) -> v);
            s.groupByKey().count().toStream().to("out-count", PSL);
            s.groupByKey().reduce((a, c) -> a + c).toStream().to("out-reduce", PSS);
            s.groupBy((k, v) -> k + "!").count(Materialized.as("bang")).toStream().to("out-bang", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-count", S, L).output("out-reduce", S, S).output("out-bang", S, L);
            h.pipe("in", "1", "x", 4);
            h.pipe("in", "2", "y", 2);
            h.pipe("in", "3", "x", 3);
            h.finish();
        });

        // Uncached reduce and aggregate with out-of-order timestamps and null values, then a
        // table filter of the reduce result.
        SCENARIOS.put("uncached_aggregations_out_of_order", out -> {
            StreamsBuilder b = new StreamsBuilder();
            var g = b.stream("in", SL).groupByKey();
            KTable<String, Long> sum = g.reduce(Long::sum,
                Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("sum").withCachingDisabled());
            sum.toStream().to("out-sum", PSL);
            sum.filter((k, v) -> v > 3).toStream().to("out-big", PSL);
            g.aggregate(() -> "", (k, v, agg) -> agg + "," + v,
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("agg")
                            .withValueSerde(Serdes.String()).withCachingDisabled())
                .toStream().to("out-agg", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, L)
                .output("out-sum", S, L).output("out-big", S, L).output("out-agg", S, S);
            h.pipe("in", "a", 2L, 50);
            h.pipe("in", "a", 3L, 40);
            h.pipe("in", "a", null, 60);
            h.pipe("in", "b", 1L, 10);
            h.pipe("in", "a", -9L, 45);
            h.pipe("in", null, 7L, 70);
            h.finish();
        });

        // Processor API: a store and stream-time / wall-clock punctuations, their order relative
        // to the records that trigger them, out-of-order records that do not advance stream time.
        SCENARIOS.put("processor_punctuations", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("counts"), Serdes.String(), Serdes.Long()));
            b.stream("in", SS).process(CountingProcessor::new, Named.as("counting"), "counts").to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.pipe("in", "a", "1", 3);
            h.pipe("in", "a", "2", 9);
            h.pipe("in", "b", "3", 10);
            h.pipe("in", "a", "4", 5);
            h.advanceWallClock(50);
            h.pipe("in", "a", "5", 35);
            h.advanceWallClock(50);
            h.advanceWallClock(250);
            h.pipe("in", "b", "6", 36);
            h.pipe("in", "b", "7", 40);
            h.finish();
        });

        // Headers travel with records through stateless operators, repartition topics,
        // uncached aggregations and tables (cached ones: CacheScenarios.headers_cached).
        SCENARIOS.put("headers_forwarded", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.filter((k, v) -> !v.isEmpty()).flatMapValues(v -> split(v, " ")).to("out-flat", PSS);
            s.groupByKey().count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("c").withCachingDisabled())
                .toStream().to("out-count", PSL);
            s.selectKey((k, v) -> v).groupByKey()
                .reduce((a, c) -> a + c, Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("r").withCachingDisabled())
                .toStream().to("out-reduce", PSS);
            b.table("tin", SS, Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("t").withCachingDisabled())
                .toStream().to("out-table", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tin", S, S)
                .output("out-flat", S, S).output("out-count", S, L).output("out-reduce", S, S).output("out-table", S, S);
            h.pipe("in", "a", "x y", 1, "h=1");
            h.pipe("in", "b", "x", 2, "h=2", "g=3");
            h.pipe("in", "a", "", 3);
            h.pipe("tin", "k", "v", 4, "t=1");
            h.pipe("tin", "k", "v", 5, "t=2");
            h.pipe("tin", "k", null, 6);
            h.finish();
        });

        // Group-by selectors returning a null key: the record is dropped, on a stream and on a
        // table (where the old row is still subtracted).
        SCENARIOS.put("group_by_null_keys", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", SS).groupBy((k, v) -> v.equals("n") ? null : v).count().toStream().to("out-stream", PSL);
            b.table("tin", SS).groupBy((k, v) -> KeyValue.pair(v.equals("n") ? null : v, k), Grouped.with(Serdes.String(), Serdes.String()))
                .count().toStream().to("out-table", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tin", S, S)
                .output("out-stream", S, L).output("out-table", S, L);
            h.pipe("in", "a", "x", 1);
            h.pipe("in", "b", "n", 2);
            h.pipe("in", "c", "x", 3);
            h.pipe("tin", "a", "x", 4);
            h.pipe("tin", "a", "n", 5);
            h.pipe("tin", "a", "y", 6);
            h.pipe("tin", "b", "n", 7);
            h.finish();
        });

        // Two aggregations of one grouped table: each has its own repartition topic.
        SCENARIOS.put("grouped_table_two_aggregations", out -> {
            StreamsBuilder b = new StreamsBuilder();
            var g = b.table("users", SS).groupBy((u, r) -> KeyValue.pair(r, u), Grouped.with(Serdes.String(), Serdes.String()));
            g.count().toStream().to("out-count", PSL);
            g.reduce((a, v) -> a + "+" + v, (a, v) -> a + "-" + v).toStream().to("out-reduce", PSS);
            Harness h = new Harness(b.build(), out).input("users", S, S).output("out-count", S, L).output("out-reduce", S, S);
            Main.userMoves(h);
            h.finish();
        });

        // Table filters: after a materialized source (old values known: no tombstone for a row
        // failing before and after), after an unmaterialized one later materialized for a
        // sibling group_by (the filter was made first: tombstones), after a materialized map_values.
        SCENARIOS.put("table_filter_old_values", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("in", SS, Materialized.as("src")).filter((k, v) -> v.length() > 1).toStream().to("out-a", PSS);
            KTable<String, String> t = b.table("in2", SS);
            t.filter((k, v) -> v.length() > 1).toStream().to("out-b", PSS);
            t.groupBy((k, v) -> KeyValue.pair(v, k), Grouped.with(Serdes.String(), Serdes.String())).count().toStream().to("out-count", PSL);
            b.table("in3", SS).mapValues(v -> v + "!", Materialized.as("mv")).filterNot((k, v) -> v.length() > 2)
                .toStream().to("out-c", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("in2", S, S).input("in3", S, S)
                .output("out-a", S, S).output("out-b", S, S).output("out-count", S, L).output("out-c", S, S);
            for (String topic : new String[] {"in", "in2", "in3"}) {
                h.pipe(topic, "a", "1", 1);
                h.pipe(topic, "a", "22", 2);
                h.pipe(topic, "a", "3", 3);
                h.pipe(topic, "a", "4", 4);
                h.pipe(topic, "b", null, 5);
                h.pipe(topic, "a", null, 6);
            }
            h.finish();
        });

        // Names: a named source, a named filter, an unnamed repartition with a partition count,
        // a named sink, a named to_table with a store and a named to_stream.
        SCENARIOS.put("naming_variants", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", Consumed.with(Serdes.String(), Serdes.String()).withName("src"));
            s.filter((k, v) -> !v.isEmpty(), Named.as("f"))
                .repartition(Repartitioned.<String, String>numberOfPartitions(2))
                .to("out-r", Produced.with(Serdes.String(), Serdes.String()).withName("snk"));
            s.toTable(Named.as("tt"), Materialized.as("tt-store")).toStream(Named.as("ts")).to("out-t", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-r", S, S).output("out-t", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "", 2);
            h.pipe("in", "a", "1", 3);
            h.finish();
        });

        // Null values through stateless operators (the functions see them), and a table's
        // changelog stream aggregated again (its tombstones are dropped by the aggregation).
        SCENARIOS.put("null_values_stateless_and_to_stream", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.filter((k, v) -> v == null || !v.isEmpty()).mapValues(v -> v == null ? "NULL" : v + "?").to("out-mv", PSS);
            s.selectKey((k, v) -> k + "/" + v).to("out-sk", PSS);
            b.table("tin", SS).toStream().groupByKey().count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tin", S, S)
                .output("out-mv", S, S).output("out-sk", S, S).output("out-count", S, L);
            h.pipe("in", "a", null, 1);
            h.pipe("in", "b", "", 2);
            h.pipe("in", "c", "x", 3);
            h.pipe("tin", "a", "1", 4);
            h.pipe("tin", "a", null, 5);
            h.pipe("tin", "a", "2", 6);
            h.finish();
        });

        // Table map_values with the key, then a filter on the key.
        SCENARIOS.put("table_map_values_with_key", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("in", SS).mapValues((k, v) -> k + "=" + v, Named.as("mv"))
                .filter((k, v) -> !k.equals("c")).toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            Main.tableInputs(h);
            h.finish();
        });
    }

    /**
     * Counts records per key in a store and forwards the count; a stream-time punctuation every
     * 10 ms and a wall-clock punctuation every 100 ms forward the count of "a" at their time.
     */
    static final class CountingProcessor implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private KeyValueStore<String, Long> counts;

        @Override
        public void init(ProcessorContext<String, String> context) {
            ctx = context;
            counts = context.getStateStore("counts");
            context.schedule(Duration.ofMillis(10), PunctuationType.STREAM_TIME, ts -> tick("st", ts));
            context.schedule(Duration.ofMillis(100), PunctuationType.WALL_CLOCK_TIME, ts -> tick("wall", ts));
        }

        private void tick(String what, long ts) {
            Long a = counts.get("a");
            ctx.forward(new Record<>(what, ts + ":" + (a == null ? 0 : a), ts));
        }

        @Override
        public void process(Record<String, String> r) {
            Long n = counts.get(r.key());
            long c = n == null ? 1 : n + 1;
            counts.put(r.key(), c);
            ctx.forward(r.withValue(r.value() + "#" + c));
        }
    }

    private EdgeScenarios() {}
}
