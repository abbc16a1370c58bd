// The built-in serdes (Kafka's String, Short, Integer, Long, Float, Double, Boolean, ByteArray and
// Void serdes, and std::optional of them): arbitrary bytes decode or get the clear error; what
// decodes encodes back to the same bytes (each of these formats has one encoding per value), except
// a double NaN, which encodes as Java's canonical NaN (Double.doubleToLongBits).
#include <cmath>
#include <cstring>
#include <optional>
#include <type_traits>

#include <kstreams/serde.hpp>

#include "tests/fuzz/fuzz.hpp"

namespace {

template <class T>
void round_trip(std::string_view in) {
    const kstreams::serde<T> s;
    std::optional<T> v;
    if (!fuzz::decodes([&] { v = s.deserialize(in); })) return;
    if constexpr (std::is_same_v<T, double>) {
        if (std::isnan(*v)) {
            constexpr std::string_view canonical_nan{"\x7f\xf8\0\0\0\0\0\0", 8};
            FUZZ_CHECK(fuzz::encode(s, *v) == canonical_nan);
            return;
        }
    }
    FUZZ_CHECK(fuzz::encode(s, *v) == in);
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
