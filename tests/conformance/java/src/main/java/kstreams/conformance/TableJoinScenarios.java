package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Main.SCENARIOS;

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
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

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

    /** Two tables updated in turn: rows on one side only, updates, deletes on both sides
     *  (of present and absent rows), null keys, timestamps going back. */
    static void sides(Harness h) {
        h.pipe("left", "a", "L1", 10);
        h.pipe("right", "a", "R1", 5);
        h.pipe("right", "b", "R2", 20);
        h.pipe("left", "a", "L2", 8);
        h.pipe("right", "a", "R3", 30);
        h.pipe("left", "b", "L3", 25);
        h.pipe("left", "c", "L4", 26);
        h.pipe("right", "c", null, 27);
        h.pipe("left", "a", null, 40);
        h.pipe("right", "a", null, 41);
        h.pipe("right", "a", "R4", 42);
        h.pipe("left", null, "L5", 43);
        h.pipe("right", null, "R5", 44);
        h.pipe("right", "b", null, 45);
        h.pipe("left", "b", null, 46);
        h.pipe("left", "d", null, 47);
        h.pipe("right", "c", "R6", 3);
        h.pipe("left", "c", "xL7", 50);
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

        // Table-table joins of two source tables, inner, left and outer, each to a stream.
        SCENARIOS.put("table_table_join_kinds", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> l = b.table("left", SS);
            KTable<String, String> r = b.table("right", SS);
            l.join(r, (x, y) -> x + "+" + y).toStream().to("out-inner", PSS);
            l.leftJoin(r, (x, y) -> x + "+" + show(y)).toStream().to("out-left", PSS);
            l.outerJoin(r, (x, y) -> show(x) + "+" + show(y)).toStream().to("out-outer", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-inner", S, S).output("out-left", S, S).output("out-outer", S, S);
            sides(h);
            h.finish();
        });

        // Materialized results (named, and serdes only), named processors; the results filtered
        // (old values asked of the join) and regrouped (a subtractor needs old values too).
        SCENARIOS.put("table_table_join_materialized", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> l = b.table("left", SS);
            KTable<String, String> r = b.table("right", SS);
            KTable<String, String> inner = l.join(r, (x, y) -> x + "+" + y, Named.as("tj"),
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("tj-store").withCachingDisabled());
            inner.filter((k, v) -> !v.startsWith("L2")).toStream().to("out-inner", PSS);
            KTable<String, String> left = l.leftJoin(r, (x, y) -> x + "+" + show(y),
                Materialized.with(Serdes.String(), Serdes.String()));
            left.toStream().to("out-left", PSS);
            KTable<String, String> outer = l.outerJoin(r, (x, y) -> show(x) + "+" + show(y));
            outer.groupBy((k, v) -> KeyValue.pair(v.substring(0, 1), v), Grouped.with(Serdes.String(), Serdes.String()))
                .count().toStream().to("out-count", Produced.with(Serdes.String(), Serdes.Long()));
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .output("out-inner", S, S).output("out-left", S, S).output("out-count", S, L);
            sides(h);
            h.finish();
        });

        // Joins of unmaterialized views (filter, map_values) with deletes through them, and a
        // join result read by a stream-table join and by a second table-table join (getters of
        // unmaterialized joins).
        SCENARIOS.put("table_table_join_views", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> l = b.table("left", SS).filter((k, v) -> !v.startsWith("x"));
            KTable<String, String> r = b.table("right", SS).mapValues(v -> v.toLowerCase());
            KTable<String, String> j = l.join(r, (x, y) -> x + "+" + y);
            j.toStream().to("out-inner", PSS);
            KTable<String, String> o = l.outerJoin(r, (x, y) -> show(x) + "+" + show(y));
            o.toStream().to("out-outer", PSS);
            KTable<String, String> third = b.table("third", SS);
            j.leftJoin(third, (x, y) -> x + "/" + show(y)).toStream().to("out-chain", PSS);
            b.stream("orders", SS).join(o, (v, t) -> v + "@" + t).to("out-orders", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S)
                .input("third", S, S).input("orders", S, S)
                .output("out-inner", S, S).output("out-outer", S, S).output("out-chain", S, S).output("out-orders", S, S);
            h.pipe("third", "a", "T1", 1);
            h.pipe("third", "c", "T2", 2);
            sides(h);
            h.pipe("orders", "a", "o1", 60);
            h.pipe("orders", "c", "o2", 61);
            h.pipe("orders", "b", "o3", 62);
            h.pipe("third", "a", null, 63);
            h.pipe("right", "c", "R7", 64);
            h.finish();
        });

        // Tables that keep their own store: a count (aggregation) and a to_table(), joined by a
        // stream and with each other.
        SCENARIOS.put("table_join_aggregates", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, Long> counts = b.stream("clicks", SS).groupByKey().count();
            KTable<String, String> names = b.stream("names", SS).toTable();
            b.stream("orders", SS).leftJoin(counts, (o, n) -> o + "#" + show(n)).to("out-orders", PSS);
            names.join(counts, (nm, n) -> nm + "=" + n).toStream().to("out-joined", PSS);
            Harness h = new Harness(b.build(), out).input("clicks", S, S).input("names", S, S).input("orders", S, S)
                .output("out-orders", S, S).output("out-joined", S, S);
            h.pipe("clicks", "a", "c1", 5);
            h.pipe("orders", "a", "o1", 6);
            h.pipe("names", "a", "Ann", 7);
            h.pipe("clicks", "a", "c2", 8);
            h.pipe("orders", "b", "o2", 9);
            h.pipe("names", "b", "Bob", 10);
            h.pipe("clicks", "b", "c3", 4);
            h.pipe("names", "a", null, 11);
            h.pipe("orders", "a", "o3", 12);
            h.finish();
        });
    }
}
