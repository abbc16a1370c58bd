package kstreams.conformance;

import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Harness.Type.X;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TableJoined;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/**
 * Issue D's last foreign-key join checks (tests/conformance/join_d12_scenarios_test.cpp writes the
 * same with the kstreams DSL): the subscription store's changelog (bytes, timestamps and headers),
 * stale responses dropped and counted, out-of-order updates of versioned tables on either side,
 * StreamsBuilder.addGlobalStore, and StreamJoined's store suppliers.
 */
final class JoinD12Scenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    /** "fk:payload" -> fk; "none..." -> null (no foreign key). */
    static String fk(String v) {
        if (v.startsWith("none")) return null;
        return v.substring(0, v.indexOf(':'));
    }

    static Materialized<String, String, KeyValueStore<Bytes, byte[]>> versioned(String name, long retentionMs) {
        return Materialized.<String, String>as(Stores.persistentVersionedKeyValueStore(name, Duration.ofMillis(retentionMs)))
            .withKeySerde(Serdes.String()).withValueSerde(Serdes.String());
    }

    /** A global store's update processor: keeps the value upper-cased, deletes on null. */
    static final class UpperIntoStore implements Processor<String, String, Void, Void> {
        private final String storeName;
        private KeyValueStore<String, String> store;
        UpperIntoStore(String storeName) { this.storeName = storeName; }
        @Override public void init(ProcessorContext<Void, Void> ctx) { store = ctx.getStateStore(storeName); }
        @Override public void process(Record<String, String> r) {
            if (r.value() == null) store.delete(r.key());
            else store.put(r.key(), r.value().toUpperCase());
        }
    }

    /** A stream processor reading both global stores without being connected to them. */
    static final class LookUp implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private KeyValueStore<String, String> codes;
        private KeyValueStore<String, String> names;
        @Override public void init(ProcessorContext<String, String> ctx) {
            this.ctx = ctx;
            codes = ctx.getStateStore("codes");
            names = ctx.getStateStore("names");
        }
        @Override public void process(Record<String, String> r) {
            ctx.forward(r.withValue(show(codes.get(r.value())) + "," + show(names.get(r.value()))));
        }
    }

    /** What Kafka says of a join within 10 ms, grace 5, with `sj` ("accepted" if nothing). */
    static String refusal(StreamJoined<String, String, String> sj) {
        StreamsBuilder b = new StreamsBuilder();
        try {
            b.stream("left", SS).join(b.stream("right", SS), (l, r) -> l + "+" + r,
                JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)), sj);
            return "accepted";
        } catch (RuntimeException e) {
            String m = e.getMessage();
            return m.startsWith("Window settings mismatch") ? "Window settings mismatch" : m;
        }
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // Aggregations materialized onto versioned stores (Kafka allows it): a stream count and
        // reduce, and a table re-grouped and counted, with out-of-order records and tombstones.
        scenarios.put("aggregate_versioned_store", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> in = b.stream("in", SS);
            in.groupByKey().count(Materialized.<String, Long>as(Stores.persistentVersionedKeyValueStore("counts", Duration.ofMillis(50)))
                    .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                .toStream().to("out-count", Produced.with(Serdes.String(), Serdes.Long()));
            in.groupByKey().reduce((a, v) -> a + "+" + v, versioned("reduced", 50)).toStream().to("out-reduce", PSS);
            b.table("users", SS).groupBy((u, r) -> KeyValue.pair(r, u), Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long>as(Stores.persistentVersionedKeyValueStore("per-region", Duration.ofMillis(50)))
                    .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                .toStream().to("out-region", Produced.with(Serdes.String(), Serdes.Long()));
            Harness h = new Harness(b.build(), out).input("in", S, S).input("users", S, S)
                .output("out-count", S, Harness.Type.L).output("out-reduce", S, S).output("out-region", S, Harness.Type.L);
            h.pipe("in", "a", "1", 10);
            h.pipe("in", "a", "2", 20);
            h.pipe("in", "a", "3", 15);
            h.pipe("in", "b", "4", 5);
            h.pipe("in", "a", "5", 100);
            h.pipe("in", "a", "6", 30);
            h.pipe("in", "c", "7", 10);
            h.pipe("in", "c", "8", 11);
            h.pipe("in", "a", null, 101);
            h.pipe("users", "alice", "eu", 10);
            h.pipe("users", "bob", "eu", 20);
            h.pipe("users", "alice", "us", 15);
            h.pipe("users", "bob", null, 30);
            h.pipe("users", "carol", "eu", 5);
            h.pipe("users", "dave", "asia", 150);
            h.pipe("users", "erin", "eu", 40);
            h.pipe("users", "fred", "af", 60);
            h.dropped();
            h.finish();
        });

        // StreamJoined.withThisStoreSupplier / withOtherStoreSupplier: the join's buffers in the
        // user's window stores (their names name the stores, the outer join's shared store follows
        // the this-side supplier's name and kind); the changelogs of both; the suppliers Kafka refuses.
        scenarios.put("stream_joined_store_suppliers", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> left = b.stream("left", SS);
            KStream<String, String> right = b.stream("right", SS);
            WindowBytesStoreSupplier mine = Stores.inMemoryWindowStore("mine", Duration.ofMillis(25), Duration.ofMillis(20), true);
            WindowBytesStoreSupplier theirs = Stores.persistentWindowStore("theirs", Duration.ofMillis(25), Duration.ofMillis(20), true);
            left.leftJoin(right, (l, r) -> l + "+" + show(r), JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(10), Duration.ofMillis(5)),
                    StreamJoined.with(Serdes.String(), Serdes.String(), Serdes.String())
                        .withThisStoreSupplier(mine).withOtherStoreSupplier(theirs))
                .to("out", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out", S, S)
                .output("conformance-mine-changelog", X, X).output("conformance-theirs-changelog", X, X);
            h.pipe("left", "a", "L1", 10, "h=1");
            h.pipe("right", "a", "R1", 15);
            h.pipe("left", "b", "L2", 20);
            h.pipe("right", "a", "R2", 40);
            h.pipe("left", "c", "L3", 60);
            h.line("! retention " + refusal(StreamJoined.<String, String, String>with(
                Stores.inMemoryWindowStore("x", Duration.ofMillis(30), Duration.ofMillis(20), true), null)));
            h.line("! size " + refusal(StreamJoined.<String, String, String>with(
                Stores.inMemoryWindowStore("x", Duration.ofMillis(25), Duration.ofMillis(10), true), null)));
            h.line("! duplicates " + refusal(StreamJoined.<String, String, String>with(
                Stores.inMemoryWindowStore("x", Duration.ofMillis(25), Duration.ofMillis(20), false), null)));
            h.line("! other duplicates " + refusal(StreamJoined.<String, String, String>with(null,
                Stores.inMemoryWindowStore("x", Duration.ofMillis(25), Duration.ofMillis(20), false))));
            h.line("! same names " + refusal(StreamJoined.<String, String, String>with(
                Stores.inMemoryWindowStore("x", Duration.ofMillis(25), Duration.ofMillis(20), true),
                Stores.persistentWindowStore("x", Duration.ofMillis(25), Duration.ofMillis(20), true))));
            h.line("! matching " + refusal(StreamJoined.<String, String, String>with(
                Stores.inMemoryWindowStore("x", Duration.ofMillis(25), Duration.ofMillis(20), true),
                Stores.persistentWindowStore("y", Duration.ofMillis(25), Duration.ofMillis(20), true))));
            h.finish();
        });

        // StreamsBuilder.addGlobalStore: unnamed (KSTREAM-SOURCE / KTABLE-SOURCE) and named by
        // Consumed.as, stores with logging asked for (turned off), read by a stream processor.
        scenarios.put("builder_add_global_store", out -> {
            StreamsBuilder b = new StreamsBuilder();
            b.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("codes"), Serdes.String(), Serdes.String()),
                "codes-topic", SS, () -> new UpperIntoStore("codes"));
            b.addGlobalStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("names"), Serdes.String(), Serdes.String())
                    .withLoggingEnabled(Map.of()),
                "names-topic", Consumed.with(Serdes.String(), Serdes.String()).withName("names-in"), () -> new UpperIntoStore("names"));
            b.stream("in", SS).process(LookUp::new).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("codes-topic", S, S).input("names-topic", S, S)
                .input("in", S, S).output("out", S, S);
            h.pipe("codes-topic", "a", "alpha", 1);
            h.pipe("names-topic", "a", "ann", 2);
            h.pipe("in", "k1", "a", 3);
            h.pipe("codes-topic", "a", null, 4);
            h.pipe("names-topic", "b", "bob", 5);
            h.pipe("in", "k2", "a", 6);
            h.pipe("in", "k3", "b", 7);
            h.finish();
        });

        // The subscription store's changelog: subscriptions kept (the wire bytes, the subscription's
        // timestamp, the left row's headers), removed on a foreign key change and on deletes.
        scenarios.put("fk_subscription_store_changelog", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS);
            KTable<String, String> customers = b.table("customers", SS);
            orders.leftJoin(customers, JoinD12Scenarios::fk, (o, c) -> o + "/" + show(c), TableJoined.as("fk"))
                .toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S).output("out", S, S)
                .output("conformance-fk-subscription-store-changelog", X, X)
                .output("conformance-orders-STATE-STORE-0000000000-changelog", S, S);
            h.pipe("customers", "c1", "Alice", 5, "from=customers");
            h.pipe("orders", "o1", "c1:apple", 10, "from=orders", "n=1");
            h.pipe("orders", "o2", "c2:pear", 11);
            h.pipe("orders", "o1", "c1:plum", 12, "from=update");
            h.pipe("customers", "c1", "Alicia", 13, "from=customer-update");
            h.pipe("orders", "o1", "c2:apple", 14, "from=move");
            h.pipe("orders", "o2", null, 15, "from=delete");
            h.pipe("orders", "o3", "none", 16, "from=nofk");
            h.pipe("orders", "o1", null, 17);
            h.finish();
        });

        // Inner join, the store's changelog again: deletes of the left row unsubscribe
        // (DELETE_KEY_AND_PROPAGATE), a row without foreign key unsubscribes its old one.
        scenarios.put("fk_subscription_store_changelog_inner", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS);
            KTable<String, String> customers = b.table("customers", SS);
            orders.join(customers, JoinD12Scenarios::fk, (o, c) -> o + "/" + c, TableJoined.as("fk"))
                .toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S).output("out", S, S)
                .output("conformance-fk-subscription-store-changelog", X, X);
            h.pipe("customers", "c1", "Alice", 5);
            h.pipe("orders", "o1", "c1:apple", 10, "h=1");
            h.pipe("orders", "o1", "none", 11, "h=2");
            h.pipe("orders", "o1", "c1:fig", 12, "h=3");
            h.pipe("orders", "o1", null, 13, "h=4");
            h.pipe("orders", "o2", null, 14, "h=5");
            h.dropped();
            h.finish();
        });

        // Stale responses: one input record updates the left row twice (flatMapValues into a
        // table), so the first subscription's response comes back for a value that has changed
        // since; it is dropped and counted (dropped-records-total), the second one joins. The table is not
        // cached, so that both updates reach the join.
        scenarios.put("fk_stale_response_dropped", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.stream("orders", SS)
                .flatMapValues(v -> Arrays.asList(v.split(",")))
                .toTable(Materialized.<String, String, KeyValueStore<Bytes, byte[]>>with(Serdes.String(), Serdes.String())
                    .withCachingDisabled());
            KTable<String, String> customers = b.table("customers", SS);
            orders.leftJoin(customers, JoinD12Scenarios::fk, (o, c) -> o + "/" + show(c)).toStream().to("out", PSS);
            orders.join(customers, JoinD12Scenarios::fk, (o, c) -> o + "/" + c).toStream().to("out-inner", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S)
                .output("out", S, S).output("out-inner", S, S);
            h.pipe("customers", "c1", "Alice", 1);
            h.pipe("customers", "c2", "Bob", 2);
            h.pipe("orders", "o1", "c1:apple,c1:plum", 10);
            h.dropped();
            h.pipe("orders", "o1", "c1:fig,c2:fig", 11);
            h.dropped();
            h.pipe("orders", "o2", "c2:kiwi,none,c1:kiwi", 12);
            h.dropped();
            h.pipe("customers", "c1", "Alicia", 13);
            h.dropped();
            h.finish();
        });

        // Versioned tables on both sides of a foreign-key join: an out-of-order update (older than
        // the key's latest) of either side changes nothing downstream and is counted as dropped.
        scenarios.put("fk_join_versioned_out_of_order", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS, versioned("orders-v", 100));
            KTable<String, String> customers = b.table("customers", SS, versioned("customers-v", 100));
            orders.leftJoin(customers, JoinD12Scenarios::fk, (o, c) -> o + "/" + show(c)).toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S).output("out", S, S);
            h.pipe("customers", "c1", "Alice", 10);
            h.pipe("orders", "o1", "c1:apple", 20);
            h.pipe("orders", "o1", "c2:old", 15);
            h.dropped();
            h.pipe("customers", "c1", "Old", 5);
            h.dropped();
            h.pipe("customers", "c1", "Alicia", 30);
            h.pipe("orders", "o1", null, 12);
            h.dropped();
            h.pipe("customers", "c1", null, 8);
            h.dropped();
            h.pipe("orders", "o1", "c1:plum", 40);
            h.finish();
        });
    }
}
