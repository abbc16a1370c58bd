#include "lib/kafka/topic_admin.hpp"

#include <thread>

#include <kstreams/embedded_cluster.hpp>
#include <kstreams/error.hpp>

#include "lib/core/log.hpp"

namespace kstreams::kafka {

topic_admin::topic_admin(const std::map<std::string, std::string>& settings, std::chrono::milliseconds timeout,
                         embedded_cluster* embedded)
    : timeout_(timeout), embedded_(embedded) {
    if (auto it = settings.find("bootstrap.servers"); it != settings.end()) bootstrap_ = it->second;
    client_ = make_client(RD_KAFKA_PRODUCER, make_conf(settings, "admin client"), "admin client");
}

std::int64_t topic_admin::end_offset(const std::string& topic, std::int32_t partition) {
    std::int64_t low = 0, high = 0;
    const rd_kafka_resp_err_t err = rd_kafka_query_watermark_offsets(client_.get(), topic.c_str(), partition, &low,
                                                                     &high, static_cast<int>(timeout_.count()));
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR)
        throw streams_error("the end offset of " + describe_partition(topic, partition) + " could not be fetched from " +
                            bootstrap_ + ": " + rd_kafka_err2str(err));
    return high;
}

bool topic_admin::reachable(std::chrono::milliseconds wait) {
    const rd_kafka_metadata_t* md = nullptr;
    // Brokers only (no topic asked for): the cheapest request a broker answers.
    const rd_kafka_resp_err_t err = rd_kafka_metadata(client_.get(), 0, nullptr, &md, static_cast<int>(wait.count()));
    if (md) rd_kafka_metadata_destroy(md);
    return err == RD_KAFKA_RESP_ERR_NO_ERROR;
}

const std::map<std::string, std::int32_t>& topic_admin::partition_counts(bool refresh) {
    if (loaded_ && !refresh) return counts_;
    const rd_kafka_metadata_t* md = nullptr;
    const rd_kafka_resp_err_t err =
        rd_kafka_metadata(client_.get(), 1, nullptr, &md, static_cast<int>(timeout_.count()));
    if (err)
        throw cluster_unreachable("could not reach the Kafka cluster at bootstrap.servers=" + bootstrap_ + " within " +
                            std::to_string(timeout_.count()) + " ms: " + rd_kafka_err2str(err));
    counts_.clear();
    leaderless_.clear();
    for (int i = 0; i < md->topic_cnt; ++i) {
        const auto& t = md->topics[i];
        if (t.err == RD_KAFKA_RESP_ERR_NO_ERROR) counts_[t.topic] = t.partition_cnt;
        for (int p = 0; p < t.partition_cnt; ++p)
            if (t.partitions[p].leader < 0 || t.partitions[p].err) leaderless_.insert(t.topic);
    }
    rd_kafka_metadata_destroy(md);
    loaded_ = true;
    return counts_;
}

std::optional<std::int32_t> topic_admin::partition_count(const std::string& topic) {
    const auto& counts = partition_counts();
    auto it = counts.find(topic);
    if (it == counts.end()) return std::nullopt;
    return it->second;
}

void topic_admin::create_topics(const std::vector<topic_spec>& topics) {
    std::vector<const topic_spec*> missing;
    for (const auto& t : topics)
        if (!partition_count(t.name)) missing.push_back(&t);
    if (missing.empty()) return;

    if (embedded_) {
        for (const auto* t : missing) embedded_->create_topic(t->name, t->partitions);
    } else {
        char err[512];
        std::vector<rd_kafka_NewTopic_t*> new_topics;
        for (const auto* t : missing) {
            rd_kafka_NewTopic_t* nt =
                rd_kafka_NewTopic_new(t->name.c_str(), t->partitions, t->replication_factor, err, sizeof err);
            if (!nt) {
                for (auto* n : new_topics) rd_kafka_NewTopic_destroy(n);
                throw streams_error("could not create topic " + t->name + ": " + err);
            }
            for (const auto& [k, v] : t->config) rd_kafka_NewTopic_set_config(nt, k.c_str(), v.c_str());
            new_topics.push_back(nt);
        }
        queue_ptr q(rd_kafka_queue_new(client_.get()));
        rd_kafka_AdminOptions_t* opts = rd_kafka_AdminOptions_new(client_.get(), RD_KAFKA_ADMIN_OP_CREATETOPICS);
        rd_kafka_AdminOptions_set_operation_timeout(opts, static_cast<int>(timeout_.count()), err, sizeof err);
        rd_kafka_AdminOptions_set_request_timeout(opts, static_cast<int>(timeout_.count()), err, sizeof err);
        rd_kafka_CreateTopics(client_.get(), new_topics.data(), new_topics.size(), opts, q.get());
        rd_kafka_AdminOptions_destroy(opts);
        for (auto* n : new_topics) rd_kafka_NewTopic_destroy(n);
        event_ptr ev(rd_kafka_queue_poll(q.get(), static_cast<int>(timeout_.count()) + 1000));
        if (!ev) throw cluster_unreachable("creating internal topics timed out at bootstrap.servers=" + bootstrap_);
        if (const rd_kafka_resp_err_t e = rd_kafka_event_error(ev.get());
            e == RD_KAFKA_RESP_ERR__TIMED_OUT || e == RD_KAFKA_RESP_ERR__TRANSPORT)
            throw cluster_unreachable("could not create topics at bootstrap.servers=" + bootstrap_ + ": " +
                                      rd_kafka_event_error_string(ev.get()));
        if (rd_kafka_event_error(ev.get()))
            throw streams_error("could not create topics at bootstrap.servers=" + bootstrap_ + ": " +
                                rd_kafka_event_error_string(ev.get()));
        const rd_kafka_CreateTopics_result_t* res = rd_kafka_event_CreateTopics_result(ev.get());
        std::size_t n = 0;
        const rd_kafka_topic_result_t** results = rd_kafka_CreateTopics_result_topics(res, &n);
        for (std::size_t i = 0; i < n; ++i) {
            const rd_kafka_resp_err_t e = rd_kafka_topic_result_error(results[i]);
            if (e && e != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
                const char* msg = rd_kafka_topic_result_error_string(results[i]);
                throw streams_error(std::string("could not create topic ") + rd_kafka_topic_result_name(results[i]) +
                                    ": " + (msg ? msg : rd_kafka_err2str(e)));
            }
        }
    }
    // Wait until metadata shows every topic with leaders, so the consumers subscribe to existing topics.
    const auto deadline = std::chrono::steady_clock::now() + timeout_;
    for (;;) {
        partition_counts(true);
        bool all = true;
        for (const auto* t : missing) all = all && counts_.count(t->name) && !leaderless_.count(t->name);
        if (all) break;
        if (std::chrono::steady_clock::now() > deadline)
            throw streams_error("created topics did not appear in the metadata of bootstrap.servers=" + bootstrap_);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    for (const auto* t : missing)
        KSTREAMS_LOG(info, "created topic " + t->name + " with " + std::to_string(t->partitions) + " partitions");
}

}  // namespace kstreams::kafka
