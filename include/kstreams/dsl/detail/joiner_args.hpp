// The one rule for how a joiner receives values, in every join kind (stream-stream, stream-table,
// table-table):
//   - a value that is always there (the left side of a left join, both sides of an inner join) is
//     passed as the stream's or table's value type V;
//   - a value that may be missing (the other side of a left join, either side of an outer join) is
//     passed as std::optional<V>, nullopt meaning "no partner"; when V already is a std::optional<T>,
//     as V itself (never std::optional<std::optional<T>>).
// A joiner declaring a value parameter as std::optional of what the rule passes (one optional too
// many) is refused at compile time: it would compile by conversion and then tell "a partner with a
// null value" apart from "no partner", which the join never does.
#pragma once

#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include <kstreams/record.hpp>

/// The text of the static_assert that refuses a joiner with one optional too many (joins append it
/// to "kstreams: <operator>(): ").
#define KSTREAMS_JOINER_OVER_WRAPPED_MESSAGE                                                            \
    "a joiner parameter has one std::optional too many: a value that may be missing comes as "        \
    "std::optional<V>, or as V itself when V already is a std::optional (nullopt = no partner), never " \
    "as std::optional<std::optional<T>>; a value that is always there comes as V"

namespace kstreams::dsl_detail {

/// What a joiner receives for a value of type V that may be missing.
template <class V>
using joiner_optional_t = std::conditional_t<is_optional_v<V>, V, std::optional<V>>;

/// What a joiner receives for a value of type V: V, or joiner_optional_t<V> if it may be missing.
template <class V, bool MayBeMissing>
using joiner_arg_t = std::conditional_t<MayBeMissing, joiner_optional_t<V>, V>;

/// The joiner's argument for *v (v == nullptr: no partner, allowed only when MayBeMissing).
template <class V, bool MayBeMissing>
decltype(auto) joiner_arg(const V* v) {
    if constexpr (!MayBeMissing) return (*v);
    else if constexpr (is_optional_v<V>) return v ? *v : V(std::nullopt);
    else return v ? std::optional<V>(*v) : std::optional<V>(std::nullopt);
}

/// As joiner_arg, for a value the caller gives away (a table row read for this one call): a value
/// that may be missing is moved into the joiner's optional instead of copied.
template <class V, bool MayBeMissing>
decltype(auto) joiner_arg_taken(V* v) {
    if constexpr (!MayBeMissing) return std::as_const(*v);
    else if constexpr (is_optional_v<V>) return v ? std::move(*v) : V(std::nullopt);
    else return v ? std::optional<V>(std::move(*v)) : std::optional<V>(std::nullopt);
}

/// The declared parameter types of a callable with one non-template call operator (or a function
/// pointer); `known` is false for generic lambdas and overloaded callables, whose arguments then
/// are exactly what the rule passes.
template <class F, class = void>
struct declared_params {
    static constexpr bool known = false;
    using type = std::tuple<>;
};
template <class R, class... A>
struct declared_params<R (*)(A...), void> {
    static constexpr bool known = true;
    using type = std::tuple<A...>;
};
template <class R, class... A>
struct declared_params<R (*)(A...) noexcept, void> : declared_params<R (*)(A...)> {};
template <class M>
struct member_call_params {
    static constexpr bool known = false;
    using type = std::tuple<>;
};
template <class C, class R, class... A>
struct member_call_params<R (C::*)(A...)> : declared_params<R (*)(A...)> {};
template <class C, class R, class... A>
struct member_call_params<R (C::*)(A...) const> : declared_params<R (*)(A...)> {};
template <class C, class R, class... A>
struct member_call_params<R (C::*)(A...) noexcept> : declared_params<R (*)(A...)> {};
template <class C, class R, class... A>
struct member_call_params<R (C::*)(A...) const noexcept> : declared_params<R (*)(A...)> {};
template <class F>
struct declared_params<F, std::void_t<decltype(&F::operator())>> : member_call_params<decltype(&F::operator())> {};

/// True unless parameter I of F is declared as std::optional<Passed> (one optional too many).
template <class F, std::size_t I, class Passed>
constexpr bool param_not_over_wrapped() {
    using P = declared_params<std::decay_t<F>>;
    if constexpr (!P::known || I >= std::tuple_size_v<typename P::type>) {
        return true;
    } else {
        using D = std::remove_cvref_t<std::tuple_element_t<I, typename P::type>>;
        return !std::is_same_v<D, std::optional<Passed>>;
    }
}

/// The joiner F of values L (always there unless LMissing) and R takes them as the rule says:
/// (l, r) or (key, l, r), neither declared with an optional too many.
template <class F, class K, class L, bool LMissing, class R, bool RMissing>
struct joiner_shape {
    using left_arg = joiner_arg_t<L, LMissing>;
    using right_arg = joiner_arg_t<R, RMissing>;
    static constexpr bool with_key = std::is_invocable_v<F&, const K&, const left_arg&, const right_arg&>;
    static constexpr bool invocable = with_key || std::is_invocable_v<F&, const left_arg&, const right_arg&>;
    static constexpr std::size_t first = with_key ? 1 : 0;
    static constexpr bool not_over_wrapped =
        param_not_over_wrapped<F, first, left_arg>() && param_not_over_wrapped<F, first + 1, right_arg>();
};

}  // namespace kstreams::dsl_detail
