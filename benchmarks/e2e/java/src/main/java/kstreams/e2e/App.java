// The Java Kafka Streams side of the end-to-end benchmark: the same pipelines and settings as
// ../../../../../kstreams_app.cpp.
//
//   java -cp ... kstreams.e2e.App BOOTSTRAP APPLICATION_ID PIPELINE INPUT OUTPUT STATE_DIR
//
// Prints STARTED right before KafkaStreams.start() (the driver times from there) and runs until
// SIGTERM, then closes cleanly.
package kstreams.e2e;

import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.WindowedSerdes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

public final class App {
    /** The Processor API workload: a get and a put on an uncached RocksDB store per record. */
    static final class KvCounter implements Processor<Integer, String, Integer, Long> {
        private ProcessorContext<Integer, Long> context;
        private KeyValueStore<Integer, Long> store;

        @Override
        public void init(ProcessorContext<Integer, Long> context) {
            this.context = context;
            this.store = context.getStateStore("kv");
        }

        @Override
        public void process(Record<Integer, String> r) {
            Long old = store.get(r.key());
            long n = (old == null ? 0 : old) + 1;
            store.put(r.key(), n);
            context.forward(r.withValue(n));
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: App BOOTSTRAP APPLICATION_ID PIPELINE INPUT OUTPUT STATE_DIR");
            System.exit(2);
        }
        // "<pipeline>-eos": the same under exactly_once_v2 (commits every 100 ms, its default).
        final boolean eos = args[2].endsWith("-eos");
        String kind = eos ? args[2].substring(0, args[2].length() - 4) : args[2], input = args[3], output = args[4];
        StreamsBuilder builder = new StreamsBuilder();
        KStream<Integer, String> in = builder.stream(input);
        switch (kind) {
            case "passthrough" -> in.to(output);
            case "stateless" -> in.filter((k, v) -> v != null && !v.isEmpty() && v.charAt(v.length() - 1) != '0')
                .mapValues(v -> v.toUpperCase(Locale.ROOT))
                .to(output);
            case "count", "stateful", "count_nocache" ->
                in.groupByKey().count().toStream().to(output, Produced.with(Serdes.Integer(), Serdes.Long()));
            case "hopping_count" -> in.groupByKey()
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMillis(1000)).advanceBy(Duration.ofMillis(500)))
                .count()
                .toStream()
                .to(output, Produced.with(WindowedSerdes.timeWindowedSerdeFrom(Integer.class, 1000L), Serdes.Long()));
            case "kv_store" -> {
                builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("kv"),
                                                                  Serdes.Integer(), Serdes.Long())
                                          .withCachingDisabled());
                in.process(KvCounter::new, Named.as("kv-counter"), "kv")
                    .to(output, Produced.with(Serdes.Integer(), Serdes.Long()));
            }
            case "table_join" -> {
                KTable<Integer, String> table = builder.table(input + "-table");
                in.leftJoin(table, (v, t) -> v).to(output);
            }
            case "stream_join" -> {
                KStream<Integer, String> side = builder.stream(input + "-side");
                in.leftJoin(side, (v, s) -> v,
                            JoinWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(10), Duration.ofSeconds(30)))
                    .to(output);
            }
            default -> {
                System.err.println("App: unknown pipeline " + kind);
                System.exit(2);
            }
        }

        // Kafka Streams' defaults (one thread, 10 MiB record cache, at-least-once) except the
        // commit interval, as on the kstreams side.
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, args[1]);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        p.put(StreamsConfig.STATE_DIR_CONFIG, args[5]);
        if (eos) p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        else p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 1000);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.IntegerSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        if (kind.equals("count_nocache")) p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        p.put("consumer.auto.offset.reset", "earliest");

        KafkaStreams streams = new KafkaStreams(builder.build(), p);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close(Duration.ofSeconds(60));
            stopped.countDown();
        }));
        System.out.println("STARTED");
        System.out.flush();
        streams.start();
        stopped.await();
    }
}
