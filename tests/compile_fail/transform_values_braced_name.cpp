// ktable::transform_values(supplier, {"name"}, {"store"}): a braced string cannot name the
// operator (it would have named it silently); named::as("name") does.
#include <kstreams/dsl.hpp>

struct same final : kstreams::value_transformer_with_key<std::string, std::string, std::string> {
    std::optional<std::string> transform(const std::string&, const std::optional<std::string>& v) override { return v; }
};

int main() {
    kstreams::streams_builder b;
    auto t = b.table<std::string, std::string>("in");
#ifdef KSTREAMS_COMPILE_FAIL_CONTROL
    t.transform_values([] { return std::make_unique<same>(); }, kstreams::named::as("tv"), {"store"});
#else
    t.transform_values([] { return std::make_unique<same>(); }, {"tv"}, {"store"});
#endif
}
