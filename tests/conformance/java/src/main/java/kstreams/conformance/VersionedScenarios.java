package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Main.SCENARIOS;

import java.time.Duration;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Joined;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Versioned tables (KIP-889, KIP-914; tests/conformance/versioned_scenarios_test.cpp writes the
 * same with the kstreams DSL): a table source over a versioned store (out-of-order updates,
 * tombstones, the history retention edge, the changelog), filters, joins and a grouping over
 * versioned tables, and stream-table joins reading the table as of the stream record's time.
 */
final class VersionedScenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    static Materialized<String, String, KeyValueStore<Bytes, byte[]>> versioned(String name, long retentionMs) {
        return Materialized.<String, String>as(Stores.persistentVersionedKeyValueStore(name, Duration.ofMillis(retentionMs)))
            .withKeySerde(Serdes.String()).withValueSerde(Serdes.String());
    }

    /** Updates of "in": in order, out of order, at the latest's timestamp, tombstones (of present
     *  and absent keys), older than the history retention, at its edge, null keys. */
    static void versionedInputs(Harness h) {
        h.pipe("in", "a", "v1", 10);
        h.pipe("in", "a", "v2", 20);
        h.pipe("in", "a", "v0", 15);
        h.pipe("in", "a", "v2b", 20);
        h.pipe("in", "b", "w1", 30);
        h.pipe("in", "a", null, 25);
        h.pipe("in", "a", "v3", 22);
        h.pipe("in", "a", "v4", 5);
        h.pipe("in", "a", "v5", 10);
        h.pipe("in", "c", null, 31);
        h.pipe("in", null, "n", 32);
        h.pipe("in", "a", "xv6", 40);
        h.pipe("in", "a", "v7", 35);
        h.pipe("in", "b", null, 12);
        h.pipe("in", "b", "w2", 21);
        h.pipe("in", "b", "xw3", 41);
        h.pipe("in", "b", "w4", 36);
    }

    /** Two versioned tables updated in turn, in and out of order, with tombstones. */
    static void versionedSides(Harness h) {
        h.pipe("left", "a", "L1", 10);
        h.pipe("right", "a", "R1", 12);
        h.pipe("left", "a", "L0", 5);
        h.pipe("right", "a", "R0", 11);
        h.pipe("left", "a", "L2", 20);
        h.pipe("right", "b", "R2", 21);
        h.pipe("left", "b", "xL3", 22);
        h.pipe("left", "b", "L4", 15);
        h.pipe("right", "a", null, 30);
        h.pipe("right", "a", "R3", 25);
        h.pipe("left", "a", null, 31);
        h.pipe("left", "a", "L5", 28);
        h.pipe("left", "c", "L6", 2);
        h.pipe("left", "b", "L7", 40);
        h.pipe("right", "b", null, 35);
        h.pipe("left", "b", "xL8", 39);
    }

    /** Orders read the users table as of their own timestamps. */
    static void asOfOrders(Harness h) {
        h.pipe("users", "alice", "paris", 10);
        h.pipe("users", "alice", "oslo", 20);
        h.pipe("orders", "alice", "o1", 5);
        h.pipe("orders", "alice", "o2", 15);
        h.pipe("orders", "alice", "o3", 25);
        h.pipe("users", "alice", null, 30);
        h.pipe("orders", "alice", "o4", 35);
        h.pipe("orders", "alice", "o5", 22);
        h.pipe("users", "alice", "rome", 17);
        h.pipe("orders", "alice", "o6", 18);
        h.pipe("orders", "alice", "o7", 16);
        h.pipe("users", "bob", "lima", 40);
        h.pipe("orders", "bob", "o8", 45);
        h.pipe("orders", "alice", "o9", 5);
        h.pipe("orders", "bob", "o10", 9);
        h.pipe("users", "carol", "kiev", 1);
        h.pipe("orders", "carol", "o11", 50);
        h.pipe("users", "carol", "york", 45);
        h.pipe("orders", "carol", "o12", 100);
        h.pipe("users", "dave", "nice", 60);
        h.pipe("orders", "dave", "o13", 20);
        h.pipe("orders", "dave", "o14", 70);
        h.pipe("orders", null, "o15", 71);
        h.pipe("orders", "alice", null, 72);
        h.pipe("orders", "erin", "o16", 73);
    }

    /** Orders joined with a grace period: buffered, joined late in time order. */
    static void graceOrders(Harness h) {
        h.pipe("users", "alice", "paris", 10);
        h.pipe("orders", "alice", "o1", 12, "h=1");
        h.pipe("users", "alice", "oslo", 14);
        h.pipe("orders", "bob", "o2", 15);
        h.pipe("orders", "alice", "o3", 11);
        h.pipe("orders", "alice", "o4", 25);
        h.pipe("users", "bob", "rome", 13);
        h.pipe("orders", "bob", "o5", 30);
        h.pipe("orders", "carol", "o6", 3);
        h.pipe("orders", "bob", "o7", 26);
        h.pipe("orders", "alice", "o8", 26);
        h.pipe("orders", "alice", "o9", 26);
        h.pipe("users", "alice", "rome", 27);
        h.pipe("orders", "alice", "o10", 40);
        h.pipe("orders", "alice", null, 42);
        h.pipe("orders", "dave", "o11", 100);
    }

    static void register() {
        // A table in a versioned store: out-of-order updates go on (not latest), expired ones
        // stop at the store; a filter and a map_values of it; the changelog holds every put.
        SCENARIOS.put("versioned_table_source", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> t = b.table("in", SS, versioned("vstore", 20));
            t.toStream().to("out", PSS);
            t.filter((k, v) -> !v.startsWith("x")).toStream().to("out-filter", PSS);
            t.mapValues(v -> (long) v.length()).toStream().to("out-len", Produced.with(Serdes.String(), Serdes.Long()));
            Harness h = new Harness(b.build(), out).input("in", S, S)
                .output("out", S, S).output("out-filter", S, S).output("out-len", S, L)
                .output("conformance-vstore-changelog", S, S);
            versionedInputs(h);
            h.finish();
        });

        // Operators over versioned tables: filters materialized in a versioned and in a plain
        // store, inner and left table-table joins (out-of-order updates dropped), a grouping.
        SCENARIOS.put("versioned_table_ops", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> left = b.table("left", SS, versioned("lstore", 20));
            KTable<String, String> right = b.table("right", SS, versioned("rstore", 20));
            left.join(right, (l, r) -> l + "+" + r).toStream().to("out-join", PSS);
            left.leftJoin(right, (l, r) -> l + "+" + show(r)).toStream().to("out-left", PSS);
            left.filter((k, v) -> !v.startsWith("x"), versioned("fstore", 20)).toStream().to("out-fv", PSS);
            left.filter((k, v) -> !v.startsWith("x"),
                    Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("fplain").withCachingDisabled())
                .toStream().to("out-fp", PSS);
            left.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), v), Grouped.with(Serdes.String(), Serdes.String()))
                .count().toStream().to("out-count", Produced.with(Serdes.String(), Serdes.Long()));
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-join", S, S).output("out-left", S, S).output("out-fv", S, S).output("out-fp", S, S)
                .output("out-count", S, L);
            versionedSides(h);
            h.finish();
        });

        // Stream-table joins with a versioned table: the row as of the stream record's time
        // (before any version, between versions, after a delete, after an out-of-order update,
        // past the history retention), inner, left and through an unmaterialized view.
        SCENARIOS.put("versioned_stream_table_join", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> users = b.table("users", SS, versioned("users", 30));
            KStream<String, String> orders = b.stream("orders", SS);
            orders.join(users, (k, o, u) -> k + ":" + o + "@" + u).to("out", PSS);
            orders.leftJoin(users, (o, u) -> o + "@" + show(u)).to("out-left", PSS);
            orders.leftJoin(users.mapValues(v -> v.toUpperCase()), (o, u) -> o + "^" + show(u)).to("out-view", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("users", S, S)
                .output("out", S, S).output("out-left", S, S).output("out-view", S, S);
            asOfOrders(h);
            h.finish();
        });

        // A grace period (KIP-923): stream records wait in the join's buffer and join in
        // timestamp order once the largest buffered timestamp minus the grace passes them, as of
        // their own timestamps (table updates that arrived meanwhile included); records already
        // older than that join at once; headers travel through the buffer.
        SCENARIOS.put("versioned_join_grace", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> users = b.table("users", SS, versioned("users", 100));
            KStream<String, String> orders = b.stream("orders", SS);
            orders.join(users, (k, o, u) -> k + ":" + o + "@" + u,
                    Joined.with(Serdes.String(), Serdes.String(), Serdes.String()).withGracePeriod(Duration.ofMillis(10)))
                .to("out", PSS);
            orders.leftJoin(users, (o, u) -> o + "@" + show(u),
                    Joined.<String, String, String>as("graceful").withGracePeriod(Duration.ofMillis(5)))
                .to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("users", S, S)
                .output("out", S, S).output("out-left", S, S);
            graceOrders(h);
            h.finish();
        });
    }

    private VersionedScenarios() {}
}
