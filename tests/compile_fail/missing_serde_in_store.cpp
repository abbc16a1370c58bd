// A store over a value type without a default serde.
#include <kstreams/state/stores.hpp>

struct reading {
    double celsius;
};

#ifdef KSTREAMS_COMPILE_FAIL_CONTROL
template <>
struct kstreams::serde<reading> {
    void serialize(const reading&, std::string&) const {}
    reading deserialize(std::string_view) const { return {}; }
};
#endif

int main() {
    auto b = kstreams::stores::key_value_store_builder<std::string, reading>(
        kstreams::stores::in_memory_key_value_store("s"));
    (void)b;
}
