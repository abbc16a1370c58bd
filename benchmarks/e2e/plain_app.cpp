// The ceiling of the end-to-end benchmark: every pipeline written by hand on librdkafka (and
// RocksDB), no framework. Each does the durable work kstreams and Kafka Streams do (the same
// consumer group, assignor and producer settings; stores, record caches and changelogs as theirs,
// see plain/) and nothing else:
// - passthrough, stateless: consume, (filter and uppercase,) produce.
// - count, count_nocache, kv_store, hopping_count: plain/counting.cpp.
// - table_join, stream_join: plain/joins.cpp.
// - At-least-once: every second the record caches flush, the producer delivers everything, the
//   consumed offsets are committed, then each task checkpoints its changelog offsets once 10,000
//   changelog records went by (its stores flushed first). "<pipeline>-eos": exactly-once as
//   kstreams' exactly_once_v2: a transactional producer, read_committed, a transaction begun at
//   the first record after a commit, and every 100 ms the caches flush, the consumed offsets go
//   into the transaction with the group's metadata and it commits; no checkpoint while running.
//
//   e2e_plain_app BOOTSTRAP GROUP PIPELINE INPUT OUTPUT STATE_DIR
//
// The joins read INPUT's companion too ("<INPUT>-table", "<INPUT>-side"). Prints STARTED right
// before it subscribes (the driver times from there) and runs until SIGTERM.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "benchmarks/e2e/plain/common.hpp"
#include "benchmarks/e2e/plain/store.hpp"
#include "benchmarks/e2e/plain/task.hpp"
#include "lib/kafka/rd.hpp"
#include "lib/kafka/topic_admin.hpp"

namespace kafka = kstreams::kafka;
using namespace std::chrono_literals;
using plain::die;

namespace {

volatile std::sig_atomic_t stop = 0;
void on_signal(int) { stop = 1; }

using offsets = std::map<std::pair<std::string, std::int32_t>, std::int64_t>;

kafka::tpl_ptr to_list(const offsets& next) {
    kafka::tpl_ptr list = kafka::make_tpl(static_cast<int>(next.size()));
    for (const auto& [tp, offset] : next)
        rd_kafka_topic_partition_list_add(list.get(), tp.first.c_str(), tp.second)->offset = offset;
    return list;
}

/// Commits the next offset of every partition consumed from since the last commit: at-least-once
/// after the producer delivered everything sent before it, exactly-once inside the transaction.
void commit(rd_kafka_t* consumer, rd_kafka_t* producer, plain::transaction* txn, offsets& next) {
    if (next.empty()) return;
    const kafka::tpl_ptr list = to_list(next);
    if (txn) {
        txn->commit(consumer, list.get());
    } else {
        if (rd_kafka_flush(producer, 60000)) die("the producer did not deliver within 60 s");
        if (rd_kafka_resp_err_t err = rd_kafka_commit(consumer, list.get(), 0))
            std::cerr << "e2e_plain_app: commit: " << rd_kafka_err2str(err) << "\n";
    }
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

    void after_batch(rd_kafka_queue_t* queue, const offsets& positions) {
        const std::size_t queued = rd_kafka_queue_length(queue);
        if (queued >= nearly_full) was_full_ = true;
        if (!was_full_ || queued != 0 || positions.empty()) return;
        was_full_ = false;
        const kafka::tpl_ptr seek = to_list(positions);
        if (rd_kafka_error_t* err = rd_kafka_seek_partitions(consumer_, seek.get(), 0)) rd_kafka_error_destroy(err);
    }

private:
    static constexpr std::size_t nearly_full = 75000;  ///< of queued.min.messages' 100,000
    rd_kafka_t* consumer_;
    bool was_full_ = false;
};

/// Delivery reports: a changelog's records carry its progress as opaque.
void on_delivery(rd_kafka_t*, const rd_kafka_message_t* m, void*) {
    if (m->err) die(std::string("delivery failed: ") + rd_kafka_err2str(m->err));
    if (m->_private) {
        auto& p = *static_cast<plain::changelog_progress*>(m->_private);
        p.acked = std::max(p.acked, m->offset);
    }
}

/// The stateless pipelines: passthrough sends the fetched bytes on; stateless drops values
/// ending in '0' and uppercases the rest.
void pass_on(const plain::sinks& to, const rd_kafka_message_t& m, bool transform, std::string& up) {
    const auto* v = static_cast<const char*>(m.payload);
    std::string_view value(v ? v : "", v ? m.len : 0);
    if (transform) {
        if (!v || m.len == 0 || v[m.len - 1] == '0') return;
        up.assign(v, m.len);
        for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        value = up;
    }
    const std::string_view key(static_cast<const char*>(m.key), m.key_len);
    plain::produce(to, to.output, RD_KAFKA_PARTITION_UA, key, v ? &value : nullptr,
                   rd_kafka_message_timestamp(&m, nullptr), nullptr);
}

}  // namespace

