package kstreams.conformance;

import static kstreams.conformance.Harness.Type.S;
import static kstreams.conformance.Main.SCENARIOS;

import java.time.Duration;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;

/**
 * Processor API scenarios on state stores: a processor writes each record to a window, session
 * or key-value store, then reads the store back (point lookups, time and key ranges both ways,
 * open bounds, prefix scans) and forwards what it read, so the output shows the store's order,
 * retention and caching. tests/conformance/store_scenarios_test.cpp writes the same with kstreams.
 */
final class StoreScenarios {
    static String show(Object v) { return v == null ? "null" : v.toString(); }

    static String times(WindowStoreIterator<String> it) {
        StringBuilder sb = new StringBuilder();
        try (it) {
            while (it.hasNext()) { KeyValue<Long, String> kv = it.next(); sb.append(kv.key).append('=').append(kv.value).append(' '); }
        }
        return sb.toString();
    }

    static String windows(KeyValueIterator<Windowed<String>, String> it) {
        StringBuilder sb = new StringBuilder();
        try (it) {
            while (it.hasNext()) {
                KeyValue<Windowed<String>, String> kv = it.next();
                sb.append(kv.key.key()).append('@').append(kv.key.window().start()).append('-').append(kv.key.window().end())
                  .append('=').append(kv.value).append(' ');
            }
        }
        return sb.toString();
    }

    static String entries(KeyValueIterator<String, String> it) {
        StringBuilder sb = new StringBuilder();
        try (it) {
            while (it.hasNext()) { KeyValue<String, String> kv = it.next(); sb.append(kv.key).append('=').append(kv.value).append(' '); }
        }
        return sb.toString();
    }

    static void register() {
        // Window stores, retention 50 ms, window size 10 ms: puts, a delete, overwrites, an
        // expired put, keys where one is a byte prefix of another; every read after every put.
        for (String kind : new String[] {"persistent", "in_memory"}) {
            for (String mode : new String[] {"uncached", "cached", "duplicates"}) {
                String name = "window_store_" + kind + "_" + mode;
                SCENARIOS.put(name, out -> {
                    boolean dups = mode.equals("duplicates");
                    WindowBytesStoreSupplier sup = kind.equals("persistent")
                        ? Stores.persistentWindowStore("w", Duration.ofMillis(50), Duration.ofMillis(10), dups)
                        : Stores.inMemoryWindowStore("w", Duration.ofMillis(50), Duration.ofMillis(10), dups);
                    StoreBuilder<WindowStore<String, String>> sb = Stores.windowStoreBuilder(sup, Serdes.String(), Serdes.String());
                    if (mode.equals("cached")) sb = sb.withCachingEnabled();
                    run(name, out, WindowProcessor::new, sb, windowInputs());
                });
            }
        }

        // Session stores, retention 50 ms: puts, a remove, an overwrite, an expired put.
        for (String kind : new String[] {"persistent", "in_memory"}) {
            for (String mode : new String[] {"uncached", "cached"}) {
                String name = "session_store_" + kind + "_" + mode;
                SCENARIOS.put(name, out -> {
                    SessionBytesStoreSupplier sup = kind.equals("persistent")
                        ? Stores.persistentSessionStore("w", Duration.ofMillis(50))
                        : Stores.inMemorySessionStore("w", Duration.ofMillis(50));
                    StoreBuilder<SessionStore<String, String>> sb = Stores.sessionStoreBuilder(sup, Serdes.String(), Serdes.String());
                    if (mode.equals("cached")) sb = sb.withCachingEnabled();
                    run(name, out, SessionProcessor::new, sb, sessionInputs());
                });
            }
        }

        // Key-value stores: open-bound ranges both ways, prefix scans, put_if_absent, delete;
        // keys in byte order (non-ASCII after ASCII) in RocksDB and in memory alike.
        for (String kind : new String[] {"persistent", "in_memory", "timestamped"}) {
            for (String mode : new String[] {"uncached", "cached"}) {
                String name = "kv_store_" + kind + "_" + mode;
                SCENARIOS.put(name, out -> {
                    KeyValueBytesStoreSupplier sup = kind.equals("persistent") ? Stores.persistentKeyValueStore("w")
                        : kind.equals("in_memory") ? Stores.inMemoryKeyValueStore("w")
                        : Stores.persistentTimestampedKeyValueStore("w");
                    StoreBuilder<KeyValueStore<String, String>> sb = Stores.keyValueStoreBuilder(sup, Serdes.String(), Serdes.String());
                    if (mode.equals("cached")) sb = sb.withCachingEnabled();
                    run(name, out, KvProcessor::new, sb, kvInputs());
                });
            }
        }
    }

    static void run(String name, java.io.PrintStream out,
                    org.apache.kafka.streams.processor.api.ProcessorSupplier<String, String, String, String> proc,
                    StoreBuilder<?> store, String[][] inputs) {
        Topology t = new Topology();
        t.addSource("src", Serdes.String().deserializer(), Serdes.String().deserializer(), "in");
        t.addProcessor("proc", proc, "src");
        t.addStateStore(store, "proc");
        t.addSink("sink", "out", Serdes.String().serializer(), Serdes.String().serializer(), "proc");
        Harness h = new Harness(t, out).input("in", S, S).output("out", S, S);
        for (String[] in : inputs) h.pipe("in", in[0], in[1], Long.parseLong(in[2]));
        h.finish();
    }

