// Compile-time checks of the functions given to reduce() and aggregate(), windowed or not: one
// readable static_assert per mistake.
#pragma once

#include <type_traits>

namespace kstreams::dsl_detail {

template <class V, class F>
void check_reducer() {
    static_assert(std::is_invocable_v<F&, const V&, const V&>, "kstreams: reduce(): the reducer must take (aggregate, value), both of the stream's value type");
    static_assert(std::is_convertible_v<std::invoke_result_t<F&, const V&, const V&>, V>, "kstreams: reduce(): the reducer must return the stream's value type");
}

/// The aggregate type of an initializer.
template <class Init>
using aggregate_of_t = std::decay_t<std::invoke_result_t<Init&>>;

template <class K, class V, class Init, class F>
void check_aggregator() {
    static_assert(std::is_invocable_v<Init&>, "kstreams: aggregate(): the initializer must take no arguments");
    using Agg = aggregate_of_t<Init>;
    static_assert(std::is_invocable_v<F&, const K&, const V&, const Agg&>,
                  "kstreams: aggregate(): the aggregator must take (key, value, aggregate) with the aggregate of the initializer's type");
    static_assert(std::is_same_v<std::decay_t<std::invoke_result_t<F&, const K&, const V&, const Agg&>>, Agg>,
                  "kstreams: aggregate(): the aggregator must return the aggregate type (the initializer's return type)");
}

}  // namespace kstreams::dsl_detail
