// The end-to-end benchmark's driver (scripts/bench-e2e runs it): loads the input topics once, then
// runs one app (kstreams, Java Kafka Streams or the hand-written loop: any command) and times it from
// the moment it says it starts its streams until it is done with its input (see measure()), then
// checks the output. The same driver watches every app, so all are measured the same way.
//
//   e2e_driver preload BOOTSTRAP TOPIC PARTITIONS RECORDS KEYS
//   e2e_driver create BOOTSTRAP TOPIC PARTITIONS
//   e2e_driver measure BOOTSTRAP GROUP INPUT OUTPUT PIPELINE RECORDS KEYS -- COMMAND...
//   e2e_driver latency BOOTSTRAP INPUT OUTPUT PIPELINE RATE SECONDS KEYS -- COMMAND...   (latency.cpp)
//
// As Kafka's SimpleBenchmark: record i = 0..RECORDS-1 has a 4-byte big-endian int key i % KEYS and a
// 100-byte value "value-<i, zero-padded>", timestamped base + i / 100 ms (100 records per
// millisecond, so the hopping windows and the join window see event time move). Beside TOPIC,
// preload writes its companions with the same partition count: TOPIC-table (one row per key,
// timestamped before every input record) for the stream-table join, and TOPIC-side (one record per
// key every 15 s of the input's time span) for the stream-stream join.
//
// Pipelines: passthrough, stateless (values not ending in '0', uppercased), count / stateful (count
// per key, 10 MiB cache), count_nocache (cache 0), hopping_count (1 s windows advancing 500 ms),
// hopping_recompute (the same, its store recovered by recomputation: in memory, no changelog),
// kv_store (Processor API get+put on an uncached RocksDB store, the new count forwarded),
// table_join (stream-table left join), stream_join (stream-stream left join, 10 s, grace 30 s).
// "<pipeline>-eos" (stateless-eos, count-eos): the same under exactly_once_v2 with its default
// 100 ms commit interval; its end is when the committed offsets reach the end of the input (the
// output becomes visible with that commit), and its output is read as read_committed consumers see it.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "benchmarks/e2e/driver_support.hpp"
#include "benchmarks/e2e/latency.hpp"
#include "lib/kafka/rd.hpp"

using namespace e2e;
using clock_type = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

/// Input record i's timestamp: 100 records per millisecond from `base`.
std::int64_t input_timestamp(std::int64_t base, std::int64_t i) { return base + i / 100; }
constexpr std::int64_t side_every_ms = 15000;

/// The side stream's timestamps for one key: every 15 s from base to past the input's last one.
std::vector<std::int64_t> side_timestamps(std::int64_t base, std::int64_t records) {
    std::vector<std::int64_t> ts;
    for (std::int64_t t = base; t <= input_timestamp(base, records) + side_every_ms; t += side_every_ms) ts.push_back(t);
    return ts;
}

int preload(const std::string& bootstrap, const std::string& topic, std::int32_t partitions, std::int64_t records,
            std::int64_t keys) {
    for (const auto& t : {topic, topic + "-table", topic + "-side"}) create_topic(bootstrap, t, partitions);
    // Event time starts ten minutes ago on a whole second, so windows line up the same in every run.
    const std::int64_t base =
        (std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count() -
         600000) / 1000 * 1000;
    const auto start = clock_type::now();
    loader out(bootstrap, 20);
    for (std::int64_t k = 0; k < keys; ++k) out.send(topic + "-table", static_cast<std::int32_t>(k), value_of(k), base - 1000);
    for (std::int64_t t : side_timestamps(base, records))
        for (std::int64_t k = 0; k < keys; ++k) out.send(topic + "-side", static_cast<std::int32_t>(k), value_of(k), t);
    for (std::int64_t i = 0; i < records; ++i)
        out.send(topic, static_cast<std::int32_t>(i % keys), value_of(i), input_timestamp(base, i));
    out.flush();
    const double s = std::chrono::duration<double>(clock_type::now() - start).count();
    std::cerr << "e2e_driver: loaded " << records << " records into " << topic << " (and its -table and -side) in " << s
              << " s\n";
    warm_group_coordinator(bootstrap, topic);
    return 0;
}

