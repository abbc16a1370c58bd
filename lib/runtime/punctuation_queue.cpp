#include "lib/runtime/punctuation_queue.hpp"

#include <algorithm>

namespace kstreams::detail {

cancellable punctuation_queue::schedule(node& owner, std::int64_t first, std::int64_t interval, punctuator callback) {
    auto cancelled = std::make_shared<bool>(false);
    entries_.push_back({&owner, first, interval, std::move(callback), cancelled});
    earliest_ = std::min(earliest_, first);
    return cancellable(cancelled);
}

}  // namespace kstreams::detail
