// An aggregator that returns another type than the initializer's: one readable static_assert.
#include <kstreams/dsl.hpp>

int main() {
    kstreams::streams_builder b;
    b.stream<std::string, std::string>("in").group_by_key().aggregate(
        [] { return std::int64_t{0}; },
#ifdef KSTREAMS_COMPILE_FAIL_CONTROL
        [](const std::string&, const std::string& v, std::int64_t agg) { return agg + static_cast<std::int64_t>(v.size()); });
#else
        [](const std::string&, const std::string& v, std::int64_t agg) { return std::to_string(agg) + v; });
#endif
}