/// How many records a pipeline that writes as it goes must write, or -1 for the aggregations (whose
/// end is seen through the committed offsets). The stream-stream join writes one record per pair of
/// an input record and a side record of its key at most 10 s apart (every input record has one).
std::int64_t sink_records(const std::string& kind, std::int64_t records) {
    if (kind == "passthrough" || kind == "table_join") return records;
    if (kind == "stateless") return records - (records + 9) / 10;
    if (kind != "stream_join") return -1;
    std::int64_t pairs = 0;
    const auto side = side_timestamps(0, records);
    for (std::int64_t i = 0; i < records; ++i)
        for (std::int64_t t : side) pairs += std::abs(t - input_timestamp(0, i)) <= 10000;
    return pairs;
}



/// Calls `fn` for every record of `topic` from the beginning to its end (its last stable offset
/// when `read_committed`: what committed transactions wrote), seen by end-of-partition events.
template <class Fn>
void read_all(const std::string& bootstrap, const std::string& topic, std::int32_t partitions, bool read_committed,
              Fn fn) {
    auto rk = consumer(bootstrap, "e2e-verify-" + std::to_string(::getpid()), read_committed);
    kafka::tpl_ptr tpl = kafka::make_tpl();
    for (std::int32_t p = 0; p < partitions; ++p)
        rd_kafka_topic_partition_list_add(tpl.get(), topic.c_str(), p)->offset = RD_KAFKA_OFFSET_BEGINNING;
    rd_kafka_assign(rk.get(), tpl.get());
    std::vector<bool> at_end(static_cast<std::size_t>(partitions), false);
    const auto deadline = clock_type::now() + 120s;
    while (std::count(at_end.begin(), at_end.end(), false) > 0 && clock_type::now() < deadline) {
        kafka::message_ptr m(rd_kafka_consumer_poll(rk.get(), 200));
        if (!m) continue;
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) at_end[static_cast<std::size_t>(m->partition)] = true;
        if (m->err) continue;
        at_end[static_cast<std::size_t>(m->partition)] = false;
        fn(*m);
    }
    rd_kafka_consumer_close(rk.get());
    if (std::count(at_end.begin(), at_end.end(), false) > 0) die("reading " + topic + " did not reach its end in 120 s");
}

/// How far an app has processed a partition, from its committed offset. Recovery by recomputation
/// (hopping_recompute) commits no further than its open windows, so there the commit's metadata
/// ("<Kafka's partition time, base64>|kstreams-recompute:<version>:<processed>;...", versions 1 and
/// 2; the Kafka part absent before every commit carried it) says how far the task processed.
std::int64_t processed_offset(const std::string& kind, const rd_kafka_topic_partition_t& committed) {
    constexpr std::string_view magic = "kstreams-recompute:";
    if (kind != "hopping_recompute" || !committed.metadata) return committed.offset;
    std::string_view metadata(static_cast<const char*>(committed.metadata), committed.metadata_size);
    if (const auto at = metadata.find(magic); at != std::string_view::npos) metadata.remove_prefix(at);
    if (metadata.size() <= magic.size() + 2 || !metadata.starts_with(magic) || metadata.substr(magic.size() + 1, 1) != ":")
        return committed.offset;
    return std::max<std::int64_t>(committed.offset, std::atoll(std::string(metadata.substr(magic.size() + 2)).c_str()));
}

/// Sum of the latest count per key of the stateful app's output, and how many keys it has.
std::pair<std::int64_t, std::size_t> latest_counts(const std::string& bootstrap, const std::string& topic,
                                                   std::int32_t partitions, bool read_committed) {
    std::map<std::string, std::int64_t> latest;
    read_all(bootstrap, topic, partitions, read_committed, [&](const rd_kafka_message_t& m) {
        std::int64_t v = 0;
        const auto* b = static_cast<const unsigned char*>(m.payload);
        for (std::size_t i = 0; b && i < m.len; ++i) v = (v << 8) | b[i];  // big-endian, as Java's Long serde
        latest[std::string(static_cast<const char*>(m.key), m.key_len)] = v;
    });
    std::int64_t sum = 0;
    for (const auto& [k, v] : latest) sum += v;
    return {sum, latest.size()};
}

