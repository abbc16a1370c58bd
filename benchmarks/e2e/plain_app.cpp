// The ceiling of the end-to-end benchmark: the pass-through and stateless pipelines written by hand on librdkafka, no
// framework. It does the durable work kstreams does (the same consumer group, assignor and producer
// settings; at-least-once: every commit interval the producer is flushed, then the consumed offsets
// are committed) and nothing else.
//
//   e2e_plain_app BOOTSTRAP GROUP passthrough|stateless INPUT OUTPUT STATE_DIR
//
// Prints STARTED right before it subscribes (the driver times from there) and runs until SIGTERM.
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>

#include "lib/kafka/rd.hpp"

namespace kafka = kstreams::kafka;
using namespace std::chrono_literals;

namespace {

volatile std::sig_atomic_t stop = 0;
void on_signal(int) { stop = 1; }

[[noreturn]] void die(const std::string& what) {
    std::cerr << "e2e_plain_app: " << what << "\n";
    std::exit(1);
}

/// Commits the next offset of every partition consumed from since the last commit, after the
/// producer delivered everything sent before it.
void commit(rd_kafka_t* consumer, rd_kafka_t* producer, std::map<std::pair<std::string, std::int32_t>, std::int64_t>& next) {
    if (next.empty()) return;
    if (rd_kafka_flush(producer, 60000)) die("the producer did not deliver within 60 s");
    kafka::tpl_ptr offsets = kafka::make_tpl(static_cast<int>(next.size()));
    for (const auto& [tp, offset] : next)
        rd_kafka_topic_partition_list_add(offsets.get(), tp.first.c_str(), tp.second)->offset = offset;
    if (rd_kafka_resp_err_t err = rd_kafka_commit(consumer, offsets.get(), 0))
        std::cerr << "e2e_plain_app: commit: " << rd_kafka_err2str(err) << "\n";
    next.clear();
}

/// librdkafka 2.0 stops fetching once the consumer's local queue holds queued.min.messages and looks
/// again only after up to a second (fetch.queue.backoff.ms came in 2.2). A loop that drains the
/// queue faster than that would sleep out the rest: the same wake-up kstreams does
/// (lib/kafka/fetch_queue.cpp), so the loop is a ceiling and not a stall. When a queue that was
/// nearly full runs dry, an asynchronous seek of every consumed partition to its next offset wakes
/// the fetcher; the queue is empty, so the seek drops nothing prefetched.
class fetch_wake {
public:
    explicit fetch_wake(rd_kafka_t* consumer) : consumer_(consumer) {}

    void after_batch(rd_kafka_queue_t* queue, const std::map<std::pair<std::string, std::int32_t>, std::int64_t>& positions) {
        const std::size_t queued = rd_kafka_queue_length(queue);
        if (queued >= nearly_full) was_full_ = true;
        if (!was_full_ || queued != 0 || positions.empty()) return;
        was_full_ = false;
        kafka::tpl_ptr seek = kafka::make_tpl(static_cast<int>(positions.size()));
        for (const auto& [tp, offset] : positions)
            rd_kafka_topic_partition_list_add(seek.get(), tp.first.c_str(), tp.second)->offset = offset;
        if (rd_kafka_error_t* err = rd_kafka_seek_partitions(consumer_, seek.get(), 0)) rd_kafka_error_destroy(err);
    }

private:
    static constexpr std::size_t nearly_full = 75000;  ///< of queued.min.messages' 100,000
    rd_kafka_t* consumer_;
    bool was_full_ = false;
};

}  // namespace