    /** key, "value@window start" ("null" deletes), record timestamp. */
    static String[][] windowInputs() {
        return new String[][] {
            {"a", "1@10", "10"}, {"ab", "2@10", "10"}, {"b", "3@5", "5"}, {"a", "4@30", "30"}, {"a", "5@10", "11"},
            {"ab", "null@10", "12"}, {"aa", "6@40", "40"}, {"a", "7@70", "70"}, {"ab", "8@15", "15"},
            {"b", "9@100", "100"}, {"a", "10@100", "100"}, {"a", "11@100", "101"}, {"a", "null@100", "102"},
        };
    }

    /** key, "value@start-end" ("null" removes), record timestamp. */
    static String[][] sessionInputs() {
        return new String[][] {
            {"a", "s1@0-10", "10"}, {"ab", "s2@5-5", "5"}, {"b", "s3@20-30", "30"}, {"a", "s4@20-25", "25"},
            {"a", "null@0-10", "26"}, {"aa", "s5@12-18", "18"}, {"a", "s6@100-110", "110"}, {"ab", "s7@30-40", "40"},
            {"a", "s8@100-110", "111"}, {"b", "s9@50-70", "70"}, {"ab", "s10@60-60", "60"},
        };
    }

    /** key, value ("null" deletes, "?v" puts if absent), record timestamp. */
    static String[][] kvInputs() {
        return new String[][] {
            {"b", "1", "1"}, {"a", "2", "2"}, {"ab", "3", "3"}, {"é", "4", "4"}, {"Z", "5", "5"}, {"", "6", "6"},
            {"a", "?7", "7"}, {"aa", "?8", "8"}, {"ab", "null", "9"}, {"zz", "10", "10"}, {"ab", "?9", "11"},
            {"aé", "10", "12"}, {"a", "11", "13"},
        };
    }

    abstract static class Reader<T> implements Processor<String, String, String, String> {
        ProcessorContext<String, String> ctx;
        Record<String, String> current;
        T w;

        @Override
        public void init(ProcessorContext<String, String> context) {
            ctx = context;
            w = context.getStateStore("w");
        }

        void emit(String what, String v) { ctx.forward(current.withKey(what).withValue(v)); }
    }

    static final class WindowProcessor extends Reader<WindowStore<String, String>> {
        @Override
        public void process(Record<String, String> r) {
            current = r;
            String[] p = r.value().split("@", -1);
            long start = Long.parseLong(p[1]);
            w.put(r.key(), p[0].equals("null") ? null : p[0], start);
            emit("get", show(w.fetch(r.key(), start)) + " " + show(w.fetch(r.key(), 10)));
            emit("key", times(w.fetch(r.key(), 0, 1000)) + "/ " + times(w.backwardFetch(r.key(), 10, 40)));
            emit("range", windows(w.fetch("a", "ab", 0, 1000)) + "/ " + windows(w.backwardFetch("a", "ab", 0, 1000)));
            emit("open", windows(w.fetch(null, "aa", 0, 1000)) + "/ " + windows(w.backwardFetch("ab", null, 10, 100)));
            emit("all", windows(w.fetchAll(10, 40)) + "/ " + windows(w.backwardFetchAll(0, 1000)));
            emit("every", windows(w.all()) + "/ " + windows(w.backwardAll()));
        }
    }

    static final class SessionProcessor extends Reader<SessionStore<String, String>> {
        @Override
        public void process(Record<String, String> r) {
            current = r;
            String[] p = r.value().split("@", -1);
            String[] se = p[1].split("-", -1);
            Windowed<String> s = new Windowed<>(r.key(),
                new org.apache.kafka.streams.kstream.internals.SessionWindow(Long.parseLong(se[0]), Long.parseLong(se[1])));
            if (p[0].equals("null")) w.remove(s);
            else w.put(s, p[0]);
            emit("get", show(w.fetchSession(r.key(), s.window().start(), s.window().end())));
            emit("key", windows(w.findSessions(r.key(), 0, 1000)) + "/ " + windows(w.findSessions(r.key(), 15, 30)));
            emit("range", windows(w.findSessions("a", "ab", 0, 1000)) + "/ " + windows(w.findSessions("a", "ab", 10, 60)));
            emit("fetch", windows(w.fetch(r.key())));
            emit("fetch_range", windows(w.fetch("aa", "b")) + "/ " + windows(w.fetch("a", "aa")));
        }
    }

    static final class KvProcessor extends Reader<KeyValueStore<String, String>> {
        @Override
        public void process(Record<String, String> r) {
            current = r;
            if (r.value().equals("null")) emit("delete", show(w.delete(r.key())));
            else if (r.value().startsWith("?")) emit("absent", show(w.putIfAbsent(r.key(), r.value().substring(1))));
            else w.put(r.key(), r.value());
            emit("get", show(w.get(r.key())));
            emit("range", entries(w.range(null, "ab")) + "/ " + entries(w.range("ab", null)) + "/ " + entries(w.range("b", "a")));
            emit("reverse", entries(w.reverseRange("a", "b")) + "/ " + entries(w.reverseRange(null, null)));
            emit("prefix", entries(w.prefixScan("a", Serdes.String().serializer())) + "/ "
                + entries(w.prefixScan("ab", Serdes.String().serializer())));
            emit("all", entries(w.all()) + "/ " + entries(w.reverseAll()));
        }
    }
}
