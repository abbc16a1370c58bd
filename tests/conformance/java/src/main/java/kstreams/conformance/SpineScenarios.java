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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.RecordContext;
import org.apache.kafka.streams.processor.TopicNameExtractor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Scenarios on the spine (Processor API, DSL, test driver) that the others miss: Topology-level
 * processors with stores and punctuations, process_values, stream time and record metadata,
 * caching under the driver's per-record commits, named operators, aggregations returning null.
 * tests/conformance/spine_scenarios_test.cpp writes the same with kstreams.
 */
final class SpineScenarios {
    static String show(Object v) { return v == null ? "null" : v.toString(); }

    static void register() {
        // A Topology built by hand: a processor with a logged store forwarding changed
        // timestamps and headers to all children or to one named sink; a stream-time punctuation
        // listing the store (all, reverse, range) that cancels itself after three runs; a
        // wall-clock punctuation; a second store without logging (no changelog topic).
        SCENARIOS.put("papi_topology_store_punctuations", out -> {
            Topology t = new Topology();
            t.addSource("src", Serdes.String().deserializer(), Serdes.String().deserializer(), "in");
            t.addProcessor("proc", LastValueProcessor::new, "src");
            t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("last"), Serdes.String(), Serdes.String()), "proc");
            t.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("seen"), Serdes.Long(), Serdes.String())
                .withLoggingDisabled(), "proc");
            t.addSink("sink-main", "out", Serdes.String().serializer(), Serdes.String().serializer(), "proc");
            t.addSink("sink-side", "out-side", Serdes.String().serializer(), Serdes.String().serializer(), "proc");
            Harness h = new Harness(t, out).input("in", S, S).output("out", S, S).output("out-side", S, S);
            h.pipe("in", "b", "1", 5, "h=0");
            h.pipe("in", "a", "2", 12);
            h.pipe("in", "c", "3", 8);
            h.pipe("in", "a", "4", 25, "x=1");
            h.pipe("in", "b", null, 26);
            h.advanceWallClock(100);
            h.pipe("in", null, "5", 27);
            h.pipe("in", "d", "6", 40);
            h.pipe("in", "e", "7", 70);
            h.advanceWallClock(150);
            h.pipe("in", "a", null, 71);
            h.finish();
        });

        // process_values keeps the key (group_by_key needs no repartition); process may change
        // it (group_by_key repartitions); a processor scheduling its punctuation in process().
        SCENARIOS.put("process_values_and_process_grouping", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("seen"), Serdes.String(), Serdes.Long()));
            KStream<String, String> s = b.stream("in", SS);
            KStream<String, String> pv = s.processValues(SeenValues::new, Named.as("pv"), "seen");
            pv.to("out-pv", PSS);
            pv.groupByKey().count().toStream().to("out-pv-count", PSL);
            KStream<String, String> p = s.process(SwapProcessor::new);
            p.to("out-p", PSS);
            p.groupByKey().count().toStream().to("out-p-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-pv", S, S).output("out-pv-count", S, L).output("out-p", S, S).output("out-p-count", S, L);
            h.pipe("in", "a", "x", 25);
            h.pipe("in", "b", "skip", 26);
            h.pipe("in", "a", "y", 29);
            h.pipe("in", "c", "x", 31);
            h.pipe("in", "a", "x", 20);
            h.pipe("in", "b", "z", 55);
            h.finish();
        });

        // Stream time, record metadata and task id as processors see them: two sources merged,
        // a repartitioned branch, out-of-order records.
        SCENARIOS.put("stream_time_and_metadata", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> a = b.stream("in-a", SS);
            KStream<String, String> c = b.stream("in-b", SS);
            a.process(InfoProcessor::new, Named.as("info-a")).to("out-a", PSS);
            c.selectKey((k, v) -> v).repartition(Repartitioned.as("rk"))
                .process(InfoProcessor::new, Named.as("info-rk")).to("out-rk", PSS);
            a.merge(c).process(InfoProcessor::new, Named.as("info-m")).to("out-m", PSS);
            Harness h = new Harness(b.build(), out).input("in-a", S, S).input("in-b", S, S)
                .output("out-a", S, S).output("out-rk", S, S).output("out-m", S, S);
            h.pipe("in-a", "k1", "v1", 10);
            h.pipe("in-b", "k2", "v2", 5);
            h.pipe("in-a", "k3", "v3", 3);
            h.pipe("in-b", "k4", "v4", 20);
            h.pipe("in-a", "k5", "v5", 15);
            h.advanceWallClock(7);
            h.pipe("in-b", "k6", "v6", 1);
            h.finish();
        });

        // flat_map_values into a cached count: the records of one input are counted before the
        // driver's commit, so only the last count per key is emitted; uncached emits each. A
        // flat_map re-keys through a repartition topic, where each record is its own commit.
        SCENARIOS.put("flat_map_cached_dedup", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            KStream<String, String> words = s.flatMapValues(v -> split(v, ","));
            words.groupByKey().count().toStream().to("out-cached", PSL);
            words.groupByKey().count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("uncached").withCachingDisabled())
                .toStream().to("out-uncached", PSL);
            s.flatMap((k, v) -> {
                List<KeyValue<String, String>> r = new ArrayList<>();
                for (String w : split(v, ",")) if (!w.isEmpty()) r.add(KeyValue.pair(w, k));
                return r;
            }).groupByKey().reduce((x, y) -> x + "+" + y).toStream().to("out-rekeyed", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-cached", S, L).output("out-uncached", S, L).output("out-rekeyed", S, S);
            h.pipe("in", "a", "x,y,x", 1);
            h.pipe("in", "a", "", 2);
            h.pipe("in", "b", "x", 3);
            h.pipe("in", "a", "y,y", 4);
            h.pipe("in", null, "x,z", 5);
            h.finish();
        });

        // Many keys through cached aggregations and a cached table source: the driver commits
        // after every record, so each record is emitted at once.
        SCENARIOS.put("many_keys_cached", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.groupByKey().count().toStream().to("out-by-key", PSL);
            s.groupBy((k, v) -> v).count().toStream().to("out-by-value", PSL);
            b.table("tin", SS, Materialized.as("tin-store")).toStream().to("out-table", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tin", S, S)
                .output("out-by-key", S, L).output("out-by-value", S, L).output("out-table", S, S);
            for (int i = 0; i < 60; i++) {
                h.pipe("in", "k" + (i % 23), "v" + (i % 7), i * 3 % 50);
                if (i % 4 == 0) h.pipe("tin", "t" + (i % 9), i % 3 == 0 ? null : "w" + i, i);
            }
            h.finish();
        });

        // Every operator named: source, filter, map_values, peek, select_key, flat_map_values,
        // merge, grouping, count, to_stream, map, sinks; a table source, filter, map_values,
        // group_by and aggregate, all named.
        SCENARIOS.put("named_operators_everywhere", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", Consumed.with(Serdes.String(), Serdes.String()).withName("source-in"));
            KStream<String, String> f = s.filter((k, v) -> !v.isEmpty(), Named.as("non-empty"))
                .mapValues(v -> v.toUpperCase(), Named.as("upper"))
                .peek((k, v) -> { }, Named.as("look"));
            KStream<String, String> sk = f.selectKey((k, v) -> v, Named.as("by-value"));
            KStream<String, String> fm = f.flatMapValues(v -> split(v, "-"), Named.as("parts"));
            KStream<String, String> m = sk.merge(fm, Named.as("merged"));
            m.groupByKey(Grouped.as("grp"))
                .count(Named.as("counter"), Materialized.as("count-store"))
                .toStream(Named.as("count-out"))
                .to("out-count", Produced.with(Serdes.String(), Serdes.Long()).withName("count-sink"));
            m.map((k, v) -> KeyValue.pair(v, k), Named.as("swap"))
                .to("out-swap", Produced.with(Serdes.String(), Serdes.String()).withName("swap-sink"));
            KTable<String, String> t = b.table("tin", Consumed.with(Serdes.String(), Serdes.String()).withName("table-src"),
                                               Materialized.as("tin-store"));
            t.filter((k, v) -> v.length() < 3, Named.as("short"))
                .mapValues(v -> v + "!", Named.as("bang"))
                .groupBy((k, v) -> KeyValue.pair(v, k), Grouped.<String, String>as("regroup").withKeySerde(Serdes.String()).withValueSerde(Serdes.String()))
                .aggregate(() -> "", (k, v, a) -> a + "+" + v, (k, v, a) -> a + "-" + v, Named.as("agg"),
                           Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("agg-store").withValueSerde(Serdes.String()))
                .toStream(Named.as("agg-out"))
                .to("out-agg", Produced.with(Serdes.String(), Serdes.String()).withName("agg-to"));
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tin", S, S)
                .output("out-count", S, L).output("out-swap", S, S).output("out-agg", S, S);
            h.pipe("in", "1", "a-b", 1);
            h.pipe("in", "2", "", 2);
            h.pipe("in", "3", "a", 3);
            h.pipe("tin", "x", "p", 4);
            h.pipe("tin", "y", "p", 5);
            h.pipe("tin", "x", "long", 6);
            h.pipe("tin", "y", "q", 7);
            h.pipe("tin", "z", null, 8);
            h.finish();
        });

        // A wall-clock punctuation forwarding buffered records into a repartition and an
        // aggregation: the driver processes them within advance_wall_clock.
        SCENARIOS.put("wall_clock_punctuation_into_repartition", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("buffer"), Serdes.String(), Serdes.String()));
            KStream<String, String> p = b.stream("in", SS).process(BufferProcessor::new, Named.as("buffer-proc"), "buffer");
            p.to("out-flushed", PSS);
            p.groupByKey().count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("flushed-count").withCachingDisabled())
                .toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-flushed", S, S).output("out-count", S, L);
            h.pipe("in", "a", "x", 1);
            h.pipe("in", "b", "y", 2);
            h.pipe("in", "a", "z", 3);
            h.advanceWallClock(60);
            h.advanceWallClock(60);
            h.pipe("in", "c", "x", 4);
            h.advanceWallClock(30);
            h.advanceWallClock(100);
            h.finish();
        });

        // Merged streams with different and out-of-order timestamps: a cached reduce (result
        // timestamp the largest seen), and a merge of a re-keyed stream with a plain one (the
        // merge repartitions).
        SCENARIOS.put("merge_timestamps_aggregations", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> a = b.stream("in-a", SS);
            KStream<String, String> c = b.stream("in-b", SS);
            a.merge(c).groupByKey().reduce((x, y) -> x + y).toStream().to("out-reduce", PSS);
            a.selectKey((k, v) -> v).merge(c, Named.as("m2")).groupByKey().count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in-a", S, S).input("in-b", S, S)
                .output("out-reduce", S, S).output("out-count", S, L);
            h.pipe("in-a", "k", "1", 50);
            h.pipe("in-b", "k", "2", 10);
            h.pipe("in-b", "1", "3", 70);
            h.pipe("in-a", "j", "k", 60);
            h.pipe("in-a", "k", "4", 20);
            h.pipe("in-b", "k", "5", 80);
            h.finish();
        });

        // A table regrouped by the first letter of the value: updates staying in their group
        // (subtract and add on one key), moving groups, repeated values, deletes of unknown and
        // already deleted keys; cached count, uncached aggregate.
        SCENARIOS.put("table_group_by_key_changes", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", SS);
            var g = t.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k + ":" + v), Grouped.with(Serdes.String(), Serdes.String()));
            g.count().toStream().to("out-count", PSL);
            g.aggregate(() -> "", (k, v, a) -> a + "+" + v, (k, v, a) -> a + "-" + v,
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("agg").withValueSerde(Serdes.String()).withCachingDisabled())
                .toStream().to("out-agg", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-agg", S, S);
            h.pipe("in", "a", "x1", 10);
            h.pipe("in", "a", "x2", 11);
            h.pipe("in", "a", "y1", 12);
            h.pipe("in", "b", null, 13);
            h.pipe("in", "c", "y3", 14);
            h.pipe("in", "c", "y3", 15);
            h.pipe("in", "a", null, 16);
            h.pipe("in", "a", null, 17);
            h.pipe("in", "c", "x3", 9);
            h.finish();
        });

        // A table's changelog stream mapped (the mapper sees tombstones) and grouped, and
        // filtered, re-keyed and turned back into a materialized table; a topic extractor on it.
        SCENARIOS.put("table_to_stream_rekeyed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", SS);
            t.toStream().map((k, v) -> KeyValue.pair(v == null ? "none" : v, k)).groupByKey().count().toStream().to("out-count", PSL);
            t.toStream().filter((k, v) -> v != null).selectKey((k, v) -> v + k)
                .toTable(Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("rekeyed").withCachingDisabled())
                .toStream()
                .to(new DeletedOrFirstLetter(), PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-count", S, L).output("out-x", S, S).output("out-y", S, S).output("out-deleted", S, S);
            h.pipe("in", "a", "x", 1);
            h.pipe("in", "b", "y", 2);
            h.pipe("in", "a", null, 3);
            h.pipe("in", "c", null, 4);
            h.pipe("in", "b", "x", 5);
            h.finish();
        });

        // select_key returning null: group_by_key drops those records at the repartition, an
        // explicit repartition keeps them.
        SCENARIOS.put("select_key_null_keys", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS).selectKey((k, v) -> v.equals("n") ? null : v);
            s.groupByKey().reduce((x, y) -> x + y).toStream().to("out-reduce", PSS);
            s.repartition().mapValues((k, v) -> show(k) + ":" + v).to("out-rp", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-reduce", S, S).output("out-rp", S, S);
            h.pipe("in", "1", "x", 1);
            h.pipe("in", "2", "n", 2);
            h.pipe("in", "3", "x", 3);
            h.pipe("in", null, "y", 4);
            h.finish();
        });

        // to_table with a store (uncached) and without, after map_values (no repartition) and
        // after map (repartition); null keys and null values; regrouped and filtered.
        SCENARIOS.put("to_table_variants", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.toTable(Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("tt").withCachingDisabled())
                .groupBy((k, v) -> KeyValue.pair(v, k), Grouped.with(Serdes.String(), Serdes.String()))
                .count().toStream().to("out-count", PSL);
            s.mapValues(v -> v == null ? null : v + "!").toTable(Named.as("tt2"))
                .filter((k, v) -> !v.startsWith("b")).toStream().to("out-filter", PSS);
            s.map((k, v) -> KeyValue.pair(v, k)).toTable().toStream().to("out-swapped", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-count", S, L).output("out-filter", S, S).output("out-swapped", S, S);
            h.pipe("in", "a", "a1", 1);
            h.pipe("in", "b", "b1", 2);
            h.pipe("in", null, "c1", 3);
            h.pipe("in", "a", "b2", 4);
            h.pipe("in", "b", null, 5);
            h.pipe("in", "c", "a1", 6);
            h.pipe("in", "a", null, 7);
            h.finish();
        });

        // Aggregations whose functions return null: the row is deleted and a tombstone emitted;
        // the next record starts again from the initializer (or the record for reduce).
        SCENARIOS.put("aggregations_returning_null", out -> {
            StreamsBuilder b = new StreamsBuilder();
            var g = b.stream("in", SS).groupByKey();
            g.reduce((x, y) -> y.equals("reset") ? null : x + y,
                     Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("red").withCachingDisabled())
                .toStream().to("out-reduce", PSS);
            g.aggregate(() -> "i", (k, v, a) -> v.equals("reset") ? null : a + v,
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("agg").withValueSerde(Serdes.String()))
                .toStream().to("out-agg", PSS);
            b.table("tin", SS).mapValues(v -> v.equals("drop") ? null : v + "!").toStream().to("out-mv", PSS);
            b.table("tin2", SS).groupBy((k, v) -> KeyValue.pair("all", v), Grouped.with(Serdes.String(), Serdes.String()))
                .reduce((x, y) -> x + y, (x, y) -> x.equals(y) ? null : x.replace(y, ""),
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("tred").withCachingDisabled())
                .toStream().to("out-table-reduce", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tin", S, S).input("tin2", S, S)
                .output("out-reduce", S, S).output("out-agg", S, S).output("out-mv", S, S).output("out-table-reduce", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 2);
            h.pipe("in", "a", "reset", 3);
            h.pipe("in", "a", "3", 4);
            h.pipe("in", "a", "reset", 5);
            h.pipe("in", "a", "reset", 6);
            h.pipe("tin", "k", "v", 7);
            h.pipe("tin", "k", "drop", 8);
            h.pipe("tin", "k", "w", 9);
            h.pipe("tin2", "p", "x", 10);
            h.pipe("tin2", "q", "y", 11);
            h.pipe("tin2", "p", null, 12);
            h.pipe("tin2", "q", null, 13);
            h.pipe("tin2", "q", "z", 14);
            h.finish();
        });

        // A store keyed by Long listed in byte order (negative numbers after positive ones),
        // with range and prefix-free reverse scans, in a processor forwarding null values.
        SCENARIOS.put("long_key_store_order", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("nums"), Serdes.Long(), Serdes.String()));
            b.stream("in", Consumed.with(Serdes.Long(), Serdes.String()))
                .process(LongKeysProcessor::new, Named.as("nums-proc"), "nums")
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", L, S).output("out", S, S);
            h.pipe("in", 5L, "five", 1);
            h.pipe("in", -1L, "minus-one", 2);
            h.pipe("in", 300L, "three-hundred", 3);
            h.pipe("in", 0L, "zero", 4);
            h.pipe("in", -300L, "minus-300", 5);
            h.pipe("in", 5L, null, 6);
            h.pipe("in", 7L, "seven", 7);
            h.finish();
        });

        // A stream-time punctuation behind a repartition topic: stream time advances with every
        // input of the driver's task, also records of another source.
        SCENARIOS.put("punctuation_after_repartition", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", SS).selectKey((k, v) -> v).repartition(Repartitioned.as("rk"))
                .process(TickingProcessor::new, Named.as("ticking")).to("out", PSS);
            b.stream("other", SS).mapValues(v -> v + "!").to("out-other", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("other", S, S)
                .output("out", S, S).output("out-other", S, S);
            h.pipe("in", "a", "x", 5);
            h.pipe("other", "b", "y", 12);
            h.pipe("other", "b", "y", 31);
            h.pipe("in", "c", "z", 8);
            h.pipe("in", "d", "w", 45);
            h.pipe("other", "e", "v", 44);
            h.finish();
        });

        // Aggregators returning null for a key without a row, uncached (a tombstone is
        // forwarded) and cached (nothing is); a table aggregate whose subtractor returns null.
        SCENARIOS.put("aggregate_null_without_row", out -> {
            StreamsBuilder b = new StreamsBuilder();
            var g = b.stream("in", SS).groupByKey();
            g.aggregate(() -> "i", (k, v, a) -> v.equals("null") ? null : a + v,
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("unc").withValueSerde(Serdes.String()).withCachingDisabled())
                .toStream().to("out-uncached", PSS);
            g.aggregate(() -> "i", (k, v, a) -> v.equals("null") ? null : a + v,
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("cac").withValueSerde(Serdes.String()))
                .toStream().to("out-cached", PSS);
            b.table("tin", SS).groupBy((k, v) -> KeyValue.pair("g", v), Grouped.with(Serdes.String(), Serdes.String()))
                .aggregate(() -> "", (k, v, a) -> a + v, (k, v, a) -> a.equals(v) ? null : a.replace(v, ""),
                           Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("tagg").withValueSerde(Serdes.String()))
                .toStream().to("out-table", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tin", S, S)
                .output("out-uncached", S, S).output("out-cached", S, S).output("out-table", S, S);
            h.pipe("in", "a", "null", 1);
            h.pipe("in", "a", "1", 2);
            h.pipe("in", "a", "null", 3);
            h.pipe("in", "a", "null", 4);
            h.pipe("tin", "p", "x", 5);
            h.pipe("tin", "p", "y", 6);
            h.pipe("tin", "q", "z", 7);
            h.pipe("tin", "p", null, 8);
            h.pipe("tin", "q", null, 9);
            h.pipe("tin", "q", "w", 10);
            h.finish();
        });

        // Empty strings are values, not nulls (in keys, values and table updates); Long keys
        // through a repartition topic; Integer values out.
        SCENARIOS.put("empty_strings_and_long_keys", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.groupByKey().count().toStream().to("out-count", PSL);
            s.groupBy((k, v) -> (long) v.length() - 1, Grouped.with(Serdes.Long(), Serdes.String()))
                .reduce((x, y) -> x + "|" + y).toStream()
                .mapValues(v -> v.length())
                .to("out-by-length", Produced.with(Serdes.Long(), Serdes.Integer()));
            b.table("tin", SS).filter((k, v) -> v.isEmpty()).toStream().to("out-table", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tin", S, S)
                .output("out-count", S, L).output("out-by-length", L, Harness.Type.I).output("out-table", S, S);
            h.pipe("in", "", "", 1);
            h.pipe("in", "", "ab", 2);
            h.pipe("in", null, "", 3);
            h.pipe("in", "k", "", 4);
            h.pipe("in", "k", "xy", 5);
            h.pipe("tin", "", "", 6);
            h.pipe("tin", "", "z", 7);
            h.pipe("tin", "a", "", 8);
            h.pipe("tin", "a", null, 9);
            h.finish();
        });

        // A hand-built topology with fan-in: a source of two topics, a processor with two
        // parents and a store connected after it was added, a sink with two parents.
        SCENARIOS.put("papi_fan_in_connected_store", out -> {
            Topology t = new Topology();
            t.addSource("s1", Serdes.String().deserializer(), Serdes.String().deserializer(), "in-1");
            t.addSource("s2", Serdes.String().deserializer(), Serdes.String().deserializer(), "in-2", "in-3");
            t.addProcessor("pairing", PairingProcessor::new, "s1", "s2");
            t.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("pairs"), Serdes.String(), Serdes.String()));
            t.connectProcessorAndStateStores("pairing", "pairs");
            t.addProcessor("upper", UpperProcessor::new, "pairing");
            t.addSink("out-sink", "out", Serdes.String().serializer(), Serdes.String().serializer(), "pairing", "upper");
            Harness h = new Harness(t, out).input("in-1", S, S).input("in-2", S, S).input("in-3", S, S).output("out", S, S);
            h.pipe("in-1", "a", "x", 1);
            h.pipe("in-2", "a", "y", 2);
            h.pipe("in-3", "b", "z", 3);
            h.pipe("in-3", "a", "w", 0);
            h.finish();
        });

        // Punctuations scheduled in process(): wall-clock aligned to the moment of scheduling,
        // skipping missed intervals, cancelled from inside; a stream-time one aligned to 0.
        SCENARIOS.put("punctuations_scheduled_late", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", SS).process(LateScheduler::new, Named.as("late")).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.advanceWallClock(30);
            h.pipe("in", "a", "1", 100);
            h.advanceWallClock(40);
            h.advanceWallClock(10);
            h.advanceWallClock(120);
            h.pipe("in", "a", "2", 103);
            h.advanceWallClock(100);
            h.pipe("in", "a", "3", 104);
            h.pipe("in", "a", "4", 112);
            h.pipe("in", "a", "5", 140);
            h.pipe("in", "a", "6", 141);
            h.finish();
        });

        // One record fanned out into three repartition topics with different and equal
        // timestamps: the driver's task picks the next record by timestamp across its queues.
        SCENARIOS.put("repartition_queues_by_timestamp", out -> {
            StreamsBuilder b = new StreamsBuilder();
            Map<String, KStream<String, String>> br = b.stream("in", SS).process(FanOutProcessor::new, Named.as("fan"))
                .split(Named.as("by-key-"))
                .branch((k, v) -> k.equals("a"), Branched.as("a"))
                .branch((k, v) -> k.equals("b"), Branched.as("b"))
                .defaultBranch(Branched.as("other"));
            KStream<String, String> r1 = br.get("by-key-a").repartition(Repartitioned.as("r1"));
            KStream<String, String> r2 = br.get("by-key-b").repartition(Repartitioned.as("r2"));
            KStream<String, String> r3 = br.get("by-key-other").repartition(Repartitioned.as("r3"));
            r1.merge(r2).merge(r3).process(InfoProcessor::new, Named.as("info")).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.pipe("in", "k1", "a@5,b@3,c@3,a@1,b@1,c@9", 10);
            h.pipe("in", "k2", "c@2,b@2,a@2", 11);
            h.pipe("in", "k3", "b@7,a@7,b@6,c@7,a@0,c@8", 12);
            h.finish();
        });
    }

    /** Counts records; a stream-time punctuation every 10 ms forwards the count and stream time. */
    static final class TickingProcessor implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private int seen = 0;

        @Override
        public void init(ProcessorContext<String, String> context) {
            ctx = context;
            context.schedule(Duration.ofMillis(10), PunctuationType.STREAM_TIME,
                             ts -> ctx.forward(new Record<>("tick", ts + ":" + seen + ":" + ctx.currentStreamTimeMs(), ts)));
        }

        @Override
        public void process(Record<String, String> r) {
            seen++;
            ctx.forward(r);
        }
    }

    /** Keeps the last value per key in "pairs" and forwards previous+value with the source topic. */
    static final class PairingProcessor implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private KeyValueStore<String, String> pairs;

        @Override
        public void init(ProcessorContext<String, String> context) {
            ctx = context;
            pairs = context.getStateStore("pairs");
        }

        @Override
        public void process(Record<String, String> r) {
            String prev = pairs.get(r.key());
            pairs.put(r.key(), r.value());
            String topic = ctx.recordMetadata().map(RecordMetadata::topic).orElse("none");
            ctx.forward(r.withValue(show(prev) + "+" + r.value() + "@" + topic));
        }
    }

    /** Upper-cases the value. */
    static final class UpperProcessor implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;

        @Override
        public void init(ProcessorContext<String, String> context) { ctx = context; }

        @Override
        public void process(Record<String, String> r) { ctx.forward(r.withValue(r.value().toUpperCase())); }
    }

    /** On its first record schedules a wall-clock punctuation every 50 ms (aligned to that
     *  moment); the punctuation forwards its time and cancels itself on its third run, when
     *  the next record schedules a stream-time one instead. */
    static final class LateScheduler implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private Cancellable wall;
        private int runs = 0;
        private boolean scheduled = false;

        @Override
        public void init(ProcessorContext<String, String> context) { ctx = context; }

        @Override
        public void process(Record<String, String> r) {
            if (!scheduled) {
                scheduled = true;
                wall = ctx.schedule(Duration.ofMillis(50), PunctuationType.WALL_CLOCK_TIME, ts -> {
                    ctx.forward(new Record<>("wall", ts + ":" + (++runs), ts));
                    if (runs == 3) wall.cancel();
                });
            } else if (runs >= 3 && runs < 100) {
                runs = 100;
                ctx.schedule(Duration.ofMillis(7), PunctuationType.STREAM_TIME,
                             ts -> ctx.forward(new Record<>("st", String.valueOf(ts), ts)));
            }
            ctx.forward(r.withValue(r.value() + "@" + ctx.currentSystemTimeMs()));
        }
    }

    /** Forwards one record per comma-separated "key@timestamp" part of the value. */
    static final class FanOutProcessor implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;

        @Override
        public void init(ProcessorContext<String, String> context) { ctx = context; }

        @Override
        public void process(Record<String, String> r) {
            for (String part : split(r.value(), ",")) {
                String[] kt = part.split("@");
                ctx.forward(new Record<>(kt[0], r.key() + ":" + part, Long.parseLong(kt[1])));
            }
        }
    }

    /**
     * Keeps the last value per key in "last" and the first-seen offset per timestamp in "seen".
     * Forwards prev>value at timestamp+1 with a "prev" header (to every child); a tombstone
     * deletes the key and forwards "deleted" to sink-main only; a null key goes to sink-side.
     */
    static final class LastValueProcessor implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private KeyValueStore<String, String> last;
        private KeyValueStore<Long, String> seen;
        private Cancellable st;
        private int stRuns = 0;

        @Override
        public void init(ProcessorContext<String, String> context) {
            ctx = context;
            last = context.getStateStore("last");
            seen = context.getStateStore("seen");
            st = context.schedule(Duration.ofMillis(20), PunctuationType.STREAM_TIME, ts -> {
                StringBuilder sb = new StringBuilder();
                try (KeyValueIterator<String, String> it = last.all()) {
                    while (it.hasNext()) { KeyValue<String, String> kv = it.next(); sb.append(kv.key).append('=').append(kv.value).append(';'); }
                }
                sb.append('|');
                try (KeyValueIterator<String, String> it = last.reverseAll()) {
                    while (it.hasNext()) sb.append(it.next().key);
                }
                sb.append('|');
                try (KeyValueIterator<String, String> it = last.range("b", "d")) {
                    while (it.hasNext()) sb.append(it.next().key);
                }
                ctx.forward(new Record<>("st", ts + ":" + sb, ts), "sink-side");
                if (++stRuns == 3) st.cancel();
            });
            context.schedule(Duration.ofMillis(100), PunctuationType.WALL_CLOCK_TIME, ts -> {
                int n = 0;
                try (KeyValueIterator<Long, String> it = seen.all()) {
                    while (it.hasNext()) { it.next(); n++; }
                }
                ctx.forward(new Record<>("wall", ts + ":" + n + ":" + ctx.currentStreamTimeMs(), ts));
            });
        }

        @Override
        public void process(Record<String, String> r) {
            seen.putIfAbsent(r.timestamp(), r.key() == null ? "null" : r.key());
            if (r.key() == null) {
                ctx.forward(r.withValue("nokey:" + r.value()), "sink-side");
                return;
            }
            if (r.value() == null) {
                last.delete(r.key());
                ctx.forward(r.withValue("deleted"), "sink-main");
                return;
            }
            String prev = last.get(r.key());
            last.put(r.key(), r.value());
            RecordHeaders hs = new RecordHeaders(r.headers().toArray());
            hs.add("prev", (prev == null ? "none" : prev).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            ctx.forward(r.withValue(show(prev) + ">" + r.value()).withTimestamp(r.timestamp() + 1).withHeaders(hs));
        }
    }

    /** Appends the number of times the key was seen; a stream-time punctuation scheduled on the
     *  first record (aligned to 0) forwards a marker under the last key seen. */
    static final class SeenValues implements FixedKeyProcessor<String, String, String> {
        private FixedKeyProcessorContext<String, String> ctx;
        private KeyValueStore<String, Long> seen;
        private boolean scheduled = false;
        private FixedKeyRecord<String, String> lastRecord;

        @Override
        public void init(FixedKeyProcessorContext<String, String> context) {
            ctx = context;
            seen = context.getStateStore("seen");
        }

        @Override
        public void process(FixedKeyRecord<String, String> r) {
            lastRecord = r;
            if (!scheduled) {
                scheduled = true;
                ctx.schedule(Duration.ofMillis(10), PunctuationType.STREAM_TIME,
                             ts -> ctx.forward(lastRecord.withValue("tick@" + ts).withTimestamp(ts)));
            }
            Long n = seen.get(r.key());
            long c = n == null ? 1 : n + 1;
            seen.put(r.key(), c);
            ctx.forward(r.withValue(r.value() + "#" + c));
        }
    }

    /** Swaps key and value; drops "skip"; forwards a second record at timestamp-1 for "x". */
    static final class SwapProcessor implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;

        @Override
        public void init(ProcessorContext<String, String> context) { ctx = context; }

        @Override
        public void process(Record<String, String> r) {
            if (r.value().equals("skip")) return;
            ctx.forward(new Record<>(r.value(), r.key(), r.timestamp()));
            if (r.value().equals("x")) ctx.forward(new Record<>(r.value(), r.key() + "-early", r.timestamp() - 1));
        }
    }

    /** Forwards the value with the stream time, the record's topic, partition and offset, and the task. */
    static final class InfoProcessor implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;

        @Override
        public void init(ProcessorContext<String, String> context) { ctx = context; }

        @Override
        public void process(Record<String, String> r) {
            Optional<RecordMetadata> m = ctx.recordMetadata();
            String where = m.map(x -> x.topic() + "/" + x.partition() + "@" + x.offset()).orElse("none");
            ctx.forward(r.withValue(r.value() + "|st=" + ctx.currentStreamTimeMs() + "|" + where + "|" + ctx.taskId()
                                    + "|wall=" + ctx.currentSystemTimeMs()));
        }
    }

    /** Buffers the last value per key; a wall-clock punctuation every 50 ms forwards the buffer
     *  re-keyed by value (in key order) and empties it. */
    static final class BufferProcessor implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private KeyValueStore<String, String> buffer;

        @Override
        public void init(ProcessorContext<String, String> context) {
            ctx = context;
            buffer = context.getStateStore("buffer");
            context.schedule(Duration.ofMillis(50), PunctuationType.WALL_CLOCK_TIME, ts -> {
                List<KeyValue<String, String>> all = new ArrayList<>();
                try (KeyValueIterator<String, String> it = buffer.all()) {
                    while (it.hasNext()) all.add(it.next());
                }
                for (KeyValue<String, String> kv : all) {
                    buffer.delete(kv.key);
                    ctx.forward(new Record<>(kv.value, kv.key, ts));
                }
            });
        }

        @Override
        public void process(Record<String, String> r) { buffer.put(r.key(), r.value()); }
    }

    /** Stores value by Long key (a null value deletes), then forwards the keys in order, in
     *  reverse order and in the range [0, 300], and the deleted key's tombstone. */
    static final class LongKeysProcessor implements Processor<Long, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private KeyValueStore<Long, String> nums;

        @Override
        public void init(ProcessorContext<String, String> context) {
            ctx = context;
            nums = context.getStateStore("nums");
        }

        @Override
        public void process(Record<Long, String> r) {
            if (r.value() == null) {
                String old = nums.delete(r.key());
                ctx.forward(new Record<>(String.valueOf(r.key()), null, r.timestamp()));
                ctx.forward(new Record<>("deleted", show(old), r.timestamp()));
                return;
            }
            nums.put(r.key(), r.value());
            StringBuilder sb = new StringBuilder();
            try (KeyValueIterator<Long, String> it = nums.all()) {
                while (it.hasNext()) sb.append(it.next().key).append(',');
            }
            sb.append('|');
            try (KeyValueIterator<Long, String> it = nums.reverseAll()) {
                while (it.hasNext()) sb.append(it.next().key).append(',');
            }
            sb.append('|');
            try (KeyValueIterator<Long, String> it = nums.range(0L, 300L)) {
                while (it.hasNext()) sb.append(it.next().key).append(',');
            }
            ctx.forward(new Record<>(String.valueOf(r.key()), sb.toString(), r.timestamp()));
        }
    }

    /** "out-deleted" for tombstones, else "out-" and the value's first letter; named so that
     *  describe() prints the same text as kstreams. */
    static final class DeletedOrFirstLetter implements TopicNameExtractor<String, String> {
        @Override
        public String extract(String key, String value, RecordContext ctx) {
            return value == null ? "out-deleted" : "out-" + value.substring(0, 1);
        }
        @Override
        public String toString() { return "topic_name_extractor"; }
    }

    private SpineScenarios() {}
}
