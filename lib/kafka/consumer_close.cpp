#include "lib/kafka/consumer_close.hpp"

#include <algorithm>
#include <string>
#include <thread>

#include "lib/core/log.hpp"

namespace kstreams::kafka {

bool close_consumer_within(rd_kafka_t* consumer, std::chrono::milliseconds bound) {
    queue_ptr events(rd_kafka_queue_new(consumer));
    if (rd_kafka_error_t* error = rd_kafka_consumer_close_queue(consumer, events.get())) {
        KSTREAMS_LOG(warn, std::string("closing the consumer ") + rd_kafka_name(consumer) + ": " +
                               rd_kafka_error_string(error));
        rd_kafka_error_destroy(error);
        return rd_kafka_consumer_closed(consumer) != 0;
    }
    const auto until = std::chrono::steady_clock::now() + bound;
    while (!rd_kafka_consumer_closed(consumer)) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
        if (left.count() <= 0) break;
        rd_kafka_queue_poll_callback(events.get(), static_cast<int>(std::min<std::int64_t>(left.count(), 100)));
    }
    return rd_kafka_consumer_closed(consumer) != 0;
}

void destroy_unclosed(rk_ptr consumer) {
    if (!consumer) return;
    // librdkafka 2.0.2 can wait without end in destroying a consumer left in the middle of a group
    // operation (seen after a close past its deadline); the close must not hang on it.
    std::thread([rk = consumer.release()] { rd_kafka_destroy_flags(rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE); }).detach();
}

}  // namespace kstreams::kafka
