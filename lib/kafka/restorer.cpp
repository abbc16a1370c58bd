#include "lib/kafka/restorer.hpp"

#include <map>
#include <thread>

#include <kstreams/error.hpp>

#include "lib/core/log.hpp"

namespace kstreams::kafka {

void restore(rd_kafka_t* consumer, std::vector<restore_target>& targets, std::chrono::milliseconds stall_timeout) {
    std::map<std::pair<std::string, std::int32_t>, restore_target*> pending;
    tpl_ptr assignment = make_tpl();
    for (auto& t : targets) {
        std::int64_t lo = 0, hi = 0;
        // Right after a topic is created its partitions may not have a leader yet: retry those.
        const auto deadline = std::chrono::steady_clock::now() + stall_timeout;
        rd_kafka_resp_err_t err;
        for (;;) {
            err = rd_kafka_query_watermark_offsets(consumer, t.topic.c_str(), t.partition, &lo, &hi,
                                                   static_cast<int>(stall_timeout.count()));
            const bool retriable = err == RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION ||
                                   err == RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE ||
                                   err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART ||
                                   err == RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION || err == RD_KAFKA_RESP_ERR__TRANSPORT;
            if (!retriable || std::chrono::steady_clock::now() > deadline) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        if (err)
            throw streams_error("could not read the end offset of changelog " + describe_partition(t.topic, t.partition) +
                                " (store " + t.store + "): " + rd_kafka_err2str(err));
        t.end_offset = hi;
        const std::int64_t start = std::max(lo, t.start_offset < 0 ? lo : t.start_offset);
        if (start >= hi) continue;
        if (t.listener) t.listener->on_restore_start(t.topic, t.partition, t.store, start, hi);
        pending[{t.topic, t.partition}] = &t;
        rd_kafka_topic_partition_list_add(assignment.get(), t.topic.c_str(), t.partition)->offset =
            t.start_offset < 0 ? RD_KAFKA_OFFSET_BEGINNING : t.start_offset;
    }
    if (pending.empty()) return;
    if (rd_kafka_resp_err_t err = rd_kafka_assign(consumer, assignment.get()))
        throw streams_error(std::string("could not assign changelog partitions to the restore consumer: ") +
                            rd_kafka_err2str(err));

    std::vector<message_ptr> batch;
    std::vector<restore_record> records;
    auto last_progress = std::chrono::steady_clock::now();
    auto apply = [&](restore_target& t) {
        if (records.empty()) return;
        (*t.restore)(records);
        t.restored += static_cast<std::int64_t>(records.size());
        if (t.listener)
            t.listener->on_batch_restored(t.topic, t.partition, t.store, batch.back()->offset,
                                          static_cast<std::int64_t>(records.size()));
        records.clear();
        batch.clear();
    };
    auto finish = [&](restore_target& t) {
        if (t.listener) t.listener->on_restore_end(t.topic, t.partition, t.store, t.restored);
    };
    restore_target* current = nullptr;
    while (!pending.empty()) {
        message_ptr m(rd_kafka_consumer_poll(consumer, 100));
        if (!m) {
            if (current) apply(*current);
            if (std::chrono::steady_clock::now() - last_progress > stall_timeout) {
                std::string names;
                for (auto& [tp, t] : pending) {
                    // Appended piecewise: g++ 12 -O3 warns (-Wrestrict) on `" " + string + ...` here.
                    names.append(" ").append(describe_partition(tp.first, tp.second));
                    names.append(" (store ").append(t->store).append(")");
                }
                rd_kafka_assign(consumer, nullptr);
                throw streams_error("restoring state stalled for " + std::to_string(stall_timeout.count()) +
                                    " ms on changelog" + names);
            }
            continue;
        }
        if (m->err) {
            if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
                if (current) apply(*current);
                if (auto it = pending.find({rd_kafka_topic_name(m->rkt), m->partition}); it != pending.end()) {
                    finish(*it->second);
                    pending.erase(it);
                }
            } else {
                KSTREAMS_LOG(warn, std::string("restore consumer: ") + rd_kafka_message_errstr(m.get()));
            }
            continue;
        }
        last_progress = std::chrono::steady_clock::now();
        auto it = pending.find({rd_kafka_topic_name(m->rkt), m->partition});
        if (it == pending.end()) continue;
        restore_target& t = *it->second;
        if (current && current != &t) apply(*current);
        current = &t;
        rd_kafka_timestamp_type_t type;
        records.push_back({std::string_view(static_cast<const char*>(m->key), m->key_len),
                           m->payload ? std::optional<std::string_view>(
                                            std::string_view(static_cast<const char*>(m->payload), m->len))
                                      : std::nullopt,
                           rd_kafka_message_timestamp(m.get(), &type)});
        const bool done = m->offset + 1 >= t.end_offset;
        batch.push_back(std::move(m));
        if (done || records.size() >= 1000) apply(t);
        if (done) {
            finish(t);
            pending.erase(it);
        }
    }
    if (current) apply(*current);
    rd_kafka_assign(consumer, nullptr);
}

}  // namespace kstreams::kafka
