package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.Suppressed.BufferConfig;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.ValueTransformerWithKey;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.ProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Scenarios of the seventeenth conformance hunt (tests/conformance/hunt17_scenarios_test.cpp
 * writes the same with kstreams): LRU stores under a count, stateful table transformers asked for
 * old values, a stream joined with its own count, sliding reduces out of order, outer table joins
 * regrouped, zero time limits, counts read back as a global table, foreign-key self joins, hopping
 * windows under a small cache, table groupings to null keys, join results aggregated, tables
 * merged through streams, process_values dedup into a table, split branches aggregated, partially
 * late hopping records, session merges without a cache.
 */
final class Hunt17Scenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Consumed<String, Long> SL = Consumed.with(Serdes.String(), Serdes.Long());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());
    static final Produced<String, Long> PSL = Produced.with(Serdes.String(), Serdes.Long());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    static <V> void showTo(KTable<Windowed<String>, V> t, String topic, Produced<String, V> p) {
        WindowKindScenarios.showTo(t, topic, p);
    }

    static Materialized<String, String, KeyValueStore<Bytes, byte[]>> uncached(String name) {
        return Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as(name).withCachingDisabled();
    }

    /** "value#n": n counts every call for the key (deletes too, which stay deletes). */
    static final class Calls implements ValueTransformerWithKey<String, String, String> {
        private KeyValueStore<String, Long> calls;

        @Override
        public void init(ProcessorContext context) {
            calls = context.getStateStore("calls");
        }

        @Override
        public String transform(String key, String value) {
            Long n = calls.get(key);
            long next = n == null ? 1 : n + 1;
            calls.put(key, next);
            return value == null ? null : value + "#" + next;
        }

        @Override
        public void close() { }
    }

    /** Forwards a value only when it differs from the key's last one (kept in "last"). */
    static final class Changed implements FixedKeyProcessor<String, String, String> {
        private FixedKeyProcessorContext<String, String> ctx;
        private KeyValueStore<String, String> last;

        @Override
        public void init(FixedKeyProcessorContext<String, String> c) {
            ctx = c;
            last = c.getStateStore("last");
        }

        @Override
        public void process(FixedKeyRecord<String, String> r) {
            String before = last.get(r.key());
            if (r.value() != null && r.value().equals(before)) return;
            last.put(r.key(), r.value());
            ctx.forward(r.withValue(r.value() == null ? null : r.value() + "<" + show(before)));
        }
    }

    /** Counts each key in a plain and a timestamped store (both LRU maps), forwards nothing. */
    static final class LruWriter implements org.apache.kafka.streams.processor.api.Processor<String, String, Void, Void> {
        private KeyValueStore<String, Long> plain;
        private org.apache.kafka.streams.state.TimestampedKeyValueStore<String, Long> stamped;

        @Override
        public void init(org.apache.kafka.streams.processor.api.ProcessorContext<Void, Void> c) {
            plain = c.getStateStore("lru-papi");
            stamped = c.getStateStore("lru-ts");
        }

        @Override
        public void process(org.apache.kafka.streams.processor.api.Record<String, String> r) {
            Long n = plain.get(r.key());
            plain.put(r.key(), n == null ? 1 : n + 1);
            org.apache.kafka.streams.state.ValueAndTimestamp<Long> m = stamped.get(r.key());
            stamped.put(r.key(), org.apache.kafka.streams.state.ValueAndTimestamp.make(m == null ? 1 : m.value() + 1, r.timestamp()));
        }
    }

    /** Runs the operation in the value ("put:v", "get", "del", "pia:v", "putall:k=v;k=v") on two
     * LRU stores of three entries, "lru-ops" and the cached "lru-ops-cached", and forwards what
     * each answered and then held ("all()" does not touch the recency order). */
    static final class LruOps implements org.apache.kafka.streams.processor.api.Processor<String, String, String, String> {
        private org.apache.kafka.streams.processor.api.ProcessorContext<String, String> ctx;
        private final List<KeyValueStore<String, String>> stores = new ArrayList<>();

        @Override
        public void init(org.apache.kafka.streams.processor.api.ProcessorContext<String, String> c) {
            ctx = c;
            stores.add(c.getStateStore("lru-ops"));
            stores.add(c.getStateStore("lru-ops-cached"));
        }

        static String op(KeyValueStore<String, String> s, String key, String value) {
            String[] p = value.split(":", 2);
            switch (p[0]) {
                case "put": s.put(key, p[1]); return "put";
                case "get": return "get=" + show(s.get(key));
                case "del": return "del=" + show(s.delete(key));
                case "pia": return "pia=" + show(s.putIfAbsent(key, p[1]));
                default: {
                    List<KeyValue<String, String>> all = new ArrayList<>();
                    for (String kv : p[1].split(";")) {
                        String[] e = kv.split("=", 2);
                        all.add(KeyValue.pair(e[0], e[1]));
                    }
                    s.putAll(all);
                    return "putall";
                }
            }
        }

        @Override
        public void process(org.apache.kafka.streams.processor.api.Record<String, String> r) {
            StringBuilder sb = new StringBuilder();
            for (KeyValueStore<String, String> s : stores) {
                sb.append(op(s, r.key(), r.value())).append(" [").append(Hunt15Scenarios.entries(s.all())).append("] ");
            }
            ctx.forward(r.withValue(sb.toString()));
        }
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // LRU maps of two entries: a count on one, cached and not (an evicted key starts again at
        // 1), and a processor's plain and timestamped stores on one. Only the plain store's
        // evictions write tombstones to its changelog: Kafka's logging layer listens to an LRU map
        // it wraps directly, not to one behind the timestamped adapter (the DSL's stores).
        scenarios.put("lru_map_count", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.lruMap("lru-papi", 2), Serdes.String(), Serdes.Long()));
            b.addStateStore(Stores.timestampedKeyValueStoreBuilder(Stores.lruMap("lru-ts", 2), Serdes.String(), Serdes.Long()));
            KStream<String, String> s = b.stream("in", SS);
            s.process(LruWriter::new, "lru-papi", "lru-ts");
            KGroupedStream<String, String> g = s.groupByKey();
            g.count(Materialized.<String, Long>as(Stores.lruMap("lru", 2))).toStream().to("out", PSL);
            g.count(Materialized.<String, Long>as(Stores.lruMap("lru-raw", 2)).withCachingDisabled()).toStream().to("out-raw", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, L).output("out-raw", S, L)
                .output("conformance-lru-changelog", S, L).output("conformance-lru-raw-changelog", S, L)
                .output("conformance-lru-papi-changelog", S, L).output("conformance-lru-ts-changelog", S, L);
            for (String[] r : new String[][] {{"a", "1"}, {"b", "2"}, {"a", "3"}, {"c", "4"}, {"b", "5"}, {"a", "6"}, {"c", "7"}, {"c", "8"}}) {
                h.pipe("in", r[0], "v", Long.parseLong(r[1]));
            }
            h.line("= lru " + Hunt15Scenarios.entries(h.driver().<String, Long>getKeyValueStore("lru").all())
                   + "| lru-raw " + Hunt15Scenarios.entries(h.driver().<String, Long>getKeyValueStore("lru-raw").all())
                   + "| lru-papi " + Hunt15Scenarios.entries(h.driver().<String, Long>getKeyValueStore("lru-papi").all())
                   + "| lru-ts " + Hunt15Scenarios.entries(h.driver().<String, Long>getTimestampedKeyValueStore("lru-ts").all()));
            h.finish();
        });

        // An unmaterialized stateful transformValues under a regrouping: the old value comes from
        // calling the transformer again (after the new one), so every update calls it twice; a
        // materialized one reads its old value from its store instead.
        scenarios.put("transform_values_stateful_old_values", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("calls"), Serdes.String(), Serdes.Long()));
            KTable<String, String> t = b.table("in", SS);
            KTable<String, String> v = t.transformValues(Calls::new, "calls");
            v.toStream().to("out-view", PSS);
            v.groupBy((k, x) -> KeyValue.pair(x.substring(0, 1), k + ":" + x), Grouped.with(Serdes.String(), Serdes.String()))
                .aggregate(() -> "", (k, x, agg) -> agg + "+" + x, (k, x, agg) -> agg + "-" + x, Materialized.with(Serdes.String(), Serdes.String()))
                .toStream().to("out-agg", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-view", S, S).output("out-agg", S, S);
            h.pipe("in", "k1", "a", 1);
            h.pipe("in", "k2", "a", 2);
            h.pipe("in", "k1", "b", 3);
            h.pipe("in", "k1", "b", 4);
            h.pipe("in", "k2", null, 5);
            h.pipe("in", "k3", null, 6);
            h.pipe("in", "k2", "c", 7);
            h.finish();
        });

        // A stream joined with its own count: a join downstream of the count sees it counted; a
        // join on a branch made before the count sees the count before it; cached and not.
        scenarios.put("stream_counted_then_joined", out -> {
            StreamsBuilder b = new StreamsBuilder();
            for (String topic : new String[] {"in", "in2"}) {
                KStream<String, String> s = b.stream(topic, SS);
                KStream<String, String> before = s.mapValues(x -> x);
                KTable<String, Long> c = topic.equals("in") ? s.groupByKey().count()
                    : s.groupByKey().count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>with(Serdes.String(), Serdes.Long()).withCachingDisabled());
                s.join(c, (x, n) -> x + "#" + n).to("out-after", PSS);
                before.join(c, (x, n) -> x + "#" + n).to("out-before", PSS);
                s.leftJoin(c, (x, n) -> x + "#" + show(n)).to("out-left", PSS);
            }
            Harness h = new Harness(b.build(), out).input("in", S, S).input("in2", S, S)
                .output("out-after", S, S).output("out-before", S, S).output("out-left", S, S);
            h.pipe("in", "a", "x1", 1);
            h.pipe("in", "a", "x2", 2);
            h.pipe("in2", "a", "y1", 3);
            h.pipe("in", "b", "x3", 4);
            h.pipe("in2", "a", "y2", 5);
            h.pipe("in2", "a", null, 6);
            h.pipe("in", null, "x4", 7);
            h.finish();
        });

        // A sliding-window reduce (difference 5, grace 10) of records out of order: which values
        // each new window combines, and in what order.
        scenarios.put("sliding_reduce_out_of_order", out -> {
            StreamsBuilder b = new StreamsBuilder();
            showTo(b.stream("in", SS).groupByKey().windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(5), Duration.ofMillis(10)))
                       .reduce((x, y) -> x + "+" + y), "out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.pipe("in", "a", "10", 10);
            h.pipe("in", "a", "3", 3);
            h.pipe("in", "a", "7", 7);
            h.pipe("in", "a", "12", 12);
            h.pipe("in", "a", "5", 5);
            h.pipe("in", "a", "16", 16);
            h.pipe("in", "a", "9", 9);
            h.pipe("in", "a", "10b", 10);
            h.finish();
        });

        // An outer table-table join regrouped: the subtractor sees the join's old results,
        // null-padded on either side.
        scenarios.put("table_outer_join_regroup", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> j = b.table("left", SS).outerJoin(b.table("right", SS), (x, y) -> show(x) + "|" + show(y));
            j.toStream().to("out-join", PSS);
            j.groupBy((k, v) -> KeyValue.pair(k.substring(0, 1), v), Grouped.with(Serdes.String(), Serdes.String()))
                .aggregate(() -> "", (k, v, agg) -> agg + "+" + v, (k, v, agg) -> agg + "-" + v, Materialized.with(Serdes.String(), Serdes.String()))
                .toStream().to("out-agg", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-join", S, S).output("out-agg", S, S);
            h.pipe("left", "a1", "L1", 1);
            h.pipe("right", "a1", "R1", 2);
            h.pipe("right", "a2", "R2", 3);
            h.pipe("left", "a1", null, 4);
            h.pipe("right", "a1", null, 5);
            h.pipe("left", "a2", "L2", 6);
            h.pipe("right", "a2", "R3", 7);
            h.finish();
        });

        // Suppression with a time limit of zero: a record leaves as soon as stream time reaches
        // its timestamp; an out-of-order one at once.
        scenarios.put("suppress_time_limit_zero", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", SS);
            t.suppress(Suppressed.untilTimeLimit(Duration.ZERO, BufferConfig.unbounded())).toStream().to("out", PSS);
            t.groupBy((k, v) -> KeyValue.pair(v, k)).count()
                .suppress(Suppressed.untilTimeLimit(Duration.ZERO, BufferConfig.maxRecords(1).emitEarlyWhenFull()))
                .toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("out-count", S, L);
            h.pipe("in", "a", "x", 5);
            h.pipe("in", "b", "x", 5);
            h.pipe("in", "a", "y", 3);
            h.pipe("in", "c", "y", 8);
            h.pipe("in", "b", null, 8);
            h.pipe("in", "a", "x", 9);
            h.finish();
        });

        // A count written to a topic that is read back as a global table, which a stream joins.
        scenarios.put("count_into_global_table", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", SS).groupByKey().count().toStream().to("counts", PSL);
            GlobalKTable<String, Long> g = b.globalTable("counts", SL);
            b.stream("q", SS).leftJoin(g, (k, v) -> v, (v, n) -> v + "#" + show(n)).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("q", S, S).output("counts", S, L).output("out", S, S);
            h.pipe("q", "q1", "a", 1);
            h.pipe("in", "a", "x", 2);
            h.pipe("q", "q2", "a", 3);
            h.pipe("in", "a", "x", 4);
            h.pipe("in", "b", "x", 5);
            h.pipe("q", "q3", "a", 6);
            h.pipe("q", "q4", "b", 7);
            h.finish();
        });

        // A foreign-key join of a table with itself: employees ("manager:name") and their
        // managers, updates reaching both sides of the join.
        scenarios.put("fk_self_join_managers", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> emp = b.table("emp", SS);
            emp.join(emp, FkJoinScenarios::fk, (e, m) -> e.substring(e.indexOf(':') + 1) + "->" + m.substring(m.indexOf(':') + 1))
                .toStream().to("out-inner", PSS);
            emp.leftJoin(emp, FkJoinScenarios::fk, (e, m) -> e.substring(e.indexOf(':') + 1) + "->" + (m == null ? "none" : m.substring(m.indexOf(':') + 1)))
                .toStream().to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("emp", S, S).output("out-inner", S, S).output("out-left", S, S);
            h.pipe("emp", "e1", "e2:ann", 1);
            h.pipe("emp", "e2", "e3:bob", 2);
            h.pipe("emp", "e3", "none:cy", 3);
            h.pipe("emp", "e2", "e1:bob", 4);
            h.pipe("emp", "e3", null, 5);
            h.pipe("emp", "e1", "e1:ann", 6);
            h.pipe("emp", "e2", "e3:bo", 7);
            h.finish();
        });

        // Hopping windows (size 10, advance 1) with a 900-byte cache: one record updates ten
        // windows of two stores, evicting entries mid-record.
        scenarios.put("hopping_many_windows_small_cache", out -> {
            Properties p = new Properties();
            p.put("statestore.cache.max.bytes", "900");
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            TimeWindows w = TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(20)).advanceBy(Duration.ofMillis(1));
            showTo(g.windowedBy(w).count(), "out-count", PSL);
            showTo(g.windowedBy(w).reduce((x, y) -> x + "+" + y), "out-reduce", PSS);
            Harness h = new Harness(b.build(), p, out).input("in", S, S).output("out-count", S, L).output("out-reduce", S, S);
            h.pipe("in", "a", "1", 10);
            h.pipe("in", "b", "2", 12);
            h.pipe("in", "a", "3", 15);
            h.pipe("in", "a", "4", 11);
            h.finish();
        });

        // A table grouping whose mapper gives a null key for some rows: those rows are left out
        // of the aggregation (and out of the subtraction when they move).
        scenarios.put("table_group_by_null_key", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("in", SS)
                .groupBy((k, v) -> KeyValue.pair(v.startsWith("n") ? null : v.substring(0, 1), k), Grouped.with(Serdes.String(), Serdes.String()))
                .aggregate(() -> "", (k, v, agg) -> agg + "+" + v, (k, v, agg) -> agg + "-" + v, Materialized.with(Serdes.String(), Serdes.String()))
                .toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k1", "n2", 2);
            h.pipe("in", "k2", "n3", 3);
            h.pipe("in", "k2", "b4", 4);
            h.pipe("in", "k1", "a5", 5);
            h.pipe("in", "k2", null, 6);
            h.dropped();
            h.finish();
        });

        // Stream-stream join results aggregated: an inner join's results reduced per key, an
        // outer join's results counted by their padding.
        scenarios.put("stream_join_results_aggregated", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            JoinWindows w = JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(5), Duration.ofMillis(3));
            l.join(r, (x, y) -> x + "&" + y, w).groupByKey().reduce((x, y) -> x + "," + y).toStream().to("out-reduce", PSS);
            l.outerJoin(r, (x, y) -> x == null ? "right-only" : y == null ? "left-only" : "both", w)
                .groupBy((k, v) -> v).count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-reduce", S, S).output("out-count", S, L);
            h.pipe("left", "a", "l1", 1);
            h.pipe("right", "a", "r4", 4);
            h.pipe("left", "b", "l5", 5);
            h.pipe("right", "a", "r2", 2);
            h.pipe("right", "c", "r10", 10);
            h.pipe("left", "a", "l8", 8);
            h.pipe("right", "b", "r20", 20);
            h.pipe("left", "a", "l30", 30);
            h.finish();
        });

        // Two tables merged through their streams back into a table, joined with one of them.
        scenarios.put("merged_tables_to_table", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t1 = b.table("t1", SS);
            KTable<String, String> t2 = b.table("t2", SS);
            KTable<String, String> m = t1.toStream().merge(t2.toStream()).toTable(Materialized.as("merged"));
            m.toStream().to("out-merged", PSS);
            m.leftJoin(t1, (x, y) -> x + "/" + show(y)).toStream().to("out-join", PSS);
            Harness h = new Harness(b.build(), out).input("t1", S, S).input("t2", S, S)
                .output("out-merged", S, S).output("out-join", S, S);
            h.pipe("t1", "a", "A1", 1);
            h.pipe("t2", "a", "B1", 2);
            h.pipe("t2", "b", "B2", 3);
            h.pipe("t1", "a", null, 4);
            h.pipe("t2", "b", null, 5);
            h.pipe("t1", "b", "A2", 6);
            h.pipe("t2", "a", "B3", 1);
            h.finish();
        });

        // process_values with a store that forwards only changes, into a table regrouped.
        scenarios.put("process_values_dedup_to_table", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("last"), Serdes.String(), Serdes.String()));
            KStream<String, String> changed = b.stream("in", SS).processValues(Changed::new, Named.as("changed"), "last");
            changed.to("out-changed", PSS);
            changed.toTable().groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k)).count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-changed", S, S).output("out-count", S, L);
            h.pipe("in", "k1", "a", 1);
            h.pipe("in", "k1", "a", 2);
            h.pipe("in", "k2", "a", 3);
            h.pipe("in", "k1", "b", 4);
            h.pipe("in", "k2", null, 5);
            h.pipe("in", "k2", null, 6);
            h.pipe("in", "k1", "b", 7);
            h.finish();
        });

        // Split branches each aggregated differently, their results merged into one topic.
        scenarios.put("split_branches_aggregated", out -> {
            StreamsBuilder b = new StreamsBuilder();
            Map<String, KStream<String, String>> br = b.stream("in", SS).split(Named.as("br-"))
                .branch((k, v) -> v.startsWith("c"), Branched.as("count"))
                .branch((k, v) -> v.startsWith("r"), Branched.as("reduce"))
                .defaultBranch(Branched.as("rest"));
            KStream<String, String> counted = br.get("br-count").groupByKey().count().toStream().mapValues(n -> "count=" + n);
            KStream<String, String> reduced = br.get("br-reduce").groupByKey().reduce((x, y) -> x + "+" + y).toStream().mapValues(v -> "reduce=" + v);
            KStream<String, String> windowed = br.get("br-rest").groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count()
                .toStream((wk, n) -> wk.key() + "@" + wk.window().start()).mapValues(n -> "window=" + n);
            counted.merge(reduced).merge(windowed).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.pipe("in", "a", "c1", 1);
            h.pipe("in", "a", "r2", 2);
            h.pipe("in", "a", "x3", 3);
            h.pipe("in", "a", "c4", 4);
            h.pipe("in", "b", "r5", 5);
            h.pipe("in", "a", "r6", 6);
            h.pipe("in", "a", "x12", 12);
            h.pipe("in", "a", "x7", 7);
            h.finish();
        });

        // Records late for some of their hopping windows but not others: each closed window drops
        // the record (and counts it) while the open ones take it.
        scenarios.put("hopping_partially_late_dropped", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(2)).advanceBy(Duration.ofMillis(3))).count(),
                   "out", PSL);
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(4), Duration.ofMillis(2))).count(), "out-sliding", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, L).output("out-sliding", S, L);
            h.pipe("in", "a", "1", 10);
            h.pipe("in", "a", "2", 20);
            h.dropped();
            h.pipe("in", "a", "3", 12);
            h.dropped();
            h.pipe("in", "a", "4", 14);
            h.dropped();
            h.pipe("in", "a", "5", 17);
            h.dropped();
            h.finish();
        });

        // Session merges without a cache, values of one record (flat_map_values) at one instant.
        scenarios.put("session_same_instant_uncached", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).flatMapValues(v -> Main.split(v, ",")).groupByKey();
            showTo(g.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(5), Duration.ofMillis(5)))
                       .reduce((x, y) -> x + "+" + y, Materialized.<String, String, org.apache.kafka.streams.state.SessionStore<Bytes, byte[]>>as("sess").withCachingDisabled()), "out", PSS);
            showTo(g.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(5), Duration.ofMillis(5)))
                       .reduce((x, y) -> x + "+" + y, Materialized.as("sess-cached")), "out-cached", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("out-cached", S, S);
            h.pipe("in", "a", "1,2", 1);
            h.pipe("in", "a", "3", 10);
            h.pipe("in", "a", "4,5,6", 5);
            h.pipe("in", "b", "7,8", 3);
            h.pipe("in", "a", "9", 1);
            h.finish();
        });

        // A table aggregation with an initializer that is not empty; its adder and subtractor
        // answer null at some points (the row is deleted, and starts again from the initializer).
        scenarios.put("table_aggregate_init_null_results", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("in", SS).groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), v), Grouped.with(Serdes.String(), Serdes.String()))
                .aggregate(() -> "init",
                           (k, v, agg) -> v.endsWith("!") ? null : agg + "+" + v,
                           (k, v, agg) -> agg.equals("init+" + v) ? null : agg + "-" + v,
                           Materialized.with(Serdes.String(), Serdes.String()))
                .toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k2", "a2", 2);
            h.pipe("in", "k1", "b1", 3);
            h.pipe("in", "k2", "a2!", 4);
            h.pipe("in", "k3", "a3", 5);
            h.pipe("in", "k1", null, 6);
            h.pipe("in", "k3", null, 7);
            h.finish();
        });

        // to_table with an uncached store and tombstones, regrouped into a reduce.
        scenarios.put("to_table_uncached_regrouped", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.stream("in", SS).toTable(Named.as("tt"), uncached("tt-store"));
            t.toStream().to("out-table", PSS);
            t.groupBy((k, v) -> KeyValue.pair(v, k)).reduce((x, y) -> x + "," + y, (x, y) -> x + "-" + y).toStream().to("out-reduce", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-table", S, S).output("out-reduce", S, S);
            h.pipe("in", "k1", "x", 1);
            h.pipe("in", "k2", "x", 2);
            h.pipe("in", "k1", "x", 3);
            h.pipe("in", "k1", null, 4);
            h.pipe("in", "k1", null, 5);
            h.pipe("in", "k2", "y", 6);
            h.pipe("in", null, "z", 7);
            h.finish();
        });

        // Two re-keyed counts joined (both repartitioned into one task), outer.
        scenarios.put("rekeyed_counts_outer_joined", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, Long> c1 = b.stream("in1", SS).groupBy((k, v) -> v).count();
            KTable<String, Long> c2 = b.stream("in2", SS).groupBy((k, v) -> v).count(Materialized.with(Serdes.String(), Serdes.Long()));
            c1.outerJoin(c2, (x, y) -> show(x) + ":" + show(y)).toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, S).output("out", S, S);
            h.pipe("in1", "k1", "a", 1);
            h.pipe("in2", "k2", "a", 2);
            h.pipe("in2", "k3", "b", 3);
            h.pipe("in1", "k4", "a", 4);
            h.pipe("in2", "k5", "a", 5);
            h.finish();
        });

        // A windowed count's changes re-counted: how many times each window changed, by key.
        scenarios.put("windowed_changes_counted", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<Windowed<String>, Long> c = b.stream("in", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5))).count();
            c.toStream().groupBy((w, n) -> w.key() + "@" + w.window().start(), Grouped.with(Serdes.String(), Serdes.Long()))
                .count().toStream().to("out-changes", PSL);
            c.toStream().filter((w, n) -> n >= 2).map((w, n) -> KeyValue.pair(w.key(), w.window().start() + "=" + n))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String())).reduce((x, y) -> x + ";" + y).toStream().to("out-busy", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-changes", S, L).output("out-busy", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 3);
            h.pipe("in", "b", "3", 4);
            h.pipe("in", "a", "4", 12);
            h.pipe("in", "a", "5", 6);
            h.pipe("in", "b", "6", 14);
            h.pipe("in", "a", "7", 30);
            h.pipe("in", "a", "8", 8);
            h.finish();
        });

        // A left table-table join of an unmaterialized filter view: the filter's old values come
        // through the join (its tombstones for rows that fail), into a materialized, uncached result.
        scenarios.put("filtered_view_left_joined", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> f = b.table("left", SS).filter((k, v) -> !v.startsWith("x"));
            KTable<String, String> j = f.leftJoin(b.table("right", SS), (x, y) -> x + "/" + show(y), uncached("joined"));
            j.toStream().to("out-join", PSS);
            j.groupBy((k, v) -> KeyValue.pair(v.substring(v.indexOf('/') + 1), k)).count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-join", S, S).output("out-count", S, L);
            h.pipe("left", "a", "x1", 1);
            h.pipe("left", "a", "v2", 2);
            h.pipe("right", "a", "R", 3);
            h.pipe("left", "b", "v4", 4);
            h.pipe("left", "a", "x5", 5);
            h.pipe("right", "b", "R", 6);
            h.pipe("left", "b", null, 7);
            h.pipe("left", "a", "v8", 8);
            h.finish();
        });

        // A suppressed table (time limit) into a windowed count of its updates.
        scenarios.put("suppressed_table_windowed_count", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> sup = b.table("in", SS).suppress(Suppressed.untilTimeLimit(Duration.ofMillis(4), BufferConfig.unbounded()));
            sup.toStream().to("out-sup", PSS);
            showTo(sup.toStream().groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(), "out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-sup", S, S).output("out-count", S, L);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 3);
            h.pipe("in", "b", "3", 6);
            h.pipe("in", "a", null, 7);
            h.pipe("in", "b", "4", 9);
            h.pipe("in", "c", "5", 15);
            h.pipe("in", "a", "6", 11);
            h.pipe("in", "c", "7", 30);
            h.finish();
        });

        // Stream-table joins against a table aggregated from the same stream through a
        // repartition (the join sees the count only once it came back), and a self-enrichment
        // with the previous value (table from the stream's own topic read by a second source).
        scenarios.put("stream_joined_with_rekeyed_count", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            KTable<String, Long> byValue = s.groupBy((k, v) -> v).count();
            s.selectKey((k, v) -> v).join(byValue, (v, n) -> v + "#" + n).to("out-join", PSS);
            s.selectKey((k, v) -> v).leftJoin(byValue, (v, n) -> v + "#" + show(n)).to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-join", S, S).output("out-left", S, S);
            h.pipe("in", "k1", "a", 1);
            h.pipe("in", "k2", "a", 2);
            h.pipe("in", "k3", "b", 3);
            h.pipe("in", "k1", "a", 4);
            h.finish();
        });

        // A session window aggregate with a merger, and an initializer that is not empty, under
        // emit on close; merges of two and three sessions.
        scenarios.put("session_aggregate_merger_on_close", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            SessionWindows w = SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(4), Duration.ofMillis(2));
            showTo(g.windowedBy(w).aggregate(() -> "i", (k, v, agg) -> agg + "+" + v, (k, x, y) -> "(" + x + "|" + y + ")",
                                             Materialized.with(Serdes.String(), Serdes.String())), "out-update", PSS);
            showTo(g.windowedBy(w).emitStrategy(org.apache.kafka.streams.kstream.EmitStrategy.onWindowClose())
                       .aggregate(() -> "i", (k, v, agg) -> agg + "+" + v, (k, x, y) -> "(" + x + "|" + y + ")",
                                  Materialized.with(Serdes.String(), Serdes.String())), "out-close", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-update", S, S).output("out-close", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 10);
            h.pipe("in", "a", "3", 6);
            h.pipe("in", "b", "4", 12);
            h.pipe("in", "a", "5", 20);
            h.pipe("in", "a", "6", 16);
            h.pipe("in", "b", "7", 30);
            h.finish();
        });

        // Counts of a table's values whose rows flip between values and back, uncached and
        // cached, with a filter on the count (old values through the filter).
        scenarios.put("table_count_filtered_flips", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, Long> c = b.table("in", SS).groupBy((k, v) -> KeyValue.pair(v, k)).count();
            c.toStream().to("out-count", PSL);
            c.filter((k, n) -> n >= 2).toStream().to("out-filter", PSL);
            c.filter((k, n) -> n >= 2).groupBy((k, n) -> KeyValue.pair("busy", k), Grouped.with(Serdes.String(), Serdes.String()))
                .count().toStream().to("out-busy", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-count", S, L).output("out-filter", S, L).output("out-busy", S, L);
            h.pipe("in", "k1", "x", 1);
            h.pipe("in", "k2", "x", 2);
            h.pipe("in", "k3", "y", 3);
            h.pipe("in", "k2", "y", 4);
            h.pipe("in", "k1", "y", 5);
            h.pipe("in", "k2", "x", 6);
            h.pipe("in", "k3", null, 7);
            h.finish();
        });

        // Counts given an unnamed Materialized (serdes only) on every kind of grouping: the
        // generated names after each show which ones use up an extra index.
        scenarios.put("count_unnamed_materialized_names", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            g.count(Materialized.with(Serdes.String(), Serdes.Long())).toStream().to("out-count", PSL);
            g.count(Named.as("named-count"), Materialized.with(Serdes.String(), Serdes.Long())).toStream().to("out-named", PSL);
            g.count(Named.as("named-only")).toStream().to("out-named-only", PSL);
            g.count(Materialized.as(Materialized.StoreType.IN_MEMORY)).toStream().to("out-in-memory", PSL);
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                       .count(Materialized.<String, Long, org.apache.kafka.streams.state.WindowStore<Bytes, byte[]>>with(Serdes.String(), Serdes.Long())),
                   "out-time", PSL);
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10)))
                       .count(Materialized.<String, Long, org.apache.kafka.streams.state.WindowStore<Bytes, byte[]>>with(Serdes.String(), Serdes.Long())),
                   "out-sliding", PSL);
            showTo(g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(10)))
                       .count(Materialized.<String, Long, org.apache.kafka.streams.state.SessionStore<Bytes, byte[]>>with(Serdes.String(), Serdes.Long())),
                   "out-session", PSL);
            b.table("tin", SS).groupBy((k, v) -> KeyValue.pair(v, k)).count(Materialized.with(Serdes.String(), Serdes.Long()))
                .toStream().to("out-table", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tin", S, S)
                .output("out-count", S, L).output("out-named", S, L).output("out-named-only", S, L).output("out-in-memory", S, L)
                .output("out-time", S, L)
                .output("out-sliding", S, L).output("out-session", S, L).output("out-table", S, L);
            h.pipe("in", "a", "x", 1);
            h.pipe("tin", "k", "v", 2);
            h.finish();
        });

        // Reduces, aggregates, cogroups and to_table given an unnamed Materialized (serdes only)
        // on every kind of grouping and window: the generated names show the indexes each uses.
        scenarios.put("stream_aggregations_unnamed_materialized", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            KGroupedStream<String, String> g = s.groupByKey();
            g.reduce((x, y) -> x + "+" + y, Materialized.with(Serdes.String(), Serdes.String())).toStream().to("out-reduce", PSS);
            g.aggregate(() -> "", (k, v, agg) -> agg + v, Materialized.with(Serdes.String(), Serdes.String())).toStream().to("out-agg", PSS);
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                       .reduce((x, y) -> x + "+" + y, Materialized.<String, String, org.apache.kafka.streams.state.WindowStore<Bytes, byte[]>>with(Serdes.String(), Serdes.String())),
                   "out-time", PSS);
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10)))
                       .aggregate(() -> "", (k, v, agg) -> agg + v, Materialized.<String, String, org.apache.kafka.streams.state.WindowStore<Bytes, byte[]>>with(Serdes.String(), Serdes.String())),
                   "out-sliding", PSS);
            showTo(g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(10)))
                       .aggregate(() -> "", (k, v, agg) -> agg + v, (k, x, y) -> x + y,
                                  Materialized.<String, String, org.apache.kafka.streams.state.SessionStore<Bytes, byte[]>>with(Serdes.String(), Serdes.String())),
                   "out-session", PSS);
            g.cogroup((String k, String v, String agg) -> agg + v).aggregate(() -> "", Materialized.with(Serdes.String(), Serdes.String()))
                .toStream().to("out-cogroup", PSS);
            s.toTable(Materialized.with(Serdes.String(), Serdes.String())).toStream().to("out-table", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-reduce", S, S).output("out-agg", S, S).output("out-time", S, S).output("out-sliding", S, S)
                .output("out-session", S, S).output("out-cogroup", S, S).output("out-table", S, S);
            h.pipe("in", "a", "x", 1);
            h.finish();
        });

        // Tables on LRU maps of two entries (a source uncached, a filter cached) read by
        // stream-table joins: an evicted key reads as absent; the table's own changelog and
        // output are untouched by evictions.
        scenarios.put("lru_table_source_joined", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("tin", SS, Materialized.<String, String>as(Stores.lruMap("t-lru", 2)).withCachingDisabled());
            t.toStream().to("out-table", PSS);
            KTable<String, String> f = t.filter((k, v) -> !v.startsWith("x"), Materialized.<String, String>as(Stores.lruMap("f-lru", 2)));
            KStream<String, String> q = b.stream("q", SS);
            q.leftJoin(t, (v, x) -> v + "=" + show(x)).to("out-join", PSS);
            q.leftJoin(f, (v, x) -> v + "=" + show(x)).to("out-filter-join", PSS);
            Harness h = new Harness(b.build(), out).input("tin", S, S).input("q", S, S)
                .output("out-table", S, S).output("out-join", S, S).output("out-filter-join", S, S)
                .output("conformance-t-lru-changelog", S, S).output("conformance-f-lru-changelog", S, S);
            h.pipe("tin", "a", "A", 1);
            h.pipe("tin", "b", "B", 2);
            h.pipe("q", "a", "q1", 3);
            h.pipe("tin", "c", "C", 4);
            h.pipe("q", "b", "q2", 5);
            h.pipe("q", "a", "q3", 6);
            h.pipe("tin", "a", "xA", 7);
            h.pipe("q", "c", "q4", 8);
            h.pipe("q", "a", "q5", 9);
            h.line("= t-lru " + Hunt15Scenarios.entries(h.driver().<String, String>getKeyValueStore("t-lru").all())
                   + "| f-lru " + Hunt15Scenarios.entries(h.driver().<String, String>getKeyValueStore("f-lru").all()));
            h.finish();
        });

        // A processor's LRU stores of three entries, uncached and cached, under every operation:
        // which reads and writes make an entry recent, what each eviction logs. The cached store
        // reads its cache, so its map sees only the flushed writes.
        scenarios.put("lru_papi_operations", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.lruMap("lru-ops", 3), Serdes.String(), Serdes.String()));
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.lruMap("lru-ops-cached", 3), Serdes.String(), Serdes.String()).withCachingEnabled());
            b.stream("in", SS).process(LruOps::new, "lru-ops", "lru-ops-cached").to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S)
                .output("conformance-lru-ops-changelog", S, S).output("conformance-lru-ops-cached-changelog", S, S);
            h.pipe("in", "a", "put:1", 1);
            h.pipe("in", "b", "put:2", 2);
            h.pipe("in", "c", "put:3", 3);
            h.pipe("in", "a", "get", 4);
            h.pipe("in", "d", "put:4", 5);
            h.pipe("in", "c", "pia:9", 6);
            h.pipe("in", "e", "pia:5", 7);
            h.pipe("in", "a", "del", 8);
            h.pipe("in", "f", "putall:f=6;g=7;c=8", 9);
            h.pipe("in", "b", "get", 10);
            h.pipe("in", "x", "del", 11);
            h.pipe("in", "e", "put:50", 12);
            h.pipe("in", "h", "put:8", 13);
            h.finish();
        });

        // A table regrouped into a count and a reduce kept on LRU maps of two entries (uncached):
        // a row evicted from the aggregate starts again from nothing, and the subtractor of a
        // later move finds no aggregate to take from.
        scenarios.put("lru_table_aggregates", out -> {
            StreamsBuilder b = new StreamsBuilder();
            org.apache.kafka.streams.kstream.KGroupedTable<String, String> g = b.table("in", SS).groupBy((k, v) -> KeyValue.pair(v, k));
            g.count(Materialized.<String, Long>as(Stores.lruMap("cnt-lru", 2)).withCachingDisabled()).toStream().to("out-count", PSL);
            g.reduce((x, y) -> x + "," + y, (x, y) -> x + "-" + y, Materialized.<String, String>as(Stores.lruMap("red-lru", 2)).withCachingDisabled())
                .toStream().to("out-reduce", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-reduce", S, S);
            h.pipe("in", "k1", "x", 1);
            h.pipe("in", "k2", "y", 2);
            h.pipe("in", "k3", "x", 3);
            h.pipe("in", "k4", "z", 4);
            h.pipe("in", "k1", "y", 5);
            h.pipe("in", "k3", "z", 6);
            h.pipe("in", "k5", "x", 7);
            h.pipe("in", "k2", null, 8);
            h.finish();
        });

        // flat_map_values that empties some records, before a cached count and after a re-key.
        scenarios.put("flat_map_values_empty_counted", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> words = b.stream("in", SS).flatMapValues(v -> {
                List<String> r = new ArrayList<>();
                for (String w : Main.split(v, " ")) if (!w.isEmpty()) r.add(w);
                return r;
            });
            words.groupByKey().count().toStream().to("out-per-key", PSL);
            words.groupBy((k, w) -> w).count().toStream().to("out-per-word", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-per-key", S, L).output("out-per-word", S, L);
            h.pipe("in", "a", "x y x", 1);
            h.pipe("in", "a", "", 2);
            h.pipe("in", "b", "   ", 3);
            h.pipe("in", "b", "y", 4);
            h.pipe("in", null, "x", 5);
            h.pipe("in", "a", "z  z", 6);
            h.finish();
        });
    }

    private Hunt17Scenarios() { }
}
