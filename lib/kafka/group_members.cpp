#include "lib/kafka/group_members.hpp"

#include "lib/core/log.hpp"

namespace kstreams::kafka {

namespace {

struct options_deleter {
    void operator()(rd_kafka_AdminOptions_t* p) const noexcept { rd_kafka_AdminOptions_destroy(p); }
};

}  // namespace

std::optional<std::vector<group_member>> describe_group(rd_kafka_t* client, const std::string& group,
                                                        std::chrono::milliseconds timeout) {
    queue_ptr queue(rd_kafka_queue_new(client));
    std::unique_ptr<rd_kafka_AdminOptions_t, options_deleter> options(
        rd_kafka_AdminOptions_new(client, RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS));
    char err[256];
    rd_kafka_AdminOptions_set_request_timeout(options.get(), static_cast<int>(timeout.count()), err, sizeof err);
    const char* groups[] = {group.c_str()};
    rd_kafka_DescribeConsumerGroups(client, groups, 1, options.get(), queue.get());
    event_ptr ev(rd_kafka_queue_poll(queue.get(), static_cast<int>(timeout.count()) + 1000));
    if (!ev) return std::nullopt;
    if (rd_kafka_event_error(ev.get())) {
        KSTREAMS_LOG(debug, "describing consumer group " + group + ": " + rd_kafka_event_error_string(ev.get()));
        return std::nullopt;
    }
    const rd_kafka_DescribeConsumerGroups_result_t* result = rd_kafka_event_DescribeConsumerGroups_result(ev.get());
    if (!result) return std::nullopt;
    std::size_t count = 0;
    const rd_kafka_ConsumerGroupDescription_t** descriptions =
        rd_kafka_DescribeConsumerGroups_result_groups(result, &count);
    if (count != 1 || rd_kafka_ConsumerGroupDescription_error(descriptions[0])) return std::nullopt;
    const rd_kafka_ConsumerGroupDescription_t* d = descriptions[0];
    if (rd_kafka_ConsumerGroupDescription_state(d) != RD_KAFKA_CONSUMER_GROUP_STATE_STABLE) return std::nullopt;
    std::vector<group_member> out;
    for (std::size_t i = 0; i < rd_kafka_ConsumerGroupDescription_member_count(d); ++i) {
        const rd_kafka_MemberDescription_t* m = rd_kafka_ConsumerGroupDescription_member(d, i);
        group_member member;
        member.client_id = rd_kafka_MemberDescription_client_id(m);
        if (const rd_kafka_MemberAssignment_t* a = rd_kafka_MemberDescription_assignment(m))
            if (const rd_kafka_topic_partition_list_t* parts = rd_kafka_MemberAssignment_partitions(a))
                for (int p = 0; p < parts->cnt; ++p)
                    member.partitions.emplace_back(parts->elems[p].topic, parts->elems[p].partition);
        out.push_back(std::move(member));
    }
    return out;
}

}  // namespace kstreams::kafka
