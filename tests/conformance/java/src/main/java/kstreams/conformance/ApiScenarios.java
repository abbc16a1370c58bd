package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.ValueTransformerWithKey;
import org.apache.kafka.streams.processor.ProcessorContext;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Scenarios of API that ported applications use (tests/conformance/api_scenarios_test.cpp writes
 * the same with the kstreams DSL): KTable#transformValues with a store, materialized (named and
 * not) and read by a join through its getter.
 */
final class ApiScenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());
    static final Produced<String, Long> PSL = Produced.with(Serdes.String(), Serdes.Long());

    /** "value#n" with n the key's updates so far (store "seen"); a delete becomes "gone#n". */
    static final class Counting implements ValueTransformerWithKey<String, String, String> {
        private KeyValueStore<String, Long> seen;

        @Override
        public void init(ProcessorContext context) {
            seen = context.getStateStore("seen");
        }

        @Override
        public String transform(String key, String value) {
            Long n = seen.get(key);
            long next = n == null ? 1 : n + 1;
            seen.put(key, next);
            return (value == null ? "gone" : value) + "#" + next;
        }

        @Override
        public void close() { }
    }

    /** Upper-cases; "drop" and deletes give null (a delete). */
    static final class Upper implements ValueTransformerWithKey<String, String, String> {
        @Override
        public void init(ProcessorContext context) { }

        @Override
        public String transform(String key, String value) {
            return value == null || value.equals("drop") ? null : value.toUpperCase();
        }

        @Override
        public void close() { }
    }

    /** Appends the record's timestamp; a stream-time punctuation every 10 ms appends nothing. */
    static final class Stamped implements ValueTransformerWithKey<String, String, String> {
        private ProcessorContext context;

        @Override
        public void init(ProcessorContext context) {
            this.context = context;
            context.schedule(Duration.ofMillis(10), PunctuationType.STREAM_TIME, t -> { });
        }

        @Override
        public String transform(String key, String value) {
            return (value == null ? "null" : value) + "@" + context.timestamp();
        }

        @Override
        public void close() { }
    }

    /** Shows the record context it runs in: "value@timestamp:topic:partition:offset:h<headers>". */
    static final class Context implements ValueTransformerWithKey<String, String, String> {
        private ProcessorContext context;

        @Override
        public void init(ProcessorContext context) {
            this.context = context;
        }

        @Override
        public String transform(String key, String value) {
            return (value == null ? "null" : value) + "@" + context.timestamp() + ":" + context.topic() + ":"
                + context.partition() + ":" + context.offset() + ":h" + context.headers().toArray().length;
        }

        @Override
        public void close() { }
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // An unmaterialized transformValues read by a join through its getter: the transformer runs
        // as if on a record of the row's own (its timestamp, -1 for none; no topic, partition,
        // offset or headers), while the table's own processor sees the input record.
        scenarios.put("table_transform_values_getter", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> view = b.table("in", SS).transformValues(Context::new);
            view.toStream().to("out-view", PSS);
            b.stream("st", SS).leftJoin(view, (v, r) -> v + "/" + (r == null ? "none" : r)).to("out-join", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("st", S, S)
                .output("out-view", S, S).output("out-join", S, S);
            h.pipe("in", "a", "x", 5, "h=1");
            h.pipe("st", "a", "s1", 7, "h=2", "i=3");
            h.pipe("st", "b", "s2", 8);
            h.pipe("in", "a", "y", 9, "h=3");
            h.pipe("in", "b", null, 10);
            h.pipe("st", "a", "s3", 11);
            h.pipe("st", "b", "s4", 12, "h=4");
            h.finish();
        });

        // transformValues: a transformer with a store seeing deletes; a named materialized result
        // regrouped (old values from its store); an unnamed materialized (nothing kept); an
        // unmaterialized one read by a stream-table left join through its getter.
        scenarios.put("table_transform_values", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("seen"), Serdes.String(), Serdes.Long()));
            KTable<String, String> t = b.table("in", SS);
            t.transformValues(Counting::new, "seen").toStream().to("out-count", PSS);
            t.transformValues(Upper::new, Materialized.<String, String, KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("up")
                    .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()), Named.as("upper"))
                .groupBy((k, v) -> KeyValue.pair(v, k), Grouped.with(Serdes.String(), Serdes.String()))
                .count().toStream().to("out-regroup", PSL);
            t.transformValues(Stamped::new, Materialized.with(Serdes.String(), Serdes.String())).toStream().to("out-stamped", PSS);
            KTable<String, String> view = t.transformValues(Upper::new);
            b.stream("st", SS).leftJoin(view, (v, r) -> v + "/" + (r == null ? "none" : r)).to("out-join", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("st", S, S)
                .output("out-count", S, S).output("out-regroup", S, L).output("out-stamped", S, S).output("out-join", S, S);
            h.pipe("in", "a", "x", 1);
            h.pipe("in", "b", "x", 2);
            h.pipe("st", "a", "s1", 3);
            h.pipe("in", "a", "y", 4);
            h.pipe("in", "b", "drop", 5);
            h.pipe("st", "b", "s2", 6);
            h.pipe("in", "c", null, 7);
            h.pipe("in", "a", null, 8);
            h.pipe("st", "a", "s3", 9);
            h.pipe("in", null, "z", 10);
            h.pipe("in", "c", "w", 11);
            h.pipe("st", "c", "s4", 12);
            h.finish();
        });
    }

    private ApiScenarios() { }
}
