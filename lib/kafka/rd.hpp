// RAII handles and small helpers over librdkafka's C API. Private to lib/.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <librdkafka/rdkafka.h>

namespace kstreams::kafka {

struct rk_deleter { void operator()(rd_kafka_t* p) const noexcept { rd_kafka_destroy(p); } };
struct conf_deleter { void operator()(rd_kafka_conf_t* p) const noexcept { rd_kafka_conf_destroy(p); } };
struct tpl_deleter {
    void operator()(rd_kafka_topic_partition_list_t* p) const noexcept { rd_kafka_topic_partition_list_destroy(p); }
};
struct queue_deleter { void operator()(rd_kafka_queue_t* p) const noexcept { rd_kafka_queue_destroy(p); } };
struct message_deleter { void operator()(rd_kafka_message_t* p) const noexcept { rd_kafka_message_destroy(p); } };
struct topic_deleter { void operator()(rd_kafka_topic_t* p) const noexcept { rd_kafka_topic_destroy(p); } };
struct event_deleter { void operator()(rd_kafka_event_t* p) const noexcept { rd_kafka_event_destroy(p); } };

using rk_ptr = std::unique_ptr<rd_kafka_t, rk_deleter>;
using conf_ptr = std::unique_ptr<rd_kafka_conf_t, conf_deleter>;
using tpl_ptr = std::unique_ptr<rd_kafka_topic_partition_list_t, tpl_deleter>;
using queue_ptr = std::unique_ptr<rd_kafka_queue_t, queue_deleter>;
using message_ptr = std::unique_ptr<rd_kafka_message_t, message_deleter>;
using topic_ptr = std::unique_ptr<rd_kafka_topic_t, topic_deleter>;
using event_ptr = std::unique_ptr<rd_kafka_event_t, event_deleter>;

/// A configuration with every setting of `settings` applied; throws streams_error naming a bad key.
conf_ptr make_conf(const std::map<std::string, std::string>& settings, std::string_view client_kind);

/// Creates a client; throws streams_error with librdkafka's reason.
rk_ptr make_client(rd_kafka_type_t type, conf_ptr conf, std::string_view client_kind);

inline tpl_ptr make_tpl(int size = 0) { return tpl_ptr(rd_kafka_topic_partition_list_new(size)); }

/// "topic X, partition N" for messages.
std::string describe_partition(std::string_view topic, std::int32_t partition);

}  // namespace kstreams::kafka
