#include "lib/runtime/punctuation_queue.hpp"

namespace kstreams::detail {

cancellable punctuation_queue::schedule(node& owner, std::int64_t first, std::int64_t interval, punctuator callback) {
    auto cancelled = std::make_shared<bool>(false);
    entries_.push_back({&owner, first, interval, std::move(callback), cancelled});
    return cancellable(cancelled);
}

}  // namespace kstreams::detail
