// How the DSL calls user functions: Kafka's functions take (key, value); ours may also take just
// the value where that reads better. The concepts here give the one-line compile errors.
#pragma once

#include <concepts>
#include <functional>
#include <iterator>
#include <type_traits>
#include <utility>

namespace kstreams::dsl_detail {

template <class F, class K, class V>
concept kv_invocable = std::invocable<F&, const K&, const V&> || std::invocable<F&, const V&>;

/// Calls f(key, value), or f(value) if that is the form f takes.
template <class F, class K, class V>
decltype(auto) call_kv(F& f, const K& k, const V& v) {
    if constexpr (std::invocable<F&, const K&, const V&>) return std::invoke(f, k, v);
    else return std::invoke(f, v);
}

template <class F, class K, class V>
using kv_result_t = std::decay_t<decltype(call_kv(std::declval<F&>(), std::declval<const K&>(), std::declval<const V&>()))>;

/// A key-value pair returned by map/flat_map/group_by functions: key_value<K,V>, std::pair, ...
template <class P>
concept pair_like = requires(const P& p) {
    p.key;
    p.value;
} || requires(const P& p) {
    p.first;
    p.second;
};

template <class P>
decltype(auto) pair_key(P&& p) {
    if constexpr (requires { p.key; }) return (std::forward<P>(p).key);
    else return (std::forward<P>(p).first);
}
template <class P>
decltype(auto) pair_value(P&& p) {
    if constexpr (requires { p.value; }) return (std::forward<P>(p).value);
    else return (std::forward<P>(p).second);
}
template <class P>
using pair_key_t = std::decay_t<decltype(pair_key(std::declval<const P&>()))>;
template <class P>
using pair_value_t = std::decay_t<decltype(pair_value(std::declval<const P&>()))>;

/// Anything a range-for can walk: containers, std views, range-v3 views (begin/end is enough).
template <class R>
concept iterable = requires(R& r) {
    std::begin(r);
    std::end(r);
};
template <class R>
using iterable_value_t = std::decay_t<decltype(*std::begin(std::declval<R&>()))>;

}  // namespace kstreams::dsl_detail
