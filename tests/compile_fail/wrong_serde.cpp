// An explicit serde of the wrong type for the source's key.
#include <kstreams/topology.hpp>

int main() {
    kstreams::topology t;
#ifdef KSTREAMS_COMPILE_FAIL_CONTROL
    t.add_source<std::int64_t, std::string>("s", {"t"}, kstreams::serde<std::int64_t>{});
#else
    t.add_source<std::int64_t, std::string>("s", {"t"}, kstreams::serde<std::string>{});
#endif
}