int main(int argc, char** argv) {
    const std::string kind = argc == 7 ? argv[3] : "";
    if (kind != "stateless" && kind != "passthrough") {
        std::cerr << "usage: e2e_plain_app BOOTSTRAP GROUP passthrough|stateless INPUT OUTPUT STATE_DIR\n";
        return 2;
    }
    const bool transform = kind == "stateless";
    std::signal(SIGTERM, on_signal);
    std::signal(SIGINT, on_signal);
    const std::string bootstrap = argv[1], group = argv[2], input = argv[4], output = argv[5];
    // kstreams' own client settings (lib/runtime/kafka_streams.cpp), so both do the same work.
    auto consumer = kafka::make_client(RD_KAFKA_CONSUMER,
                                       kafka::make_conf({{"bootstrap.servers", bootstrap},
                                                         {"group.id", group},
                                                         {"enable.auto.commit", "false"},
                                                         {"enable.auto.offset.store", "false"},
                                                         {"auto.offset.reset", "earliest"},
                                                         {"partition.assignment.strategy", "range"},
                                                         {"max.poll.interval.ms", "300000"},
                                                         {"log_level", "3"}},
                                                        "consumer"),
                                       "consumer");
    auto producer = kafka::make_client(RD_KAFKA_PRODUCER,
                                       kafka::make_conf({{"bootstrap.servers", bootstrap},
                                                         {"partitioner", "murmur2_random"},
                                                         {"enable.idempotence", "true"},
                                                         {"linger.ms", "100"},
                                                         {"log_level", "3"}},
                                                        "producer"),
                                       "producer");
    rd_kafka_topic_t* out = rd_kafka_topic_new(producer.get(), output.c_str(), nullptr);
    std::cout << "STARTED" << std::endl;
    rd_kafka_poll_set_consumer(consumer.get());
    kafka::tpl_ptr topics = kafka::make_tpl(1);
    rd_kafka_topic_partition_list_add(topics.get(), input.c_str(), RD_KAFKA_PARTITION_UA);
    if (rd_kafka_resp_err_t err = rd_kafka_subscribe(consumer.get(), topics.get())) die(rd_kafka_err2str(err));
    kafka::queue_ptr queue(rd_kafka_queue_get_consumer(consumer.get()));

    std::map<std::pair<std::string, std::int32_t>, std::int64_t> next, positions;
    fetch_wake wake(consumer.get());
    rd_kafka_message_t* batch[500];
    std::string up;
    auto next_commit = std::chrono::steady_clock::now() + 1000ms;
    while (!stop) {
        const ssize_t n = rd_kafka_consume_batch_queue(queue.get(), 100, batch, 500);
        // The offset slot of the partition the previous record came from: a batch is mostly one
        // partition, so the map is looked up once per run of records, not per record.
        std::int64_t* slot = nullptr;
        rd_kafka_topic_t* slot_topic = nullptr;
        std::int32_t slot_partition = -1;
        for (ssize_t i = 0; i < n; ++i) {
            kafka::message_ptr m(batch[i]);
            if (m->err) continue;
            if (m->rkt != slot_topic || m->partition != slot_partition) {
                slot_topic = m->rkt;
                slot_partition = m->partition;
                slot = &next[{rd_kafka_topic_name(m->rkt), m->partition}];
            }
            *slot = m->offset + 1;
            const auto* v = static_cast<const char*>(m->payload);
            const void* value = v;
            std::size_t value_len = v ? m->len : 0;
            if (transform) {
                if (!v || m->len == 0 || v[m->len - 1] == '0') continue;
                up.assign(v, m->len);
                for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
                value = up.data();
                value_len = up.size();
            }
            while (rd_kafka_producev(producer.get(), RD_KAFKA_V_RKT(out), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                     RD_KAFKA_V_KEY(m->key, m->key_len), RD_KAFKA_V_VALUE(const_cast<void*>(value), value_len),
                                     RD_KAFKA_V_TIMESTAMP(rd_kafka_message_timestamp(m.get(), nullptr)),
                                     RD_KAFKA_V_END) == RD_KAFKA_RESP_ERR__QUEUE_FULL)
                rd_kafka_poll(producer.get(), 10);
        }
        for (const auto& [tp, offset] : next) positions[tp] = offset;
        wake.after_batch(queue.get(), positions);
        rd_kafka_poll(producer.get(), 0);
        if (std::chrono::steady_clock::now() >= next_commit) {
            commit(consumer.get(), producer.get(), next);
            next_commit = std::chrono::steady_clock::now() + 1000ms;
        }
    }
    commit(consumer.get(), producer.get(), next);
    rd_kafka_topic_destroy(out);
    rd_kafka_consumer_close(consumer.get());
    return 0;
}
