// A value type with no serde written to a topic: a compile error that says what to do.
#include <kstreams/dsl.hpp>

struct point {
    int x = 0, y = 0;
};
struct point_serde {
    void serialize(const point& p, std::string& out) const { out += std::to_string(p.x) + "," + std::to_string(p.y); }
    point deserialize(std::string_view) const { return {}; }
};

int main() {
    kstreams::streams_builder b;
    auto points = b.stream<std::string, std::string>("in").map_values([](const std::string& v) { return point{static_cast<int>(v.size()), 0}; });
#ifdef KSTREAMS_COMPILE_FAIL_CONTROL
    points.to("out", kstreams::produced<>{}.with_value_serde(point_serde{}));
#else
    points.to("out");
#endif
}
