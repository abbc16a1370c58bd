// The members of a consumer group and their assignments, through the Admin API's
// DescribeConsumerGroups: how an instance learns which other instances read which partitions
// (interactive queries' host metadata).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lib/kafka/rd.hpp"

namespace kstreams::kafka {

struct group_member {
    std::string client_id;
    std::vector<std::pair<std::string, std::int32_t>> partitions;
};

/// The members of `group` with their assigned partitions, asked through `client` (any client of
/// the cluster). nullopt when the group is not stable (it rebalances), or does not answer within
/// `timeout`.
std::optional<std::vector<group_member>> describe_group(rd_kafka_t* client, const std::string& group,
                                                        std::chrono::milliseconds timeout);

}  // namespace kstreams::kafka
