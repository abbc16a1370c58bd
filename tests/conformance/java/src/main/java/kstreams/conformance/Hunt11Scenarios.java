package kstreams.conformance;

import static kstreams.conformance.Harness.Type.L;
import static kstreams.conformance.Harness.Type.S;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.kstream.TableJoined;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Scenarios of the eleventh conformance hunt (tests/conformance/hunt11_scenarios_test.cpp writes
 * the same with the kstreams DSL, the two sharing HuntScenarios' topologies in
 * hunt_scenarios_test.cpp): multicast and dropping stream partitioners (KIP-837) on sinks,
 * repartition topics and foreign-key joins' internal topics; a sink's serializer failing; processing
 * errors at different nodes and in cache flushes with their dead-letter records; sliding windows of
 * difference 0; stream-stream joins at the window and grace edges with StreamJoined options; peek,
 * foreach and print; stream-table joins whose table goes back in time.
 */
final class Hunt11Scenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());
    static final Produced<String, Long> PSL = Produced.with(Serdes.String(), Serdes.Long());

    static String show(Object v) { return v == null ? "null" : v.toString(); }

    static String concat(String x, String y) { return x + "+" + y; }

    /** `result`, unless `v` is `bad`: then throws. */
    static <T> T fail(String v, String bad, T result) {
        if (v.equals(bad)) throw new IllegalStateException("failing at " + bad);
        return result;
    }

    /** Partitions as a sorted set from "0,1" text ("" for none). */
    static Optional<Set<Integer>> parts(String text) {
        Set<Integer> ps = new TreeSet<>();
        for (String p : text.split(",")) if (!p.isEmpty()) ps.add(Integer.parseInt(p));
        return Optional.of(ps);
    }

    /** By the value's prefix: "two" {1, 0}, "drop" none, "def" the default, else {0}. */
    static final class ByValue implements StreamPartitioner<String, String> {
        @Override
        public Optional<Set<Integer>> partitions(String topic, String k, String v, int n) {
            if (v == null || v.startsWith("def")) return Optional.empty();
            if (v.startsWith("two")) return parts("1,0");
            if (v.startsWith("drop")) return parts("");
            return parts("0");
        }
    }

    /** By the last "parts" header ("0,1", "" for none; the default without one). */
    static final class ByHeader implements StreamPartitioner<String, String> {
        @Override
        public Optional<Set<Integer>> partitions(String topic, String k, String v, int n) {
            throw new IllegalStateException("the headers overload is the one called");
        }

        @Override
        public Optional<Set<Integer>> partitions(String topic, String k, String v, Headers hs, int n) {
            Header h = hs.lastHeader("parts");
            if (h == null) return Optional.empty();
            return parts(new String(h.value(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    /** Strings whose serializer throws on values starting with "bad". */
    static final org.apache.kafka.common.serialization.Serde<String> PICKY = Serdes.serdeFrom(
        (topic, v) -> {
            if (v != null && v.startsWith("bad")) throw new IllegalArgumentException("picky: " + v);
            return v == null ? null : v.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        },
        Serdes.String().deserializer());

    /** "out-x", throwing on "ex"; described as kstreams' topic_name_extractor. */
    static final class ThrowingExtractor implements org.apache.kafka.streams.processor.TopicNameExtractor<String, String> {
        @Override
        public String extract(String k, String v, org.apache.kafka.streams.processor.RecordContext ctx) {
            if (v.equals("ex")) throw new IllegalStateException("extractor");
            return "out-x";
        }

        @Override
        public String toString() { return "topic_name_extractor"; }
    }

    /** A production handler that continues on every error (a user's; no dead-letter records). */
    public static final class ContinueProductionHandler implements org.apache.kafka.streams.errors.ProductionExceptionHandler {
        @Override
        public void configure(Map<String, ?> configs) { }

        @Override
        public Response handleError(org.apache.kafka.streams.errors.ErrorHandlerContext c,
                                    org.apache.kafka.clients.producer.ProducerRecord<byte[], byte[]> r, Exception e) {
            return Response.resume();
        }

        @Override
        public Response handleSerializationError(org.apache.kafka.streams.errors.ErrorHandlerContext c,
                                                 org.apache.kafka.clients.producer.ProducerRecord r, Exception e,
                                                 SerializationExceptionOrigin origin) {
            return Response.resume();
        }
    }

    static void register(Map<String, Main.Scenario> scenarios) {
        // KIP-837: a partitioner answering several partitions writes a copy to each (a
        // repartition topic's copies are each processed again), none drops the record (counted),
        // Optional.empty() the default; the headers overload is called when defined.
        scenarios.put("multicast_partitioners", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.to("out-multi", Produced.with(Serdes.String(), Serdes.String()).withStreamPartitioner(new ByValue()));
            s.repartition(Repartitioned.<String, String>as("rp").withNumberOfPartitions(2).withStreamPartitioner(new ByValue()))
                .groupByKey().count().toStream().to("out-count", PSL);
            s.mapValues(v -> v + "!").to("out-headers", Produced.with(Serdes.String(), Serdes.String()).withStreamPartitioner(new ByHeader()));
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-multi", S, S).output("out-count", S, L)
                .output("out-headers", S, S);
            h.pipe("in", "a", "one1", 1);
            h.pipe("in", "a", "two2", 2, "parts=0,1");
            h.pipe("in", "b", "drop3", 3, "parts=");
            h.pipe("in", "a", "def4", 4, "parts=1");
            h.pipe("in", "b", "two5", 5);
            h.pipe("in", null, "two6", 6, "parts=0,0,1");
            h.pipe("in", "c", "drop7", 7, "parts=", "parts=2");
            h.dropped();
            h.finish();
        });

        // A sink's serializer failing (the production handler's default fails, then the
        // processing handler continues at the node that forwarded, whose later children miss the
        // record): directly after the source, after a processor, after a table's to_stream;
        // dead-letter records of each handler.
        scenarios.put("sink_serialization_errors", out -> {
            java.util.Properties p = new java.util.Properties();
            p.put("processing.exception.handler", org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler.class.getName());
            p.put("errors.dead.letter.queue.topic.name", "dlq");
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            KStream<String, String> mapped = s.mapValues(v -> v + "!");
            mapped.to("out-mapped", Produced.with(Serdes.String(), PICKY));
            mapped.to("out-mapped2", PSS);
            s.filter((k, v) -> true).to("out-plain", PSS);
            s.groupByKey().reduce((a, c) -> c).toStream().to("out-table", Produced.with(Serdes.String(), PICKY));
            b.stream("in2", SS).to("out-direct", Produced.with(Serdes.String(), PICKY));
            Harness h = new Harness(b.build(), p, out).input("in", S, S).input("in2", S, S).output("out-mapped", S, S)
                .output("out-mapped2", S, S).output("out-plain", S, S).output("out-table", S, S).output("out-direct", S, S).errorOutput("dlq", S, S);
            h.pipe("in", "a", "ok1", 1);
            h.pipe("in", "a", "bad2", 2, "h=1");
            h.pipe("in", "b", "ok3", 3);
            h.pipe("in", null, "bad4", 4);
            h.pipe("in", "a", "ok5", 5);
            h.dropped();
            h.pipe("in2", "c", "ok6", 6);
            SuppressScenarios.pipeFailing(h, "picky", "in2", "c", "bad7", 7);
            h.dropped();
            h.finish();
        });

        // Sliding windows with a time difference of 0 are accepted by the builder, but the
        // first record fails the task (Kafka's TimeWindow refuses an end not after its start).
        scenarios.put("sliding_zero_difference", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KGroupedStream<String, String> g = b.stream("in", SS).groupByKey();
            WindowKindScenarios.showTo(g.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ZERO, Duration.ofMillis(2)))
                .count(), "out-count", PSL);
            Harness h = new Harness(b.build(), out).input("in", S, S).output("out-count", S, L);
            SuppressScenarios.pipeFailing(h, "Window endMs", "in", "a", "v5", 5);
            h.finish();
        });

        // Stream-stream joins with asymmetric windows (before 5, after 10, grace 2): records
        // exactly on and one past each edge, and at the grace boundary, in every join kind;
        // StreamJoined with logging disabled, a store name with a log config.
        scenarios.put("stream_join_edges_options", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> l = b.stream("left", SS);
            KStream<String, String> r = b.stream("right", SS);
            JoinWindows w = JoinWindows.ofTimeDifferenceAndGrace(Duration.ofMillis(5), Duration.ofMillis(2)).after(Duration.ofMillis(10));
            l.join(r, (a, c) -> a + "+" + c, w, StreamJoined.with(Serdes.String(), Serdes.String(), Serdes.String())
                .withLoggingDisabled()).to("out-inner", PSS);
            l.leftJoin(r, (a, c) -> a + "+" + show(c), w, StreamJoined.<String, String, String>as("lj").withLoggingDisabled())
                .to("out-left", PSS);
            l.outerJoin(r, (a, c) -> show(a) + "+" + show(c), w, StreamJoined.<String, String, String>as("oj")
                .withLoggingEnabled(Map.of("retention.ms", "1000"))).to("out-outer", PSS);
            Harness h = new Harness(b.build(), out).input("left", S, S).input("right", S, S).output("out-inner", S, S)
                .output("out-left", S, S).output("out-outer", S, S);
            h.pipe("left", "k", "L100", 100);
            h.pipe("right", "k", "R95", 95);
            h.pipe("right", "k", "R94", 94);
            h.pipe("right", "k", "R110", 110);
            h.pipe("right", "k", "R111", 111);
            h.pipe("left", "k", "L116", 116);
            h.pipe("left", "k", "L105", 105);
            h.pipe("right", "k", "R100", 100);
            h.pipe("left", "k", "L90", 90);
            h.pipe("left", "k", "L89", 89);
            h.pipe("right", "k", "R120", 120);
            h.pipe("left", "k", "L130", 130);
            h.pipe("right", "k", "R113", 113);
            h.pipe("right", "k", "R112", 112);
            h.pipe("left", "k", "L150", 150);
            h.dropped();
            h.finish();
        });

        // Dead-letter records of the built-in handlers (KIP-1034): a value that does not
        // deserialize, a mapValues and an aggregator throwing, a table's mapValues throwing; the
        // source record's raw key and value, timestamp and headers, then the error headers.
        scenarios.put("dead_letter_queue_records", out -> {
            java.util.Properties p = new java.util.Properties();
            p.put("deserialization.exception.handler", org.apache.kafka.streams.errors.LogAndContinueExceptionHandler.class.getName());
            p.put("processing.exception.handler", org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler.class.getName());
            p.put("errors.dead.letter.queue.topic.name", "dlq");
            StreamsBuilder b = new StreamsBuilder();
            HuntScenarios.throwingNums(b, v -> "n" + v);
            HuntScenarios.throwingTable(b);
            Harness h = new Harness(b.build(), p, out).input("nums", S, S).input("tab", S, S).output("out-mapped", S, S)
                .output("out-count", S, L).output("out-table", S, S).errorOutput("dlq", S, Harness.Type.X);
            h.pipe("nums", "a", "1234", 1);
            h.pipe("nums", "a", "123", 2, "h=1");
            h.pipe("nums", "b", "abc!", 3, "h=2", "h=3");
            h.pipe("nums", "boom", "9999", 4);
            h.pipe("nums", null, "12", 5);
            h.pipe("nums", "a", null, 6);
            h.pipe("tab", "k", "good", 7);
            h.pipe("tab", "k", "bad", 8, "t=1");
            h.pipe("tab", null, "bad", 9);
            h.dropped();
            h.finish();
        });

        // processing.exception.handler continuing (with a dead-letter queue) where user code
        // throws at different nodes: a filter predicate, a select_key before a grouping, a split
        // predicate, a peek, a stream-stream and a stream-table joiner, a table-table joiner;
        // the failing node's siblings still get the record.
        scenarios.put("processing_errors_at_nodes", out -> {
            java.util.Properties p = new java.util.Properties();
            p.put("processing.exception.handler", org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler.class.getName());
            p.put("errors.dead.letter.queue.topic.name", "dlq");
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.filter((k, v) -> fail(v, "fx", v.length() > 1)).to("out-filter", PSS);
            s.selectKey((k, v) -> fail(v, "sk", v.substring(0, 1))).groupByKey().count().toStream().to("out-count", PSL);
            s.split().branch((k, v) -> fail(v, "br", v.startsWith("b")), org.apache.kafka.streams.kstream.Branched.withConsumer(ks -> ks.to("out-b", PSS)))
                .defaultBranch(org.apache.kafka.streams.kstream.Branched.withConsumer(ks -> ks.mapValues(v -> v).to("out-rest", PSS)));
            s.peek((k, v) -> fail(v, "pk", v)).mapValues(v -> v + "!").to("out-peek", PSS);
            KStream<String, String> other = b.stream("other", SS);
            s.join(other, (x, y) -> fail(x, "jx", x + "+" + y), JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMillis(10)))
                .to("out-join", PSS);
            KTable<String, String> t = b.table("tab", SS);
            s.leftJoin(t, (x, y) -> fail(x, "tj", x + "/" + show(y))).to("out-stream-table", PSS);
            t.join(b.table("tab2", SS), (x, y) -> fail(x, "tt", x + "&" + y)).toStream().to("out-table-table", PSS);
            Harness h = new Harness(b.build(), p, out).input("in", S, S).input("other", S, S).input("tab", S, S)
                .input("tab2", S, S).output("out-filter", S, S).output("out-count", S, L).output("out-b", S, S)
                .output("out-rest", S, S).output("out-peek", S, S).output("out-join", S, S).output("out-stream-table", S, S)
                .output("out-table-table", S, S).errorOutput("dlq", S, S);
            h.pipe("other", "k", "o1", 1);
            h.pipe("tab", "k", "t1", 2);
            h.pipe("tab2", "k", "u1", 3);
            h.pipe("in", "k", "ok", 4);
            h.pipe("in", "k", "fx", 5);
            h.pipe("in", "k", "sk", 6);
            h.pipe("in", "k", "br", 7);
            h.pipe("in", "k", "pk", 8);
            h.pipe("in", "k", "jx", 9);
            h.pipe("in", "k", "tj", 10);
            h.pipe("tab", "k", "tt", 11);
            h.pipe("tab2", "k", "u2", 12);
            h.pipe("tab", "k", "t3", 13);
            h.dropped();
            h.finish();
        });

        // Dead-letter records where the built-in handlers meet a global table's bad record (not
        // written: the global thread has no dead-letter queue), a table source's, and a
        // punctuation's processing error (no source record).
        scenarios.put("dead_letter_queue_global_punctuation", out -> {
            java.util.Properties p = new java.util.Properties();
            p.put("deserialization.exception.handler", org.apache.kafka.streams.errors.LogAndContinueExceptionHandler.class.getName());
            p.put("processing.exception.handler", org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler.class.getName());
            p.put("errors.dead.letter.queue.topic.name", "dlq");
            Harness h = new Harness(HuntScenarios.globalPunctuationTopology(), p, out).input("glob", S, S).input("orders", S, S).input("tab", S, S)
                .input("ticks", S, S).output("out-join", S, S).output("out-tab", S, Harness.Type.I).output("out-ticks", S, S)
                .errorOutput("dlq", S, S);
            h.pipe("glob", "k1", "abcd", 1);
            h.pipe("glob", "k2", "abc", 2, "g=1");
            h.pipe("orders", "o1", "k1", 3);
            h.pipe("orders", "o2", "k2", 4);
            h.pipe("tab", "t", "ab", 5, "t=1");
            h.pipe("tab", "t", "wxyz", 6);
            h.pipe("ticks", "a", "x0", 0);
            h.pipe("ticks", "a", "x10", 10, "x=1");
            h.pipe("ticks", "a", "bad", 15, "x=2");
            h.pipe("ticks", "a", "x20", 20);
            h.pipe("ticks", "a", "x30", 30);
            h.dropped();
            h.finish();
        });

        // Terminal and side-effect operators (peek, foreach, print, a table's to_stream then
        // foreach) named and not: the names they take, the order their calls see the records
        // in beside sinks, and that forwarding goes on past a peek.
        scenarios.put("peek_foreach_print", out -> {
            StringBuilder seen = new StringBuilder();
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.peek((k, v) -> seen.append(" peek1:").append(v)).mapValues(v -> v + "!").to("out-a", PSS);
            s.foreach((k, v) -> seen.append(" each:").append(v));
            s.print(org.apache.kafka.streams.kstream.Printed.<String, String>toSysOut().withLabel("in"));
            s.peek((k, v) -> seen.append(" peek2:").append(v), org.apache.kafka.streams.kstream.Named.as("p2"))
                .filter((k, v) -> v.length() > 1).to("out-b", PSS);
            s.foreach((k, v) -> seen.append(" each2:").append(v), org.apache.kafka.streams.kstream.Named.as("each2"));
            s.print(org.apache.kafka.streams.kstream.Printed.<String, String>toSysOut().withName("printer"));
            KTable<String, String> t = b.table("tab", SS);
            t.toStream().foreach((k, v) -> seen.append(" tab:").append(show(v)));
            t.toStream().peek((k, v) -> seen.append(" tabpeek:").append(show(v))).to("out-tab", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tab", S, S).output("out-a", S, S)
                .output("out-b", S, S).output("out-tab", S, S);
            h.pipe("in", "k", "x", 1);
            h.pipe("in", "k", "yy", 2);
            h.pipe("tab", "t", "z", 3);
            h.pipe("tab", "t", null, 4);
            h.line("# seen" + seen);
            h.finish();
        });

        // Processing errors while caches flush (a cached table source's and a cached count's
        // results reaching a throwing mapValues at commit): the dead-letter record carries the
        // writing record's raw key and value, headers, topic, partition and offset.
        scenarios.put("dead_letter_queue_cache_flush", out -> {
            java.util.Properties p = new java.util.Properties();
            p.put("processing.exception.handler", org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler.class.getName());
            p.put("errors.dead.letter.queue.topic.name", "dlq");
            StreamsBuilder b = new StreamsBuilder();
            b.table("tab", SS, org.apache.kafka.streams.kstream.Materialized.as("tab-store"))
                .mapValues(v -> fail(v, "bad", v + "?")).toStream().to("out-tab", PSS);
            b.stream("in", SS).groupByKey().count().toStream().mapValues(c -> {
                if (c == 2) throw new IllegalStateException("two");
                return "c" + c;
            }).to("out-count", PSS);
            Harness h = new Harness(b.build(), p, out).input("tab", S, S).input("in", S, S).output("out-tab", S, S)
                .output("out-count", S, S).errorOutput("dlq", S, S);
            h.pipe("tab", "k", "good", 1, "h=1");
            h.pipe("tab", "k", "bad", 2, "h=2");
            h.pipe("tab", "k", "fine", 3);
            h.pipe("in", "a", "x", 4);
            h.pipe("in", "a", "y", 5, "h=3");
            h.pipe("in", "a", "z", 6);
            h.dropped();
            h.finish();
        });

        // Stream-table joins whose table side moves back in time (a plain, a materialized and an
        // uncached materialized table): the latest update joins whatever its timestamp, results
        // take the stream record's timestamp; a table-table join of the same sides.
        scenarios.put("stream_table_join_table_out_of_order", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            KTable<String, String> plain = b.table("tab", SS);
            KTable<String, String> mat = b.table("tab2", SS, org.apache.kafka.streams.kstream.Materialized.as("tab2-store"));
            KTable<String, String> uncached = b.table("tab3", SS,
                org.apache.kafka.streams.kstream.Materialized.<String, String, org.apache.kafka.streams.state.KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]>>as("tab3-store")
                    .withCachingDisabled());
            s.join(plain, (x, y) -> x + "/" + y).to("out-plain", PSS);
            s.leftJoin(mat, (x, y) -> x + "/" + show(y)).to("out-mat", PSS);
            s.leftJoin(uncached, (x, y) -> x + "/" + show(y)).to("out-uncached", PSS);
            mat.join(uncached, (x, y) -> x + "&" + y).toStream().to("out-tt", PSS);
            Harness h = new Harness(b.build(), out).input("in", S, S).input("tab", S, S).input("tab2", S, S)
                .input("tab3", S, S).output("out-plain", S, S).output("out-mat", S, S).output("out-uncached", S, S)
                .output("out-tt", S, S);
            for (String t : new String[] {"tab", "tab2", "tab3"}) {
                h.pipe(t, "k", t + "@50", 50);
                h.pipe(t, "k", t + "@20", 20);
            }
            h.pipe("in", "k", "s10", 10);
            h.pipe("in", "k", "s60", 60);
            for (String t : new String[] {"tab", "tab2", "tab3"}) h.pipe(t, "k", t + "@5", 5);
            h.pipe("in", "k", "s30", 30);
            for (String t : new String[] {"tab", "tab2", "tab3"}) h.pipe(t, "k", null, 1);
            h.pipe("in", "k", "s40", 40);
            h.dropped();
            h.finish();
        });

        // A production handler that continues: a serializer failing drops the record at the sink
        // (once per partition a multicast partitioner chose, each counted); a topic extractor or
        // a partitioner throwing is the forwarding processor's error (processing handler).
        scenarios.put("sink_errors_continue_multicast", out -> {
            java.util.Properties p = new java.util.Properties();
            p.put("processing.exception.handler", org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler.class.getName());
            p.put("production.exception.handler", ContinueProductionHandler.class.getName());
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS).mapValues(v -> v);
            StreamPartitioner<String, String> two = (topic, k, v, n) -> {
                if (v.equals("px")) throw new IllegalStateException("partitioner");
                return v.contains("two") ? parts("0,1") : Optional.empty();
            };
            s.to(new ThrowingExtractor(), Produced.with(Serdes.String(), PICKY).withStreamPartitioner(two));
            s.to("out-all", PSS);
            Harness h = new Harness(b.build(), p, out).input("in", S, S).output("out-x", S, S).output("out-all", S, S);
            h.pipe("in", "k", "ok", 1);
            h.pipe("in", "k", "two", 2);
            h.pipe("in", "k", "badtwo", 3);
            h.dropped();
            h.pipe("in", "k", "bad", 4);
            h.dropped();
            h.pipe("in", "k", "ex", 5);
            h.pipe("in", "k", "px", 6);
            h.dropped();
            h.finish();
        });

        // A foreign-key join's table_joined partitioners must answer one partition (or the
        // default): several fail the task (Kafka's KTableImpl checks it for both topics).
        scenarios.put("multicast_fk_join", out -> {
            StreamsBuilder b = new StreamsBuilder();
            KTable<String, String> orders = b.table("orders", SS);
            KTable<String, String> customers = b.table("customers", SS);
            StreamPartitioner<String, Void> byOrder = (topic, k, v, n) -> k.equals("o2") ? Optional.empty() : parts("0");
            StreamPartitioner<String, Void> byCustomer = (topic, k, v, n) -> parts(k.equals("c2") ? "0,1" : "0");
            orders.leftJoin(customers, v -> v.substring(0, v.indexOf(':')), (o, c) -> o + "/" + show(c),
                    TableJoined.<String, String>as("fk").withPartitioner(byOrder).withOtherPartitioner(byCustomer))
                .toStream().to("out", PSS);
            Harness h = new Harness(b.build(), out).input("orders", S, S).input("customers", S, S).output("out", S, S);
            h.pipe("customers", "c1", "Ann", 1);
            h.pipe("orders", "o1", "c1:x", 2);
            h.pipe("orders", "o2", "c1:y", 3);
            h.pipe("customers", "c1", "Anna", 4);
            h.pipe("customers", "c2", "Ben", 5);
            SuppressScenarios.pipeFailing(h, "The partitions returned", "orders", "o1", "c2:z", 6);
            h.finish();
        });
    }
}
