// The built-in serdes' out-of-line parts: their errors name the serde and what was wrong.
#include <string>

#include <kstreams/error.hpp>
#include <kstreams/serde.hpp>

namespace kstreams {

namespace detail {

void throw_wrong_size(const char* serde_name, std::size_t expected, std::size_t got) {
    throw deserialization_error(std::string("size of data received by the ") + serde_name + " deserializer is " +
                                std::to_string(got) + " bytes, expected " + std::to_string(expected));
}

}  // namespace detail

bool serde<bool>::deserialize(std::string_view in) const {
    if (in.size() != 1) detail::throw_wrong_size("bool (Kafka BooleanSerde)", 1, in.size());
    if (in[0] == '\x01') return true;
    if (in[0] == '\x00') return false;
    throw deserialization_error("the bool (Kafka BooleanSerde) deserializer got a byte that is neither 0 nor 1");
}

void_value serde<void_value>::deserialize(std::string_view in) const {
    if (!in.empty())
        throw deserialization_error("the void (Kafka VoidSerde) deserializer got " + std::to_string(in.size()) +
                                    " bytes; it accepts only null");
    return {};
}

}  // namespace kstreams