/// A run that never ends: what the app had done (its CPU, its group's committed offsets against the
/// input's ends, the output so far) and, when gdb is installed, every thread's stack, into
/// build-bench/e2e-stall-<group>.txt, so that a rare stall can be looked at after the fact.
void report_stall(const std::string& group, pid_t child, double app_cpu0, rd_kafka_t* watcher,
                  rd_kafka_topic_partition_list_t* tpl, const std::vector<std::int64_t>& ends, std::int64_t output) {
    const std::string path = "build-bench/e2e-stall-" + group + ".txt";
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return;
    std::fprintf(f, "app pid %d, CPU %.2f s since it started; output records so far %lld\n", static_cast<int>(child),
                 cpu_seconds(child) - app_cpu0, static_cast<long long>(output));
    if (!rd_kafka_committed(watcher, tpl, 10000))
        for (int i = 0; i < tpl->cnt; ++i)
            std::fprintf(f, "input partition %d: committed %lld of %lld\n", tpl->elems[i].partition,
                         static_cast<long long>(tpl->elems[i].offset),
                         static_cast<long long>(ends[static_cast<std::size_t>(tpl->elems[i].partition)]));
    std::fclose(f);
    const std::string gdb = "command -v gdb >/dev/null && gdb -p " + std::to_string(child) +
                            " -batch -ex 'thread apply all bt 40' >>" + path + " 2>&1";
    if (std::system(gdb.c_str()) != 0) std::cerr << "e2e_driver: no stacks (gdb missing or failed)\n";
    std::cerr << "e2e_driver: the stalled app's state is in " << path << "\n";
}

