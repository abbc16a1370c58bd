package kstreams.conformance;

import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Main.SCENARIOS;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KeyValueMapper;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Stream-global-table joins and global stores (tests/conformance/global_join_scenarios_test.cpp
 * writes the same with the kstreams DSL): a global topic updates its store at once, the stream
 * side alone triggers, the key mapper picks the table key (a null mapped key: inner drops, left
 * joins with null), no repartition for a re-keyed stream.
 */
final class GlobalJoinScenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    /** Order values are "user:item"; a value without ':' maps to a null table key. */
    static final KeyValueMapper<String, String, String> USER_OF = (k, v) -> {
        if (v == null) return null;
        int i = v.indexOf(':');
        return i < 0 ? null : v.substring(0, i);
    };

    /** Orders against a global users table: rows arriving, changing and deleted between
     *  stream records; null stream keys, null values, null mapped keys, an empty mapped key. */
    static void orders(Harness h) {
        h.pipe("orders", "k1", "alice:o1", 10);
        h.pipe("users", "alice", "paris", 20);
        h.pipe("orders", "k2", "alice:o2", 15);
        h.pipe("orders", null, "alice:o3", 16);
        h.pipe("orders", "k4", "nobody", 17);
        h.pipe("orders", "k5", null, 18);
        h.pipe("users", "bob", "rome", 5);
        h.pipe("orders", "k6", "bob:o6", 30);
        h.pipe("users", "alice", "oslo", 40);
        h.pipe("orders", "k7", "alice:o7", 35);
        h.pipe("users", "bob", null, 50);
        h.pipe("orders", "k8", "bob:o8", 45);
        h.pipe("users", null, "nowhere", 51);
        h.pipe("orders", "k9", ":o9", 52);
        h.pipe("users", "", "empty", 53);
        h.pipe("orders", "k10", ":o10", 54);
        h.pipe("users", "carol", "lima", 1);
        h.pipe("orders", "k11", "carol:o11", 2);
    }

    /** A global store's update processor: keeps the upper-cased value (a null value deletes). */
    static final class UpperUpdater implements Processor<String, String, Void, Void> {
        private KeyValueStore<String, String> store;
        @Override public void init(ProcessorContext<Void, Void> ctx) { store = ctx.getStateStore("global-kv"); }
        @Override public void process(Record<String, String> r) {
            if (r.key() == null) return;
            if (r.value() == null) store.delete(r.key());
            else store.put(r.key(), r.value().toUpperCase());
        }
    }

    /** A stream processor reading the global store it is not connected to. */
    static final class Lookup implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> ctx;
        private KeyValueStore<String, String> store;
        @Override public void init(ProcessorContext<String, String> c) { ctx = c; store = c.getStateStore("global-kv"); }
        @Override public void process(Record<String, String> r) {
            ctx.forward(r.withValue(r.value() + "@" + show(r.key() == null ? null : store.get(r.key()))));
        }
    }

    static void register() {
        // Inner join; the joiner sees the stream key.
        SCENARIOS.put("global_table_join_inner", out -> {
            StreamsBuilder b = new StreamsBuilder();
            GlobalKTable<String, String> users = b.globalTable("users", SS);
            b.stream("orders", SS).join(users, USER_OF, (k, o, u) -> show(k) + ":" + o + "@" + u).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("users", S, S).output("out", S, S);
            orders(h);
            h.finish();
        });

        // Left join: absent rows and null mapped keys joined with null; null values dropped.
        SCENARIOS.put("global_table_join_left", out -> {
            StreamsBuilder b = new StreamsBuilder();
            GlobalKTable<String, String> users = b.globalTable("users", SS);
            b.stream("orders", SS).leftJoin(users, USER_OF, (o, u) -> o + "@" + show(u)).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("users", S, S).output("out", S, S);
            orders(h);
            h.finish();
        });

        // A materialized (named) global table built after the stream, a re-keyed stream joined
        // without any repartition topic, named joins, both kinds off one stream.
        SCENARIOS.put("global_table_join_rekeyed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> orders = b.stream("orders", SS);
            GlobalKTable<String, String> users = b.globalTable("users", SS, Materialized.as("users-store"));
            KStream<String, String> byItem = orders.selectKey((k, v) -> v == null ? null : v.substring(v.indexOf(':') + 1));
            byItem.join(users, USER_OF, (o, u) -> o + "@" + u, Named.as("enrich")).to("out", PSS);
            byItem.leftJoin(users, (k, v) -> k, (k, o, u) -> show(k) + ":" + o + "@" + show(u)).to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("users", S, S)
                .output("out", S, S).output("out-left", S, S);
            orders(h);
            h.pipe("users", "o2", "item-row", 60);
            h.pipe("orders", "k12", "x:o2", 61);
            h.finish();
        });

        // The Processor API: a global store with its own update processor, read by a stream
        // processor that is not connected to it.
        SCENARIOS.put("global_store_processor", out -> {
            Topology t = new Topology();
            t.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("global-kv"), Serdes.String(), Serdes.String())
                                 .withLoggingDisabled(),
                             "global-source", Serdes.String().deserializer(), Serdes.String().deserializer(), "users",
                             "global-updater", UpperUpdater::new);
            t.addSource("src", Serdes.String().deserializer(), Serdes.String().deserializer(), "orders");
            t.addProcessor("lookup", Lookup::new, "src");
            t.addSink("sink", "out", Serdes.String().serializer(), Serdes.String().serializer(), "lookup");
            Harness h = new Harness(t, out).input("orders", S, S).input("users", S, S).output("out", S, S);
            h.pipe("orders", "alice", "o1", 10);
            h.pipe("users", "alice", "paris", 20);
            h.pipe("orders", "alice", "o2", 15);
            h.pipe("users", "alice", null, 30);
            h.pipe("orders", "alice", "o3", 31);
            h.pipe("users", null, "x", 32);
            h.pipe("orders", null, "o4", 33);
            h.finish();
        });
    }
}
