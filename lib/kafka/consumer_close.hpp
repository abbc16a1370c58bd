// Closing a consumer within a bound. librdkafka's own close waits for the group coordinator for as
// long as that takes (a hung broker holds it for seconds), and destroying a consumer that was not
// closed closes it the same way; close(timeout) must not wait past its timeout.
#pragma once

#include <chrono>

#include "lib/kafka/rd.hpp"

namespace kstreams::kafka {

/// Leaves the group and stops fetching, serving the consumer's callbacks (rebalances) on this
/// thread, for at most `bound`. False if the close did not finish in time: destroy the consumer with
/// destroy_unclosed() then.
bool close_consumer_within(rd_kafka_t* consumer, std::chrono::milliseconds bound);

/// Destroys a consumer without closing it again: its group membership ends by session timeout.
void destroy_unclosed(rk_ptr consumer);

}  // namespace kstreams::kafka
