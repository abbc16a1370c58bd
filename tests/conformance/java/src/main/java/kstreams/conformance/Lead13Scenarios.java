package kstreams.conformance;

import static kstreams.conformance.Harness.Type.S;

import java.util.Map;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Dead-letter records of processing errors after a sink already sent the record (in the same
 * record context, and in a context of its own after a timestamp change): which raw bytes the
 * handler gets (tests/conformance/lead13_scenarios_test.cpp writes the same with kstreams).
 */
final class Lead13Scenarios {
    static final Consumed<String, String> SS = Consumed.with(Serdes.String(), Serdes.String());
    static final Produced<String, String> PSS = Produced.with(Serdes.String(), Serdes.String());

    static void register(Map<String, Main.Scenario> scenarios) {
        scenarios.put("dead_letter_after_sink", out -> {
            java.util.Properties p = new java.util.Properties();
            p.put("processing.exception.handler", org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler.class.getName());
            p.put("errors.dead.letter.queue.topic.name", "dlq");
            StreamsBuilder b = new StreamsBuilder();
            KStream<String, String> s = b.stream("in", SS);
            s.to("out-first", PSS);
            s.mapValues(v -> Hunt11Scenarios.fail(v, "bad", v + "!")).to("out-second", PSS);
            KStream<String, String> t = b.stream("in2", SS);
            t.filter((k, v) -> true).to("out-third", PSS);
            t.mapValues(v -> Hunt11Scenarios.fail(v, "bad", v + "?")).to("out-fourth", PSS);
            KStream<String, String> u = b.stream("in3", SS);
            u.mapValues(v -> Hunt11Scenarios.fail(v, "bad", v + "#")).to("out-fifth", PSS);
            u.to("out-sixth", PSS);
            KStream<String, String> w = b.stream("in4", SS);
            w.process(() -> new org.apache.kafka.streams.processor.api.ContextualProcessor<String, String, String, String>() {
                @Override public void process(org.apache.kafka.streams.processor.api.Record<String, String> r) {
                    context().forward(r.withTimestamp(r.timestamp() + 1));
                }
            }).to("out-seventh", PSS);
            w.mapValues(v -> Hunt11Scenarios.fail(v, "bad", v + "%")).to("out-eighth", PSS);
            Harness h = new Harness(b.build(), p, out).input("in", S, S).input("in2", S, S).input("in3", S, S)
                .input("in4", S, S).output("out-first", S, S).output("out-second", S, S).output("out-third", S, S)
                .output("out-fourth", S, S).output("out-fifth", S, S).output("out-sixth", S, S)
                .output("out-seventh", S, S).output("out-eighth", S, S).errorOutput("dlq", S, S);
            h.pipe("in", "k", "ok", 1);
            h.pipe("in", "k", "bad", 2);
            h.pipe("in2", "k", "bad", 3);
            h.pipe("in3", "k", "bad", 4);
            h.pipe("in4", "k", "bad", 5);
            h.dropped();
            h.finish();
        });
    }
}
