package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Harness.Type.X;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.Suppressed.BufferConfig;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.WindowedSerdes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Scenarios of the eighteenth conformance hunt (tests/conformance/hunt18_scenarios_test.cpp
 * writes the same with kstreams): the byte formats of Kafka's Double, Float, Short, Integer,
 * Boolean, UUID, List, Bytes and Void serdes through sinks, repartition topics and stores; table
 * to_stream with a key mapper; filter_not and store-type combinations of Materialized; asymmetric,
 * three-way and self stream joins; sessions of 1 ms gaps; sliding windows wider than the input;
 * windows near Long.MAX_VALUE; negative extracted timestamps; rows moving between groups and
 * back; repartition options; Processor API stores and punctuations feeding windows, joins and
 * suppression; headers through foreign-key joins and suppression. The second half
 * (hunt18_edges_scenarios_test.cpp): Kafka's deserializers on odd bytes, NaN and -0.0 keys, UUID
 * keys in two spellings, windowed topics read back, suppression and caches sized with headers,
 * builder misuse rejected or accepted.
 */
final class Hunt18Scenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Consumed<String, Long> SL = Consumed.with(Serdes.String(), Serdes.Long());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());
    static final Produced<String, Long> PSL = Produced.with(Serdes.String(), Serdes.Long());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    static <V> void showTo(KTable<Windowed<String>, V> t, String topic, Produced<String, V> p) {
        WindowKindScenarios.showTo(t, topic, p);
    }

    static <V> Produced<String, V> valuesAs(Serde<V> serde) {
        return Produced.with(Serdes.String(), serde);
    }

    static String slash(String k, String v, String agg) { return agg + "/" + v; }

    /** Keys of a store in its iteration order, "key=value " each. */
    static <K, V> String entries(KeyValueIterator<K, V> it) {
        StringBuilder sb = new StringBuilder();
        while (it.hasNext()) {
            KeyValue<K, V> kv = it.next();
            sb.append(kv.key).append('=').append(kv.value).append(' ');
        }
        it.close();
        return sb.toString();
    }

    /** "value#n": n counts the key's records so far (in the store "seen"); ts moved back 3 ms. */
    static final class Numbered implements FixedKeyProcessor<String, String, String> {
        private FixedKeyProcessorContext<String, String> ctx;
        private KeyValueStore<String, Long> seen;

        @Override
        public void init(FixedKeyProcessorContext<String, String> context) {
            ctx = context;
            seen = context.getStateStore("seen");
        }

        @Override
        public void process(FixedKeyRecord<String, String> r) {
            Long n = seen.get(r.key());
            long next = n == null ? 1 : n + 1;
            seen.put(r.key(), next);
            ctx.forward(r.withValue(r.value() + "#" + next).withTimestamp(r.timestamp() - 3));
        }
    }

    /**
     * Forwards each record, and on a stream-time punctuation every 10 ms a record "tick" ->
     * "p<time>" with the punctuation's time as its timestamp and no headers.
     */
    static final class Ticker implements Processor<String, String, String, String> {
        private final PunctuationType type;
        private ProcessorContext<String, String> ctx;

        Ticker(PunctuationType type) {
            this.type = type;
        }

        @Override
        public void init(ProcessorContext<String, String> context) {
            ctx = context;
            context.schedule(Duration.ofMillis(10), type, t -> ctx.forward(new Record<>("tick", "p" + t, t)));
        }

        @Override
        public void process(Record<String, String> r) {
            ctx.forward(r);
        }
    }

    /** Appends the record's topic (or "none" without record metadata) and its timestamp. */
    static final class WhereFrom implements FixedKeyProcessor<String, String, String> {
        private FixedKeyProcessorContext<String, String> ctx;

        @Override
        public void init(FixedKeyProcessorContext<String, String> context) {
            ctx = context;
        }

        @Override
        public void process(FixedKeyRecord<String, String> r) {
            String topic = ctx.recordMetadata().map(m -> m.topic()).orElse("none");
            ctx.forward(r.withValue(r.value() + "@" + topic + "/" + r.timestamp()));
        }
    }

    /** "rejected" when building with `build` throws (at a DSL call or at build()), else "accepted". */
    static String rejected(java.util.function.Consumer<StreamsBuilder> build) {
        try {
            StreamsBuilder b = new StreamsBuilder();
            build.accept(b);
            b.build();
            return "accepted";
        } catch (RuntimeException e) {
            return "rejected";
        }
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // Numbers written with Kafka's Double, Float, Short, Integer, Boolean and UUID serdes: the
        // bytes of NaNs (raw and canonical), -0.0, rounding from long, truncation to short.
        scenarios.put("serde_number_bytes", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, Long> s = b.stream("in", SL);
            s.mapValues(v -> v == null ? null : (double) v).to("out-double", valuesAs(Serdes.Double()));
            s.mapValues(v -> v == null ? null : Double.longBitsToDouble(v)).to("out-double-bits", valuesAs(Serdes.Double()));
            s.mapValues(v -> v == null ? null : (float) (long) v).to("out-float", valuesAs(Serdes.Float()));
            s.mapValues(v -> v == null ? null : Float.intBitsToFloat((int) (long) v)).to("out-float-bits", valuesAs(Serdes.Float()));
            s.mapValues(v -> v == null ? null : (short) (long) v).to("out-short", valuesAs(Serdes.Short()));
            s.mapValues(v -> v == null ? null : (int) (long) v).to("out-int", valuesAs(Serdes.Integer()));
            s.mapValues(v -> v == null ? null : v % 2 != 0).to("out-bool", valuesAs(Serdes.Boolean()));
            s.mapValues(v -> v == null ? null : new UUID(v, ~v)).to("out-uuid", valuesAs(Serdes.UUID()));
            Harness h = new Harness(b.build(), out).input("in", S, L).output("out-double", S, X)
                .output("out-double-bits", S, X).output("out-float", S, X).output("out-float-bits", S, X)
                .output("out-short", S, X).output("out-int", S, X).output("out-bool", S, X).output("out-uuid", S, S);
            long[] in = {0L, -1L, 65537L, 9007199254740993L, 0x7ff0000000000001L, 0x7fc00001L, Long.MIN_VALUE,
                         0x3ff0000000000000L, 16777217L, 0xfff8000000000000L};
            int t = 1;
            for (long v : in) h.pipe("in", "k" + t, v, t++);
            h.pipe("in", "k0", null, t);
            h.finish();
        });

        // Short, Double and UUID keys through repartition topics into counts: the stores iterate
        // in the keys' byte order (negative numbers after positive ones).
        scenarios.put("serde_keys_store_order", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, Long> s = b.stream("in", SL);
            s.groupBy((k, v) -> (short) (long) v, Grouped.with("by-short", Serdes.Short(), Serdes.Long()))
                .count(Materialized.as("short-count")).toStream()
                .to("out-short", Produced.with(Serdes.Short(), Serdes.Long()));
            s.groupBy((k, v) -> (double) v, Grouped.with("by-double", Serdes.Double(), Serdes.Long()))
                .count(Materialized.as("double-count")).toStream()
                .to("out-double", Produced.with(Serdes.Double(), Serdes.Long()));
            s.groupBy((k, v) -> new UUID(v, 7), Grouped.with("by-uuid", Serdes.UUID(), Serdes.Long()))
                .count(Materialized.as("uuid-count")).toStream()
                .to("out-uuid", Produced.with(Serdes.UUID(), Serdes.Long()));
            Harness h = new Harness(b.build(), out).input("in", S, L).output("out-short", X, L)
                .output("out-double", X, L).output("out-uuid", S, L).output("conformance-by-short-repartition", X, X);
            long[] in = {1, -1, 2, 256, -256, 1, 0, 65537};
            int t = 1;
            for (long v : in) h.pipe("in", "k", v, t++);
            KeyValueStore<Short, Long> shorts = h.driver().getKeyValueStore("short-count");
            KeyValueStore<Double, Long> doubles = h.driver().getKeyValueStore("double-count");
            KeyValueStore<UUID, Long> uuids = h.driver().getKeyValueStore("uuid-count");
            h.line("= short " + entries(shorts.all()));
            h.line("= double " + entries(doubles.all()));
            h.line("= uuid " + entries(uuids.all()));
            h.line("= short range -1..2 " + entries(shorts.range((short) -1, (short) 2)));
            h.finish();
        });

        // Lists aggregated with Kafka's ListSerde: strings (variable size, nulls as -1) and
        // integers (constant size, null indexes up front), empty strings, and their changelogs.
        scenarios.put("serde_list_aggregates", out -> {
            StreamsBuilder b = new StreamsBuilder();
            @SuppressWarnings({"unchecked", "rawtypes"})
            Serde<List<String>> strs = (Serde) Serdes.ListSerde(ArrayList.class, Serdes.String());
            @SuppressWarnings({"unchecked", "rawtypes"})
            Serde<List<Integer>> ints = (Serde) Serdes.ListSerde(ArrayList.class, Serdes.Integer());
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            g.aggregate(ArrayList::new, (k, v, agg) -> {
                List<String> l = new ArrayList<>(agg);
                l.add(v.equals("-") ? null : v);
                return l;
            }, Materialized.<String, List<String>, KeyValueStore<Bytes, byte[]>>as("strs").withValueSerde(strs))
                .toStream().to("out-strs", valuesAs(strs));
            g.aggregate(ArrayList::new, (k, v, agg) -> {
                List<Integer> l = new ArrayList<>(agg);
                l.add(v.equals("-") ? null : v.length());
                return l;
            }, Materialized.<String, List<Integer>, KeyValueStore<Bytes, byte[]>>as("lens").withValueSerde(ints)
                .withCachingDisabled())
                .toStream().to("out-lens", valuesAs(ints));
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-strs", S, X).output("out-lens", S, X)
                .output("conformance-lens-changelog", S, X);
            h.pipe("in", "a", "x", 1);
            h.pipe("in", "a", "-", 2);
            h.pipe("in", "a", "", 3);
            h.pipe("in", "b", "-", 4);
            h.pipe("in", "a", "yz", 5);
            h.finish();
        });

        // Void keys (null on the wire), Bytes values, empty strings as keys and values (not
        // null), and void values as tombstones into a table.
        scenarios.put("serde_void_bytes_empty", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.map((k, v) -> KeyValue.pair((Void) null, v)).to("out-void", Produced.with(Serdes.Void(), Serdes.String()));
            s.mapValues(v -> v == null ? null : Bytes.wrap(v.getBytes(StandardCharsets.UTF_8)))
                .to("out-bytes", valuesAs(Serdes.Bytes()));
            s.groupByKey().count().toStream().to("out-count", PSL);
            s.filter((k, v) -> v != null && v.isEmpty()).mapValues(v -> (Void) null).to("out-deletes", valuesAs(Serdes.Void()));
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-void", X, S).output("out-bytes", S, X)
                .output("out-count", S, L).output("out-deletes", S, X);
            h.pipe("in", "", "", 1);
            h.pipe("in", "a", "hi", 2);
            h.pipe("in", "", "x", 3);
            h.pipe("in", null, "y", 4);
            h.pipe("in", "a", "", 5);
            h.pipe("in", "a", null, 6);
            h.dropped();
            h.finish();
        });

        // KTable.toStream(KeyValueMapper): re-keyed by value (tombstones keep their key), then a
        // table join and a count, each through a repartition topic of its own.
        scenarios.put("table_to_stream_key_mapper_joined", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("t", SS);
            KStream<String, String> byValue = t.toStream((k, v) -> v == null ? k : v);
            byValue.to("out-rekeyed", PSS);
            byValue.join(b.table("names", SS), (x, y) -> x + "/" + y).to("out-joined", PSS);
            byValue.groupByKey().count().toStream().to("out-count", PSL);
            t.toStream((k, v) -> k + ":" + v, Named.as("named-mapper")).to("out-named", PSS);
            Harness h = new Harness(b.build(), out).input("t", S, S).input("names", S, S).output("out-rekeyed", S, S)
                .output("out-joined", S, S).output("out-count", S, L).output("out-named", S, S);
            h.pipe("names", "x", "X", 1);
            h.pipe("t", "k1", "x", 2);
            h.pipe("t", "k2", "y", 3);
            h.pipe("names", "y", "Y", 4);
            h.pipe("t", "k2", "x", 5);
            h.pipe("t", "k1", null, 6);
            h.pipe("t", "k3", null, 7);
            h.finish();
        });

        // filterNot materialized without cache and log, a store-type-only Materialized view on it,
        // and a regroup of the filtered table (old values through the filter).
        scenarios.put("table_filter_not_store_combos", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", SS);
            KTable<String, String> f = t.filterNot((k, v) -> v.startsWith("x"), Named.as("fnot"),
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("fnot-store").withCachingDisabled().withLoggingDisabled());
            f.toStream().to("out-fnot", PSS);
            f.mapValues(v -> v + "!", Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as(Materialized.StoreType.IN_MEMORY))
                .toStream().to("out-mv", PSS);
            f.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k))
                .aggregate(() -> "", (k, v, agg) -> agg + "+" + v, (k, v, agg) -> agg + "-" + v,
                    Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("agg").withStoreType(Materialized.StoreType.IN_MEMORY)
                        .withCachingDisabled())
                .toStream().to("out-agg", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-fnot", S, S).output("out-mv", S, S)
                .output("out-agg", S, S);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k2", "x2", 2);
            h.pipe("in", "k1", "x3", 3);
            h.pipe("in", "k2", "b4", 4);
            h.pipe("in", "k1", "a5", 5);
            h.pipe("in", "k2", null, 6);
            h.pipe("in", "k3", "x7", 7);
            h.finish();
        });

        // Materialized combinations on counts, windowed counts and session reduces: caching and
        // logging off together, store types without names, logging with topic configs.
        scenarios.put("materialized_combos_describe", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            g.count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("c1").withCachingDisabled().withLoggingDisabled())
                .toStream().to("out-c1", PSL);
            g.count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as(Materialized.StoreType.IN_MEMORY).withLoggingDisabled())
                .toStream().to("out-c2", PSL);
            g.count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("c3").withStoreType(Materialized.StoreType.ROCKS_DB)
                .withCachingEnabled().withLoggingEnabled(Map.of("retention.ms", "100")))
                .toStream().to("out-c3", PSL);
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("w4").withStoreType(Materialized.StoreType.IN_MEMORY)
                    .withLoggingDisabled()), "out-w4", PSL);
            showTo(g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5)))
                .reduce((x, y) -> x + "+" + y, Materialized.<String, String, SessionStore<Bytes, byte[]>>as("s5")
                    .withCachingDisabled().withLoggingDisabled()), "out-s5", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-c1", S, L).output("out-c2", S, L)
                .output("out-c3", S, L).output("out-w4", S, L).output("out-s5", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 4);
            h.pipe("in", "b", "3", 12);
            h.pipe("in", "a", "4", 11);
            h.finish();
        });

        // Join windows with before 1 and after 6 (grace 4): records out of order on both sides,
        // inner, left and outer, records at the window edges and late.
        scenarios.put("stream_join_asymmetric_out_of_order", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            JoinWindows w = JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(3), Duration.ofMillis(4))
                .before(Duration.ofMillis(1)).after(Duration.ofMillis(6));
            l.join(r, (x, y) -> x + "&" + y, w).to("out-inner", PSS);
            l.leftJoin(r, (x, y) -> x + "&" + show(y), w).to("out-left", PSS);
            l.outerJoin(r, (x, y) -> show(x) + "&" + show(y), w).to("out-outer", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-inner", S, S).output("out-left", S, S).output("out-outer", S, S);
            h.pipe("left", "a", "L10", 10);
            h.pipe("right", "a", "R16", 16);
            h.pipe("right", "a", "R9", 9);
            h.pipe("right", "a", "R8", 8);
            h.pipe("left", "a", "L17", 17);
            h.pipe("right", "a", "R11", 11);
            h.pipe("left", "a", "L5", 5);
            h.pipe("right", "a", "R24", 24);
            h.pipe("left", "a", "L12", 12);
            h.pipe("right", "b", "Rb30", 30);
            h.pipe("left", "a", "L18", 18);
            h.pipe("right", "a", "R14", 14);
            h.pipe("left", "c", "Lc50", 50);
            h.dropped();
            h.finish();
        });

        // Three streams joined: the result of one join joined again (its timestamp the larger of
        // its two), inner then inner, and left then outer.
        scenarios.put("stream_join_three_way", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> x = b.stream("x", SS);
            KStream<String, String> y = b.stream("y", SS);
            KStream<String, String> z = b.stream("z", SS);
            JoinWindows w = JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(5), Duration.ofMillis(2));
            x.join(y, (p, q) -> p + "+" + q, w).join(z, (pq, r) -> pq + "+" + r, w).to("out-inner", PSS);
            x.leftJoin(y, (p, q) -> p + "+" + show(q), w).outerJoin(z, (pq, r) -> show(pq) + "|" + show(r), w)
                .to("out-left-outer", PSS);
            Harness h = new Harness(b.build(), out).input("x", S, S).input("y", S, S).input("z", S, S)
                .output("out-inner", S, S).output("out-left-outer", S, S);
            h.pipe("x", "a", "x1", 1);
            h.pipe("y", "a", "y4", 4);
            h.pipe("z", "a", "z9", 9);
            h.pipe("z", "a", "z10", 10);
            h.pipe("y", "a", "y0", 0);
            h.pipe("x", "a", "x6", 6);
            h.pipe("z", "b", "zb12", 12);
            h.pipe("x", "b", "xb13", 13);
            h.pipe("y", "b", "yb14", 14);
            h.pipe("x", "a", "x30", 30);
            h.pipe("y", "a", "y31", 31);
            h.pipe("z", "a", "z50", 50);
            h.finish();
        });

        // A stream joined with itself twice (inner and left), under optimization none and all.
        for (String opt : new String[] {"none", "all"}) {
            scenarios.put("self_join_twice_" + opt, out -> {
                Properties p = new Properties();
                p.put(StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG, opt);
                StreamsBuilder b = new StreamsBuilder();
                KStream<String, String> s = b.stream("in", SS);
                JoinWindows w = JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5));
                s.join(s, (x, y) -> x + "*" + y, w).to("out-inner", PSS);
                s.leftJoin(s, (x, y) -> x + "*" + show(y), w).to("out-left", PSS);
                Harness h = new Harness(b.build(p), p, out).input("in", S, S).output("out-inner", S, S).output("out-left", S, S);
                h.pipe("in", "a", "1", 1);
                h.pipe("in", "a", "2", 3);
                h.pipe("in", "b", "3", 4);
                h.pipe("in", "a", "4", 20);
                h.pipe("in", "a", "5", 2);
                h.finish();
            });
        }

        // Sessions with 1 ms and 2 ms gaps: records at the same instant, 1 ms apart (merged) and
        // 2 ms apart, out of order within the grace.
        scenarios.put("session_gap_one_ms", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(1), Duration.ofMillis(2)))
                .aggregate(() -> "", Hunt18Scenarios::slash, (k, x, y) -> x + "|" + y,
                    Materialized.<String, String, SessionStore<Bytes, byte[]>>as("g1").withCachingDisabled()), "out-1", PSS);
            showTo(g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(2))).count(), "out-2", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-1", S, S).output("out-2", S, L);
            h.pipe("in", "a", "5", 5);
            h.pipe("in", "a", "5b", 5);
            h.pipe("in", "a", "7", 7);
            h.pipe("in", "a", "6", 6);
            h.pipe("in", "a", "9", 9);
            h.pipe("in", "a", "4", 4);
            h.pipe("in", "a", "2", 2);
            h.pipe("in", "a", "12", 12);
            h.pipe("in", "a", "10", 10);
            h.pipe("in", "a", "8", 8);
            h.dropped();
            h.finish();
        });

        // Sliding windows of 1000 ms on inputs spanning 30 ms: every record in every window,
        // out of order, then one far ahead closing them.
        scenarios.put("sliding_difference_wider_than_input", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            SlidingWindows w = SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(1000), Duration.ofMillis(5));
            showTo(g.windowedBy(w).count(), "out-count", PSL);
            showTo(g.windowedBy(w).reduce((x, y) -> x + "+" + y,
                Materialized.<String, String, WindowStore<Bytes, byte[]>>as("slide").withCachingDisabled()), "out-reduce", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-reduce", S, S);
            h.pipe("in", "a", "20", 1020);
            h.pipe("in", "a", "5", 1005);
            h.pipe("in", "a", "30", 1030);
            h.pipe("in", "a", "0", 1000);
            h.pipe("in", "a", "25", 1025);
            h.pipe("in", "a", "far", 2040);
            h.pipe("in", "a", "late", 1030);
            h.dropped();
            h.finish();
        });

        // Windows near Long.MAX_VALUE: tumbling and hopping windows ending just below it, then a
        // record whose window's end would overflow fails the task. (Kafka's session stores fail
        // there earlier: their segments' arithmetic overflows.)
        scenarios.put("windows_near_long_max", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(), "out-tumbling", PSL);
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)).advanceBy(Duration.ofMillis(5))).count(),
                "out-hopping", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-tumbling", S, L).output("out-hopping", S, L);
            long max = Long.MAX_VALUE;
            h.pipe("in", "a", "m30", max - 30);
            h.pipe("in", "a", "m12", max - 12);
            h.pipe("in", "a", "m8", max - 8);
            h.pipe("in", "a", "m17", max - 17);
            h.dropped();
            try {
                h.pipe("in", "a", "m0", max);
            } catch (RuntimeException e) {
                h.line("! failed");
            }
            h.finish();
        });

        // Extracted timestamps of 0 and below mixed into a tumbling count and a stream join:
        // negative ones skipped and counted, 0 kept.
        scenarios.put("negative_timestamps_windows_joins", out -> {
            StreamsBuilder b = new StreamsBuilder();
            Consumed<String, String> c = SS.withTimestampExtractor(Hunt10Scenarios::fromValue);
            KStream<String, String> l = b.stream("left", c);
            KStream<String, String> r = b.stream("right", c);
            showTo(l.groupByKey().windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(5), Duration.ofMillis(100))).count(),
                "out-count", PSL);
            l.join(r, (x, y) -> x + "&" + y, JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(2), Duration.ofMillis(100)))
                .to("out-join", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-count", S, L).output("out-join", S, S);
            h.pipe("left", "a", "0:l0", 50);
            h.pipe("right", "a", "-1:r-1", 51);
            h.pipe("right", "a", "1:r1", 52);
            h.pipe("left", "a", "-5:l-5", 53);
            h.pipe("left", "a", "4:l4", 54);
            h.pipe("right", "a", "0:r0", 55);
            h.pipe("left", "a", "p:lp", 56);
            h.dropped();
            h.finish();
        });

        // A row moving between groups and back, and updated within its group: the subtractor and
        // adder calls and results with and without a cache, and a count.
        scenarios.put("table_aggregate_move_and_back", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", SS);
            t.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k + v.substring(1)))
                .aggregate(() -> "", (k, v, agg) -> agg + "+" + v, (k, v, agg) -> agg + "-" + v,
                    Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("moves").withCachingDisabled())
                .toStream().to("out-uncached", PSS);
            t.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k + v.substring(1)))
                .aggregate(() -> "", (k, v, agg) -> agg + "+" + v, (k, v, agg) -> agg + "-" + v)
                .toStream().to("out-cached", PSS);
            t.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), v)).count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-uncached", S, S).output("out-cached", S, S).output("out-count", S, L);
            h.pipe("in", "r1", "a1", 1);
            h.pipe("in", "r2", "a2", 2);
            h.pipe("in", "r1", "b3", 3);
            h.pipe("in", "r1", "a4", 4);
            h.pipe("in", "r2", "a5", 5);
            h.pipe("in", "r1", "a5", 6);
            h.pipe("in", "r1", null, 7);
            h.pipe("in", "r1", "b8", 8);
            h.finish();
        });

        // A table-table outer join suppressed by a time limit, and the same join regrouped and
        // counted behind a bounded buffer emitting early.
        scenarios.put("suppress_time_limit_outer_join_regroup", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> j = b.table("left", SS).outerJoin(b.table("right", SS), (x, y) -> show(x) + "|" + show(y));
            j.suppress(Suppressed.untilTimeLimit(Duration.ofMillis(4), BufferConfig.unbounded()).withName("sup-join"))
                .toStream().to("out-join", PSS);
            j.groupBy((k, v) -> KeyValue.pair(v.contains("null") ? "half" : "full", k)).count()
                .suppress(Suppressed.untilTimeLimit(Duration.ofMillis(3), BufferConfig.maxRecords(1).emitEarlyWhenFull()))
                .toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-join", S, S).output("out-count", S, L);
            h.pipe("left", "a", "l1", 1);
            h.pipe("right", "a", "r1", 2);
            h.pipe("right", "b", "r2", 3);
            h.pipe("left", "a", null, 6);
            h.pipe("left", "b", "l3", 7);
            h.pipe("right", "a", null, 9);
            h.pipe("left", "c", "l4", 14);
            h.pipe("right", "c", "r4", 20);
            h.finish();
        });

        // repartition() with a name, partition count, partitioner and key serde; with only a
        // partition count; with only a partitioner.
        scenarios.put("repartition_options_describe", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            StreamPartitioner<Long, String> zeroL = (topic, k, v, n) -> Optional.of(Set.of(0));
            StreamPartitioner<String, String> zero = (topic, k, v, n) -> Optional.of(Set.of(0));
            s.selectKey((k, v) -> (long) v.length())
                .repartition(Repartitioned.<Long, String>as("lens").withKeySerde(Serdes.Long()).withValueSerde(Serdes.String())
                    .withNumberOfPartitions(2).withStreamPartitioner(zeroL))
                .groupByKey(Grouped.with(Serdes.Long(), Serdes.String())).count().toStream()
                .to("out-lens", Produced.with(Serdes.Long(), Serdes.Long()));
            s.repartition(Repartitioned.numberOfPartitions(3)).mapValues(v -> v + "#").to("out-three", PSS);
            s.repartition(Repartitioned.streamPartitioner(zero)).groupByKey().reduce((x, y) -> x + y).toStream().to("out-part", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-lens", L, L).output("out-three", S, S)
                .output("out-part", S, S);
            h.pipe("in", "k1", "ab", 1);
            h.pipe("in", "k2", "cd", 2);
            h.pipe("in", "k1", "e", 3);
            h.pipe("in", null, "fg", 4);
            h.finish();
        });

        // processValues with a store numbering records and moving them 3 ms back, into a
        // tumbling aggregate and a sliding count.
        scenarios.put("papi_store_into_windows", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("seen"), Serdes.String(), Serdes.Long()));
            KGroupedStream<String, String> g = b.stream("in", SS).processValues(Numbered::new, "seen").groupByKey();
            showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(2)))
                .aggregate(() -> "", Hunt18Scenarios::slash), "out-tumbling", PSS);
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(4))).count(), "out-sliding", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-tumbling", S, S).output("out-sliding", S, L)
                .output("conformance-seen-changelog", S, L);
            h.pipe("in", "a", "x", 5);
            h.pipe("in", "a", "y", 12);
            h.pipe("in", "b", "z", 13);
            h.pipe("in", "a", "w", 14);
            h.pipe("in", "a", "v", 25);
            h.pipe("in", "a", "u", 15);
            h.dropped();
            h.finish();
        });

        // flatMap to several keys (and none), joined with a table and left-joined: the stream side
        // repartitions, results carry the stream records' timestamps.
        scenarios.put("flat_map_keys_table_join", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("t", SS);
            KStream<String, String> s = b.stream("in", SS).flatMap((k, v) -> {
                List<KeyValue<String, String>> r = new ArrayList<>();
                for (String p : Main.split(v, ",")) if (!p.isEmpty()) r.add(KeyValue.pair(p, k));
                return r;
            });
            s.join(t, (x, y) -> x + "=" + y).to("out-join", PSS);
            s.leftJoin(t, (x, y) -> x + "=" + show(y)).to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("t", S, S).input("in", S, S).output("out-join", S, S)
                .output("out-left", S, S);
            h.pipe("t", "x", "X", 1);
            h.pipe("in", "k1", "x,y,x", 2);
            h.pipe("t", "y", "Y", 3);
            h.pipe("in", "k2", "y,,z", 4);
            h.pipe("in", "k3", "", 5);
            h.pipe("t", "x", null, 6);
            h.pipe("in", null, "x,y", 7);
            h.finish();
        });

        // Wall-clock punctuations forwarding records into a suppressed windowed count: the
        // records' timestamps are the wall clock's, so they reach and close windows.
        scenarios.put("wall_clock_ticks_into_suppressed_windows", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS).process(() -> new Ticker(PunctuationType.WALL_CLOCK_TIME));
            s.to("out-ticks", PSS);
            showTo(s.groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(20), Duration.ofMillis(5))).count()
                .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-final", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-ticks", S, S).output("out-final", S, L);
            h.pipe("in", "a", "1", 1);
            h.advanceWallClock(10);
            h.pipe("in", "tick", "2", 12);
            h.advanceWallClock(15);
            h.advanceWallClock(10);
            h.pipe("in", "a", "3", 2);
            h.advanceWallClock(30);
            h.pipe("in", "a", "4", 40);
            h.advanceWallClock(5);
            h.finish();
        });

        // Records forwarded by a stream-time punctuation (no record metadata, no headers) through
        // a processor reading metadata, a count, a table join, a to_table and a windowed count.
        scenarios.put("punctuation_records_downstream", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> names = b.table("names", SS);
            KStream<String, String> s = b.stream("in", SS).process(() -> new Ticker(PunctuationType.STREAM_TIME));
            s.processValues(WhereFrom::new).to("out-where", PSS);
            s.groupByKey().count().toStream().to("out-count", PSL);
            s.join(names, (x, y) -> x + "=" + y).to("out-join", PSS);
            s.toTable().mapValues(v -> v + "!").toStream().to("out-table", PSS);
            showTo(s.groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(), "out-windowed", PSL);
            Harness h = new Harness(b.build(), out).input("names", S, S).input("in", S, S).output("out-where", S, S)
                .output("out-count", S, L).output("out-join", S, S).output("out-table", S, S).output("out-windowed", S, L);
            h.pipe("names", "tick", "T", 0);
            h.pipe("in", "a", "1", 3, "h=1");
            h.pipe("in", "a", "2", 12, "h=2");
            h.pipe("in", "tick", "3", 15, "h=3");
            h.pipe("in", "a", "4", 34);
            h.pipe("in", "a", "5", 20, "h=5");
            h.finish();
        });

        // Headers through a foreign-key left join, its suppression by a time limit and a
        // regrouped aggregate of the join: each output carries the headers of its cause.
        scenarios.put("headers_fk_join_suppressed_regrouped", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS);
            KTable<String, String> customers = b.table("customers", SS);
            KTable<String, String> j = orders.leftJoin(customers, FkJoinScenarios::fk, (o, c) -> o + "/" + show(c));
            j.suppress(Suppressed.untilTimeLimit(Duration.ofMillis(5), BufferConfig.unbounded())).toStream().to("out-suppressed", PSS);
            j.groupBy((k, v) -> KeyValue.pair(v.substring(0, 2), k)).aggregate(() -> "", (k, v, agg) -> agg + "+" + v,
                (k, v, agg) -> agg + "-" + v).toStream().to("out-agg", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S)
                .output("out-suppressed", S, S).output("out-agg", S, S);
            h.pipe("customers", "c1", "Ann", 1, "src=c", "n=1");
            h.pipe("orders", "o1", "c1:tea", 2, "src=o", "n=2");
            h.pipe("orders", "o2", "c2:jam", 3, "src=o", "n=3");
            h.pipe("customers", "c2", "Bo", 4, "src=c", "n=4");
            h.pipe("orders", "o1", "c2:tea", 9, "src=o", "n=5");
            h.pipe("customers", "c1", null, 12, "src=c", "n=6");
            h.pipe("orders", "o2", null, 20, "src=o", "n=7");
            h.finish();
        });

        // Stream joins without grace: records out of order on both sides and at the same
        // instant, null values and keys dropped and counted, the outer join's late emissions.
        scenarios.put("stream_join_no_grace_same_instant", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            JoinWindows w = JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(3));
            l.join(r, (x, y) -> x + "&" + y, w).to("out-inner", PSS);
            l.outerJoin(r, (x, y) -> show(x) + "&" + show(y), w).to("out-outer", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-inner", S, S).output("out-outer", S, S);
            h.pipe("left", "a", "L5", 5);
            h.pipe("left", "a", "L5b", 5);
            h.pipe("right", "a", "R5", 5);
            h.pipe("right", "a", "R3", 3);
            h.pipe("left", "a", null, 6);
            h.pipe("right", null, "Rn", 6);
            h.pipe("left", "b", "Lb9", 9);
            h.pipe("right", "a", "R1", 1);
            h.pipe("left", "a", "L1", 1);
            h.pipe("right", "b", "Rb20", 20);
            h.pipe("left", "a", "L8", 8);
            h.dropped();
            h.finish();
        });

        // Windowed counts keyed by Short and by Long, written with Kafka's windowed serdes
        // (time windows: key bytes then start; sessions: key bytes, end, start).
        scenarios.put("windowed_serdes_short_long_keys", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, Long> s = b.stream("in", SL);
            s.groupBy((k, v) -> (short) (long) v, Grouped.with(Serdes.Short(), Serdes.Long()))
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count().toStream()
                .to("out-tw", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(Short.class, 10), Serdes.Long()));
            s.groupBy((k, v) -> v, Grouped.with(Serdes.Long(), Serdes.Long()))
                .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(3))).count().toStream()
                .to("out-sw", Produced.with(WindowedSerdes.sessionWindowedSerdeFrom(Long.class), Serdes.Long()));
            Harness h = new Harness(b.build(), out).input("in", S, L).output("out-tw", X, L).output("out-sw", X, L);
            h.pipe("in", "k", 1L, 3);
            h.pipe("in", "k", -2L, 5);
            h.pipe("in", "k", 1L, 14);
            h.pipe("in", "k", -2L, 7);
            h.finish();
        });

        // Branched.withFunction returning null (left out of the result), withConsumer, and a
        // split without default branch dropping unmatched records (not counted as dropped).
        scenarios.put("split_function_null_no_default", out -> {
            StreamsBuilder b = new StreamsBuilder();
            Map<String, KStream<String, String>> m = b.stream("in", SS).split(Named.as("s-"))
                .branch((k, v) -> v.startsWith("n"), Branched.withFunction(ks -> {
                    ks.mapValues(v -> v + "?").to("out-null-branch", PSS);
                    return null;
                }, "nul"))
                .branch((k, v) -> v.startsWith("c"), Branched.withConsumer(ks -> ks.to("out-consumed", PSS), "con"))
                .branch((k, v) -> v.startsWith("f"), Branched.withFunction(ks -> ks.mapValues(v -> v + "!")))
                .branch((k, v) -> v.startsWith("p"))
                .noDefaultBranch();
            String branches = "= branches " + new TreeSet<>(m.keySet());
            for (Map.Entry<String, KStream<String, String>> e : new java.util.TreeMap<>(m).entrySet())
                e.getValue().mapValues(v -> e.getKey() + ":" + v).to("out-rest", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-null-branch", S, S)
                .output("out-consumed", S, S).output("out-rest", S, S);
            h.line(branches);
            h.pipe("in", "a", "n1", 1);
            h.pipe("in", "a", "c2", 2);
            h.pipe("in", "a", "f3", 3);
            h.pipe("in", "a", "p4", 4);
            h.pipe("in", "a", "z5", 5);
            h.dropped();
            h.finish();
        });

        // The windows near Long.MAX_VALUE under processing.exception.handler=continue: the record
        // whose window would overflow is skipped and counted, later records still count.
        scenarios.put("windows_near_long_max_continue", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(), "out-tumbling", PSL);
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)).advanceBy(Duration.ofMillis(5))).count(),
                "out-hopping", PSL);
            Properties p = new Properties();
            p.put("processing.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler");
            Harness h = new Harness(b.build(), p, out).input("in", S, S).output("out-tumbling", S, L).output("out-hopping", S, L);
            long max = Long.MAX_VALUE;
            h.pipe("in", "a", "m12", max - 12);
            h.pipe("in", "a", "m0", max);
            h.dropped();
            h.pipe("in", "a", "m9", max - 9);
            h.pipe("in", "b", "m3", max - 3);
            h.dropped();
            h.finish();
        });

        // Sliding windows near Long.MAX_VALUE: the windows a record creates before and after it.
        scenarios.put("sliding_near_long_max", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(5), Duration.ofMillis(10))).count(),
                "out", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, L);
            long max = Long.MAX_VALUE;
            h.pipe("in", "a", "m20", max - 20);
            h.pipe("in", "a", "m10", max - 10);
            h.pipe("in", "a", "m12", max - 12);
            h.dropped();
            try {
                h.pipe("in", "a", "m0", max);
                h.pipe("in", "a", "m2", max - 2);
                h.dropped();
            } catch (RuntimeException e) {
                h.line("! failed");
            }
            h.finish();
        });

        // Kafka's deserializers on odd bytes (deserialization.exception.handler=continue): Boolean
        // bytes other than 0 and 1, Short/Float/Double of the wrong size, UUID texts Java's
        // UUID.fromString takes (short groups, upper case, signs, long groups) or refuses.
        scenarios.put("serde_deserialize_edges", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in-bool", Consumed.with(Serdes.String(), Serdes.Boolean())).mapValues(v -> "" + v).to("out", PSS);
            b.stream("in-short", Consumed.with(Serdes.String(), Serdes.Short())).mapValues(v -> "" + v).to("out", PSS);
            b.stream("in-float", Consumed.with(Serdes.String(), Serdes.Float()))
                .mapValues(v -> "" + Float.floatToRawIntBits(v)).to("out", PSS);
            b.stream("in-double", Consumed.with(Serdes.String(), Serdes.Double()))
                .mapValues(v -> "" + Double.doubleToRawLongBits(v)).to("out", PSS);
            b.stream("in-uuid", Consumed.with(Serdes.String(), Serdes.UUID())).mapValues(v -> "" + v).to("out", PSS);
            b.stream("in-uuid-key", Consumed.with(Serdes.UUID(), Serdes.String())).selectKey((k, v) -> "" + k).to("out", PSS);
            Properties p = new Properties();
            p.put("deserialization.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler");
            Harness h = new Harness(b.build(), p, out).input("in-bool", S, S).input("in-short", S, S).input("in-float", S, S)
                .input("in-double", S, S).input("in-uuid", S, S).input("in-uuid-key", S, S).output("out", S, S);
            int t = 1;
            for (String v : new String[] {"0", "1", "", "ab"}) h.pipe("in-bool", "b", v, t++);
            for (String v : new String[] {"ab", "a", "abc"}) h.pipe("in-short", "s", v, t++);
            for (String v : new String[] {"abcd", "abcdefgh"}) h.pipe("in-float", "f", v, t++);
            for (String v : new String[] {"abcdefgh", "abcd", ""}) h.pipe("in-double", "d", v, t++);
            for (String v : new String[] {"1-2-3-4-5", "ABCDEF01-2345-6789-ABCD-EF0123456789", "+1-2-3-4-5",
                                          "123456789-0-0-0-0", "-1-2-3-4-5", "1-2-3-4", "1-2-3-4-5-6", "",
                                          "00000000-0000-0000-0000-0000000000001", "0-0-0-0-1234567890123", "g-0-0-0-0",
                                          "1-2-3-4-+5"})
                h.pipe("in-uuid", "u", v, t++);
            h.pipe("in-uuid-key", "a-b-c-d-e", "k", t++);
            h.pipe("in-uuid-key", "x", "k2", t++);
            h.dropped();
            h.finish();
        });

        // Double keys from long bits: -0.0 and 0.0 apart, every NaN one key (Kafka's DoubleSerde
        // writes the canonical NaN), also as elements of a list.
        scenarios.put("double_keys_nan_zero", out -> {
            StreamsBuilder b = new StreamsBuilder();
            @SuppressWarnings({"unchecked", "rawtypes"})
            Serde<List<Double>> doubles = (Serde) Serdes.ListSerde(ArrayList.class, Serdes.Double());
            KStream<String, Long> s = b.stream("in", SL);
            s.groupBy((k, v) -> Double.longBitsToDouble(v), Grouped.with(Serdes.Double(), Serdes.Long()))
                .count(Materialized.as("by-double")).toStream().to("out-count", Produced.with(Serdes.Double(), Serdes.Long()));
            s.groupByKey().aggregate(ArrayList::new, (k, v, agg) -> {
                List<Double> l = new ArrayList<>(agg);
                l.add(Double.longBitsToDouble(v));
                return l;
            }, Materialized.<String, List<Double>, KeyValueStore<Bytes, byte[]>>as("doubles").withValueSerde(doubles))
                .toStream().to("out-list", valuesAs(doubles));
            Harness h = new Harness(b.build(), out).input("in", S, L).output("out-count", X, L).output("out-list", S, X);
            long[] in = {0L, 0x8000000000000000L, 0x7ff8000000000000L, 0xfff8000000000000L, 0x7ff0000000000001L, 0L};
            int t = 1;
            for (long v : in) h.pipe("in", "k", v, t++);
            h.finish();
        });

        // UUID keys read with Kafka's UUID serde: upper- and lower-case forms of one UUID are one
        // key of a table, joined from a stream keyed by either form.
        scenarios.put("uuid_keys_table_join", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<UUID, String> users = b.table("users", Consumed.with(Serdes.UUID(), Serdes.String()));
            b.stream("clicks", Consumed.with(Serdes.UUID(), Serdes.String()))
                .leftJoin(users, (c, u) -> c + "@" + show(u), org.apache.kafka.streams.kstream.Joined.with(Serdes.UUID(), Serdes.String(), Serdes.String()))
                .to("out", Produced.with(Serdes.UUID(), Serdes.String()));
            users.toStream().to("out-users", Produced.with(Serdes.UUID(), Serdes.String()));
            Harness h = new Harness(b.build(), out).input("users", S, S).input("clicks", S, S).output("out", S, S)
                .output("out-users", S, S);
            h.pipe("users", "0000000a-0000-0000-0000-00000000000b", "ann", 1);
            h.pipe("clicks", "0000000A-0000-0000-0000-00000000000B", "c1", 2);
            h.pipe("users", "A-0-0-0-B", "bo", 3);
            h.pipe("clicks", "a-0-0-0-b", "c2", 4);
            h.pipe("users", "0000000A-0000-0000-0000-00000000000B", null, 5);
            h.pipe("clicks", "0000000a-0000-0000-0000-00000000000b", "c3", 6);
            h.finish();
        });

        // Windowed keys written with Kafka's windowed serdes and read back: a time-windowed
        // topic read with another window size (the end is start + that size), a session topic.
        scenarios.put("windowed_topics_read_back", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count().toStream()
                .to("wins", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 10), Serdes.Long()));
            g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(4))).count().toStream()
                .to("sessions", Produced.with(WindowedSerdes.sessionWindowedSerdeFrom(String.class), Serdes.Long()));
            b.stream("wins", Consumed.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, 7), Serdes.Long()))
                .map((w, v) -> KeyValue.pair(WindowScenarios.show(w), "" + v)).to("out-wins", PSS);
            b.stream("sessions", Consumed.with(WindowedSerdes.sessionWindowedSerdeFrom(String.class), Serdes.Long()))
                .map((w, v) -> KeyValue.pair(WindowScenarios.show(w), show(v))).to("out-sessions", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-wins", S, S).output("out-sessions", S, S);
            h.pipe("in", "a", "1", 3);
            h.pipe("in", "a", "2", 6);
            h.pipe("in", "b", "3", 12);
            h.pipe("in", "a", "4", 8);
            h.finish();
        });

        // A stream merged with itself (each record twice) and with a filtered view of itself.
        scenarios.put("merge_with_itself", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.merge(s).to("out-twice", PSS);
            s.merge(s.filter((k, v) -> v.startsWith("a"))).groupByKey().count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-twice", S, S).output("out-count", S, L);
            h.pipe("in", "k", "a1", 1);
            h.pipe("in", "k", "b2", 2);
            h.pipe("in", null, "a3", 3);
            h.finish();
        });

        // A count suppressed by a time limit with a buffer of 160 bytes emitting early: records'
        // headers take buffer space (Kafka's size estimate counts their keys and values).
        scenarios.put("suppress_bytes_with_headers", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", SS).groupByKey().count()
                .suppress(Suppressed.untilTimeLimit(Duration.ofMillis(50), BufferConfig.maxBytes(160).emitEarlyWhenFull()))
                .toStream().to("out", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, L);
            h.pipe("in", "k1", "v", 1);
            h.pipe("in", "k2", "v", 2, "h=1");
            h.pipe("in", "k3", "v", 3, "long-header-key=long-header-value");
            h.pipe("in", "k1", "v", 4);
            h.pipe("in", "k4", "v", 5);
            h.pipe("in", "k5", "v", 6, "a=b", "c=d");
            h.pipe("in", "k2", "v", 7);
            h.pipe("in", "k6", "v", 60);
            h.finish();
        });

        // A cache of 300 bytes under a count and a table source: headers make entries larger, so
        // evictions (and the records they emit) come sooner.
        scenarios.put("cache_bytes_with_headers", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", SS).groupByKey().count().toStream().to("out-count", PSL);
            b.table("tab", SS, Materialized.as("tab-store")).toStream().to("out-table", PSS);
            Properties p = new Properties();
            p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "300");
            Harness h = new Harness(b.build(), p, out).input("in", S, S).input("tab", S, S)
                .output("out-count", S, L).output("out-table", S, S);
            String big = "header-key-of-some-length=header-value-of-some-length";
            h.pipe("in", "k1", "v", 1, big);
            h.pipe("in", "k2", "v", 2);
            h.pipe("in", "k1", "v", 3, big, big);
            h.pipe("tab", "t1", "x", 4, big);
            h.pipe("tab", "t2", "y", 5);
            h.pipe("in", "k3", "v", 6, big);
            h.pipe("tab", "t1", "z", 7);
            h.finish();
        });

        // A global table of Long keys and Double values joined from a stream (key mapper parsing
        // the value), inner and left.
        scenarios.put("global_table_long_double", out -> {
            StreamsBuilder b = new StreamsBuilder();
            org.apache.kafka.streams.kstream.GlobalKTable<Long, Double> prices =
                b.globalTable("prices", Consumed.with(Serdes.Long(), Serdes.Double()));
            KStream<String, String> s = b.stream("orders", SS);
            s.join(prices, (k, v) -> Long.parseLong(v), (v, pr) -> v + "=" + pr).to("out-join", PSS);
            s.leftJoin(prices, (k, v) -> Long.parseLong(v), (v, pr) -> v + "=" + show(pr)).to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("prices", L, Harness.Type.D).input("orders", S, S)
                .output("out-join", S, S).output("out-left", S, S);
            h.pipe("prices", 1L, 2.5, 1);
            h.pipe("orders", "o1", "1", 2);
            h.pipe("orders", "o2", "2", 3);
            h.pipe("prices", 2L, 0.125, 4);
            h.pipe("orders", "o3", "2", 5);
            h.pipe("prices", 1L, null, 6);
            h.pipe("orders", "o4", "1", 7);
            h.finish();
        });

        // Builder misuse, each in a builder of its own: rejected (at the call or at build()) or
        // accepted, as Kafka Streams decides.
        scenarios.put("builder_misuse_rejected", out -> {
            StreamsBuilder ok = new StreamsBuilder();
            ok.stream("in", SS).to("out", PSS);
            Harness h = new Harness(ok.build(), out).input("in", S, S).output("out", S, S);
            h.line("window retention below size+grace: " + rejected(b -> b.stream("in", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("r").withRetention(Duration.ofMillis(14)))));
            h.line("window retention equal to size+grace: " + rejected(b -> b.stream("in", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("r").withRetention(Duration.ofMillis(15)))));
            h.line("session retention below gap+grace: " + rejected(b -> b.stream("in", SS).groupByKey()
                .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                .count(Materialized.<String, Long, SessionStore<Bytes, byte[]>>as("r").withRetention(Duration.ofMillis(14)))));
            h.line("sliding retention below difference+grace: " + rejected(b -> b.stream("in", SS).groupByKey()
                .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("r").withRetention(Duration.ofMillis(14)))));
            h.line("duplicate store name: " + rejected(b -> {
                KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
                g.count(Materialized.as("dup"));
                g.reduce((x, y) -> x + y, Materialized.as("dup"));
            }));
            h.line("duplicate source topic: " + rejected(b -> {
                b.stream("in", SS).to("o1", PSS);
                b.stream("in", SS).to("o2", PSS);
            }));
            h.line("duplicate processor name: " + rejected(b -> {
                KStream<String, String> st = b.stream("in", SS);
                st.filter((k, v) -> true, Named.as("f")).to("o1", PSS);
                st.mapValues(v -> v, Named.as("f")).to("o2", PSS);
            }));
            h.line("store name with a space: " + rejected(b -> b.stream("in", SS).groupByKey().count(Materialized.as("bad name"))));
            h.line("processor name with a colon: " + rejected(b -> b.stream("in", SS).filter((k, v) -> true, Named.as("a:b")).to("o", PSS)));
            h.line("repartition name of 250 characters: " + rejected(b -> b.stream("in", SS)
                .repartition(Repartitioned.as("x".repeat(250))).to("o", PSS)));
            h.line("repartition name of 200 characters: " + rejected(b -> b.stream("in", SS)
                .repartition(Repartitioned.as("x".repeat(200))).to("o", PSS)));
            h.line("two repartitions of one name: " + rejected(b -> {
                KStream<String, String> st = b.stream("in", SS);
                st.repartition(Repartitioned.as("rp")).to("o1", PSS);
                st.mapValues(v -> v).repartition(Repartitioned.as("rp")).to("o2", PSS);
            }));
            h.line("two groupings of one name: " + rejected(b -> {
                KStream<String, String> st = b.stream("in", SS);
                st.selectKey((k, v) -> v).groupByKey(Grouped.as("g")).count();
                st.selectKey((k, v) -> k + v).groupByKey(Grouped.as("g")).count();
            }));
            h.line("two stream joins of one store name: " + rejected(b -> {
                KStream<String, String> l = b.stream("l", SS);
                KStream<String, String> r = b.stream("r", SS);
                JoinWindows w = JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5));
                l.join(r, (x, y) -> x + y, w, org.apache.kafka.streams.kstream.StreamJoined.<String, String, String>as("j")).to("o1", PSS);
                l.leftJoin(r, (x, y) -> x + y, w, org.apache.kafka.streams.kstream.StreamJoined.<String, String, String>as("j")).to("o2", PSS);
            }));
            h.line("join windows before+after negative: " + rejected(b -> JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5))
                .before(Duration.ofMillis(-6))));
            h.line("join windows after negative within before: " + rejected(b -> JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5))
                .after(Duration.ofMillis(-3))));
            h.line("session gap zero: " + rejected(b -> SessionWindows.ofInactivityGapWithNoGrace(Duration.ZERO)));
            h.line("sliding difference zero: " + rejected(b -> SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ZERO)));
            h.line("hopping advance above size: " + rejected(b -> TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(5))
                .advanceBy(Duration.ofMillis(6))));
            h.line("suppress time limit negative: " + rejected(b -> Suppressed.untilTimeLimit(Duration.ofMillis(-1),
                BufferConfig.unbounded())));
            h.line("buffer of zero records: " + rejected(b -> BufferConfig.maxRecords(0)));
            h.pipe("in", "k", "v", 1);
            h.finish();
        });

        // Names Kafka Streams checks, by the option taking them: characters other than those of
        // topic names, 250 characters, empty, "." and "..".
        scenarios.put("names_checked_by_option", out -> {
            StreamsBuilder ok = new StreamsBuilder();
            ok.stream("in", SS).to("out", PSS);
            Harness h = new Harness(ok.build(), out).input("in", S, S).output("out", S, S);
            Map<String, java.util.function.BiConsumer<StreamsBuilder, String>> uses = new java.util.LinkedHashMap<>();
            uses.put("Named", (b, n) -> b.stream("in", SS).filter((k, v) -> true, Named.as(n)).to("o", PSS));
            uses.put("Materialized", (b, n) -> b.stream("in", SS).groupByKey().count(Materialized.as(n)));
            uses.put("Grouped", (b, n) -> b.stream("in", SS).selectKey((k, v) -> v).groupByKey(Grouped.as(n)).count());
            uses.put("Repartitioned", (b, n) -> b.stream("in", SS).repartition(Repartitioned.as(n)).to("o", PSS));
            uses.put("StreamJoined", (b, n) -> b.stream("in", SS).join(b.stream("in2", SS), (x, y) -> x + y,
                JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5)),
                org.apache.kafka.streams.kstream.StreamJoined.<String, String, String>as(n)).to("o", PSS));
            uses.put("Joined", (b, n) -> b.stream("in", SS).join(b.table("t", SS), (x, y) -> x + y,
                org.apache.kafka.streams.kstream.Joined.as(n)).to("o", PSS));
            uses.put("Suppressed", (b, n) -> b.table("t", SS).suppress(
                Suppressed.untilTimeLimit(Duration.ofMillis(5), BufferConfig.unbounded()).withName(n)));
            uses.put("Consumed", (b, n) -> b.stream("in", SS.withName(n)).to("o", PSS));
            uses.put("Produced", (b, n) -> b.stream("in", SS).to("o", PSS.withName(n)));
            for (Map.Entry<String, java.util.function.BiConsumer<StreamsBuilder, String>> e : uses.entrySet()) {
                StringBuilder sb = new StringBuilder(e.getKey() + ":");
                for (String n : new String[] {"a b", "x".repeat(250), "", ".", ".."}) {
                    sb.append(' ').append(rejected(b -> e.getValue().accept(b, n)));
                }
                h.line(sb.toString());
            }
            h.finish();
        });

        // Sessions with a gap of 0: records at one instant share a session, 1 ms apart they do
        // not.
        scenarios.put("session_gap_zero", out -> {
            StreamsBuilder b = new StreamsBuilder();
            showTo(b.stream("in", SS).groupByKey().windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ZERO, Duration.ofMillis(3)))
                .reduce((x, y) -> x + "+" + y, Materialized.<String, String, SessionStore<Bytes, byte[]>>as("g0").withCachingDisabled()),
                "out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.pipe("in", "a", "1", 5);
            h.pipe("in", "a", "2", 5);
            h.pipe("in", "a", "3", 6);
            h.pipe("in", "a", "4", 4);
            h.pipe("in", "a", "5", 6);
            h.pipe("in", "a", "6", 2);
            h.dropped();
            h.finish();
        });

        // Stream joins near Long.MAX_VALUE: windows whose ends would pass it, an outer join's
        // expiry there.
        scenarios.put("stream_join_near_long_max", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            JoinWindows w = JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(5), Duration.ofMillis(3));
            l.join(r, (x, y) -> x + "&" + y, w).to("out-inner", PSS);
            l.outerJoin(r, (x, y) -> show(x) + "&" + show(y), w).to("out-outer", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-inner", S, S).output("out-outer", S, S);
            long max = Long.MAX_VALUE;
            h.pipe("left", "a", "L20", max - 20);
            h.pipe("right", "a", "R17", max - 17);
            h.pipe("left", "b", "Lb4", max - 4);
            h.pipe("right", "a", "R2", max - 2);
            h.pipe("left", "a", "L0", max);
            h.pipe("right", "c", "Rc1", max - 1);
            h.dropped();
            h.finish();
        });

        // Store suppliers that do not fit: a window store of another window size or keeping
        // duplicates under a windowed count, a join store not keeping duplicates, windows of size 0.
        scenarios.put("store_suppliers_misfit", out -> {
            StreamsBuilder ok = new StreamsBuilder();
            ok.stream("in", SS).to("out", PSS);
            Harness h = new Harness(ok.build(), out).input("in", S, S).output("out", S, S);
            h.line("window store of another size: " + rejected(b -> b.stream("in", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                .count(Materialized.as(Stores.inMemoryWindowStore("w", Duration.ofMillis(100), Duration.ofMillis(7), false)))));
            h.line("window store keeping duplicates: " + rejected(b -> b.stream("in", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                .count(Materialized.as(Stores.inMemoryWindowStore("w", Duration.ofMillis(100), Duration.ofMillis(10), true)))));
            h.line("window store of short retention: " + rejected(b -> b.stream("in", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)))
                .count(Materialized.as(Stores.inMemoryWindowStore("w", Duration.ofMillis(12), Duration.ofMillis(10), false)))));
            h.line("join store not keeping duplicates: " + rejected(b -> b.stream("l", SS).join(b.stream("r", SS), (x, y) -> x + y,
                JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5)),
                org.apache.kafka.streams.kstream.StreamJoined.<String, String, String>with(
                    Stores.inMemoryWindowStore("j1", Duration.ofMillis(10), Duration.ofMillis(10), false),
                    Stores.inMemoryWindowStore("j2", Duration.ofMillis(10), Duration.ofMillis(10), true))).to("o", PSS)));
            h.line("join store of another window size: " + rejected(b -> b.stream("l", SS).join(b.stream("r", SS), (x, y) -> x + y,
                JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5)),
                org.apache.kafka.streams.kstream.StreamJoined.<String, String, String>with(
                    Stores.inMemoryWindowStore("j1", Duration.ofMillis(10), Duration.ofMillis(7), true),
                    Stores.inMemoryWindowStore("j2", Duration.ofMillis(10), Duration.ofMillis(10), true))).to("o", PSS)));
            h.line("tumbling size zero: " + rejected(b -> TimeWindows.ofSizeWithNoGrace(Duration.ZERO)));
            h.line("session grace negative: " + rejected(b -> SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(5), Duration.ofMillis(-1))));
            h.line("negative time limit applied: " + rejected(b -> b.table("t", SS).suppress(
                Suppressed.untilTimeLimit(Duration.ofMillis(-1), BufferConfig.unbounded())).toStream().to("o", PSS)));
            h.finish();
        });
    }
}