int main(int argc, char** argv) {
    std::string kind = argc == 7 ? argv[3] : "";
    const bool eos = kind.ends_with("-eos");
    if (eos) kind.resize(kind.size() - 4);
    const bool transform = kind == "stateless";
    const std::vector<std::string> stores = plain::store_names(kind);
    const bool stateful = !stores.empty();
    if (!transform && !stateful && kind != "passthrough") {
        std::cerr << "usage: e2e_plain_app BOOTSTRAP GROUP PIPELINE[-eos] INPUT OUTPUT STATE_DIR\n"
                     "  PIPELINE: passthrough, stateless, count, count_nocache, kv_store, hopping_count, table_join, "
                     "stream_join\n";
        return 2;
    }
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
                                                         {"isolation.level", eos ? "read_committed" : "read_uncommitted"},
                                                         {"log_level", "3"}},
                                                        "consumer"),
                                       "consumer");
    std::map<std::string, std::string> producer_settings{{"bootstrap.servers", bootstrap},
                                                         {"partitioner", "murmur2_random"},
                                                         {"enable.idempotence", "true"},
                                                         {"linger.ms", "100"},
                                                         {"log_level", "3"}};
    if (eos) {
        producer_settings["transactional.id"] = group + "-loop-0";
        producer_settings["transaction.timeout.ms"] = "10000";
    }
    kafka::conf_ptr producer_conf = kafka::make_conf(producer_settings, "producer");
    rd_kafka_conf_set_dr_msg_cb(producer_conf.get(), &on_delivery);
    auto producer = kafka::make_client(RD_KAFKA_PRODUCER, std::move(producer_conf), "producer");
    rd_kafka_topic_t* out = rd_kafka_topic_new(producer.get(), output.c_str(), nullptr);
    std::cout << "STARTED" << std::endl;

    std::optional<plain::transaction> txn;
    if (eos) {
        if (rd_kafka_error_t* e = rd_kafka_init_transactions(producer.get(), 60000))
            die(std::string("init_transactions: ") + rd_kafka_error_string(e));
        txn.emplace(producer.get());
    }
    // The stateful pipelines' changelogs (compacted, one partition per input partition), created
    // after STARTED as kstreams creates its internal topics after start().
    const plain::rocks db;
    plain::task_setup setup{&db, {producer.get(), out, txn ? &*txn : nullptr}, {}, argv[6]};
    if (stateful) {
        kafka::topic_admin admin({{"bootstrap.servers", bootstrap}, {"log_level", "3"}}, 30s, nullptr);
        const auto parts = admin.partition_count(input);
        if (!parts) die("no topic " + input);
        std::vector<kafka::topic_spec> topics;
        for (const auto& s : stores) topics.push_back({group + "-" + s + "-changelog", *parts, 1, {{"cleanup.policy", "compact"}}});
        admin.create_topics(topics);
        for (const auto& t : topics) setup.changelogs.push_back(rd_kafka_topic_new(producer.get(), t.name.c_str(), nullptr));
    }
    std::string companion;
    if (kind == "table_join") companion = input + "-table";
    if (kind == "stream_join") companion = input + "-side";
    rd_kafka_poll_set_consumer(consumer.get());
    kafka::tpl_ptr topics = kafka::make_tpl(2);
    rd_kafka_topic_partition_list_add(topics.get(), input.c_str(), RD_KAFKA_PARTITION_UA);
    if (!companion.empty()) rd_kafka_topic_partition_list_add(topics.get(), companion.c_str(), RD_KAFKA_PARTITION_UA);
    if (rd_kafka_resp_err_t err = rd_kafka_subscribe(consumer.get(), topics.get())) die(rd_kafka_err2str(err));
    kafka::queue_ptr queue(rd_kafka_queue_get_consumer(consumer.get()));

    std::map<std::int32_t, std::unique_ptr<plain::task>> tasks;
    offsets next, positions;
    fetch_wake wake(consumer.get());
    rd_kafka_message_t* batch[500];
    std::string up;
    const auto interval = eos ? 100ms : 1000ms;
    auto next_commit = std::chrono::steady_clock::now() + interval;
    while (!stop) {
        const ssize_t n = rd_kafka_consume_batch_queue(queue.get(), eos ? 10 : 100, batch, 500);
        // The offset slot and task of the partition the previous record came from: a batch is
        // mostly one partition, so the maps are looked up once per run of records, not per record.
        std::int64_t* slot = nullptr;
        plain::task* task = nullptr;
        int source = 0;
        rd_kafka_topic_t* slot_topic = nullptr;
        std::int32_t slot_partition = -1;
        for (ssize_t i = 0; i < n; ++i) {
            kafka::message_ptr m(batch[i]);
            if (m->err) continue;
            if (m->rkt != slot_topic || m->partition != slot_partition) {
                slot_topic = m->rkt;
                slot_partition = m->partition;
                const char* topic = rd_kafka_topic_name(m->rkt);
                slot = &next[{topic, m->partition}];
                source = topic == input ? 0 : 1;
                if (stateful) {
                    auto& t = tasks[m->partition];
                    if (!t) t = plain::make_task(kind, setup, m->partition);
                    task = t.get();
                }
            }
            *slot = m->offset + 1;
            if (!task) {
                pass_on(setup.to, *m, transform, up);
                continue;
            }
            plain::input_record r;
            r.source = source;
            r.null_key = m->key == nullptr;
            r.null_value = m->payload == nullptr;
            if (!r.null_key) r.key = std::string_view(static_cast<const char*>(m->key), m->key_len);
            if (!r.null_value) r.value = std::string_view(static_cast<const char*>(m->payload), m->len);
            r.timestamp = rd_kafka_message_timestamp(m.get(), nullptr);
            task->process(r);
        }
        for (const auto& [tp, offset] : next) positions[tp] = offset;
        wake.after_batch(queue.get(), positions);
        rd_kafka_poll(producer.get(), 0);
        if (std::chrono::steady_clock::now() >= next_commit) {
            // As Kafka Streams' commit: the caches flush, the producer delivers (or the transaction
            // commits), the offsets are committed, then the stores checkpoint.
            for (auto& [p, t] : tasks) t->flush();
            commit(consumer.get(), producer.get(), txn ? &*txn : nullptr, next);
            if (!eos)
                for (auto& [p, t] : tasks) t->maybe_checkpoint();
            next_commit = std::chrono::steady_clock::now() + interval;
        }
    }
    for (auto& [p, t] : tasks) t->flush();
    commit(consumer.get(), producer.get(), txn ? &*txn : nullptr, next);
    tasks.clear();
    for (rd_kafka_topic_t* t : setup.changelogs) rd_kafka_topic_destroy(t);
    rd_kafka_topic_destroy(out);
    rd_kafka_consumer_close(consumer.get());
    return 0;
}
