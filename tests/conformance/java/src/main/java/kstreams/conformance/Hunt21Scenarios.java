package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Harness.Type.X;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.common.serialization.Serdes;
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
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.Suppressed.BufferConfig;
import org.apache.kafka.streams.kstream.TableJoined;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Scenarios of the twenty-first conformance hunt (tests/conformance/hunt21_scenarios_test.cpp
 * writes the same with kstreams): internal topics read as bytes: versioned store changelogs,
 * cogroup changelogs (plain, tumbling, hopping, session, sliding), window store changelogs with
 * emit-on-close, cached aggregate and table source changelogs, table-table join stores, the
 * foreign-key join's topics, repartition topics of a windowed regrouping, of repartition() with
 * headers and of selectKey before joins; topology descriptions of unusual topologies.
 */
final class Hunt21Scenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());
    static final Produced<String, Long> PSL = Produced.with(Serdes.String(), Serdes.Long());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    static Duration ms(long m) { return Duration.ofMillis(m); }

    static void showTo(KTable<Windowed<String>, String> t, String topic) {
        WindowKindScenarios.showTo(t, topic, PSS);
    }

    static Properties opt(String setting) {
        Properties p = new Properties();
        if (setting != null) p.put("topology.optimization", setting);
        return p;
    }

    static void cogroupInputs(Harness h) {
        h.pipe("in1", "a", "x1", 1, "h=1");
        h.pipe("in2", "a", "y2", 7);
        h.pipe("in1", "a", "x3", 12);
        h.pipe("in2", "b", "y4", 3, "h=2");
        h.pipe("in1", "a", "x5", 4);
        h.pipe("in1", "a", "x6", 25);
        h.pipe("in2", "a", "y7", 9);
        h.pipe("in2", "b", "y8", 22);
        h.pipe("in1", "a", "x9", 21);
    }

    static void windowInputs(Harness h) {
        h.pipe("in", "a", "w10", 10, "h=1");
        h.pipe("in", "a", "w15", 15);
        h.pipe("in", "a", "w5", 5);
        h.pipe("in", "b", "v12", 12);
        h.pipe("in", "a", "w25", 25);
        h.pipe("in", "a", "w22", 22, "h=2");
        h.pipe("in", "a", "w9", 9);
        h.pipe("in", "b", "v40", 40);
        h.pipe("in", "a", "w33", 33);
        h.pipe("in", "a", "w60", 60);
    }

    static void fkInputs(Harness h) {
        h.pipe("customers", "c1", "Alice", 5, "from=c");
        h.pipe("orders", "o1", "c1:apple", 10, "from=o", "n=1");
        h.pipe("orders", "o2", "c2:pear", 11);
        h.pipe("customers", "c2", "Bob", 12, "from=c2");
        h.pipe("orders", "o1", "c2:apple", 13, "from=move");
        h.pipe("orders", "o2", "none", 14);
        h.pipe("customers", "c1", "Al", 15);
        h.pipe("orders", "o3", "c1:fig", 16);
        h.pipe("customers", "c2", null, 17, "from=del");
        h.pipe("orders", "o3", null, 18, "from=odel");
        h.pipe("orders", "o2", "c1:pear", 19);
        h.pipe("orders", "o4", null, 20);
    }

    static void twoSides(Harness h) {
        h.pipe("left", "k1", "a1", 10, "h=1");
        h.pipe("right", "k2", "a2", 12);
        h.pipe("left", "k3", "b3", 8);
        h.pipe("right", "k4", "b4", 9, "h=2");
        h.pipe("left", null, "a5", 14);
        h.pipe("right", "k6", "c6", 30);
        h.pipe("left", "k7", "c7", 31);
    }

    static final class TagProcessor implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        @Override public void init(ProcessorContext<String, String> ctx) { this.ctx = ctx; }
        @Override public void process(Record<String, String> r) { ctx.forward(r.withValue(r.value() + "#")); }
    }

    static final class TagValues implements FixedKeyProcessor<String, String, String> {
        private FixedKeyProcessorContext<String, String> ctx;
        @Override public void init(FixedKeyProcessorContext<String, String> ctx) { this.ctx = ctx; }
        @Override public void process(FixedKeyRecord<String, String> r) { ctx.forward(r.withValue(r.value() + "~")); }
    }

    static final class IntoStore implements Processor<String, String, Void, Void> {
        private KeyValueStore<String, String> store;
        @Override public void init(ProcessorContext<Void, Void> ctx) { store = ctx.getStateStore("gs"); }
        @Override public void process(Record<String, String> r) { store.put(r.key(), r.value()); }
    }

    static void cachedTables(Map<String, Main.Scenario> scenarios, String name, String setting) {
        scenarios.put(name, out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> src = b.table("in", SS, Materialized.as("src"));
            src.toStream().to("out-src", PSS);
            src.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k), Grouped.as("byv"))
                .count(Materialized.as("cc")).toStream().to("out-count", PSL);
            b.stream("in2", SS).groupByKey().reduce((a, v) -> a + "+" + v, Materialized.as("red")).toStream().to("out-red", PSS);
            Harness h = new Harness(b.build(opt(setting)), opt(setting), out).input("in", S, S).input("in2", S, S)
                .output("out-src", S, S).output("out-count", S, L).output("out-red", S, S)
                .output("conformance-src-changelog", S, X).output("conformance-byv-repartition", S, X).output("conformance-cc-changelog", S, X)
                .output("conformance-red-changelog", S, X);
            h.pipe("in", "k1", "a1", 10, "h=1");
            h.pipe("in2", "x", "r1", 11, "g=1");
            h.pipe("in", "k2", "a2", 5);
            h.pipe("in", "k1", "b1", 12);
            h.pipe("in2", "x", "r2", 3);
            h.pipe("in", "k2", null, 13, "h=2");
            h.pipe("in", "k3", null, 14);
            h.pipe("in2", "y", "r3", 15);
            h.pipe("in", "k1", "b1", 16);
            h.finish();
        });
    }

    static void optimizedRepartitions(Map<String, Main.Scenario> scenarios, String name, String setting) {
        scenarios.put(name, out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> rekeyed = b.stream("in", SS).selectKey((k, v) -> v.substring(0, 1));
            rekeyed.groupByKey().count().toStream().to("out-count", PSL);
            rekeyed.groupByKey().reduce((a, v) -> a + "+" + v).toStream().to("out-reduce", PSS);
            rekeyed.join(b.table("tab", SS), (x, y) -> x + "/" + y).to("out-join", PSS);
            rekeyed.repartition(Repartitioned.as("explicit")).to("out-explicit", PSS);
            Harness h = new Harness(b.build(opt(setting)), opt(setting), out).input("in", S, S).input("tab", S, S)
                .output("out-count", S, L).output("out-reduce", S, S).output("out-join", S, S).output("out-explicit", S, S);
            h.pipe("tab", "a", "TA", 1);
            h.pipe("in", "k1", "a1", 2);
            h.pipe("in", "k2", "a2", 3);
            h.pipe("in", "k3", "b3", 4);
            h.finish();
        });
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // ---- versioned stores: out of order, tombstones, history retention ----
        scenarios.put("wire_versioned_table_changelog", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("in", SS, Materialized.<String, String>as(Stores.persistentVersionedKeyValueStore("vt", ms(10)))).toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("conformance-vt-changelog", S, X);
            h.pipe("in", "a", "A10", 10, "h=1");
            h.pipe("in", "a", "A5", 5);
            h.pipe("in", "a", "A20", 20);
            h.pipe("in", "a", null, 15);
            h.pipe("in", "b", null, 3);
            h.pipe("in", "a", "A1", 1);
            h.pipe("in", "b", "B30", 30, "h=2");
            h.pipe("in", "a", "A8", 8);
            h.pipe("in", "a", null, 40);
            h.pipe("in", "c", "C35", 35);
            h.pipe("in", "a", null, 41);
            h.dropped();
            h.finish();
        });

        scenarios.put("wire_to_table_versioned_regroup", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> tv = b.stream("updates", SS)
                .toTable(Materialized.<String, String>as(Stores.persistentVersionedKeyValueStore("tv", ms(5))));
            tv.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k), Grouped.as("tvg"))
                .count(Materialized.as("tvc")).toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("updates", S, S).output("out-count", S, L)
                .output("conformance-tv-changelog", S, X).output("conformance-tvg-repartition", S, X).output("conformance-tvc-changelog", S, X);
            h.pipe("updates", "a", "x1", 10, "h=1");
            h.pipe("updates", "a", "y2", 5);
            h.pipe("updates", "b", "x3", 12);
            h.pipe("updates", "a", null, 20);
            h.pipe("updates", "a", "z4", 18);
            h.pipe("updates", "b", "y5", 30, "h=2");
            h.pipe("updates", "c", "x6", 1);
            h.pipe("updates", "a", "x7", 31);
            h.dropped();
            h.finish();
        });

        // ---- cogroup ----
        scenarios.put("wire_cogroup_changelog", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g1 = b.stream("in1", SS).groupByKey();
            KGroupedStream<String, String> g2 = b.stream("in2", SS).groupByKey();
            g1.<String>cogroup((k, v, agg) -> agg + "+" + v).cogroup(g2, (k, v, agg) -> agg + "#" + v)
                .aggregate(() -> "", Materialized.as("cg")).toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, S).output("out", S, S)
                .output("conformance-cg-changelog", S, X);
            cogroupInputs(h);
            h.finish();
        });

        scenarios.put("wire_cogroup_windowed_changelogs", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g1 = b.stream("in1", SS).groupByKey();
            KGroupedStream<String, String> g2 = b.stream("in2", SS).groupByKey();
            showTo(g1.<String>cogroup((k, v, agg) -> agg + "+" + v).cogroup(g2, (k, v, agg) -> agg + "#" + v)
                       .windowedBy(TimeWindows.ofSizeAndGrace(ms(10), ms(5))).aggregate(() -> "", Materialized.as("cgt")), "out-t");
            showTo(g1.<String>cogroup((k, v, agg) -> agg + "+" + v).cogroup(g2, (k, v, agg) -> agg + "#" + v)
                       .windowedBy(TimeWindows.ofSizeAndGrace(ms(10), ms(5)).advanceBy(ms(5)))
                       .aggregate(() -> "", Materialized.<String, String, org.apache.kafka.streams.state.WindowStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("cgh").withCachingDisabled()),
                   "out-h");
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, S).output("out-t", S, S).output("out-h", S, S)
                .output("conformance-cgt-changelog", X, X).output("conformance-cgh-changelog", X, X);
            cogroupInputs(h);
            h.dropped();
            h.finish();
        });

        scenarios.put("wire_cogroup_session_changelog", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g1 = b.stream("in1", SS).groupByKey();
            KGroupedStream<String, String> g2 = b.stream("in2", SS).groupByKey();
            showTo(g1.<String>cogroup((k, v, agg) -> agg + "+" + v).cogroup(g2, (k, v, agg) -> agg + "#" + v)
                       .windowedBy(SessionWindows.ofInactivityGapAndGrace(ms(5), ms(3)))
                       .aggregate(() -> "", (k, a, c) -> a + "|" + c,
                                  Materialized.<String, String, org.apache.kafka.streams.state.SessionStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("cgs").withCachingDisabled()),
                   "out");
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, S).output("out", S, S)
                .output("conformance-cgs-changelog", X, X);
            cogroupInputs(h);
            h.pipe("in1", "a", "x10", 15);
            h.pipe("in2", "a", "y11", 19);
            h.dropped();
            h.finish();
        });

        scenarios.put("wire_cogroup_sliding_changelog", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g1 = b.stream("in1", SS).groupByKey();
            KGroupedStream<String, String> g2 = b.stream("in2", SS).groupByKey();
            showTo(g1.<String>cogroup((k, v, agg) -> agg + "+" + v).cogroup(g2, (k, v, agg) -> agg + "#" + v)
                       .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(ms(6), ms(4)))
                       .aggregate(() -> "", Materialized.<String, String, org.apache.kafka.streams.state.WindowStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("cgsl").withCachingDisabled()),
                   "out");
            Harness h = new Harness(b.build(), out).input("in1", S, S).input("in2", S, S).output("out", S, S)
                .output("conformance-cgsl-changelog", X, X);
            cogroupInputs(h);
            h.dropped();
            h.finish();
        });

        // ---- window stores ----
        scenarios.put("wire_sliding_reduce_changelog", out -> {
            StreamsBuilder b = new StreamsBuilder();
            showTo(b.stream("in", SS).groupByKey().windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(ms(10), ms(5)))
                       .reduce((a, v) -> a + "+" + v, Materialized.<String, String, org.apache.kafka.streams.state.WindowStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("sl").withCachingDisabled()),
                   "out");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("conformance-sl-changelog", X, X);
            windowInputs(h);
            h.dropped();
            h.finish();
        });

        scenarios.put("wire_session_merge_changelogs", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            SessionWindows w = SessionWindows.ofInactivityGapAndGrace(ms(10), ms(5));
            showTo(g.windowedBy(w).reduce((a, v) -> show(a) + "+" + show(v),
                                          Materialized.<String, String, org.apache.kafka.streams.state.SessionStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("ss").withCachingDisabled()),
                   "out");
            g.windowedBy(w).count(Materialized.as("sc"));
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S)
                .output("conformance-ss-changelog", X, X).output("conformance-sc-changelog", X, X);
            WindowKindScenarios.sessionInputs(h);
            h.dropped();
            h.finish();
        });

        scenarios.put("wire_hopping_changelogs", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            TimeWindows w = TimeWindows.ofSizeAndGrace(ms(10), ms(3)).advanceBy(ms(4));
            showTo(g.windowedBy(w).reduce((a, v) -> a + "+" + v,
                                          Materialized.<String, String, org.apache.kafka.streams.state.WindowStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("hop").withCachingDisabled()),
                   "out");
            g.windowedBy(w).count(Materialized.as("hopc"));
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S)
                .output("conformance-hop-changelog", X, X).output("conformance-hopc-changelog", X, X);
            windowInputs(h);
            h.dropped();
            h.finish();
        });

        scenarios.put("wire_emit_on_close_time_windows", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(ms(10), ms(2))).emitStrategy(EmitStrategy.onWindowClose())
                       .reduce((a, v) -> a + "+" + v, Materialized.as("teoc")), "out-t");
            showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(ms(10), ms(2)).advanceBy(ms(5))).emitStrategy(EmitStrategy.onWindowClose())
                       .reduce((a, v) -> a + "+" + v, Materialized.as("heoc")), "out-h");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-t", S, S).output("out-h", S, S)
                .output("conformance-teoc-changelog", X, X).output("conformance-heoc-changelog", X, X);
            windowInputs(h);
            h.dropped();
            h.finish();
        });

        scenarios.put("wire_emit_on_close_session", out -> {
            StreamsBuilder b = new StreamsBuilder();
            showTo(b.stream("in", SS).groupByKey().windowedBy(SessionWindows.ofInactivityGapAndGrace(ms(10), ms(5)))
                       .emitStrategy(EmitStrategy.onWindowClose())
                       .reduce((a, v) -> show(a) + "+" + show(v), Materialized.as("seoc")), "out");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("conformance-seoc-changelog", X, X);
            WindowKindScenarios.sessionInputs(h);
            h.dropped();
            h.finish();
        });

        scenarios.put("wire_emit_on_close_sliding", out -> {
            StreamsBuilder b = new StreamsBuilder();
            showTo(b.stream("in", SS).groupByKey().windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(ms(10), ms(5)))
                       .emitStrategy(EmitStrategy.onWindowClose())
                       .reduce((a, v) -> a + "+" + v, Materialized.as("sleoc")), "out");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("conformance-sleoc-changelog", X, X);
            windowInputs(h);
            h.dropped();
            h.finish();
        });

        scenarios.put("wire_suppress_session_sliding_changelogs", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            WindowKindScenarios.showTo(g.windowedBy(SessionWindows.ofInactivityGapAndGrace(ms(5), ms(2))).count()
                                           .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()).withName("sup-s")), "out-s", PSL);
            WindowKindScenarios.showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(ms(5), ms(2))).count()
                                           .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()).withName("sup-sl")), "out-sl", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-s", S, L).output("out-sl", S, L)
                .output("conformance-sup-s-store-changelog", X, X).output("conformance-sup-sl-store-changelog", X, X);
            windowInputs(h);
            h.dropped();
            h.finish();
        });

        scenarios.put("wire_to_table_cached_changelog", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.stream("in", SS).toTable(Named.as("tt-node"), Materialized.as("tt"));
            t.toStream().to("out", PSS);
            t.mapValues(v -> v + "!", Materialized.<String, String, KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("ttm").withCachingDisabled())
                .toStream().to("out-m", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("out-m", S, S)
                .output("conformance-tt-changelog", S, X).output("conformance-ttm-changelog", S, X);
            h.pipe("in", "a", "1", 10, "h=1");
            h.pipe("in", "a", "2", 5);
            h.pipe("in", "b", null, 6);
            h.pipe("in", "a", null, 7, "h=2");
            h.pipe("in", "b", "3", 8);
            h.finish();
        });

        scenarios.put("wire_unlimited_windows_changelog", out -> {
            StreamsBuilder b = new StreamsBuilder();
            showTo(b.stream("in", SS).groupByKey().windowedBy(org.apache.kafka.streams.kstream.UnlimitedWindows.of().startOn(java.time.Instant.ofEpochMilli(8)))
                       .reduce((a, v) -> a + "+" + v, Materialized.<String, String, org.apache.kafka.streams.state.WindowStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("unl").withCachingDisabled()),
                   "out");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("conformance-unl-changelog", X, X);
            windowInputs(h);
            h.dropped();
            h.finish();
        });

        // ---- key-value stores: caches, source-topic reuse, table joins ----
        cachedTables(scenarios, "wire_cached_table_changelogs", null);
        cachedTables(scenarios, "wire_cached_table_changelogs_optimized", "all");

        scenarios.put("wire_table_join_changelogs", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> lt = b.table("lt", SS);
            KTable<String, String> rt = b.table("rt", SS);
            lt.join(rt, (x, y) -> x + "+" + y, Materialized.<String, String, KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("tj").withCachingDisabled())
                .toStream().to("out-j", PSS);
            lt.leftJoin(rt, (x, y) -> x + "+" + show(y), Named.as("tl"), Materialized.as("tlj")).toStream().to("out-l", PSS);
            lt.outerJoin(rt, (x, y) -> show(x) + "+" + show(y), Materialized.<String, String, KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("toj").withCachingDisabled())
                .toStream().to("out-o", PSS);
            Harness h = new Harness(b.build(), out).input("lt", S, S).input("rt", S, S)
                .output("out-j", S, S).output("out-l", S, S).output("out-o", S, S)
                .output("conformance-tj-changelog", S, X).output("conformance-tlj-changelog", S, X).output("conformance-toj-changelog", S, X);
            h.pipe("lt", "a", "L1", 10, "h=1");
            h.pipe("rt", "a", "R1", 5);
            h.pipe("rt", "b", "R2", 12, "h=2");
            h.pipe("lt", "a", "L2", 3);
            h.pipe("rt", "a", null, 14);
            h.pipe("lt", "b", null, 15);
            h.pipe("rt", "b", null, 16);
            h.pipe("lt", "c", "L3", 17);
            h.finish();
        });

        // ---- foreign-key joins ----
        scenarios.put("wire_fk_inner_topics_headers", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS);
            KTable<String, String> customers = b.table("customers", SS);
            orders.join(customers, FkJoinScenarios::fk, (o, c) -> o + "/" + c, TableJoined.as("fki")).toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S).output("out", S, S)
                .output("conformance-fki-subscription-registration-topic", S, X).output("conformance-fki-subscription-response-topic", S, X);
            fkInputs(h);
            h.finish();
        });

        scenarios.put("wire_fk_left_filtered_view", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS).filter((k, v) -> !v.contains("pear"));
            KTable<String, String> customers = b.table("customers", SS);
            orders.leftJoin(customers, FkJoinScenarios::fk, (o, c) -> o + "/" + show(c), TableJoined.as("fkl")).toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S).output("out", S, S)
                .output("conformance-fkl-subscription-registration-topic", S, X).output("conformance-fkl-subscription-response-topic", S, X)
                .output("conformance-fkl-subscription-store-changelog", X, X);
            fkInputs(h);
            h.finish();
        });

        // ---- repartition topics ----
        scenarios.put("wire_windowed_table_regroup_repartition", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", SS).groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(ms(10)))
                .count(Materialized.<String, Long, org.apache.kafka.streams.state.WindowStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("wc").withCachingDisabled())
                .groupBy((w, c) -> KeyValue.pair(w.key(), c), Grouped.<String, Long>as("wgb").withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                .reduce((a, c) -> a + c, (a, c) -> a - c,
                        Materialized.<String, Long, KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("wsum").withValueSerde(Serdes.Long()).withCachingDisabled())
                .toStream().to("out", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, L)
                .output("conformance-wgb-repartition", S, X).output("conformance-wc-changelog", X, X);
            windowInputs(h);
            h.dropped();
            h.finish();
        });

        scenarios.put("wire_repartition_headers_timestamps", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> rp = b.stream("in", SS).repartition(Repartitioned.as("rp"));
            rp.to("out-rp", PSS);
            rp.groupBy((k, v) -> v == null ? "none" : v.substring(0, 1), Grouped.as("gb")).count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-rp", S, S).output("out-count", S, L)
                .output("conformance-rp-repartition", S, S).output("conformance-gb-repartition", S, S);
            h.pipe("in", "k1", "a1", 10, "h=1", "h=2");
            h.pipe("in", "k2", "b2", 5, "x=");
            h.pipe("in", null, "a3", 12, "n=null-key");
            h.pipe("in", "k4", null, 7, "n=null-value");
            h.pipe("in", "k1", "a5", 3);
            h.dropped();
            h.finish();
        });

        scenarios.put("wire_select_key_stream_join_repartitions", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> lt = b.stream("left", SS).selectKey((k, v) -> v.substring(0, 1));
            KStream<String, String> rt = b.stream("right", SS).selectKey((k, v) -> v.substring(0, 1));
            lt.join(rt, (x, y) -> x + "+" + y, JoinWindows.ofTimeDifferenceAndGrace(ms(5), ms(2)),
                    StreamJoined.with(Serdes.String(), Serdes.String(), Serdes.String()).withName("sj"))
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out", S, S)
                .output("conformance-sj-left-repartition", S, S).output("conformance-sj-right-repartition", S, S);
            twoSides(h);
            h.finish();
        });

        scenarios.put("wire_select_key_table_join_repartition", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> tab = b.table("tab", SS);
            b.stream("left", SS).selectKey((k, v) -> v.substring(0, 1))
                .leftJoin(tab, (x, y) -> x + "/" + show(y), Joined.<String, String, String>as("stj"))
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("tab", S, S).output("out", S, S)
                .output("conformance-stj-repartition", S, S);
            h.pipe("tab", "a", "TA", 1);
            h.pipe("left", "k1", "a1", 10, "h=1");
            h.pipe("left", "k3", "b3", 8);
            h.pipe("tab", "b", "TB", 9);
            h.pipe("left", null, "a5", 14);
            h.pipe("left", "k7", "c7", 31, "h=2");
            h.pipe("tab", "a", null, 32);
            h.pipe("left", "k8", "a8", 33);
            h.finish();
        });

        // ---- topology descriptions ----
        scenarios.put("describe_named_everything", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> st = b.stream("in", Consumed.with(Serdes.String(), Serdes.String()).withName("src"));
            KStream<String, String> f = st.filter((k, v) -> !v.isEmpty(), Named.as("keep"))
                .mapValues(v -> v + "!", Named.as("bang"))
                .selectKey((k, v) -> v.substring(0, 1), Named.as("rekey"));
            f.groupByKey(Grouped.as("grp")).count(Named.as("cnt"), Materialized.as("cnt-store")).toStream(Named.as("cnt-out"))
                .to("out-count", Produced.with(Serdes.String(), Serdes.Long()).withName("cnt-sink"));
            KStream<String, String> other = b.stream("other", Consumed.with(Serdes.String(), Serdes.String()).withName("other-src"));
            f.join(other, (x, y) -> x + "+" + y, JoinWindows.ofTimeDifferenceWithNoGrace(ms(5)),
                   StreamJoined.<String, String, String>as("jn-store").withName("jn"))
                .to("out-join", Produced.with(Serdes.String(), Serdes.String()).withName("join-sink"));
            KTable<String, String> tab = b.table("tab", Consumed.with(Serdes.String(), Serdes.String()).withName("tab-src"), Materialized.as("tab-store"));
            tab.filter((k, v) -> v.length() > 1, Named.as("tab-keep"))
                .join(tab, (x, y) -> x + y, Named.as("self"))
                .toStream(Named.as("self-out"))
                .to("out-self", Produced.with(Serdes.String(), Serdes.String()).withName("self-sink"));
            Harness h = new Harness(b.build(), out).input("in", S, S).input("other", S, S).input("tab", S, S)
                .output("out-count", S, L).output("out-join", S, S).output("out-self", S, S);
            h.pipe("tab", "a", "ab", 1);
            h.pipe("in", "k", "ax", 2);
            h.pipe("other", "a!", "o", 3);
            h.pipe("other", "a", "o2", 4);
            h.finish();
        });

        scenarios.put("describe_merge_split_processors", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("seen"), Serdes.String(), Serdes.String()));
            KStream<String, String> st = b.stream("in", SS);
            Map<String, KStream<String, String>> br = st.split(Named.as("sp-"))
                .branch((k, v) -> v.startsWith("a"), Branched.as("a"))
                .branch((k, v) -> v.startsWith("b"), Branched.as("b"))
                .defaultBranch(Branched.as("rest"));
            KStream<String, String> merged = br.get("sp-a").merge(br.get("sp-b"), Named.as("ab"));
            merged.process(TagProcessor::new, Named.as("tagger"), "seen")
                .processValues(TagValues::new, Named.as("tilde"), "seen")
                .to("out", PSS);
            br.get("sp-rest").merge(b.stream("in2", SS)).to("out-rest", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("in2", S, S).output("out", S, S).output("out-rest", S, S);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k2", "b2", 2);
            h.pipe("in", "k3", "c3", 3);
            h.pipe("in2", "k4", "d4", 4);
            h.finish();
        });

        scenarios.put("describe_global_stores", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("gs"), Serdes.String(), Serdes.String()).withLoggingDisabled(),
                "gs-topic", Consumed.with(Serdes.String(), Serdes.String()).withName("gs-src"), IntoStore::new);
            GlobalKTable<String, String> glob = b.globalTable("glob", Consumed.with(Serdes.String(), Serdes.String()).withName("glob-src"),
                                                              Materialized.as("glob-store"));
            GlobalKTable<String, String> glob2 = b.globalTable("glob2", SS);
            b.stream("in", SS)
                .join(glob, (k, v) -> v, (x, y) -> x + "#" + y, Named.as("gj"))
                .leftJoin(glob2, (k, v) -> k, (x, y) -> x + "%" + show(y))
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("gs-topic", S, S).input("glob", S, S).input("glob2", S, S).input("in", S, S)
                .output("out", S, S);
            h.pipe("glob", "g", "G", 1);
            h.pipe("glob2", "k", "K", 2);
            h.pipe("gs-topic", "s", "S", 3);
            h.pipe("in", "k", "g", 4);
            h.finish();
        });

        optimizedRepartitions(scenarios, "describe_repartitions_none", null);
        optimizedRepartitions(scenarios, "describe_repartitions_all", "all");

        scenarios.put("describe_table_ops_named", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", Consumed.with(Serdes.String(), Serdes.String()).withName("tsrc"), Materialized.as("tsrc-store"));
            KTable<String, String> mv = t.mapValues(v -> v + "!", Named.as("tbang"), Materialized.as("tbang-store"));
            mv.filterNot((k, v) -> v.startsWith("x"), Named.as("tnox"))
                .suppress(Suppressed.<String>untilTimeLimit(ms(5), BufferConfig.unbounded()).withName("tsup"))
                .toStream(Named.as("tstream"))
                .to("out", Produced.with(Serdes.String(), Serdes.String()).withName("tsink"));
            mv.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), v), Grouped.as("tgroup"))
                .aggregate(() -> "", (k, v, a) -> a + "+" + v, (k, v, a) -> a + "-" + v, Named.as("tagg"), Materialized.as("tagg-store"))
                .toStream().to("out-agg", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("out-agg", S, S);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k2", "x2", 2);
            h.pipe("in", "k1", "b1", 9);
            h.finish();
        });
    }
}
