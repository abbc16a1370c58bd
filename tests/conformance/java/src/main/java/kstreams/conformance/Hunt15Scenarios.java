package kstreams.conformance;

import static kstreams.conformance.Harness.Type.I;
import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Harness.Type.X;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
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
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.Suppressed.BufferConfig;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.WindowedSerdes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.kstream.SessionWindowedKStream;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * Scenarios of the fifteenth conformance hunt (tests/conformance/hunt15_scenarios_test.cpp writes
 * the same with kstreams): the Processor API mixed with the DSL (forwarding to named DSL children,
 * new timestamps and headers into windows, punctuations of two processors, DSL stores read by a
 * processor), groupings by another key type, windowed roll-ups, views of windowed tables under
 * suppression, time-limited suppression with wall-clock advances, table round trips through
 * streams, join names, timestamp extractors on every source kind, topics written and read back,
 * pattern and multi-topic sources, windows near the epoch.
 */
final class Hunt15Scenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());
    static final Produced<String, Long> PSL = Produced.with(Serdes.String(), Serdes.Long());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    static <V> void showTo(KTable<Windowed<String>, V> t, String topic, Produced<String, V> p) {
        WindowKindScenarios.showTo(t, topic, p);
    }

    /** Routes by the value's first letter: "a" to the child "to-a" (value + "!"), "b" to "to-b"
     * at timestamp + 100, "n" nowhere, anything else to every child. */
    static final class Router implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        @Override public void init(ProcessorContext<String, String> c) { ctx = c; }
        @Override public void process(Record<String, String> r) {
            String v = r.value() == null ? "" : r.value();
            if (v.startsWith("a")) ctx.forward(r.withValue(v + "!"), "to-a");
            else if (v.startsWith("b")) ctx.forward(r.withTimestamp(r.timestamp() + 100), "to-b");
            else if (v.startsWith("s")) ctx.forward(r.withValue(v + "$"), "sink-all");
            else if (!v.startsWith("n")) ctx.forward(r);
        }
    }

    /** Doubles the timestamp and adds a header "n" counting records seen (per task). */
    static final class Retimer implements FixedKeyProcessor<String, String, String> {
        private FixedKeyProcessorContext<String, String> ctx;
        private int n;
        @Override public void init(FixedKeyProcessorContext<String, String> c) { ctx = c; }
        @Override public void process(FixedKeyRecord<String, String> r) {
            RecordHeaders hs = new RecordHeaders(r.headers().toArray());
            hs.add("n", Integer.toString(++n).getBytes());
            ctx.forward(r.withTimestamp(r.timestamp() * 2).withHeaders(hs).withValue(r.value() + "@" + r.timestamp()));
        }
    }

    /** Forwards each record, and on a stream-time punctuation every `interval` ms a record
     * "name" -> "tick@<time>:<records seen>". */
    static final class Ticker implements Processor<String, String, String, String> {
        private final String name;
        private final long interval;
        private ProcessorContext<String, String> ctx;
        private int seen;
        Ticker(String name, long interval) { this.name = name; this.interval = interval; }
        @Override public void init(ProcessorContext<String, String> c) {
            ctx = c;
            ctx.schedule(Duration.ofMillis(interval), PunctuationType.STREAM_TIME,
                         ts -> ctx.forward(new Record<>(name, "tick@" + ts + ":" + seen, ts)));
        }
        @Override public void process(Record<String, String> r) {
            ++seen;
            ctx.forward(r.withValue(r.value() + "|" + name));
        }
    }

    /** Reads the DSL count store "counts" for the looked-up key. */
    static final class CountLookup implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private TimestampedKeyValueStore<String, Long> counts;
        @Override public void init(ProcessorContext<String, String> c) {
            ctx = c;
            counts = ctx.getStateStore("counts");
        }
        @Override public void process(Record<String, String> r) {
            ValueAndTimestamp<Long> c = counts.get(r.value());
            ctx.forward(r.withValue(r.value() + "=" + (c == null ? "none" : c.value() + "@" + c.timestamp())));
        }
    }

    /** Re-keys by the value's first letter; keeps the last value and timestamp per new key in a
     * timestamped store and forwards "previous>value" at the previous record's timestamp. */
    static final class LastByLetter implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private TimestampedKeyValueStore<String, String> last;
        @Override public void init(ProcessorContext<String, String> c) {
            ctx = c;
            last = ctx.getStateStore("last");
        }
        @Override public void process(Record<String, String> r) {
            String k = r.value().substring(0, 1);
            ValueAndTimestamp<String> prev = last.get(k);
            last.put(k, ValueAndTimestamp.make(r.value(), r.timestamp()));
            long ts = prev == null ? r.timestamp() : prev.timestamp();
            ctx.forward(new Record<>(k, (prev == null ? "none" : prev.value()) + ">" + r.value(), ts));
        }
    }

    /** Writes each record into four logged stores: "kv" (cached; value "del" deletes), "ts"
     * (timestamped, at timestamp + 1), "win" (window of start timestamp - timestamp % 10) and
     * "sess" (cached; session [timestamp, timestamp + 5]); a stream-time punctuation every 20 ms
     * puts "punct" -> "@time" into "kv". Forwards "ok". */
    static final class StoreWriter implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private KeyValueStore<String, String> kv;
        private TimestampedKeyValueStore<String, String> ts;
        private WindowStore<String, String> win;
        private SessionStore<String, String> sess;
        @Override public void init(ProcessorContext<String, String> c) {
            ctx = c;
            kv = ctx.getStateStore("kv");
            ts = ctx.getStateStore("ts");
            win = ctx.getStateStore("win");
            sess = ctx.getStateStore("sess");
            ctx.schedule(Duration.ofMillis(20), PunctuationType.STREAM_TIME, t -> kv.put("punct", "@" + t));
        }
        @Override public void process(Record<String, String> r) {
            if (r.value().equals("del")) kv.delete(r.key());
            else kv.put(r.key(), r.value());
            ts.put(r.key(), ValueAndTimestamp.make(r.value(), r.timestamp() + 1));
            win.put(r.key(), r.value(), r.timestamp() - r.timestamp() % 10);
            sess.put(new Windowed<>(r.key(), new SessionWindow(r.timestamp(), r.timestamp() + 5)), r.value());
            ctx.forward(r.withValue("ok"));
        }
    }

    /** Forwards the value with the record's topic and offset and its timestamp. */
    static final class Where implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        @Override public void init(ProcessorContext<String, String> c) { ctx = c; }
        @Override public void process(Record<String, String> r) {
            RecordMetadata m = ctx.recordMetadata().orElse(null);
            ctx.forward(r.withValue(r.value() + "|" + (m == null ? "none" : m.topic() + "@" + m.offset()) + "|" + r.timestamp()));
        }
    }

    /** Wall-clock punctuations every 10 and 33 ms forward "w10@time" / "w33@time"; records
     * forward their value with the wall-clock time. */
    static final class WallTicker implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        @Override public void init(ProcessorContext<String, String> c) {
            ctx = c;
            ctx.schedule(Duration.ofMillis(10), PunctuationType.WALL_CLOCK_TIME, t -> ctx.forward(new Record<>("w10", "@" + t, t)));
            ctx.schedule(Duration.ofMillis(33), PunctuationType.WALL_CLOCK_TIME, t -> ctx.forward(new Record<>("w33", "@" + t, t)));
        }
        @Override public void process(Record<String, String> r) {
            ctx.forward(r.withValue(r.value() + "@" + ctx.currentSystemTimeMs()));
        }
    }

    /** Counts values per key in the connected store "seen" and appends the count. */
    static final class SeenCounter implements FixedKeyProcessor<String, String, String> {
        private FixedKeyProcessorContext<String, String> ctx;
        private KeyValueStore<String, Long> seen;
        @Override public void init(FixedKeyProcessorContext<String, String> c) {
            ctx = c;
            seen = ctx.getStateStore("seen");
        }
        @Override public void process(FixedKeyRecord<String, String> r) {
            Long n = seen.get(r.key());
            long c = n == null ? 1 : n + 1;
            seen.put(r.key(), c);
            ctx.forward(r.withValue(r.value() + "#" + c));
        }
    }

    static final List<String> LOG = new ArrayList<>();

    /** Pipes a record, then prints the side effects it caused (peek / foreach), as "! " lines. */
    static void pipeLogged(Harness h, String topic, String key, String value, long ts) {
        h.pipe(topic, key, value, ts);
        for (String l : LOG) h.line("! " + l);
        LOG.clear();
    }

    static String showKey(Object k) {
        if (!(k instanceof Windowed)) return show(k);
        Windowed<?> w = (Windowed<?>) k;
        return w.key() + "@" + w.window().start() + "/" + w.window().end();
    }

    static String showValue(Object v) {
        if (v instanceof ValueAndTimestamp) {
            ValueAndTimestamp<?> vt = (ValueAndTimestamp<?>) v;
            return vt.value() + "@" + vt.timestamp();
        }
        return show(v);
    }

    /** "key=value " per entry; windowed keys as key@start/end, timestamped values as value@ts. */
    static String entries(org.apache.kafka.streams.state.KeyValueIterator<?, ?> it) {
        StringBuilder sb = new StringBuilder();
        while (it.hasNext()) {
            KeyValue<?, ?> kv = it.next();
            sb.append(showKey(kv.key)).append('=').append(showValue(kv.value)).append(' ');
        }
        it.close();
        return sb.toString();
    }

    static java.time.Instant at(long ms) { return java.time.Instant.ofEpochMilli(ms); }

    /** Forwards its record untouched (a processor for shaping topologies). */
    static final class Pass implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        @Override public void init(ProcessorContext<String, String> c) { ctx = c; }
        @Override public void process(Record<String, String> r) { ctx.forward(r); }
    }

    /** A global store's update processor: keeps the value. */
    static final class KeepGlobal implements Processor<String, String, Void, Void> {
        private KeyValueStore<String, String> store;
        @Override public void init(ProcessorContext<Void, Void> ctx) { store = ctx.getStateStore("glob"); }
        @Override public void process(Record<String, String> r) { store.put(r.key(), r.value()); }
    }

    /** Reads the DSL's windowed count "wcnt" and session count "scnt" for the value as key. */
    static final class WindowReader implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private org.apache.kafka.streams.state.TimestampedWindowStore<String, Long> wcnt;
        private SessionStore<String, Long> scnt;
        @Override public void init(ProcessorContext<String, String> c) {
            ctx = c;
            wcnt = ctx.getStateStore("wcnt");
            scnt = ctx.getStateStore("scnt");
        }
        @Override public void process(Record<String, String> r) {
            ctx.forward(r.withValue(entries(wcnt.fetch(r.value(), at(0), at(r.timestamp()))) + "| "
                                    + entries(wcnt.backwardFetchAll(at(0), at(100))) + "| " + entries(scnt.fetch(r.value()))));
        }
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // A processor forwarding to named DSL children (a filter, a map_values, a sink named by
        // Produced), or to all of them.
        scenarios.put("papi_route_to_named_dsl_children", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> r = b.stream("in", SS).process(Router::new, Named.as("router"));
            r.filter((k, v) -> !v.endsWith("x"), Named.as("to-a")).to("out-a", PSS);
            r.mapValues(v -> v + "#", Named.as("to-b")).to("out-b", PSS);
            r.to("out-all", Produced.with(Serdes.String(), Serdes.String()).withName("sink-all"));
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-a", S, S).output("out-b", S, S).output("out-all", S, S);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k2", "b2", 2);
            h.pipe("in", "k3", "c3", 3);
            h.pipe("in", "k4", "n4", 4);
            h.pipe("in", "k5", "ax", 5);
            h.pipe("in", "k6", "s6", 6);
            h.pipe("in", null, "c7", 7, "h=7");
            h.finish();
        });

        // process_values moving timestamps (doubled) and adding headers, into a tumbling count
        // (late records by the new timestamps dropped) and a sink.
        scenarios.put("process_values_retimed_into_windows", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> p = b.stream("in", SS).processValues(Retimer::new, Named.as("retime"));
            p.to("out", PSS);
            showTo(p.groupByKey().windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(5))).count(), "out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("out-count", S, L);
            h.pipe("in", "a", "1", 1, "x=1");
            h.pipe("in", "a", "2", 4);
            h.pipe("in", "b", "3", 6, "x=3");
            h.pipe("in", "a", "4", 3);
            h.pipe("in", "a", "5", 13);
            h.pipe("in", "a", "6", 8);
            h.pipe("in", "b", "7", 5);
            h.dropped();
            h.finish();
        });

        // Two chained processors with stream-time punctuations of 10 and 25 ms: the first's ticks
        // pass through the second; one record can fire both.
        scenarios.put("stream_time_punctuations_chained", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", SS).process(() -> new Ticker("p1", 10), Named.as("p1"))
                .process(() -> new Ticker("p2", 25), Named.as("p2")).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.pipe("in", "a", "1", 3);
            h.pipe("in", "a", "2", 12);
            h.pipe("in", "b", "3", 9);
            h.pipe("in", "b", "4", 27);
            h.pipe("in", "a", "5", 80);
            h.advanceWallClock(1000);
            h.pipe("in", "a", "6", 81);
            h.pipe("in", "a", "7", 100);
            h.finish();
        });

        // A processor reading the store of a DSL count by name: both sources join one
        // sub-topology.
        scenarios.put("papi_reads_dsl_count_store", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", SS).groupByKey().count(Materialized.as("counts")).toStream().to("out-count", PSL);
            b.stream("lookups", SS).process(CountLookup::new, Named.as("lookup"), "counts").to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("lookups", S, S).output("out-count", S, L).output("out", S, S);
            h.pipe("lookups", "q1", "a", 1);
            h.pipe("in", "a", "x", 5);
            h.pipe("in", "a", "y", 3);
            h.pipe("lookups", "q2", "a", 2);
            h.pipe("in", "b", "z", 9);
            h.pipe("lookups", "q3", "b", 4);
            h.pipe("lookups", "q4", "c", 10);
            h.finish();
        });

        // A processor changing keys with a timestamped store, then a grouping (repartitioned
        // because process() may change keys) and a to_table.
        scenarios.put("process_rekey_timestamped_store", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.timestampedKeyValueStoreBuilder(Stores.persistentTimestampedKeyValueStore("last"), Serdes.String(), Serdes.String()));
            KStream<String, String> p = b.stream("in", SS).process(LastByLetter::new, "last");
            p.groupByKey().reduce((x, y) -> x + "," + y).toStream().to("out-reduce", PSS);
            p.toTable(Named.as("pt"), Materialized.as("pt-store")).toStream().to("out-table", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-reduce", S, S).output("out-table", S, S);
            h.pipe("in", "k1", "a1", 10);
            h.pipe("in", "k2", "a2", 5);
            h.pipe("in", "k3", "b3", 7);
            h.pipe("in", "k1", "a4", 20);
            h.pipe("in", "k4", "b5", 1);
            h.finish();
        });

        // group_by to an Integer key (value length) with its serdes; counts and a tumbling count
        // written with the time-windowed Integer serde.
        scenarios.put("group_by_integer_key", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<Integer, String> g = b.stream("in", SS)
                .groupBy((k, v) -> v == null ? -1 : v.length(), Grouped.with("by-len", Serdes.Integer(), Serdes.String()));
            g.count().toStream().to("out-count", Produced.with(Serdes.Integer(), Serdes.Long()));
            g.reduce((x, y) -> x + "+" + y, Materialized.with(Serdes.Integer(), Serdes.String())).toStream()
                .mapValues((k, v) -> k + ":" + v).to("out-reduce", Produced.with(Serdes.Integer(), Serdes.String()));
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count().toStream()
                .to("out-windowed", Produced.with(WindowedSerdes.timeWindowedSerdeFrom(Integer.class, 10), Serdes.Long()));
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-count", I, L).output("out-reduce", I, S).output("out-windowed", X, L);
            h.pipe("in", "k1", "ab", 1);
            h.pipe("in", "k2", "cd", 2);
            h.pipe("in", "k3", "efg", 3);
            h.pipe("in", null, "hi", 12);
            h.pipe("in", "k1", "", 4);
            h.pipe("in", "k1", null, 5);
            h.finish();
        });

        // A roll-up: per-key counts of 5 ms windows summed into 20 ms windows (updates counted
        // again), and the same on window close.
        scenarios.put("windowed_rollup_chain", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, Long> fine = b.stream("in", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(5))).count().toStream()
                .map((w, c) -> KeyValue.pair(w.key(), c));
            showTo(fine.groupByKey(Grouped.with(Serdes.String(), Serdes.Long()))
                       .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(20))).reduce(Long::sum), "out-sum", PSL);
            KStream<String, Long> closed = b.stream("in", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(5), Duration.ofMillis(1)))
                .emitStrategy(org.apache.kafka.streams.kstream.EmitStrategy.onWindowClose())
                .count(Materialized.as("fine-close")).toStream()
                .map((w, c) -> KeyValue.pair(w.key(), c));
            showTo(closed.groupByKey(Grouped.with("closed", Serdes.String(), Serdes.Long()))
                       .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(20))).reduce(Long::sum), "out-close-sum", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-sum", S, L).output("out-close-sum", S, L);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 3);
            h.pipe("in", "b", "3", 4);
            h.pipe("in", "a", "4", 7);
            h.pipe("in", "a", "5", 12);
            h.pipe("in", "b", "6", 19);
            h.pipe("in", "a", "7", 21);
            h.pipe("in", "a", "8", 26);
            h.pipe("in", "b", "9", 45);
            h.finish();
        });

        // Views of a windowed count (filter, map_values) under final suppression.
        scenarios.put("windowed_views_suppressed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<Windowed<String>, Long> c = b.stream("in", SS).groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(10), Duration.ofMillis(2))).count();
            showTo(c.filter((k, v) -> v >= 2).suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-filter", PSL);
            showTo(c.mapValues(v -> "n" + v).suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()).withName("mv-sup")),
                   "out-mapped", PSS);
            showTo(c.filterNot((k, v) -> v >= 2, Named.as("fnot")).suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())),
                   "out-filter-not", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-filter", S, L).output("out-mapped", S, S).output("out-filter-not", S, L);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "b", "2", 2);
            h.pipe("in", "a", "3", 5);
            h.pipe("in", "c", "4", 11);
            h.pipe("in", "b", "5", 9);
            h.pipe("in", "a", "6", 12);
            h.pipe("in", "c", "7", 13);
            h.pipe("in", "a", "8", 25);
            h.pipe("in", "c", "9", 40);
            h.finish();
        });

        // Time-limited suppression of a table: the wall clock never emits (stream time does);
        // eager buffer of two records.
        scenarios.put("suppress_time_limit_wall_clock", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", SS);
            t.suppress(Suppressed.untilTimeLimit(Duration.ofMillis(10), BufferConfig.unbounded())).toStream().to("out", PSS);
            t.suppress(Suppressed.untilTimeLimit(Duration.ofMillis(10), BufferConfig.maxRecords(2).emitEarlyWhenFull()))
                .toStream().to("out-eager", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S).output("out-eager", S, S);
            h.pipe("in", "a", "1", 1);
            h.advanceWallClock(50);
            h.pipe("in", "b", "2", 2);
            h.pipe("in", "a", "3", 3);
            h.advanceWallClock(50);
            h.pipe("in", "c", "4", 4);
            h.pipe("in", "a", null, 11);
            h.advanceWallClock(1000);
            h.pipe("in", "d", "5", 12);
            h.pipe("in", "b", "6", 30);
            h.finish();
        });

        // A table through a stream and back: to_stream().to_table() materialized and not, joined,
        // filtered and regrouped.
        scenarios.put("table_stream_round_trips", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", SS);
            KTable<String, String> copy = t.toStream().toTable(Materialized.as("copy"));
            KTable<String, String> plain = t.toStream().mapValues(v -> v == null ? null : v + "!").toTable();
            copy.join(plain, (x, y) -> x + "&" + y).toStream().to("out-join", PSS);
            plain.filter((k, v) -> !v.startsWith("x")).toStream().to("out-filter", PSS);
            copy.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), k)).count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-join", S, S).output("out-filter", S, S).output("out-count", S, L);
            h.pipe("in", "k1", "a1", 1);
            h.pipe("in", "k2", "x2", 2);
            h.pipe("in", "k1", "b3", 3);
            h.pipe("in", "k3", null, 4);
            h.pipe("in", "k2", null, 5);
            h.pipe("in", "k1", "b3", 6);
            h.finish();
        });

        // Join names: StreamJoined with a name and store name over re-keyed streams, Joined with a
        // name over a re-keyed stream, and what they name (repartition topics, stores).
        scenarios.put("join_names_rekeyed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS).selectKey((k, v) -> v.substring(0, 1));
            KStream<String, String> r = b.stream("right", SS).selectKey((k, v) -> v.substring(0, 1));
            l.join(r, (x, y) -> x + "+" + y, JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5)),
                   StreamJoined.with(Serdes.String(), Serdes.String(), Serdes.String()).withName("sj").withStoreName("sj-store"))
                .to("out-ss", PSS);
            l.leftJoin(b.table("table", SS), (x, y) -> x + "/" + show(y), Joined.<String, String, String>as("jt")).to("out-st", PSS);
            r.outerJoin(l, (x, y) -> show(x) + "|" + show(y), JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(2), Duration.ofMillis(1)),
                        StreamJoined.<String, String, String>as("oj-store").withName("oj"))
                .to("out-outer", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).input("table", S, S)
                .output("out-ss", S, S).output("out-st", S, S).output("out-outer", S, S);
            h.pipe("table", "a", "TA", 1);
            h.pipe("left", "k1", "a1", 2);
            h.pipe("right", "k2", "a2", 3);
            h.pipe("left", "k3", "b3", 4);
            h.pipe("right", "k4", "b9", 9);
            h.pipe("left", "k5", "a20", 20);
            h.finish();
        });

        // Timestamp extractors on a stream, a table and a global table (value "payload@ts";
        // negative timestamps skipped); joins take the extracted times.
        scenarios.put("extractors_on_all_sources", out -> {
            StreamsBuilder b = new StreamsBuilder();
            org.apache.kafka.streams.processor.TimestampExtractor ex = (rec, pt) -> {
                String v = (String) rec.value();
                if (v == null) return pt;
                return Long.parseLong(v.substring(v.indexOf('@') + 1));
            };
            KStream<String, String> s = b.stream("in", Consumed.with(Serdes.String(), Serdes.String()).withTimestampExtractor(ex));
            KTable<String, String> t = b.table("table", Consumed.with(Serdes.String(), Serdes.String()).withTimestampExtractor(ex));
            org.apache.kafka.streams.kstream.GlobalKTable<String, String> g =
                b.globalTable("global", Consumed.with(Serdes.String(), Serdes.String()).withTimestampExtractor(ex));
            s.leftJoin(t, (x, y) -> x + "/" + show(y)).to("out-table", PSS);
            s.join(g, (k, v) -> k, (x, y) -> x + "/" + y).to("out-global", PSS);
            t.toStream().to("out-changes", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("table", S, S).input("global", S, S)
                .output("out-table", S, S).output("out-global", S, S).output("out-changes", S, S);
            h.pipe("table", "a", "t@5", 100);
            h.pipe("global", "a", "g@7", 100);
            h.pipe("in", "a", "s@3", 100);
            h.pipe("in", "a", "s@-1", 100);
            h.pipe("table", "a", null, 100);
            h.pipe("in", "a", "s@9", 1);
            h.pipe("table", "b", "t@-5", 100);
            h.pipe("in", "b", "s@10", 100);
            h.dropped();
            h.finish();
        });

        // A topic written by the topology and read back by another source, and one read by a global
        // table: the driver routes them in memory.
        scenarios.put("written_topic_read_back", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", SS).mapValues(v -> v + "!").to("mid", PSS);
            KStream<String, String> mid = b.stream("mid", SS).mapValues(v -> v + "?");
            mid.to("out", PSS);
            mid.to("gmid", PSS);
            org.apache.kafka.streams.kstream.GlobalKTable<String, String> g = b.globalTable("gmid", SS, Materialized.as("gmid-store"));
            b.stream("probe", SS).leftJoin(g, (k, v) -> v, (x, y) -> x + "/" + show(y)).to("out-probe", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("probe", S, S)
                .output("mid", S, S).output("out", S, S).output("gmid", S, S).output("out-probe", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "b", "2", 2);
            h.pipe("probe", "p", "a", 3);
            h.pipe("in", "a", "3", 0);
            h.pipe("probe", "p", "a", 4);
            h.pipe("probe", "p", "c", 5);
            h.finish();
        });

        // A source of several topics and a pattern source: one node each, records of every topic.
        scenarios.put("multi_topic_and_pattern_sources", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream(List.of("t1", "t2"), SS).groupByKey().count().toStream().to("out-count", PSL);
            b.stream(Pattern.compile("p-.*"), SS).mapValues((k, v) -> k + ":" + v).to("out-pattern", PSS);
            Harness h = new Harness(b.build(), out).input("t1", S, S).input("t2", S, S).input("p-x", S, S).input("p-y", S, S)
                .output("out-count", S, L).output("out-pattern", S, S);
            h.pipe("t1", "a", "1", 1);
            h.pipe("t2", "a", "2", 2);
            h.pipe("p-x", "b", "3", 3);
            h.pipe("t2", "b", "4", 4);
            h.pipe("p-y", "c", "5", 5);
            h.finish();
        });

        // Windows near the epoch: hopping windows that would start before 0, sliding windows of
        // records within the time difference of 0, sessions at 0.
        scenarios.put("windows_near_epoch", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            showTo(g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)).advanceBy(Duration.ofMillis(3))).count(), "out-hop", PSL);
            showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(5))).count(), "out-sliding", PSL);
            showTo(g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(3))).count(), "out-session", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out-hop", S, L).output("out-sliding", S, L).output("out-session", S, L);
            h.pipe("in", "a", "1", 0);
            h.pipe("in", "a", "2", 2);
            h.pipe("in", "a", "3", 1);
            h.pipe("in", "a", "4", 6);
            h.pipe("in", "b", "5", 0);
            h.finish();
        });

        // Session reduce, map_values and final suppression: merges reach the buffer as tombstones.
        scenarios.put("session_views_suppressed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<Windowed<String>, String> s = b.stream("in", SS).groupByKey()
                .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofMillis(5), Duration.ofMillis(2)))
                .reduce((x, y) -> x + "+" + y);
            showTo(s.mapValues(v -> "[" + v + "]").suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-mapped", PSS);
            showTo(s.filter((k, v) -> v.contains("+")).suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())), "out-filter", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-mapped", S, S).output("out-filter", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 10);
            h.pipe("in", "a", "3", 5);
            h.pipe("in", "b", "4", 6);
            h.pipe("in", "a", "5", 20);
            h.pipe("in", "b", "6", 30);
            h.pipe("in", "a", "7", 40);
            h.finish();
        });
        // The changelogs of a processor's stores: key-value (cached), timestamped, window and
        // session (cached), written by records with headers and by a punctuation.
        scenarios.put("papi_store_changelogs", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("kv"), Serdes.String(), Serdes.String()).withCachingEnabled());
            b.addStateStore(Stores.timestampedKeyValueStoreBuilder(Stores.persistentTimestampedKeyValueStore("ts"), Serdes.String(), Serdes.String()));
            b.addStateStore(Stores.windowStoreBuilder(Stores.inMemoryWindowStore("win", Duration.ofMillis(50), Duration.ofMillis(10), false),
                                                      Serdes.String(), Serdes.String()));
            b.addStateStore(Stores.sessionStoreBuilder(Stores.inMemorySessionStore("sess", Duration.ofMillis(50)), Serdes.String(), Serdes.String())
                                .withCachingEnabled());
            b.stream("in", SS).process(StoreWriter::new, "kv", "ts", "win", "sess").to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S)
                .output("conformance-kv-changelog", S, S).output("conformance-ts-changelog", S, S)
                .output("conformance-win-changelog", X, S).output("conformance-sess-changelog", X, S);
            h.pipe("in", "a", "1", 3, "h=1");
            h.pipe("in", "b", "2", 12);
            h.pipe("in", "a", "3", 14, "h=3", "g=x");
            h.pipe("in", "a", "del", 25, "h=del");
            h.pipe("in", "b", "5", 41);
            h.finish();
        });

        // The changelogs of DSL stores: a table source, a count, a windowed reduce, a session
        // count (merges delete), a sliding count; inputs with headers.
        scenarios.put("dsl_store_changelogs", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.table("tin", SS, Materialized.as("tstore")).toStream().to("out-table", PSS);
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            g.count(Materialized.as("cnt")).toStream().to("out-count", PSL);
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                .reduce((x, y) -> x + "+" + y, Materialized.<String, String, WindowStore<Bytes, byte[]>>as("wred").withCachingDisabled());
            g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5))).count(Materialized.as("scnt"));
            g.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(4)))
                .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("slcnt").withCachingDisabled());
            Harness h = new Harness(b.build(), out).input("tin", S, S).input("in", S, S)
                .output("out-table", S, S).output("out-count", S, L)
                .output("conformance-tstore-changelog", S, S).output("conformance-cnt-changelog", S, L)
                .output("conformance-wred-changelog", X, S).output("conformance-scnt-changelog", X, L)
                .output("conformance-slcnt-changelog", X, L);
            h.pipe("tin", "t", "1", 5, "h=t1");
            h.pipe("tin", "t", null, 6, "h=t2");
            h.pipe("in", "a", "x", 1, "h=1");
            h.pipe("in", "a", "y", 7, "h=2");
            h.pipe("in", "a", "z", 4);
            h.pipe("in", "b", "w", 12, "h=4");
            h.finish();
        });

        // stream("in") three times: one source (the first's name and extractor); a process()
        // shows the timestamps and offsets it reads.
        scenarios.put("duplicate_sources_merged", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", Consumed.with(Serdes.String(), Serdes.String()).withName("first")).mapValues(v -> v + "1").to("out1", PSS);
            b.stream("in", Consumed.with(Serdes.String(), Serdes.String()).withName("second").withTimestampExtractor((r, p) -> 42L))
                .process(Where::new).to("out2", PSS);
            b.stream("in", SS).selectKey((k, v) -> v).groupByKey().count().toStream().to("out-count", PSL);
            b.stream(Pattern.compile("p-.*"), SS).to("out-p", PSS);
            b.stream(Pattern.compile("p-.*"), Consumed.with(Serdes.String(), Serdes.String()).withName("p2")).process(Where::new).to("out-p2", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("p-a", S, S)
                .output("out1", S, S).output("out2", S, S).output("out-count", S, L).output("out-p", S, S).output("out-p2", S, S);
            h.pipe("in", "k1", "v", 5);
            h.pipe("in", "k2", "w", 3);
            h.pipe("p-a", "k3", "v", 7);
            h.pipe("in", "k3", "v", 9);
            h.finish();
        });

        // Wall-clock punctuations of 10 and 33 ms over advances of several intervals: each fires
        // once per advance, in the order of their due times, with the wall-clock time.
        scenarios.put("wall_clock_punctuations_catch_up", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", SS).process(WallTicker::new, Named.as("wall")).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            h.advanceWallClock(5);
            h.advanceWallClock(5);
            h.pipe("in", "a", "1", 1);
            h.advanceWallClock(25);
            h.advanceWallClock(100);
            h.pipe("in", "a", "2", 2);
            h.advanceWallClock(3);
            h.advanceWallClock(2);
            h.advanceWallClock(30);
            h.pipe("in", "a", "3", 3);
            h.finish();
        });

        // peek and foreach side effects in order, before and after a repartition and in split
        // branches.
        scenarios.put("peek_foreach_side_effect_order", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS).peek((k, v) -> LOG.add("peek1 " + k + "=" + v));
            s.foreach((k, v) -> LOG.add("each1 " + k + "=" + v));
            s.selectKey((k, v) -> v).repartition(org.apache.kafka.streams.kstream.Repartitioned.as("rp"))
                .peek((k, v) -> LOG.add("peek-rp " + k + "=" + v)).groupByKey().count().toStream()
                .foreach((k, v) -> LOG.add("count " + k + "=" + v));
            s.split().branch((k, v) -> v.startsWith("a"), org.apache.kafka.streams.kstream.Branched.withConsumer(ks -> ks.foreach((k, v) -> LOG.add("branch-a " + k))))
                .defaultBranch(org.apache.kafka.streams.kstream.Branched.withConsumer(ks -> ks.peek((k, v) -> LOG.add("branch-other " + k)).to("out", PSS)));
            s.foreach((k, v) -> LOG.add("each2 " + k));
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out", S, S);
            pipeLogged(h, "in", "k1", "a", 1);
            pipeLogged(h, "in", "k2", "b", 2);
            pipeLogged(h, "in", "k3", "a", 3);
            h.finish();
        });

        // A stream-stream join's results (timestamps the larger of the two) counted in tumbling
        // windows; left-join results emitted at window close counted too.
        scenarios.put("join_results_windowed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            JoinWindows w = JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(3), Duration.ofMillis(2));
            showTo(l.join(r, (x, y) -> x + "+" + y, w).groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                       .reduce((x, y) -> x + "," + y), "out-inner", PSS);
            showTo(l.leftJoin(r, (x, y) -> x + "+" + show(y), w).groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10)))
                       .reduce((x, y) -> x + "," + y), "out-left", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out-inner", S, S).output("out-left", S, S);
            h.pipe("left", "k", "L1", 1);
            h.pipe("right", "k", "R3", 3);
            h.pipe("left", "k", "L8", 8);
            h.pipe("right", "k", "R11", 11);
            h.pipe("left", "j", "J12", 12);
            h.pipe("right", "k", "R20", 20);
            h.pipe("left", "k", "L30", 30);
            h.pipe("right", "k", "R31", 31);
            h.pipe("left", "k", "L45", 45);
            h.dropped();
            h.finish();
        });

        // process_values with a store keeps the key: a table join and a count need no
        // repartition.
        scenarios.put("process_values_store_then_join", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("seen"), Serdes.String(), Serdes.Long()));
            KStream<String, String> p = b.stream("in", SS).processValues(SeenCounter::new, Named.as("seen-counter"), "seen");
            p.join(b.table("table", SS), (x, y) -> x + "/" + y).to("out-join", PSS);
            p.groupByKey().count().toStream().to("out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("table", S, S).output("out-join", S, S).output("out-count", S, L);
            h.pipe("table", "a", "TA", 1);
            h.pipe("in", "a", "x", 2);
            h.pipe("in", "b", "y", 3);
            h.pipe("in", "a", "z", 4);
            h.pipe("table", "b", "TB", 5);
            h.pipe("in", "b", "w", 6);
            h.finish();
        });

        // One named repartition read by a count, a table join and a processor.
        scenarios.put("repartition_shared_consumers", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> rp = b.stream("in", SS).selectKey((k, v) -> v.substring(0, 1))
                .repartition(org.apache.kafka.streams.kstream.Repartitioned.as("rp"));
            rp.groupByKey().count().toStream().to("out-count", PSL);
            rp.leftJoin(b.table("table", SS), (x, y) -> x + "/" + show(y)).to("out-join", PSS);
            rp.process(Where::new).to("out-where", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("table", S, S)
                .output("out-count", S, L).output("out-join", S, S).output("out-where", S, S);
            h.pipe("table", "a", "TA", 1);
            h.pipe("in", "k1", "a1", 2);
            h.pipe("in", "k2", "b2", 3);
            h.pipe("in", "k3", "a3", 1);
            h.finish();
        });
        // describe() of a processor with five stores (listed in Java's hash set order) and of a
        // global store.
        scenarios.put("describe_many_stores_and_global", out -> {
            org.apache.kafka.streams.Topology t = new org.apache.kafka.streams.Topology();
            t.addSource("src", Serdes.String().deserializer(), Serdes.String().deserializer(), "in");
            t.addProcessor("proc", Pass::new, "src");
            t.addProcessor("proc2", Pass::new, "proc");
            for (String n : List.of("zeta", "alpha", "mid", "aa", "b1"))
                t.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(n), Serdes.String(), Serdes.String()), "proc");
            t.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("other"), Serdes.String(), Serdes.String()), "proc2");
            t.connectProcessorAndStateStores("proc2", "alpha");
            t.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("glob"), Serdes.String(), Serdes.String()).withLoggingDisabled(),
                             "gsrc", Serdes.String().deserializer(), Serdes.String().deserializer(), "g", "gproc", KeepGlobal::new);
            t.addSink("sink", "out", Serdes.String().serializer(), Serdes.String().serializer(), "proc2");
            Harness h = new Harness(t, out).input("in", S, S).input("g", S, S).output("out", S, S);
            h.pipe("g", "x", "G", 1);
            h.pipe("in", "a", "1", 2);
            h.finish();
        });

        // A processor reading the DSL's timestamped window store and session store by name.
        scenarios.put("papi_reads_dsl_window_stores", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(10))).count(Materialized.as("wcnt"));
            g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofMillis(5))).count(Materialized.as("scnt"));
            b.stream("q", SS).process(WindowReader::new, "wcnt", "scnt").to("out", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("q", S, S).output("out", S, S);
            h.pipe("in", "a", "1", 1);
            h.pipe("in", "a", "2", 4);
            h.pipe("in", "b", "3", 12);
            h.pipe("q", "q1", "a", 13);
            h.pipe("in", "a", "4", 15);
            h.pipe("q", "q2", "a", 30);
            h.pipe("q", "q3", "b", 31);
            h.finish();
        });
    }
}
