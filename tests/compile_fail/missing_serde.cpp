// A type without a default serde used as a source key: one readable static_assert naming the type.
#include <kstreams/topology.hpp>

struct point {
    int x, y;
};

#ifdef KSTREAMS_COMPILE_FAIL_CONTROL
template <>
struct kstreams::serde<point> {
    void serialize(const point&, std::string&) const {}
    point deserialize(std::string_view) const { return {}; }
};
#endif

int main() {
    kstreams::topology t;
    t.add_source<point, std::string>("s", {"t"});
}
