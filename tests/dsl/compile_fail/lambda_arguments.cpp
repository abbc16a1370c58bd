// A predicate whose arguments do not fit the stream's types.
#include <kstreams/dsl.hpp>

int main() {
    kstreams::streams_builder b;
#ifdef KSTREAMS_COMPILE_FAIL_CONTROL
    b.stream<std::string, std::string>("in").filter([](const std::string& v) { return v.empty(); });
#else
    b.stream<std::string, std::string>("in").filter([](int v) { return v > 0; });
#endif
}
