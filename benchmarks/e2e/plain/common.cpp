#include "benchmarks/e2e/plain/common.hpp"

#include <cstdlib>
#include <iostream>

namespace plain {

void die(const std::string& what) {
    std::cerr << "e2e_plain_app: " << what << "\n";
    std::exit(1);
}

void transaction::fail(const char* what, rd_kafka_error_t* e) {
    const std::string msg = std::string(what) + ": " + rd_kafka_error_string(e);
    rd_kafka_error_destroy(e);
    die(msg);
}

void transaction::commit(rd_kafka_t* consumer, const rd_kafka_topic_partition_list_t* offsets) {
    begin();  // the offsets alone need a transaction too
    rd_kafka_consumer_group_metadata_t* group = rd_kafka_consumer_group_metadata(consumer);
    rd_kafka_error_t* e = rd_kafka_send_offsets_to_transaction(producer_, offsets, group, 60000);
    rd_kafka_consumer_group_metadata_destroy(group);
    if (e) fail("send_offsets_to_transaction", e);
    if ((e = rd_kafka_commit_transaction(producer_, 60000))) fail("commit_transaction", e);
    open_ = false;
}

void produce(const sinks& to, rd_kafka_topic_t* topic, std::int32_t partition, std::string_view key,
             const std::string_view* value, std::int64_t timestamp, void* opaque) {
    if (to.txn) to.txn->begin();
    void* k = const_cast<char*>(key.data());
    void* v = value ? const_cast<char*>(value->data()) : nullptr;
    const std::size_t klen = key.size(), vlen = value ? value->size() : 0;
    while (rd_kafka_producev(to.producer, RD_KAFKA_V_RKT(topic), RD_KAFKA_V_PARTITION(partition),
                             RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(k, klen), RD_KAFKA_V_VALUE(v, vlen),
                             RD_KAFKA_V_TIMESTAMP(timestamp), RD_KAFKA_V_OPAQUE(opaque),
                             RD_KAFKA_V_END) == RD_KAFKA_RESP_ERR__QUEUE_FULL)
        rd_kafka_poll(to.producer, 10);
}

}  // namespace plain
