#include <kstreams/test/topic_client.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <thread>

#include <kstreams/error.hpp>

#include "lib/kafka/message.hpp"
#include "lib/kafka/rd.hpp"

namespace kstreams::test {

using namespace kstreams::kafka;

struct topic_writer::impl {
    rk_ptr producer;
};

topic_writer::topic_writer(const std::string& bootstrap, std::map<std::string, std::string> settings)
    : impl_(std::make_unique<impl>()) {
    std::map<std::string, std::string> s{{"bootstrap.servers", bootstrap},
                                         {"partitioner", "murmur2_random"},
                                         {"enable.idempotence", "true"},
                                         {"linger.ms", "5"}};
    for (auto& [k, v] : settings) s[k] = v;
    impl_->producer = make_client(RD_KAFKA_PRODUCER, make_conf(s, "test producer"), "test producer");
}

topic_writer::~topic_writer() {
    if (impl_ && impl_->producer) rd_kafka_flush(impl_->producer.get(), 10000);
}

void topic_writer::send(const std::string& topic, std::optional<std::string> key, std::optional<std::string> value,
                        std::int64_t timestamp, std::optional<std::int32_t> partition) {
    const std::int32_t part = partition ? *partition : RD_KAFKA_PARTITION_UA;
    void* kp = key ? key->data() : nullptr;
    const std::size_t kl = key ? key->size() : 0;
    void* vp = value ? value->data() : nullptr;
    const std::size_t vl = value ? value->size() : 0;
    const std::int64_t ts = timestamp < 0 ? 0 : timestamp;
    for (;;) {
        const rd_kafka_resp_err_t err = rd_kafka_producev(
            impl_->producer.get(), RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_PARTITION(part),
            RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(kp, kl), RD_KAFKA_V_VALUE(vp, vl),
            RD_KAFKA_V_TIMESTAMP(ts), RD_KAFKA_V_END);
        if (!err) return;
        if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
            rd_kafka_poll(impl_->producer.get(), 10);
            continue;
        }
        throw streams_error("test producer: could not send to topic " + topic + ": " + rd_kafka_err2str(err));
    }
}

void topic_writer::flush(std::chrono::milliseconds timeout) {
    if (rd_kafka_resp_err_t err = rd_kafka_flush(impl_->producer.get(), static_cast<int>(timeout.count())))
        throw streams_error(std::string("test producer: flush failed: ") + rd_kafka_err2str(err));
}

struct topic_reader::impl {
    std::vector<std::string> topics;
    rk_ptr consumer;
    queue_ptr queue;
    int pipe_r = -1, pipe_w = -1;
    bool assigned = false;

    ~impl() {
        if (queue) rd_kafka_queue_io_event_enable(queue.get(), -1, nullptr, 0);
        queue.reset();
        if (consumer) rd_kafka_consumer_close(consumer.get());
        consumer.reset();
        if (pipe_r >= 0) ::close(pipe_r);
        if (pipe_w >= 0) ::close(pipe_w);
    }

    /// Assigns every partition once all topics exist.
    bool try_assign() {
        if (assigned) return true;
        tpl_ptr parts = make_tpl();
        for (const auto& t : topics) {
            const rd_kafka_metadata_t* md = nullptr;
            rd_kafka_topic_t* rkt = rd_kafka_topic_new(consumer.get(), t.c_str(), nullptr);
            const rd_kafka_resp_err_t err = rd_kafka_metadata(consumer.get(), 0, rkt, &md, 5000);
            rd_kafka_topic_destroy(rkt);
            if (err) return false;
            const int n = md->topic_cnt == 1 && !md->topics[0].err ? md->topics[0].partition_cnt : 0;
            rd_kafka_metadata_destroy(md);
            if (n == 0) return false;
            for (int p = 0; p < n; ++p)
                rd_kafka_topic_partition_list_add(parts.get(), t.c_str(), p)->offset = RD_KAFKA_OFFSET_BEGINNING;
        }
        if (rd_kafka_assign(consumer.get(), parts.get())) return false;
        assigned = true;
        return true;
    }

    std::optional<consumed_record> next(int timeout_ms) {
        if (!try_assign()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(std::min(timeout_ms, 100)));
            return std::nullopt;
        }
        for (;;) {
            message_ptr m(rd_kafka_consumer_poll(consumer.get(), timeout_ms));
            if (!m) return std::nullopt;
            if (m->err) {
                if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) continue;
                throw streams_error(std::string("test consumer: ") + rd_kafka_message_errstr(m.get()));
            }
            consumed_record r;
            r.topic = rd_kafka_topic_name(m->rkt);
            r.partition = m->partition;
            r.offset = m->offset;
            if (auto key = message_key(m.get())) r.key = std::string(*key);
            if (auto value = message_value(m.get())) r.value = std::string(*value);
            r.timestamp = message_timestamp(m.get());
            decode_headers(m.get(), r.hdrs);
            return r;
        }
    }
};

topic_reader::topic_reader(const std::string& bootstrap, std::vector<std::string> topics,
                           std::map<std::string, std::string> settings)
    : impl_(std::make_unique<impl>()) {
    impl_->topics = std::move(topics);
    std::map<std::string, std::string> s{{"bootstrap.servers", bootstrap},
                                         {"group.id", "kstreams-test-reader"},
                                         {"enable.auto.commit", "false"},
                                         {"enable.partition.eof", "false"},
                                         {"isolation.level", "read_committed"}};
    for (auto& [k, v] : settings) s[k] = v;
    impl_->consumer = make_client(RD_KAFKA_CONSUMER, make_conf(s, "test consumer"), "test consumer");
    rd_kafka_poll_set_consumer(impl_->consumer.get());
    int fds[2];
    if (::pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) throw streams_error("test consumer: pipe2 failed");
    impl_->pipe_r = fds[0];
    impl_->pipe_w = fds[1];
    impl_->queue.reset(rd_kafka_queue_get_consumer(impl_->consumer.get()));
    rd_kafka_queue_io_event_enable(impl_->queue.get(), impl_->pipe_w, "1", 1);
}

topic_reader::~topic_reader() = default;

std::vector<consumed_record> topic_reader::read(std::size_t n, std::chrono::milliseconds timeout) {
    std::vector<consumed_record> out;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (out.size() < n) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            std::string names;
            for (const auto& t : impl_->topics) names += (names.empty() ? "" : ", ") + t;
            throw streams_error("timed out after " + std::to_string(timeout.count()) + " ms waiting for " +
                                std::to_string(n) + " records of " + names + "; got " + std::to_string(out.size()));
        }
        if (auto r = impl_->next(static_cast<int>(std::min<std::int64_t>(left.count(), 200)))) out.push_back(std::move(*r));
    }
    return out;
}

std::vector<consumed_record> topic_reader::read_until_quiet(std::chrono::milliseconds quiet) {
    std::vector<consumed_record> out;
    auto last = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - last < quiet) {
        if (auto r = impl_->next(50)) {
            out.push_back(std::move(*r));
            last = std::chrono::steady_clock::now();
        }
    }
    return out;
}

std::optional<consumed_record> topic_reader::try_next() { return impl_->next(0); }

int topic_reader::wake_fd() {
    char buf[64];
    while (::read(impl_->pipe_r, buf, sizeof buf) > 0) {
    }
    return impl_->pipe_r;
}

const std::vector<std::string>& topic_reader::topics() const { return impl_->topics; }

}  // namespace kstreams::test
