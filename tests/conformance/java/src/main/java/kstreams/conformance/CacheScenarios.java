package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Main.PSL;
import static kstreams.conformance.Main.PSS;
import static kstreams.conformance.Main.SCENARIOS;
import static kstreams.conformance.Main.SS;
import static kstreams.conformance.Main.split;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Scenarios with the record cache on (see Main): what a cached store forwards carries the
 * timestamp and headers of the record that last wrote the entry.
 */
final class CacheScenarios {
    /** Forwards each record with a copy of its headers plus n=<value>. */
    static final class TagWithValue implements FixedKeyProcessor<String, String, String> {
        private FixedKeyProcessorContext<String, String> ctx;
        @Override
        public void init(FixedKeyProcessorContext<String, String> ctx) { this.ctx = ctx; }
        @Override
        public void process(FixedKeyRecord<String, String> r) {
            RecordHeaders hs = new RecordHeaders(r.headers().toArray());
            hs.add("n", r.value().getBytes(StandardCharsets.UTF_8));
            ctx.forward(r.withHeaders(hs));
        }
    }

    static void register() {
        // Cached aggregations, a cached table source, a cached materialized filter and a cached
        // table regrouping forward the headers of the record that wrote each entry; two writes
        // of one key while processing one input record forward the later writer's headers.
        SCENARIOS.put("headers_cached", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.groupByKey().count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("c"))
                .toStream().to("out-count", PSL);
            s.selectKey((k, v) -> v).groupByKey()
                .reduce((a, c) -> a + c, Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("r"))
                .toStream().to("out-reduce", PSS);
            s.flatMapValues(v -> split(v, " ")).processValues(TagWithValue::new).groupByKey()
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("c2"))
                .toStream().to("out-last", PSL);
            KTable<String, String> t = b.table("tin", SS, Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("t"));
            t.toStream().to("out-table", PSS);
            t.filter((k, v) -> !v.equals("drop"), Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("f"))
                .toStream().to("out-filter", PSS);
            t.groupBy((k, v) -> KeyValue.pair(v, k), Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("g"))
                .toStream().to("out-group", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tin", S, S)
                .output("out-count", S, L).output("out-reduce", S, S).output("out-last", S, L)
                .output("out-table", S, S).output("out-filter", S, S).output("out-group", S, L);
            h.pipe("in", "a", "x y", 1, "h=1");
            h.pipe("in", "b", "x", 2, "h=2", "g=3");
            h.pipe("in", "a", "z", 3);
            h.pipe("in", "a", "x y", 4, "h=4");
            h.pipe("tin", "k", "v", 5, "t=1");
            h.pipe("tin", "k", "w", 6, "t=2");
            h.pipe("tin", "j", "v", 7);
            h.pipe("tin", "k", "drop", 8, "t=3");
            h.pipe("tin", "k", null, 9, "t=4");
            h.pipe("tin", "j", null, 10, "t=5");
            h.finish();
        });
    }

    private CacheScenarios() {}
}
