// The Java Kafka Streams side of the end-to-end benchmark: the same pipelines and settings as
// ../../../../../kstreams_app.cpp.
//
//   java -cp ... kstreams.e2e.App BOOTSTRAP APPLICATION_ID passthrough|stateless|stateful INPUT OUTPUT STATE_DIR
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
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;

public final class App {
    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: App BOOTSTRAP APPLICATION_ID passthrough|stateless|stateful INPUT OUTPUT STATE_DIR");
            System.exit(2);
        }
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> in = builder.stream(args[3]);
        if (args[2].equals("passthrough")) {
            in.to(args[4]);
        } else if (args[2].equals("stateless")) {
            in.filter((k, v) -> v != null && !v.isEmpty() && v.charAt(v.length() - 1) != '0')
                .mapValues(v -> v.toUpperCase(Locale.ROOT))
                .to(args[4]);
        } else if (args[2].equals("stateful")) {
            in.groupByKey().count().toStream().to(args[4], Produced.with(Serdes.String(), Serdes.Long()));
        } else {
            System.err.println("App: unknown pipeline " + args[2]);
            System.exit(2);
        }

        // Kafka Streams' defaults (one thread, 10 MiB record cache, at-least-once) except the
        // commit interval, as on the kstreams side.
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, args[1]);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        p.put(StreamsConfig.STATE_DIR_CONFIG, args[5]);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 1000);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
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
