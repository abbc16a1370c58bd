// How the DSL calls user functions: Kafka's functions take (key, value); ours may also take just
// the value where that reads better. The concepts here give the one-line compile errors.
#pragma once

#include <concepts>
#include <functional>
#include <iterator>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include <kstreams/record.hpp>

namespace kstreams::dsl_detail {

template <class F, class K, class V>
concept kv_invocable = std::invocable<F&, const K&, const V&> || std::invocable<F&, const V&>;

/// Calls f(key, value), or f(value) if that is the form f takes.
template <class F, class K, class V>
decltype(auto) call_kv(F& f, const K& k, const V& v) {
    if constexpr (std::invocable<F&, const K&, const V&>) return std::invoke(f, k, v);
    else return std::invoke(f, v);
}

/// The parameter types of a function with one call operator (a lambda that is not generic, a
/// function object, a function pointer); unknown (no `type`) for generic or overloaded ones.
template <class... A>
struct parameter_list {
    static constexpr std::size_t size = sizeof...(A);
    template <std::size_t I>
    using at = std::decay_t<std::tuple_element_t<I, std::tuple<A...>>>;
};
template <class F>
struct parameters_of {};
template <class R, class... A>
struct parameters_of<R (*)(A...)> { using type = parameter_list<A...>; };
template <class R, class... A>
struct parameters_of<R (*)(A...) noexcept> { using type = parameter_list<A...>; };
template <class C, class R, class... A>
struct parameters_of<R (C::*)(A...)> { using type = parameter_list<A...>; };
template <class C, class R, class... A>
struct parameters_of<R (C::*)(A...) const> { using type = parameter_list<A...>; };
template <class C, class R, class... A>
struct parameters_of<R (C::*)(A...) noexcept> { using type = parameter_list<A...>; };
template <class C, class R, class... A>
struct parameters_of<R (C::*)(A...) const noexcept> { using type = parameter_list<A...>; };
template <class F>
    requires requires { &F::operator(); }
struct parameters_of<F> : parameters_of<decltype(&F::operator())> {};

/// Whether f, taking N parameters, declares parameter I as std::optional<T>.
template <class F, std::size_t N, std::size_t I, class T>
constexpr bool declares_optional() {
    if constexpr (requires { typename parameters_of<F>::type; }) {
        using params = typename parameters_of<F>::type;
        if constexpr (params::size == N) return std::is_same_v<typename params::template at<I>, std::optional<T>>;
        else return false;
    } else {
        return false;
    }
}

template <bool AsOptional, class T>
decltype(auto) declared_argument(const T& x, bool null) {
    if constexpr (AsOptional) return null ? std::optional<T>() : std::optional<T>(x);
    else return (x);
}

/// Calls f with a record's key and value as call_kv does, except that a function declaring
/// `std::optional<T>` for a key or value of plain type T is handed `nullopt` for Kafka's null
/// (a record flagged key_null / value_null), not the `T{}` standing in for it.
template <class F, class K, class V>
decltype(auto) call_kv(F& f, const K& k, const V& v, bool key_null, bool value_null) {
    constexpr bool two = std::invocable<F&, const K&, const V&>;
    constexpr bool optional_key = two && !is_optional_v<K> && declares_optional<F, 2, 0, K>();
    constexpr bool optional_value = !is_optional_v<V> && declares_optional<F, two ? 2 : 1, two ? 1 : 0, V>();
    if constexpr (two)
        return std::invoke(f, declared_argument<optional_key>(k, key_null), declared_argument<optional_value>(v, value_null));
    else
        return std::invoke(f, declared_argument<optional_value>(v, value_null));
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
