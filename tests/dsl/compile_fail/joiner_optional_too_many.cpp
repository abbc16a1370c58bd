// A left join of an optional value type whose joiner takes the other value as
// std::optional<std::optional<T>>: it would compile by conversion and see "a partner holding
// nullopt" where there is no partner. The rule passes an optional value type as is.
#include <kstreams/dsl.hpp>

using opt = std::optional<std::string>;

int main() {
    kstreams::streams_builder b;
    auto left = b.stream<opt, opt>("left");
    auto right = b.stream<opt, opt>("right");
    const auto w = kstreams::join_windows::of_time_difference_with_no_grace(std::chrono::milliseconds(10));
#ifdef KSTREAMS_COMPILE_FAIL_CONTROL
    left.left_join(right, [](const opt& a, const opt& c) { return a.value_or("") + c.value_or(""); }, w);
#else
    left.left_join(right, [](const opt& a, const std::optional<opt>& c) { return a.value_or("") + c->value_or(""); }, w);
#endif
}
