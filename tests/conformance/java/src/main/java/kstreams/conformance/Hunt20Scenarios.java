package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Harness.Type.X;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TopologyTestDriver;
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
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.Suppressed.BufferConfig;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.VersionedRecord;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Scenarios of the twentieth conformance hunt (tests/conformance/hunt20_scenarios_test.cpp writes
 * the same with kstreams): stream joins with asymmetric windows (before / after), self-joins with
 * and without optimization; joiners taking the key in every join that accepts one; versioned
 * tables from toTable and mapValues with store reads; Processor API processors with timestamped,
 * versioned and window stores, re-timed records with headers, punctuations cancelled; windowed and
 * session aggregations returning null; windowed keys mapped by toStream; result timestamps of
 * every kind; window boundaries in every window kind; deserialization errors on table sources,
 * repartition topics and global tables (with and without a dead-letter queue); processing errors
 * after a forward; suppression of table views.
 */
final class Hunt20Scenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());
    static final Produced<String, Long> PSL = Produced.with(Serdes.String(), Serdes.Long());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    static Duration ms(long m) { return Duration.ofMillis(m); }

    static void showTo(KTable<Windowed<String>, String> t, String topic) {
        WindowKindScenarios.showTo(t, topic, PSS);
    }

    static void showCount(KTable<Windowed<String>, Long> t, String topic) {
        WindowKindScenarios.showTo(t, topic, PSL);
    }

    static String entries(org.apache.kafka.streams.state.KeyValueIterator<?, ?> it) {
        return Hunt15Scenarios.entries(it);
    }

    static String version(VersionedRecord<?> r) {
        return r == null ? "null" : r.value() + "@" + r.timestamp();
    }

    static Properties opt(String setting) {
        Properties p = new Properties();
        if (setting != null) p.put("topology.optimization", setting);
        return p;
    }

    static Properties continueOnErrors() {
        Properties p = new Properties();
        p.put("deserialization.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueExceptionHandler");
        p.put("processing.exception.handler", "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler");
        return p;
    }

    static Properties withDlq(Properties p) {
        p.put("errors.dead.letter.queue.topic.name", "dlq");
        return p;
    }

    /** Strings whose deserializer refuses values starting with `bad`. */
    static final class Picky implements Serde<String> {
        final String bad;

        Picky(String bad) {
            this.bad = bad;
        }

        @Override
        public Serializer<String> serializer() {
            return (topic, v) -> v == null ? null : v.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public Deserializer<String> deserializer() {
            return (topic, data) -> {
                if (data == null) return null;
                String s = new String(data, StandardCharsets.UTF_8);
                if (s.startsWith(bad)) throw new SerializationException("picky: " + s);
                return s;
            };
        }
    }

    /** Left and right records out of order around asymmetric windows. */
    static void leftRight(Harness h) {
        h.pipe("left", "a", "L1", 10);
        h.pipe("right", "a", "R1", 12);
        h.pipe("right", "a", "R2", 5);
        h.pipe("left", "a", "L2", 8);
        h.pipe("right", "a", "R3", 16);
        h.pipe("left", "b", "L3", 20);
        h.pipe("right", "a", "R4", 9);
        h.pipe("left", "a", "L4", 30);
        h.pipe("right", "b", "R5", 21);
        h.pipe("left", "a", "L5", 13);
        h.pipe("right", "a", "R6", 26);
        h.pipe("right", "c", "R7", 40);
        h.pipe("left", "c", "L6", 44);
        h.pipe("left", "c", "L7", 60);
    }

    /** A stream joined with itself over windows 2 ms before, 5 ms after. */
    static void selfJoin(java.io.PrintStream out, String setting, boolean left) {
        StreamsBuilder b = new StreamsBuilder();
        KStream<String, String> s = b.stream("in", SS);
        JoinWindows w = JoinWindows.ofTimeDifferenceAndGrace(ms(5), ms(2)).before(ms(2));
        (left ? s.leftJoin(s, (x, y) -> x + "+" + show(y), w) : s.join(s, (x, y) -> x + "+" + y, w)).to("out", PSS);
        Properties p = opt(setting);
        Harness h = new Harness(b.build(p), p, out).input("in", S, S).output("out", S, S);
        String[][] in = {{"a", "1", "10"}, {"a", "2", "12"}, {"a", "3", "7"}, {"a", "4", "16"}, {"b", "5", "16"}, {"a", "6", "9"},
                         {"a", "7", "30"}, {"a", "8", "14"}};
        for (String[] r : in) h.pipe("in", r[0], r[1], Long.parseLong(r[2]));
        h.dropped();
        h.finish();
    }

    /** Keeps each key's last value and time in "last"; forwards the value with the previous one,
     * at the later of the two times, with a "prev" header and without "drop". */
    static final class Retimer implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private TimestampedKeyValueStore<String, String> last;

        @Override
        public void init(ProcessorContext<String, String> context) {
            ctx = context;
            last = context.getStateStore("last");
        }

        @Override
        public void process(Record<String, String> r) {
            ValueAndTimestamp<String> prev = last.get(r.key());
            last.put(r.key(), ValueAndTimestamp.make(r.value(), r.timestamp()));
            String p = prev == null ? "none" : prev.value();
            Record<String, String> o = r.withValue(r.value() + "<" + p);
            if (prev != null && prev.timestamp() > r.timestamp()) o = o.withTimestamp(prev.timestamp());
            o.headers().remove("drop");
            o.headers().add("prev", p.getBytes(StandardCharsets.UTF_8));
            ctx.forward(o);
        }
    }

    /** A stream-time punctuation every 5 ms, cancelled by its second call, and a wall-clock one
     * every 10 ms, cancelled by its third; each forwards a record at its time. */
    static final class Ticker implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private Cancellable streamTick;
        private Cancellable wallTick;
        private int streamCalls;
        private int wallCalls;

        @Override
        public void init(ProcessorContext<String, String> context) {
            ctx = context;
            streamTick = context.schedule(ms(5), PunctuationType.STREAM_TIME, t -> {
                ctx.forward(new Record<>("st", "st" + (++streamCalls), t));
                if (streamCalls == 2) streamTick.cancel();
            });
            wallTick = context.schedule(ms(10), PunctuationType.WALL_CLOCK_TIME, t -> {
                ctx.forward(new Record<>("wc", "wc" + (++wallCalls), t));
                if (wallCalls == 3) wallTick.cancel();
            });
        }

        @Override
        public void process(Record<String, String> r) {
            ctx.forward(r);
        }
    }

    /** Puts each value into the versioned store "pv" at its time and forwards it with the put's
     * return code (or the version "del" removed), the version 3 ms before and the latest. */
    static final class VersionedKeeper implements FixedKeyProcessor<String, String, String> {
        private FixedKeyProcessorContext<String, String> ctx;
        private VersionedKeyValueStore<String, String> pv;

        @Override
        public void init(FixedKeyProcessorContext<String, String> context) {
            ctx = context;
            pv = context.getStateStore("pv");
        }

        @Override
        public void process(FixedKeyRecord<String, String> r) {
            String done = r.value().equals("del") ? "old=" + version(pv.delete(r.key(), r.timestamp()))
                                                  : "rc=" + pv.put(r.key(), r.value(), r.timestamp());
            ctx.forward(r.withValue(r.value() + "|" + done + "|before=" + version(pv.get(r.key(), r.timestamp() - 3)) + "|latest="
                                    + version(pv.get(r.key()))));
        }
    }

    /** Puts each value into the window store "ws" (window 10 ms, retention 30 ms) at its time
     * rounded down to 10, forwards what the key has from 0 to 100. */
    static final class WindowKeeper implements FixedKeyProcessor<String, String, String> {
        private FixedKeyProcessorContext<String, String> ctx;
        private WindowStore<String, String> ws;

        @Override
        public void init(FixedKeyProcessorContext<String, String> context) {
            ctx = context;
            ws = context.getStateStore("ws");
        }

        @Override
        public void process(FixedKeyRecord<String, String> r) {
            ws.put(r.key(), r.value(), r.timestamp() - r.timestamp() % 10);
            ctx.forward(r.withValue(r.value() + "|" + entries(ws.fetch(r.key(), 0L, 100L))));
        }
    }

    /** Forwards its record, then throws for "boom". */
    static final class ForwardThenThrow implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;

        @Override
        public void init(ProcessorContext<String, String> context) {
            ctx = context;
        }

        @Override
        public void process(Record<String, String> r) {
            ctx.forward(r.withValue(r.value() + "!"));
            if (r.value().equals("boom")) throw new IllegalStateException("boom after forward");
        }
    }

    /** A table source refusing "bad..." values, regrouped through a repartition topic refusing
     * "worse..." values; a stream grouped through one refusing "worse...". */
    static void pickyTables(java.io.PrintStream out, Properties p) {
        StreamsBuilder b = new StreamsBuilder();
        KTable<String, String> tab = b.table("tab", Consumed.with(Serdes.String(), new Picky("bad")),
            Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("tab-store"));
        tab.toStream().to("out-tab", PSS);
        tab.groupBy((k, v) -> KeyValue.pair(v.substring(v.length() - 1), v), Grouped.with("regroup", Serdes.String(), new Picky("worse")))
            .reduce((a, c) -> a + "," + c, (a, c) -> a, Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("regroup-store"))
            .toStream()
            .to("out-regroup", PSS);
        b.stream("in", SS)
            .groupBy((k, v) -> v.substring(v.length() - 1), Grouped.with("stream-group", Serdes.String(), new Picky("worse")))
            .count()
            .toStream()
            .to("out-count", PSL);
        Harness h = new Harness(b.build(), p, out).input("tab", S, S).input("in", S, S)
            .output("out-tab", S, S).output("out-regroup", S, S).output("out-count", S, L).errorOutput("dlq", S, X);
        h.pipe("tab", "k1", "v1", 1);
        h.pipe("tab", "k2", "bad2", 2, "h=1");
        h.pipe("tab", "k1", "worse1", 3, "h=2");
        h.pipe("tab", "k1", "ok1", 4);
        h.pipe("tab", "k3", "x2", 5);
        h.pipe("tab", "k3", "bad", 6);
        h.pipe("tab", "k3", null, 7);
        h.pipe("in", "s", "a1", 8);
        h.pipe("in", "s", "worse1", 9, "h=3");
        h.pipe("in", "s", "b1", 10);
        TopologyTestDriver d = h.driver();
        h.line("= tab-store " + entries(d.<String, String>getKeyValueStore("tab-store").all()) + "| regroup-store "
               + entries(d.<String, String>getKeyValueStore("regroup-store").all()));
        h.dropped();
        h.finish();
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // Inner, left and outer joins over windows narrowed before or after (6 ms, grace 2):
        // records out of order on both sides, results at the later time, unmatched ones when
        // stream time passes their window and grace.
        scenarios.put("join_before_after_kinds", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> lt = b.stream("left", SS);
            KStream<String, String> rt = b.stream("right", SS);
            JoinWindows w = JoinWindows.ofTimeDifferenceAndGrace(ms(6), ms(2));
            lt.join(rt, (x, y) -> x + "+" + y, w.before(ms(1))).to("out-inner", PSS);
            lt.leftJoin(rt, (x, y) -> x + "+" + show(y), w.after(ms(1))).to("out-left", PSS);
            lt.outerJoin(rt, (x, y) -> show(x) + "+" + show(y), w.before(ms(0)).after(ms(4))).to("out-outer", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-inner", S, S).output("out-left", S, S).output("out-outer", S, S);
            leftRight(h);
            h.dropped();
            h.finish();
        });

        // Without grace: an outer join 0 ms before, 4 after, and the right side left-joined 1 ms
        // after.
        scenarios.put("outer_join_no_grace_before_after", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> lt = b.stream("left", SS);
            KStream<String, String> rt = b.stream("right", SS);
            JoinWindows w = JoinWindows.ofTimeDifferenceWithNoGrace(ms(4)).before(ms(0));
            lt.outerJoin(rt, (x, y) -> show(x) + "+" + show(y), w).to("out-outer", PSS);
            rt.leftJoin(lt, (x, y) -> x + "+" + show(y), w.after(ms(1))).to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-outer", S, S).output("out-left", S, S);
            leftRight(h);
            h.dropped();
            h.finish();
        });

        // ValueJoinerWithKey in stream-stream (inner, left, outer), stream-table and stream-global
        // joins: the key given is the stream record's.
        scenarios.put("joiners_with_key_everywhere", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> lt = b.stream("left", SS);
            KStream<String, String> rt = b.stream("right", SS);
            KTable<String, String> tab = b.table("tab", SS);
            GlobalKTable<String, String> glob = b.globalTable("glob", SS);
            JoinWindows w = JoinWindows.ofTimeDifferenceWithNoGrace(ms(5));
            lt.join(rt, (k, x, y) -> k + ":" + x + "+" + y, w).to("out-ss", PSS);
            lt.leftJoin(rt, (k, x, y) -> k + ":" + x + "+" + show(y), w).to("out-ssl", PSS);
            lt.outerJoin(rt, (k, x, y) -> k + ":" + show(x) + "+" + show(y), w).to("out-sso", PSS);
            lt.join(tab, (k, x, y) -> k + ":" + x + "/" + y).to("out-st", PSS);
            lt.leftJoin(tab, (k, x, y) -> k + ":" + x + "/" + show(y)).to("out-stl", PSS);
            lt.join(glob, (k, v) -> v.substring(0, 1), (k, x, y) -> k + ":" + x + "#" + y).to("out-sg", PSS);
            lt.leftJoin(glob, (k, v) -> v.substring(0, 1), (k, x, y) -> k + ":" + x + "#" + show(y)).to("out-sgl", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).input("tab", S, S).input("glob", S, S)
                .output("out-ss", S, S).output("out-ssl", S, S).output("out-sso", S, S).output("out-st", S, S).output("out-stl", S, S)
                .output("out-sg", S, S).output("out-sgl", S, S);
            h.pipe("glob", "x", "GX", 1);
            h.pipe("tab", "a", "T1", 2);
            h.pipe("left", "a", "x1", 10);
            h.pipe("right", "a", "r1", 12);
            h.pipe("left", "b", "y2", 13);
            h.pipe("tab", "b", "T2", 14);
            h.pipe("right", "b", "r2", 15);
            h.pipe("left", "b", "x3", 16);
            h.pipe("glob", "y", "GY", 17);
            h.pipe("left", "a", "y4", 30);
            h.finish();
        });

        // Self-joins over asymmetric windows: not optimized, optimized (one store), and a left
        // self-join that optimization leaves alone.
        scenarios.put("self_join_asymmetric_none", out -> selfJoin(out, null, false));
        scenarios.put("self_join_asymmetric_all", out -> selfJoin(out, "all", false));
        scenarios.put("self_left_join_asymmetric_all", out -> selfJoin(out, "all", true));

        // A stream made a versioned table (history 20 ms): out-of-order updates and tombstones
        // are not forwarded, table joins and a stream join with grace read it; store reads as of.
        scenarios.put("versioned_to_table_joins_reads", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> vt = b.stream("updates", SS)
                .toTable(Materialized.<String, String>as(Stores.persistentVersionedKeyValueStore("vt", ms(20))));
            KTable<String, String> other = b.table("other", SS);
            vt.toStream().to("out-vt", PSS);
            vt.join(other, (x, y) -> x + "+" + y).toStream().to("out-join", PSS);
            vt.leftJoin(other, (x, y) -> x + "+" + show(y)).toStream().to("out-left", PSS);
            b.stream("in", SS)
                .join(vt, (k, x, y) -> k + ":" + x + "/" + y,
                      Joined.<String, String, String>with(Serdes.String(), Serdes.String(), Serdes.String()).withGracePeriod(ms(5)))
                .to("out-stream", PSS);
            Harness h = new Harness(b.build(), out).input("updates", S, S).input("other", S, S).input("in", S, S)
                .output("out-vt", S, S).output("out-join", S, S).output("out-left", S, S).output("out-stream", S, S);
            TopologyTestDriver d = h.driver();
            Runnable reads = () -> {
                VersionedKeyValueStore<String, String> st = d.getVersionedKeyValueStore("vt");
                h.line("= vt a " + version(st.get("a")) + " a@12 " + version(st.get("a", 12)) + " a@5 " + version(st.get("a", 5)) + " b "
                       + version(st.get("b")));
            };
            h.pipe("updates", "a", "A10", 10);
            h.pipe("other", "a", "O1", 11);
            h.pipe("updates", "a", "A5", 5);
            h.pipe("in", "a", "i1", 7);
            h.pipe("updates", "a", "A20", 20);
            h.pipe("in", "a", "i2", 15);
            reads.run();
            h.pipe("updates", "a", null, 14);
            h.pipe("updates", "b", "B1", 30);
            h.pipe("in", "a", "i3", 12);
            h.pipe("updates", "a", "A3", 3);
            h.pipe("in", "a", "i4", 21);
            reads.run();
            h.pipe("updates", "a", null, 40);
            h.pipe("in", "a", "i5", 41);
            reads.run();
            h.dropped();
            h.finish();
        });

        // A versioned table source, mapValues and filter into versioned stores (history 15 ms),
        // regrouped and counted; reads of each store, latest and as of 8.
        scenarios.put("versioned_map_values_filter_reads", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> src = b.table("in", SS,
                Materialized.<String, String>as(Stores.persistentVersionedKeyValueStore("src", ms(15))));
            KTable<String, String> mv = src.mapValues(v -> v + "!",
                Materialized.<String, String>as(Stores.persistentVersionedKeyValueStore("mv", ms(15))));
            KTable<String, String> fv = mv.filter((k, v) -> v.length() > 3,
                Materialized.<String, String>as(Stores.persistentVersionedKeyValueStore("fv", ms(15))));
            mv.toStream().to("out-mv", PSS);
            fv.toStream().to("out-fv", PSS);
            fv.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k)).count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-mv", S, S).output("out-fv", S, S).output("out-count", S, L);
            TopologyTestDriver d = h.driver();
            Runnable reads = () -> {
                StringBuilder line = new StringBuilder("=");
                for (String name : new String[] {"src", "mv", "fv"}) {
                    VersionedKeyValueStore<String, String> st = d.getVersionedKeyValueStore(name);
                    line.append(" ").append(name).append(" ").append(version(st.get("k"))).append(" @8 ").append(version(st.get("k", 8)))
                        .append(" j ").append(version(st.get("j")));
                }
                h.line(line.toString());
            };
            h.pipe("in", "k", "abc", 10);
            h.pipe("in", "k", "x", 6);
            h.pipe("in", "j", "abcd", 12);
            reads.run();
            h.pipe("in", "k", "ab", 20);
            h.pipe("in", "k", "abcde", 9);
            h.pipe("in", "j", null, 11);
            h.pipe("in", "k", null, 30);
            reads.run();
            h.pipe("in", "k", "late", 5);
            h.pipe("in", "j", "again", 31);
            reads.run();
            h.dropped();
            h.finish();
        });

        // A processor with a timestamped store re-times records and edits their headers; its
        // output windowed and reduced downstream (through a repartition topic).
        scenarios.put("papi_timestamped_store_retime_headers", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.timestampedKeyValueStoreBuilder(Stores.persistentTimestampedKeyValueStore("last"), Serdes.String(),
                                                                   Serdes.String()));
            KStream<String, String> p = b.stream("in", SS).process(Retimer::new, Named.as("retimer"), "last");
            p.to("out", PSS);
            showCount(p.groupByKey().windowedBy(TimeWindows.ofSizeAndGrace(ms(10), ms(5))).count(), "out-windows");
            p.groupByKey().reduce((a, c) -> a + "," + c).toStream().to("out-reduce", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("out-windows", S, L).output("out-reduce", S, S);
            h.pipe("in", "a", "1", 10, "drop=x", "h=1");
            h.pipe("in", "a", "2", 4, "h=2");
            h.pipe("in", "b", "3", 25, "drop=y");
            h.pipe("in", "a", "4", 30);
            h.pipe("in", "a", "5", 22, "h=5", "drop=z", "h=6");
            h.pipe("in", "b", "6", 3);
            TopologyTestDriver d = h.driver();
            h.line("= last " + entries(d.<String, String>getTimestampedKeyValueStore("last").all()));
            h.dropped();
            h.finish();
        });

        // Punctuations scheduled in init and cancelled from inside themselves: stream time every
        // 5 ms (two calls), wall clock every 10 ms (three calls).
        scenarios.put("papi_punctuations_cancelled", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", SS).process(Ticker::new).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.pipe("in", "k", "v0", 0);
            h.advanceWallClock(10);
            h.pipe("in", "k", "v3", 3);
            h.pipe("in", "k", "v6", 6);
            h.advanceWallClock(25);
            h.pipe("in", "k", "v12", 12);
            h.pipe("in", "k", "v20", 20);
            h.advanceWallClock(10);
            h.advanceWallClock(10);
            h.pipe("in", "k", "v40", 40);
            h.advanceWallClock(30);
            h.finish();
        });

        // processValues with a versioned store (history 10 ms): puts in and out of order, deletes,
        // writes older than the history, reads as of 3 ms before.
        scenarios.put("papi_versioned_store_process_values", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.versionedKeyValueStoreBuilder(Stores.persistentVersionedKeyValueStore("pv", ms(10)), Serdes.String(),
                                                                 Serdes.String()));
            b.stream("in", SS).processValues(VersionedKeeper::new, "pv").to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            String[][] in = {{"v10", "10"}, {"v20", "20"}, {"v15", "15"}, {"del", "17"}, {"v30", "30"}, {"v12", "12"}, {"v19", "19"},
                             {"v21", "21"}, {"del", "40"}, {"v35", "35"}};
            for (String[] r : in) h.pipe("in", "k", r[0], Long.parseLong(r[1]));
            h.finish();
        });

        // processValues with a window store (window 10 ms, retention 30): puts behind the
        // retention, reads of one key, the whole store at the end.
        scenarios.put("papi_window_store_process_values", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore("ws", ms(30), ms(10), false), Serdes.String(),
                                                      Serdes.String()));
            b.stream("in", SS).processValues(WindowKeeper::new, "ws").to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            String[][] in = {{"v5", "5"}, {"v15", "15"}, {"v12", "12"}, {"v41", "41"}, {"v11", "11"}, {"v19", "19"}, {"v60", "60"},
                             {"v31", "31"}, {"v30", "30"}};
            for (String[] r : in) h.pipe("in", "k", r[0], Long.parseLong(r[1]));
            TopologyTestDriver d = h.driver();
            h.line("= ws " + entries(d.<String, String>getWindowStore("ws").all()));
            h.finish();
        });

        // A tumbling reduce and a hopping aggregate returning null ("nul"): the window's row is
        // deleted and a tombstone goes out; the next record starts the window afresh.
        scenarios.put("windowed_reduce_aggregate_null", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(ms(10), ms(5)))
                       .reduce((a, c) -> c.equals("nul") ? null : a + "," + c,
                               Materialized.<String, String, WindowStore<Bytes, byte[]>>as("tumble-red").withCachingDisabled()),
                   "out-tumbling");
            showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(ms(10), ms(5)).advanceBy(ms(5)))
                       .aggregate(() -> "", (k, v, agg) -> v.equals("nul") ? null : show(agg) + "/" + v,
                                  Materialized.<String, String, WindowStore<Bytes, byte[]>>as("hop-agg").withCachingDisabled()),
                   "out-hopping");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-tumbling", S, S).output("out-hopping", S, S);
            String[][] in = {{"a", "1"}, {"b", "3"}, {"nul", "4"}, {"c", "6"}, {"d", "12"}, {"nul", "13"}, {"e", "14"}, {"f", "2"}};
            for (String[] r : in) h.pipe("in", "k", r[0], Long.parseLong(r[1]));
            h.dropped();
            h.finish();
        });

        // A session aggregate returning null: the merged session is removed and a tombstone goes
        // out.
        scenarios.put("session_aggregate_null", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(SessionWindows.ofInactivityGapAndGrace(ms(5), ms(5)))
                       .aggregate(() -> "", (k, v, agg) -> v.equals("nul") ? null : show(agg) + "/" + v,
                                  (k, a, c) -> show(a) + "|" + show(c),
                                  Materialized.<String, String, SessionStore<Bytes, byte[]>>as("sess-agg").withCachingDisabled()),
                   "out-session");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-session", S, S);
            String[][] in = {{"a", "1"}, {"b", "3"}, {"nul", "5"}, {"c", "7"}, {"d", "20"}, {"nul", "30"}, {"e", "26"}, {"f", "12"}};
            for (String[] r : in) h.pipe("in", "k", r[0], Long.parseLong(r[1]));
            h.dropped();
            h.finish();
        });

        // Windowed counts whose keys toStream maps to strings, then regrouped (a repartition).
        scenarios.put("windowed_to_stream_key_mapper_regrouped", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<Windowed<String>, Long> counts = b.stream("in", SS).groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(ms(10))).count();
            KStream<String, Long> st = counts.toStream((w, c) -> w.key() + "@" + w.window().start());
            st.to("out-mapped", PSL);
            st.groupByKey(Grouped.with(Serdes.String(), Serdes.Long())).reduce(Long::sum).toStream().to("out-sum", PSL);
            counts.toStream((w, c) -> w.key()).groupByKey(Grouped.with(Serdes.String(), Serdes.Long())).count().toStream().to("out-changes", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-mapped", S, L).output("out-sum", S, L).output("out-changes", S, L);
            String[][] in = {{"a", "1"}, {"a", "5"}, {"b", "7"}, {"a", "12"}, {"a", "3"}, {"b", "25"}, {"a", "9"}};
            for (String[] r : in) h.pipe("in", r[0], "x", Long.parseLong(r[1]));
            h.finish();
        });

        // The timestamps of every kind of result: stream-stream and stream-table joins, table
        // joins, counts, a table regroup and a final windowed count.
        scenarios.put("result_timestamps_all_kinds", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> st = b.stream("s1", SS);
            KStream<String, String> st2 = b.stream("s2", SS);
            KTable<String, String> t1 = b.table("t1", SS);
            KTable<String, String> t2 = b.table("t2", SS);
            st.join(st2, (x, y) -> x + "+" + y, JoinWindows.ofTimeDifferenceWithNoGrace(ms(20))).to("out-ss", PSS);
            st.join(t1, (x, y) -> x + "+" + y).to("out-st", PSS);
            t1.join(t2, (x, y) -> x + "+" + y).toStream().to("out-tt", PSS);
            t1.outerJoin(t2, (x, y) -> show(x) + "+" + show(y)).toStream().to("out-tto", PSS);
            st.groupByKey().count().toStream().to("out-count", PSL);
            t1.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k)).reduce((a, c) -> a + "," + c, (a, c) -> a).toStream().to("out-regroup", PSS);
            showCount(st.groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(ms(10))).count()
                          .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-final");
            Harness h = new Harness(b.build(), out).input("s1", S, S).input("s2", S, S).input("t1", S, S).input("t2", S, S)
                .output("out-ss", S, S).output("out-st", S, S).output("out-tt", S, S).output("out-tto", S, S).output("out-count", S, L)
                .output("out-regroup", S, S).output("out-final", S, L);
            h.pipe("t1", "a", "x1", 20);
            h.pipe("t2", "a", "y1", 5);
            h.pipe("s1", "a", "p", 8);
            h.pipe("s2", "a", "q", 15);
            h.pipe("s1", "a", "r", 3);
            h.pipe("t2", "a", "y2", 30);
            h.pipe("t1", "a", "x2", 25);
            h.pipe("t1", "b", "z1", 2);
            h.pipe("s2", "a", "u", 1);
            h.pipe("s1", "a", "w", 40);
            h.pipe("t2", "a", null, 35);
            h.pipe("t1", "a", null, 22);
            h.finish();
        });

        // Records at window starts, ends and grace edges in every window kind (10 ms, grace 2),
        // suppressed until their windows close.
        scenarios.put("window_boundaries_every_kind_final", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(ms(10), ms(2))).reduce((a, c) -> a + "," + c)
                       .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-tumbling");
            showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(ms(10), ms(2)).advanceBy(ms(4))).reduce((a, c) -> a + "," + c)
                       .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-hopping");
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(ms(10), ms(2))).reduce((a, c) -> a + "," + c)
                       .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-sliding");
            showTo(g.windowedBy(SessionWindows.ofInactivityGapAndGrace(ms(10), ms(2))).reduce((a, c) -> a + "," + c)
                       .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-session");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-tumbling", S, S).output("out-hopping", S, S)
                .output("out-sliding", S, S).output("out-session", S, S);
            for (long t : new long[] {0, 10, 9, 20, 12, 11, 22, 8, 32, 34, 21, 44, 33, 57}) h.pipe("in", "k", Long.toString(t), t);
            h.dropped();
            h.finish();
        });

        // Hopping and sliding reduces emitting on window close from in-memory stores.
        scenarios.put("hopping_sliding_emit_on_close_in_memory", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(TimeWindows.ofSizeAndGrace(ms(10), ms(3)).advanceBy(ms(5))).emitStrategy(EmitStrategy.onWindowClose())
                       .reduce((a, c) -> a + "," + c,
                               Materialized.<String, String, WindowStore<Bytes, byte[]>>as("hop-mem").withStoreType(Materialized.StoreType.IN_MEMORY)),
                   "out-hopping");
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(ms(5), ms(3))).emitStrategy(EmitStrategy.onWindowClose())
                       .reduce((a, c) -> a + "," + c,
                               Materialized.<String, String, WindowStore<Bytes, byte[]>>as("slide-mem").withStoreType(Materialized.StoreType.IN_MEMORY)),
                   "out-sliding");
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-hopping", S, S).output("out-sliding", S, S);
            String[][] in = {{"a", "2"}, {"a", "7"}, {"b", "9"}, {"a", "14"}, {"a", "5"}, {"b", "18"}, {"a", "22"}, {"a", "11"}, {"b", "30"},
                             {"a", "19"}, {"a", "50"}};
            for (String[] r : in) h.pipe("in", r[0], r[1], Long.parseLong(r[1]));
            h.dropped();
            h.finish();
        });

        // Deserialization errors (LogAndContinue) at a table source and at repartition topics of
        // a table regroup (a change whose old or new value fails is skipped whole) and a stream
        // grouping; what the stores hold after.
        scenarios.put("deserialization_errors_table_repartition", out -> pickyTables(out, continueOnErrors()));
        scenarios.put("deserialization_errors_table_repartition_dlq", out -> pickyTables(out, withDlq(continueOnErrors())));

        // Deserialization errors at a global table with a dead-letter queue; the store after.
        scenarios.put("deserialization_errors_global_table_dlq", out -> {
            StreamsBuilder b = new StreamsBuilder();
            GlobalKTable<String, String> glob = b.globalTable("glob", Consumed.with(Serdes.String(), new Picky("bad")),
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("glob-store"));
            b.stream("in", SS).leftJoin(glob, (k, v) -> v, (x, y) -> x + "#" + show(y)).to("out", PSS);
            Harness h = new Harness(b.build(), withDlq(continueOnErrors()), out).input("glob", S, S).input("in", S, S)
                .output("out", S, S).errorOutput("dlq", S, X);
            h.pipe("glob", "g1", "G1", 1);
            h.pipe("glob", "g1", "bad1", 2, "h=1");
            h.pipe("glob", "g2", "bad2", 3);
            h.pipe("in", "k", "g1", 4);
            h.pipe("in", "k", "g2", 5);
            TopologyTestDriver d = h.driver();
            h.line("= glob-store " + entries(d.<String, String>getKeyValueStore("glob-store").all()));
            h.dropped();
            h.finish();
        });

        // A processor that forwards, then throws; a mapValues below it that throws: with
        // LogAndContinue and a dead-letter queue, what reached the sinks and the queue.
        scenarios.put("processing_errors_forward_then_throw_dlq", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> p = b.stream("in", SS).process(ForwardThenThrow::new, Named.as("fwd-throw"));
            p.to("out", PSS);
            p.mapValues(v -> {
                if (v.equals("fail!")) throw new IllegalStateException("fail downstream");
                return v + "?";
            }).to("out-mapped", PSS);
            p.groupByKey().count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), withDlq(continueOnErrors()), out).input("in", S, S)
                .output("out", S, S).output("out-mapped", S, S).output("out-count", S, L).errorOutput("dlq", S, S);
            h.pipe("in", "a", "ok", 1, "h=1");
            h.pipe("in", "a", "boom", 2, "h=2");
            h.pipe("in", "b", "fail", 3);
            h.pipe("in", "a", "ok2", 4);
            h.dropped();
            h.finish();
        });

        // untilTimeLimit on a table source, a filter view of it, and a mapped view bounded by
        // records (emitting early) that a table join reads.
        scenarios.put("suppress_time_limit_table_views", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> src = b.table("in", SS, Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("src").withCachingDisabled());
            src.suppress(Suppressed.untilTimeLimit(ms(5), BufferConfig.unbounded())).toStream().to("out-src", PSS);
            KTable<String, String> fil = src.filter((k, v) -> v.length() > 1);
            fil.suppress(Suppressed.untilTimeLimit(ms(5), BufferConfig.unbounded())).toStream().to("out-filter", PSS);
            KTable<String, String> sup = src.mapValues(v -> v + "!")
                .suppress(Suppressed.untilTimeLimit(ms(3), BufferConfig.maxRecords(2).emitEarlyWhenFull()));
            sup.join(b.table("side", SS), (x, y) -> x + "+" + y).toStream().to("out-join", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("side", S, S)
                .output("out-src", S, S).output("out-filter", S, S).output("out-join", S, S);
            h.pipe("side", "a", "S", 0);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "22", 2);
            h.pipe("in", "b", "33", 3);
            h.pipe("in", "a", null, 4);
            h.pipe("in", "c", "4", 6);
            h.pipe("in", "b", "5", 8);
            h.pipe("side", "b", "T", 9);
            h.pipe("in", "a", "66", 9);
            h.pipe("in", "d", "77", 20);
            h.finish();
        });

        // A table regroup aggregating from a null initial value, whose adder ("nul") and
        // subtractor (short aggregates) return null.
        scenarios.put("aggregate_null_regroup_table", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("in", SS)
                .groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), v))
                .<String>aggregate(() -> null, (k, v, agg) -> v.equals("nul") ? null : show(agg) + "+" + v,
                                   (k, v, agg) -> agg == null || agg.length() < 8 ? null : agg + "-" + v)
                .toStream()
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.pipe("in", "k1", "n1", 1);
            h.pipe("in", "k2", "n2", 2);
            h.pipe("in", "k3", "nul", 3);
            h.pipe("in", "k1", "m1", 4);
            h.pipe("in", "k4", "n4", 5);
            h.pipe("in", "k2", null, 6);
            h.pipe("in", "k3", "m3", 7);
            h.pipe("in", "k3", "nul", 8);
            h.finish();
        });
        // A window shifted after the record: 2 ms to 5 ms after (before = -2), inner and left,
        // and an outer join 2 ms to 2 ms after.
        scenarios.put("join_negative_before_shifted", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> lt = b.stream("left", SS);
            KStream<String, String> rt = b.stream("right", SS);
            JoinWindows w = JoinWindows.ofTimeDifferenceAndGrace(ms(5), ms(1)).before(ms(-2));
            lt.join(rt, (x, y) -> x + "+" + y, w).to("out-inner", PSS);
            lt.leftJoin(rt, (x, y) -> x + "+" + show(y), w).to("out-left", PSS);
            lt.outerJoin(rt, (x, y) -> show(x) + "+" + show(y), w.after(ms(2))).to("out-outer", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-inner", S, S).output("out-left", S, S).output("out-outer", S, S);
            leftRight(h);
            h.dropped();
            h.finish();
        });

        // A stream left-joined with a versioned table (history 30 ms) with grace 4 ms and a joiner
        // taking the key: records wait for the grace, then join the version as of their time.
        scenarios.put("stream_table_left_join_versioned_grace_with_key", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> vt = b.table("tab", SS, Materialized.<String, String>as(Stores.persistentVersionedKeyValueStore("vtab", ms(30))));
            b.stream("in", SS)
                .leftJoin(vt, (k, x, y) -> k + ":" + x + "/" + show(y),
                          Joined.<String, String, String>with(Serdes.String(), Serdes.String(), Serdes.String()).withGracePeriod(ms(4)))
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("tab", S, S).input("in", S, S).output("out", S, S);
            h.pipe("tab", "a", "A10", 10);
            h.pipe("in", "a", "i12", 12);
            h.pipe("in", "a", "i5", 5);
            h.pipe("tab", "a", "A4", 4);
            h.pipe("in", "b", "i14", 14);
            h.pipe("in", "a", "i9", 9);
            h.pipe("tab", "a", null, 15);
            h.pipe("in", "a", "i16", 16);
            h.pipe("in", "a", "i11", 11);
            h.pipe("in", "a", "i30", 30);
            h.pipe("in", "a", "i25", 25);
            h.pipe("tab", "a", "A20", 20);
            h.pipe("in", "a", "i27", 27);
            h.dropped();
            h.finish();
        });

        // An explicit repartition into 3 partitions by value length, windowed and counted.
        scenarios.put("repartition_partitioned_windowed_count", out -> {
            StreamsBuilder b = new StreamsBuilder();
            org.apache.kafka.streams.processor.StreamPartitioner<String, String> byLength =
                (topic, k, v, n) -> java.util.Optional.of(java.util.Set.of(v.length() % n));
            KStream<String, String> rp = b.stream("in", SS).repartition(
                org.apache.kafka.streams.kstream.Repartitioned.<String, String>as("rp").withNumberOfPartitions(3).withStreamPartitioner(byLength));
            showCount(rp.groupByKey().windowedBy(TimeWindows.ofSizeAndGrace(ms(10), ms(2))).count(), "out-windows");
            rp.to("out-rp", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-windows", S, L).output("out-rp", S, S);
            String[][] in = {{"a", "x", "1"}, {"a", "xx", "3"}, {"b", "xxx", "12"}, {"a", "x", "2"}, {"a", "xxxx", "11"}, {"a", "xx", "9"},
                             {"b", "x", "25"}, {"a", "xxx", "7"}};
            for (String[] r : in) h.pipe("in", r[0], r[1], Long.parseLong(r[2]));
            h.dropped();
            h.finish();
        });
        // Wire formats of internal topics, in hex: the stores of an outer join (this, other,
        // shared), of a left join, a table regroup's repartition topic (changes with old and new
        // values), suppression buffers, the grace buffer of a stream-table join, a versioned table.
        scenarios.put("wire_outer_join_store_changelogs", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> lt = b.stream("left", SS);
            KStream<String, String> rt = b.stream("right", SS);
            lt.outerJoin(rt, (x, y) -> show(x) + "+" + show(y), JoinWindows.ofTimeDifferenceAndGrace(ms(6), ms(2)).before(ms(1))).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out", S, S)
                .output("conformance-KSTREAM-OUTERTHIS-0000000004-store-changelog", X, X)
                .output("conformance-KSTREAM-OUTEROTHER-0000000005-store-changelog", X, X)
                .output("conformance-KSTREAM-OUTERSHARED-0000000004-store-changelog", X, X);
            leftRight(h);
            h.finish();
        });

        scenarios.put("wire_left_join_store_changelogs", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> lt = b.stream("left", SS);
            KStream<String, String> rt = b.stream("right", SS);
            lt.leftJoin(rt, (x, y) -> x + "+" + show(y), JoinWindows.ofTimeDifferenceAndGrace(ms(6), ms(2)).after(ms(1))).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out", S, S)
                .output("conformance-KSTREAM-JOINTHIS-0000000004-store-changelog", X, X)
                .output("conformance-KSTREAM-OUTEROTHER-0000000005-store-changelog", X, X)
                .output("conformance-KSTREAM-OUTERSHARED-0000000004-store-changelog", X, X);
            leftRight(h);
            h.finish();
        });

        scenarios.put("wire_table_regroup_repartition", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("in", SS)
                .groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), v), Grouped.as("rg"))
                .reduce((a, c) -> a + "," + c, (a, c) -> a.replace(c, ""))
                .toStream()
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("conformance-rg-repartition", S, X);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k1", "a22", 2, "h=1");
            h.pipe("in", "k1", "b1", 3);
            h.pipe("in", "k2", "b0123456789012345678901234567890123456789012345678901234567890123456789", 4);
            h.pipe("in", "k2", "b0123456789012345678901234567890123456789012345678901234567890123456789x", 5);
            h.pipe("in", "k1", null, 6);
            h.pipe("in", "k2", "c", 7);
            h.finish();
        });

        scenarios.put("wire_suppress_changelogs", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("in", SS).suppress(Suppressed.untilTimeLimit(ms(5), BufferConfig.unbounded()).withName("sup-t")).toStream().to("out-t", PSS);
            showCount(b.stream("s", SS).groupByKey().windowedBy(TimeWindows.ofSizeAndGrace(ms(10), ms(2))).count()
                          .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()).withName("sup-w")), "out-w");
            Harness h = new Harness(b.build(), out).input("in", S, S).input("s", S, S).output("out-t", S, S).output("out-w", S, L)
                .output("conformance-sup-t-store-changelog", S, X).output("conformance-sup-w-store-changelog", X, X);
            h.pipe("in", "a", "1", 1, "h=1");
            h.pipe("in", "a", "2", 2);
            h.pipe("in", "b", null, 3);
            h.pipe("s", "x", "p", 4, "g=2");
            h.pipe("s", "x", "q", 6);
            h.pipe("in", "a", null, 7);
            h.pipe("s", "y", "r", 14);
            h.pipe("in", "c", "3", 20);
            h.finish();
        });

        // Records of one key at one time waiting in an outer join: the shared store's list grows.
        scenarios.put("wire_outer_join_same_time_list", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> lt = b.stream("left", SS);
            KStream<String, String> rt = b.stream("right", SS);
            lt.outerJoin(rt, (x, y) -> show(x) + "+" + show(y), JoinWindows.ofTimeDifferenceWithNoGrace(ms(3))).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out", S, S)
                .output("conformance-KSTREAM-OUTERSHARED-0000000004-store-changelog", X, X);
            h.pipe("left", "a", "L1", 10);
            h.pipe("left", "a", "L2", 10);
            h.pipe("right", "b", "R1", 10);
            h.pipe("left", "a", "L3", 10);
            h.pipe("right", "b", "R2", 11);
            h.pipe("right", "a", "R3", 12);
            h.pipe("left", "c", "L4", 30);
            h.finish();
        });

        // The stream-table join's grace buffer changelog: time-first keys, records with no timestamp.
        scenarios.put("wire_stream_table_grace_buffer", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> vt = b.table("tab", SS, Materialized.<String, String>as(Stores.persistentVersionedKeyValueStore("vtab", ms(30))));
            b.stream("in", SS)
                .join(vt, (x, y) -> x + "/" + y, Joined.<String, String, String>with(Serdes.String(), Serdes.String(), Serdes.String()).withGracePeriod(ms(4)))
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("tab", S, S).input("in", S, S).output("out", S, S)
                .output("conformance-KSTREAM-JOIN-0000000003-Buffer-changelog", X, X).output("conformance-vtab-changelog", S, X);
            h.pipe("tab", "a", "A10", 10);
            h.pipe("in", "a", "i12", 12, "h=1");
            h.pipe("in", "a", "i5", 5);
            h.pipe("tab", "a", "A4", 4);
            h.pipe("in", "a", "i16", 16);
            h.pipe("tab", "a", null, 15);
            h.pipe("in", "a", "i30", 30);
            h.finish();
        });
    }
}