int measure(const std::string& bootstrap, const std::string& group, const std::string& input,
            const std::string& output, const std::string& pipeline, std::int64_t records, std::int64_t keys,
            char** command) {
    const bool eos = pipeline.size() > 4 && pipeline.compare(pipeline.size() - 4, 4, "-eos") == 0;
    const std::string kind = eos ? pipeline.substr(0, pipeline.size() - 4) : pipeline;
    const std::int32_t partitions = partition_count(bootstrap, input);
    auto watcher = consumer(bootstrap, group);
    const auto ends = end_offsets(watcher.get(), input, partitions);
    std::int64_t total = 0;
    for (auto e : ends) total += e;
    if (total != records) die("topic " + input + " holds " + std::to_string(total) + " records, expected " +
                              std::to_string(records));

    app_process app(command);
    const pid_t child = app.pid();
    const auto t0 = clock_type::now();
    // CPU of the app and of the broker (E2E_BROKER_PID), over the same span as the time.
    const pid_t broker = std::getenv("E2E_BROKER_PID") ? static_cast<pid_t>(std::atol(std::getenv("E2E_BROKER_PID"))) : 0;
    const double app_cpu0 = cpu_seconds(child), broker_cpu0 = cpu_seconds(broker);

    // The end: for a pipeline that writes as it goes, when its output is complete (not later than
    // its next commit); for an aggregation, when its committed offsets reach the end of the input
    // (its results leave the record cache at commits, so the last ones are written right before).
    // Under exactly-once the output becomes visible with the commit: every pipeline ends there.
    const std::int64_t sink_expected = sink_records(kind, records);
    const bool to_sink = sink_expected >= 0;
    const std::int32_t output_partitions = partition_count(bootstrap, output);
    // The output's records so far; -1 when the broker did not answer.
    auto output_complete_count = [&]() -> std::int64_t {
        std::int64_t produced = 0;
        for (std::int32_t p = 0; p < output_partitions; ++p) {
            std::int64_t lo = 0, hi = 0;
            if (rd_kafka_query_watermark_offsets(watcher.get(), output.c_str(), p, &lo, &hi, 10000)) return -1;
            produced += hi;
        }
        return produced;
    };
    auto output_complete = [&] { return output_complete_count() >= sink_expected; };
    kafka::tpl_ptr tpl = kafka::make_tpl();
    for (std::int32_t p = 0; p < partitions; ++p) rd_kafka_topic_partition_list_add(tpl.get(), input.c_str(), p);
    const auto deadline = t0 + 600s;
    bool done = false;
    while (!done) {
        if (app.exited()) die("the app exited before it consumed its input");
        if (clock_type::now() > deadline) {
            report_stall(group, child, app_cpu0, watcher.get(), tpl.get(), ends, output_complete_count());
            ::kill(child, SIGKILL);
            die("the app did not consume its input within 600 s");
        }
        app.drain_output();
        std::this_thread::sleep_for(20ms);
        if (to_sink && !eos) {
            done = output_complete();
            continue;
        }
        if (rd_kafka_committed(watcher.get(), tpl.get(), 10000)) continue;
        done = true;
        for (int i = 0; i < tpl->cnt; ++i)
            if (processed_offset(kind, tpl->elems[i]) < ends[tpl->elems[i].partition]) done = false;
    }
    const double seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
    const double app_cpu = cpu_seconds(child) - app_cpu0, broker_cpu = cpu_seconds(broker) - broker_cpu0;
    const double rss = peak_rss_mib(child);
    app.stop();

    // The output must be complete, or the time means nothing.
    std::string check;
    if (to_sink) {
        std::int64_t produced = 0;
        if (eos) read_all(bootstrap, output, output_partitions, true, [&](const rd_kafka_message_t&) { ++produced; });
        else for (auto e : end_offsets(watcher.get(), output, output_partitions)) produced += e;
        if (produced != sink_expected)
            die("the " + kind + " app wrote " + std::to_string(produced) + " records, expected " +
                std::to_string(sink_expected));
        check = std::to_string(produced) + " output records";
    } else {
        // Every input record counts once per window it falls in: twice for the hopping windows
        // (none start before the epoch), once per key otherwise.
        auto [sum, nkeys] = latest_counts(bootstrap, output, output_partitions, eos);
        const bool hopping = kind == "hopping_count" || kind == "hopping_recompute";
        const std::int64_t expected_sum = hopping ? 2 * records : records;
        const bool keys_ok = hopping || static_cast<std::int64_t>(nkeys) == std::min(keys, records);
        if (sum != expected_sum || !keys_ok)
            die("the " + kind + " app's latest counts add up to " + std::to_string(sum) + " over " +
                std::to_string(nkeys) + " keys, expected " + std::to_string(expected_sum) +
                (hopping ? "" : " over " + std::to_string(keys)));
        check = "counts add up over " + std::to_string(nkeys) + " keys";
    }
    std::printf("RESULT %s %lld records %.3f s %.0f records/s cpu %.3f s %.2f cores %.3f us/rec broker %.2f cores rss %.0f MiB (%s)\n",
                pipeline.c_str(), static_cast<long long>(records), seconds, static_cast<double>(records) / seconds, app_cpu,
                app_cpu / seconds, app_cpu * 1e6 / static_cast<double>(records), broker_cpu / seconds, rss, check.c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const std::string cmd = argc > 1 ? argv[1] : "";
        if (cmd == "preload" && argc == 7)
            return preload(argv[2], argv[3], std::stoi(argv[4]), std::stoll(argv[5]), std::stoll(argv[6]));
        if (cmd == "create" && argc == 5) {
            create_topic(argv[2], argv[3], std::stoi(argv[4]));
            return 0;
        }
        if (cmd == "delete" && argc == 4) {
            delete_topics_with_prefix(argv[2], argv[3]);
            return 0;
        }
        if (cmd == "measure" && argc > 10 && std::string(argv[9]) == "--")
            return measure(argv[2], argv[3], argv[4], argv[5], argv[6], std::stoll(argv[7]), std::stoll(argv[8]),
                           argv + 10);
        if (cmd == "latency" && argc > 10 && std::string(argv[9]) == "--")
            return latency(argv[2], argv[3], argv[4], argv[5], std::stod(argv[6]), std::stod(argv[7]),
                           std::stoll(argv[8]), argv + 10);
    } catch (const std::exception& e) {
        die(e.what());
    }
    std::cerr << "usage: e2e_driver preload BOOTSTRAP TOPIC PARTITIONS RECORDS KEYS\n"
                 "       e2e_driver create BOOTSTRAP TOPIC PARTITIONS\n"
                 "       e2e_driver delete BOOTSTRAP TOPIC_PREFIX\n"
                 "       e2e_driver measure BOOTSTRAP GROUP INPUT OUTPUT PIPELINE RECORDS KEYS -- COMMAND...\n"
                 "       e2e_driver latency BOOTSTRAP INPUT OUTPUT PIPELINE RATE SECONDS KEYS -- COMMAND...\n";
    return 2;
}
