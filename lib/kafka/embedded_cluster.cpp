#include <kstreams/embedded_cluster.hpp>

#include <map>
#include <mutex>

#include <kstreams/error.hpp>

#include "lib/kafka/rd.hpp"

#include <librdkafka/rdkafka_mock.h>  // after rdkafka.h (through rd.hpp), as it requires

namespace kstreams {

namespace {
// Embedded clusters of this process by address, so an app pointed at one creates its topics
// through it (the mock cluster has no Admin API).
std::mutex registry_mutex;
std::map<std::string, embedded_cluster*>& registry() {
    static std::map<std::string, embedded_cluster*> r;
    return r;
}
}  // namespace

struct embedded_cluster::impl {
    kafka::rk_ptr owner;  // the mock cluster lives inside this client handle
    rd_kafka_mock_cluster_t* cluster = nullptr;
    std::string bootstrap;
    int brokers = 1;
    std::mutex mutex;
    std::map<std::string, std::int32_t> topics;
};

embedded_cluster::embedded_cluster(int brokers) : impl_(std::make_unique<impl>()) {
    // A client only to host the mock cluster; it never connects anywhere.
    impl_->owner = kafka::make_client(RD_KAFKA_PRODUCER, kafka::make_conf({{"log_level", "3"}}, "embedded cluster"),
                                      "embedded cluster");
    impl_->brokers = brokers;
    impl_->cluster = rd_kafka_mock_cluster_new(impl_->owner.get(), brokers);
    if (!impl_->cluster) throw streams_error("could not start the embedded (mock) Kafka cluster");
    impl_->bootstrap = rd_kafka_mock_cluster_bootstraps(impl_->cluster);
    std::lock_guard lock(registry_mutex);
    registry()[impl_->bootstrap] = this;
}

embedded_cluster::~embedded_cluster() {
    {
        std::lock_guard lock(registry_mutex);
        registry().erase(impl_->bootstrap);
    }
    rd_kafka_mock_cluster_destroy(impl_->cluster);
}

const std::string& embedded_cluster::bootstrap_servers() const { return impl_->bootstrap; }

void embedded_cluster::create_topic(const std::string& topic, std::int32_t partitions) {
    std::lock_guard lock(impl_->mutex);
    if (auto it = impl_->topics.find(topic); it != impl_->topics.end()) {
        if (it->second != partitions)
            throw streams_error("embedded cluster: topic " + topic + " exists with " + std::to_string(it->second) +
                                " partitions, not " + std::to_string(partitions));
        return;
    }
    if (rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(impl_->cluster, topic.c_str(), partitions, 1))
        throw streams_error("embedded cluster: could not create topic " + topic + ": " + rd_kafka_err2str(err));
    impl_->topics.emplace(topic, partitions);
}

void embedded_cluster::set_brokers_up(bool up) {
    std::lock_guard lock(impl_->mutex);
    for (int id = 1; id <= impl_->brokers; ++id)
        if (rd_kafka_resp_err_t err = up ? rd_kafka_mock_broker_set_up(impl_->cluster, id)
                                         : rd_kafka_mock_broker_set_down(impl_->cluster, id))
            throw streams_error(std::string("embedded cluster: could not take broker ") + std::to_string(id) +
                                (up ? " up: " : " down: ") + rd_kafka_err2str(err));
}

embedded_cluster* embedded_cluster::find(const std::string& bootstrap) {
    std::lock_guard lock(registry_mutex);
    auto it = registry().find(bootstrap);
    return it == registry().end() ? nullptr : it->second;
}

}  // namespace kstreams
