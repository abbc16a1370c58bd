package kstreams.conformance;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * Runs one scenario through Kafka's TopologyTestDriver and prints it in the line format the C++
 * suite prints (tests/conformance/harness.hpp):
 *   topology / describe() text / end topology
 *   "> topic|key|value|timestamp" per input record, then "< topic|key|value|timestamp" for every
 *   record it caused on the declared output topics (in declaration order), null shown as <null>;
 *   records with headers add "|k=v,k=v"; "@ wall +ms" when the wall clock is advanced
 *   produced topics / every topic written, sorted (repartition and changelog topics included)
 */
final class Harness {
    static final String APP_ID = "conformance";

    /** X: byte arrays shown as hex (windowed keys). */
    enum Type { S, L, I, D, B, X }

    private final PrintStream out;
    private final TopologyTestDriver driver;
    private final Map<String, TestInputTopic<Object, Object>> inputs = new LinkedHashMap<>();
    private final Map<String, Type[]> inputTypes = new LinkedHashMap<>();
    private final Map<String, TestOutputTopic<Object, Object>> outputs = new LinkedHashMap<>();
    private final Map<String, Type[]> outputTypes = new LinkedHashMap<>();
    private final java.util.Set<String> errorOutputs = new java.util.HashSet<>();

    /** One state directory per generator process: two generators at once must not share stores. */
    private static final java.nio.file.Path STATE_DIR = privateStateDir();

    private static java.nio.file.Path privateStateDir() {
        try {
            return java.nio.file.Files.createTempDirectory("kstreams-conformance-");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Called once the scenarios ran (a shutdown hook would run after exec:java closed our classes). */
    static void removeStateDir() {
        deleteTree(STATE_DIR.toFile());
    }

    private static void deleteTree(java.io.File f) {
        java.io.File[] children = f.listFiles();
        if (children != null) for (java.io.File c : children) deleteTree(c);
        f.delete();
    }

    Harness(Topology topology, PrintStream out) {
        this(topology, new Properties(), out);
    }

    /** `extra`: more properties for the driver (e.g. topology.optimization, as build(props) had). */
    Harness(Topology topology, Properties extra, PrintStream out) {
        this.out = out;
        Properties p = new Properties();
        p.putAll(extra);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, APP_ID);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:1234");
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.putIfAbsent(StreamsConfig.STATE_DIR_CONFIG, STATE_DIR.toString());
        out.println("topology");
        String text = topology.describe().toString();
        out.print(text);
        if (!text.endsWith("\n")) out.println();
        out.println("end topology");
        driver = new TopologyTestDriver(topology, p, java.time.Instant.ofEpochMilli(0));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static Serde<Object> serde(Type t) {
        switch (t) {
            case S: return (Serde) Serdes.String();
            case L: return (Serde) Serdes.Long();
            case D: return (Serde) Serdes.Double();
            case B: case X: return (Serde) Serdes.ByteArray();
            default: return (Serde) Serdes.Integer();
        }
    }

    Harness input(String topic, Type k, Type v) {
        inputs.put(topic, driver.createInputTopic(topic, serde(k).serializer(), serde(v).serializer()));
        inputTypes.put(topic, new Type[] {k, v});
        return this;
    }

    Harness output(String topic, Type k, Type v) {
        outputs.put(topic, driver.createOutputTopic(topic, serde(k).deserializer(), serde(v).deserializer()));
        outputTypes.put(topic, new Type[] {k, v});
        return this;
    }

    /**
     * A dead-letter queue topic: as output, but the headers __streams.errors.exception, .message
     * and .stacktrace (class names and stack traces) show their keys only.
     */
    Harness errorOutput(String topic, Type k, Type v) {
        errorOutputs.add(topic);
        return output(topic, k, v);
    }

    /** Byte arrays print as UTF-8 text. */
    static String show(Object o) {
        if (o instanceof byte[]) return new String((byte[]) o, StandardCharsets.UTF_8);
        return o == null ? "<null>" : o.toString();
    }

    static String show(Object o, Type t) {
        if (t != Type.X || o == null) return show(o);
        StringBuilder sb = new StringBuilder();
        for (byte x : (byte[]) o) sb.append(String.format("%02x", x & 0xff));
        return sb.toString();
    }

    /** "" without headers, else "|k=v,k=v" in header order (a null header value as <null>). */
    static String showHeaders(Headers hs) {
        return showHeaders(hs, false);
    }

    /** `errors`: the error headers holding class names and stack traces show their keys only. */
    static String showHeaders(Headers hs, boolean errors) {
        StringBuilder sb = new StringBuilder();
        for (Header h : hs) {
            sb.append(sb.length() == 0 ? "|" : ",").append(h.key());
            if (errors && (h.key().equals("__streams.errors.exception") || h.key().equals("__streams.errors.message")
                           || h.key().equals("__streams.errors.stacktrace"))) continue;
            sb.append('=').append(h.value() == null ? "<null>" : new String(h.value(), StandardCharsets.UTF_8));
        }
        return sb.toString();
    }

    void pipe(String topic, Object key, Object value, long ts, String... headers) {
        RecordHeaders hs = new RecordHeaders();
        for (String h : headers) {
            int eq = h.indexOf('=');
            hs.add(h.substring(0, eq), h.substring(eq + 1).getBytes(StandardCharsets.UTF_8));
        }
        out.println("> " + topic + "|" + show(key) + "|" + show(value) + "|" + ts + showHeaders(hs));
        inputs.get(topic).pipeInput(new TestRecord<>(key, value, hs, ts));
        printOutputs();
    }

    /** The driver, for reading its stores as a test would. */
    TopologyTestDriver driver() {
        return driver;
    }

    /** Prints a line of the scenario's own (e.g. "! " and an error's message). */
    void line(String text) {
        out.println(text);
    }

    /** Advances the driver's wall clock: "@ wall +ms", then the records it caused. */
    void advanceWallClock(long ms) {
        out.println("@ wall +" + ms);
        driver.advanceWallClockTime(java.time.Duration.ofMillis(ms));
        printOutputs();
    }

    private void printOutputs() {
        for (Map.Entry<String, TestOutputTopic<Object, Object>> e : outputs.entrySet()) {
            for (TestRecord<Object, Object> r : e.getValue().readRecordsToList())
            {
                Type[] t = outputTypes.get(e.getKey());
                out.println("< " + e.getKey() + "|" + show(r.key(), t[0]) + "|" + show(r.value(), t[1]) + "|" + r.timestamp() + showHeaders(r.headers(), errorOutputs.contains(e.getKey())));
            }
        }
    }

    /**
     * "# dropped-records-total n": the sum of the task-level dropped-records-total metrics (records
     * dropped by processors: null keys and values, late records, ...), as the driver counts them.
     */
    void dropped() {
        double total = 0;
        for (Map.Entry<org.apache.kafka.common.MetricName, ? extends org.apache.kafka.common.Metric> e : driver.metrics().entrySet()) {
            if (e.getKey().name().equals("dropped-records-total") && e.getKey().group().equals("stream-task-metrics"))
                total += ((Number) e.getValue().metricValue()).doubleValue();
        }
        out.println("# dropped-records-total " + (long) total);
    }

    void finish() {
        out.println("produced topics");
        for (String t : new TreeSet<>(driver.producedTopicNames())) out.println(t);
        driver.close();
    }
}
