// The built-in serdes (Kafka's String, Short, Integer, Long, Float, Double, Boolean, ByteArray and
// Void serdes, and std::optional of them): arbitrary bytes decode or get the clear error; what
// decodes encodes back to the same bytes (each of these formats has one encoding per value).
#include <cstring>
#include <optional>

#include <kstreams/serde.hpp>

#include "tests/fuzz/fuzz.hpp"

namespace {

template <class T>
void round_trip(std::string_view in) {
    const kstreams::serde<T> s;
    std::optional<T> v;
    if (fuzz::decodes([&] { v = s.deserialize(in); })) FUZZ_CHECK(fuzz::encode(s, *v) == in);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view in = fuzz::view(data, size);
    round_trip<std::string>(in);
    round_trip<std::int16_t>(in);
    round_trip<std::int32_t>(in);
    round_trip<std::int64_t>(in);
    round_trip<float>(in);
    round_trip<double>(in);
    round_trip<bool>(in);
    round_trip<kstreams::bytes>(in);
    round_trip<kstreams::void_value>(in);
    round_trip<std::optional<std::int32_t>>(in);
    round_trip<std::optional<std::string>>(in);
    return 0;
}
