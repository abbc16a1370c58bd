package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Main.SCENARIOS;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Joined;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Stream-table joins (tests/conformance/table_join_scenarios_test.cpp writes the same with the
 * kstreams DSL): only stream records trigger, value getters of source, filtered and mapped
 * tables, materialized or not, re-keyed streams repartitioned before the join.
 */
final class TableJoinScenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    /** Orders against users: rows arriving, changing and deleted between stream records. */
    static void orders(Harness h) {
        h.pipe("orders", "alice", "o1", 10);
        h.pipe("users", "alice", "paris", 20);
        h.pipe("orders", "alice", "o2", 15);
        h.pipe("users", "bob", "rome", 5);
        h.pipe("orders", "bob", "o3", 30);
        h.pipe("users", "alice", "oslo", 40);
        h.pipe("orders", "alice", "o4", 35);
        h.pipe("orders", null, "o5", 36);
        h.pipe("orders", "bob", null, 37);
        h.pipe("users", "bob", null, 50);
        h.pipe("orders", "bob", "o6", 45);
        h.pipe("users", null, "nowhere", 51);
        h.pipe("users", "carol", "lima", 52);
        h.pipe("orders", "carol", "o7", 1);
        h.pipe("orders", "alice", "xo8", 60);
    }

    static void register() {
        // Inner join with a source table the join materializes; the joiner sees the key.
        SCENARIOS.put("stream_table_join_inner", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> users = b.table("users", SS);
            b.stream("orders", SS).join(users, (k, o, u) -> k + ":" + o + "@" + u).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("users", S, S).output("out", S, S);
            orders(h);
            h.finish();
        });

        // Left join: absent rows and null keys joined with null; null values dropped.
        SCENARIOS.put("stream_table_join_left", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> users = b.table("users", SS);
            b.stream("orders", SS).leftJoin(users, (o, u) -> o + "@" + show(u)).to("out", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("users", S, S).output("out", S, S);
            orders(h);
            h.finish();
        });

        // The table is an unmaterialized filter and map_values of a queryable source: the join
        // reads through both views; the table's own changelog stream is written too.
        SCENARIOS.put("stream_table_join_views", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> users = b.table("users", SS, Materialized.as("users-store"));
            KTable<String, Long> lengths = users.filter((k, v) -> !v.startsWith("o")).mapValues(v -> (long) v.length());
            lengths.toStream().to("lengths", Produced.with(Serdes.String(), Serdes.Long()));
            KStream<String, String> orders = b.stream("orders", SS);
            orders.join(lengths, (o, n) -> o + "#" + n).to("out", PSS);
            orders.leftJoin(users.filterNot((k, v) -> v.startsWith("r")), (o, u) -> o + "@" + show(u)).to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("users", S, S)
                .output("out", S, S).output("out-left", S, S).output("lengths", S, L);
            orders(h);
            h.finish();
        });

        // Views over an unmaterialized source (the join materializes the source under its
        // generated store name), and a materialized map_values answering from its own store.
        SCENARIOS.put("stream_table_join_materialized_view", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> users = b.table("users", SS);
            KTable<String, String> upper = users.mapValues(v -> v.toUpperCase(),
                Materialized.<String, String, org.apache.kafka.streams.state.KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("upper-store")
                    .withValueSerde(Serdes.String()));
            KTable<String, String> unmat = users.filter((k, v) -> v.length() > 4);
            KStream<String, String> orders = b.stream("orders", SS);
            orders.join(upper, (o, u) -> o + "@" + u).to("out", PSS);
            orders.join(unmat, (o, u) -> o + "~" + u).to("out-long", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("users", S, S)
                .output("out", S, S).output("out-long", S, S);
            orders(h);
            h.finish();
        });

        // A re-keyed stream, unnamed then named (Joined.as): repartition topics before the join;
        // null keys from the key selector pass through the topic to a left join.
        SCENARIOS.put("stream_table_join_rekeyed", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> users = b.table("users", SS);
            KStream<String, String> byUser = b.stream("orders", SS)
                .selectKey((k, v) -> v != null && v.startsWith("x") ? null : k);
            byUser.join(users, (o, u) -> o + "@" + u).to("out", PSS);
            byUser.leftJoin(users, (k, o, u) -> show(k) + ":" + o + "@" + show(u),
                Joined.<String, String, String>as("enrich").withKeySerde(Serdes.String()).withValueSerde(Serdes.String()))
                .to("out-left", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("users", S, S)
                .output("out", S, S).output("out-left", S, S);
            orders(h);
            h.finish();
        });
    }
}
