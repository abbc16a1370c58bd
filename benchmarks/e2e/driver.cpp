// The end-to-end benchmark's driver (scripts/bench-e2e runs it): loads the input topic once, then
// runs one app (kstreams or Java Kafka Streams, any command) and times it from the moment it says
// it starts its streams until it is done with its input (see measure()), then checks the output.
// The same driver watches both apps, so both are measured the same way.
//
//   e2e_driver preload BOOTSTRAP TOPIC PARTITIONS RECORDS KEYS
//   e2e_driver create BOOTSTRAP TOPIC PARTITIONS
//   e2e_driver measure BOOTSTRAP GROUP INPUT OUTPUT passthrough|stateless|stateful RECORDS KEYS -- COMMAND...
//
// Records i = 0..RECORDS-1 have key "key-<i % KEYS>" and value "value-<i>". The stateless pipeline
// keeps values not ending in '0' (uppercased); the stateful one counts per key.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "lib/kafka/rd.hpp"
#include "lib/kafka/topic_admin.hpp"

namespace kafka = kstreams::kafka;
using clock_type = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

[[noreturn]] void die(const std::string& what) {
    std::cerr << "e2e_driver: " << what << "\n";
    std::exit(1);
}

void create_topic(const std::string& bootstrap, const std::string& topic, std::int32_t partitions) {
    kafka::topic_admin admin({{"bootstrap.servers", bootstrap}, {"log_level", "3"}}, 30s, nullptr);
    admin.create_topics({{topic, partitions, 1, {}}});
}

kafka::rk_ptr consumer(const std::string& bootstrap, const std::string& group) {
    return kafka::make_client(RD_KAFKA_CONSUMER,
                              kafka::make_conf({{"bootstrap.servers", bootstrap},
                                                {"group.id", group},
                                                {"enable.auto.commit", "false"},
                                                {"auto.offset.reset", "earliest"},
                                                {"log_level", "3"}},
                                               "consumer"),
                              "consumer");
}

/// The high watermark of each partition of `topic`.
std::vector<std::int64_t> end_offsets(rd_kafka_t* rk, const std::string& topic, std::int32_t partitions) {
    std::vector<std::int64_t> ends;
    for (std::int32_t p = 0; p < partitions; ++p) {
        std::int64_t lo = 0, hi = 0;
        if (rd_kafka_resp_err_t err = rd_kafka_query_watermark_offsets(rk, topic.c_str(), p, &lo, &hi, 30000))
            die("watermarks of " + topic + "[" + std::to_string(p) + "]: " + rd_kafka_err2str(err));
        ends.push_back(hi);
    }
    return ends;
}

std::int32_t partition_count(const std::string& bootstrap, const std::string& topic) {
    kafka::topic_admin admin({{"bootstrap.servers", bootstrap}, {"log_level", "3"}}, 30s, nullptr);
    auto n = admin.partition_count(topic);
    if (!n) die("topic " + topic + " does not exist");
    return *n;
}

int preload(const std::string& bootstrap, const std::string& topic, std::int32_t partitions, std::int64_t records,
            std::int64_t keys) {
    create_topic(bootstrap, topic, partitions);
    auto conf = kafka::make_conf({{"bootstrap.servers", bootstrap},
                                  {"partitioner", "murmur2_random"},
                                  {"linger.ms", "20"},
                                  {"batch.size", "1000000"},
                                  {"queue.buffering.max.messages", "1000000"},
                                  {"log_level", "3"}},
                                 "producer");
    auto rk = kafka::make_client(RD_KAFKA_PRODUCER, std::move(conf), "producer");
    const auto start = clock_type::now();
    char key[32], value[32];
    for (std::int64_t i = 0; i < records; ++i) {
        const int kn = std::snprintf(key, sizeof key, "key-%05lld", static_cast<long long>(i % keys));
        const int vn = std::snprintf(value, sizeof value, "value-%lld", static_cast<long long>(i));
        for (;;) {
            rd_kafka_resp_err_t err = rd_kafka_producev(rk.get(), RD_KAFKA_V_TOPIC(topic.c_str()),
                                                        RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                                        RD_KAFKA_V_KEY(key, static_cast<std::size_t>(kn)),
                                                        RD_KAFKA_V_VALUE(value, static_cast<std::size_t>(vn)),
                                                        RD_KAFKA_V_END);
            if (!err) break;
            if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) die(std::string("producing: ") + rd_kafka_err2str(err));
            rd_kafka_poll(rk.get(), 10);
        }
        rd_kafka_poll(rk.get(), 0);
    }
    if (rd_kafka_flush(rk.get(), 120000)) die("preload: the producer did not deliver everything");
    const double s = std::chrono::duration<double>(clock_type::now() - start).count();
    std::cerr << "e2e_driver: loaded " << records << " records into " << topic << " in " << s << " s\n";
    // The broker creates its offsets topic at the first group's first request, which takes
    // seconds on a fresh broker: done here, so that the first app timed does not pay for it.
    auto warm = consumer(bootstrap, "e2e-warmup");
    kafka::tpl_ptr offsets = kafka::make_tpl();
    rd_kafka_topic_partition_list_add(offsets.get(), topic.c_str(), 0)->offset = 0;
    if (rd_kafka_resp_err_t err = rd_kafka_commit(warm.get(), offsets.get(), 0))
        die(std::string("warming up the group coordinator: ") + rd_kafka_err2str(err));
    return 0;
}

/// CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; 0 if unknown.
double cpu_seconds(pid_t pid) {
    if (pid <= 0) return 0;
    FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
    if (!f) return 0;
    char buf[2048];
    const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[n] = 0;
    // Fields after the command name (which may hold spaces), from its closing parenthesis: state is
    // field 3, utime 14, stime 15.
    const char* p = std::strrchr(buf, ')');
    if (!p) return 0;
    unsigned long long utime = 0, stime = 0;
    if (std::sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2) return 0;
    return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

/// Sum of the latest count per key of the stateful app's output, and how many keys it has.
std::pair<std::int64_t, std::size_t> latest_counts(const std::string& bootstrap, const std::string& topic,
                                                   std::int32_t partitions) {
    auto rk = consumer(bootstrap, "e2e-verify-" + std::to_string(::getpid()));
    const auto ends = end_offsets(rk.get(), topic, partitions);
    kafka::tpl_ptr tpl = kafka::make_tpl();
    for (std::int32_t p = 0; p < partitions; ++p)
        rd_kafka_topic_partition_list_add(tpl.get(), topic.c_str(), p)->offset = RD_KAFKA_OFFSET_BEGINNING;
    rd_kafka_assign(rk.get(), tpl.get());
    std::map<std::string, std::int64_t> latest;
    std::vector<std::int64_t> pos(static_cast<std::size_t>(partitions), 0);
    const auto deadline = clock_type::now() + 120s;
    auto done = [&] {
        for (std::int32_t p = 0; p < partitions; ++p)
            if (pos[p] < ends[p]) return false;
        return true;
    };
    while (!done() && clock_type::now() < deadline) {
        kafka::message_ptr m(rd_kafka_consumer_poll(rk.get(), 200));
        if (!m || m->err) continue;
        pos[m->partition] = m->offset + 1;
        std::int64_t v = 0;
        const auto* b = static_cast<const unsigned char*>(m->payload);
        for (std::size_t i = 0; b && i < m->len; ++i) v = (v << 8) | b[i];  // big-endian, as Java's Long serde
        latest[std::string(static_cast<const char*>(m->key), m->key_len)] = v;
    }
    rd_kafka_consumer_close(rk.get());
    std::int64_t sum = 0;
    for (const auto& [k, v] : latest) sum += v;
    return {sum, latest.size()};
}

int measure(const std::string& bootstrap, const std::string& group, const std::string& input,
            const std::string& output, const std::string& kind, std::int64_t records, std::int64_t keys,
            char** command) {
    const std::int32_t partitions = partition_count(bootstrap, input);
    auto watcher = consumer(bootstrap, group);
    const auto ends = end_offsets(watcher.get(), input, partitions);
    std::int64_t total = 0;
    for (auto e : ends) total += e;
    if (total != records) die("topic " + input + " holds " + std::to_string(total) + " records, expected " +
                              std::to_string(records));

    int out[2];
    if (::pipe(out) != 0) die("pipe");
    const pid_t child = ::fork();
    if (child < 0) die("fork");
    if (child == 0) {
        ::dup2(out[1], 1);
        ::close(out[0]);
        ::close(out[1]);
        ::execvp(command[0], command);
        std::perror("e2e_driver: exec");
        ::_exit(127);
    }
    ::close(out[1]);
    // The app prints STARTED right before it starts its streams: process start-up (the JVM's, the
    // loading of shared libraries) is not timed; creating topics, joining the group and restoring
    // are.
    FILE* app_out = ::fdopen(out[0], "r");
    char line[512];
    bool started = false;
    while (!started && std::fgets(line, sizeof line, app_out)) started = std::strncmp(line, "STARTED", 7) == 0;
    if (!started) die("the app exited before it said STARTED");
    const auto t0 = clock_type::now();
    // CPU of the app and of the broker (E2E_BROKER_PID), over the same span as the time.
    const pid_t broker = std::getenv("E2E_BROKER_PID") ? static_cast<pid_t>(std::atol(std::getenv("E2E_BROKER_PID"))) : 0;
    const double app_cpu0 = cpu_seconds(child), broker_cpu0 = cpu_seconds(broker);
    ::fcntl(out[0], F_SETFL, O_NONBLOCK);

    // The end: for the stateless app, when its output is complete (not later than its next
    // commit); for the stateful one, when its committed offsets reach the end of the input (its
    // counts leave the record cache at commits, so the last ones are written right before that).
    const bool to_sink = kind == "stateless" || kind == "passthrough";
    const std::int64_t stateless_expected = kind == "passthrough" ? records : records - (records + 9) / 10;
    const std::int32_t output_partitions = partition_count(bootstrap, output);
    auto output_complete = [&] {
        std::int64_t produced = 0;
        for (std::int32_t p = 0; p < output_partitions; ++p) {
            std::int64_t lo = 0, hi = 0;
            if (rd_kafka_query_watermark_offsets(watcher.get(), output.c_str(), p, &lo, &hi, 10000)) return false;
            produced += hi;
        }
        return produced >= stateless_expected;
    };
    kafka::tpl_ptr tpl = kafka::make_tpl();
    for (std::int32_t p = 0; p < partitions; ++p) rd_kafka_topic_partition_list_add(tpl.get(), input.c_str(), p);
    const auto deadline = t0 + 600s;
    bool done = false;
    while (!done) {
        int status = 0;
        if (::waitpid(child, &status, WNOHANG) == child) die("the app exited before it consumed its input");
        if (clock_type::now() > deadline) {
            ::kill(child, SIGKILL);
            die("the app did not consume its input within 600 s");
        }
        while (std::fgets(line, sizeof line, app_out)) std::cerr << line;  // keep its stdout drained
        std::clearerr(app_out);
        std::this_thread::sleep_for(20ms);
        if (to_sink) {
            done = output_complete();
            continue;
        }
        if (rd_kafka_committed(watcher.get(), tpl.get(), 10000)) continue;
        done = true;
        for (int i = 0; i < tpl->cnt; ++i)
            if (tpl->elems[i].offset < ends[tpl->elems[i].partition]) done = false;
    }
    const double seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
    const double app_cpu = cpu_seconds(child) - app_cpu0, broker_cpu = cpu_seconds(broker) - broker_cpu0;
    ::kill(child, SIGTERM);
    int status = 0;
    for (int i = 0; i < 600 && ::waitpid(child, &status, WNOHANG) != child; ++i) std::this_thread::sleep_for(100ms);
    if (::kill(child, 0) == 0) {
        ::kill(child, SIGKILL);
        ::waitpid(child, &status, 0);
    }

    // The output must be complete, or the time means nothing.
    std::string check;
    if (to_sink) {
        std::int64_t produced = 0;
        for (auto e : end_offsets(watcher.get(), output, output_partitions)) produced += e;
        if (produced != stateless_expected)
            die("the stateless app wrote " + std::to_string(produced) + " records, expected " +
                std::to_string(stateless_expected));
        check = std::to_string(produced) + " output records";
    } else {
        auto [sum, nkeys] = latest_counts(bootstrap, output, output_partitions);
        if (sum != records || static_cast<std::int64_t>(nkeys) != std::min(keys, records))
            die("the stateful app's latest counts add up to " + std::to_string(sum) + " over " +
                std::to_string(nkeys) + " keys, expected " + std::to_string(records) + " over " +
                std::to_string(keys));
        check = "counts add up over " + std::to_string(nkeys) + " keys";
    }
    std::printf("RESULT %s %lld records %.3f s %.0f records/s cpu %.3f s %.2f cores %.3f us/rec broker %.2f cores (%s)\n",
                kind.c_str(), static_cast<long long>(records), seconds, static_cast<double>(records) / seconds, app_cpu,
                app_cpu / seconds, app_cpu * 1e6 / static_cast<double>(records), broker_cpu / seconds, check.c_str());
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
        if (cmd == "measure" && argc > 10 && std::string(argv[9]) == "--")
            return measure(argv[2], argv[3], argv[4], argv[5], argv[6], std::stoll(argv[7]), std::stoll(argv[8]),
                           argv + 10);
    } catch (const std::exception& e) {
        die(e.what());
    }
    std::cerr << "usage: e2e_driver preload BOOTSTRAP TOPIC PARTITIONS RECORDS KEYS\n"
                 "       e2e_driver create BOOTSTRAP TOPIC PARTITIONS\n"
                 "       e2e_driver measure BOOTSTRAP GROUP INPUT OUTPUT passthrough|stateless|stateful RECORDS KEYS -- COMMAND...\n";
    return 2;
}
