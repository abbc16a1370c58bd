package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.Joined;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.Suppressed.BufferConfig;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Scenarios of the nineteenth conformance hunt (tests/conformance/hunt19_scenarios_test.cpp writes
 * the same with kstreams): sessions merged out of order under suppression and emission on close;
 * suppression bounded by records and bytes (early emission, shutdown); cogroups of three streams
 * over hopping and session windows; table joins over versioned stores; foreign keys moving back
 * and forth under a cached result; stream joins against versioned tables with grace; global joins
 * whose key mapper returns null; merge, repartition and to_table chains; split branches joined;
 * unmaterialized table views feeding aggregations; flat_map with headers into windows; Processor
 * API stores flushed by punctuations; null keys and values at tables and windows; generated names.
 */
final class Hunt19Scenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());
    static final Produced<String, Long> PSL = Produced.with(Serdes.String(), Serdes.Long());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    static void showTo(KTable<org.apache.kafka.streams.kstream.Windowed<String>, String> t, String topic) {
        WindowKindScenarios.showTo(t, topic, PSS);
    }

    static void showCount(KTable<org.apache.kafka.streams.kstream.Windowed<String>, Long> t, String topic) {
        WindowKindScenarios.showTo(t, topic, PSL);
    }

    static String slash(String k, String v, String agg) { return agg + "/" + v; }

    static String plus(String k, String v, String agg) { return agg + "+" + v; }

    static String minus(String k, String v, String agg) { return agg + "-" + v; }

    static String merge(String k, String a, String b) { return a + "|" + b; }

    /** Session inputs out of order: merges of two and three, the grace boundary, another key. */
    static void sessionsOutOfOrder(Harness h) {
        h.pipe("in", "a", "10", 10);
        h.pipe("in", "a", "20", 20);
        h.pipe("in", "b", "12", 12);
        h.pipe("in", "a", "15", 15);
        h.pipe("in", "a", "28", 28);
        h.pipe("in", "b", "30", 30);
        h.pipe("in", "a", "3", 3);
        h.pipe("in", "a", "24", 24);
        h.pipe("in", "a", "40", 40);
        h.pipe("in", "b", "19", 19);
        h.pipe("in", "b", "60", 60);
        h.pipe("in", "a", "35", 35);
        h.pipe("in", "a", "90", 90);
    }

    /** Stream-time punctuation every 5 ms: forwards each stored key's sum, then deletes it. */
    static final class Summer implements Processor<String, String, String, Long> {
        private final PunctuationType type;
        private ProcessorContext<String, Long> ctx;
        private KeyValueStore<String, Long> sums;

        Summer(PunctuationType type) {
            this.type = type;
        }

        @Override
        public void init(ProcessorContext<String, Long> context) {
            ctx = context;
            sums = context.getStateStore("sums");
            context.schedule(Duration.ofMillis(5), type, t -> {
                List<String> keys = new ArrayList<>();
                try (KeyValueIterator<String, Long> it = sums.all()) {
                    while (it.hasNext()) {
                        KeyValue<String, Long> kv = it.next();
                        keys.add(kv.key);
                        ctx.forward(new Record<>(kv.key, kv.value, t));
                    }
                }
                for (String k : keys) sums.delete(k);
            });
        }

        @Override
        public void process(Record<String, String> r) {
            if (r.key() == null || r.value() == null) return;
            Long old = sums.get(r.key());
            sums.put(r.key(), (old == null ? 0 : old) + r.value().length());
        }
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // Sessions of 5 ms gaps with 3 ms grace merged out of order, through the record cache.
        scenarios.put("session_cached_merges_out_of_order", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            SessionWindows w = SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(5), Duration.ofMillis(3));
            showCount(g.windowedBy(w).count(Materialized.as("sess-count")), "out-count");
            showTo(g.windowedBy(w).reduce((a, c) -> a + "," + c), "out-reduce");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-reduce", S, S);
            sessionsOutOfOrder(h);
            h.finish();
        });

        // A table grouping's reduce suppressed by a byte bound with early emission: the buffer
        // holds the prior value as well as the new one, and headers count too.
        scenarios.put("suppress_max_bytes_table_regroup", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("in", SS).groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k))
                .reduce((a, c) -> a + c, (a, c) -> a.replace(c, ""))
                .suppress(Suppressed.untilTimeLimit(Duration.ofMillis(20), BufferConfig.maxBytes(170).emitEarlyWhenFull()))
                .toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k2", "b1", 2, "h=x");
            h.pipe("in", "k3", "c1", 3);
            h.pipe("in", "k1", "b2", 4, "h=yy");
            h.pipe("in", "k4", "a2", 5);
            h.pipe("in", "k2", null, 6);
            h.pipe("in", "k5", "d1", 30);
            h.pipe("in", "k6", "d2", 31, "hh=zzz");
            h.finish();
        });

        // Hopping windows counted and suppressed by a record bound with early emission.
        scenarios.put("suppress_hopping_max_records_early", out -> {
            StreamsBuilder b = new StreamsBuilder();
            showCount(b.stream("in", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)).advanceBy(Duration.ofMillis(5)))
                .count()
                .suppress(Suppressed.untilTimeLimit(Duration.ofMillis(6), BufferConfig.maxRecords(2).emitEarlyWhenFull())), "out");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, L);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 7);
            h.pipe("in", "b", "3", 8);
            h.pipe("in", "a", "4", 3);
            h.pipe("in", "b", "5", 16);
            h.pipe("in", "a", "6", 25);
            h.pipe("in", "a", "7", 12);
            h.pipe("in", "c", "8", 40);
            h.finish();
        });

        // A time-limited suppression with a one-record bound that shuts down when full.
        scenarios.put("suppress_shutdown_when_full_time_limit", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", SS).groupByKey().count()
                .suppress(Suppressed.untilTimeLimit(Duration.ofMillis(10), BufferConfig.maxRecords(1).shutDownWhenFull()))
                .toStream().to("out", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, L);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 2);
            h.pipe("in", "a", "3", 12);
            try {
                h.pipe("in", "b", "4", 13);
            } catch (RuntimeException e) {
                h.line("! failed");
            }
            h.finish();
        });

        // Three streams (one re-keyed) cogrouped over hopping windows with grace, cached.
        scenarios.put("cogroup_hopping_three_streams", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g1 = b.stream("in1", SS).groupByKey();
            KGroupedStream<String, String> g2 = b.stream("in2", SS).groupByKey();
            KGroupedStream<String, String> g3 = b.stream("in3", SS).groupBy((k, v) -> v.substring(0, 1));
            showTo(g1.cogroup((String k, String v, String agg) -> agg + "1" + v)
                .cogroup(g2, (k, v, agg) -> agg + "2" + v)
                .cogroup(g3, (k, v, agg) -> agg + "3" + v)
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(2)).advanceBy(Duration.ofMillis(5)))
                .aggregate(() -> "", Named.as("cg"), Materialized.as("cg-hop")), "out");
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, S).input("in3", S, S).output("out", S, S);
            h.pipe("in1", "a", "p", 1);
            h.pipe("in2", "a", "q", 6);
            h.pipe("in3", "x", "ar", 4);
            h.pipe("in1", "b", "s", 9);
            h.pipe("in3", "y", "bt", 12);
            h.pipe("in2", "a", "u", 3);
            h.pipe("in1", "a", "v", 20);
            h.pipe("in2", "a", "w", 11);
            h.pipe("in3", null, "ax", 21);
            h.pipe("in1", null, "n", 22);
            h.dropped();
            h.finish();
        });

        // Two streams cogrouped over sessions without a cache, merged out of order across streams.
        scenarios.put("cogroup_sessions_out_of_order_uncached", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g1 = b.stream("in1", SS).groupByKey();
            KGroupedStream<String, String> g2 = b.stream("in2", SS).groupByKey();
            showTo(g1.cogroup((String k, String v, String agg) -> agg + "1" + v)
                .cogroup(g2, (k, v, agg) -> agg + "2" + v)
                .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(4), Duration.ofMillis(1)))
                .aggregate(() -> "", Hunt19Scenarios::merge,
                    Materialized.<String, String, org.apache.kafka.streams.state.SessionStore<Bytes, byte[]>>as("cg-sess")
                        .withCachingDisabled()), "out");
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, S).output("out", S, S);
            h.pipe("in1", "a", "p", 10);
            h.pipe("in2", "a", "q", 18);
            h.pipe("in2", "a", "r", 14);
            h.pipe("in1", "a", "s", 5);
            h.pipe("in1", "a", "t", 30);
            h.pipe("in2", "a", "u", 22);
            h.pipe("in2", "a", "late", 20);
            h.dropped();
            h.finish();
        });

        // A cogroup of a local and a re-keyed stream, unwindowed, suppressed by a time limit.
        scenarios.put("cogroup_rekeyed_time_limit", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g1 = b.stream("in1", SS).groupByKey();
            KGroupedStream<String, String> g2 = b.stream("in2", SS).groupBy((k, v) -> v.substring(0, 1));
            g1.cogroup((String k, String v, String agg) -> agg + "1" + v)
                .cogroup(g2, (k, v, agg) -> agg + "2" + v)
                .aggregate(() -> "")
                .suppress(Suppressed.untilTimeLimit(Duration.ofMillis(5), BufferConfig.unbounded()))
                .toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, S).output("out", S, S);
            h.pipe("in1", "a", "p", 1);
            h.pipe("in2", "k", "aq", 2);
            h.pipe("in1", "b", "r", 3);
            h.pipe("in2", "k", "bs", 7);
            h.pipe("in1", "a", "t", 9);
            h.pipe("in2", "k", "az", 20);
            h.finish();
        });

        // Table-table left and outer joins over two versioned tables, with out-of-order updates.
        scenarios.put("table_joins_versioned_out_of_order", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> left = b.table("left", SS, Materialized.as(Stores.persistentVersionedKeyValueStore("lv", Duration.ofMillis(30))));
            KTable<String, String> right = b.table("right", SS, Materialized.as(Stores.persistentVersionedKeyValueStore("rv", Duration.ofMillis(30))));
            left.leftJoin(right, (a, c) -> a + "|" + show(c)).toStream().to("out-left", PSS);
            left.outerJoin(right, (a, c) -> show(a) + "|" + show(c), Materialized.as("outer-res")).toStream().to("out-outer", PSS);
            left.join(right, (a, c) -> a + "|" + c).groupBy((k, v) -> KeyValue.pair(v.substring(0, 2), k)).count()
                .toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-left", S, S).output("out-outer", S, S).output("out-count", S, L);
            h.pipe("left", "a", "L1", 10);
            h.pipe("right", "a", "R1", 12);
            h.pipe("left", "a", "L0", 5);
            h.pipe("right", "a", "R0", 11);
            h.pipe("left", "b", "L2", 20);
            h.pipe("right", "a", null, 25);
            h.pipe("right", "a", "R2", 22);
            h.pipe("left", "a", "L3", 30);
            h.pipe("right", "b", "R3", 18);
            h.pipe("left", "b", null, 40);
            h.pipe("left", "b", "L4", 35);
            h.pipe("right", "c", null, 41);
            h.finish();
        });

        // Foreign keys moving back and forth (and away, and to none) under a cached left-join
        // result and an uncached inner join.
        scenarios.put("fk_join_back_and_forth_cached", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS);
            KTable<String, String> customers = b.table("customers", SS);
            orders.leftJoin(customers, FkJoinScenarios::fk, (o, c) -> o + "/" + show(c), Materialized.as("fk-left"))
                .toStream().to("out-left", PSS);
            orders.join(customers, FkJoinScenarios::fk, (o, c) -> o + "/" + c,
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("fk-inner").withCachingDisabled())
                .toStream().to("out-inner", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S)
                .output("out-left", S, S).output("out-inner", S, S);
            h.pipe("customers", "c1", "Ann", 1);
            h.pipe("orders", "o1", "c1:a", 2);
            h.pipe("orders", "o1", "c2:a", 3);
            h.pipe("orders", "o1", "c1:a", 4);
            h.pipe("customers", "c2", "Ben", 5);
            h.pipe("orders", "o1", "c2:b", 6);
            h.pipe("orders", "o1", "none", 7);
            h.pipe("orders", "o1", "c2:c", 8);
            h.pipe("customers", "c2", null, 9);
            h.pipe("orders", "o2", null, 10);
            h.pipe("orders", "o1", null, 11);
            h.pipe("orders", "o1", "c1:d", 12);
            h.pipe("customers", "c1", "Ann2", 13);
            h.finish();
        });

        // The same foreign key with changing values, a customer deleted and re-added.
        scenarios.put("fk_join_same_key_value_changes", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS);
            KTable<String, String> customers = b.table("customers", SS);
            orders.join(customers, FkJoinScenarios::fk, (o, c) -> o + "/" + c).toStream().to("out-inner", PSS);
            orders.leftJoin(customers, FkJoinScenarios::fk, (o, c) -> o + "/" + show(c))
                .groupBy((k, v) -> KeyValue.pair(v.substring(v.indexOf('/') + 1), k)).count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S)
                .output("out-inner", S, S).output("out-count", S, L);
            h.pipe("orders", "o1", "c1:a", 1);
            h.pipe("orders", "o1", "c1:b", 2);
            h.pipe("customers", "c1", "Ann", 3);
            h.pipe("orders", "o2", "c1:x", 4);
            h.pipe("orders", "o1", "c1:b", 5);
            h.pipe("customers", "c1", null, 6);
            h.pipe("orders", "o2", "c1:y", 7);
            h.pipe("customers", "c1", "Ann2", 8);
            h.pipe("customers", "c1", "Ann2", 9);
            h.pipe("orders", "o2", null, 10);
            h.finish();
        });

        // A stream joined to a versioned table with grace: out-of-order stream records wait in the
        // buffer and join the version valid at their time; too-late records are dropped.
        scenarios.put("stream_versioned_table_grace_out_of_order", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("t", SS, Materialized.as(Stores.persistentVersionedKeyValueStore("tv", Duration.ofMillis(100))));
            KStream<String, String> s = b.stream("s", SS);
            s.join(t, (v, u) -> v + "@" + u, Joined.<String, String, String>as("j").withGracePeriod(Duration.ofMillis(6))).to("out-inner", PSS);
            s.leftJoin(t, (v, u) -> v + "@" + show(u), Joined.<String, String, String>as("lj").withGracePeriod(Duration.ofMillis(6)))
                .to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("t", S, S).input("s", S, S).output("out-inner", S, S).output("out-left", S, S);
            h.pipe("t", "a", "A10", 10);
            h.pipe("s", "a", "s12", 12);
            h.pipe("t", "a", "A5", 5);
            h.pipe("s", "a", "s7", 7);
            h.pipe("s", "a", "s3", 3);
            h.pipe("t", "a", "A20", 20);
            h.pipe("s", "a", "s21", 21);
            h.pipe("s", "a", "s14", 14);
            h.pipe("s", "a", null, 23);
            h.pipe("s", "b", "sb", 24);
            h.pipe("s", "a", "s1", 1);
            h.pipe("t", "a", null, 30);
            h.pipe("s", "a", "s31", 31);
            h.pipe("s", "a", "s40", 40);
            h.dropped();
            h.finish();
        });

        // Global-table joins whose key mapper returns null, with null stream keys and values.
        scenarios.put("global_join_mapper_null", out -> {
            StreamsBuilder b = new StreamsBuilder();
            GlobalKTable<String, String> g = b.globalTable("glob", SS);
            KStream<String, String> s = b.stream("in", SS);
            s.join(g, (k, v) -> v == null || v.startsWith("-") ? null : v.substring(0, 1), (k, v, gv) -> show(k) + ":" + show(v) + "=" + gv)
                .to("out-inner", PSS);
            s.leftJoin(g, (k, v) -> v == null || v.startsWith("-") ? null : v.substring(0, 1), (v, gv) -> show(v) + "=" + show(gv))
                .groupByKey().count().toStream().to("out-left-count", PSL);
            s.leftJoin(g, (k, v) -> k, (v, gv) -> show(v) + "=" + show(gv)).to("out-by-key", PSS);
            Harness h = new Harness(b.build(), out).input("glob", S, S).input("in", S, S)
                .output("out-inner", S, S).output("out-left-count", S, L).output("out-by-key", S, S);
            h.pipe("glob", "x", "X", 1);
            h.pipe("glob", "k", "K", 1);
            h.pipe("in", "k", "xa", 2);
            h.pipe("in", "k", "-a", 3);
            h.pipe("in", null, "xb", 4);
            h.pipe("in", "k", null, 5);
            h.pipe("in", "j", "ya", 6);
            h.pipe("glob", "x", null, 7);
            h.pipe("in", "k", "xc", 8);
            h.dropped();
            h.finish();
        });

        // Two streams merged, repartitioned by name, made a table and joined with another table.
        scenarios.put("merge_repartition_to_table_join", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> m = b.stream("in1", SS).merge(b.stream("in2", SS).selectKey((k, v) -> v.substring(0, 1)));
            KTable<String, String> t = m.repartition(Repartitioned.as("merged")).toTable(Materialized.as("merged-table"));
            t.join(b.table("names", SS), (a, c) -> a + "&" + c).toStream().to("out-join", PSS);
            t.toStream().to("out-table", PSS);
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, S).input("names", S, S)
                .output("out-join", S, S).output("out-table", S, S);
            h.pipe("names", "a", "N", 1);
            h.pipe("in1", "a", "v1", 2);
            h.pipe("in2", "z", "a2", 3);
            h.pipe("in1", null, "v3", 4);
            h.pipe("in1", "a", null, 5);
            h.pipe("in2", "y", "b6", 6);
            h.pipe("names", "b", "M", 7);
            h.pipe("in1", "b", "v8", 8);
            h.finish();
        });

        // Stream null values become deletes through to_table, then a stream left-joins the table.
        scenarios.put("to_table_null_values_left_joined", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.stream("updates", SS).mapValues(v -> v == null || v.equals("del") ? null : v).toTable();
            b.stream("in", SS).leftJoin(t, (v, u) -> v + "=" + show(u)).to("out-left", PSS);
            t.toStream().to("out-table", PSS);
            t.groupBy((k, v) -> KeyValue.pair(v, k)).count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("updates", S, S).input("in", S, S)
                .output("out-left", S, S).output("out-table", S, S).output("out-count", S, L);
            h.pipe("updates", "a", "x", 1);
            h.pipe("in", "a", "1", 2);
            h.pipe("updates", "a", "del", 3);
            h.pipe("in", "a", "2", 4);
            h.pipe("updates", "b", null, 5);
            h.pipe("updates", "b", "x", 6);
            h.pipe("updates", "a", "x", 7);
            h.pipe("updates", null, "y", 8);
            h.pipe("in", "b", "3", 9);
            h.finish();
        });

        // Two re-keyed streams repartitioned separately, merged, and counted in windows.
        scenarios.put("repartitioned_merge_windowed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> r1 = b.stream("in1", SS).selectKey((k, v) -> v.substring(0, 1)).repartition();
            KStream<String, String> r2 = b.stream("in2", SS).selectKey((k, v) -> v.substring(0, 1)).repartition(Repartitioned.as("r2"));
            showCount(r1.merge(r2).groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(), "out");
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, S).output("out", S, L);
            h.pipe("in1", "k", "a1", 1);
            h.pipe("in2", "k", "a2", 5);
            h.pipe("in1", "k", "b3", 11);
            h.pipe("in2", "k", "a4", 9);
            h.pipe("in2", null, "a5", 12);
            h.pipe("in1", "k", "a6", 22);
            h.dropped();
            h.finish();
        });

        // Split branches joined with each other and the default branch counted.
        scenarios.put("split_branches_joined", out -> {
            StreamsBuilder b = new StreamsBuilder();
            Map<String, KStream<String, String>> br = b.stream("in", SS).split(Named.as("s-"))
                .branch((k, v) -> v.startsWith("l"), Branched.as("left"))
                .branch((k, v) -> v.startsWith("r"), Branched.as("right"))
                .defaultBranch(Branched.withFunction(ks -> ks.filter((k, v) -> v.length() > 1), "rest"));
            br.get("s-left").outerJoin(br.get("s-right"), (a, c) -> show(a) + "+" + show(c),
                JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(3), Duration.ofMillis(1))).to("out-join", PSS);
            br.get("s-rest").groupByKey().count().toStream().to("out-rest", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-join", S, S).output("out-rest", S, L);
            h.pipe("in", "a", "l1", 1);
            h.pipe("in", "a", "r2", 2);
            h.pipe("in", "a", "xx", 3);
            h.pipe("in", "b", "l4", 4);
            h.pipe("in", "a", "x", 5);
            h.pipe("in", "a", "r9", 9);
            h.pipe("in", "b", "yy", 12);
            h.pipe("in", null, "zz", 13);
            h.finish();
        });

        // Unmaterialized filter and map_values views of a table feeding an aggregation, which
        // asks them for old values.
        scenarios.put("table_views_unmaterialized_aggregate", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> view = b.table("in", SS).filter((k, v) -> !v.startsWith("x")).mapValues(v -> v.toUpperCase());
            view.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k))
                .aggregate(() -> "", Hunt19Scenarios::plus, Hunt19Scenarios::minus,
                    Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("view-agg").withCachingDisabled())
                .toStream().to("out-agg", PSS);
            view.toStream().to("out-view", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-agg", S, S).output("out-view", S, S);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k2", "b1", 2);
            h.pipe("in", "k1", "xa", 3);
            h.pipe("in", "k3", "xb", 4);
            h.pipe("in", "k1", "b2", 5);
            h.pipe("in", "k2", null, 6);
            h.pipe("in", "k2", "a3", 7);
            h.pipe("in", "k4", null, 8);
            h.finish();
        });

        // map_values materialized, then a materialized filter, then a count of regrouped rows.
        scenarios.put("table_map_values_filter_materialized_count", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", SS)
                .mapValues(v -> v.length() > 2 ? null : v + v, Materialized.as("mv"))
                .filter((k, v) -> !v.startsWith("b"), Materialized.as("flt"));
            t.groupBy((k, v) -> KeyValue.pair(v, k)).count().toStream().to("out-count", PSL);
            t.toStream().to("out-table", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L).output("out-table", S, S);
            h.pipe("in", "k1", "a", 1);
            h.pipe("in", "k2", "a", 2);
            h.pipe("in", "k1", "long", 3);
            h.pipe("in", "k2", "b", 4);
            h.pipe("in", "k3", "c", 5);
            h.pipe("in", "k3", "c", 6);
            h.pipe("in", "k2", "a", 7);
            h.pipe("in", "k3", null, 8);
            h.finish();
        });

        // flat_map_values and flat_map keep each record's timestamp and headers, into windows.
        scenarios.put("flat_map_headers_windowed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            KStream<String, String> words = s.flatMapValues(v -> Main.split(v, " "));
            words.to("out-words", PSS);
            showCount(words.groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(), "out-count");
            s.flatMap((k, v) -> {
                List<KeyValue<String, String>> r = new ArrayList<>();
                for (String w : Main.split(v, " ")) r.add(KeyValue.pair(w, k));
                return r;
            }).groupByKey().reduce((a, c) -> a + c).toStream().to("out-by-word", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-words", S, S).output("out-count", S, L)
                .output("out-by-word", S, S);
            h.pipe("in", "a", "x y", 1, "h=1");
            h.pipe("in", "b", "y", 4, "h=2", "g=3");
            h.pipe("in", "a", "", 6);
            h.pipe("in", "a", "x x", 12, "h=4");
            h.finish();
        });

        // A Processor API store flushed by a stream-time punctuation into a reduce downstream.
        scenarios.put("papi_stream_time_flush_reduced", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("sums"), Serdes.String(), Serdes.Long()));
            KStream<String, Long> sums = b.stream("in", SS).process(() -> new Summer(PunctuationType.STREAM_TIME), "sums");
            sums.to("out-flush", PSL);
            sums.groupByKey(Grouped.with(Serdes.String(), Serdes.Long())).reduce(Long::sum).toStream().to("out-total", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-flush", S, L).output("out-total", S, L);
            h.pipe("in", "a", "xx", 1);
            h.pipe("in", "b", "y", 3);
            h.pipe("in", "a", "zzz", 4);
            h.pipe("in", "a", "w", 6);
            h.pipe("in", null, "n", 7);
            h.pipe("in", "b", "vv", 12);
            h.pipe("in", "c", "u", 2);
            h.pipe("in", "c", "t", 15);
            h.finish();
        });

        // The same store flushed by wall-clock punctuations into a windowed count.
        scenarios.put("papi_wall_clock_flush_windowed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("sums"), Serdes.String(), Serdes.Long()));
            KStream<String, Long> sums = b.stream("in", SS).process(() -> new Summer(PunctuationType.WALL_CLOCK_TIME), "sums");
            sums.to("out-flush", PSL);
            showCount(sums.groupByKey(Grouped.with(Serdes.String(), Serdes.Long()))
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(), "out-windowed");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-flush", S, L).output("out-windowed", S, L);
            h.pipe("in", "a", "xx", 1);
            h.pipe("in", "b", "y", 3);
            h.advanceWallClock(5);
            h.pipe("in", "a", "zzz", 4);
            h.advanceWallClock(3);
            h.advanceWallClock(4);
            h.pipe("in", "a", "w", 30);
            h.advanceWallClock(12);
            h.finish();
        });

        // Timestamps extracted from values on a stream and a table, through a repartition and a join.
        scenarios.put("extractor_through_repartition_join", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS.withTimestampExtractor(Hunt10Scenarios::fromValue));
            KTable<String, String> t = b.table("tab", SS.withTimestampExtractor(Hunt10Scenarios::fromValue));
            KStream<String, String> rekeyed = s.selectKey((k, v) -> v.substring(v.indexOf(':') + 1, v.indexOf(':') + 2));
            rekeyed.join(t, (a, c) -> a + "=" + c).to("out-join", PSS);
            showCount(rekeyed.groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(), "out-count");
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tab", S, S).output("out-join", S, S).output("out-count", S, L);
            h.pipe("tab", "a", "5:A", 100);
            h.pipe("in", "k", "8:ax", 1);
            h.pipe("in", "k", "3:ay", 2);
            h.pipe("tab", "a", "p:A2", 3);
            h.pipe("in", "k", "p:az", 50);
            h.pipe("in", "k", "25:bq", 4);
            h.pipe("in", "k", "9:aw", 5);
            h.dropped();
            h.finish();
        });

        // A table's null values for keys never seen, through views, joins and a grouping.
        scenarios.put("table_tombstones_unknown_keys", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", SS);
            KTable<String, String> m = b.table("in2", SS, Materialized.as("in2-store"));
            t.mapValues(v -> v + "!").toStream().to("out-mapped", PSS);
            t.join(m, (a, c) -> a + "&" + c).toStream().to("out-join", PSS);
            m.filter((k, v) -> true).toStream().to("out-filtered", PSS);
            t.groupBy((k, v) -> KeyValue.pair(v, k)).count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("in2", S, S)
                .output("out-mapped", S, S).output("out-join", S, S).output("out-filtered", S, S).output("out-count", S, L);
            h.pipe("in", "a", null, 1);
            h.pipe("in2", "a", null, 2);
            h.pipe("in", "a", "x", 3);
            h.pipe("in2", "a", "y", 4);
            h.pipe("in2", "b", null, 5);
            h.pipe("in", "a", null, 6);
            h.pipe("in", "a", null, 7);
            h.pipe("in2", "a", null, 8);
            h.pipe("in2", "a", null, 9);
            h.finish();
        });

        // Null keys and values reaching session and sliding windows are dropped and counted.
        scenarios.put("null_keys_values_session_sliding", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showCount(g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5))).count(), "out-session");
            showCount(g.windowedBy(org.apache.kafka.streams.kstream.SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5)))
                .count(), "out-sliding");
            showTo(g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5))).reduce((a, c) -> a + c,
                Materialized.<String, String, org.apache.kafka.streams.state.SessionStore<Bytes, byte[]>>as("sr").withCachingDisabled()),
                "out-session-reduce");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-session", S, L).output("out-sliding", S, L)
                .output("out-session-reduce", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", null, "2", 2);
            h.pipe("in", "a", null, 3);
            h.pipe("in", "a", "4", 4);
            h.dropped();
            h.pipe("in", null, null, 5);
            h.pipe("in", "a", "20", 20);
            h.dropped();
            h.finish();
        });

        // Headers through table-table joins, a table aggregation and a stream-stream outer join.
        scenarios.put("headers_table_joins_aggregates", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> l = b.table("left", SS, Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("lh").withCachingDisabled());
            KTable<String, String> r = b.table("right", SS, Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("rh").withCachingDisabled());
            KTable<String, String> j = l.outerJoin(r, (a, c) -> show(a) + "|" + show(c));
            j.toStream().to("out-join", PSS);
            j.groupBy((k, v) -> KeyValue.pair("all", k)).aggregate(() -> "", Hunt19Scenarios::plus, Hunt19Scenarios::minus,
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("hagg").withCachingDisabled())
                .toStream().to("out-agg", PSS);
            l.toStream().outerJoin(r.toStream(), (a, c) -> show(a) + "^" + show(c), JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(2), Duration.ZERO))
                .to("out-ss", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-join", S, S).output("out-agg", S, S).output("out-ss", S, S);
            h.pipe("left", "a", "L1", 1, "h=l1");
            h.pipe("right", "a", "R1", 2, "h=r1", "x=1");
            h.pipe("right", "b", "R2", 3);
            h.pipe("left", "a", null, 4, "h=del");
            h.pipe("left", "c", "L3", 10, "h=l3");
            h.pipe("right", "b", null, 11, "h=rdel");
            h.finish();
        });

        // Generated names: unnamed cogroup over windows, a suppressed foreign-key join and process.
        scenarios.put("describe_unnamed_cogroup_fk_process", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("sums"), Serdes.String(), Serdes.Long()));
            KGroupedStream<String, String> g1 = b.stream("in1", SS).groupByKey();
            KGroupedStream<String, String> g2 = b.stream("in2", SS).groupBy((k, v) -> v);
            showTo(g1.cogroup((String k, String v, String agg) -> agg + v).cogroup(g2, (k, v, agg) -> agg + "'" + v)
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).aggregate(() -> ""), "out-cg");
            KTable<String, String> orders = b.table("orders", SS);
            orders.join(b.table("customers", SS), FkJoinScenarios::fk, (o, c) -> o + "/" + c)
                .suppress(Suppressed.untilTimeLimit(Duration.ofMillis(1), BufferConfig.maxRecords(5))).toStream().to("out-fk", PSS);
            b.stream("in3", SS).process(() -> new Summer(PunctuationType.STREAM_TIME), "sums").to("out-sums", PSL);
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, S).input("orders", S, S).input("customers", S, S)
                .input("in3", S, S).output("out-cg", S, S).output("out-fk", S, S).output("out-sums", S, L);
            h.pipe("in1", "a", "p", 1);
            h.pipe("in2", "k", "a", 2);
            h.pipe("customers", "c1", "Ann", 3);
            h.pipe("orders", "o1", "c1:x", 4);
            h.pipe("in3", "a", "xyz", 5);
            h.pipe("in1", "a", "q", 12);
            h.pipe("in3", "a", "w", 13);
            h.pipe("orders", "o2", "c1:y", 14);
            h.finish();
        });

        // Stream-stream outer join results counted in windows and suppressed until close.
        scenarios.put("outer_join_windowed_final", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> j = b.stream("left", SS).outerJoin(b.stream("right", SS), (a, c) -> show(a) + "+" + show(c),
                JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(2), Duration.ofMillis(1)));
            j.to("out-join", PSS);
            showTo(j.groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(5), Duration.ofMillis(1)))
                .reduce((a, c) -> a + "," + c).suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-final");
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out-join", S, S).output("out-final", S, S);
            h.pipe("left", "a", "l1", 1);
            h.pipe("right", "a", "r2", 2);
            h.pipe("left", "b", "l3", 3);
            h.pipe("right", "c", "r4", 4);
            h.pipe("left", "a", "l8", 8);
            h.pipe("right", "b", "r12", 12);
            h.pipe("left", "a", "l20", 20);
            h.pipe("right", "z", "r30", 30);
            h.finish();
        });

        // A windowed count made a string-keyed table, then joined with a table and regrouped.
        scenarios.put("windowed_count_to_table_joined", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, Long> counts = b.stream("in", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count()
                .toStream().selectKey((w, c) -> w.key()).toTable(Materialized.with(Serdes.String(), Serdes.Long()));
            counts.join(b.table("names", SS), (c, n) -> n + "#" + c).toStream().to("out-join", PSS);
            counts.groupBy((k, c) -> KeyValue.pair(c % 2 == 0 ? "even" : "odd", c), Grouped.with(Serdes.String(), Serdes.Long()))
                .reduce(Long::sum, (a, c) -> a - c).toStream().to("out-parity", PSL);
            Harness h = new Harness(b.build(), out).input("names", S, S).input("in", S, S).output("out-join", S, S).output("out-parity", S, L);
            h.pipe("names", "a", "A", 0);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 2);
            h.pipe("in", "b", "3", 3);
            h.pipe("in", "a", "4", 14);
            h.pipe("in", "a", "5", 5);
            h.pipe("names", "b", "B", 6);
            h.pipe("in", "b", "6", 16);
            h.finish();
        });

        // A sliding window reduce emitted on close, with grace and out-of-order records.
        scenarios.put("sliding_emit_on_close_grace", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            org.apache.kafka.streams.kstream.SlidingWindows w =
                org.apache.kafka.streams.kstream.SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(5), Duration.ofMillis(3));
            showTo(g.windowedBy(w).emitStrategy(EmitStrategy.onWindowClose()).reduce((a, c) -> a + "," + c), "out-close");
            showCount(g.windowedBy(w).count().suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-final");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-close", S, S).output("out-final", S, L);
            h.pipe("in", "a", "10", 10);
            h.pipe("in", "a", "12", 12);
            h.pipe("in", "a", "8", 8);
            h.pipe("in", "a", "20", 20);
            h.pipe("in", "a", "14", 14);
            h.pipe("in", "a", "11", 11);
            h.pipe("in", "a", "30", 30);
            h.pipe("in", "a", "50", 50);
            h.dropped();
            h.finish();
        });

        // Tumbling windows with grace emitted on close: late records, an empty tail, several keys.
        scenarios.put("tumbling_emit_on_close_aggregate", out -> {
            StreamsBuilder b = new StreamsBuilder();
            showTo(b.stream("in", SS).groupByKey().windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(4)))
                .emitStrategy(EmitStrategy.onWindowClose())
                .aggregate(() -> "", Hunt19Scenarios::slash,
                    Materialized.<String, String, org.apache.kafka.streams.state.WindowStore<Bytes, byte[]>>as("tum-close").withCachingDisabled()),
                "out");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "b", "2", 5);
            h.pipe("in", "a", "3", 12);
            h.pipe("in", "a", "4", 9);
            h.pipe("in", "b", "5", 14);
            h.pipe("in", "a", "6", 3);
            h.pipe("in", "c", "7", 35);
            h.pipe("in", "a", "8", 21);
            h.pipe("in", "a", "9", 60);
            h.dropped();
            h.finish();
        });

        // A stream left-joined to a table, with null keys from a re-key, counted by result.
        scenarios.put("stream_table_left_rekeyed_counted", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("t", SS);
            b.stream("in", SS).selectKey((k, v) -> v.startsWith("-") ? null : v.substring(0, 1))
                .leftJoin(t, (v, u) -> show(u))
                .groupBy((k, v) -> v).count().toStream().to("out", PSL);
            Harness h = new Harness(b.build(), out).input("t", S, S).input("in", S, S).output("out", S, L);
            h.pipe("t", "a", "A", 1);
            h.pipe("in", "k", "a1", 2);
            h.pipe("in", "k", "-2", 3);
            h.pipe("in", "k", "b3", 4);
            h.pipe("t", "b", "A", 5);
            h.pipe("in", "k", "b4", 6);
            h.dropped();
            h.finish();
        });

        // Table-table inner join chains with a filter between them, cached with materialization.
        scenarios.put("table_join_chain_filter_cached", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> x = b.table("x", SS);
            KTable<String, String> y = b.table("y", SS);
            KTable<String, String> z = b.table("z", SS);
            x.join(y, (a, c) -> a + c, Materialized.as("xy")).filter((k, v) -> !v.contains("0"))
                .leftJoin(z, (a, c) -> a + "/" + show(c), Materialized.as("xyz")).toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("x", S, S).input("y", S, S).input("z", S, S).output("out", S, S);
            h.pipe("x", "a", "1", 1);
            h.pipe("z", "a", "Z", 2);
            h.pipe("y", "a", "2", 3);
            h.pipe("y", "a", "0", 4);
            h.pipe("z", "a", "Z2", 5);
            h.pipe("y", "a", "3", 6);
            h.pipe("x", "a", null, 7);
            h.finish();
        });

        // A session count suppressed until close with a record bound that would shut down.
        scenarios.put("session_final_bounded_buffer", out -> {
            StreamsBuilder b = new StreamsBuilder();
            showCount(b.stream("in", SS).groupByKey()
                .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(3), Duration.ofMillis(2)))
                .count(Materialized.as("sfb"))
                .suppress(Suppressed.untilWindowCloses(BufferConfig.maxRecords(3).shutDownWhenFull()).withName("sfb-sup")), "out");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, L);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 3);
            h.pipe("in", "b", "3", 2);
            h.pipe("in", "a", "4", 10);
            h.pipe("in", "b", "5", 12);
            h.pipe("in", "c", "6", 13);
            h.pipe("in", "a", "7", 30);
            h.finish();
        });
    }
}
