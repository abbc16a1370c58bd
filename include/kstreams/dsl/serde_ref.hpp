// A serde chosen when the pipeline is built: one the user passed, one inherited from upstream, or
// the type's default serde. Erased behind one virtual call so that the DSL's handles (kstream<K,V>)
// can carry serdes without putting serde types into their own types.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

#include <kstreams/serde.hpp>

namespace kstreams {

/// Marks "no serde given here": the DSL then uses the one inherited from upstream, or serde<T>.
struct no_serde {};

namespace dsl_detail {

template <class T>
struct serde_iface {
    virtual ~serde_iface() = default;
    virtual void serialize(const T& v, std::string& out) const = 0;
    virtual T deserialize(std::string_view in) const = 0;
    virtual bool is_null(const T& v) const = 0;
};

template <class T, class S>
struct serde_impl final : serde_iface<T> {
    explicit serde_impl(S s) : s_(std::move(s)) {}
    void serialize(const T& v, std::string& out) const override { s_.serialize(v, out); }
    T deserialize(std::string_view in) const override { return T(s_.deserialize(in)); }
    bool is_null(const T& v) const override { return serde_is_null(s_, v); }
    S s_;
};

/// Whether T's default serde holds no state, so that any instance of it may stand for another.
template <class T>
consteval bool has_stateless_default_serde() {
    if constexpr (has_default_serde<T>) return std::is_empty_v<serde<T>>;
    else return false;
}

}  // namespace dsl_detail

/// A type-erased serde for T; empty until set. The type's own stateless default serde (what most
/// pipelines use) is called directly, without the virtual call: sources and sinks use it per record.
template <class T>
class serde_ref {
public:
    serde_ref() = default;
    template <class S>
        requires(!std::is_same_v<std::decay_t<S>, serde_ref> && serde_for<std::decay_t<S>, T>)
    explicit serde_ref(S&& s)
        : impl_(std::make_shared<dsl_detail::serde_impl<T, std::decay_t<S>>>(std::forward<S>(s))) {
        if constexpr (direct_possible) direct_ = std::is_same_v<std::decay_t<S>, serde<T>>;
    }

    explicit operator bool() const { return impl_ != nullptr; }
    void serialize(const T& v, std::string& out) const {
        if constexpr (direct_possible)
            if (direct_) return serde<T>{}.serialize(v, out);
        impl_->serialize(v, out);
    }
    /// Where T's default serde has a fixed width and is the one chosen: writes v's bytes at `out`
    /// (max_fixed_width bytes) and answers how many; 0 otherwise (then serialize() it).
    std::size_t serialize_fixed_or_none(const T& v, char* out) const {
        if constexpr (direct_possible && fixed_width_serde<serde<T>, T>) {
            if (direct_) {
                serde<T>{}.serialize_fixed(v, out);
                return serde<T>::fixed_width;
            }
        }
        (void)v, (void)out;
        return 0;
    }
    T deserialize(std::string_view in) const {
        if constexpr (direct_possible)
            if (direct_) return T(serde<T>{}.deserialize(in));
        return impl_->deserialize(in);
    }
    bool is_null(const T& v) const {
        if constexpr (direct_possible)
            if (direct_) return serde_is_null(serde<T>{}, v);
        return impl_->is_null(v);
    }

private:
    static constexpr bool direct_possible = dsl_detail::has_stateless_default_serde<T>();
    std::shared_ptr<const dsl_detail::serde_iface<T>> impl_;
    bool direct_ = false;  ///< impl_ is serde<T>: call it directly
};

namespace dsl_detail {

/// The serde for T at a place where T crosses a topic or a store. `given` is what the user passed
/// at this call (no_serde if nothing); `inherited` what flows from upstream. A type without a
/// default serde needs one passed right here: that is a compile error, not a runtime surprise.
template <class T, class S>
serde_ref<T> pick_serde(const S& given, const serde_ref<T>& inherited) {
    if constexpr (!std::is_same_v<S, no_serde>) {
        static_assert(serde_for<S, T>,
                      "kstreams: the serde passed here does not serialize/deserialize this key or value type "
                      "(see the 'required from' lines for both types)");
        return serde_ref<T>(given);
    } else {
        static_assert(has_default_serde<T>,
                      "kstreams: a key or value type crosses a topic or a store here but has no serde. "
                      "Specialise kstreams::serde<T>, or pass a serde at this call (consumed/produced/"
                      "grouped/materialized/repartitioned ... .with_key_serde / .with_value_serde). "
                      "The type is named in the 'required from' lines.");
        if (inherited) return inherited;
        if constexpr (has_default_serde<T>) return serde_ref<T>(serde<T>{});
        else return {};
    }
}

/// The serde a source or option carries forward: what was given, else nothing (inherit later).
template <class T, class S>
serde_ref<T> given_or_empty(const S& given) {
    if constexpr (std::is_same_v<S, no_serde>) return {};
    else {
        static_assert(serde_for<S, T>, "kstreams: the serde passed here does not fit this key or value type");
        return serde_ref<T>(given);
    }
}

}  // namespace dsl_detail
}  // namespace kstreams
