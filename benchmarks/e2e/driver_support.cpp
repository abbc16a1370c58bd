#include "benchmarks/e2e/driver_support.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <thread>

#include "lib/kafka/topic_admin.hpp"

namespace e2e {

using namespace std::chrono_literals;

void die(const std::string& what) {
    std::cerr << "e2e_driver: " << what << "\n";
    std::exit(1);
}

void create_topic(const std::string& bootstrap, const std::string& topic, std::int32_t partitions) {
    kafka::topic_admin admin({{"bootstrap.servers", bootstrap}, {"log_level", "3"}}, 30s, nullptr);
    admin.create_topics({{topic, partitions, 1, {}}});
}

std::int32_t partition_count(const std::string& bootstrap, const std::string& topic) {
    kafka::topic_admin admin({{"bootstrap.servers", bootstrap}, {"log_level", "3"}}, 30s, nullptr);
    auto n = admin.partition_count(topic);
    if (!n) die("topic " + topic + " does not exist");
    return *n;
}

void delete_topics_with_prefix(const std::string& bootstrap, const std::string& prefix) {
    const std::map<std::string, std::string> settings{{"bootstrap.servers", bootstrap}, {"log_level", "3"}};
    kafka::topic_admin admin(settings, 30s, nullptr);
    std::vector<rd_kafka_DeleteTopic_t*> doomed;
    for (const auto& [name, partitions] : admin.partition_counts(true))
        if (name.starts_with(prefix)) doomed.push_back(rd_kafka_DeleteTopic_new(name.c_str()));
    if (doomed.empty()) return;
    auto client = kafka::make_client(RD_KAFKA_PRODUCER, kafka::make_conf(settings, "e2e admin"), "e2e admin");
    kafka::queue_ptr q(rd_kafka_queue_new(client.get()));
    rd_kafka_DeleteTopics(client.get(), doomed.data(), doomed.size(), nullptr, q.get());
    for (auto* d : doomed) rd_kafka_DeleteTopic_destroy(d);
    kafka::event_ptr ev(rd_kafka_queue_poll(q.get(), 60'000));
    if (!ev || rd_kafka_event_error(ev.get()))
        die("could not delete the topics named " + prefix + "*: " +
            (ev ? rd_kafka_event_error_string(ev.get()) : std::string("no answer within 60 s")));
}

kafka::rk_ptr consumer(const std::string& bootstrap, const std::string& group, bool read_committed) {
    return kafka::make_client(RD_KAFKA_CONSUMER,
                              kafka::make_conf({{"bootstrap.servers", bootstrap},
                                                {"group.id", group},
                                                {"enable.auto.commit", "false"},
                                                {"auto.offset.reset", "earliest"},
                                                {"enable.partition.eof", "true"},
                                                {"isolation.level", read_committed ? "read_committed" : "read_uncommitted"},
                                                {"log_level", "3"}},
                                               "consumer"),
                              "consumer");
}

void warm_group_coordinator(const std::string& bootstrap, const std::string& topic) {
    auto warm = consumer(bootstrap, "e2e-warmup");
    kafka::tpl_ptr offsets = kafka::make_tpl();
    rd_kafka_topic_partition_list_add(offsets.get(), topic.c_str(), 0)->offset = 0;
    // The coordinator may still be loading (or moving) while the offsets topic is created: retried.
    const auto deadline = std::chrono::steady_clock::now() + 120s;
    for (;;) {
        const rd_kafka_resp_err_t err = rd_kafka_commit(warm.get(), offsets.get(), 0);
        if (!err) return;
        const bool retriable = err == RD_KAFKA_RESP_ERR_NOT_COORDINATOR || err == RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS ||
                               err == RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE || err == RD_KAFKA_RESP_ERR__TIMED_OUT;
        if (!retriable || std::chrono::steady_clock::now() > deadline)
            die(std::string("warming up the group coordinator: ") + rd_kafka_err2str(err));
        std::this_thread::sleep_for(500ms);
    }
}

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

loader::loader(const std::string& bootstrap, int linger_ms)
    : rk_(kafka::make_client(RD_KAFKA_PRODUCER,
                             kafka::make_conf({{"bootstrap.servers", bootstrap},
                                               {"partitioner", "murmur2_random"},
                                               {"linger.ms", std::to_string(linger_ms)},
                                               {"batch.size", "1000000"},
                                               {"queue.buffering.max.messages", "1000000"},
                                               {"log_level", "3"}},
                                              "producer"),
                             "producer")) {}

void loader::send(const std::string& topic, std::int32_t key, const std::string& value, std::int64_t ts) {
    const unsigned char k[4] = {static_cast<unsigned char>(key >> 24), static_cast<unsigned char>(key >> 16),
                                static_cast<unsigned char>(key >> 8), static_cast<unsigned char>(key)};
    for (;;) {
        rd_kafka_resp_err_t err = rd_kafka_producev(rk_.get(), RD_KAFKA_V_TOPIC(topic.c_str()),
                                                    RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(k, 4),
                                                    RD_KAFKA_V_VALUE(const_cast<char*>(value.data()), value.size()),
                                                    RD_KAFKA_V_TIMESTAMP(ts), RD_KAFKA_V_END);
        if (!err) break;
        if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) die(std::string("producing: ") + rd_kafka_err2str(err));
        rd_kafka_poll(rk_.get(), 10);
    }
    rd_kafka_poll(rk_.get(), 0);
}

void loader::flush() {
    if (rd_kafka_flush(rk_.get(), 120000)) die("the producer did not deliver everything within 120 s");
}

std::string value_of(std::int64_t i) {
    char buf[128];
    const int n = std::snprintf(buf, sizeof buf, "value-%094lld", static_cast<long long>(i));
    return std::string(buf, static_cast<std::size_t>(n));
}

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

double peak_rss_mib(pid_t pid) {
    FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/status").c_str(), "r");
    if (!f) return 0;
    char line[256];
    double kib = 0;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "VmHWM:", 6) == 0) kib = std::atof(line + 6);
    std::fclose(f);
    return kib / 1024;
}

app_process::app_process(char** command) {
    int out[2];
    if (::pipe(out) != 0) die("pipe");
    pid_ = ::fork();
    if (pid_ < 0) die("fork");
    if (pid_ == 0) {
        ::dup2(out[1], 1);
        ::close(out[0]);
        ::close(out[1]);
        ::execvp(command[0], command);
        std::perror("e2e_driver: exec");
        ::_exit(127);
    }
    ::close(out[1]);
    out_ = ::fdopen(out[0], "r");
    char line[512];
    bool started = false;
    while (!started && std::fgets(line, sizeof line, out_)) started = std::strncmp(line, "STARTED", 7) == 0;
    if (!started) die("the app exited before it said STARTED");
    ::fcntl(out[0], F_SETFL, O_NONBLOCK);
}

app_process::~app_process() {
    stop();
    if (out_) std::fclose(out_);
}

void app_process::drain_output() {
    char line[512];
    while (std::fgets(line, sizeof line, out_)) std::cerr << line;
    std::clearerr(out_);
}

bool app_process::exited() {
    int status = 0;
    if (!reaped_ && ::waitpid(pid_, &status, WNOHANG) == pid_) reaped_ = true;
    return reaped_;
}

void app_process::stop() {
    if (exited()) return;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 600 && !exited(); ++i) std::this_thread::sleep_for(100ms);
    if (exited()) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    reaped_ = true;
}

}  // namespace e2e
