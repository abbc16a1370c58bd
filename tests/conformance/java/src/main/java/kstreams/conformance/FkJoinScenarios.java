package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Harness.Type.X;
import static kstreams.conformance.Main.SCENARIOS;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TableJoined;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Foreign-key table-table joins (KIP-213; tests/conformance/fk_join_scenarios_test.cpp writes the
 * same with the kstreams DSL): subscriptions and responses through their internal topics, foreign
 * key changes, deletes on both sides, null foreign keys, right-side updates fanning out.
 */
final class FkJoinScenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    /** "fk:payload" -> fk; "none..." -> null (no foreign key). */
    static String fk(String v) {
        if (v.startsWith("none")) return null;
        return v.substring(0, v.indexOf(':'));
    }

    /** Orders (left, "customer:item") against customers (right). */
    static void orders(Harness h) {
        h.pipe("customers", "c1", "Alice", 5);
        h.pipe("orders", "o1", "c1:apple", 10);
        h.pipe("orders", "o2", "c2:pear", 12);
        h.pipe("customers", "c2", "Bob", 15);
        h.pipe("orders", "o3", "c1:plum", 20);
        h.pipe("customers", "c1", "Alicia", 25);
        h.pipe("orders", "o1", "c2:apple", 30);
        h.pipe("customers", "c1", null, 35);
        h.pipe("orders", "o3", null, 40);
        h.pipe("orders", "o4", "none", 45);
        h.pipe("orders", "o4", "c2:fig", 50);
        h.pipe("orders", "o4", "none2", 55);
        h.pipe("customers", "c2", "Robert", 60);
        h.pipe("orders", "o2", "c2:pear", 58);
        h.pipe("customers", null, "Nobody", 61);
        h.pipe("orders", null, "c2:nut", 62);
        h.pipe("customers", "c3", "Carl", 3);
        h.pipe("orders", "o5", "c3:kiwi", 4);
        h.pipe("orders", "o5", "c3:lime", 6);
        h.pipe("orders", "o5", null, 70);
        h.pipe("orders", "o6", null, 71);
        h.pipe("customers", "c2", null, 72);
        h.pipe("customers", "c2", "Bo", 73);
        h.pipe("orders", "o1", "c1:apple", 74);
        h.pipe("customers", "c1", "Al", 75);
    }

    static void register() {
        // Inner join, unnamed: every name generated.
        SCENARIOS.put("fk_join_inner", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS);
            KTable<String, String> customers = b.table("customers", SS);
            orders.join(customers, FkJoinScenarios::fk, (o, c) -> o + "/" + c).toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S).output("out", S, S);
            orders(h);
            h.finish();
        });

        // Left join, unnamed: null foreign keys and missing customers join with null.
        SCENARIOS.put("fk_join_left", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS);
            KTable<String, String> customers = b.table("customers", SS);
            orders.leftJoin(customers, FkJoinScenarios::fk, (o, c) -> o + "/" + show(c)).toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S).output("out", S, S);
            orders(h);
            h.finish();
        });

        // Named (TableJoined.as) and materialized, the (key, value) extractor (KIP-1104), and the
        // subscription and response topics' bytes shown in hex (the wire formats).
        SCENARIOS.put("fk_join_wire", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS);
            KTable<String, String> customers = b.table("customers", SS);
            KTable<String, String> joined = orders.leftJoin(customers, (k, v) -> k.equals("o6") ? null : fk(v),
                (o, c) -> o + "/" + show(c), TableJoined.as("fk"),
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("fk-result").withCachingDisabled());
            joined.toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S).output("out", S, S)
                .output("conformance-fk-subscription-registration-topic", S, X)
                .output("conformance-fk-subscription-response-topic", S, X);
            orders(h);
            h.finish();
        });

        // Inner join with serdes-only materialized (not queryable), of views: the left a map_values,
        // the right a filter (its getter computes the rows); the result filtered downstream (old
        // values asked of the result) and joined again by key with a third table.
        SCENARIOS.put("fk_join_views", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS).mapValues(v -> v.toLowerCase());
            KTable<String, String> customers = b.table("customers", SS).filter((k, v) -> !v.startsWith("Bo"));
            KTable<String, String> joined = orders.join(customers, FkJoinScenarios::fk, (o, c) -> o + "/" + c,
                Materialized.with(Serdes.String(), Serdes.String()));
            joined.filter((k, v) -> !v.contains("fig")).toStream().to("out", PSS);
            KTable<String, String> notes = b.table("notes", SS);
            joined.join(notes, (j, n) -> j + "+" + n).toStream().to("out-notes", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S).input("notes", S, S)
                .output("out", S, S).output("out-notes", S, S);
            h.pipe("notes", "o1", "n1", 1);
            h.pipe("notes", "o4", "n4", 2);
            orders(h);
            h.finish();
        });

        // Headers: a result carries the headers of the record that caused it (the left row's
        // through the subscription and its answer, the right row's on a fan-out).
        SCENARIOS.put("fk_join_headers", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS);
            KTable<String, String> customers = b.table("customers", SS);
            orders.leftJoin(customers, FkJoinScenarios::fk, (o, c) -> o + "/" + show(c)).toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S).output("out", S, S);
            h.pipe("customers", "c1", "Alice", 5, "from=customers");
            h.pipe("orders", "o1", "c1:apple", 10, "from=orders", "n=1");
            h.pipe("orders", "o2", "c2:pear", 11);
            h.pipe("customers", "c1", "Alicia", 12, "from=update");
            h.pipe("orders", "o1", "c2:apple", 13, "from=move");
            h.pipe("orders", "o2", null, 14, "from=delete");
            h.finish();
        });

        // topology.optimization=all: the right table's store restored from its source topic (no
        // changelog), the left table a reduce (its own store, read by the resolver).
        SCENARIOS.put("fk_join_optimized", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.stream("orders", SS).groupByKey().reduce((a, v) -> v);
            KTable<String, String> customers = b.table("customers", SS);
            orders.leftJoin(customers, FkJoinScenarios::fk, (o, c) -> o + "/" + show(c)).toStream().to("out", PSS);
            java.util.Properties p = new java.util.Properties();
            p.put(org.apache.kafka.streams.StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG, "all");
            Harness h = new Harness(b.build(p), p, out).input("orders", S, S).input("customers", S, S).output("out", S, S);
            orders(h);
            h.finish();
        });

        // Long keys on the left, long foreign keys (bytes of both in the subscription topic).
        SCENARIOS.put("fk_join_long_keys", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<Long, String> items = b.table("items", Consumed.with(Serdes.Long(), Serdes.String()));
            KTable<Long, String> shops = b.table("shops", Consumed.with(Serdes.Long(), Serdes.String()));
            items.join(shops, v -> Long.parseLong(v.substring(0, v.indexOf(':'))), (i, s) -> i + "@" + s,
                    TableJoined.as("shop"))
                .toStream().to("out", Produced.with(Serdes.Long(), Serdes.String()));
            Harness h = new Harness(b.build(), out).input("items", L, S).input("shops", L, S).output("out", L, S)
                .output("conformance-shop-subscription-registration-topic", X, X)
                .output("conformance-shop-subscription-response-topic", X, X);
            h.pipe("shops", 1L, "north", 1);
            h.pipe("items", 10L, "1:hat", 2);
            h.pipe("items", 11L, "2:cap", 3);
            h.pipe("shops", 2L, "south", 4);
            h.pipe("items", 10L, "2:hat", 5);
            h.pipe("shops", 2L, "west", 6);
            h.pipe("items", 11L, null, 7);
            h.finish();
        });
    }
}
